// PhaseFlux: rain and sources (eq. 1), the pipe fluxes scaled by K
// (eqs. 2-4), and the thermal outflow q of every cell (eqs. 14-15).
layout(std430, binding = 1) readonly buffer B { float b[]; };
layout(std430, binding = 3) readonly buffer D { float d[]; };
layout(std430, binding = 4) writeonly buffer D1 { float d1[]; };
layout(std430, binding = 7) buffer F { vec4 f[]; };   // fL, fR, fT, fB, m³/s
layout(std430, binding = 9) readonly buffer Hard { float hard[]; };
layout(std430, binding = 10) writeonly buffer Q { float q[]; };
layout(std430, binding = 12) readonly buffer In { float inflow[]; };

// The water surface b + d1, scaled by Δt·A·g/l (as sim/hydro's surface).
float surf(int j) { return P.kf * (b[j] + (d[j] + P.dt * inflow[j])); }

// excess is the drop from the cell beyond the talus drop td, or 0.
void addExcess(float ex, inout float sum, inout float hmax) {
	if (ex > 0.0) { sum += ex; hmax = max(hmax, ex); }
}

shared uint scaledCount;

void main() {
	if (gl_LocalInvocationIndex == 0u) scaledCount = 0u;
	barrier();
	int x = int(gl_GlobalInvocationID.x);
	double out_ = 0.0;
	for (int k = 0; k < ROWS; k++) {
		int y = cellY(k);
		if (x >= P.W || y >= P.H) continue;
		int i = row(y) + x;
		int l = xl(x), r = xr(x), t = yt(y), bo = yb(y);
		float di = d[i] + P.dt * inflow[i];
		float hi = P.kf * (b[i] + di);
		d1[i] = di;
		float dl = 0.0, dr = 0.0, dtp = 0.0, db = 0.0;
		if (l >= 0) dl = hi - surf(row(y) + l); else if (open()) dl = P.kf * di;
		if (r >= 0) dr = hi - surf(row(y) + r); else if (open()) dr = P.kf * di;
		if (t >= 0) dtp = hi - surf(row(t) + x); else if (open()) dtp = P.kf * di;
		if (bo >= 0) db = hi - surf(row(bo) + x); else if (open()) db = P.kf * di;
		vec4 fo = f[i];
		float fl = max(0.0, fo.x + dl), fr = max(0.0, fo.y + dr), ft = max(0.0, fo.z + dtp), fb = max(0.0, fo.w + db);
		float sum = fl + fr + ft + fb;
		if (sum > 0.0) {
			float ks = di * P.vol / sum;
			if (ks < 1.0) {
				fl *= ks; fr *= ks; ft *= ks; fb *= ks;
				atomicAdd(scaledCount, 1u);
			}
		}
		f[i] = vec4(fl, fr, ft, fb);
		if (open()) {
			if (x == 0) out_ += double(fl);
			if (x == P.W - 1) out_ += double(fr);
			if (y == 0) out_ += double(ft);
			if (y == P.H - 1) out_ += double(fb);
		}
		// Thermal outflow over 8 pipes, in sim/hydro's order: N, S, W, NW,
		// SW, E, NE, SE.
		float qi = 0.0;
		if (P.thermal != 0) {
			float bi = b[i];
			float s = 0.0, hmax = 0.0;
			if (t >= 0) addExcess(bi - b[row(t) + x] - P.tanO, s, hmax);
			if (bo >= 0) addExcess(bi - b[row(bo) + x] - P.tanO, s, hmax);
			if (l >= 0) {
				addExcess(bi - b[row(y) + l] - P.tanO, s, hmax);
				if (t >= 0) addExcess(bi - b[row(t) + l] - P.tanD, s, hmax);
				if (bo >= 0) addExcess(bi - b[row(bo) + l] - P.tanD, s, hmax);
			}
			if (r >= 0) {
				addExcess(bi - b[row(y) + r] - P.tanO, s, hmax);
				if (t >= 0) addExcess(bi - b[row(t) + r] - P.tanD, s, hmax);
				if (bo >= 0) addExcess(bi - b[row(bo) + r] - P.tanD, s, hmax);
			}
			if (s > 0.0) qi = P.dtKt2 * hard[i] * hmax / s;
		}
		q[i] = qi;
	}
	groupSums(0, 1, out_, 0.0, 0.0, 0.0, 0, 0, 0.0, 0.0);
	if (gl_LocalInvocationIndex == 0u && scaledCount > 0u) atomicAdd(R.stats[3], scaledCount);
}
