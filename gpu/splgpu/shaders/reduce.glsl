// The finish's partial sums added in a fixed order (each invocation a
// strided run of groups, then a tree): the same sums run to run.
// ctl[7] is the number of groups; acc[3] is the hillslope term's Σ h
// (sumh), stale when it did not run.
// TWO: the sums of reducepart's groups (part2), each of 256 groups.
shared double red[8][256];

#ifdef TWO
layout(std430, binding = 13) readonly buffer Part2 { double part2[]; };
#endif

void main() {
	uint t = gl_LocalInvocationIndex;
	uint ng = ctl[7];
#ifdef TWO
	ng = (ng + 255u) / 256u;
#endif
	double s[8] = double[8](0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0);
	for (uint g = t; g < ng; g += 256u) {
#ifdef TWO
		for (uint k = 0u; k < 8u; k++) s[k] += part2[g * 8u + k];
#else
		for (uint k = 0u; k < 8u; k++) s[k] += part[g * 8u + k];
#endif
	}
	for (uint k = 0u; k < 8u; k++) red[k][t] = s[k];
	barrier();
	for (uint h = 128u; h > 0u; h >>= 1) {
		if (t < h) {
			for (uint k = 0u; k < 8u; k++) red[k][t] += red[k][t + h];
		}
		barrier();
	}
	if (t == 0u) { for (uint k = 0u; k < 8u; k++) acc[k] = red[k][0]; }
}
