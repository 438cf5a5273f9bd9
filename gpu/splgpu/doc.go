// Package splgpu is sim/grid's stream-power engine on a GPU: the same
// equation, dh/dt = u − k A^m s^n + κ∇²h, the talus limit and the lakes
// routed through their passes, as OpenGL 4.3 compute kernels
// (shaders/*.glsl) on package gpu's runtime. It implements engine.Engine
// (and Constrainable, Summarizer, Releaser, Rebalanced, Watered); app/engines builds it for
// `--engine grid --device gpu|auto` and moves to sim/grid, saying why,
// for what it does not run (Supports: a talus angle by height; a
// geology with deposition and n ≠ 1 together). Nonlinear creep,
// deposition (any n), k noise, random hillslope routing, a talus angle by
// noise, the lakes' water budget (rain, a rain map) and a geology
// (engine.MapGeologic, geology.go; its talus angle by rock too) run here.
//
// A step, every phase over the whole grid and in log-depth rounds where
// it follows the receivers:
//
//	hillslope  with κ > 0: sim/hillslope's Diffuser, an x sweep then a y
//	           sweep of backward Euler, one tridiagonal line a work group:
//	           its two recurrences are affine, so chunks compose their
//	           maps and a scan in shared memory joins them (the
//	           factorization from the host, float64 throughout). With
//	           S_c > 0 its Creeper (Roering et al. 1999, one Picard step):
//	           the faces' mean factors on the Creeper's schedule (every
//	           step to the 64th since a reset, then every 8th; reset by
//	           SetParams and SetUplift as on the CPU), then each line's
//	           Thomas solve with varying coefficients (16 neighbouring
//	           lines a work group, 16 chunks a line; along x a row a
//	           work group, 256 chunks, on rows of 1024 cells or more,
//	           c' and d' chunk-interleaved where the row is a multiple
//	           of 256 cells;
//	           along y 4 columns and 64 chunks up to 2^22 cells, c'
//	           and d' interleaved across the columns and chunks where
//	           the columns hold a multiple of 64 cells, 64 columns and
//	           4 chunks from 2^25 cells on),
//	           whose elimination
//	           c'_i = c_i/(b_i − a_i c'_{i−1}) is a Möbius map (2×2
//	           matrices scanned) and the rest affine; c' and d' kept in
//	           float64 in the pointer-jumping buffers. Bit for bit the
//	           CPU's on llvmpipe (TestCreepMatchesCreeper). With the
//	           rebalanced splitting on (SetRebalanced, sim/grid's
//	           balance.go), each sweep first adds its correction (balx,
//	           baly) and the uplift takes both back (balup); the
//	           corrections move by the step's increments (balfin)
//	route      D8 steepest descent, sim/flow's ties (E, SE, S, SW, W, NW,
//	           N, NE) and hysteresis (flow.Hysteresis, flow.ChannelKeep for
//	           a held channel, dropped on paths the lakes reversed); a
//	           receiver is a 4-bit direction code. With creep and random
//	           routing it routes, and the lakes find their passes, on the
//	           heights the step started from, but for a rebalanced step,
//	           on the hillslope term's (sim/grid's routeHeights). With
//	           random hillslope routing, sim/flow's Randomize in the same
//	           kernel: cells below the channel area (from the last step's
//	           counts) keep their last random receiver (bits 12-15 of the
//	           code word) while it is downhill, else draw one by slope
//	           from SplitMix64 of the seed and the cell on 32-bit halves,
//	           the weights summed in float32 unfused, cells that were
//	           channels held so for flow.ChannelHold steps (bits 24-30):
//	           the CPU's receivers cell for cell
//	label      each cell's basin (its root) by pointer jumping, in place,
//	           two hops a dispatch; the dispatches are indirect and empty
//	           when the routing found no pit (SkipLabels: nothing reads
//	           the labels then). From LabelCells cells (2048²) the
//	           labels have no buffer of their own (labels.go): they sit
//	           in the second pair's β buffer, free until the area; the
//	           deposition (before depvol and before depfin) and a
//	           snapshot's lakes make them again from the carved codes
//	           (relabel: a cell on a carved path, bit 4, takes the path's
//	           cell that drains into it now, not the pass cell, EXIT;
//	           the pit itself)
//	lakes      the pits' basins routed out through their passes
//	           (Cordonnier et al. 2016, §4.3): the minimum spanning tree
//	           of the pass graph (the tree Prim's algorithm grows from the
//	           outlets on the CPU engine) by Borůvka's rounds, each
//	           component's lowest pass (max(h_i, h_j) over its boundary,
//	           ties to the first cell and direction) found on the device
//	           with integer atomics, the few components merged on the host
//	           by union-find (what it reads back, from small buffers of
//	           the pits' size, which shrink again after a young terrain:
//	           LakeShrink; each pass's basins by their pits' index, which
//	           pitindex writes at the roots; the pits' roots in the labels'
//	           last read when the last step had few: LabelRoots); the path
//	           from each pass down to its pit reversed by one invocation
//	           a basin
//	area       exact drainage area by pointer jumping over the receiver
//	           forest: after round k a cell holds the cells of its
//	           subtree less than 2^k steps above it and points to its
//	           2^k-th receiver; counts are 32-bit integers added with
//	           atomics (exact, so the same in any order); the start
//	           (areainit1, AreaFused) does the first round from the
//	           codes: each cell counts its donors and points two
//	           receivers on
//	erosion    uplift and the implicit step of Braun and Willett 2013,
//	           h_i = (a_i + F_i h_r)/(1 + F_i), an affine map of the
//	           receiver's height; maps composed by pointer jumping. For
//	           n ≠ 1, Newton's method on the whole forest from the uplifted
//	           heights: each step linearizes every node's equation
//	           δ − δ0 + F·δ^n = 0 at the current heights (an affine map
//	           again) and solves it the same way, until every node's
//	           Newton step is within a few float32 ulps (6 to 8 steps in
//	           the tests; at most 12)
//	           With deposition (G > 0), the source term G·Qs/A
//	           of the last step in the implicit step and sim/spl's Hold
//	           (a node below its receiver keeps its height): maps x ↦
//	           min(c, α + β·x), composed the same way (affmin); for
//	           n ≠ 1 in each Newton step (newtondep: a node whose
//	           receiver lies at or above its raised height at the
//	           current iterate is held there, the others linearized
//	           with the raised height as their cap; 4 to 12 steps in
//	           the tests).
//	           With a geology (geology.go), k of each node is
//	           k·Kd/KdRef of the material its erosion starts from
//	           (alluvium where it has geology.MinAlluvium of it or the
//	           step's deposition term lays that much, else the layer at
//	           its height before the step, as sim/grid), and a node whose solve leaves that material
//	           walks the contacts down or up as sim/spl's cross and rise
//	           do: its height is a piecewise affine map of its
//	           receiver's. The forest is solved with every node's
//	           piece of the last step as a guess (the material it
//	           ended in, or the contact it stopped at), then each node
//	           re-solves from its receiver's new height walking from its
//	           starting material (geoerode.glsl, in float64, the layer
//	           tops and each cell's displacement as geology.Map keeps
//	           them) and the contraction runs again with the pieces
//	           found, until no node changes piece: exact once converged
//	           whatever the guess, as a node's piece is exact once its
//	           receiver's height is (4 to 5 solves a step on strata 3
//	           and 4 m thick crossed by 10 m of uplift a step, about 4
//	           on the geology presets at 128² in their first hundred
//	           steps, 1.2 near strata's rest: GeoIters; at most 64).
//	           With deposition the pieces are capped maps (affmin): a
//	           node at or below its receiver is held (a piece of its
//	           own). With n ≠ 1 (and no deposition: Runs), Newton's steps with each node's piece
//	           (a stopped node constant), the pieces then found again by
//	           the sign of each node's residual at the contacts, until
//	           none changes (geonewton; 3 to 5 solves and 9 to 11 Newton
//	           steps a step in the tests)
//	           After the finish the alluvium: what the step added beyond
//	           the uplift, less what it took (geofin)
//	talus      h_i ≤ h_r + tan θ·d_i along the receivers, min-plus maps
//	           x ↦ min(a, x + b) composed the same way; tan θ constant or
//	           sim/talus's noise field per cell (4 bytes a cell more);
//	           with a geology's talus angle by rock, b times the factor
//	           (geology.Model.TalusScale) of the rock exposed at the
//	           cell's uplifted surface (geotalscale, geotalapply)
//	deposit    with G > 0, sim/spl's Deposit and FillLakes (Yuan et al.
//	           2019): what leaves a cell is max(0, S), S its yield plus
//	           what its donors pass, less its lake's volume at a lake's
//	           exit, which keeps φ = min(1, V/vol) of the lake. The clamps
//	           make S a tree of max-plus maps, solved exactly by tree
//	           contraction (Miller and Reif 1985) in 64-bit fixed point
//	           (2^-20 m a cell): first, a work group a tile of 16×16
//	           cells solves in shared memory every node whose donors all
//	           lie in its tile (dslocal, DepTile; about 80 % of the nodes),
//	           then each global round the nodes solved in the last
//	           one add max(0, S) to their receiver (rake, integer atomics
//	           with a carry), a node with no donor left is solved, one
//	           with one left links to it by x ↦ max(a, x + b), and linked
//	           nodes compose their target's map into theirs by pointer
//	           jumping or are solved with it (a round writes a node's new
//	           map into its second slot, which nobody reads, and the next
//	           round's rake copies it back: dsbuf.glsl). The rounds grow with
//	           the logarithm of the rivers' depth and their branching, not
//	           with how the clamps nest (24 to 35 from 1024² to 8192² on
//	           the default preset with the soil physics, 26 to 38 without
//	           the tiles; 13 to 15 at 48² and on a 2867-cell chain).
//	           From round DepList on the rounds visit a list of the nodes
//	           not yet solved (dslist, remade every DepRelist rounds from
//	           the last), dispatched indirectly with the work groups
//	           dslistargs writes: a solved node never changes again, so
//	           the sums are the same bit for bit (from 2048², ListCells).
//	           There the layout is lean (leanDep): the second slot has a
//	           place a listed node (room for n/4, in the erosion's second
//	           cap buffer; the lists and the slot's pointers in the second
//	           pointer buffer), and while the nodes left do not fit a
//	           list, a node claims a place by a hash for the round or
//	           waits; below, the second slot has a place a cell (16 bytes
//	           a cell of its own). DepTail runs the last rounds in one
//	           work group of 1024 (dstail; off: no faster on an H200).
//	           Then the clamped
//	           cells lowered,
//	           the lakes filled, the next step's rate (relaxed by
//	           grid.DepositRelax, 0 on the base-level plain,
//	           Params.PlainUplift) and the alluvium (in the finish)
//	finish     statistics and the rock account: Σ in float64 per work
//	           group in a fixed tree order (the largest changes in the same
//	           tree), then the groups in order (past 256 groups, by 256
//	           groups first: reducepart)
//
// Rounds stop when no pointer moves, not after a count fixed from the
// grid's size: ⌈log₂ n⌉ rounds would do, but the count of the last step
// (read back once a step, one fewer tried every 16 steps) is what the
// forest needs; erosion and talus reuse the area's count and the round
// its start did (the same forest). The tests run a chain through every cell, a comb and a star
// against plain-Go walks.
//
// What differs from sim/grid: floats are float32 where the CPU engine
// keeps float64 in a walk (the composed maps, the talus limit rounded to
// nearest rather than down, the diffusion's eliminated values), where
// several pairs of cells give a basin the same pass height the two pick
// different ones, and a lake's volume for the deposition is measured on
// the limited heights, before the clamps lower cells in it (the CPU
// measures it after: the GPU's lakes keep a little less; deposited
// volumes within 5 % after 20 steps in the tests). Terrains therefore
// differ cell by cell but not in their figures: the default preset settled at 256² (llvmpipe) and 1024²
// (an H200) has the CPU's max and mean height within 0.3 %; Hack's
// exponent within 0.001 at 256² and 0.03 at 1024² (about the spread
// between two seeds of the CPU engine itself, 0.02).
//
// Memory: 48 bytes a cell (12 float or int fields: heights, uplift,
// direction codes, drainage counts, the two previous steps' heights,
// three pairs of pointer-jumping buffers), the basin labels 4 more below
// LabelCells cells (from there in the second pair's β, made again where
// the maps took their place), 4 more with k
// noise, 8 more with nonlinear creep (the faces' mean factors), 16 more
// with deposition (the source term, the alluvium and the erosion's caps;
// the contraction runs in the caps' and the pointer-jumping buffers on
// the lean layout, from ListCells cells: 12 more below, where its second
// slot has a place a cell), 4 more with a talus angle by noise
// (PhysicsBytesPerCell: 80.26 bytes a cell with all of them from 2048²,
// the small buffers counted, 96.30 at 1024²; BytesFor counts every
// buffer New and the physics allocate, TestBytesForIsAllocated), 28 more with a
// geology (GeologyBytesPerCell: each cell's displacement in float64, its
// piece and starting material, the height it stopped at, its rock's top
// and deposition term, the alluvium), and 28 to 32 bytes a pit for the lakes' arrays the host
// writes or reads (40 more with deposition; small buffers of their own:
// a driver may copy a whole buffer the device still uses to take a
// write, and reading a few words of a grid-sized buffer took time in
// proportion to the grid; sized for the step's pits, 64 KiB at least,
// not for the most a young terrain had; the components' pass keys and
// edges, which only the device reads, in ab's pair, free in the lakes
// phase): 3.2 GB at 8192², 5.4 GB with the presets' physics (80.26
// bytes a cell; nvidia-smi showed the whole GPU at 3 732 MiB without
// physics (session 17) and 5 822 MiB with the default preset's in
// BenchmarkStepGPU at 8192², 6 150 MiB before session 19, 6 952 before
// session 18, on an H200; docs/GPU.md, "Memory: every buffer").
// New and SetParams refuse a grid that does not fit the card's memory
// (BytesFor) or the driver's largest buffer, naming the size and the
// largest --size of its shape that fits. Release gives the
// pointer-jumping buffers, the caps and the contraction's slot 1 back
// after a run's last step (engine.Releaser); the next Step grows them
// again.
//
// The lakes' water budget (Błaszczuk et al. 2023; Params.Rain > 0 or
// SetRainMap; water.go) runs on the host, as sim/grid runs it, on the
// device's routing: after the lakes phase the step reads back the heights
// the routing saw and the basin labels (8 bytes a cell), numbers the
// pits' basins in cell order, lists the lowest pass between each two
// neighbouring basins as sim/flow's findPasses does (the same pairs and
// order, so the same sim/water Input cell for cell on the same routing:
// TestWaterInputMatchesCPU) and steps sim/water in a goroutine while the
// device erodes; the step waits for it at its end. The budget never
// changes the terrain (nor does sim/grid's): its lakes are the water the
// snapshots carry (Water, WaterLakes, WaterPits, Discharge) and the
// account Water gives. Host memory with rain: the heights and labels read
// back and the basin of each cell, 12 bytes a cell, and sim/water's own.
//
// An Engine is owned by one goroutine, as sim/grid's is; its device work
// runs on the device's thread (gpu.Device.Do). Snapshots read the fields
// back; the lakes' spills, levels and water are measured on the host from
// the basins and passes of the last routing (sim/flow's LakesOn and
// WaterDepth), or with rain the water budget's lakes. An engine dropped
// without Close gives its memory back when it is collected.
package splgpu
