// One round of drainage accumulation by pointer jumping over the
// receiver forest. After round k a cell holds the cells of its subtree
// less than 2^k steps above it and points to its 2^k-th receiver; each
// cell adds its count to the cell it points to, and its pointer doubles.
// The destination holds a copy of the source counts before the round;
// the sums are integer atomics, exact in any order.
layout(std430, binding = 5) readonly buffer P0b { int ps[]; };
layout(std430, binding = 6) writeonly buffer P1b { int pd[]; };
layout(std430, binding = 7) readonly buffer A0b { uint as_[]; };
layout(std430, binding = 8) buffer A1b { uint ad[]; };

void main() {
	countBegin();
	int i = cellIndex();
	if (i < P.n) {
		int p = ps[i];
		int q = -1;
		if (p >= 0) {
			atomicAdd(ad[p], as_[i]);
			q = ps[p];
		}
		pd[i] = q;
		if (q >= 0) atomicAdd(groupCount, 1u);
	}
	countEnd(CTL_ACTIVE);
}
