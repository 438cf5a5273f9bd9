// Deposition: each lake's level, the highest spill on its way to the
// outlets (sim/grid's lakeLevels), one invocation walking the lakes from
// the outlets (Order: its pit and the pit of the lake it spills into, or
// -1).
layout(std430, binding = 12) buffer Pits { Pit pits[]; };
layout(std430, binding = 13) readonly buffer Order { ivec2 order[]; };

void main() {
	if (cellIndex() != 0) return;
	int m = int(ctl[CTL_PITS]);
	for (int j = 0; j < m; j++) {
		ivec2 o = order[j];
		if (o.x >= 0 && o.y >= 0) pits[o.x].lvl = max(pits[o.x].lvl, pits[o.y].lvl);
	}
}
