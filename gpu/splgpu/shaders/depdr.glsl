// Deposition: the next step's source term per cell (Dr, m/yr), moved by
// grid.DepositRelax of the way to G·Qs/A, Qs the sediment that reached
// the cell from its donors, its sum less its own yield (m over a cell:
// Qs/A = Qs/count). Exits are depphi's. The base-level plain (cells
// uplifting slower than P.plainUp > 0) keeps no rate, as in sim/grid.
layout(std430, binding = 2) readonly buffer Hb { float hb[]; };
layout(std430, binding = 3) readonly buffer Db { uint dcode[]; };
layout(std430, binding = 7) readonly buffer X0b { uint xsLo[]; };
layout(std430, binding = 8) readonly buffer X1b { uint xsHi[]; };
layout(std430, binding = 9) buffer Rb { float dr[]; };
layout(std430, binding = 11) readonly buffer Hl { float hl[]; };
layout(std430, binding = 13) readonly buffer Cb { uint cnt[]; };
layout(std430, binding = 6) readonly buffer Ub { float up[]; };

void main() {
	int i = cellIndex();
	if (i >= P.n) return;
	uint w = dcode[i];
	if ((w & EXIT) != 0u && (w & 15u) < 8u) return;
	if (P.plainUp > 0.0 && (P.hasUp == 0 || double(up[i]) < P.plainUp)) {
		dr[i] = 0.0;
		return;
	}
	uvec2 qs = sub64(uvec2(xsLo[i], xsHi[i]), toFix(double(hb[i]) - double(hl[i])));
	dr[i] = float((1.0 - P.relax) * double(dr[i]) + P.relax * (P.gdt * fromFix(qs) / double(max(cnt[i], 1u))));
}
