// Package amplify turns a settled coarse terrain into one at 2, 4 or 8
// times its resolution whose detail follows the drainage: river beds sized
// by drainage area, ridges and hillslopes with flow-aligned detail, lakes
// flat at their level, strata at the fine resolution (Cordonnier et al.
// 2016, §6.2: the stream graph as landform primitives — ridges, valleys,
// river beds — parameterized by what the graph knows, then amplified).
//
// # Grids and units
//
// The input is an engine.Snapshot (W×H cells of Cell metres, heights in
// metres, drainage area in m², D8 receivers routed through lakes, lake
// depth in Water); the output a Result of F·W × F·H cells of Cell/F
// metres covering the same extent: fine cell (x, y) has its centre at
// ((x + ½)/F − ½, (y + ½)/F − ½) in coarse cells (coarse centres at
// integers). Slices are row-major, index y·W + x.
//
// # What is built, in order
//
//  1. Base surface. A Catmull-Rom cubic (separable, border repeated)
//     through control heights c, sampled at displaced points x − D(x)
//     (warp.go): D is gradient noise of wavelength 6 coarse cells mapped
//     to about uniform within ±0.42 coarse cells at F = 8, ±0.378 at F = 4
//     and none at F = 2 (warpAmp says why), tabulated at the coarse centres and
//     interpolated by the same cubic, 0 within 2 cells of the map's edges
//     and of lakes. A grid terrain has its crests and thalwegs at the
//     coarse centres and any interpolation of it keeps them there, so the
//     fine surface is steepest across the coarse cells' edges: the coarse
//     grid shows (Imprint, the mean |Δh| across the edges over that
//     inside, 1.19 to 1.32 for the undisplaced cubic alone on the default
//     preset at 256², against 1 for a terrain without a grid); displaced,
//     a crest lies anywhere in its cell. The controls are chosen so that
//     the displaced surface averaged over every coarse cell is the coarse
//     height: A_w·c = Height, A_w a 7×7 stencil per coarse cell
//     (warpsolve.go), by 4 fixed-point sweeps; the exact solution would
//     amplify knife-edge crests and valleys by 1/cos(π·D), and the
//     corrections of steps 5 and 6 keep the means instead. Without the
//     displacement (Options.Warp < 0) A is the 5-tap cell average of the
//     cubic per axis, solved to 10⁻⁶ of the relief (solveControl). Exact
//     means cost some sharpening: the cubic undershoots beside steep steps
//     (the fine surface along an outlet edge dips below base level; before
//     the drainage pass, dry cells below the coarse terrain's lowest
//     height are raised to it, floorAtBase, so nothing ends below base
//     level).
//  2. Hillslope detail. Per octave (wavelengths across the flow of F, F/2,
//     ... 2 fine cells: the scales the coarse grid cannot hold), |n| − E|n|
//     of gradient noise n (sim/noise) sampled 4 times longer along the flow
//     than across it: V-shaped ravines running down the slope with rounded
//     spurs between, not isotropic fBm. Each of the four nearest coarse
//     cells contributes its own pattern (its flow direction from central
//     differences of the heights, its own hashed offset), blended
//     bilinearly with the variance kept. Octave λ has amplitude
//     0.35·g·λ·(Cell/F), g = Detail·min(S, max(√(tan²θ − S²), 0.35·S)),
//     S the coarse slope, θ the snapshot's talus angle (its smallest
//     where the model varies; 45° when it is off): no detail on flats and
//     floodplains (S → 0) nor in lakes; on slopes below the talus angle
//     the ravines' sides (across the flow) keep the total slope √(S² + g²)
//     within tan θ; slopes already at the talus angle get ravines 0.35·S
//     deep. Detail 1 makes the power below the coarse cell match a real
//     DEM's (the test's measure, Roughness). The detail's mean over each
//     coarse cell is then given back (step 5).
//  3. River beds. Every coarse cell draining at least RiverArea (default
//     RiverCells(F) coarse cells) that lies in a valley (below the mean of
//     its two neighbours across the flow by a tenth of its drop), or
//     drains 8 times RiverArea, and every cell below such a cell, has a
//     segment to its receiver (the parallel flow lines of a planar
//     hillslope are no rivers; a river runs on to its outlet): a
//     cardinal spline (tension ½) through the centres of its main donor,
//     itself, its receiver and the receiver's receiver, wandering sideways
//     by seeded sin² bumps (a fifth of a coarse cell on beds under 1 %,
//     a twentieth on beds over 5 %; Meander scales it), its points moved
//     where the displaced base shows them (the image of x − D(x)). Hydraulic geometry
//     (Leopold and Maddock 1953): width = WidthCoef·(A/1 km²)^WidthExp,
//     depth = DepthCoef·(A/1 km²)^DepthExp; defaults 8 m·A^0.5 and
//     0.8 m·A^0.4, the half width at least 0.55 fine cells so the bed is
//     one 8-connected chain and at most half a coarse cell (a wider
//     channel is the coarse grid's to hold; carved wider it would take a
//     higher neighbouring cell, a talus slope above the river, down to
//     the bed whole, and that cell's mean with it). The bed's top at a
//     cell aims at the base surface at its centre as the fine grid holds
//     it (the mean of the four central fine cells: a valley floor below
//     the cell's mean), moved towards h + d̄ by the share φ = min(1,
//     2·hw/F) of the cell's width the bed covers (h the coarse height, d̄
//     the bed's mean depth across): a bed that covers its cell keeps the
//     mean by itself. A lake's top is its level. The tops are made to
//     never rise downstream by the mean of two envelopes that never do:
//     the lower (each top lowered to its donors', sources first) and the
//     upper (each raised to its receiver's, outlets first); lowering
//     alone drags a whole river down to the deepest dip upstream. With
//     the displaced base, a river cell's target top is read on the line
//     across its flow through its centre's image (troughAcross): at F = 4
//     the mean of the displaced base 0.25 cells either side, the bed's
//     banks, so that the bed takes its volume from the trough it lies in;
//     at F = 8 (and under StrictTalus) the lowest displaced base within
//     0.6 cells. Along a segment the top follows the displaced base at its
//     banks (the mean of the two points its half width across), clamped
//     between the two node tops: the linear fall is moved by sin(πt)
//     towards the mean of two envelopes of it that never rise (as the
//     node tops are), then made never to rise (followTops; linear under
//     StrictTalus, where following would make a bed steeper than the
//     limit in places, and without the displacement). Laid linearly, a
//     bed cuts steps into its banks where the base's trough floor wanders
//     off the line; on the displaced base those steps had the power below
//     the coarse cell at 4.1 times a real DEM's on the default preset at
//     128² ×4, 1.24 laid this way (1.53 undisplaced). At F = 4 the dry
//     cells within 3 fine cells of such a bed's banks are moved by its
//     offset from the base (its top less the displaced base under its
//     axis), fading by a smoothstep to nothing (bankBlend): the banks meet
//     the bed without a step. The depth grows linearly, so
//     the bed bottom falls monotonically from source to outlet and is
//     continuous at every node. The cells
//     within half a fine cell of the axis take the full depth, the rest of
//     the bed a parabola up to the banks; bed cells are set to the lowest
//     bed over them (not merely lowered: the bed is a surface of its own),
//     but for lake cells, where beds only ever lower the floor. A bend may
//     cut into a hillslope cell beside the river by its axis only.
//  4. Lakes. Fine cells of a coarse lake cell, and of a dry cell beside
//     one whose bed top is at or above the level or which drains into
//     the lake (a shore, not the way out), hold water to the lake's
//     level: Water = level − height, flat. Detail is faded out over lake
//     cells.
//  5. Cell means. The detail's and the beds' volume is given back: the
//     bilinear interpolation of values μ per coarse cell is subtracted,
//     μ solved (six over-relaxed Jacobi sweeps) so that every coarse
//     cell's fine mean is its height again; for the beds, only the dry
//     hillslope cells move (bed and lake cells keep their fall and
//     level); a cell with under a quarter of its fine cells free is
//     left to its bed's top (step 3) to keep its mean. Tests: the means are
//     within 1 % of the relief. Measured worst cell (of the relief) on
//     the default preset settled, ×2/×4/×8: 128² 0.57/0.21/0.39 %, 256²
//     0.55/0.32/0.40 %, 512² 0.27/0.30/0.40 %, 1024² 0.14/0.21/0.26 %
//     (TestAmplifyMeansLarge in app/run); 0.31 to 0.51 % on the test
//     terrains. These figures are the undisplaced base's, which ×2 keeps;
//     with the displacement (the default at ×4 and ×8) ×4/×8: 128²
//     0.47/0.41 %, 256² 0.39/0.59 %, 512² 0.57/0.91 %, 0.41 to 0.72 % on
//     the 64² test terrain, and the imprint 1.08/1.05 at 128², 1.07/1.04
//     at 256², 1.06/1.03 at 512², 1.12/1.08 on the test terrain
//     (TestNoImprint; undisplaced 1.23/1.22 at 256², 1.45/1.37 on the
//     test terrain; ×2 1.31 at 256²). The worst at ×2 are confluences whose four fine cells are
//     all bed, the tributaries' ends above the cell's own top. Beds as wide as a coarse cell are where it is tightest:
//     the 200 m test terrain with WidthCoef 40 m (rivers capped at a
//     cell's width in most valleys) reaches 1.1 to 1.5 % at ×4 and ×8,
//     where the cubic's valley floor dips far below a bent valley's mean.
//
// The talus angle holds for the detail, not for every fine cell: where a
// talus-limited coarse terrain turns (a ridge, a valley), fine slopes
// beyond the angle are what keeps the coarse cell's mean (a Λ of two
// talus slopes averages below its crest), and the base surface has them.
// On the default preset settled, the share of fine cells whose steepest
// descent exceeds tan θ is 31–34 % at 128², 50–57 % at 512² and 61–65 %
// at 1024² (×2 to ×8; 19–26 %, 24–36 %, 29–40 % by more than a tenth),
// against 0.8–1.8 % of the coarse cells (none by 2 %): the coarser the
// simulation's cells, the more of its terrain sits at the talus limit;
// the ravines add under 1 % (TestDetailRespectsTalus). The conflict is
// real: a Λ at the talus angle averages tan θ·Cell/4 below its crest, so
// no surface under the limit keeps a talus-limited crest cell's mean.
// Options.StrictTalus chooses the limit: after the drainage pass,
// alternating raster sweeps (a chamfer distance transform) lower every
// dry cell off the beds to h_j + tan θ·d_ij of its lowest-reaching
// neighbour j (a lake at its level), the greatest heights under the
// limit; it only lowers, and a lowered cell ends above a neighbour, so no
// pit appears. The means then move (TestStrictTalus), worst cell of the
// relief at ×2/×4/×8 on the default preset: 4.8/5.4/6.1 % at 128²,
// 1.3/1.6/1.8 % at 512², 0.82/0.88/0.95 % at 1024² (1.0/1.9/2.0 %
// before the beds kept the means, step 3), so the default keeps the
// means. Giving the lost volume back does not help: raising dry cells
// into their room under the limit (to min_j(h_j + tan θ·d_ij), which
// keeps every pair under it), water-filled per coarse cell up to its
// deficit and alternated with the clamp, gains under 0.03 % of the
// relief on average and nothing at the worst cells; bed tops at the
// coarse height (the cone of talus slopes anchored at the coarse valley
// heights) change them by under 0.2 %. The clamped surface is already
// the greatest under the limit above the beds, and the worst cells are
// spurs the coarse grid holds at the limit between valleys on three
// sides, whose fine beds pass a fine cell or two from their centre.
//  6. Drainage. Every pit (a dry cell with no strictly lower neighbour, on
//     no edge water leaves by) is drained, in index order, by a hybrid of
//     breaching and filling (Lindsay 2016): a Priority-Flood from the pit
//     finds its spill and the lower cell beyond (or a lake, or an open
//     edge), the path the flood took to the spill is cut down to the
//     higher of the pit and that outlet (river beds are never cut), and
//     the depression is flooded again from the outlet with Barnes et al.
//     2014's +ε. Lake cells are sinks, never changed. Should pits remain
//     after 8 such passes (nested depressions a float32 step apart, as a
//     hydraulic pass's deposits leave), one Priority-Flood+ε over the
//     region (sim/pitfill) finishes. The displaced base's troughs off the
//     beds are depressions this pass fills (up to 42 m in a cell of the
//     test terrain, displaced at ×2): rounds of (the step-5 correction of the dry
//     hillslopes, but for the cells the pass raised or cut; floorAtBase;
//     this pass again) give the cells their means back, one round
//     (warpRounds). Afterwards every dry
//     fine cell has a strictly lower neighbour or lies on an open edge:
//     Orogen's routing (sim/flow) finds no lake but the simulated ones.
//  7. Geology. With s.Geology, Rock is the layer the model has at each fine
//     cell's centre and height (geology.Map's rule), or alluvium where the
//     snapshot's alluvium, interpolated bilinearly, is at least
//     geology.MinAlluvium thick.
//
// # The hydraulic pass
//
// With HydroSteps > 0, after step 6 sim/hydro (Jákó and Tóth 2011) runs
// that many steps on the fine heights (its default parameters for the
// fine cell, the snapshot's talus angle when constant, open edges, uniform
// hardness; lake cells keep their floor), then the cell means are given
// back to the dry hillslopes and step 6 runs again. What it adds,
// measured by TestHydroSteps (100 steps at ×4 on a 64² settled terrain):
// heights move 2.9 m on average and up to 75 m (gullies cut, valley
// floors filled), the roughness below the coarse cell falls by about 40 %
// (thermal erosion and deposits smooth more than rain cuts in so few
// steps), and the cell means drift to 2.6 % of the relief. It is a
// finishing pass for close-ups, off by default; it takes at most 4096²
// fine cells (sim/hydro keeps some twenty fields a cell).
//
// # Window
//
// Window amplifies a block of coarse cells. Steps 1 to 4 are functions of
// the fine cell and of the whole coarse snapshot (control heights, bed
// tops and segments are computed over the whole map every call), so they
// are the same in a window; steps 5 and 6 (and the hydraulic pass) read a
// margin of 16 coarse cells around it (the two corrections reach 12
// cells; the drainage pass treats the margin's outer border as open;
// water in the hydraulic pass moves a third of a fine cell per step). A window therefore matches
// Amplify's cells bit for bit unless a fine depression spans more than
// the margin, which TestWindowMatches checks on a settled terrain with a
// lake.
//
// # Determinism and concurrency
//
// Loops run on sim/parallel in fixed blocks of rows, each writing only its
// own rows; the drainage pass is serial in index order: the same snapshot,
// options and seed give bit-identical results for any GOMAXPROCS. Amplify
// and Window only read the snapshot and may run on any goroutine; a
// cancelled context stops them with its error.
//
// # Bad input
//
// A nil or empty snapshot, slices of the wrong length, non-finite
// heights, areas or water, receivers outside the map or in a cycle, a
// factor other than 2, 4 or 8, options out of range, and a window not
// inside the map are errors naming the problem, never panics.
//
// # Memory and time
//
// The fine heights, river depths and water are three float32 fields; the
// drainage pass adds a stamp and a parent per fine cell (8 bytes), and
// with the displaced base a mark of the cells its first pass changed (1
// byte); the displaced solve holds a 7×7 stencil per coarse cell. At
// 8192² that was about 2.4 GB allocated in all before the displacement
// (BenchmarkAmplify); it allocates about 1.2 times as much (4096² from
// the default preset at 512²: 732 MB against 600 MB). Without it a 1024²
// terrain amplified to 4096² in about 4 s and to 8192² in 14 to 17 s on
// two cores, and `orogen run --out-size 8192` peaked at 1.9 GB resident;
// the displacement costs about 1.15 times the process CPU (the default
// preset settled, three runs alternated on a loaded 2-core machine: 512²
// ×4 3.7 to 5.4 s, median 4.4, against 3.8 to 4.8 s, median 3.9; ×8
// 17.8 to 20.5 s, median 18.9, against 14.9 to 16.9 s, median 16.8); ×2
// is not displaced and costs what it did. After the first local pass, the
// drainage pass looks for pits only among the cells the fills changed
// and their neighbours (a cell becomes a pit only when it or a neighbour
// is raised), not over the whole region again.
package amplify
