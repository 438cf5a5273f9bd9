// Uplift and the implicit stream-power step with n = 1 (Braun and
// Willett 2013): h_i = (a_i + F_i h_r)/(1 + F_i), a_i = h_i + Δt·u_i,
// F_i = k·Δt·A_i^m / d_i: the affine map h_i = α_i + β_i h_r, α = a/(1+F),
// β = F/(1+F). The area counts are kept in Cnt for the snapshot. Fixed outlets keep their height (β = 0); a root on a
// Natural edge drains to the virtual node at height 0.
layout(std430, binding = 2) buffer Hb { float h[]; };
layout(std430, binding = 3) readonly buffer Db { uint dcode[]; };
layout(std430, binding = 7) readonly buffer A0b { uint area[]; };
layout(std430, binding = 6) writeonly buffer P1b { int pd[]; };
layout(std430, binding = 8) writeonly buffer A1b { float al[]; };
layout(std430, binding = 10) writeonly buffer B1b { float be[]; };
layout(std430, binding = 11) readonly buffer Ub { float up[]; };
layout(std430, binding = 12) readonly buffer Kb { float kf[]; };
layout(std430, binding = 13) writeonly buffer Cb { uint cnt[]; };

void main() {
	int i = cellIndex();
	if (i >= P.n) return;
	cnt[i] = area[i]; // kept for the snapshot
	uint c = dcode[i] & 15u;
	int kd = kindOf(i % P.W, i / P.W);
	float d = distOf(c, kd);
	if (kd == FIXED) {
		pd[i] = -1; al[i] = h[i]; be[i] = 0.0;
		return;
	}
	float hu = h[i];
	if (P.hasUp != 0) hu = float(double(hu) + P.dtd * double(up[i]));
	h[i] = hu; // the uplifted heights, for n ≠ 1's Newton steps
	if (d == 0.0) { // a pit not routed out: held, as sim/spl holds a root
		pd[i] = -1; al[i] = hu; be[i] = 0.0;
		return;
	}
	double a = double(area[i]) * P.cellArea;
	double am = P.m == 0.5 ? sqrt(a) : double(pow(float(a), P.m));
	double kdt = P.kdt;
	if (P.hasKF != 0) kdt *= double(kf[i]);
	double f = kdt * am / double(d);
	double cc = 1.0 / (1.0 + f);
	al[i] = float(double(hu) * cc);
	if (c >= 8u) {
		pd[i] = -1; be[i] = 0.0;
	} else {
		pd[i] = recOf(i, c); be[i] = float(f * cc);
	}
}
