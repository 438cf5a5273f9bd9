// Steepest-descent receivers (sim/flow's Route) on the heights bound at
// 2 (the step's start with a hillslope term and random routing, as
// sim/grid routes): ties
// to the first neighbour in the order E, SE, S, SW, W, NW, N, NE, and a
// cell keeps its receiver of the last step unless another is steeper by
// more than 0.1 % (flow.Hysteresis; not on a path the lakes reversed),
// by more than 1/(1 − flow.ChannelKeep) for a channel the random routing
// holds. With random
// hillslope routing (P.randOn), sim/flow's Randomize on top: an inner
// cell whose drainage area of the last step reaches the channel area is
// a channel for flow.ChannelHold more steps (its hold, bits 24-30); one
// below it and not held keeps its last random receiver (bits 12-15)
// while it is still downhill, or draws one among its downhill neighbours
// with probability proportional to the slope, from the same hash of the
// seed and the cell (SplitMix64's finalizer on 32-bit halves) and the
// same float32 sums. Writes the code (bits 0-3) beside the last step's
// final code (bits 8-11), the random receiver and the hold, the basin
// pointer Lab (its receiver) and lists the pits.
layout(std430, binding = 2) readonly buffer Hb { float h[]; };
layout(std430, binding = 3) buffer Db { uint dcode[]; };
layout(std430, binding = 4) writeonly buffer Lb { int lab[]; };
layout(std430, binding = 5) writeonly buffer Pits { int pits[]; };
layout(std430, binding = 13) readonly buffer Cb { uint cnt[]; };

// 64-bit words as (low, high) halves.
uvec2 mul64(uvec2 a, uvec2 b) {
	uint hi, lo;
	umulExtended(a.x, b.x, hi, lo);
	return uvec2(lo, hi + a.x * b.y + a.y * b.x);
}

uvec2 xorShift(uvec2 a, int s) { // a ^ (a >> s), 0 < s < 32
	return a ^ uvec2((a.x >> s) | (a.y << (32 - s)), a.y >> s);
}

// unit is sim/flow's unit(seed, i) rounded to float32: z = seed·φ64 + i +
// c (the seed's part from the host), SplitMix64's finalizer, z>>11 / 2^53.
float unit(int i) {
	uint c;
	uint lo = uaddCarry(P.seedLo, uint(i), c);
	uvec2 z = uvec2(lo, P.seedHi + c);
	z = mul64(xorShift(z, 30), uvec2(0x1ce4e5b9u, 0xbf58476du));
	z = mul64(xorShift(z, 27), uvec2(0x133111ebu, 0x94d049bbu));
	z = xorShift(z, 31);
	double v = double(z.y >> 11) * 4294967296.0 + double((z.x >> 11) | (z.y << 21));
	return float(v / 9007199254740992.0);
}

float slopeTo(float hi, int x, int y, int k) {
	precise float s = hi - h[(y + DY[k]) * P.W + x + DX[k]];
	if ((k & 1) == 1) s *= INV_SQRT2;
	return s;
}

void main() {
	int i = cellIndex();
	if (i >= P.n) return;
	int x = i % P.W, y = i / P.W;
	uint w = dcode[i];
	uint pf = (w >> 8) & 15u;
	uint rd = (w >> 12) & 15u;
	uint hold = (w >> 24) & 127u;
	bool po = ((w >> 4) & 1u) != 0u;
	int kd = kindOf(x, y);
	int bk = 8;
	if (kd != FIXED) {
		float hi = h[i];
		float best = 0.0;
		for (int k = 0; k < 8; k++) {
			int nx = x + DX[k], ny = y + DY[k];
			if (nx < 0 || ny < 0 || nx >= P.W || ny >= P.H) continue;
			float s = hi - h[ny * P.W + nx];
			if ((k & 1) == 1) s *= INV_SQRT2;
			if (s > best) { best = s; bk = k; }
		}
		int pd = po ? 9 : int(pf);
		if (pd < 8 && pd != bk) {
			int nx = x + DX[pd], ny = y + DY[pd];
			if (nx >= 0 && ny >= 0 && nx < P.W && ny < P.H) {
				float s = hi - h[ny * P.W + nx];
				if ((pd & 1) == 1) s *= INV_SQRT2;
				// A channel the random routing holds keeps its receiver
				// within flow.ChannelKeep of the steepest.
				float f = P.randOn != 0 && hold > 0u ? P.keepChannel : P.keep;
				if (s > 0.0 && best <= s * f) bk = pd;
			}
		}
		if (P.randOn != 0 && x > 0 && y > 0 && x < P.W - 1 && y < P.H - 1) {
			double a = ctl[CTL_ROUTED] != 0u ? double(cnt[i]) * P.cellArea : P.cellArea;
			if (a >= P.channel) {
				rd = 8u;
				hold = uint(P.channelHold);
			} else if (hold > 0u) {
				hold--; // still a channel: the steepest descent's receiver
			} else if (rd < 8u && h[(y + DY[rd]) * P.W + x + DX[rd]] < hi) {
				bk = int(rd);
			} else {
				float wt[8];
				precise float sum = 0.0; // no fused multiply-add: sim/flow's float32 sums
				for (int k = 0; k < 8; k++) {
					float s = max(slopeTo(hi, x, y, k), 0.0);
					wt[k] = s;
					sum += s;
				}
				if (sum <= 0.0) {
					rd = 8u; // a pit: the steepest descent's receiver (itself)
				} else {
					float u = unit(i) * sum;
					int pk = -1;
					for (int k = 0; k < 8; k++) {
						if (wt[k] > 0.0) {
							pk = k;
							if (u < wt[k]) break;
							u -= wt[k];
						}
					}
					bk = pk;
					rd = uint(pk);
				}
			}
		}
	}
	uint c = uint(bk);
	dcode[i] = c | (pf << 8) | (rd << 12) | (hold << 24);
	lab[i] = recOf(i, c);
	if (c == 8u && kd == INTERIOR) {
		uint m = atomicAdd(ctl[CTL_PITS], 1u);
		pits[m] = i;
	}
}
