// The erosion with a geology (n = 1; splgpu's geology.go): each node's
// implicit step h = (a + f·h_r)/(1 + f) with f = k·Kd/KdRef·Δt·A^m/d of
// the material it erodes, as sim/grid and sim/spl's Erode, cross and rise.
//
// FIRST (geoinit), after erodeinit: the material each node starts from
// (alluvium where it has MinAlluvium of it, else the layer at its height
// before the step), and as the first guess of its piece the one it ended
// the last step on (a material, or a contact it stopped at), its map
// written over erodeinit's; the solution does not depend on the guess,
// only the count of solves does (the last step's pieces are mostly this
// one's).
// Else (geofix), given the heights x the last contraction gave: each
// node's solve from its receiver's height, walking down (cross) or up
// (rise) the contacts from its starting material's, and the map of the
// piece it ends on (a material, or a contact it stops at: x ↦ z); the
// nodes whose piece (or contact's height) changed are counted in ctl[0].
//
// With a talus angle by rock (TalusByRock), TALSCALE (geotalscale),
// before talusinit: the factor on the talus tangent of the rock exposed
// at each cell's uplifted surface (alluvium where it has MinAlluvium of
// it), kept in the cell's zbits (free once the erosion has converged);
// TALAPPLY (geotalapply), after it: each node's limit b = tan θ·d times
// it.
layout(std430, binding = 2) readonly buffer Hb { float h[]; }; // the uplifted heights
layout(std430, binding = 3) readonly buffer Db { uint dcode[]; };
struct GeoCell {
	double disp; // a point at height z lies at z − disp in the undeformed stack
	// Bits 0-9: the piece, material << 2 | how (0 solved in it, 1
	// stopped at a contact going down, material the one under it, 2 going
	// up, the one over it, 3 held: sim/spl's Hold, with deposition); bits 16-23: the material the step starts
	// from (na: alluvium).
	uint piece;
	uint zbits; // a stopped node's height (float bits)
	float rock; // the rock's top under the alluvium (its uplifted height less the alluvium)
	float dep;  // with deposition: Δt·G·Qs/A, the source term's part of the raised height
};
const uint PIECE = 1023u;
layout(std430, binding = 4) buffer Geo {
	int nl, na, pad0, pad1; // the layers; alluvium's index
	double tops[256];       // tops[l]: the top of layer l, undeformed (l < nl − 1)
	float fac[256];         // k's factor Kd/KdRef per material (na: alluvium)
	float tal[256];         // the talus tangent's factor per material (TalusByRock)
	GeoCell gc[];
};
layout(std430, binding = 6) writeonly buffer P1b { int pd[]; };
#if defined(FIRST) || defined(TALSCALE)
layout(std430, binding = 5) readonly buffer Alb { float alluv[]; };
#endif
#ifdef FIRST
layout(std430, binding = 9) readonly buffer Q0b { float prev[]; }; // the heights before the step
layout(std430, binding = 11) readonly buffer Rb { float dr[]; };    // with deposition: G·Qs/A, m/yr
#else
layout(std430, binding = 7) readonly buffer Xb { float x[]; };
// With deposition, the maps' caps (affmin): the raised height a.
layout(std430, binding = 9) writeonly buffer C1b { float cd[]; };
#endif
layout(std430, binding = 8) writeonly buffer A1b { float al[]; };
layout(std430, binding = 10) buffer B1b { float be[]; };
layout(std430, binding = 12) readonly buffer Kb { float kf[]; };
layout(std430, binding = 13) readonly buffer Cb { uint cnt[]; };

const double INF = 1e300LF; // LF: a double literal (NVIDIA rejects 1e300 as a float constant)

// layerOf is geology.Model.LayerOf: the layer at undeformed height z.
int layerOf(double z) {
	int lo = 0, hi = nl - 1;
	while (lo < hi) {
		int mid = (lo + hi) / 2;
		if (z < tops[mid]) hi = mid;
		else lo = mid + 1;
	}
	return lo;
}

#ifndef FIRST
// below is geology.Map.Below: the layer directly under z at the cell of
// displacement d and its bottom (−INF for the bottom layer).
int below(double z, double d, out double bot) {
	int l = layerOf(z - d);
	while (l > 0 && z <= tops[l - 1] + d) l--;
	bot = l == 0 ? -INF : tops[l - 1] + d;
	return l;
}

// above is geology.Map.Above: the layer directly over z and its top
// (INF for the top layer).
int above(double z, double d, out double top) {
	int l = layerOf(z - d);
	int last = nl - 1;
	while (l < last && z >= tops[l] + d) l++;
	if (l >= last) {
		top = INF;
		return last;
	}
	top = tops[l] + d;
	return l;
}

// spowd is sign(v)·|v|^n (the power in float32: GLSL has no float64
// pow).
double spowd(double v) { return v == 0.0 ? 0.0 : sign(v) * double(pow(float(abs(v)), P.n1)); }

// walkN is the walk for n ≠ 1 (sim/spl's cross and rise with
// solveDelta): the piece a node ends on given its receiver's height hr,
// found by the sign of g(h) = h − a + f·spow(h − hr, n), which increases
// with h (the root lies below h where g(h) > 0), so no node's root is
// solved here; Newton's steps (NEWTON) solve the forest with the pieces.
// zb takes a stopped node's height (float bits).
uint walkN(uint s, double a, double hr, float bot, float top, double dp, double knd, double am, double dn, double f, out uint zb) {
	zb = 0u;
	if (bot > -BIG && double(bot) - a + f * spowd(double(bot) - hr) > 0.0) {
		double z = double(bot);
		for (int it = 0; it < 2 * 256 + 2; it++) {
			double zl;
			int l = below(z, dp, zl);
			double fl = P.kdt * (double(fac[l]) * knd) * am / dn;
			// As spl's cross: math.Pow of a negative base is NaN there.
			if (z - hr >= 0.0 && z - a + fl * spowd(z - hr) <= 0.0) {
				zb = floatBitsToUint(float(z));
				return uint(l) << 2 | 1u;
			}
			if (zl <= -INF || zl - a + fl * spowd(zl - hr) <= 0.0) return uint(l) << 2;
			if (!(zl < z)) {
				zb = floatBitsToUint(float(z));
				return uint(l) << 2 | 1u;
			}
			z = zl;
		}
	} else if (top < BIG && double(top) - a + f * spowd(double(top) - hr) < 0.0) {
		double z = double(top);
		for (int it = 0; it < 2 * 256 + 2; it++) {
			double zu;
			int l = above(z, dp, zu);
			double fl = P.kdt * (double(fac[l]) * knd) * am / dn;
			if (z > hr && z - a + fl * spowd(z - hr) >= 0.0) {
				zb = floatBitsToUint(float(z));
				return uint(l) << 2 | 2u;
			}
			if (zu >= INF || zu - a + fl * spowd(zu - hr) >= 0.0) return uint(l) << 2;
			if (!(zu > z)) {
				zb = floatBitsToUint(float(z));
				return uint(l) << 2 | 2u;
			}
			z = zu;
		}
	}
	return s << 2;
}
#endif

#if defined(TALSCALE)
void main() {
	int i = cellIndex();
	if (i >= P.n) return;
	int l = na;
	if (!(alluv[i] >= 0.01)) l = layerOf(double(h[i]) - gc[i].disp);
	gc[i].zbits = floatBitsToUint(tal[l]);
}
#elif defined(TALAPPLY)
void main() {
	int i = cellIndex();
	if (i >= P.n) return;
	be[i] *= uintBitsToFloat(gc[i].zbits);
}
#elif defined(NEWTON)
// newton.glsl with each node's piece: a stopped node keeps its
// contact's height, the others linearize the step in their piece's
// material (its k) at the current iterate x.
float spow(float v, float n) { return sign(v) * pow(abs(v), n); }

void main() {
	countBegin();
	int i = cellIndex();
	if (i < P.n) {
		uint c = dcode[i] & 15u;
		int kd = kindOf(i % P.W, i / P.W);
		float d = distOf(c, kd);
		float a = h[i];
		uint p = gc[i].piece, pc = p & PIECE, l = pc >> 2, how = pc & 3u, s = p >> 16;
		if (kd == FIXED || d == 0.0) {
			pd[i] = -1; al[i] = a; be[i] = 0.0;
		} else if (how == 1u || how == 2u) {
			// Met once the iterate holds the contact's height (a piece
			// the last re-solve changed it to is not yet).
			float z = uintBitsToFloat(gc[i].zbits);
			pd[i] = -1; al[i] = z; be[i] = 0.0;
			if (x[i] != z) atomicAdd(groupCount, 1u);
		} else {
			int r = c >= 8u ? -1 : recOf(i, c);
			float xr = r < 0 ? 0.0 : x[r];
			double ar = double(cnt[i]) * P.cellArea;
			double am = P.m == 0.5 ? sqrt(ar) : double(pow(float(ar), P.m));
			float kn = P.hasKF != 0 ? kf[i] : 1.0;
			double kdt = l == s ? P.kdt * double(fac[s] * kn) : P.kdt * (double(fac[l]) * double(kn));
			float f = float(kdt * am / double(pow(d, P.n1)));
			float d0 = a - xr;
			float dk = x[i] - xr;
			if (d0 == 0.0) {
				al[i] = 0.0;
				dk = 0.0;
			} else {
				float tiny = 1e-10 * max(abs(d0), 1e-3);
				bool clamped = abs(dk) < tiny || sign(dk) != sign(d0);
				if (clamped) dk = sign(d0) * tiny;
				float g = dk - d0 + f * spow(dk, P.n1);
				float fp = f * P.n1 * pow(abs(dk), P.n1 - 1.0);
				bool met = abs(g) <= 4e-6 * max(1.0, max(abs(a), abs(d0))) * (1.0 + fp) || (clamped && g * sign(d0) >= 0.0);
				if (!met) atomicAdd(groupCount, 1u);
				float inv = 1.0 / (1.0 + fp);
				al[i] = (a + fp * dk - f * spow(dk, P.n1)) * inv;
				dk = fp * inv;
			}
			if (r < 0) {
				pd[i] = -1; be[i] = 0.0;
			} else {
				pd[i] = r; be[i] = d0 == 0.0 ? 1.0 : dk;
			}
		}
	}
	countEnd(CTL_ACTIVE);
}
#else
void main() {
#ifndef FIRST
	countBegin();
#endif
	int i = cellIndex();
	bool live = i < P.n;
	uint c = 8u;
	int kd = FIXED;
	float d = 0.0;
	if (live) {
		c = dcode[i] & 15u;
		kd = kindOf(i % P.W, i / P.W);
		d = distOf(c, kd);
	}
	// Fixed outlets and held pits keep erodeinit's maps.
	if (live && kd != FIXED && d != 0.0) {
		float hu = h[i];
		double am = double(cnt[i]) * P.cellArea;
		am = P.m == 0.5 ? sqrt(am) : double(pow(float(am), P.m));
		double dd = P.n1 == 1.0 ? double(d) : double(pow(d, P.n1)); // d^n
		float kn = P.hasKF != 0 ? kf[i] : 1.0;
		double dp = gc[i].disp;
#ifdef FIRST
		// The starting material: alluvium, else the layer at the
		// height before the step (sim/spl's rise says why).
		// With deposition the step's deposition term covers the cell
		// too (sim/grid: alluvium where its cover would be).
		float dep = P.depOn != 0 ? float(P.dtd * double(dr[i])) : 0.0;
		float cover = alluv[i];
		if (P.depOn != 0) cover += dep;
		gc[i].rock = hu - alluv[i];
		gc[i].dep = dep;
		double a = double(hu) + double(dep);
		uint s = uint(na);
		if (!(cover >= 0.01)) s = uint(layerOf(double(prev[i]) - dp));
		// The guess: the last step's piece where it names a material
		// or contact of the stack, else the starting material.
		uint last = gc[i].piece & PIECE;
		uint l = last >> 2, how = last & 3u;
		if (l > uint(na) || (how == 3u && P.depOn == 0) || (how == 1u && l >= uint(nl - 1)) || (how == 2u && (l == 0u || l >= uint(na)))) {
			l = s; how = 0u;
		}
		uint zb = 0u;
		if (how == 0u) {
			double f = l == s ? P.kdt * double(fac[s] * kn) * am / dd : P.kdt * (double(fac[l]) * double(kn)) * am / dd;
			double cc = 1.0 / (1.0 + f);
			float alpha = float(a * cc);
			if (P.depOn != 0 && c >= 8u) alpha = min(float(a), alpha); // as erodedep's root
			al[i] = alpha;
			be[i] = c >= 8u ? 0.0 : float(f * cc);
		} else if (how == 3u) {
			pd[i] = -1; al[i] = float(a); be[i] = 0.0;
		} else {
			// At the contact over layer l (going down) or under it (up).
			float z = float(how == 1u ? tops[l] + dp : tops[l - 1u] + dp);
			pd[i] = -1; al[i] = z; be[i] = 0.0;
			zb = floatBitsToUint(z);
		}
		gc[i].piece = (l << 2 | how) | s << 16;
		gc[i].zbits = zb;
#else
		uint s = gc[i].piece >> 16;
		double a = double(hu) + double(gc[i].dep);
		double hr = c >= 8u ? 0.0 : double(x[recOf(i, c)]);
		double f = P.kdt * double(fac[s] * kn) * am / dd;
		double cc = 1.0 / (1.0 + f);
		double v = a * cc + (f * cc) * hr;
		// The starting material's contacts, rounded to float as sim/grid
		// keeps them (spl.Params.Bottom and Top).
		float bot, top;
		if (s == uint(na)) {
			bot = gc[i].rock;
			top = BIG;
		} else {
			int l0 = int(s);
			bot = l0 == 0 ? -BIG : float(tops[l0 - 1] + dp);
			top = l0 >= nl - 1 ? BIG : float(tops[l0] + dp);
		}
		if (P.n1 != 1.0) {
			// The pieces only: Newton's steps (NEWTON) write the maps.
			uint zn;
			uint pn = walkN(s, a, hr, bot, top, dp, double(kn), am, dd, f, zn);
			if (pn != (gc[i].piece & PIECE) || zn != gc[i].zbits) {
				gc[i].piece = pn | s << 16;
				gc[i].zbits = zn;
				atomicAdd(groupCount, 1u);
			}
		} else {
		uint piece = s << 2;
		bool stop = false;
		double z = 0.0;
		double fk = f, ck = cc; // the piece's material's f and 1/(1 + f)
		double knd = double(kn);
		bool held = P.depOn != 0 && a <= hr; // sim/spl's Hold
		if (held) {
			piece = uint(s) << 2 | 3u;
		} else if (v < double(bot)) {
			// sim/spl's cross: down the stack.
			z = double(bot);
			for (int it = 0; it < 2 * 256 + 2; it++) {
				double zb;
				int l = below(z, dp, zb);
				double fl = P.kdt * (double(fac[l]) * knd) * am / dd;
				if (z - a + fl * (z - hr) <= 0.0) {
					stop = true; piece = uint(l) << 2 | 1u;
					break;
				}
				double cl = 1.0 / (1.0 + fl);
				double vl = a * cl + (fl * cl) * hr;
				if (!(vl < zb)) {
					fk = fl; ck = cl; piece = uint(l) << 2;
					break;
				}
				if (!(zb < z)) {
					stop = true; piece = uint(l) << 2 | 1u;
					break;
				}
				z = zb;
			}
		} else if (v > double(top)) {
			// sim/spl's rise: up the stack.
			z = double(top);
			for (int it = 0; it < 2 * 256 + 2; it++) {
				double zt;
				int l = above(z, dp, zt);
				double fl = P.kdt * (double(fac[l]) * knd) * am / dd;
				if (z - a + fl * (z - hr) >= 0.0) {
					stop = true; piece = uint(l) << 2 | 2u;
					break;
				}
				double cl = 1.0 / (1.0 + fl);
				double vl = a * cl + (fl * cl) * hr;
				if (!(vl > zt)) {
					fk = fl; ck = cl; piece = uint(l) << 2;
					break;
				}
				if (!(zt > z)) {
					stop = true; piece = uint(l) << 2 | 2u;
					break;
				}
				z = zt;
			}
		}
		uint zb = 0u;
		if (held) {
			pd[i] = -1; al[i] = float(a); be[i] = 0.0;
		} else if (stop) {
			pd[i] = -1; al[i] = float(z); be[i] = 0.0;
			zb = floatBitsToUint(float(z));
		} else {
			pd[i] = c >= 8u ? -1 : recOf(i, c);
			float alpha = float(a * ck);
			if (P.depOn != 0 && c >= 8u) alpha = min(float(a), alpha);
			al[i] = alpha;
			be[i] = c >= 8u ? 0.0 : float(fk * ck);
		}
		if (P.depOn != 0) cd[i] = float(a);
		if (piece != (gc[i].piece & PIECE) || zb != gc[i].zbits) {
			gc[i].piece = piece | s << 16;
			gc[i].zbits = zb;
			atomicAdd(groupCount, 1u);
		}
		}
#endif
	} else if (live) {
#ifndef FIRST
		// As erodeinit: the outlet's or the held pit's height, final.
		pd[i] = -1; al[i] = h[i]; be[i] = 0.0;
		if (P.depOn != 0) cd[i] = BIG;
#endif
	}
#ifndef FIRST
	countEnd(CTL_ACTIVE);
#endif
}
#endif
