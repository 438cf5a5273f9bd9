// The component map, indexed by root cell: 0 (the outlets) everywhere
// before the pits' components are scattered in.
layout(std430, binding = 6) writeonly buffer Cmp { int cmp[]; };

void main() {
	int i = cellIndex();
	if (i < P.n) cmp[i] = 0;
}
