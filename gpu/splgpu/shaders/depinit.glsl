// Deposition, the sums' start: each cell's yield y = h_b − h_l (the
// uplifted height less the limited one, m over a cell, fixed point; an
// exit's less its lake's volume) and its pointer, its receiver but for
// roots and cut cells (whose outflow is 0: their sum stays theirs).
layout(std430, binding = 2) readonly buffer Hb { float hb[]; };
layout(std430, binding = 3) readonly buffer Db { uint dcode[]; };
layout(std430, binding = 4) readonly buffer Lb { int lab[]; };
layout(std430, binding = 6) writeonly buffer P1b { int pd[]; };
layout(std430, binding = 9) writeonly buffer X2b { uint xdLo[]; };
layout(std430, binding = 10) writeonly buffer X3b { uint xdHi[]; };
layout(std430, binding = 11) readonly buffer Hl { float hl[]; };
layout(std430, binding = 12) readonly buffer Pits { Pit pits[]; };

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
	uint c = w & 15u;
	pd[i] = c >= 8u || (w & CUT) != 0u ? -1 : recOf(i, c);
	uvec2 y = toFix(double(hb[i]) - double(hl[i]));
	if ((w & EXIT) != 0u && c < 8u) {
		int pi = pitOf(lab[i]);
		if (pi >= 0) y = sub64(y, uvec2(pits[pi].vpLo, pits[pi].vpHi));
	}
	xdLo[i] = y.x; xdHi[i] = y.y;
}
