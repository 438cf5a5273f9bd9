// Deposition, first pass per cell: each cell's depth below its lake's
// level on the limited heights is added to the lake's volume (vn, fixed
// point), and the bits of the tree contraction (DSBITS) are cleared.
// With it the talus phase's end: the cells the talus limit lowered
// (limited below eroded, He) counted, and per work group Σ he in a fixed
// tree order (part[g*8], which the finish leaves alone with deposition),
// so that the eroded heights' buffer is free for the contraction.
layout(std430, binding = 3) buffer Db { uint dcode[]; };
layout(std430, binding = 4) readonly buffer Lb { int lab[]; };
layout(std430, binding = 11) readonly buffer Hl { float hl[]; };
layout(std430, binding = 12) buffer Pits { Pit pits[]; };
layout(std430, binding = 13) readonly buffer Heb { float he[]; };

int pitOf(int root) {
	int lo = 0, hi = int(ctl[CTL_PITS]);
	while (lo < hi) {
		int mid = (lo + hi) >> 1;
		if (pits[mid].root < root) lo = mid + 1; else hi = mid;
	}
	return lo < int(ctl[CTL_PITS]) && pits[lo].root == root ? lo : -1;
}

shared double red[256];
shared uint sClamp;

void main() {
	uint t = gl_LocalInvocationIndex;
	if (t == 0u) sClamp = 0u;
	barrier();
	int i = cellIndex();
	double se = 0.0;
	if (i < P.n) {
		uint w = dcode[i];
		if ((w & DSBITS) != 0u) dcode[i] = w & ~DSBITS;
		float h = hl[i], e = he[i];
		if (h < e) atomicAdd(sClamp, 1u);
		se = double(e);
		int pi;
		if ((w & 15u) < 8u && (pi = pitOf(lab[i])) >= 0) {
			float lv = pits[pi].lvl;
			if (lv > h) {
				uvec2 v = toFix(double(lv) - double(h));
				uint old = atomicAdd(pits[pi].vnLo, v.x);
				atomicAdd(pits[pi].vnHi, v.y + (old + v.x < old ? 1u : 0u));
			}
		}
	}
	red[t] = se;
	barrier();
	for (uint k = 128u; k > 0u; k >>= 1) {
		if (t < k) red[t] += red[t + k];
		barrier();
	}
	if (t == 0u) {
		part[groupIndex() * 8u] = red[0];
		if (sClamp != 0u) atomicAdd(ctl[CTL_CLAMPED], sClamp);
	}
}
