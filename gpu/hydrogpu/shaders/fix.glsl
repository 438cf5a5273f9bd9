// The sediment scaled back to its total before transport (walls and wrap:
// semi-Lagrangian transport does not conserve mass).
layout(std430, binding = 5) buffer S { float s[]; };

void main() {
	int x = int(gl_GlobalInvocationID.x);
	for (int k = 0; k < ROWS; k++) {
		int y = cellY(k);
		if (x >= P.W || y >= P.H) continue;
		int i = row(y) + x;
		s[i] *= float(R.acc[5]);
	}
}
