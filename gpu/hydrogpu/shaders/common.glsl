// Shared by every kernel of the virtual-pipe model (package hydrogpu).
// The fields are float32 rasters, row-major, index y*W + x, row 0 north;
// the formulas are those of sim/hydro (see its package doc), in its
// plain per-cell forms.

layout(local_size_x = 16, local_size_y = 16) in;

// Each invocation does ROWS cells, one in each of ROWS 16×16 blocks
// stacked along y, so that a group covers 16×(16·ROWS) cells and the
// group's reductions are spread over more cells.
const int ROWS = 4;

// SPLIT (defined 1 by the host for a grid split into bands) makes each
// dispatch cover one band of rows, whose fields are buffers of their own
// holding the band's rows and HALO rows of the bands beside it above and
// below (wrapping where the map wraps); see hydrogpu's package doc.
#ifndef SPLIT
#define SPLIT 0
#endif
const int HALO = 2;

// Per-step constants, written by the host (hydrogpu.params), std430.
layout(std430, binding = 0) readonly buffer Params {
	double area;   // cell², m²
	double dtd;    // Δt, s
	int W, H;
	int boundary;  // 0 walls, 1 open, 2 wrap
	int thermal;   // Kt > 0
	int groupsX;   // work groups along x
	int groups;    // work groups of a field pass
	float dt, kf, vol, invArea, invCell, halfInvCell;
	float kc, cmax, invLMax, dtks, dtkd, dtkhks, rmin, evapKeep;
	float dtCell, dtKt2, tanO, tanD;
	int band0;     // SPLIT: the band's first row
	int bandRows;  // SPLIT: the band's rows
	int groupY0;   // SPLIT: the band's first row of work groups
	int pad_;
	// With a geology (the rock kernel, and the alluvium in move): the
	// tops of the undeformed stack's layers (NumLayers of them, m), and
	// the hardness of each layer, alluvium's at index alluvLayer.
	int geology;
	int nTops;
	int alluvLayer;
	int pad2_;
	double tops[256];
	float rockHard[256];
} P;

// groupY returns the row of the invocation's work group in the grid.
int groupY() {
#if SPLIT
	return int(gl_WorkGroupID.y) + P.groupY0;
#else
	return int(gl_WorkGroupID.y);
#endif
}

// cellY returns the row of the invocation's k-th cell.
int cellY(int k) { return groupY() * 16 * ROWS + k * 16 + int(gl_LocalInvocationID.y); }

// row returns the index of row yy's first cell in the fields' buffers:
// yy·W, or with SPLIT its place in the band's buffers, whose rows run
// from band0 - HALO to band0 + bandRows + HALO - 1 (a row across the
// wrapped edge is taken on the band's side; the clamp only keeps an
// impossible row inside the buffers: the kernels read at most HALO rows
// from their own, the semi-Lagrangian trace being at most a cell long).
int row(int yy) {
#if SPLIT
	int d = yy - P.band0;
	if (d >= P.bandRows + HALO) d -= P.H;
	else if (d < -HALO) d += P.H;
	return (clamp(d, -HALO, P.bandRows + HALO - 1) + HALO) * P.W;
#else
	return yy * P.W;
#endif
}

// Running sums: the water account and the step's extremes, then per work
// group partial sums (8 doubles each). Sums are formed in a fixed order
// (a tree within each group, then the groups in order), never by float
// atomics, so the budget is the same run to run; the extremes and the
// count are unsigned integer atomics (max and + commute exactly).
layout(std430, binding = 15) buffer Red {
	double acc[8];  // outflow, evaporated, dissolved, stored, sediment out, fix, s1, snew (m³; fix a factor)
	uint stats[8];  // this step: max depth, max speed, max |Δb| (float bits), scaled; then the last step's
	double part[];
} R;

const int WALLS = 0, OPEN = 1, WRAP = 2;

bool open() { return P.boundary == OPEN; }
bool wrap() { return P.boundary == WRAP; }

// Neighbour columns and rows, -1 outside the map.
int xl(int x) { return x > 0 ? x - 1 : (wrap() ? P.W - 1 : -1); }
int xr(int x) { return x < P.W - 1 ? x + 1 : (wrap() ? 0 : -1); }
int yt(int y) { return y > 0 ? y - 1 : (wrap() ? P.H - 1 : -1); }
int yb(int y) { return y < P.H - 1 ? y + 1 : (wrap() ? 0 : -1); }

// The work group's reduction: up to four values per invocation summed in
// a fixed tree order into part[group*8 + slot ...], and up to two maxima
// (non-negative) of which the group's largest goes to stats[k] by one
// atomic per group (max commutes exactly; an atomic per cell on one
// address serializes the whole grid).
shared double red[4][256];
shared float redMax[2][256];

void groupSums(int slot, int count, double v0, double v1, double v2, double v3,
	int maxSlot, int maxCount, float m0, float m1) {
	uint t = gl_LocalInvocationIndex;
	red[0][t] = v0; red[1][t] = v1; red[2][t] = v2; red[3][t] = v3;
	redMax[0][t] = m0; redMax[1][t] = m1;
	barrier();
	for (uint s = 128u; s > 0u; s >>= 1) {
		if (t < s) {
			for (int k = 0; k < count; k++) red[k][t] += red[k][t + s];
			for (int k = 0; k < maxCount; k++) redMax[k][t] = max(redMax[k][t], redMax[k][t + s]);
		}
		barrier();
	}
	if (t == 0u) {
		uint g = uint(groupY()) * uint(P.groupsX) + gl_WorkGroupID.x;
		for (int k = 0; k < count; k++) R.part[g * 8u + uint(slot + k)] = red[k][0];
		for (int k = 0; k < maxCount; k++) atomicMax(R.stats[maxSlot + k], floatBitsToUint(max(redMax[k][0], 0.0)));
	}
}
