// After the basin labels' last dispatch: the words the host reads to
// know whether the labels are done (ctl[CTL_ACTIVE]) and the pits
// (ctl[CTL_PITS]), then as many of the routing's pit roots (Pits, a
// grid-sized buffer) as Res holds behind them, so that one small read
// gives the lakes phase its roots too.
layout(std430, binding = 5) readonly buffer Pits { int pits[]; };
layout(std430, binding = 11) writeonly buffer Res { int res[]; };

void main() {
	int m = cellIndex();
	if (m == 0) {
		res[0] = int(ctl[CTL_ACTIVE]);
		res[1] = int(ctl[CTL_PITS]);
	}
	if (m < int(ctl[CTL_PITS]) && m + 2 < res.length()) res[m + 2] = pits[m];
}
