// Package graph is the stream-graph engine of Cordonnier et al. 2016
// (issue 6): the stream power law
//
//	dh/dt = u − k A^m s^n            (Cordonnier et al. 2016, eq. 1)
//
// solved on a planar graph of Poisson samples instead of a grid.
//
// # Mesh (Cordonnier et al. 2016, §4.1)
//
// NewMesh triangulates the samples (sim/delaunay) and keeps the Delaunay
// neighbours of every node as sorted CSR lists (NbrOff, Nbr), so the graph
// does not depend on the triangulator's internal order. Each node's rain
// area a_k is its Voronoi cell clipped to the domain [0,W]×[0,H]: the
// domain rectangle clipped (Sutherland–Hodgman, one half-plane at a time)
// by the perpendicular bisector of every Delaunay neighbour. That polygon
// is the circumcentre polygon around the node cut by the domain; hull
// nodes, whose cells are unbounded, are closed by the box. The areas tile
// the domain and sum to W·H up to rounding. Nodes are numbered in the
// order of the samples; SortSamples puts samples in Z-curve order first
// (app/engines does), so that neighbours sit close in memory.
//
// # Step
//
// Engine.Step runs the phases of Cordonnier et al. 2016, §3.2, timed in
// engine.StepStats.Phase under the grid engine's phase names:
//
//  1. routing (§4.2): every node's receiver is its steepest downhill
//     neighbour, slope (h_i − h_j)/|p_i − p_j|; with Routing "random" on
//     the heights the step starts from (with sediment the creep goes
//     first, and on its heights channels cycled: see route), as the
//     grid's; ties go to the lower index.
//     A node keeps the last step's receiver while that is downhill and
//     within 1 % of the steepest (routeHold; 5 %, flow.ChannelKeep, for
//     the channels of the random routing): near-ties on the Poisson
//     mesh otherwise flip back and forth forever.
//     With Routing "random" hillslope nodes then take their seeded
//     draw instead (routing.go; see Soil terms).
//     Nodes with no lower neighbour are roots: outlets or pits (lakes).
//  2. stack (§4.2, §5): donor lists (a counting sort of the nodes by
//     receiver, each list ascending) and a breadth-first traversal of
//     every root's tree give the stream trees, each node labelled with its
//     root. The stack is the trees in root order, one after the other.
//  3. lakes (§4.3): every pit tree is a lake of the super graph G_L, all
//     outlet trees together its node 0; each pair of neighbouring nodes in
//     different lakes is a candidate pass at height max(h_i, h_j). Prim's
//     algorithm with a binary heap (the paper uses a red-black tree) grows
//     the tree of lakes T_L from node 0, taking the lowest candidate into
//     a lake not yet reached: O(N + E log E) with E the candidate passes,
//     few once the first steps have drained the noise. Each lake reached
//     is carved as sim/flow does on the grid: the receiver path from the
//     pass node down to the lake's bottom is reversed and the pass node
//     drains into the neighbouring lake, so the arc of §4.3 Fig. 7 follows
//     graph edges and the sill erodes. The stack is then rebuilt from the
//     outlets, which are now the only roots.
//     The lakes are recorded (Engine.Lakes: pit, pass node, outflow node,
//     the lake each spills into; Engine.Basin: the pit's tree), so
//     WaterDepth can fill every basin to its level measured on the
//     current heights, as sim/flow's Levels and WaterDepth do on the grid:
//     spill max(h[pass], h[outflow]), level the higher of the spill and
//     the downstream lake's level, depth max(0, level − h) over the basin.
//  4. layout: heights, receiver positions, distances, rain areas, uplift
//     and talus cells are copied into drainage (stack) order.
//  5. area (§5): A_k = a_k + Σ A_children, summed in reverse traversal
//     order (leaves first), in float64.
//  6. erosion (§5, eq. 2): sim/spl's implicit solver walks the stack,
//     receivers first: the closed form for n = 1, safeguarded Newton
//     otherwise, uplift u·dt included.
//  7. talus (§5, thermal correction): sim/talus ClampOrdered caps every
//     slope at the talus angle. The noise mode's field lives on a virtual
//     grid of about one node per cell (side √(W·H/N)). Unless the linear
//     diffusion runs between them (Kappa > 0 without sediment), the limit
//     is taken inside the erosion, node by node receivers first
//     (talus.go, as sim/grid's spl.ErodeClamp): each node erodes towards
//     its receiver's limited height, so the steady state does not depend
//     on dt (taken apart, a limited receiver's height before the limit,
//     u·dt above it, fed its donors, and the adaptive scheme's long steps
//     never settled with k noise; TestTalusSteadyAnyDt).
//
// # Progressive refinement (Cordonnier et al. 2016, §6.3)
//
// Refine continues an engine on its nodes refined by poisson.Refine to a
// smaller distance: old nodes keep their indices and heights, new ones
// take the linear interpolation over the old triangle that covers them
// (new outlets over its outlets only, so base level stays), uplift alike.
// SetRefinement schedules that inside Step: after every stage of a fixed
// number of steps (or once the stage has converged) the distance halves;
// Converged holds back until the last stage. Mesh() then changes between
// steps; each Mesh stays immutable.
//
// # On a grid
//
// OnGrid shows the engine on a W×H grid: node values interpolated over the
// triangles (Mesh.Linear), and the snapshot's heights then made to drain
// as the graph does (drain.go): every descending arc is carved into the
// cells it crosses at its own linearly falling height, and what pits the
// triangles still leave are filled by Priority-Flood+ε (sim/pitfill; Barnes et al.
// 2014) from the border and the lakes, so that D8 on the raster leaves
// the grid or reaches a lake.
//
// # Units and boundary conditions
//
// Lengths and heights are metres, times years, uplift m/yr, k yr⁻¹ (m^(1−2m)
// for n = 1), areas m². Nodes flagged Outlet (the border samples of
// sim/poisson) are base level: roots of the drainage, never eroded, never
// uplifted, kept at their initial height. After every step each node
// drains to an outlet: closed depressions are routed through their passes
// and filled by the solver rather than dug.
//
// Parameters come as engine.Params: K, M, N, Dt, Kappa, Talus, CreepSc,
// G, KNoise, KNoiseWavelength, Routing and ChannelArea are used; Edges and
// NaturalDist do not apply (the mesh's outlets are the boundary). Hillslope diffusion κ∇²h runs after the stream-power solve
// and before the talus correction: finite volumes on the Voronoi cells
// (cotangent weights), one implicit step solved by conjugate gradients
// (diffuse.go).
//
// # Soil terms (soil.go; issue 34)
//
// All act on the nodes, as the grid engine's act on its cells; the
// raster only shows them.
//
//   - k noise (KNoise > 0): k·exp(KNoise·z) per node, z the grid engine's
//     seeded fractal field (same seed and octaves) at the node, shifted
//     half a cell on OnGrid so both engines erode the same patches; times
//     a geology's factor where there is one.
//   - creep (CreepSc > 0, with Kappa): nonlinear creep (Roering, Kirchner
//     and Dietrich 1999), the diffusion's Voronoi-edge fluxes times the
//     mean, over the steps since the parameters or uplift last changed,
//     of the factor 1/(1 − (S/S_c)²) of each edge's slope (capped at S/S_c
//     = 0.9): one implicit step per step, stable for any κ·dt; a factor
//     that follows the slopes step by step keeps the drainage from
//     settling (the rule sim/hillslope adopts on the grid, for the same
//     reason).
//   - sediment (G > 0): transport and deposition of Yuan et al. 2019 as
//     the grid has it (sim/spl's Deposit and FillLakes), with each node's
//     own area: the hillslope runs first (so the account sees only the
//     stream power and the talus), the uplift is applied before the
//     erosion, which holds lake floors and takes G·Qs/A of the previous
//     step as a source; sediment then goes down the receivers donors
//     first, each lake keeping what reaches its nodes below its level up
//     to its volume (released at its pass; floors rise evenly). The
//     account closes: eroded + talus = deposited + sediment out
//     (StepStats.Mass), and Alluvium (the snapshot's too) is the
//     sediment's thickness.
//     The source a step leaves for the next moves halfway from the last
//     one (1/G of the way for G > 2: spl.DepositRelax, as on the grid):
//     the rate lags the flux by a step, and taken whole the two
//     alternated.
//   - random hillslope routing (Routing "random"; routing.go): a node
//     draining less than ChannelArea (0: 25 mean node areas, the grid's
//     100 cells at one node per 4 cells) in the last step takes a seeded,
//     slope-weighted choice among its downhill neighbours (Holmgren
//     1994), kept while downhill; channels keep the steepest receiver,
//     the last one while it is within flow.ChannelKeep (5 %) of the
//     steepest, as on the grid, and a node stays one for
//     flow.ChannelHold routings. With sediment
//     the steepest descent fed back: the node a hillslope donor drains
//     into keeps G·Qs/A of its sediment and rises, turning the donor
//     elsewhere. With both, the default preset's physics (G 1.5, k noise,
//     creep, noisy talus) settles at 512² (478 steps); without either it
//     did not in 1 300 steps. On one node per 2 cells (131 072 nodes at
//     512²) channels alternated between two receivers within 1 % of
//     each other for 4 000 steps; kept within 5 % they settle (516
//     steps). At 256² a channel crossing the low plain's
//     alluvium still switches between near-level receivers (avulsion),
//     a few nodes a step.
//
// # Convergence
//
// Converged(tol) holds when the last step changed no height faster than tol
// m/yr and no receiver changed (Cordonnier et al. 2016, §5: the topology of
// the stream graph predicts convergence). StepStats.MaxDh2 is not computed
// (NaN).
//
// # Determinism and ownership
//
// The result is bit-identical whatever GOMAXPROCS. Loops over nodes or
// stack positions (Voronoi areas, routing, donor lists, layout, copies,
// the diffusion's conjugate gradients, statistics) work per node or in
// fixed blocks merged in block order. The stream trees are listed by
// workers claiming roots, each tree breadth-first on its own; drainage
// area, erosion and talus run on chunks of whole trees at once. A node's
// result depends only on its tree, and a tree's order only on the
// receivers: it is the order the single breadth-first traversal from all
// roots gave it, so the drainage area adds every node's donors in the
// same order. Prim's algorithm over the lakes runs serially (a handful of
// lakes once the first steps have drained the noise). One goroutine owns
// an Engine; the slices it returns are its own,
// valid until the next Step, and must not be modified. A Mesh is immutable
// and may be shared.
//
// With a geology (SetGeology, package geology), k becomes k·Kd/KdRef of
// the rock at each node's uplifted surface, node by node (phase geology),
// and the engine tracks the alluvium it deposits: what a step adds to a
// node beyond its uplift, less what it takes. Refinement carries both to
// the new nodes.
package graph
