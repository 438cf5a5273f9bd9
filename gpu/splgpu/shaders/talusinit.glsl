// The talus limit along the receivers (Cordonnier et al. 2016, §5;
// sim/talus's constant mode): h_i = min(he_i, h_r + tan·d_i), roots
// unchanged. Keeps the eroded heights he in H for the finish (in He with
// deposition); without a limit every cell is final at once.
layout(std430, binding = 2) writeonly buffer Hb { float h[]; };
layout(std430, binding = 3) readonly buffer Db { uint dcode[]; };
layout(std430, binding = 6) writeonly buffer P1b { int pd[]; };
layout(std430, binding = 7) readonly buffer A0b { float he[]; };
layout(std430, binding = 8) writeonly buffer A1b { float ad[]; };
layout(std430, binding = 10) writeonly buffer B1b { float bd[]; };
// With deposition H keeps the uplifted heights (the sediment's account
// starts from them) and the eroded ones go to He.
layout(std430, binding = 11) writeonly buffer Heb { float hek[]; };
// With P.talusOn = 2 (sim/talus's noise mode) the angle's tangent per
// cell.
layout(std430, binding = 12) readonly buffer Tfb { float tf[]; };

void main() {
	int i = cellIndex();
	if (i >= P.n) return;
	float v = he[i];
	if (P.depOn != 0) hek[i] = v;
	else h[i] = v;
	ad[i] = v;
	uint c = dcode[i] & 15u;
	if (P.talusOn == 0 || c >= 8u) {
		pd[i] = -1; bd[i] = 0.0;
		return;
	}
	pd[i] = recOf(i, c);
	bd[i] = (P.talusOn == 2 ? tf[i] : P.tanT) * distOf(c, INTERIOR);
}
