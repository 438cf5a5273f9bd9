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
// Nonlinear creep (Creeper; Roering, Kirchner and Dietrich 1999):
//
//	∂h/∂t = ∇·(κ ∇h / (1 − (|∇h|/S_c)²))
//
// whose low-slope limit is the linear diffusion above. Scheme: one
// linearised (Picard) backward-Euler step per Step, split as above in an x
// sweep then a y sweep, with each face's diffusivity κ·f frozen from the
// start of the step, f = 1/(1 − (S/S_c)²) of the face's slope S (the
// difference across it and the mean central difference along it): each
// line is a symmetric tridiagonal M-matrix with unit row sums, so every
// step is stable, free of new extrema and conservative for any dt, and
// with S_c = ∞ it is Diffuser's step. S/S_c is capped at MaxCreepRatio =
// 0.9 (f ≤ 5.3), beyond which the flux grows linearly: the talus limit is
// the guard there. A frozen factor alone makes steep slopes alternate
// from step to step at large r (a slope error comes back multiplied by
// −2(S/S_c)²f); each face's factor therefore moves towards the one of its
// current slope by ω = CreepRelax = 0.2 a step, which is stable for every
// slope under the cap and leaves the steady state unchanged. Bit-identical
// for any number of workers. Tests: the linear limit (Diffuser's step and
// the backward-Euler decay of a cosine mode), conservation, the steady
// hilltop profile of an uplifted ridge against the integral of the
// closed-form slope, at r = 0.5 and at r = 5 000.
//
// Step is both sweeps; Diffuser.Sweep and Creeper.Begin and Sweep give
// them one at a time, for a caller that acts between them (sim/grid's
// rebalanced splitting adds a source before each).
//
// Grids are row-major flat []float32, index y*W + x, row 0 the north edge.
// A Diffuser or a Creeper owns its scratch buffers (one per worker) and a
// few helper goroutines, kept between steps so that Step does not
// allocate; the helpers exit when it is garbage collected. Blocks of 8 rows
// (x sweep) and of 128 adjacent columns (y sweep; the Creeper's 32, wider
// as the workers fall: 512 with one) are handed to up to
// runtime.GOMAXPROCS(0) workers, one per 65536 cells at most; every line is
// solved alone, so the result is bit-identical for any number of workers. A Diffuser is not safe for
// concurrent use. Misuse (wrong slice length, bad parameters) panics with a
// "hillslope: " prefix.
package hillslope
