// With deposition, the talus phase's end: the cells the talus limit
// lowered (limited below eroded) counted, and per work group Σ he in a
// fixed tree order (part[g*8], which the finish leaves alone with
// deposition), so that the eroded heights need not live through the
// deposit: their buffer holds half of a contraction map's slot there.
layout(std430, binding = 7) readonly buffer Hlb { float hl[]; };
layout(std430, binding = 13) readonly buffer Heb { float he[]; };

shared double red[256];
shared uint sClamp;

void main() {
	uint t = gl_LocalInvocationIndex;
	if (t == 0u) sClamp = 0u;
	barrier();
	int i = cellIndex();
	double s = 0.0;
	if (i < P.n) {
		float e = he[i];
		if (hl[i] < e) atomicAdd(sClamp, 1u);
		s = double(e);
	}
	red[t] = s;
	barrier();
	for (uint k = 128u; k > 0u; k >>= 1) {
		if (t < k) red[t] += red[t + k];
		barrier();
	}
	if (t == 0u) {
		part[groupIndex() * 8u] = red[0];
		if (sClamp != 0u) atomicAdd(ctl[CTL_CLAMPED], sClamp);
	}
}
