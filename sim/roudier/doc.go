// Package roudier is an erosion engine that runs the processes of Roudier,
// Péroche and Perrin 1993 §3.3 on a regular grid: rain, running and
// infiltrated water, gravity creep, removal of detritus by running water,
// chemical dissolution and alluvial deposition, each driven by the rock
// exposed at a cell (a geology.Lithology, Table 1's coefficients). It is
// the engine `--engine roudier` builds (its Kind, registered in app/engines).
//
// # A step
//
// Heights are metres, kept in float64 as the rock surface plus a layer of
// alluvium per cell (alluvium has river sand's coefficients,
// geology.Alluvium, and is removed before the rock under it). A step:
//
//  1. uplift (an extension of the paper: u·Dt per step, none on fixed
//     outlets);
//  2. routing: every cell drains to its steepest-descent neighbour of
//     eight (sim/flow's D8 routing, ties and hysteresis included); cells
//     with no lower neighbour are pits or outlets. Pits are not routed
//     through their passes (sim/flow's lakes are not used): the paper
//     fills them instead;
//  3. the exposed rock of every cell (alluvium where it is at least
//     geology.MinAlluvium thick, else the lithology at the rock surface:
//     a geology.Model laid by SetGeology through its per-cell map, else
//     Config.Lith's RockAt, DefaultStrata by default), its slope tanθ to
//     its receiver, on the heights of the routing, and what follows from
//     them alone: K_v (§3.2: 0 at and above SnowLine and on slopes of 60°
//     and more, Veg on slopes of 30° and less, linear in the angle
//     between; geology.Vegetation's rule) and the coefficients of the
//     laws below (prepare, in drainage order: see Concurrency and
//     determinism);
//  4. the sweep: every cell after all the cells that drain into it (the
//     reverse of sim/flow's Stack), tree by tree:
//     - K_v = 0 in river beds: cells whose running water from upstream
//     is at least RiverCells·W;
//     - q = [1 − (K_f + K_v)]·W, the cell's running water (K_f + K_v is
//     capped at 1, so q is never negative); Q = q plus the Q of every
//     donor;
//     - gravity creep z_g = Creep·K_d·tanθ, taken from the cell's top and
//     put on its receiver (alluvium as alluvium, rock as rock); into a
//     fixed outlet it leaves the map;
//     - detritus removal z_w = α·K_d·tanθ·Q, added to the load arriving
//     from upstream;
//     - dissolution z_c = γ·K_e·q' with q' = K_f·q; it leaves the map;
//     - deposition: if the load S exceeds the capacity C = r·Q/cos φ,
//     h_s = min(C, S − C) settles as alluvium (at most up to the lowest
//     donor's height; the rest goes on), and the load goes to the
//     receiver;
//     - a pit takes no erosion; an outlet (fixed, or a natural edge cell
//     draining off the map) lets the load leave;
//  5. the pits: the load each pit received fills its depression as
//     alluvium, a lake grown from the pit by a priority flood up to its
//     pass; what the full lake cannot hold runs over the pass and down
//     the other side into the next depression, or off the map through an
//     outlet (fill.go). Pits are filled one after the other in the order
//     of their trees.
//
// # Reading the paper
//
// The text of §3.3 came out of a PDF and leaves choices; these are ours,
// each tested:
//   - S^i = α Σ_j K_d^j tanθ^j Σ_k q^k is the load at point i of a flow
//     path: the sum over the points upstream of what each produced,
//     α·K_d·tanθ·Q. "This law induces a lowering z_w = S^i of the
//     altitude of point i" is read as the lowering by what point i
//     produces, α·K_d^i·tanθ^i·Q^i, not by the whole load (which would
//     remove upstream's detritus a second time and break the mass
//     balance). With several donors, Σ_k runs over all the cells
//     upstream (TestDetritusByHand).
//   - Deposition: the paper deposits h_s = q·r/cos φ and carries S − h_s
//     when S/q > r/cos φ; q there is the running water Q through the
//     cell, so h_s is the capacity C. We deposit min(C, S − C): the
//     paper's amount, but never so much that the stream would leave
//     below its capacity (when S < 2C the excess only). A depositing
//     stream thus sheds at most C a cell and spreads its deposits
//     downstream; depositing the whole excess at once (our first reading)
//     piled half-metre ridges that washed away the next step
//     (TestDepositionSheds). φ, the angle between the vertical and the
//     surface normal, is the angle of the slope to the receiver, so
//     1/cos φ = √(1 + tan²θ).
//   - Deposition at a cell that has donors is capped at the lowest
//     donor's new height, so that alluvium never dams a stream; what is
//     left goes on downstream. Ridge cells (no donor) deposit nothing.
//   - "The lowering induced by chemical dissolution is considered to be
//     equal to z_g" is read as z_c (a typo, like K_c for K_e): the
//     lowering is z_c = γ·K_e·K_f·q with q the cell's own running water.
//   - The gravity creep law z_g = K_d·tanθ has no coefficient; its length
//     is the grid's height unit. Creep (metres) is that unit.
//   - The "lowest neighbour" is the steepest-descent neighbour of eight
//     (sim/flow), not the lowest of four or six: the project's routing,
//     the same for every engine.
//   - Stability, not in the paper: creep takes at most half the drop to
//     the receiver, so a cell never falls below it by creep (the creep
//     test), and z_w + z_c are scaled down together so that the cell does
//     not fall below its receiver; StepStats.Clamped counts those cells.
//   - "In case of basins, the model fills them as much as possible": the
//     load a pit receives is spread over its depression up to the pass
//     (step 5), the rest going on downhill, instead of being piled on the
//     pit cell, which raised metre-high spikes a step on a 10 m grid
//     (TestPitFills, TestFillSpreadsOverDepression).
//   - K_v for river beds uses the running water from upstream (before
//     the cell's own rain), which the sweep knows when it reaches the
//     cell.
//
// # Mass
//
// Every step, RockRemoved (uplift minus the change of the rock's volume)
// = Detritus (carried off the map) + CreepOut + Dissolved +
// AlluviumStored (change of the alluvium's volume), m³, to float64
// rounding (Budget, TestMassBalance: 1e-6 relative over 500 steps; in
// practice ~1e-12). The contract's engine.Mass carries it: Eroded is the
// detritus out, Diffused the creep out, Dissolved, Stored, Alluvium.
//
// # Time, edges, statistics
//
// The laws are per step; Params.Dt (years) only advances Time and scales
// the uplift. Edges are the contract's: Outlet cells are fixed, Closed
// cells route like interior cells, Natural edge cells without a lower
// neighbour let the load leave. StepStats: Clamped as above, Lakes the
// pits that received detritus; phases routing, stack (order), geology
// (the exposed rock and the coefficients, step 3), erosion (the sweep),
// lakes (the pits' fill, step 5) and layout (heights and sums).
//
// # Rock maps
//
// Without a geology model, the engine's own strata (Strata, DefaultStrata
// unless Config.Lith gave others) are its rock: ExposedStrata gives the
// layer exposed at every cell (the alluvium last), which `orogen run
// --out-rock` writes with a legend of the strata when the scene has no
// geology.
//
// # Concurrency and determinism
//
// With an uplift or a geology model, the uplifted rock and the layer at
// its surface are first laid out in grid order, before the routing, so
// that what follows reads one array per cell (timed with geology). Steps
// 3 and 4 work in drainage order on whole trees (sim/flow's Stack and
// Trees): the trees are cut into chunks of about 4096 cells (a tree
// larger than that is a chunk of its own), claimed by the workers as they
// come free. A worker lays a chunk's cells out in a buffer of its own, in
// drainage order (prepare: the uplifted rock and alluvium of every cell,
// copied in a loop of its own, then its coefficients, each cell after its
// receiver, whose heights it reads from the buffer), then sweeps the
// buffer backwards, in two lanes of whole trees at once so that the
// processor overlaps their chains of dependent nodes, and last writes
// the chunk's new state to the grid: the sweep reads and writes memory in
// order, and the buffer (64 bytes, a cache line, a node) stays in the
// core's cache when the chunk is not one large tree. Each chunk
// writes only its own cells and its trees' sums; sums are taken per tree
// and over fixed blocks of cells in block order, and a bad rock reported
// is the one of the lowest cell index, so results are bit-identical for
// any GOMAXPROCS (TestDeterministic). The phases geology and erosion share
// the wall time of steps 3 and 4 as their times add up over the chunks.
// The pits' fill (step 5) runs on one goroutine (fill.go says why). The
// Lithology must be safe for concurrent use. An Engine is owned by one
// goroutine.
package roudier
