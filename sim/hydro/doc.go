// Package hydro is hydraulic and thermal erosion with the virtual-pipe
// model of Jákó and Tóth 2011, "Fast Hydraulic and Thermal Erosion on
// GPU", itself after Mei, Decaudin & Hu 2007.
//
// State per cell: terrain b, water depth d, suspended sediment s (metres
// of soil per cell area), outflow flux f = (f^L, f^R, f^T, f^B) in m³/s to
// the west, east, north and south neighbours, velocity v in m/s, hardness
// R in [0, 1], and the thermal outflow over 8 pipes (stored as one factor
// q per cell: the pipe to neighbour i carries q·excess_i, see ThermalFlux).
//
// One Step of Δt seconds, in the paper's order:
//
//	eq. 1   d1 = d + Δt·r·K_r, r the rain map (1 without one), plus the
//	        point sources (Source), spread over their discs
//	eq. 2   f^i = max(0, f^i + Δt·A·g·Δh^i/l), Δh^i the drop of the water
//	        surface b+d1 to neighbour i
//	eq. 3-4 K = min(1, d1·lx·ly/(Σf·Δt)); f = K·f (the paper prints max;
//	        the scaling may only shrink the outflow)
//	eq. 5-6 d2 = d1 + Δt·(Σf_in − Σf_out)/(lx·ly)
//	eq. 7   v_x = ½(f^R(x−1) − f^L(x) + f^R(x) − f^L(x+1)) / (l_y·d̄),
//	        d̄ = (d1+d2)/2, likewise v_y; v = 0 where d̄ < 1 µm
//	eq. 8   C = K_c·sin α·|v|·l_max(d1), with sin α the sine of the
//	        terrain's downhill slope along v (the paper's −N·V; 0 for
//	        water climbing), l_max(d) = max(0, 1 − d/LMax), and C capped at
//	        CMax·d2
//	eq. 9   C > s: b −= Δt·R·K_s·(C−s), s and d gain as much
//	eq. 10  C < s: b += Δt·K_d·(s−C), s and d lose as much (d not below 0)
//	eq. 11  on deposition R = max(R_min, R − Δt·K_h·K_s·(s−C)) (never raised)
//	eq. 12  s(x, y) = s1(x − v_x·Δt/lx, y − v_y·Δt/ly), bilinear
//	eq. 13  d = d3·(1 − K_e·Δt)
//	eq. 14  ΔS = Δt·K_t·R·H/2, H the largest excess drop to a neighbour
//	eq. 15  ΔS shared among the lower neighbours in proportion to their
//	        excess drops, through 8 pipes
//
// The exchanged amounts are clamped so that they never overshoot: a cell
// dissolves at most C−s and deposits at most s−C in a step. Deviations
// from the paper, each for a stated reason:
//
//   - Thermal erosion uses excess drops, b − b_i − d_i·tan α (d_i = cell or
//     cell·√2), for H and the shares, where the paper uses the whole drop
//     for H and (misprinted) the neighbour's height for the shares: with
//     whole drops a slope just above the talus angle is flattened far
//     below it, so the angle would not be the slope it leaves. The terrain
//     the thermal pipes read is b at the start of the step (the paper's
//     step 3); they are applied after transport (its step 6). Δt·K_t is
//     capped at 2/9 (see Params.StableDt).
//   - The capacity cap CMax·d (a largest sediment concentration): the
//     pipe model has no friction, so every sheet of rain on a slope runs
//     at the speed the outflow scaling allows (about a cell per step), and
//     without the cap thin films on steep flanks out-erode the deeper
//     water of the valley floors. With it, channels carve (the V-valley
//     test).
//   - Semi-Lagrangian transport (eq. 12) does not conserve mass. With
//     walls and wrap the transported sediment is scaled each step back to
//     the total it had before moving (StepStats.SedimentFix); with open
//     edges the difference is booked as Budget.SedimentOut.
//   - Open edge cells are base level: water and sediment pass through them
//     but they neither dissolve nor deposit.
//
// Boundaries (Params.Boundary): Walls, no flux through the edges; Open,
// water flows out of an edge cell as if the ground beyond it were at the
// cell's height and dry (drop = d1), and sediment traced back from
// outside is clear water; Wrap, opposite edges join (the paper's texture
// wrapping). Thermal pipes never cross walls or open edges.
//
// Time step: the pipes are stable for Δt <= sqrt(l·cell²/(2·A·g)) (the CFL
// limit of this scheme, see Params.StableDt, which also names the rate
// limits K_s·Δt, K_d·Δt, K_e·Δt <= 1 and K_t·Δt <= 2/9). New and
// SetParams accept a larger Δt but Engine.Warning then says so; the
// clamps above keep every field finite for any valid parameters.
//
// Units: metres, seconds, m³ for volumes; fields are float32, sums (the
// water budget, the sediment totals) float64. Grids are row-major, index
// y*W + x, row 0 the north edge, cells square (lx = ly = cell). A Budget
// accounts for the water: Initial + RainIn + Dissolved = Evaporated +
// Outflow + Stored, to float32 rounding. Engine.Mass accounts for the
// rock: the initial terrain volume = terrain + suspended sediment +
// Budget.SedimentOut (m³). Dissolving and deposition move exactly what
// the float32 terrain gave or took into the sediment (an amount under
// half an ulp of the height moves nothing). Each thermal pipe's soil is
// one float32 product that both of its cells book, summed per cell in
// float64; what a cell's float32 height cannot take (amounts under half
// an ulp, 1.2e-4 m at 2 km) it carries to its next thermal step, and
// Mass counts it with the terrain. So the rock account closes to the
// rounding of the sediment (about 1e-9 of the rock moved; before the
// carry, thermal erosion on a 128² terrain 2 km high made rock from
// nothing, 1 % of that moved in 3 000 steps).
//
// Execution: each step is three sweeps over blocks of rows (PhaseNames:
// flux, erosion, transport), each reading one set of buffers and writing
// another (terrain and sediment are double-buffered; fluxes, hardness and
// q are written only by their own cell), run by helper goroutines that the
// Engine keeps, on up to runtime.GOMAXPROCS(0) workers. Per-block sums are
// merged in block order, so every field and the budget are bit-identical
// for any number of workers. A step does not allocate. Within a sweep,
// interior cells run a loop free of edge cases (edge rows and columns go
// through separate code with the boundary rules), the flux sweep computes
// each row's water surface b + d1 once into a three-row window per block,
// and the erosion sweep chooses between dissolving and depositing, and
// caps the capacity, without branches. The erosion sweep runs each row as
// three short loops (water and velocity; capacity; exchange and
// evaporation) passing d2, |v|² and C through scratch rows, and the
// transport sweep samples the sediment of a row in one loop and applies
// the thermal pipes in another (skipped for rows that no pipe reaches),
// so that the processor overlaps several cells. The fields are carved out
// of one allocation at staggered offsets modulo 4 KiB: fields of a
// power-of-two size allocated apart start at the same offset, and then
// every load of one field at the index just stored to another waits as if
// it depended on the store (4K aliasing), which slowed the sweeps by a
// sixth.
//
// Some formulas are rearranged for speed, with results that differ from
// the plain per-cell formulas above by float32 rounding only (erodeSpan,
// the edge cells, keeps the plain forms): the water surfaces are scaled by
// Δt·A·g/l once per row, so each pipe of eq. 2 is a difference of two;
// eq. 5-6 folds Δt/(lx·ly) into one factor; eq. 7 multiplies by
// 1/(2·l_y·d̄), one division; eq. 8 takes sin α·|v| = p·sqrt(|v|²/(|v|²+p²))
// with p = −∇b·v (sin α = tan α/sqrt(1+tan²α), tan α = p/|v|), one
// division and one root for three divisions and two roots, and the
// largest speed is the root of the largest |v|². The thermal pipes
// (eqs. 14-15): the flux sweep stores q per cell, and the transport
// sweep forms each cell's net gain over its 8 pipes, q_j·excess_j in from
// higher neighbours and q·excess_i out to lower ones (pipe), in float64.
//
// An Engine is owned by one goroutine: Step, the setters, the accessors
// and Snapshot must not run concurrently. Setters take effect at the next
// Step. Accessors return the engine's own slices (read them between
// steps); Snapshot returns copies that may be kept and shared read-only.
//
// With a geology (SetGeology, package geology) the hardness R of every
// cell is set at the start of each step to max(R_min, K_d) of the rock
// exposed there (alluvium's where the pass has deposited), and the pass
// tracks the alluvium it deposits.
package hydro
