// Deposition, the tree contraction's end: every node's S (what leaves it
// before the clamp at 0) into the first pair of sum buffers, where
// depphi, depdr and depfin read it.
layout(std430, binding = 3) readonly buffer Db { uint dcode[]; };
layout(std430, binding = 7) writeonly buffer S0l { uint s0Lo[]; };
layout(std430, binding = 8) writeonly buffer S0h { uint s0Hi[]; };
layout(std430, binding = 9) readonly buffer S1l { uint s1Lo[]; };
layout(std430, binding = 10) readonly buffer S1h { uint s1Hi[]; };

void main() {
	int i = cellIndex();
	if (i < P.n && (dcode[i] & RESP) != 0u) {
		s0Lo[i] = s1Lo[i];
		s0Hi[i] = s1Hi[i];
	}
}
