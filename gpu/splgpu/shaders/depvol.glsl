// Deposition, one iteration's first pass per cell. From the last
// iteration's sums x (the volume leaving each cell before the clamp,
// m over a cell; none at iteration 0) a cell other than a root is cut
// (CUT: its outflow is 0) where x < 0, and lowered by what it lacks
// (sim/spl's Deposit: more deposited than arrived is taken back), where
// the sediment reaching it and its own yield fall short (x, or x plus
// its lake's volume at an exit). Its depth below its lake's level, on
// the lowered height, is added to the lake's volume (vn, fixed point).
// Counts the cells whose cut changed.
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
		int pi = pitOf(lab[i]);
		bool cut = false;
		double low = 0.0;
		if (ctl[CTL_DEPITER] > 0u && !root) {
			double x = fromFix(uvec2(xsLo[i], xsHi[i]));
			cut = x < 0.0;
			if ((w & EXIT) != 0u && pi >= 0) x += fromFix(uvec2(pits[pi].vpLo, pits[pi].vpHi));
			if (x < 0.0) low = x;
		}
		float h = float(double(hl[i]) + low);
		if (pi >= 0 && !root) {
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
