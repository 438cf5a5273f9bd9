// Rebalanced splitting: the volume the sweeps' corrections added, m over
// a cell (balx's and baly's partial sums, part[g*8 + 4] and + 5, added
// in a fixed order as reduce does) into corr.
shared double red[256];

void main() {
	uint t = gl_LocalInvocationIndex;
	uint ng = ctl[7];
	double s = 0.0;
	for (uint g = t; g < ng; g += 256u) s += part[g * 8u + 4u] + part[g * 8u + 5u];
	red[t] = s;
	barrier();
	for (uint h = 128u; h > 0u; h >>= 1) {
		if (t < h) red[t] += red[t + h];
		barrier();
	}
	if (t == 0u) corr = red[0];
}
