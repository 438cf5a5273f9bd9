// PhaseErosion: the water update (eqs. 5-6), velocity (eq. 7), capacity
// (eq. 8), dissolving and deposition (eqs. 9-10), softening (eq. 11) and
// evaporation (eq. 13).
layout(std430, binding = 1) readonly buffer B { float b[]; };
layout(std430, binding = 2) writeonly buffer BN { float bn[]; };
layout(std430, binding = 3) writeonly buffer D { float d[]; };
layout(std430, binding = 4) readonly buffer D1 { float d1[]; };
layout(std430, binding = 5) readonly buffer S { float s[]; };
layout(std430, binding = 6) writeonly buffer S1 { float s1[]; };
layout(std430, binding = 7) readonly buffer F { vec4 f[]; };
layout(std430, binding = 8) writeonly buffer V { vec2 v[]; };
layout(std430, binding = 9) buffer Hard { float hard[]; };

const float dEps = 1e-6;

void main() {
	int x = int(gl_GlobalInvocationID.x);
	double evap = 0.0, dissolved = 0.0, sum1 = 0.0, stored = 0.0;
	float depth = 0.0, fastest = 0.0;
	for (int k = 0; k < ROWS; k++) {
		int y = cellY(k);
		if (x >= P.W || y >= P.H) continue;
		int i = row(y) + x;
		int l = xl(x), r = xr(x), t = yt(y), bo = yb(y);
		vec4 fo = f[i];
		float inL = l >= 0 ? f[row(y) + l].y : 0.0;
		float inR = r >= 0 ? f[row(y) + r].x : 0.0;
		float inT = t >= 0 ? f[row(t) + x].w : 0.0;
		float inB = bo >= 0 ? f[row(bo) + x].z : 0.0;
		// Eqs. 5-6.
		float dV = P.dt * ((inL + inR + inT + inB) - (fo.x + fo.y + fo.z + fo.w));
		float da = d1[i];
		float d2 = max(da + dV * P.invArea, 0.0);
		// Eq. 7.
		float vx = 0.0, vy = 0.0, speed = 0.0;
		float dbar = 0.5 * (da + d2);
		if (dbar > dEps) {
			float inv = P.invCell / dbar;
			vx = 0.5 * (inL - fo.x + fo.y - inR) * inv;
			vy = 0.5 * (inT - fo.z + fo.w - inB) * inv;
			speed = sqrt(vx * vx + vy * vy);
		}
		v[i] = vec2(vx, vy);
		// Eq. 8: the slope by central differences, one-sided at walls and
		// open edges.
		float capa = 0.0;
		if (speed > 0.0) {
			int gl = wrap() ? l : max(x - 1, 0), gr = wrap() ? r : min(x + 1, P.W - 1);
			int gt = wrap() ? t : max(y - 1, 0), gb = wrap() ? bo : min(y + 1, P.H - 1);
			float gxs = (wrap() || gr - gl == 2) ? P.halfInvCell : P.invCell;
			float gys = (wrap() || gb - gt == 2) ? P.halfInvCell : P.invCell;
			float gx = (b[row(y) + gr] - b[row(y) + gl]) * gxs;
			float gy = (b[row(gb) + x] - b[row(gt) + x]) * gys;
			float sd = -(gx * vx + gy * vy) / speed;
			if (sd > 0.0) {
				float lim = 1.0 - da * P.invLMax;
				if (lim > 0.0) {
					float sn = sd / sqrt(1.0 + sd * sd);
					capa = min(P.kc * sn * speed * lim, P.cmax * d2);
				}
			}
		}
		// Eqs. 9-11; open edge cells are base level.
		precise float bi = b[i];
		precise float si = s[i];
		float d3 = d2;
		float hr = hard[i];
		if (!(open() && (x == 0 || x == P.W - 1 || y == 0 || y == P.H - 1))) {
			float ex = capa - si;
			float rate = ex > 0.0 ? P.dtks * hr : P.dtkd;
			rate = min(rate, 1.0);
			precise float amt = rate * ex;
			precise float bo0 = bi;
			bi = bi - amt;
			amt = bo0 - bi; // what the float32 terrain gave or took
			si += amt;
			d3 = max(d3 + amt, 0.0);
			if (hr > P.rmin && ex < 0.0) {
				hr = max(hr + P.dtkhks * ex, P.rmin);
				hard[i] = hr;
			}
		}
		// Eq. 13.
		float df = d3 * P.evapKeep;
		bn[i] = bi;
		s1[i] = si;
		d[i] = df;
		evap += double(d3 - df);
		dissolved += double(d3 - d2);
		sum1 += double(si);
		stored += double(df);
		depth = max(depth, df);
		fastest = max(fastest, speed);
	}
	groupSums(1, 4, evap, dissolved, sum1, stored, 0, 2, depth, fastest);
}
