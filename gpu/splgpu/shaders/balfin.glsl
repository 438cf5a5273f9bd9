// Rebalanced splitting, after the finish: both corrections add S/3Δt, S
// = h2 − h0 the step's change (sim/grid's rebalance: cx += (S/3 −
// ΔX)/Δt, cy += (S/3 − ΔY)/Δt, whose −ΔX/Δt and −ΔY/Δt baly and balup
// added).
layout(std430, binding = 2) readonly buffer Hb { float h[]; };
layout(std430, binding = 11) readonly buffer Q0b { float h0[]; };
layout(std430, binding = 13) buffer Cb { vec2 cxy[]; };

void main() {
	int i = cellIndex();
	if (i >= P.n || kindOf(i % P.W, i / P.W) == FIXED) return;
	double s3 = (double(h[i]) - double(h0[i])) / 3.0 / P.dtd;
	vec2 c = cxy[i];
	cxy[i] = vec2(float(double(c.x) + s3), float(double(c.y) + s3));
}
