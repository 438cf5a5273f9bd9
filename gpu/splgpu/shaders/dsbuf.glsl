// Deposition, the tree contraction's rounds (dsrake, dsjump, dstail):
// their buffers and where a node's second slot lies. A node's map
// x ↦ max(a, x + b) and pointer are in slot 0, by cell: the pointer in
// Dn0, b (the sum) in S0, a in A0 (64-bit values as low and high words
// in two buffers). A round's dsjump writes what a node computes (its new
// map and pointer, or its S once solved) into slot 1, by the node's
// place, and the next dsrake copies it into slot 0 (NEWFLIP, RESP), so
// that nothing is read in the slot a round writes and slot 1 holds
// nothing between a dsrake and the next dsjump. Slot 1 (S1: a and b,
// and the pointer in Lp) has a place a cell on small grids (the place
// is the cell; a, b in S1w and S1h) and room() places on lean ones (deposit.go's lean
// layout, room() < n): there a node's place is its place in the list of
// the nodes left (dslist) while there is one, else a hash (place),
// claimed for the round by an atomic in Lp (a node whose place
// another holds waits a round). Lp holds, on a lean layout, the lists
// (the first 2·room() words), the claims (the next room()) and slot 1's
// pointers (the last room()); on a small grid slot 1's pointers by cell.
#ifdef TAIL
#define DSQ coherent
#else
#define DSQ
#endif
layout(std430, binding = 3) DSQ buffer Db { uint dcode[]; };
layout(std430, binding = 5) DSQ buffer Dn0 { int dn0[]; };
layout(std430, binding = 6) DSQ buffer Lp { int lp[]; };
layout(std430, binding = 7) DSQ buffer S0l { uint s0Lo[]; };
layout(std430, binding = 8) DSQ buffer S0h { uint s0Hi[]; };
layout(std430, binding = 9) DSQ buffer A0l { uint a0Lo[]; };
layout(std430, binding = 10) DSQ buffer A0h { uint a0Hi[]; };
#ifdef LEAN
// Slot 1 by place: a (low, high), b (low, high) in the erosion's second
// cap buffer.
layout(std430, binding = 11) DSQ buffer S1 { uvec4 s1[]; };
uvec4 getS1(int p) { return s1[p]; }
void setS1(int p, uvec4 v) { s1[p] = v; }
int s1Len() { return s1.length(); }
#else
// Slot 1 by cell: a (low, high) and b's low word in three words a cell
// of a buffer of its own (12 bytes a cell), b's high word in the
// erosion's second cap buffer.
layout(std430, binding = 11) DSQ buffer S1w { uint s1w[]; };
layout(std430, binding = 12) DSQ buffer S1h { uint s1h[]; };
uvec4 getS1(int p) { return uvec4(s1w[3 * p], s1w[3 * p + 1], s1w[3 * p + 2], s1h[p]); }
void setS1(int p, uvec4 v) {
	s1w[3 * p] = v.x; s1w[3 * p + 1] = v.y; s1w[3 * p + 2] = v.z;
	s1h[p] = v.w;
}
int s1Len() { return min(s1w.length() / 3, s1h.length()); }
#endif

// CHECK (splgpu.depDefs, the tests'): an index out of its buffer or a
// node out of the grid recorded in Chk (the codes or'ed, their count,
// the last index).
#ifdef CHECK
layout(std430, binding = 15) buffer Chk { uint chk[]; };
void ck(int idx, int len, uint code) {
	if (idx < 0 || idx >= len) {
		atomicOr(chk[0], code);
		atomicAdd(chk[1], 1u);
		atomicExchange(chk[2], uint(idx));
	}
}
#define CK(i, len, code) ck(i, len, code)
#else
#define CK(i, len, code)
#endif

const uint BUSY = NEWRES | RES | NEWLINK | LINKED;
const int FREE = -1;

// room is slot 1's places: P.n/4 on the lean layout (the kernels'
// LEAN variants), P.n on small grids. Not from the buffers' length():
// with the layout taken from s1.length() (session 17's first try) the
// rounds went wrong on an H200 while right on llvmpipe, likely because
// the kernels disagreed on it (dslist took min with lp.length()/4).
#ifdef LEAN
int room() { return P.n / 4; }
bool lean() { return true; }
#else
int room() { return P.n; }
bool lean() { return false; }
#endif
bool listed() { return ctl[CTL_LISTOFF] != NOLIST; }
// claims: places are claimed (a lean layout without a list).
bool claims() { return !listed() && lean(); }
int dn1At(int p) { return lean() ? 3 * room() + p : p; }
int ownAt(int p) { return 2 * room() + p; }

// place is node i's place in slot 1, j its place in the list. Without a
// list on a lean layout, a hash of the node and its pointer (which the
// next dsrake reads before it copies the new one): a node that moved
// its pointer takes another place in the next round, so that no node
// keeps a place from the others round after round (with the cell alone,
// the first of the cells sharing a place took it every round, and a
// chain of 2867 nodes did not end in 1024 rounds).
int place(int i, int j) {
	if (listed()) return j;
	if (!lean()) return i;
	uint x = uint(i) * 0x9E3779B9u ^ uint(dn0[i]);
	x ^= x >> 16; x *= 0x7FEB352Du; x ^= x >> 15; x *= 0x846CA68Bu; x ^= x >> 16;
	return int(x % uint(room()));
}

#ifdef TAIL
#elif defined(LIST)
// The rounds over the list of the nodes left (dslist): the invocation's
// node, P.n past the list's end; every cell while there is no list.
int node(int j) {
	uint off = ctl[CTL_LISTOFF];
	if (off == NOLIST) return j;
	if (j < int(ctl[CTL_LIST])) CK(int(off) + j, lp.length(), 1u);
	int v = j < int(ctl[CTL_LIST]) ? lp[off + uint(j)] : P.n;
	CK(v, P.n + 1, 2u);
	return v;
}
#else
int node(int j) { return j; }
#endif
