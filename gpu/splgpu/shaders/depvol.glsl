// Deposition, first pass per cell: each cell's depth below its lake's
// level on the limited heights is added to the lake's volume (vn, fixed
// point), and the bits of the tree contraction (DSBITS) are cleared.
layout(std430, binding = 3) buffer Db { uint dcode[]; };
layout(std430, binding = 4) readonly buffer Lb { int lab[]; };
layout(std430, binding = 11) readonly buffer Hl { float hl[]; };
layout(std430, binding = 12) buffer Pits { Pit pits[]; };

int pitOf(int root) {
	int lo = 0, hi = int(ctl[CTL_PITS]);
	while (lo < hi) {
		int mid = (lo + hi) >> 1;
		if (pits[mid].root < root) lo = mid + 1; else hi = mid;
	}
	return lo < int(ctl[CTL_PITS]) && pits[lo].root == root ? lo : -1;
}

void main() {
	int i = cellIndex();
	if (i >= P.n) return;
	uint w = dcode[i];
	if ((w & DSBITS) != 0u) dcode[i] = w & ~DSBITS;
	int pi;
	if ((w & 15u) < 8u && (pi = pitOf(lab[i])) >= 0) {
		float h = hl[i];
		float lv = pits[pi].lvl;
		if (lv > h) {
			uvec2 v = toFix(double(lv) - double(h));
			uint old = atomicAdd(pits[pi].vnLo, v.x);
			atomicAdd(pits[pi].vnHi, v.y + (old + v.x < old ? 1u : 0u));
		}
	}
}
