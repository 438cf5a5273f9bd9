// Shared by every kernel of the stream-power engine (package splgpu).
// Fields are row-major, index y*W + x, row 0 north. A cell's receiver is
// a direction code: 0-7 the neighbours E, SE, S, SW, W, NW, N, NE (as in
// sim/flow), 8 the cell itself (a root).

// LOCAL: the work group's invocations, 256 but in dstail.
#ifndef LOCAL
#define LOCAL 256
#endif
layout(local_size_x = LOCAL) in;

// Per-run constants, written by the host (splgpu.params), std430.
layout(std430, binding = 0) readonly buffer Par {
	int W, H, n, edgeN, edgeS, edgeE, edgeW, hasUp;
	int hasKF, talusOn, randOn, creepOn; // randOn: random hillslope routing
	uint seedLo, seedHi;                 // the routing hash's seed·φ64 + its constant (flow's unit)
	int depOn, channelHold;              // depOn: deposition (G > 0); flow.ChannelHold
	float cell, diag, natD, tanT;
	float m, n1, isc2, cap2;    // m; n1 the slope exponent n; creep's 1/S_c² and (S/S_c)²'s cap
	float keep, keepChannel;    // the routing's hysteresis factors: 1 + flow.Hysteresis, 1/(1 − flow.ChannelKeep)
	double kdt, dtd, cellArea, channel; // channel: the routing's channel area, m²
	double invCell, creepR, gdt, relax; // 1/cell; creep's κ·Δt/cell²; G/Δt; grid.DepositRelax
	double plainUp;                     // engine.Params.PlainUplift, m/yr (0: off)
} P;

// Control words and sums: ctl[0] the work groups with active pointers
// in the last round,
// ctl[1] pits listed, ctl[2] clamped, ctl[3] receivers changed, ctl[4]
// max |Δh| (float bits), ctl[5] max |Δh| over two steps; acc the reduced
// sums (Σ he, Σ h, Σ |Δh|, Σ h after the hillslope term). A buffer of
// its own, small: the host writes words of it between dispatches, and
// a driver may copy a whole buffer the device still uses to take a write.
layout(std430, binding = 1) buffer Ctl {
	uint ctl[16];
	double acc[8];
	double corr; // the rebalanced splitting's volume added by the sweeps (reducebal)
};

// The work groups' partial sums, eight a group (acc's).
layout(std430, binding = 14) buffer Part { double part[]; };

const int CTL_ACTIVE = 0, CTL_PITS = 1, CTL_CLAMPED = 2, CTL_CHANGED = 3, CTL_MAXDH = 4, CTL_MAXDH2 = 5;
// ctl[10]: 1 when Cnt holds the last step's drainage counts (the random
// routing's channels), 0 before the first routing.
const int CTL_ROUTED = 10;
// ctl[11]: the creep's factor update ω (float bits), ctl[12]: 1 to start
// its means afresh.
// ctl[13]: the length of the deposition's list of the nodes left
// (dslist), ctl[14] its start in the list's buffer, ctl[15] the next
// list's length.
// NOLIST in ctl[14]: no list, every cell.
const int CTL_LIST = 13, CTL_LISTOFF = 14, CTL_LISTNEXT = 15;
const uint NOLIST = 0xFFFFFFFFu;

// Deposition (P.depOn): volumes of sediment in fixed point, 2^-20 m over
// a cell, as 64-bit two's complement integers in two 32-bit words (low,
// high): sums exact in any order. A code word's bit 21 marks a lake's
// exit (its pass cell); the tree contraction of the sums (ds*.glsl)
// keeps its state in bits the finish clears: the donors not yet added
// (bits 16-19), a node solved in the last round (NEWRES) or before
// (RES) and which of its two slots holds its sum (RESP), a node linked
// to its one unsolved donor in the last round (NEWLINK) or before
// (LINKED), the slot holding its map (CURP) and a new map written to the
// other slot in the last round (NEWFLIP).
const double FIX = 1048576.0;
const float BIG = 1e30;
const uint EXIT = 1u << 21;
const uint NEWRES = 1u << 20, RES = 1u << 22, NEWLINK = 1u << 23, LINKED = 1u << 31, RESP = 1u << 5;
const uint CURP = 1u << 6, NEWFLIP = 1u << 7;
const uint CNT1 = 1u << 16, CNTMASK = 15u << 16;
const uint DSBITS = NEWRES | RES | NEWLINK | LINKED | RESP | CURP | NEWFLIP | CNTMASK;

// Per pit (in the order of the sorted roots): its root cell, its pass
// cell, its lake's level and the share of the lake the sediment filled,
// and its lake's volume below the level (fixed point) as used by the
// last sums (vp) and as being summed (vn).
struct Pit {
	int root, pass;
	float lvl, phi;
	uint vpLo, vpHi, vnLo, vnHi;
};

uvec2 toFix(double v) {
	double q = floor(v * FIX + 0.5);
	double hi = floor(q / 4294967296.0);
	return uvec2(uint(q - hi * 4294967296.0), uint(int(hi)));
}

double fromFix(uvec2 v) { return (double(int(v.y)) * 4294967296.0 + double(v.x)) / FIX; }

uvec2 add64(uvec2 a, uvec2 b) {
	uint c;
	uint lo = uaddCarry(a.x, b.x, c);
	return uvec2(lo, a.y + b.y + c);
}

uvec2 sub64(uvec2 a, uvec2 b) { return add64(a, add64(uvec2(~b.x, ~b.y), uvec2(1u, 0u))); }

// max64 is the larger of two signed 64-bit values.
uvec2 max64(uvec2 a, uvec2 b) {
	bool lt = int(a.y) < int(b.y) || (a.y == b.y && a.x < b.x);
	return lt ? b : a;
}

// Cell kinds, as sim/flow's.
const int INTERIOR = 0, FIXED = 1, NATURAL = 2;
const float INV_SQRT2 = 0.70710677;

// cellIndex is the invocation's cell over a 2D grid of 1D work groups;
// for the tests (splgpu.depDefs), in reverse (REVERSE) or with the
// groups turned half round and each group's invocations shuffled
// (SCRAMBLE): the cells visited in other orders, as a card's work groups
// may run.
int cellIndex() {
#ifdef REVERSE
	uint tot = gl_NumWorkGroups.x * gl_NumWorkGroups.y * 256u;
	return int(tot - 1u - ((gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * 256u + gl_LocalInvocationID.x));
#elif defined(SCRAMBLE)
	uint tot = gl_NumWorkGroups.x * gl_NumWorkGroups.y * 256u;
	uint l = (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * 256u + gl_LocalInvocationID.x;
	uint g = l / 256u, k = l % 256u;
	uint ng = tot / 256u;
	g = (ng - 1u - g + ng / 2u) % ng;
	k = (k * 167u + 91u) % 256u;
	return int(g * 256u + k);
#else
	return int((gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * 256u + gl_LocalInvocationID.x);
#endif
}

// groupIndex is the invocation's work group, linear.
uint groupIndex() { return gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x; }

const int DX[8] = int[8](1, 1, 0, -1, -1, -1, 0, 1);
const int DY[8] = int[8](0, 1, 1, 1, 0, -1, -1, -1);

int edgeKind(int b) { return b == 0 ? FIXED : (b == 2 ? NATURAL : INTERIOR); }
int rank(int k) { return k == FIXED ? 2 : (k == NATURAL ? 1 : 0); }
int pick(int a, int b) { return rank(a) >= rank(b) ? a : b; }

// kindOf is the kind of cell (x, y): its edge's, a corner taking the
// first of outlet, natural, closed on its two edges.
int kindOf(int x, int y) {
	int k = INTERIOR;
	if (y == 0) k = pick(k, edgeKind(P.edgeN));
	if (y == P.H - 1) k = pick(k, edgeKind(P.edgeS));
	if (x == P.W - 1) k = pick(k, edgeKind(P.edgeE));
	if (x == 0) k = pick(k, edgeKind(P.edgeW));
	return k;
}

// recOf is the receiver of cell i with direction code c.
int recOf(int i, uint c) {
	if (c >= 8u) return i;
	return i + DX[c] + DY[c] * P.W;
}

// distOf is the distance from cell i to its receiver, metres: a root on a
// Natural edge drains to the virtual node at natD, other roots are fixed.
float distOf(uint c, int kind) {
	if (c >= 8u) return kind == NATURAL ? P.natD : 0.0;
	return (c & 1u) == 1u ? P.diag : P.cell;
}

// Whether any invocation of a work group is still at work: each one that
// is stores 1 in groupCount (a plain store, all the same word: an atomic
// add by every such invocation serialized them), and countEnd adds the
// group's 1 to ctl[slot] once. The host tests ctl[slot] for 0 (the
// groups at work, not the cells).
shared uint groupCount;

void countBegin() {
	if (gl_LocalInvocationIndex == 0u) groupCount = 0u;
	barrier();
}

void countEnd(int slot) {
	barrier();
	if (gl_LocalInvocationIndex == 0u && groupCount != 0u) atomicAdd(ctl[slot], groupCount);
}

// ordKey maps a float to an unsigned key of the same order.
uint ordKey(float v) {
	uint b = floatBitsToUint(v);
	return (b & 0x80000000u) != 0u ? ~b : (b | 0x80000000u);
}
