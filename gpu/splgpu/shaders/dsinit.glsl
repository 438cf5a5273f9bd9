// Deposition, the tree contraction's start (see deposit.go): each cell's
// yield y = h_b − h_l (the uplifted height less the limited one, m over
// a cell, fixed point; an exit's less its lake's volume) as its sum so
// far, in the first pair of sum buffers, and each cell counted as a
// donor not yet added in its receiver's code word (depvol cleared them).
layout(std430, binding = 2) readonly buffer Hb { float hb[]; };
layout(std430, binding = 3) buffer Db { uint dcode[]; };
layout(std430, binding = 4) readonly buffer Lb { int lab[]; };
layout(std430, binding = 7) writeonly buffer S0l { uint s0Lo[]; };
layout(std430, binding = 8) writeonly buffer S0h { uint s0Hi[]; };
layout(std430, binding = 12) readonly buffer Pits { Pit pits[]; };
layout(std430, binding = 13) readonly buffer Hl { float hl[]; };
// Slot 1's places (dsbuf.glsl): on a lean layout their claims freed.
layout(std430, binding = 6) writeonly buffer Lp { int lp[]; };

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
	if (i == 0) {
		ctl[CTL_LIST] = 0u; // no list of the nodes left yet (dslist)
		ctl[CTL_LISTOFF] = NOLIST;
		ctl[CTL_LISTNEXT] = 0u;
	}
	if (i >= P.n) return;
#ifdef LEAN
	if (i < P.n / 4) lp[2 * (P.n / 4) + i] = -1;
#endif
	uint w = dcode[i];
	uint c = w & 15u;
	uvec2 y = toFix(double(hb[i]) - double(hl[i]));
	if (c < 8u) {
		if ((w & EXIT) != 0u) {
			int pi = pitOf(lab[i]);
			if (pi >= 0) y = sub64(y, uvec2(pits[pi].vpLo, pits[pi].vpHi));
		}
		atomicAdd(dcode[recOf(i, c)], CNT1);
	}
	s0Lo[i] = y.x; s0Hi[i] = y.y;
}
