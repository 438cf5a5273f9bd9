// Rebalanced splitting, between the sweeps: with ha the heights after
// the sweep along x and h0 those the step started from, cx takes its
// update less the step's share, cx − (ha − h0)/Δt (balfin adds S/3Δt),
// cy becomes cx + cy, the correction the uplift takes back (balup), and
// h += Δt·cy on the cells not fixed; per work group Σ Δt·cy
// (part[g*8 + 5]).
layout(std430, binding = 2) buffer Hb { float h[]; };
layout(std430, binding = 11) readonly buffer Q0b { float h0[]; };
layout(std430, binding = 13) buffer Cb { vec2 cxy[]; };

shared double red[256];

void main() {
	uint t = gl_LocalInvocationIndex;
	int i = cellIndex();
	double s = 0.0;
	if (i < P.n && kindOf(i % P.W, i / P.W) != FIXED) {
		vec2 c = cxy[i];
		double ha = double(h[i]);
		double d = P.dtd * double(c.y);
		h[i] = float(ha + d);
		s = d;
		cxy[i] = vec2(float(double(c.x) - (ha - double(h0[i])) / P.dtd), float(double(c.x) + double(c.y)));
	}
	red[t] = s;
	barrier();
	for (uint k = 128u; k > 0u; k >>= 1) {
		if (t < k) red[t] += red[t + k];
		barrier();
	}
	if (t == 0u) part[groupIndex() * 8u + 5u] = red[0];
}
