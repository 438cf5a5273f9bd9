// Deposition, one iteration's first pass per cell. At iteration 0 no
// cell is cut (CUT: the cell's outflow is 0), and each
// cell's depth below its lake's level on the limited heights is added to
// the lake's volume (vn, fixed point). At later ones, from the last
// iteration's sums x (the volume leaving each cell before the clamp, m
// over a cell) a cell other than a root is cut where x < 0. Only an exit
// or a cell whose own yield is negative can be cut (what reaches a cell
// is never negative): a negative sum through other cells is a cut
// upstream not made yet, which cutting there too would only delay.
// Counts the cells whose cut changed.
layout(std430, binding = 2) readonly buffer Hb { float hb[]; };
layout(std430, binding = 3) buffer Db { uint dcode[]; };
layout(std430, binding = 4) readonly buffer Lb { int lab[]; };
layout(std430, binding = 7) readonly buffer X0b { uint xsLo[]; };
layout(std430, binding = 8) readonly buffer X1b { uint xsHi[]; };
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
	countBegin();
	int i = cellIndex();
	if (i < P.n) {
		uint w = dcode[i];
		bool root = (w & 15u) >= 8u;
		bool cut = false;
		bool exit = (w & EXIT) != 0u;
		int pi;
		if (ctl[CTL_DEPITER] > 0u) {
			cut = !root && (exit || hb[i] < hl[i]) && int(xsHi[i]) < 0;
		} else if (!root && (pi = pitOf(lab[i])) >= 0) {
			float h = hl[i];
			float lv = pits[pi].lvl;
			if (lv > h) {
				uvec2 v = toFix(double(lv) - double(h));
				uint old = atomicAdd(pits[pi].vnLo, v.x);
				atomicAdd(pits[pi].vnHi, v.y + (old + v.x < old ? 1u : 0u));
			}
		}
		if (cut != ((w & CUT) != 0u)) {
			atomicAdd(groupCount, 1u);
			dcode[i] = cut ? w | CUT : w & ~CUT;
		}
	}
	countEnd(CTL_DEPCHANGED);
}
