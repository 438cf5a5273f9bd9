// The basin labels' first pointers again (relabel), from the codes after
// the lakes' carve: each cell's receiver before it. A cell off the
// carved paths (bit 4 clear) keeps its receiver; a cell on one takes the
// cell of its path that drains into it now (marked, and not a pass cell:
// EXIT, whose code points across its pass), which was its receiver, or
// itself at the path's pit (a root before the carve). Paths of different
// basins are disjoint, so that cell is unique.
layout(std430, binding = 3) readonly buffer Db { uint dcode[]; };
layout(std430, binding = 4) writeonly buffer Lb { int lab[]; };

void main() {
	int i = cellIndex();
	if (i >= P.n) return;
	uint w = dcode[i];
	if ((w & 16u) == 0u) {
		lab[i] = recOf(i, w & 15u);
		return;
	}
	int x = i % P.W, y = i / P.W;
	int r = i;
	for (int k = 0; k < 8; k++) {
		int nx = x + DX[k], ny = y + DY[k];
		if (nx < 0 || ny < 0 || nx >= P.W || ny >= P.H) continue;
		int j = ny * P.W + nx;
		uint v = dcode[j];
		if ((v & (16u | EXIT)) == 16u && recOf(j, v & 15u) == i) {
			r = j;
			break;
		}
	}
	lab[i] = r;
}
