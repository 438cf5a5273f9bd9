// The creep's mean face factors (sim/hillslope's Creeper.factors): per
// cell, the factor f = 1/(1 − min((S/S_c)², 0.9²)) of its east face (Fx)
// and its south face (Fy), S the face's slope (the difference across it
// over the cell size, and the mean of its two cells' central differences
// along it, one-sided on the edges), moved towards f by ω (ctl[11],
// float bits); ctl[12] = 1 starts the means afresh. The same float64
// differences and float32 factors as the CPU, unfused.
layout(std430, binding = 2) readonly buffer Hb { float h[]; };
layout(std430, binding = 11) buffer Fxb { float fx[]; };
layout(std430, binding = 12) buffer Fyb { float fy[]; };

double hd(int x, int y) { return double(h[y * P.W + x]); }

// gradX is the central difference along x at (x, y), one-sided on the
// edges (Creeper's gradX).
double gradX(int x, int y) {
	if (P.W == 1) return 0.0;
	precise double g;
	if (x == 0) g = (hd(1, y) - hd(0, y)) * P.invCell;
	else if (x == P.W - 1) g = (hd(P.W - 1, y) - hd(P.W - 2, y)) * P.invCell;
	else g = (hd(x + 1, y) - hd(x - 1, y)) * 0.5 * P.invCell;
	return g;
}

// gradY is the central difference along y at (x, y) (Creeper's gy).
double gradY(int x, int y) {
	int yn = max(y - 1, 0), ys = min(y + 1, P.H - 1);
	if (ys == yn) return 0.0;
	double k = ys - yn == 2 ? P.invCell * 0.5 : P.invCell; // inv/(ys − yn), exact
	precise double g = (hd(x, ys) - hd(x, yn)) * k;
	return g;
}

// factor is 1/(1 − min(q, cap²)) in float32, the division correctly
// rounded (through float64; GLSL's float division need not be).
float factor(float a, float b) {
	precise float q = (a * a + b * b) * P.isc2;
	precise float den = 1.0 - min(q, P.cap2);
	return float(1.0lf / double(den));
}

void main() {
	int i = cellIndex();
	if (i >= P.n) return;
	int x = i % P.W, y = i / P.W;
	float om = uintBitsToFloat(ctl[11]);
	bool fresh = ctl[12] != 0u;
	if (x < P.W - 1) {
		precise double d = (hd(x + 1, y) - hd(x, y)) * P.invCell;
		float a = float(d);
		precise double g = 0.5 * (gradY(x, y) + gradY(x + 1, y));
		float b = float(g);
		float v = factor(a, b);
		float f = fresh ? 0.0 : fx[i];
		precise float nf = f + om * (v - f);
		fx[i] = nf;
	} else if (fresh) {
		fx[i] = 0.0;
	}
	if (y < P.H - 1) {
		precise double d = (hd(x, y + 1) - hd(x, y)) * P.invCell;
		float a = float(d);
		precise double g = 0.5 * (gradX(x, y) + gradX(x, y + 1));
		float b = float(g);
		float v = factor(a, b);
		float f = fresh ? 0.0 : fy[i];
		precise float nf = f + om * (v - f);
		fy[i] = nf;
	} else if (fresh) {
		fy[i] = 0.0;
	}
}
