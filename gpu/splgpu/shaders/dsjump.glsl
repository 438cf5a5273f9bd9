// Deposition, a round's second half. Each node has two slots of its map
// x ↦ max(a, x + b) and pointer (dn, a, b): CURP says which holds them;
// a round writes only the other one and the next dsrake turns CURP, so
// that nothing is read in the slot a round writes. An unsolved node with
// no donor left is solved: S = its sum (slot 0's b). One with one donor
// left links to it with the map of slot 0, a = b = its sum (S = sum +
// max(0, S of the donor)), its pointer the donor (dsrake wrote it). A
// linked node whose target is solved is solved, S = max(a, S_t + b),
// written to its other slot (RESP); one whose target is linked composes
// the target's map into its own and points where the target points
// (pointer jumping); one whose target is neither waits, writing nothing.
// Flags the work groups with nodes left unsolved. Only a node's own
// invocation writes its code word here (plain stores: the bits it sets
// are read by the next dsrake, not by this round).
#ifndef TAIL
layout(std430, binding = 3) buffer Db { uint dcode[]; };
layout(std430, binding = 5) buffer Dn0 { int dn0[]; };
layout(std430, binding = 6) buffer Dn1 { int dn1[]; };
layout(std430, binding = 7) buffer S0l { uint s0Lo[]; };
layout(std430, binding = 8) buffer S0h { uint s0Hi[]; };
layout(std430, binding = 9) buffer S1l { uint s1Lo[]; };
layout(std430, binding = 10) buffer S1h { uint s1Hi[]; };
layout(std430, binding = 11) buffer A0 { uvec2 a0[]; };
// Slot 1's a in two words: low (the eroded heights' buffer, free since
// depvol) and high.
layout(std430, binding = 12) buffer A1l { uint a1Lo[]; };
layout(std430, binding = 13) buffer A1h { uint a1Hi[]; };
#endif

int getDn(int k, bool one) { return one ? dn1[k] : dn0[k]; }
uvec2 getA(int k, bool one) { return one ? uvec2(a1Lo[k], a1Hi[k]) : a0[k]; }
uvec2 getB(int k, bool one) { return one ? uvec2(s1Lo[k], s1Hi[k]) : uvec2(s0Lo[k], s0Hi[k]); }

// put writes node k's slot: slot 1 when one.
void put(int k, bool one, int dn, uvec2 a, uvec2 b) {
	if (one) {
		dn1[k] = dn; a1Lo[k] = a.x; a1Hi[k] = a.y; s1Lo[k] = b.x; s1Hi[k] = b.y;
	} else {
		dn0[k] = dn; a0[k] = a; s0Lo[k] = b.x; s0Hi[k] = b.y;
	}
}

#ifdef TAIL
#elif defined(LIST)
// The rounds over the list of the nodes left (dslist): the invocation's
// node, P.n past the list's end; every cell while there is no list.
layout(std430, binding = 2) readonly buffer Lst { int lst[]; };
int node() {
	int j = cellIndex();
	uint off = ctl[CTL_LISTOFF];
	if (off == NOLIST) return j;
	return j < int(ctl[CTL_LIST]) ? lst[off + uint(j)] : P.n;
}
#else
int node() { return cellIndex(); }
#endif

// jump is node i's second half of the round; it tells whether the node
// is left unsolved.
bool jump(int i) {
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
			a0[i] = uvec2(s0Lo[i], s0Hi[i]);
			dcode[i] = w | NEWLINK;
		}
		return true;
	}
	bool cur = (w & CURP) != 0u;
	int t = getDn(i, cur);
	uint tw = dcode[t];
	if ((tw & (RES | LINKED)) == 0u) return true;
	uvec2 a = getA(i, cur), b = getB(i, cur);
	bool tc = (tw & RES) != 0u ? (tw & RESP) != 0u : (tw & CURP) != 0u;
	if ((tw & RES) != 0u) {
		uvec2 s = max64(a, add64(getB(t, tc), b));
		if (cur) { s0Lo[i] = s.x; s0Hi[i] = s.y; } else { s1Lo[i] = s.x; s1Hi[i] = s.y; }
		dcode[i] = w | (cur ? NEWRES : NEWRES | RESP);
		return false;
	}
	put(i, !cur, getDn(t, tc), max64(a, add64(getA(t, tc), b)), add64(b, getB(t, tc)));
	dcode[i] = w | NEWFLIP;
	return true;
}

#ifndef TAIL
void main() {
	countBegin();
	if (jump(node())) groupCount = 1u;
	countEnd(CTL_ACTIVE);
}
#endif
