// Drainage area, exact: every cell starts with its own count (1) and a
// pointer to its receiver (-1 at a root); the first round's destination
// counts start at 0. With FUSED (areainit1) the cells start where the
// first round (arearound) would leave them, without its atomics: a count
// of the cell and its donors (the neighbours whose receiver it is, read
// from their codes) and a pointer to its receiver's receiver (-1 past a
// root); integers, so the counts are the round's exactly.
layout(std430, binding = 3) readonly buffer Db { uint dcode[]; };
layout(std430, binding = 6) writeonly buffer P1b { int pd[]; };
layout(std430, binding = 8) writeonly buffer A1b { uint ad[]; };
layout(std430, binding = 10) writeonly buffer A2b { uint az[]; };

void main() {
	int i = cellIndex();
	if (i >= P.n) return;
	uint c = dcode[i] & 15u;
	int p = c >= 8u ? -1 : recOf(i, c);
#ifdef FUSED
	uint a = 1u;
	int x = i % P.W, y = i / P.W;
	for (int d = 0; d < 8; d++) {
		int nx = x + DX[d], ny = y + DY[d];
		if (nx < 0 || nx >= P.W || ny < 0 || ny >= P.H) continue;
		// The neighbour drains here when its code points back (d + 4).
		if ((dcode[ny * P.W + nx] & 15u) == uint((d + 4) & 7)) a++;
	}
	if (p >= 0) {
		uint cp = dcode[p] & 15u;
		p = cp >= 8u ? -1 : recOf(p, cp);
	}
	ad[i] = a;
#else
	ad[i] = 1u;
#endif
	pd[i] = p;
	az[i] = 0u;
}
