// Deposition, a round's second half (PAR: the round's parity p; the
// maps of the last round are in parity 1 − p). An unsolved node with no
// donor left is solved: S = its sum. One with one donor left links to it
// with the map x ↦ max(a, x + b), a = b = its sum (S = sum + max(0, S of
// the donor)). A linked node whose target is solved is solved, S =
// max(a, S_t + b); one whose target is linked composes the target's map
// into its own and points where the target points (pointer jumping);
// else it keeps its map. Maps and pointers are written in parity p, a
// solved node's S in its own buffer of parity p (RESP): nothing is read
// in the parity a round writes. Counts the nodes left unsolved.
layout(std430, binding = 3) buffer Db { uint dcode[]; };
layout(std430, binding = 5) buffer Dn0 { int dn0[]; };
layout(std430, binding = 6) buffer Dn1 { int dn1[]; };
layout(std430, binding = 7) buffer S0l { uint s0Lo[]; };
layout(std430, binding = 8) buffer S0h { uint s0Hi[]; };
layout(std430, binding = 9) buffer S1l { uint s1Lo[]; };
layout(std430, binding = 10) buffer S1h { uint s1Hi[]; };
layout(std430, binding = 11) buffer A0 { uvec2 a0[]; };
layout(std430, binding = 12) buffer A1 { uvec2 a1[]; };

#if PAR == 0
#define DNW dn0
#define DNR dn1
#define AW a0
#define AR a1
uvec2 getB(int k) { return uvec2(s1Lo[k], s1Hi[k]); }
void setB(int k, uvec2 v) { s0Lo[k] = v.x; s0Hi[k] = v.y; }
const uint SOLVED = NEWRES;
#else
#define DNW dn1
#define DNR dn0
#define AW a1
#define AR a0
uvec2 getB(int k) { return uvec2(s0Lo[k], s0Hi[k]); }
void setB(int k, uvec2 v) { s1Lo[k] = v.x; s1Hi[k] = v.y; }
const uint SOLVED = NEWRES | RESP;
#endif

void main() {
	countBegin();
	int i = cellIndex();
	if (i < P.n) {
		uint w = dcode[i];
		if ((w & (RES | NEWRES)) == 0u) {
			bool solved = false;
			if ((w & LINKED) == 0u) {
				uint cnt = (w & CNTMASK) >> 16;
				uvec2 sum = uvec2(s0Lo[i], s0Hi[i]);
				if (cnt == 0u) {
					setB(i, sum);
					atomicOr(dcode[i], SOLVED);
					solved = true;
				} else if (cnt == 1u) {
					AW[i] = sum;
					setB(i, sum); // DNW[i] holds the donor (dsrake)
					atomicOr(dcode[i], NEWLINK);
				}
			} else {
				int t = DNR[i];
				uvec2 a = AR[i], b = getB(i);
				uint tw = dcode[t];
				if ((tw & RES) != 0u) {
					uvec2 st = (tw & RESP) != 0u ? uvec2(s1Lo[t], s1Hi[t]) : uvec2(s0Lo[t], s0Hi[t]);
					setB(i, max64(a, add64(st, b)));
					atomicOr(dcode[i], SOLVED);
					solved = true;
				} else if ((tw & LINKED) != 0u) {
					DNW[i] = DNR[t];
					AW[i] = max64(a, add64(AR[t], b));
					setB(i, add64(b, getB(t)));
				} else {
					DNW[i] = t;
					AW[i] = a;
					setB(i, b);
				}
			}
			if (!solved) atomicAdd(groupCount, 1u);
		}
	}
	countEnd(CTL_ACTIVE);
}
