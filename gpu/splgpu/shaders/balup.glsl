// Rebalanced splitting, before the uplift: the stream power's part takes
// the sweeps' corrections back, h −= Δt·(cx + cy) (cy holds the sum,
// baly), on the heights h1 after the sweeps, which the routing saw; cy
// takes its update less the step's share, (cx + cy) − cx' − (h1 −
// h0)/Δt with cx' baly's (balfin adds S/3Δt).
layout(std430, binding = 2) buffer Hb { float h[]; };
layout(std430, binding = 11) readonly buffer Q0b { float h0[]; };
layout(std430, binding = 13) buffer Cb { vec2 cxy[]; };

void main() {
	int i = cellIndex();
	if (i >= P.n || kindOf(i % P.W, i / P.W) == FIXED) return;
	vec2 c = cxy[i];
	double h1 = double(h[i]);
	h[i] = float(h1 - P.dtd * double(c.y));
	cxy[i].y = float(double(c.y) - double(c.x) - (h1 - double(h0[i])) / P.dtd);
}
