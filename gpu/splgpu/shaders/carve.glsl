// Routes each pit's basin out through its pass (Cordonnier et al. 2016,
// §4.3, as sim/flow carves): the path from the pass cell down to the pit
// is reversed, the pass cell drains across the pass (or out of a Natural
// edge), and the path's cells are marked (bit 4) so that the next
// routing drops their hysteresis, its pass cell as an exit too (EXIT,
// kept to the next routing: labelold reads the labels off the marks).
// One invocation a basin; paths of different basins are disjoint.
layout(std430, binding = 3) buffer Db { uint dcode[]; };
layout(std430, binding = 7) readonly buffer Pass { int pass[]; };
layout(std430, binding = 10) readonly buffer Out { int outflow[]; };

uint codeTo(int a, int b) {
	int dx = b % P.W - a % P.W, dy = b / P.W - a / P.W;
	for (int k = 0; k < 8; k++) {
		if (DX[k] == dx && DY[k] == dy) return uint(k);
	}
	return 8u;
}

void main() {
	int m = cellIndex();
	if (m >= int(ctl[CTL_PITS])) return;
	int c = pass[m];
	if (c < 0) return;
	int prev = outflow[m];
	for (int s = 0; s < P.n; s++) {
		uint w = dcode[c];
		int next = recOf(c, w & 15u);
		uint nc = prev < 0 ? 8u : codeTo(c, prev);
		dcode[c] = (w & ~31u) | nc | 16u | (s == 0 ? EXIT : 0u); // the pass cell marked an exit (labelold)
		if (next == c) break;
		prev = c;
		c = next;
	}
}
