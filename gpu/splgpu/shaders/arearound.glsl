// One round of drainage accumulation by pointer jumping over the
// receiver forest. After round k a cell holds the cells of its subtree
// less than 2^k steps above it and points to its 2^k-th receiver; each
// cell adds its count to its own destination and to the destination of
// the cell it points to, and its pointer doubles. The sums are integer
// atomics, exact in any order. Three count buffers rotate: this round's
// destination starts at 0, and the next round's is cleared here.
layout(std430, binding = 5) readonly buffer P0b { int ps[]; };
layout(std430, binding = 6) writeonly buffer P1b { int pd[]; };
layout(std430, binding = 7) readonly buffer A0b { uint as_[]; };
layout(std430, binding = 8) buffer A1b { uint ad[]; };
layout(std430, binding = 10) writeonly buffer A2b { uint az[]; };

void main() {
	countBegin();
	int i = cellIndex();
	if (i < P.n) {
		int p = ps[i];
		uint a = as_[i];
		atomicAdd(ad[i], a);
		int q = -1;
		if (p >= 0) {
			atomicAdd(ad[p], a);
			q = ps[p];
		}
		pd[i] = q;
		az[i] = 0u;
		if (q >= 0) groupCount = 1u;
	}
	countEnd(CTL_ACTIVE);
}
