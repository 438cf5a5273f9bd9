// The step's end: the limited heights into H, and its statistics: cells
// the talus limit lowered, receivers changed since the last step, the
// largest change over one and two steps (float bits, atomic max), and
// per work group Σ he, Σ h and Σ |Δh| in a fixed tree order (with
// deposition the clamps and Σ he are depvol's).
layout(std430, binding = 2) buffer Hb { float h[]; };
layout(std430, binding = 3) buffer Db { uint dcode[]; };
layout(std430, binding = 7) readonly buffer A0b { float hl[]; };
layout(std430, binding = 11) readonly buffer Q0b { float prev[]; };
// Q1 holds the heights two steps back; it takes the heights after this
// step, the next step's heights before it (each cell read, then written,
// by its own invocation).
layout(std430, binding = 12) buffer Q1b { float prev2[]; };
// With deposition, the alluvium's thickness (sim/grid's deposit: what
// the step added but the uplift is deposit, what it took is eroded from
// the alluvium first) and the uplift.
layout(std430, binding = 5) buffer Alb { float alluv[]; };
layout(std430, binding = 6) readonly buffer Ub { float up[]; };

shared double red[3][256];
// The largest changes (float bits of values ≥ 0: their order is the
// floats'), in the same tree as the sums: an atomic max on one shared
// word by every invocation of the group serialized 256 of them.
shared uint mx[2][256];
shared uint sClamp, sChanged;

void main() {
	uint t = gl_LocalInvocationIndex;
	if (t == 0u) { sClamp = 0u; sChanged = 0u; }
	barrier();
	int i = cellIndex();
	double s0 = 0.0, s1 = 0.0, s2 = 0.0;
	uint m0 = 0u, m1 = 0u;
	if (i < P.n) {
		float e = h[i];
		float v = hl[i];
		if (v < e && P.depOn == 0) atomicAdd(sClamp, 1u); // with deposition, depfin counts
		h[i] = v;
		uint w = dcode[i];
		uint c = w & 15u;
		if (c != ((w >> 8) & 15u)) atomicAdd(sChanged, 1u);
		dcode[i] = c | (w & (0x7F00F010u | EXIT)) | (c << 8); // the marks, the random receiver and its hold kept
		if (P.depOn != 0) {
			float dh = v - prev[i];
			if (P.hasUp != 0 && kindOf(i % P.W, i / P.W) != FIXED) dh -= float(P.dtd * double(up[i]));
			float a = alluv[i] + dh;
			alluv[i] = a > 0.0 ? a : 0.0;
		}
		float d = abs(v - prev[i]);
		float d2 = abs(v - prev2[i]);
		prev2[i] = v;
		m0 = floatBitsToUint(d);
		m1 = floatBitsToUint(d2);
		s0 = double(e); s1 = double(v); s2 = abs(double(v) - double(prev[i]));
	}
	red[0][t] = s0; red[1][t] = s1; red[2][t] = s2;
	mx[0][t] = m0; mx[1][t] = m1;
	barrier();
	for (uint s = 128u; s > 0u; s >>= 1) {
		if (t < s) {
			red[0][t] += red[0][t + s]; red[1][t] += red[1][t + s]; red[2][t] += red[2][t + s];
			mx[0][t] = max(mx[0][t], mx[0][t + s]); mx[1][t] = max(mx[1][t], mx[1][t + s]);
		}
		barrier();
	}
	if (t == 0u) {
		uint g = groupIndex();
		if (P.depOn == 0) part[g * 8u] = red[0][0]; // with deposition, depvol's
		part[g * 8u + 1u] = red[1][0]; part[g * 8u + 2u] = red[2][0];
		if (sClamp != 0u) atomicAdd(ctl[CTL_CLAMPED], sClamp);
		if (sChanged != 0u) atomicAdd(ctl[CTL_CHANGED], sChanged);
		atomicMax(ctl[CTL_MAXDH], mx[0][0]);
		atomicMax(ctl[CTL_MAXDH2], mx[1][0]);
	}
}
