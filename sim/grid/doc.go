// Package grid is Orogen's stream-power engine on a regular grid.
//
// Each Step advances the terrain by dt years through these phases, timed
// one by one:
//
//	hillslope  κ∇²h, implicit, stable for any dt (package hillslope,
//	           Schott et al. 2022, eq. 1); with Params.CreepSc > 0
//	           nonlinear creep ∇·(κ∇h/(1 − (|∇h|/S_c)²)) (Roering,
//	           Kirchner and Dietrich 1999; hillslope.Creeper: one x then
//	           y backward-Euler sweep per step with the diffusivity
//	           frozen from its start, relaxed between steps; stable and
//	           conservative for any dt)
//	routing    D8 steepest-descent receivers (package flow); with
//	           Params.Routing "random" the cells draining less than
//	           Params.ChannelArea (the last step's area) take a
//	           slope-weighted random downhill receiver instead
//	           (flow.Graph.Randomize, Holmgren 1994's weights; in one
//	           pass with the steepest descent, flow.Graph.RouteRandom,
//	           reading the last area in its drainage order), kept
//	           while it stays downhill: channels keep the steepest
//	           (their last receiver within flow.ChannelKeep of it). With
//	           random routing and a hillslope term the step routes on the
//	           heights it started from, the state, not on the hillslope
//	           term's intermediate (routeHeights)
//	stack      donor masks and the depth-first order of every tree
//	lakes      passes between basins and the tree of basins
//	           (Cordonnier et al. 2016, §4.3)
//	layout     heights and receiver distances gathered into drainage order
//	           (and back to grid order at the end, in one pass with the
//	           step's statistics and volume), so the next three phases
//	           read memory sequentially
//	area       drainage area, cell area as rain, reverse drainage order
//	erosion    uplift (added in grid order) and the implicit stream power
//	           solve (package spl, Cordonnier et al. 2016, eq. 2; Newton per
//	           node for n ≠ 1)
//	geology    with a geology (SetGeology): the layer exposed at each cell
//	           of the uplifted surface (geology.Map.Exposed; the layout
//	           gathers k's factor Kd/KdRef into drainage order, so the
//	           erosion uses k·Kd/KdRef cell by cell; a cell with alluvium,
//	           or that the step's deposition term covers, erodes
//	           alluvium down to the top of its rock), the contacts under
//	           and over the rock at each cell's height before the step,
//	           where the erosion starts (spl.Params.Bottom and Top: a
//	           step that erodes through one goes on at the k of the rock
//	           under it, one that rises through one at the k of the rock
//	           over it, or stops at it), and after the step the alluvium: what the
//	           step added to a cell beyond its uplift, less what it took
//	talus      slopes along receivers limited to the talus angle
//	           (Cordonnier et al. 2016, §5)
//	deposit    with Params.G > 0: the sediment the erosion and the talus
//	           limit produced carried down the receivers (spl.Deposit),
//	           lakes filled by depth with what reaches them
//	           (spl.FillLakes), and the deposition rate G·Qs/A of each
//	           cell kept for the next step's erosion (Yuan et al. 2019),
//	           zero on the base-level plain (Params.PlainUplift > 0: the
//	           cells uplifting slower), which the sediment crosses
//
// k varies in space with Params.KNoise > 0: k·exp(KNoise·z), z a seeded
// fractal field (KNoise), times a geology's factor where there is one.
//
// With n = 1, a constant or noisy talus angle (or none) and no geology,
// the erosion (with the deposition term when there is sediment) and the
// talus limit run as one pass (spl.ErodeClamp, spl.ErodeLimit; timed as
// erosion, talus then shows 0), bit for bit the two passes. That pass and the area walk
// two halves of each chunk's trees at once: a node waits for its
// receiver's new value, and two independent chains hide each other's
// latency. With several workers the trees are cut into four chunks a
// worker, claimed largest first (parallel.Largest).
//
// The hillslope term comes first (Lie splitting), so the receivers are
// those of the heights the stream power law erodes (with random routing,
// of the heights the step started from: routeHeights) and the talus limit,
// applied last, holds exactly at the end of every step. The rest state of
// a split step moves with dt; SetRebalanced(true) (engine.Rebalanced,
// balance.go) adds to the x sweep, the y sweep and the rest of the step
// corrections that sum to zero, updated from each step's increments
// (rebalanced splitting, Speth et al. 2013), so that the rest state is the
// unsplit physics' for any dt: sim/settle turns it on for its long steps.
// Off (a new engine), the steps are the plain Lie-split ones.
//
// Sediment (Params.G > 0): the equation becomes dh/dt = u − k A^m s^n +
// G·Qs/A + hillslope (Yuan et al. 2019), Qs the sediment flux, m³/yr.
// The deposition term enters the implicit erosion as a source, G·Qs/A of
// the previous steps (implicit in h, lagged in Qs and relaxed: each step
// moves the rate halfway to its new G·Qs/A, a share 1/G for G > 2,
// DepositRelax, which damps the two-step cycle a whole lag starts at G ≳ 1
// and a half one at G = 3; the solve stays stable for
// any dt, and the rest state is Yuan's, k A^m s^n = u + G·Qs/A); lake bottoms are held, not raised toward their pass
// (spl.Params.Hold); then spl.Deposit walks donors first with the real
// yields of the step and closes the budget exactly: a node never keeps
// more than reaches it, lakes keep what reaches them up to their volume,
// the rest leaves through the outlets (engine.Mass: Eroded + Talus =
// Deposited + SedimentOut). The sediment's thickness is tracked per cell
// (Alluvium; the snapshot's Alluvium, orogen run --out-sediment),
// updated in the pass that gathers the heights back to grid order
// (timed as layout).
//
// The equation is dh/dt = u - k A^m s^n + κ∇²h, with heights in metres, time
// in years, uplift u in m/yr, drainage area A in m², k in yr⁻¹ (for m = 0.5,
// n = 1: m⁰·yr⁻¹), κ in m²/yr. Cells on Outlet edges stay at their initial
// height (base level, 0 for a flat start). At steady state with uniform u and
// k and no hillslope or talus term, s = (u/k)^(1/n) A^(-m/n); with a
// geology, per cell with k·Kd/KdRef of the rock it erodes in. The rock is
// fixed in space: uplift raises the terrain through the strata (so a
// steady state exists and hard layers stand out at fixed heights).
//
// An Engine is owned by one goroutine: Step, the setters and Snapshot must
// not run concurrently. Setters take effect at the next Step. Snapshot
// returns copies that the caller may keep and share read-only (the uplift
// is shared: SetUplift replaces it, nothing writes it). Memory
// (docs/MEMORY.md): the scratch in drainage order (heights, distances,
// area, k's factors, the sediment's) stays from step to step, so that a
// step allocates only the routing's buffers; a step lets go of the
// passes before Assemble (without the water budget, which reads them),
// and of the trees, labels and donors once the routing is assembled
// (with the water budget: its labels and solver scratch once it has
// stepped; without it the walk labels the cells only when the routing
// has a pit, flow.Graph.PitLabels); Release drops everything a snapshot
// does not read. Inside a
// step, work is spread over GOMAXPROCS goroutines by rows, columns or
// independent drainage trees; results are bit-identical for any number of
// workers.
package grid
