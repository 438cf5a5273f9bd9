// One round of pointer jumping over maps along the receivers: a cell
// holds the composition of the maps from itself up to the cell it points
// to, and takes in that cell's. Affine maps x -> α + β·x (the
// erosion): α' = α + β·α_p, β' = β·β_p.
// A cell pointing nowhere (-1) holds its final value.
layout(std430, binding = 5) readonly buffer P0b { int ps[]; };
layout(std430, binding = 6) writeonly buffer P1b { int pd[]; };
layout(std430, binding = 7) readonly buffer A0b { float xs[]; };
layout(std430, binding = 8) writeonly buffer A1b { float xd[]; };
layout(std430, binding = 9) readonly buffer B0b { float ys[]; };
layout(std430, binding = 10) writeonly buffer B1b { float yd[]; };

void main() {
	countBegin();
	int i = cellIndex();
	if (i < P.n) {
		int p = ps[i];
		float x = xs[i], y = ys[i];
		int q = -1;
		if (p >= 0) {
			x = x + y * xs[p];
			y = y * ys[p];
			q = ps[p];
		}
		xd[i] = x; yd[i] = y; pd[i] = q;
		if (q >= 0) groupCount = 1u;
	}
	countEnd(CTL_ACTIVE);
}
