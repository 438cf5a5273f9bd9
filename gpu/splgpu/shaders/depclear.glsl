// Deposition: a round's destination sums cleared.
layout(std430, binding = 9) writeonly buffer X2b { uint xdLo[]; };
layout(std430, binding = 10) writeonly buffer X3b { uint xdHi[]; };

void main() {
	int i = cellIndex();
	if (i < P.n) { xdLo[i] = 0u; xdHi[i] = 0u; }
}
