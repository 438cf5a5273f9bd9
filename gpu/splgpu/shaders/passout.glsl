// Writes each component's lowest pass as the basins (root cells) of its
// two cells: From[c] the basin of the cell inside, To[c] the other's, -1
// out of the grid.
layout(std430, binding = 4) readonly buffer Lb { int lab[]; };
layout(std430, binding = 9) readonly buffer Arg { uint arg[]; };
layout(std430, binding = 7) writeonly buffer From { int from[]; };
layout(std430, binding = 10) writeonly buffer To { int to[]; };

void main() {
	int c = cellIndex();
	if (c < 1 || c > int(ctl[6])) return;
	uint idx = arg[c];
	if (idx == 0xFFFFFFFFu) { from[c] = -1; to[c] = -1; return; }
	int i = int(idx >> 4);
	uint k = idx & 15u;
	from[c] = lab[i];
	to[c] = k == 8u ? -1 : lab[recOf(i, k)];
}
