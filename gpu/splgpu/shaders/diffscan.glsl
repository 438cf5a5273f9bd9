// Linear hillslope diffusion, one backward-Euler sweep along x or y, as
// diffuse.glsl but one work group a line: the forward elimination
// s_i = h_i·inv_i + m_i·s_{i−1} and the back substitution
// x_i = s_i − cp_i·x_{i+1} are affine recurrences, so each invocation
// composes the maps of its chunk of the line, a scan over the 256 chunks
// in shared memory (float64) gives each chunk its incoming value, and
// each chunk is run again from it. The same arithmetic as the sequential
// kernel up to the association of the float64 products.
layout(std430, binding = 2) buffer Hb { float h[]; };
layout(std430, binding = 5) buffer Sb { float s[]; };
layout(std430, binding = 11) readonly buffer Dif {
	int lo, hi;
	int len_;
	int first, last;
	int along, across;
	int pad;
} D;
struct Fac { double m, inv, cp; };
layout(std430, binding = 12) readonly buffer Fb { Fac f[]; };

shared double sa[256], sb[256];

// scan makes (sa[t], sb[t]) the composition of the maps of chunks 0..t
// (forward) or t..255 (backward): x_out = sa + sb·x_in.
void scan(uint t, bool forward) {
	for (uint d = 1u; d < 256u; d <<= 1) {
		barrier();
		double a = sa[t], b = sb[t];
		bool has = forward ? t >= d : t + d < 256u;
		double pa = 0.0, pb = 1.0;
		if (has) {
			uint o = forward ? t - d : t + d;
			pa = sa[o]; pb = sb[o];
		}
		barrier();
		if (has) {
			// This chunk's map after the earlier ones': a + b·(pa + pb·x).
			sa[t] = a + b * pa;
			sb[t] = b * pb;
		}
	}
	barrier();
}

void main() {
	uint t = gl_LocalInvocationID.x;
	int l = D.lo + int(groupIndex());
	if (l >= D.hi) return; // the whole group: no barrier is skipped by part of it
	int n = D.len_;
	int chunk = (n + 255) / 256;
	int i0 = min(n, int(t) * chunk), i1 = min(n, i0 + chunk);
	int base = l * D.across;

	// Forward: s_i = A_i + B_i·s_{i−1}, A_i = h_i·inv_i, B_i = m_i.
	double a = 0.0, b = 1.0;
	for (int i = i0; i < i1; i++) {
		double ai = double(h[base + i * D.along]) * f[i].inv;
		a = ai + f[i].m * a;
		b = f[i].m * b;
	}
	sa[t] = a; sb[t] = b;
	scan(t, true);
	double p = t == 0u ? 0.0 : sa[t - 1u]; // s before the chunk (s_{−1} = 0: m_0 = 0)
	for (int i = i0; i < i1; i++) {
		int k = base + i * D.along;
		p = double(h[k]) * f[i].inv + f[i].m * p;
		s[k] = float(p);
	}
	barrier();
	memoryBarrierBuffer();

	// Backward: x_i = s_i − cp_i·x_{i+1}, x_{n−1} = s_{n−1}.
	a = 0.0; b = 1.0;
	for (int i = i1 - 1; i >= i0; i--) {
		double si = double(s[base + i * D.along]);
		double c = i < n - 1 ? -f[i].cp : 0.0;
		a = si + c * a;
		b = c * b;
	}
	sa[t] = a; sb[t] = b;
	scan(t, false);
	p = t == 255u ? 0.0 : sa[t + 1u]; // x after the chunk
	for (int i = i1 - 1; i >= i0; i--) {
		int k = base + i * D.along;
		double c = i < n - 1 ? f[i].cp : 0.0;
		p = double(s[k]) - c * p;
		if (i >= D.first && i <= D.last) h[k] = float(p);
	}
}
