// Writes each component's lowest pass, for one read by the host, into
// Res (M = components + 1): Res[c] its edge (cell·16 + direction, or
// all ones for none), Res[M + c] the basin (root cell) of its cell
// inside, Res[2M + c] the other's (-1 out of the grid), and Res[3M] the
// boundary cells the first round listed (ctl[8]).
layout(std430, binding = 4) readonly buffer Lb { int lab[]; };
layout(std430, binding = 9) readonly buffer Arg { uint arg[]; };
layout(std430, binding = 11) writeonly buffer Res { int res[]; };

void main() {
	int c = cellIndex();
	int M = int(ctl[6]) + 1;
	if (c == 0) res[3 * M] = int(ctl[8]);
	if (c < 1 || c >= M) return;
	uint idx = arg[c];
	res[c] = int(idx);
	if (idx == 0xFFFFFFFFu) { res[M + c] = -1; res[2 * M + c] = -1; return; }
	int i = int(idx >> 4);
	uint k = idx & 15u;
	res[M + c] = lab[i];
	res[2 * M + c] = k == 8u ? -1 : lab[recOf(i, k)];
}
