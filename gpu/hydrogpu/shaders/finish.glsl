// The step's sums: the groups' partial sums added in a fixed order (each
// invocation a fixed stride of groups, then a tree) into the water
// account, the sediment correction, and the extremes passed on. One work
// group.
void main() {
	uint t = gl_LocalInvocationIndex;
	double v[6] = double[6](0.0, 0.0, 0.0, 0.0, 0.0, 0.0);
	for (uint g = t; g < uint(P.groups); g += 256u) {
		for (int k = 0; k < 6; k++) v[k] += R.part[g * 8u + uint(k)];
	}
	double sums[6];
	for (int pass = 0; pass < 2; pass++) {
		for (int k = 0; k < 4; k++) red[k][t] = (pass * 4 + k < 6) ? v[pass * 4 + k] : 0.0;
		barrier();
		for (uint s = 128u; s > 0u; s >>= 1) {
			if (t < s) {
				for (int k = 0; k < 4; k++) red[k][t] += red[k][t + s];
			}
			barrier();
		}
		for (int k = 0; k < 4; k++) {
			if (pass * 4 + k < 6) sums[pass * 4 + k] = red[k][0];
		}
		barrier();
	}
	if (t == 0u) {
		// sums: outflow (m³/s), evaporated, dissolved, s1, stored, snew (m).
		R.acc[0] += sums[0] * P.dtd;
		R.acc[1] += sums[1] * P.area;
		R.acc[2] += sums[2] * P.area;
		R.acc[3] = sums[4] * P.area;
		double fix = 1.0;
		if (P.boundary == OPEN) {
			R.acc[4] += (sums[3] - sums[5]) * P.area;
		} else if (sums[5] > 0.0 && sums[3] != sums[5]) {
			fix = double(float(sums[3] / sums[5]));
		}
		R.acc[5] = fix;
		R.acc[6] = sums[3];
		R.acc[7] = sums[5];
		for (int k = 0; k < 4; k++) {
			R.stats[4 + k] = R.stats[k];
			R.stats[k] = 0u;
		}
	}
}
