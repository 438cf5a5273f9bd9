// Basin labels by pointer jumping, in place: Lab[i] = Lab[Lab[Lab[i]]],
// two hops a dispatch; counts the cells whose pointer still moves. Any
// interleaving of the in-place updates leaves every pointer on the path
// to the root, and the root is a fixed point.
layout(std430, binding = 4) buffer Lb { int lab[]; };

void main() {
	countBegin();
	int i = cellIndex();
	if (i < P.n) {
		int r = lab[lab[lab[i]]];
		lab[i] = r;
		if (lab[r] != r) groupCount = 1u;
	}
	countEnd(CTL_ACTIVE);
}
