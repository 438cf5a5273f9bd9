// Linear hillslope diffusion, κ∇²h, one backward-Euler sweep along x or
// y (sim/hillslope's Diffuser: locally one-dimensional, every line one
// tridiagonal system sharing one LU factorization, computed on the host
// in float64). One invocation a line: forward elimination
// s_i = h_i·inv_i + m_i·s_{i−1} in float64 (s stored as float), back
// substitution x_i = s_i − cp_i·x_{i+1}, written back except at fixed ends.
layout(std430, binding = 2) buffer Hb { float h[]; };
layout(std430, binding = 5) buffer Sb { float s[]; };
layout(std430, binding = 11) readonly buffer Dif {
	int lo, hi;       // the lines solved
	int len_;         // cells a line
	int first, last;  // cells written back
	int along, across; // index steps along a line and from line to line
	int pad;
} D;
struct Fac { double m, inv, cp; };
layout(std430, binding = 12) readonly buffer Fb { Fac f[]; };

void main() {
	int l = D.lo + cellIndex();
	if (l >= D.hi) return;
	int base = l * D.across;
	double p = double(h[base]) * f[0].inv;
	s[base] = float(p);
	for (int i = 1; i < D.len_; i++) {
		int k = base + i * D.along;
		p = double(h[k]) * f[i].inv + f[i].m * p;
		s[k] = float(p);
	}
	for (int i = D.len_ - 1; i >= 0; i--) {
		int k = base + i * D.along;
		if (i < D.len_ - 1) p = double(s[k]) - f[i].cp * p;
		if (i >= D.first && i <= D.last) h[k] = float(p);
	}
}
