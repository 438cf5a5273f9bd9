// Nonlinear creep's sweep along x or y (sim/hillslope's Creeper.solve),
// LINES lines a work group (neighbouring rows or columns, so that a
// column sweep's reads are contiguous across the group), each line's
// system (I + r·L_f) x = h, L_f the negative second difference with the
// face factors f (Fx or Fy), by the Thomas algorithm in float64 spread
// over CHUNKS chunks. Its three
// recurrences compose: c'_i = c_i/(b_i − a_i·c'_{i−1}) is a Möbius map
// of c'_{i−1} (a 2×2 matrix on (p, q), c' = p/q), d'_i = (h_i − a_i·
// d'_{i−1})/(b_i − a_i·c'_{i−1}) and x_i = d'_i − c'_i·x_{i+1} are affine:
// each invocation composes its chunk's maps, a scan in shared memory
// gives each chunk its incoming value, and the chunk runs again from it,
// c' and d' kept as float64 (two 32-bit halves) in scratch buffers. The
// CPU's arithmetic but for the association of the scans' products.
layout(std430, binding = 2) buffer Hb { float h[]; };
layout(std430, binding = 5) buffer C0b { uint cpLo[]; };
layout(std430, binding = 6) buffer C1b { uint cpHi[]; };
layout(std430, binding = 7) buffer D0b { uint dpLo[]; };
layout(std430, binding = 8) buffer D1b { uint dpHi[]; };
layout(std430, binding = 11) readonly buffer Dif {
	int lo, hi;
	int len_;
	int first, last;
	int along, across;
	int pad;
} D;
layout(std430, binding = 12) readonly buffer Fb { float fac[]; };

// LINES is 16 for the sweep along y (columns: neighbouring invocations
// read neighbouring words) and 1 for the sweep along x (rows: a work
// group a row, so that a group touches one row of each buffer, not 16
// rows a line's length apart; creepscanrow).
#ifndef LINES
#define LINES 16
#endif
const int CHUNKS = 256 / LINES;

// With INTERLEAVE (creepscanrowi: a row a group, its length a multiple
// of 256) c' and d' are kept chunk-interleaved in the row's scratch,
// the j-th cell of chunk k at j·256 + k, so that a warp's 32 chunks read
// and write 32 neighbouring words at each step of their walks; in the
// row's order the warp's words lie a chunk apart, and at 8192² (chunks
// of 32 cells, a cache line) its lines no longer stay in the cache
// between steps. With LINES > 1 (creepscannarrowi: columns of a multiple
// of CHUNKS cells, a multiple of LINES columns) the group's LINES lines
// share a block of LINES·len scratch words, the j-th cell of line l's
// chunk k at (j·CHUNKS + k)·LINES + l: a warp (LINES lines of 32/LINES
// chunks) reads 32 neighbouring words at each step, where in the grid's
// order it reads LINES neighbouring words in each of 32/LINES rows.
int sBase, sI0, sK, sL;

// sidx is the scratch index of cell q, the i-th of its line.
int sidx(int q, int i) {
#ifdef INTERLEAVE
	return sBase + ((i - sI0) * CHUNKS + sK) * LINES + sL;
#else
	return q;
#endif
}

// Invocation t works on line t % LINES of the group, chunk t / LINES.
shared double s0[256], s1[256], s2[256], s3[256];

void putD(int k, double v, bool cp) {
	uvec2 u = unpackDouble2x32(v);
	if (cp) { cpLo[k] = u.x; cpHi[k] = u.y; } else { dpLo[k] = u.x; dpHi[k] = u.y; }
}

double getD(int k, bool cp) {
	return cp ? packDouble2x32(uvec2(cpLo[k], cpHi[k])) : packDouble2x32(uvec2(dpLo[k], dpHi[k]));
}

// coef gives row i's a, b, c (Creeper's solveLine: a fixed end's row is
// x = h).
void coef(int i, int n, int base, out double a, out double b, out double c) {
	a = 0.0; b = 1.0; c = 0.0;
	if (i < D.first || i > D.last) return;
	if (i > 0) {
		a = -P.creepR * double(fac[base + (i - 1) * D.along]);
		b -= a;
	}
	if (i < n - 1) {
		c = -P.creepR * double(fac[base + i * D.along]);
		b -= c;
	}
}

// scanAffine makes (s0[t], s1[t]) the composition of the affine maps
// x ↦ s0 + s1·x of its line's chunks 0..k (forward) or k..CHUNKS−1
// (backward), k its chunk.
void scanAffine(uint t, uint k, bool forward) {
	for (uint d = 1u; d < uint(CHUNKS); d <<= 1) {
		barrier();
		double a = s0[t], b = s1[t];
		bool has = forward ? k >= d : k + d < uint(CHUNKS);
		double pa = 0.0, pb = 1.0;
		if (has) {
			uint o = forward ? t - d * uint(LINES) : t + d * uint(LINES);
			pa = s0[o]; pb = s1[o];
		}
		barrier();
		if (has) {
			s0[t] = a + b * pa;
			s1[t] = b * pb;
		}
	}
	barrier();
}

// scanMoebius makes (s0..s3)[t] the product M_k·…·M_0 of its line's
// chunks' matrices (row-major), scaled to keep its entries near 1.
void scanMoebius(uint t, uint k) {
	for (uint d = 1u; d < uint(CHUNKS); d <<= 1) {
		barrier();
		double m00 = s0[t], m01 = s1[t], m10 = s2[t], m11 = s3[t];
		bool has = k >= d;
		double p00 = 1.0, p01 = 0.0, p10 = 0.0, p11 = 1.0;
		if (has) {
			uint o = t - d * uint(LINES);
			p00 = s0[o]; p01 = s1[o]; p10 = s2[o]; p11 = s3[o];
		}
		barrier();
		if (has) {
			double r00 = m00 * p00 + m01 * p10, r01 = m00 * p01 + m01 * p11;
			double r10 = m10 * p00 + m11 * p10, r11 = m10 * p01 + m11 * p11;
			double sc = max(max(abs(r00), abs(r01)), max(abs(r10), abs(r11)));
			if (sc > 0.0) { r00 /= sc; r01 /= sc; r10 /= sc; r11 /= sc; }
			s0[t] = r00; s1[t] = r01; s2[t] = r10; s3[t] = r11;
		}
	}
	barrier();
}

void main() {
	uint t = gl_LocalInvocationID.x;
	uint k = t / uint(LINES);
	int l = D.lo + int(groupIndex()) * LINES + int(t % uint(LINES));
	// Lines past the last still take part in the barriers, with no cells.
	bool on = l < D.hi;
	int n = D.len_;
	int chunk = (n + CHUNKS - 1) / CHUNKS;
	int i0 = on ? min(n, int(k) * chunk) : 0, i1 = on ? min(n, i0 + chunk) : 0;
	int base = l * D.across;
	sI0 = i0; sK = int(k); sL = int(t % uint(LINES));
	sBase = LINES == 1 ? base : int(groupIndex()) * LINES * n;

	// c': the chunk's matrix M_{i1−1}·…·M_{i0}, M_i = [0 c_i; −a_i b_i].
	double m00 = 1.0, m01 = 0.0, m10 = 0.0, m11 = 1.0;
	for (int i = i0; i < i1; i++) {
		double a, b, c;
		coef(i, n, base, a, b, c);
		double r00 = c * m10, r01 = c * m11;
		double r10 = -a * m00 + b * m10, r11 = -a * m01 + b * m11;
		double sc = max(max(abs(r00), abs(r01)), max(abs(r10), abs(r11)));
		if (sc > 0.0) { r00 /= sc; r01 /= sc; r10 /= sc; r11 /= sc; }
		m00 = r00; m01 = r01; m10 = r10; m11 = r11;
	}
	s0[t] = m00; s1[t] = m01; s2[t] = m10; s3[t] = m11;
	scanMoebius(t, k);
	double cp = k == 0u ? 0.0 : s1[t - uint(LINES)] / s3[t - uint(LINES)]; // c' before the chunk (c'_{−1} = 0)
	barrier();
	// d': the chunk again from its c', composing d'_i = A_i + B_i·d'_{i−1};
	// each row's 1/(b_i − a_i·c'_{i−1}) kept where d'_i goes.
	double fa = 0.0, fb = 1.0;
	for (int i = i0; i < i1; i++) {
		double a, b, c;
		coef(i, n, base, a, b, c);
		int q = base + i * D.along;
		precise double inv = 1.0 / (b - a * cp);
		cp = c * inv;
		putD(sidx(q, i), cp, true);
		putD(sidx(q, i), inv, false);
		double ai = double(h[q]) * inv, bi = -a * inv;
		fa = ai + bi * fa;
		fb = bi * fb;
	}
	s0[t] = fa; s1[t] = fb;
	scanAffine(t, k, true);
	double dp = k == 0u ? 0.0 : s0[t - uint(LINES)];
	for (int i = i0; i < i1; i++) {
		double a, b, c;
		coef(i, n, base, a, b, c);
		int q = base + i * D.along;
		precise double v = (double(h[q]) - a * dp) * getD(sidx(q, i), false);
		dp = v;
		putD(sidx(q, i), dp, false);
	}
	barrier(); // every chunk has read its incoming d' from the shared arrays
	// x: x_i = d'_i − c'_i·x_{i+1}, x_{n−1} = d'_{n−1}.
	fa = 0.0; fb = 1.0;
	for (int i = i1 - 1; i >= i0; i--) {
		int q = sidx(base + i * D.along, i);
		double c = -getD(q, true);
		fa = getD(q, false) + c * fa;
		fb = c * fb;
	}
	s0[t] = fa; s1[t] = fb;
	scanAffine(t, k, false);
	double x = k == uint(CHUNKS - 1) ? 0.0 : s0[t + uint(LINES)];
	for (int i = i1 - 1; i >= i0; i--) {
		int q = base + i * D.along;
		int sq = sidx(q, i);
		precise double v = getD(sq, false) - getD(sq, true) * x;
		x = v;
		if (i >= D.first && i <= D.last) h[q] = float(x);
	}
}
