// The hardness from the rock (a geology), before the step's kernels, as
// sim/hydro's rockHardness: the layer exposed at each cell (the stack's
// layer at the terrain height less the cell's displacement, by
// geology.Model.LayerOf's binary search over the tops, in float64), or
// alluvium where the pass has deposited at least geology.MinAlluvium;
// the hardness is max(R_min, K_d) of its rock.
layout(std430, binding = 1) readonly buffer B { float b[]; };
layout(std430, binding = 9) writeonly buffer Hard { float hard[]; };
layout(std430, binding = 13) readonly buffer Alluv { float alluv[]; };
layout(std430, binding = 14) readonly buffer Disp { double disp[]; };

const float minAlluvium = 0.01; // geology.MinAlluvium

void main() {
	int x = int(gl_GlobalInvocationID.x);
	for (int k = 0; k < ROWS; k++) {
		int y = cellY(k);
		if (x >= P.W || y >= P.H) continue;
		int i = row(y) + x;
		double z = double(b[i]) - disp[i];
		int lo = 0, hi = P.nTops - 1;
		while (lo < hi) {
			int mid = (lo + hi) / 2;
			if (z < P.tops[mid]) hi = mid;
			else lo = mid + 1;
		}
		if (alluv[i] >= minAlluvium) lo = P.alluvLayer;
		hard[i] = P.rockHard[lo];
	}
}
