// Package invert computes the uplift that makes a heightmap a steady state
// of Orogen's grid engine (package grid): uplift from a DEM (Schott et al.
// 2022, §1 and §4: authoring in the uplift domain from real terrain).
//
// Equation. The grid engine steps dh/dt = u - k A^m s^n + κ∇²h; at steady
// state u = k A^m s^n - κ∇²h. Invert evaluates this on the heightmap with
// the engine's own discrete operators, so that the heightmap is a fixed
// point of grid.Engine.Step, not only of the continuous equation:
//
//   - hillslope (κ > 0): the engine diffuses first, implicitly over dt
//     (package hillslope); the term is (h - h')/dt with h' the heightmap
//     after that diffusion, and routing below is done on h', as the
//     engine's step does;
//   - routing: package flow's D8 receivers, lakes connected through their
//     passes (Cordonnier et al. 2016, §4.3), drainage area with the cell
//     area as rain, the receiver distances of the drainage order: exactly
//     what the engine computes on its first step from these heights;
//   - stream power: u = k A^m spow(s, n), s = (h - h_r)/d along the
//     receiver, spow(s, n) = sign(s)|s|^n. The engine's implicit solve
//     (Cordonnier et al. 2016, eq. 2) keeps h unchanged exactly when this
//     holds (see spl.Erode).
//
// Treatment of special cells:
//
//   - Flats (s = 0, common in integer-metre DEMs): u = 0 (minus the
//     hillslope term). This is exact: a cell level with its receiver and
//     no uplift does not move. Quantized gentle slopes alternate between
//     s = 0 and one metre per cell; Options.Smooth evens them out.
//   - Lakes (cells routed uphill through their pass, s < 0, and pits):
//     with LakesKeep (the default) the signed value is kept: negative
//     uplift under a lake holds its floor, and the DEM is an exact fixed
//     point, lakes included. With LakesFill u = max(0, ...): uplift stays
//     non-negative and the lakes fill to their pass over a run. Beware
//     that filling is a perturbation: it moves receivers and drainage
//     areas, and on a DEM whose slopes sit near the talus angle the
//     changes cascade upstream (measured on the tests' 90 m DEM: lakes at
//     most 27 m deep, yet 100 steps move ridges by hundreds of metres).
//   - Edges: cells of Outlet edges are base level and never move; the
//     engine ignores their uplift. Invert gives them the uplift of the
//     nearest interior cell so that the raster reads on as a layer and
//     smoothing is not pulled towards zero. Cells of Natural edges drain
//     to the virtual node at height 0 and distance D like in the engine.
//     Closed edges route like interior cells.
//   - Talus (Cordonnier et al. 2016, §5): the engine lowers every cell
//     steeper than the talus angle along its receiver, whatever the
//     uplift, and lowering a cell steepens its donors, so one such cell
//     would drag its whole upstream basin down over a run. Invert first
//     cuts those cells to the angle with the engine's own limiter along
//     the routing, routes again, and repeats until nothing is cut
//     (Result.Steep counts the cells of the first cut, Result.Held is the
//     cut heightmap); the uplift holds the cut heightmap exactly.
//
// Smoothing (Options.Smooth = R > 0): a box filter of (2R+1)² cells, edges
// renormalized, on the uplift. It trades the exact fixed point for an
// uplift without the DEM's cell-scale noise, easier to paint over.
//
// Fit. The exact uplift holds the DEM still but, grown from a flat start,
// lets the engine organize a network of its own (on the tests' DEM the
// terrain then correlates with the DEM at r ≈ 0.5 only). Fit corrects the
// uplift by the ratio of target to grown heights between runs from the
// flat start and returns the best (r = 0.87 on that DEM); see Fit.
//
// Bounds: the engine refuses |u| > 1 m/yr; Invert returns an error naming
// the cell and the remedy (a smaller k) instead.
//
// Results are bit-identical for any GOMAXPROCS: routing is package flow's,
// and every loop writes disjoint cells.
package invert
