// Scatters each pit's component (uploaded in Comp) to its root cell.
layout(std430, binding = 5) readonly buffer Pits { int pits[]; };
layout(std430, binding = 6) writeonly buffer Cmp { int cmp[]; };
layout(std430, binding = 7) readonly buffer Comp { int comp[]; };

void main() {
	int m = cellIndex();
	if (m < int(ctl[CTL_PITS])) cmp[pits[m]] = comp[m];
}
