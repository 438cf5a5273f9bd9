// Deposition, a round's first half: the nodes solved in the last round
// add what they pass, max(0, S), to their receiver's sum (64-bit atomics
// with a carry: exact in any order) and take one from its donors left,
// unless the receiver is linked (it reads the sum through its map) or
// solved; the last round's new links and new maps take effect (NEWLINK
// to LINKED, NEWFLIP turns CURP); and every unsolved node writes itself
// into its unlinked receiver's pointer of slot 0: a receiver with one
// donor left finds it there (one writer).
#ifdef TAIL
// dstail: both halves of the rounds in one work group, every buffer of
// both (coherent: the group reads what it wrote in the half before).
layout(std430, binding = 3) coherent buffer Db { uint dcode[]; };
layout(std430, binding = 5) coherent buffer Dn0 { int dn0[]; };
layout(std430, binding = 6) coherent buffer Dn1 { int dn1[]; };
layout(std430, binding = 7) coherent buffer S0l { uint s0Lo[]; };
layout(std430, binding = 8) coherent buffer S0h { uint s0Hi[]; };
layout(std430, binding = 9) coherent buffer S1l { uint s1Lo[]; };
layout(std430, binding = 10) coherent buffer S1h { uint s1Hi[]; };
layout(std430, binding = 11) coherent buffer A0 { uvec2 a0[]; };
layout(std430, binding = 12) coherent buffer A1l { uint a1Lo[]; };
layout(std430, binding = 13) coherent buffer A1h { uint a1Hi[]; };
layout(std430, binding = 2) readonly buffer Lst { int lst[]; };
#else
layout(std430, binding = 3) buffer Db { uint dcode[]; };
layout(std430, binding = 5) writeonly buffer Dn0 { int dn0[]; };
layout(std430, binding = 7) buffer S0l { uint s0Lo[]; };
layout(std430, binding = 8) buffer S0h { uint s0Hi[]; };
layout(std430, binding = 9) readonly buffer S1l { uint s1Lo[]; };
layout(std430, binding = 10) readonly buffer S1h { uint s1Hi[]; };
#endif

const uint BUSY = NEWRES | RES | NEWLINK | LINKED;

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

// rake is node i's half of the round.
void rake(int i) {
	if (i >= P.n) return;
	uint w = dcode[i];
	if ((w & RES) != 0u) return;
	uint c = w & 15u;
	int r = c < 8u ? recOf(i, c) : -1;
	if ((w & NEWRES) != 0u) {
		atomicAdd(dcode[i], RES - NEWRES);
		if (r < 0 || (dcode[r] & BUSY) != 0u) return;
		uvec2 s = (w & RESP) != 0u ? uvec2(s1Lo[i], s1Hi[i]) : uvec2(s0Lo[i], s0Hi[i]);
		if (int(s.y) >= 0 && (s.x | s.y) != 0u) {
			uint old = atomicAdd(s0Lo[r], s.x);
			atomicAdd(s0Hi[r], s.y + (old + s.x < old ? 1u : 0u));
		}
		atomicAdd(dcode[r], 0u - CNT1);
		return;
	}
	if ((w & NEWLINK) != 0u) atomicAdd(dcode[i], LINKED - NEWLINK);
	if ((w & NEWFLIP) != 0u) atomicXor(dcode[i], CURP | NEWFLIP);
	if (r >= 0 && (dcode[r] & BUSY) == 0u) dn0[r] = i;
}

#ifndef TAIL
void main() { rake(node()); }
#endif
