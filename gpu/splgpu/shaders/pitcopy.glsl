// Copies the routing's pit list (ctl[CTL_PITS] roots, in Pits, a
// grid-sized buffer) into a small one the host reads: a read of a
// grid-sized buffer took time in proportion to the grid, not to the read.
layout(std430, binding = 5) readonly buffer Pits { int pits[]; };
layout(std430, binding = 7) writeonly buffer Out { int outp[]; };

void main() {
	int m = cellIndex();
	if (m < int(ctl[CTL_PITS])) outp[m] = pits[m];
}
