// The implicit stream-power step for n ≠ 1 (Braun and Willett 2013): each
// node solves δ − δ0 + F·spow(δ, n) = 0, δ = h_i − h_r, δ0 = a_i − h_r,
// F = k·Δt·A^m / d^n (sim/spl's solveDelta). Newton's method on the whole
// forest: linearized at the current heights X, each node's equation is
// an affine map of its receiver's new height, h_i = α + β·h_r with
// F' = F·n·|δk|^(n−1), α = (a + F'·δk − F·spow(δk, n))/(1 + F'),
// β = F'/(1 + F'), composed by the same pointer jumping as n = 1. Counts
// the nodes whose equation X does not yet meet.
//
// With DEP (newtondep: deposition, G > 0, as erodedep for n = 1): a
// takes the source term, a = h + Δt·G·Qs/A (Dr), and sim/spl's Hold
// keeps a node at a where its receiver lies at or above a: the node's
// solution is min(a, h_r + δ(a − h_r)) (δ lies in (0, δ0) when δ0 > 0,
// and h_r + δ ≥ a otherwise), so its map is x ↦ min(a, α + β·x), the
// cap a in Cd, composed by affmin; a held node (δ0 ≤ 0 at the current
// iterate) maps to a alone and is met when X holds it there. A pit not
// routed out keeps its uplifted height, without the source term (as
// sim/spl skips a root).
layout(std430, binding = 2) readonly buffer Hb { float h[]; };   // the uplifted heights
layout(std430, binding = 3) readonly buffer Db { uint dcode[]; };
layout(std430, binding = 6) writeonly buffer P1b { int pd[]; };
layout(std430, binding = 7) readonly buffer Xb { float xk[]; };   // the current iterate
layout(std430, binding = 8) writeonly buffer A1b { float al[]; };
layout(std430, binding = 10) writeonly buffer B1b { float be[]; };
layout(std430, binding = 12) readonly buffer Kb { float kf[]; };
layout(std430, binding = 13) readonly buffer Cb { uint cnt[]; };
#ifdef DEP
layout(std430, binding = 9) writeonly buffer C1b { float cd[]; };
layout(std430, binding = 11) readonly buffer Rb { float dr[]; };
#endif

float spow(float v, float n) { return sign(v) * pow(abs(v), n); }

void main() {
	countBegin();
	int i = cellIndex();
	if (i < P.n) {
		uint c = dcode[i] & 15u;
		int kd = kindOf(i % P.W, i / P.W);
		float d = distOf(c, kd);
		float a = h[i];
#ifdef DEP
		cd[i] = BIG;
#endif
		if (kd == FIXED || d == 0.0) {
			pd[i] = -1; al[i] = a; be[i] = 0.0;
		} else {
#ifdef DEP
			a = float(double(a) + P.dtd * double(dr[i]));
#endif
			int r = c >= 8u ? -1 : recOf(i, c);
			float xr = r < 0 ? 0.0 : xk[r];
			double ar = double(cnt[i]) * P.cellArea;
			double am = P.m == 0.5 ? sqrt(ar) : double(pow(float(ar), P.m));
			double kdt = P.kdt;
			if (P.hasKF != 0) kdt *= double(kf[i]);
			float f = float(kdt * am / double(pow(d, P.n1)));
			float d0 = a - xr;
			float dk = xk[i] - xr;
#ifdef DEP
			if (r >= 0) cd[i] = a;
			if (d0 <= 0.0) {
				// Held: its receiver lies at or above a.
				if (abs(xk[i] - a) > 4e-6 * max(1.0, abs(a))) atomicAdd(groupCount, 1u);
				pd[i] = -1; al[i] = a; be[i] = 0.0; cd[i] = BIG;
			} else {
#endif
			if (d0 == 0.0) {
				// δ = 0: the node stays at its receiver's height.
				al[i] = 0.0;
				dk = 0.0;
			} else {
				// Off zero, where |δ|^(n−1) is infinite or 0: from a
				// sliver of δ0 on its side. If the root lies within it,
				// the node has converged.
				float tiny = 1e-10 * max(abs(d0), 1e-3);
				bool clamped = abs(dk) < tiny || sign(dk) != sign(d0);
				if (clamped) dk = sign(d0) * tiny;
				float g = dk - d0 + f * spow(dk, P.n1);
				float fp = f * P.n1 * pow(abs(dk), P.n1 - 1.0);
				// Met when Newton's step, g/(1 + F'), is within a few
				// float32 ulps of the height.
				bool met = abs(g) <= 4e-6 * max(1.0, max(abs(a), abs(d0))) * (1.0 + fp) || (clamped && g * sign(d0) >= 0.0);
				if (!met) groupCount = 1u;
				float inv = 1.0 / (1.0 + fp);
				al[i] = (a + fp * dk - f * spow(dk, P.n1)) * inv;
				dk = fp * inv; // β
			}
			if (r < 0) {
				pd[i] = -1; be[i] = 0.0;
			} else {
				pd[i] = r; be[i] = d0 == 0.0 ? 1.0 : dk;
			}
#ifdef DEP
			}
#endif
		}
	}
	countEnd(CTL_ACTIVE);
}
