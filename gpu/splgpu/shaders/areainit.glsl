// Drainage area, exact: every cell starts with its own count (1) and a
// pointer to its receiver (-1 at a root); the first round's destination
// counts start at 0.
layout(std430, binding = 3) readonly buffer Db { uint dcode[]; };
layout(std430, binding = 6) writeonly buffer P1b { int pd[]; };
layout(std430, binding = 8) writeonly buffer A1b { uint ad[]; };
layout(std430, binding = 10) writeonly buffer A2b { uint az[]; };

void main() {
	int i = cellIndex();
	if (i >= P.n) return;
	uint c = dcode[i] & 15u;
	pd[i] = c >= 8u ? -1 : recOf(i, c);
	ad[i] = 1u;
	az[i] = 0u;
}
