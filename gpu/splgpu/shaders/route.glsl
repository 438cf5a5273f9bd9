// Steepest-descent receivers (sim/flow's Route): ties to the first
// neighbour in the order E, SE, S, SW, W, NW, N, NE, and a cell keeps
// its receiver of the last step unless another is steeper by more than
// 0.1 % (flow.Hysteresis; not on a path the lakes reversed). Writes the
// code (bits 0-3) beside the last step's final code (bits 8-11), the
// basin pointer Lab (its receiver) and lists the pits.
layout(std430, binding = 2) readonly buffer Hb { float h[]; };
layout(std430, binding = 3) buffer Db { uint dcode[]; };
layout(std430, binding = 4) writeonly buffer Lb { int lab[]; };
layout(std430, binding = 5) writeonly buffer Pits { int pits[]; };

void main() {
	int i = cellIndex();
	if (i >= P.n) return;
	int x = i % P.W, y = i / P.W;
	uint w = dcode[i];
	uint pf = (w >> 8) & 15u;
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
				if (s > 0.0 && best <= s * 1.001) bk = pd;
			}
		}
	}
	uint c = uint(bk);
	dcode[i] = c | (pf << 8);
	lab[i] = recOf(i, c);
	if (c == 8u && kd == INTERIOR) {
		uint m = atomicAdd(ctl[CTL_PITS], 1u);
		pits[m] = i;
	}
}
