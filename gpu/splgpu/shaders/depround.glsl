// Deposition: one round of the sums by pointer jumping over the forest
// of depinit's pointers, as arearound's counts: each cell adds its
// partial sum to its own destination and to the destination of the cell
// it points to (64-bit fixed point, atomics with a carry: exact in any
// order), and its pointer doubles.
layout(std430, binding = 5) readonly buffer P0b { int ps[]; };
layout(std430, binding = 6) writeonly buffer P1b { int pd[]; };
layout(std430, binding = 7) readonly buffer X0b { uint xsLo[]; };
layout(std430, binding = 8) readonly buffer X1b { uint xsHi[]; };
layout(std430, binding = 9) buffer X2b { uint xdLo[]; };
layout(std430, binding = 10) buffer X3b { uint xdHi[]; };

void add(int k, uvec2 v) {
	uint old = atomicAdd(xdLo[k], v.x);
	atomicAdd(xdHi[k], v.y + (old + v.x < old ? 1u : 0u));
}

void main() {
	countBegin();
	int i = cellIndex();
	if (i < P.n) {
		int p = ps[i];
		uvec2 v = uvec2(xsLo[i], xsHi[i]);
		add(i, v);
		int q = -1;
		if (p >= 0) {
			add(p, v);
			q = ps[p];
		}
		pd[i] = q;
		if (q >= 0) atomicAdd(groupCount, 1u);
	}
	countEnd(CTL_ACTIVE);
}
