// erodeinit with deposition (G > 0; n = 1): the source term of Yuan et
// al. 2019, G·Qs/A of the last step (Dr, m/yr), added to the uplift
// inside the implicit step, and sim/spl's Hold: a node that would end
// below its receiver keeps its raised height a. So h_i = min(a_i, α_i +
// β_i·h_r), a map x ↦ min(c, α + β·x) (c the cap, in Cd) composed along
// the receivers by affmin. H takes the uplifted heights (before the
// source term), which the sediment's account starts from. The counts are
// copied to Cnt by areacopy.
layout(std430, binding = 2) buffer Hb { float h[]; };
layout(std430, binding = 3) readonly buffer Db { uint dcode[]; };
layout(std430, binding = 7) readonly buffer A0b { uint area[]; };
layout(std430, binding = 6) writeonly buffer P1b { int pd[]; };
layout(std430, binding = 8) writeonly buffer A1b { float al[]; };
layout(std430, binding = 9) writeonly buffer C1b { float cd[]; };
layout(std430, binding = 10) writeonly buffer B1b { float be[]; };
layout(std430, binding = 11) readonly buffer Ub { float up[]; };
layout(std430, binding = 12) readonly buffer Kb { float kf[]; };
layout(std430, binding = 13) readonly buffer Rb { float dr[]; };

void main() {
	int i = cellIndex();
	if (i >= P.n) return;
	uint c = dcode[i] & 15u;
	int kd = kindOf(i % P.W, i / P.W);
	float d = distOf(c, kd);
	if (kd == FIXED) {
		pd[i] = -1; al[i] = h[i]; be[i] = 0.0; cd[i] = BIG;
		return;
	}
	float hu = h[i];
	if (P.hasUp != 0) hu = float(double(hu) + P.dtd * double(up[i]));
	h[i] = hu;
	if (d == 0.0) { // a pit not routed out: held, as sim/spl holds a root
		pd[i] = -1; al[i] = hu; be[i] = 0.0; cd[i] = BIG;
		return;
	}
	double a = double(hu) + P.dtd * double(dr[i]);
	double ar = double(area[i]) * P.cellArea;
	double am = P.m == 0.5 ? sqrt(ar) : double(pow(float(ar), P.m));
	double kdt = P.kdt;
	if (P.hasKF != 0) kdt *= double(kf[i]);
	double f = kdt * am / double(d);
	double cc = 1.0 / (1.0 + f);
	float alpha = float(a * cc), cap = float(a);
	if (c >= 8u) { // a root on a Natural edge: its receiver is at 0
		pd[i] = -1; al[i] = min(cap, alpha); be[i] = 0.0; cd[i] = BIG;
	} else {
		pd[i] = recOf(i, c); al[i] = alpha; be[i] = float(f * cc); cd[i] = cap;
	}
}
