// PhaseTransport: semi-Lagrangian sediment transport (eq. 12), the
// thermal inflows and outflows applied to the new terrain, and with a
// geology the alluvium.
layout(std430, binding = 1) readonly buffer B { float b[]; };
layout(std430, binding = 2) buffer BN { float bn[]; };
layout(std430, binding = 5) writeonly buffer S { float s[]; };
layout(std430, binding = 6) readonly buffer S1 { float s1[]; };
layout(std430, binding = 8) readonly buffer V { vec2 v[]; };
layout(std430, binding = 10) readonly buffer Q { float q[]; };
layout(std430, binding = 11) buffer Trem { float trem[]; };
layout(std430, binding = 13) buffer Alluv { float alluv[]; };

// wrapInto is k modulo n in [0, n) (GLSL's % is undefined for negative
// operands).
int wrapInto(int k, int n) { return k >= 0 ? k % n : n - 1 - ((-k - 1) % n); }

float at(int xx, int yy) {
	if (P.boundary == WRAP) {
		xx = wrapInto(xx, P.W);
		yy = wrapInto(yy, P.H);
	} else if (P.boundary == WALLS) {
		xx = clamp(xx, 0, P.W - 1);
		yy = clamp(yy, 0, P.H - 1);
	} else if (xx < 0 || yy < 0 || xx >= P.W || yy >= P.H) {
		return 0.0;
	}
	return s1[row(yy) + xx];
}

// sampleEdge is sim/hydro's: walls clamp the point into the map, open
// edges read clear water outside it, wrap wraps it.
float sampleEdge(float px, float py, float x, float y) {
	const float far = 1048576.0;
	if (!(px > -far && px < far)) px = x;
	if (!(py > -far && py < far)) py = y;
	if (P.boundary == WALLS) {
		px = clamp(px, 0.0, float(P.W - 1));
		py = clamp(py, 0.0, float(P.H - 1));
	}
	float fx = floor(px), fy = floor(py);
	float tx = px - fx, ty = py - fy;
	int x0 = int(fx), y0 = int(fy);
	float a = at(x0, y0) + tx * (at(x0 + 1, y0) - at(x0, y0));
	float c = at(x0, y0 + 1) + tx * (at(x0 + 1, y0 + 1) - at(x0, y0 + 1));
	return a + ty * (c - a);
}

// pipe is the soil, m, that a cell (height bo, thermal factor qo) gains
// through its pipe to neighbour n: q_n·excess when n stands higher than
// the talus drop td, −q_o·excess when the cell does (eq. 15), as
// sim/hydro's pipe: both cells of a pipe form the same float32 product,
// so what one loses the other gains to the bit.
double pipe(float qn, float bn_, float qo, float bo, float td) {
	precise float ex = bn_ - bo - td;
	if (ex > 0.0) {
		precise float m = qn * ex;
		return double(m);
	}
	ex = bo - bn_ - td;
	if (ex > 0.0) {
		precise float m = qo * ex;
		return -double(m);
	}
	return 0.0lf;
}

void main() {
	int x = int(gl_GlobalInvocationID.x);
	double snew = 0.0;
	float dh = 0.0;
	for (int k = 0; k < ROWS; k++) {
		int y = cellY(k);
		if (x >= P.W || y >= P.H) continue;
		int i = row(y) + x;
		vec2 vi = v[i];
		float px = float(x) - vi.x * P.dtCell;
		float py = float(y) - vi.y * P.dtCell;
		float val;
		if (px >= 0.0 && py >= 0.0 && px < float(P.W - 1) && py < float(P.H - 1)) {
			int x0 = int(px), y0 = int(py);
			float tx = px - float(x0), ty = py - float(y0);
			int j = row(y0) + x0; // row y0 + 1 follows it, in a band's buffers too
			float s00 = s1[j], s01 = s1[j + 1], s10 = s1[j + P.W], s11 = s1[j + P.W + 1];
			float a = s00 + tx * (s01 - s00);
			float c = s10 + tx * (s11 - s10);
			val = a + ty * (c - a);
		} else {
			val = sampleEdge(px, py, float(x), float(y));
		}
		s[i] = val;
		snew += double(val);
		float bo = b[i];
		float bf = bn[i];
		if (P.thermal != 0) {
			// The soil the cell gains through its 8 pipes, in sim/hydro's
			// order (N, S, W, NW, SW, E, NE, SE), summed in float64 with
			// what the float32 terrain could not hold before (trem), added
			// to the terrain with the rounding carried on (addExact): on
			// high terrain a pipe moves less than half a float32 step.
			int l = xl(x), r = xr(x), t = yt(y), bb = yb(y);
			float qo = q[i];
			double net = 0.0lf;
			if (t >= 0) net += pipe(q[row(t) + x], b[row(t) + x], qo, bo, P.tanO);
			if (bb >= 0) net += pipe(q[row(bb) + x], b[row(bb) + x], qo, bo, P.tanO);
			if (l >= 0) {
				net += pipe(q[row(y) + l], b[row(y) + l], qo, bo, P.tanO);
				if (t >= 0) net += pipe(q[row(t) + l], b[row(t) + l], qo, bo, P.tanD);
				if (bb >= 0) net += pipe(q[row(bb) + l], b[row(bb) + l], qo, bo, P.tanD);
			}
			if (r >= 0) {
				net += pipe(q[row(y) + r], b[row(y) + r], qo, bo, P.tanO);
				if (t >= 0) net += pipe(q[row(t) + r], b[row(t) + r], qo, bo, P.tanD);
				if (bb >= 0) net += pipe(q[row(bb) + r], b[row(bb) + r], qo, bo, P.tanD);
			}
			precise double sum = double(bf) + (net + double(trem[i]));
			bf = float(sum);
			trem[i] = float(sum - double(bf));
			bn[i] = bf;
		}
		if (P.geology != 0) {
			// The alluvium: what the step added to the terrain less what
			// it took (sim/hydro's deposit).
			alluv[i] = float(max(0.0lf, double(alluv[i]) + double(bf) - double(bo)));
		}
		dh = max(dh, abs(bf - bo));
	}
	groupSums(5, 1, snew, 0.0, 0.0, 0.0, 2, 1, dh, 0.0);
}
