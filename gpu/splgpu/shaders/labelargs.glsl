// Before the basin labels: the work groups of their dispatches (x, y,
// z, split as cells() splits them), none when the routing found no pit.
// Without pits nothing reads the labels (the lakes phase, the
// deposition's lake lookups, the water budget and the snapshot's lakes
// all start from a pit), so the step skips their rounds without a read.
// One invocation.
layout(std430, binding = 6) writeonly buffer Args { uint args[]; };

void main() {
	if (gl_GlobalInvocationID.x != 0u) return;
	uint groups = ctl[CTL_PITS] == 0u ? 0u : (uint(P.n) + 255u) / 256u;
	uint gx = min(groups, 32768u);
	args[0] = gx;
	args[1] = gx == 0u ? 0u : (groups + gx - 1u) / gx;
	args[2] = 1u;
}
