// Deposition, per lake once the sums hold: what reaches its exit, V =
// max(0, x + vol) (the sediment in and the exit's own yield, clamped at
// 0), fills φ = min(1, V/vol) of the lake (sim/spl's Deposit; none for an
// exit that is a root, off a Natural edge); and the exit's source term
// for the next step (as depdr's), Qs the sediment from its donors, x +
// vol − y (depdr does the other cells).
layout(std430, binding = 2) readonly buffer Hb { float hb[]; };
layout(std430, binding = 3) readonly buffer Db { uint dcode[]; };
layout(std430, binding = 7) readonly buffer X0b { uint xsLo[]; };
layout(std430, binding = 8) readonly buffer X1b { uint xsHi[]; };
layout(std430, binding = 9) buffer Rb { float dr[]; };
layout(std430, binding = 11) readonly buffer Hl { float hl[]; };
layout(std430, binding = 12) buffer Pits { Pit pits[]; };
layout(std430, binding = 13) readonly buffer Cb { uint cnt[]; };
layout(std430, binding = 6) readonly buffer Ub { float up[]; };

void main() {
	int k = cellIndex();
	if (k >= int(ctl[CTL_PITS])) return;
	int c = pits[k].pass;
	pits[k].phi = 0.0;
	if (c < 0 || (dcode[c] & 15u) >= 8u) return;
	uvec2 vol = uvec2(pits[k].vpLo, pits[k].vpHi);
	uvec2 x = uvec2(xsLo[c], xsHi[c]);
	double v = fromFix(add64(x, vol)), vl = fromFix(vol);
	if (v > 0.0 && vl > 0.0) pits[k].phi = float(min(1.0, v / vl));
	uvec2 qs = sub64(add64(x, vol), toFix(double(hb[c]) - double(hl[c])));
	dr[c] = float((1.0 - P.relax) * double(dr[c]) + P.relax * (P.gdt * fromFix(qs) / double(cnt[c])));
	if (P.plainUp > 0.0 && (P.hasUp == 0 || double(up[c]) < P.plainUp)) dr[c] = 0.0; // the base-level plain
}
