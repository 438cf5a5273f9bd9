// Package hillslope is linear hillslope diffusion, the Laplacian term of the
// grid stream-power law of Schott et al. 2022, eq. 1 (∂h/∂t = u − s^n a^m +
// Δh, "the hillslope term Δh smoothes the terrain by elevating concavities
// and lowering convexities"), with a diffusivity:
//
//	∂h/∂t = κ ∇²h        h in metres, t in years, κ in m²/yr.
//
// Scheme: locally one-dimensional backward Euler. A step of dt solves
//
//	(I + r·Lx) h* = hⁿ,   then   (I + r·Ly) hⁿ⁺¹ = h*,   r = κ·dt/cell²,
//
// where Lx, Ly are the negative second differences along x and y, each
// solve implicit over the full dt. Each is one tridiagonal system per row
// (per column), solved by the Thomas algorithm in float64; the heights are
// stored back as float32 after each sweep. Every row shares one
// factorization, computed once per step. Both matrices are M-matrices with
// unit row sums, so each sweep maps h to convex combinations of itself: no
// new extrema, for any r. A separable mode cos·cos decays per step by
// 1/(1 + 4r·sin²(θx/2)) · 1/(1 + 4r·sin²(θy/2)), the product of the two 1D
// backward-Euler factors (the tests check this to 1e-5).
//
// Boundary conditions, per edge (Edges): fixed (Dirichlet) edges keep their
// cells' values bit for bit, and a corner is fixed if either of its edges
// is; free edges are zero-flux (Neumann) with cell-centred differences, a
// free edge cell having only its in-grid neighbours. With all edges free the
// sum of heights is conserved up to float32 rounding.
//
// Time step: none for stability; any dt ≥ 0 is stable and monotone.
// Accuracy is first order in dt (backward Euler plus the splitting), and a
// large r damps every wavelength shorter than about 2π·cell·√r strongly; for
// faithful transients keep r = κ·dt/cell² of order 1 or below. Diffusion
// lengths √(κ·dt) much smaller than a cell (r ≪ 1) barely move the field.
//
// Grids are row-major flat []float32, index y*W + x, row 0 the north edge.
// A Diffuser owns its scratch buffers (one per worker) and a few helper
// goroutines, kept between steps so that Step does not allocate; the
// helpers exit when the Diffuser is garbage collected. Blocks of 8 rows
// (x sweep) and of 128 adjacent columns (y sweep) are handed to up to
// runtime.GOMAXPROCS(0) workers, one per 65536 cells at most; every line is
// solved alone, so the result is bit-identical for any number of workers. A Diffuser is not safe for
// concurrent use. Misuse (wrong slice length, bad parameters) panics with a
// "hillslope: " prefix.
package hillslope
