// Rebalanced splitting (sim/grid's balance.go), before the sweep along
// x: h += Δt·cx on the cells not fixed (as grid's addSource, float64 then
// float32), and per work group Σ Δt·cx in a fixed tree order
// (part[g*8 + 4]; reducebal adds the groups).
layout(std430, binding = 2) buffer Hb { float h[]; };
layout(std430, binding = 13) readonly buffer Cb { vec2 cxy[]; };

shared double red[256];

void main() {
	uint t = gl_LocalInvocationIndex;
	int i = cellIndex();
	double s = 0.0;
	if (i < P.n && kindOf(i % P.W, i / P.W) != FIXED) {
		double d = P.dtd * double(cxy[i].x);
		h[i] = float(double(h[i]) + d);
		s = d;
	}
	red[t] = s;
	barrier();
	for (uint k = 128u; k > 0u; k >>= 1) {
		if (t < k) red[t] += red[t + k];
		barrier();
	}
	if (t == 0u) part[groupIndex() * 8u + 4u] = red[0];
}
