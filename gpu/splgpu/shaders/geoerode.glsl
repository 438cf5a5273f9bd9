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

const double INF = 1e300;

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
		double dd = double(d);
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
