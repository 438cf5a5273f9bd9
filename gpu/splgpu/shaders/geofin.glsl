// The alluvium with a geology, after the finish (sim/grid's
// depositRange): what the step added to a cell beyond its uplift is
// deposit, what it took is eroded from the alluvium first.
layout(std430, binding = 2) readonly buffer Hb { float h[]; };      // the heights after the step
layout(std430, binding = 5) buffer Alb { float alluv[]; };
layout(std430, binding = 6) readonly buffer Ub { float up[]; };
layout(std430, binding = 11) readonly buffer Q0b { float prev[]; }; // the heights before it

void main() {
	int i = cellIndex();
	if (i >= P.n) return;
	float dh = h[i] - prev[i];
	if (P.hasUp != 0 && kindOf(i % P.W, i / P.W) != FIXED) dh -= float(P.dtd * double(up[i]));
	float a = alluv[i] + dh;
	alluv[i] = a > 0.0 ? a : 0.0;
}
