// Deposition, the list of the nodes left for the contraction's later
// rounds (deposit.go, DepList): every node not solved before (no RES)
// listed in the first 2·room() words of Lp (dsbuf.glsl), whose nodes the
// list rounds (dsrake and dsjump with LIST) visit instead of every cell.
// A solved node never changes again, so the rounds over a list do what
// the rounds over the grid would, bit for bit. From every cell while
// there is no list (ctl[14] = NOLIST), else from the current list
// (ctl[13] nodes from ctl[14]); written at the start when the current
// list leaves room before it, else after it, and only what fits
// (dslistargs takes the new list only if all of it did and it fits
// slot 1's room() places). The new list's length in ctl[15]; a list's
// order is any (it moves nothing but where the work lies). Runs after a
// dsrake, when slot 1 holds nothing.
layout(std430, binding = 3) readonly buffer Db { uint dcode[]; };
layout(std430, binding = 6) buffer Lp { int lp[]; };

shared uint gBase, gN;

void main() {
	if (gl_LocalInvocationIndex == 0u) gN = 0u;
	barrier();
	int j = cellIndex();
	uint len = ctl[CTL_LIST], off = ctl[CTL_LISTOFF];
	bool inList;
	int i;
	uint base;
	if (off == NOLIST) {
		inList = j < P.n;
		i = j;
		base = 0u;
	} else {
		inList = j < int(len);
		i = inList ? lp[off + uint(j)] : 0;
		base = len <= off ? 0u : off + len;
	}
	bool keep = inList && (dcode[i] & RES) == 0u;
	uint k = 0u;
	if (keep) k = atomicAdd(gN, 1u);
	barrier();
	if (gl_LocalInvocationIndex == 0u && gN != 0u) gBase = atomicAdd(ctl[CTL_LISTNEXT], gN);
	barrier();
	uint at = base + gBase + k;
	uint cap = 2u * uint(P.n / 4); // lists are on the lean layout only
	if (keep && at < cap) lp[at] = i;
}
