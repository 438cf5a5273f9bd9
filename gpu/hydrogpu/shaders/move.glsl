// PhaseTransport: semi-Lagrangian sediment transport (eq. 12), the
// thermal inflows and outflows applied to the new terrain, and with a
// geology the alluvium.
layout(std430, binding = 1) readonly buffer B { float b[]; };
layout(std430, binding = 2) buffer BN { float bn[]; };
layout(std430, binding = 5) writeonly buffer S { float s[]; };
layout(std430, binding = 6) readonly buffer S1 { float s1[]; };
layout(std430, binding = 8) readonly buffer V { vec2 v[]; };
layout(std430, binding = 10) readonly buffer Q { float q[]; };
layout(std430, binding = 11) readonly buffer Tout { float tout[]; };
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

float excess(float a, float c, float td) {
	float ex = a - c - td;
	return ex > 0.0 ? ex : 0.0;
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
			// The inflows q_j·excess_j from the higher neighbours, in
			// sim/hydro's order: N, S, W, NW, SW, E, NE, SE.
			int l = xl(x), r = xr(x), t = yt(y), bb = yb(y);
			float gain = 0.0;
			if (t >= 0) gain += q[row(t) + x] * excess(b[row(t) + x], bo, P.tanO);
			if (bb >= 0) gain += q[row(bb) + x] * excess(b[row(bb) + x], bo, P.tanO);
			if (l >= 0) {
				gain += q[row(y) + l] * excess(b[row(y) + l], bo, P.tanO);
				if (t >= 0) gain += q[row(t) + l] * excess(b[row(t) + l], bo, P.tanD);
				if (bb >= 0) gain += q[row(bb) + l] * excess(b[row(bb) + l], bo, P.tanD);
			}
			if (r >= 0) {
				gain += q[row(y) + r] * excess(b[row(y) + r], bo, P.tanO);
				if (t >= 0) gain += q[row(t) + r] * excess(b[row(t) + r], bo, P.tanD);
				if (bb >= 0) gain += q[row(bb) + r] * excess(b[row(bb) + r], bo, P.tanD);
			}
			bf += gain - tout[i];
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
