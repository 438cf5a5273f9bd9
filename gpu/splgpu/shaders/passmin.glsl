// Borůvka's step over the basins (Cordonnier et al. 2016's pass graph):
// every component but the outlets' (0) takes its lowest pass to another
// component, max(h_i, h_j) over the pairs of neighbouring cells across
// its boundary (h_i alone out of a Natural edge). passmin finds the
// lowest height, passarg the first cell and direction (i<<4 | k, k = 8
// out of the grid) that reach it: a fixed tie-break.
layout(std430, binding = 2) readonly buffer Hb { float h[]; };
layout(std430, binding = 4) readonly buffer Lb { int lab[]; };
layout(std430, binding = 6) readonly buffer Cmp { int cmp[]; };
layout(std430, binding = 8) buffer Key { uint key[]; };
layout(std430, binding = 9) buffer Arg { uint arg[]; };
// The cells of the pits' basins next to another basin or off a Natural
// edge: listed by the first round's passmin (ctl[9] = 1), the only cells
// later rounds visit (ctl[9] = 2; ctl[8] of them).
layout(std430, binding = 13) buffer List { int list[]; };

void offer(int a, uint k, uint idx) {
	atomicMin(key[a], k);
}

void main() {
	int i = cellIndex();
	uint mode = ctl[9];
	if (mode == 2u) {
		if (i >= int(ctl[8])) return;
		i = list[i];
	} else if (i >= P.n) {
		return;
	}
	int li = lab[i];
	int a = cmp[li];
	if (a == 0) return;
	int x = i % P.W, y = i / P.W;
	float hi = h[i];
	bool edge = false;
	for (int k = 0; k < 8; k++) {
		int nx = x + DX[k], ny = y + DY[k];
		if (nx < 0 || ny < 0 || nx >= P.W || ny >= P.H) continue;
		int j = ny * P.W + nx;
		int lj = lab[j];
		if (lj != li) edge = true;
		if (cmp[lj] == a) continue;
		offer(a, ordKey(max(hi, h[j])), (uint(i) << 4) | uint(k));
	}
	if (kindOf(x, y) == NATURAL) {
		edge = true;
		offer(a, ordKey(hi), (uint(i) << 4) | 8u);
	}
	if (edge && mode == 1u) list[atomicAdd(ctl[8], 1u)] = i;
}
