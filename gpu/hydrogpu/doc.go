// Package hydrogpu is sim/hydro's virtual-pipe hydraulic and thermal
// erosion (Jákó and Tóth 2011) on a GPU through package gpu: the same
// state, parameters, edges (walls, open, wrap) and order of operations as
// the CPU engine, whose package doc gives the model; hydrogpu.New takes a
// hydro.Config, checked as hydro.New checks it.
//
// A step is five compute kernels (shaders/*.glsl, embedded, compiled once
// per device), each over the grid in groups of 16×64 cells (16×16
// invocations of four cells each):
//
//	flux    eq. 1 (rain and sources, from hydro.Inflow) and eqs. 2-4, the
//	        pipe fluxes scaled by K; the thermal outflow q of each cell
//	        (eqs. 14-15); the water leaving through open edges
//	erode   eqs. 5-11 and 13: water, velocity, capacity with the depth
//	        limiter and the CMax cap, dissolving and deposition scaled by
//	        the hardness, softening, evaporation
//	move    eq. 12, semi-Lagrangian transport (bilinear; walls clamp,
//	        open edges read clear water, wrap wraps), and the thermal
//	        pipes' soil applied to the new terrain (its rounding carried)
//	finish  the step's sums into the water account, the sediment
//	        correction factor, the extremes
//	fix     the sediment scaled back to its total (walls and wrap only)
//
// Fields are float32 storage buffers (the fluxes as one vec4 per cell,
// the velocity as a vec2), the terrain double-buffered as on the CPU. The
// kernels take sim/hydro's plain per-cell forms (its erodeSpan, fluxEdge,
// sampleEdge, thermalEdge), where the CPU's interior loops rearrange some
// formulas for speed; the exchange of rock between terrain and water is
// computed, as on the CPU, from what the float32 terrain actually gave
// (GLSL precise), so the rock account closes.
//
// Sums are reproducible: each work group sums its cells' contributions in
// float64 in a fixed tree order into a partial per group, and finish adds
// the partials in a fixed order (never float atomics in arrival order).
// The largest depth, speed and |Δb| and the count of scaled cells are
// unsigned integer atomics (max and + of integers commute exactly), one
// per group. A run on one device is the same run to run.
//
// Tolerance against the CPU engine, and why. Float order differs (the
// per-cell forms above, sums in another order, fused multiply-adds the
// driver may form), so fields differ by float32 rounding: after one or
// two steps every kernel's output agrees with the CPU's to 1e-4 of the
// field's largest value (1e-6 for the terrain), for each edge rule
// (TestKernelsMatchCPU). Over many steps the differences can grow where
// the water chooses between two nearly equal paths, so the acceptance
// test compares the terrains statistically: after 300 steps on the same
// terrain (400 m of relief, 30 m cells, default parameters) the RMS
// height difference must stay within 1 % of the relief and the total
// |Δh| within 5 % (TestTerrainMatchesCPU: measured at 256², on llvmpipe
// and on an NVIDIA H200, an RMS of 1e-5 m, 4e-6 % of the relief, and the
// totals 1e-5 % apart). The budgets are not statistical: the water
// account (Budget) and the rock account (Mass) close on the GPU as on the
// CPU, to float32 rounding of the fields.
//
// The water account's residual is that rounding, not a leak, and the
// same on both devices: rain added to a float32 depth, and each cell's
// own update from the flows in and out, round; it comes to some 7e-7 of
// the rain in, of either sign. On the same input and steps: the default
// preset at 256², 1 000 steps, CPU +4 949 m³ and llvmpipe +4 948 m³ of
// 7.5e9 m³ of rain; at 1024², 500 steps, on an H100 machine, CPU
// +1 492 m³ and the H100 +1 460 m³ of 1.95e9 m³ (the −3 582 m³ an H100
// run of 2 000 steps reported earlier is of this kind). The rock account
// closes as on the CPU: move forms each thermal pipe's soil as the
// float32 product both its cells form (sim/hydro's pipe), sums a cell's
// pipes in float64 with the rounding its terrain could not hold before,
// and carries the new rounding on (trem, which Mass counts), as the CPU
// engine's addExact does: on high terrain a pipe moves less than half a
// float32 step (TestThermalMassBudgetHighTerrain: 1 000 steps at 2 km
// made 428 m³ of rock before, 3e-4 m³ now).
//
// Large grids: where the largest field (the fluxes, 16 bytes a cell)
// exceeds the driver's largest storage buffer (llvmpipe allows 128 MiB,
// 2896² cells; NVIDIA's driver takes 8192² whole), the grid is split into
// bands of whole rows of work groups, each field a buffer per band that
// holds the band's rows and two halo rows of the bands beside it above
// and below (wrapping; a 1-row band takes them from two bands). The
// kernels are compiled with SPLIT: each dispatch covers one band, row()
// maps a row to its place in the band's buffers, and after each kernel
// the halo rows of what it wrote and the next ones read beside a cell
// are copied from the bands that own them (the fluxes and thermal
// outflows after flux, the water and sediment after erode, the terrain
// after move). Two halo rows suffice: the kernels read one row away, and
// the semi-Lagrangian trace is at most a cell long (|v|·Δt ≤ Δx: a
// cell's outflow is capped at its water, so (f_in + f_out)·Δt/Δx² ≤ d1 +
// d2 = 2·d̄), which float32 rounding can carry past a row boundary into
// the second. Bands are group-aligned, so every work group sums the same
// cells and a split grid's results are the unsplit one's bit for bit
// (TestSplitMatchesWhole, with a cap forced down to split a 40×257
// grid into 5 bands). At 8192² on llvmpipe: 9 bands, a step in about a
// minute on two shared cores, 6 GB of memory (TestLarge with
// OROGEN_GPU_LARGE=8192); end to end, `orogen run --size 1024 --out-size
// 8192 --out-hydro-steps 2 --device gpu` finished its amplified terrain
// on llvmpipe (12.5 min wall on the loaded machine, 8.2 GB at the peak).
//
// Geology: with hydro.Config.Geology a sixth kernel, rock, runs before
// flux: each cell's hardness becomes max(R_min, K_d) of the rock exposed
// there, the layer found as geology.Model.LayerOf does (a binary search
// over the undeformed stack's tops, in float64, at the terrain height
// less the cell's displacement from geology.Map) or alluvium where at
// least geology.MinAlluvium lies; move then adds the step's change of
// terrain to the alluvium (sim/hydro's rockHardness and deposit). The
// tops and hardnesses (up to 255 layers) ride in Params; the
// displacement is a float64 field. TestGeologyMatchesCPU holds the
// hardness, alluvium and terrain to the CPU's within float32 rounding.
//
// Limits: a grid too wide for one band of 64 rows within the largest
// storage buffer is refused with an error naming it, as is one that
// exceeds the card's memory (Bytes, 68 bytes a cell). app/compute turns
// each of these into a run on the CPU with one line saying why.
//
// Speed (BenchmarkHydroGPU, default parameters, open edges, driver
// 580.159.04): on an NVIDIA H100 80GB HBM3, 1024² 7 100 steps/s, 4096²
// 511, 8192² 131 (about 1.3 TB/s of the least traffic the kernels imply,
// 152 bytes a cell and step: some 40 % of the card's 3.35 TB/s); on an
// H200, 7 800, 556 and 138 steps/s (1.4 TB/s, some 30 % of its 4.8 TB/s).
// Per step at 4096² on the H100: flux 0.55 ms, erode 0.66, move 0.66,
// finish 0.05. Measured again on an H100 after the bands, the rock kernel
// and the alluvium in move (unsplit grids, no geology): 7 099, 525 and
// 131 steps/s, the kernels' times unchanged.
//
// An Engine is owned by one goroutine, as hydro.Engine is. Step runs one
// step and reads its statistics back (with per-kernel times from timer
// queries, Kernel); Run runs many without reading back between them; the
// accessors (Terrain, Water, ...) read fields back as new slices.
package hydrogpu
