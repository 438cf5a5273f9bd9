// The finish's partial sums, first level: work group G adds the partial
// sums of groups 256·G to 256·G + 255 (ctl[7] groups in all) in a fixed
// tree into part2[G]; reduce (TWO) adds those. One work group over every
// group's sums took 0.1 ms and more at 4096² (a strided run of 256 reads
// an invocation).
layout(std430, binding = 13) writeonly buffer Part2 { double part2[]; };

shared double red[8][256];

void main() {
	uint t = gl_LocalInvocationIndex;
	uint g = groupIndex() * 256u + t;
	for (uint k = 0u; k < 8u; k++) red[k][t] = g < ctl[7] ? part[g * 8u + k] : 0.0;
	barrier();
	for (uint h = 128u; h > 0u; h >>= 1) {
		if (t < h) {
			for (uint k = 0u; k < 8u; k++) red[k][t] += red[k][t + h];
		}
		barrier();
	}
	if (t < 8u) part2[groupIndex() * 8u + t] = red[t][0];
}
