// Each pit's basin (1 … m, the order of the sorted roots in Pits) at its
// root cell, in Idx, a grid-sized scratch buffer whose other cells keep
// what they held: passout takes an index only where the roots agree.
layout(std430, binding = 5) readonly buffer Pits { int pits[]; };
layout(std430, binding = 12) writeonly buffer Idx { int idx[]; };

void main() {
	int b = cellIndex();
	if (b < int(ctl[CTL_PITS])) idx[pits[b]] = b + 1;
}
