// Writes each component's lowest pass, for one read by the host, into
// Res (M = components + 1): Res[c] its edge (cell·16 + direction, or
// all ones for none), Res[M + c] the basin (1 … m, pitindex) of its cell
// inside, Res[2M + c] the other's (0 for the outlets' basins and out of
// the grid), Res[3M + c] the other's component (0 for the outlets'), and
// Res[4M] the boundary cells the first round listed (ctl[8]).
layout(std430, binding = 4) readonly buffer Lb { int lab[]; };
layout(std430, binding = 5) readonly buffer Pits { int pits[]; };
layout(std430, binding = 6) readonly buffer Cmp { int cmp[]; };
layout(std430, binding = 9) readonly buffer Arg { uint arg[]; };
layout(std430, binding = 11) writeonly buffer Res { int res[]; };
layout(std430, binding = 12) readonly buffer Idx { int idx[]; };

// basin is the basin of root cell r: its pit's index, 0 when r is no
// pit's root (Idx holds garbage there).
int basin(int r) {
	int b = idx[r];
	return b >= 1 && b <= int(ctl[CTL_PITS]) && pits[b - 1] == r ? b : 0;
}

void main() {
	int c = cellIndex();
	int M = int(ctl[6]) + 1;
	if (c == 0) res[4 * M] = int(ctl[8]);
	if (c < 1 || c >= M) return;
	uint ed = arg[c];
	res[c] = int(ed);
	if (ed == 0xFFFFFFFFu) { res[M + c] = -1; res[2 * M + c] = -1; res[3 * M + c] = -1; return; }
	int i = int(ed >> 4);
	uint k = ed & 15u;
	res[M + c] = basin(lab[i]);
	if (k == 8u) {
		res[2 * M + c] = 0;
		res[3 * M + c] = 0;
	} else {
		int r = lab[recOf(i, k)];
		res[2 * M + c] = basin(r);
		res[3 * M + c] = cmp[r];
	}
}
