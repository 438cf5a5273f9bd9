// Deposition, a round's first half: the nodes solved in the last round
// add what they pass, max(0, S), to their receiver's sum (64-bit atomics
// with a carry: exact in any order) and take one from its donors left,
// unless the receiver is linked (it reads the sum through its map) or
// solved (a node the last dsjump found linked to a solved one, RESP,
// first takes its S from its map); the last round's new links take
// effect (NEWLINK to LINKED), and the new map the last dsjump wrote in
// a node's slot 1 (NEWFLIP) is copied into its slot 0 (dsbuf.glsl), its
// place released; and every unsolved node writes itself into its
// unlinked receiver's pointer of slot 0: a receiver with one donor left
// finds it there (one writer).

// rake is node i's half of the round, j its place in the list (its cell
// without one).
void rake(int i, int j) {
	if (i >= P.n) return;
	uint w = dcode[i];
	if ((w & RES) != 0u) return;
	uint c = w & 15u;
	int r = c < 8u ? recOf(i, c) : -1;
	if (c < 8u) CK(r, P.n, 128u);
	if ((w & NEWRES) != 0u) {
		uvec2 s;
		if ((w & RESP) != 0u) {
			// Linked to a solved node: S = max(a, S_t + b), from slot
			// 0 (the target's S is final, and nobody reads this node's
			// slot 0 in this half).
			int t = dn0[i];
			CK(t, P.n, 4u);
			s = max64(uvec2(a0Lo[i], a0Hi[i]), add64(uvec2(s0Lo[t], s0Hi[t]), uvec2(s0Lo[i], s0Hi[i])));
			s0Lo[i] = s.x; s0Hi[i] = s.y;
			atomicAdd(dcode[i], RES - NEWRES - RESP);
		} else {
			s = uvec2(s0Lo[i], s0Hi[i]);
			atomicAdd(dcode[i], RES - NEWRES);
		}
		if (r < 0 || (dcode[r] & BUSY) != 0u) return;
		if (int(s.y) >= 0 && (s.x | s.y) != 0u) {
			uint old = atomicAdd(s0Lo[r], s.x);
			atomicAdd(s0Hi[r], s.y + (old + s.x < old ? 1u : 0u));
		}
		atomicAdd(dcode[r], 0u - CNT1);
		return;
	}
	if ((w & NEWLINK) != 0u) atomicAdd(dcode[i], LINKED - NEWLINK);
	if ((w & NEWFLIP) != 0u) {
		int p = place(i, j); // before dn0[i] changes
		CK(p, min(room(), s1Len()), 8u);
		CK(dn1At(p), lp.length(), 16u);
		if (claims()) CK(ownAt(p), lp.length(), 32u);
		CK(lp[dn1At(p)], P.n, 64u);
		uvec4 v = getS1(p);
		a0Lo[i] = v.x; a0Hi[i] = v.y; s0Lo[i] = v.z; s0Hi[i] = v.w;
		dn0[i] = lp[dn1At(p)];
		if (claims()) lp[ownAt(p)] = FREE;
		atomicAdd(dcode[i], 0u - NEWFLIP);
	}
	if (r >= 0 && (dcode[r] & BUSY) == 0u) dn0[r] = i;
}

#ifndef TAIL
void main() {
	int j = cellIndex();
	rake(node(j), j);
}
#endif
