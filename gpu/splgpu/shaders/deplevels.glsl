// Deposition: each lake's level, the highest spill on its way to the
// outlets (sim/grid's lakeLevels), by pointer jumping over the lakes'
// tree: each pit holds the highest spill from itself up to the pit it
// points to (at first its own and the lake it spills into, -1 at the
// outlets) and takes in that pit's; ⌈log₂ m⌉ rounds reach the outlets.
// Two slots, a round reading one and writing the other: the levels in
// lvl and phi (free until depphi), the pointers in Order's two halves.
// SLOT is the slot read. Max is exact, so the levels are those of a walk
// from the outlets.
layout(std430, binding = 12) buffer Pits { Pit pits[]; };
layout(std430, binding = 13) buffer Order { int down[]; };

void main() {
	int k = cellIndex();
	int m = int(ctl[CTL_PITS]);
	if (k >= m) return;
	int src = SLOT * m, dst = (1 - SLOT) * m;
	int d = down[src + k];
	float l = SLOT == 0 ? pits[k].lvl : pits[k].phi;
	if (d >= 0) {
		l = max(l, SLOT == 0 ? pits[d].lvl : pits[d].phi);
		d = down[src + d];
	}
	down[dst + k] = d;
	if (SLOT == 0) pits[k].phi = l; else pits[k].lvl = l;
}
