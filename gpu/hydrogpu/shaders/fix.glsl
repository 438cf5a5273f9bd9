// The sediment scaled back to its total before transport (walls and wrap:
// semi-Lagrangian transport does not conserve mass).
layout(std430, binding = 5) buffer S { float s[]; };

void main() {
	int x = int(gl_GlobalInvocationID.x), y = int(gl_GlobalInvocationID.y);
	if (x < P.W && y < P.H) {
		int i = y * P.W + x;
		s[i] *= float(R.acc[5]);
	}
}
