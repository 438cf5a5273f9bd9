// Deposition, the tree contraction's rounds in shared memory, between
// dsinit and the first dsrake: a work group takes a tile of TS×TS cells
// and solves, level by level in shared memory, every node whose donors
// all lie in the tile and are solved there: S = y + Σ max(0, S of the
// donors), the same 64-bit fixed-point sums (exact in any order) as the
// global rounds'. A solved node whose receiver is in the tile has been
// added to it here (RES); one whose receiver is outside the tile, or a
// root, is left to the first dsrake (NEWRES, its S in slot 0). An
// unsolved node keeps its sum so far (y and its solved donors') and the
// count of donors left. Most nodes of a D8 forest (the ridges' and the
// hillslopes', the small streams') end solved here, so the global rounds
// that follow, each over every cell, start from far fewer active nodes.
#ifndef TS
#define TS 16
#endif
const int TC = TS * TS; // cells a tile
const int PER = (TC + 255) / 256; // cells an invocation

layout(std430, binding = 3) buffer Db { uint dcode[]; };
layout(std430, binding = 7) buffer S0l { uint s0Lo[]; };
layout(std430, binding = 8) buffer S0h { uint s0Hi[]; };

shared uint sRem[TC];
shared uint sLo[TC];
shared uint sHi[TC];
shared int sRec[TC];  // the receiver's index in the tile, -1 outside or a root
shared uint sSt[TC];  // 0 unsolved, 1 solvable this level, 2 solved, 3 no cell
shared uint sProg;

void main() {
	uint t = gl_LocalInvocationIndex;
	int tilesX = (P.W + TS - 1) / TS, tilesY = (P.H + TS - 1) / TS;
	int g = int(groupIndex());
	if (g >= tilesX * tilesY) return; // the whole group
	int x0 = (g % tilesX) * TS, y0 = (g / tilesX) * TS;
	for (int k = 0; k < PER; k++) {
		int li = int(t) + 256 * k;
		if (li >= TC) break;
		int x = x0 + li % TS, y = y0 + li / TS;
		if (x >= P.W || y >= P.H) {
			sSt[li] = 3u;
			sRec[li] = -1;
			continue;
		}
		int i = y * P.W + x;
		uint w = dcode[i];
		uint c = w & 15u;
		sRem[li] = (w & CNTMASK) >> 16;
		sLo[li] = s0Lo[i];
		sHi[li] = s0Hi[i];
		int rl = -1;
		if (c < 8u) {
			int rx = x + DX[c] - x0, ry = y + DY[c] - y0;
			if (rx >= 0 && rx < TS && ry >= 0 && ry < TS) rl = ry * TS + rx;
		}
		sRec[li] = rl;
		sSt[li] = 0u;
	}
	barrier();
	for (;;) {
		if (t == 0u) sProg = 0u;
		barrier();
		for (int k = 0; k < PER; k++) {
			int li = int(t) + 256 * k;
			if (li < TC && sSt[li] == 0u && sRem[li] == 0u) {
				sSt[li] = 1u;
				sProg = 1u;
			}
		}
		barrier();
		if (sProg == 0u) break; // the same for every invocation
		for (int k = 0; k < PER; k++) {
			int li = int(t) + 256 * k;
			if (li >= TC || sSt[li] != 1u) continue;
			sSt[li] = 2u;
			int r = sRec[li];
			if (r < 0) continue;
			uint lo = sLo[li], hi = sHi[li];
			if (int(hi) >= 0 && (lo | hi) != 0u) {
				uint old = atomicAdd(sLo[r], lo);
				atomicAdd(sHi[r], hi + (old + lo < old ? 1u : 0u));
			}
			atomicAdd(sRem[r], 0xffffffffu);
		}
		barrier();
	}
	for (int k = 0; k < PER; k++) {
		int li = int(t) + 256 * k;
		if (li >= TC) break;
		uint st = sSt[li];
		if (st == 3u) continue;
		int i = (y0 + li / TS) * P.W + x0 + li % TS;
		uint w = dcode[i];
		uint rem = (w & CNTMASK) >> 16;
		if (st == 2u) {
			dcode[i] = (w & ~CNTMASK) | (sRec[li] >= 0 ? RES : NEWRES);
		} else if (sRem[li] != rem) {
			dcode[i] = (w & ~CNTMASK) | (sRem[li] << 16);
		} else {
			continue; // no donor solved here: the sum is y still
		}
		s0Lo[i] = sLo[li];
		s0Hi[i] = sHi[li];
	}
}
