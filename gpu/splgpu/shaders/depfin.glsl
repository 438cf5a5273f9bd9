// Deposition, the step's heights: a cell that received less than it
// kept is lowered by the lack (as in depvol), then the lakes' cells below
// their level rise by φ of their depth on the limited heights, which
// their volume was measured on (sim/spl's FillLakes, which measures both
// after the lowering). In place on Hl. Per work group, in a fixed tree
// order: Σ h_l (the volume after the talus limit), the rock the step
// lowered and raised against the uplifted heights, and what left through
// the roots (outlets, Natural edges); depvol counted the cells the
// talus limit lowered and summed the eroded heights.
layout(std430, binding = 2) readonly buffer Hb { float h[]; };
layout(std430, binding = 3) readonly buffer Db { uint dcode[]; };
layout(std430, binding = 4) readonly buffer Lb { int lab[]; };
layout(std430, binding = 7) readonly buffer X0b { uint xsLo[]; };
layout(std430, binding = 8) readonly buffer X1b { uint xsHi[]; };
layout(std430, binding = 11) buffer Hl { float hl[]; };
layout(std430, binding = 12) readonly buffer Pits { Pit pits[]; };

int pitOf(int root) {
	int lo = 0, hi = int(ctl[CTL_PITS]);
	while (lo < hi) {
		int mid = (lo + hi) >> 1;
		if (pits[mid].root < root) lo = mid + 1; else hi = mid;
	}
	return lo < int(ctl[CTL_PITS]) && pits[lo].root == root ? lo : -1;
}

shared double red[4][256];

void main() {
	uint t = gl_LocalInvocationIndex;
	int i = cellIndex();
	double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
	if (i < P.n) {
		uint w = dcode[i];
		bool root = (w & 15u) >= 8u;
		int pi = pitOf(lab[i]);
		float l = hl[i], b = h[i];
		double x = fromFix(uvec2(xsLo[i], xsHi[i]));
		float v = l;
		if (root) {
			s3 = x; // what left the map here
		} else if ((w & EXIT) != 0u || b < l) { // as depvol
			if ((w & EXIT) != 0u && pi >= 0) x += fromFix(uvec2(pits[pi].vpLo, pits[pi].vpHi));
			if (x < 0.0) v = float(double(l) + x);
		}
		if (pi >= 0) {
			float lv = pits[pi].lvl, phi = pits[pi].phi;
			if (phi > 0.0 && lv > l) v = min(lv, float(double(v) + double(phi) * (double(lv) - double(l))));
		}
		hl[i] = v;
		s0 = double(l);
		double d = double(b) - double(v);
		if (d > 0.0) s1 = d; else s2 = -d;
	}
	red[0][t] = s0; red[1][t] = s1; red[2][t] = s2; red[3][t] = s3;
	barrier();
	for (uint s = 128u; s > 0u; s >>= 1) {
		if (t < s) {
			for (uint k = 0u; k < 4u; k++) red[k][t] += red[k][t + s];
		}
		barrier();
	}
	if (t == 0u) {
		uint g = groupIndex();
		for (uint k = 0u; k < 4u; k++) part[g * 8u + 4u + k] = red[k][0];
	}
}
