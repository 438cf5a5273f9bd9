// Deposition, a round's first half (over every cell, or over the list of
// the nodes dsjump took unsolved in the last round: see common.glsl): the nodes solved in the last round
// add what they pass, max(0, S), to their receiver's sum (64-bit atomics
// with a carry: exact in any order) and take one from its donors left,
// unless the receiver is linked (it reads the sum through its map) or
// solved; the last round's new links and new maps take effect (NEWLINK
// to LINKED, NEWFLIP turns CURP); and every unsolved node writes itself
// into its unlinked receiver's pointer of slot 0: a receiver with one
// donor left finds it there (one writer).
layout(std430, binding = 3) buffer Db { uint dcode[]; };
layout(std430, binding = 5) writeonly buffer Dn0 { int dn0[]; };
layout(std430, binding = 7) buffer S0l { uint s0Lo[]; };
layout(std430, binding = 8) buffer S0h { uint s0Hi[]; };
layout(std430, binding = 9) readonly buffer S1l { uint s1Lo[]; };
layout(std430, binding = 10) readonly buffer S1h { uint s1Hi[]; };

const uint BUSY = NEWRES | RES | NEWLINK | LINKED;

// The nodes left, in two lists of ctl[CTL_DSCAP] (dsjump writes them).
layout(std430, binding = 4) readonly buffer Lists { int list[]; };

void rake(int i) {
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

void main() {
	int k = cellIndex();
	uint mode = ctl[CTL_DSMODE];
	if ((mode & DS_APPEND) != 0u && k == 0) ctl[CTL_DSCOUNT + ((mode & DS_NEXT) != 0u ? 1 : 0)] = 0u;
	if ((mode & DS_LIST) == 0u) {
		if (k < P.n) rake(k);
		return;
	}
	uint cur = (mode & DS_CUR) != 0u ? 1u : 0u, cap = ctl[CTL_DSCAP], cnt = ctl[CTL_DSCOUNT + int(cur)];
	if (cnt <= cap) {
		if (uint(k) < cnt) rake(list[cur * cap + uint(k)]);
		return;
	}
	for (int i = k; i < P.n; i += int(cap)) rake(i);
}
