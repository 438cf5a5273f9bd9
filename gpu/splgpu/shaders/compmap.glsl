// Each pit's component for the next Borůvka round (Comp, on the device
// for the whole lakes phase): the pit's index + 1 before the first round
// (ctl[9] = 1, every pit its own component), then the host's new number
// of its component (Map, the components' renumbering after a round's
// merges).
layout(std430, binding = 7) buffer Comp { int comp[]; };
layout(std430, binding = 10) readonly buffer Map { int cmap[]; };

void main() {
	int m = cellIndex();
	if (m >= int(ctl[CTL_PITS])) return;
	comp[m] = ctl[9] == 1u ? m + 1 : cmap[comp[m]];
}
