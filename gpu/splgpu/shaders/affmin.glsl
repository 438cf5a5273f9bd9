// One round of pointer jumping over maps x ↦ min(c, α + β·x), β ≥ 0 (the
// erosion with sim/spl's Hold): composed with the map of the cell pointed
// to, min(c, α + β·min(c_p, α_p + β_p·x)) = min(min(c, α + β·c_p), α +
// β·α_p + β·β_p·x). A cell whose pointer ends takes its final value
// min(c, α) (and BIG for c).
layout(std430, binding = 5) readonly buffer P0b { int ps[]; };
layout(std430, binding = 6) writeonly buffer P1b { int pd[]; };
layout(std430, binding = 7) readonly buffer A0b { float xs[]; };
layout(std430, binding = 8) writeonly buffer A1b { float xd[]; };
layout(std430, binding = 9) readonly buffer B0b { float ys[]; };
layout(std430, binding = 10) writeonly buffer B1b { float yd[]; };
layout(std430, binding = 11) readonly buffer C0b { float cs[]; };
layout(std430, binding = 12) writeonly buffer C1b { float cd[]; };

void main() {
	countBegin();
	int i = cellIndex();
	if (i < P.n) {
		int p = ps[i];
		float x = xs[i], y = ys[i], c = cs[i];
		int q = -1;
		if (p >= 0) {
			c = min(c, x + y * cs[p]);
			x = x + y * xs[p];
			y = y * ys[p];
			q = ps[p];
		}
		if (q < 0) {
			x = min(x, c);
			c = BIG;
		}
		xd[i] = x; yd[i] = y; cd[i] = c; pd[i] = q;
		if (q >= 0) groupCount = 1u;
	}
	countEnd(CTL_ACTIVE);
}
