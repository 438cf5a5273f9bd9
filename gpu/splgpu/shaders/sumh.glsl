// Σ h per work group after the hillslope term, in a fixed tree order
// (part[g*8 + 3]; the reduce adds the groups in order): the rock account's
// volume after diffusion.
layout(std430, binding = 2) readonly buffer Hb { float h[]; };

shared double red[256];

void main() {
	uint t = gl_LocalInvocationIndex;
	int i = cellIndex();
	red[t] = i < P.n ? double(h[i]) : 0.0;
	barrier();
	for (uint s = 128u; s > 0u; s >>= 1) {
		if (t < s) red[t] += red[t + s];
		barrier();
	}
	if (t == 0u) part[groupIndex() * 8u + 3u] = red[0];
}
