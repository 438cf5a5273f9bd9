// Deposition, a round's second half. Each node's map x ↦ max(a, x + b)
// and pointer are in its slot 0; what the round computes goes to its
// slot 1 (dsbuf.glsl), which the next dsrake copies back, so that
// nothing is read in the slot a round writes. An unsolved node with no
// donor left is solved: S = its sum (slot 0's b). One with one donor
// left links to it with the map of slot 0, a = b = its sum (S = sum +
// max(0, S of the donor)), its pointer the donor (dsrake wrote it). A
// linked node whose target is solved is solved (RESP: the next dsrake
// computes S = max(a, S_t + b) from slot 0); one whose target is linked composes the
// target's map into its own, written to its slot 1 with the target's
// pointer (pointer jumping, NEWFLIP); one whose target is neither, or
// whose place another node holds this round, waits, writing nothing.
// Flags the work groups with nodes left unsolved. Only a node's own
// invocation writes its code word here (plain stores: the bits it sets
// are read by the next dsrake, not by this round).

// claim takes place p for node i this round where places are claimed.
bool claim(int i, int p) {
	if (!claims()) return true;
	int o = atomicCompSwap(lp[ownAt(p)], FREE, i);
	return o == FREE || o == i;
}

// jump is node i's second half of the round, j its place in the list
// (its cell without one); it tells whether the node is left unsolved.
bool jump(int i, int j) {
	if (i >= P.n) return false;
	uint w = dcode[i];
	if ((w & (RES | NEWRES)) != 0u) return false;
	if ((w & LINKED) == 0u) {
		uint cnt = (w & CNTMASK) >> 16;
		if (cnt == 0u) {
			dcode[i] = w | NEWRES; // S is the sum, in slot 0
			return false;
		}
		if (cnt == 1u) {
			a0Lo[i] = s0Lo[i]; a0Hi[i] = s0Hi[i];
			dcode[i] = w | NEWLINK;
		}
		return true;
	}
	int t = dn0[i];
	CK(t, P.n, 256u);
	uint tw = dcode[t];
	if ((tw & (RES | LINKED)) == 0u) return true;
	if ((tw & RES) != 0u) {
		dcode[i] = w | NEWRES | RESP; // S = max(a, S_t + b): dsrake
		return false;
	}
	int p = place(i, j);
	CK(p, min(room(), s1Len()), 512u);
	CK(dn1At(p), lp.length(), 1024u);
	if (claims()) CK(ownAt(p), lp.length(), 2048u);
	if (!claim(i, p)) return true;
	CK(dn0[t], P.n, 4096u);
	uvec2 a = uvec2(a0Lo[i], a0Hi[i]), b = uvec2(s0Lo[i], s0Hi[i]);
	setS1(p, uvec4(max64(a, add64(uvec2(a0Lo[t], a0Hi[t]), b)), add64(b, uvec2(s0Lo[t], s0Hi[t]))));
	lp[dn1At(p)] = dn0[t];
	dcode[i] = w | NEWFLIP;
	return true;
}

#ifndef TAIL
void main() {
	countBegin();
	int j = cellIndex();
	if (jump(node(j), j)) groupCount = 1u;
	countEnd(CTL_ACTIVE);
}
#endif
