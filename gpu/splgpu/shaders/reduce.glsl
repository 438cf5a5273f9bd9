// The finish's partial sums added in a fixed order (each invocation a
// strided run of groups, then a tree): the same sums run to run.
// ctl[7] is the number of groups.
shared double red[3][256];

void main() {
	uint t = gl_LocalInvocationIndex;
	uint ng = ctl[7];
	double s0 = 0.0, s1 = 0.0, s2 = 0.0;
	for (uint g = t; g < ng; g += 256u) {
		s0 += part[g * 3u]; s1 += part[g * 3u + 1u]; s2 += part[g * 3u + 2u];
	}
	red[0][t] = s0; red[1][t] = s1; red[2][t] = s2;
	barrier();
	for (uint s = 128u; s > 0u; s >>= 1) {
		if (t < s) {
			red[0][t] += red[0][t + s]; red[1][t] += red[1][t + s]; red[2][t] += red[2][t + s];
		}
		barrier();
	}
	if (t == 0u) { acc[0] = red[0][0]; acc[1] = red[1][0]; acc[2] = red[2][0]; }
}
