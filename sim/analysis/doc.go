// Package analysis measures what makes a terrain's drainage look natural,
// on any heightmap, whichever engine made it or whether it is a real DEM:
//
//   - Hack's law between the length of the longest flow path above a cell
//     and the area it drains (Schott et al. 2022, §5: l = c·a^h with h in
//     [0.45, 0.7] and c in [1, 6] for real rivers, l in km, a in km²);
//   - the slope–area relation S = k_s·A^(−θ) of the river cells, whose
//     exponent is −m/n at the steady state of the stream power law
//     (Whipple and Tucker 1999), with medians in bins of area;
//   - drainage consistency: pits, the fraction of cells whose water leaves
//     the map, outlets, the largest basins;
//   - relief, the hypsometric integral (Pike and Wilson 1971), the mean
//     slope and the drainage density;
//   - which part of the border each cell drains to, whose boundaries are
//     the terrain's main divides (Sides);
//   - realism (MeasureRealism, realism.go): the slope histogram and its
//     threshold spike at the talus angle, the planar share (PlanarTol: a
//     sloping cell is planar when |∇²h|·Δx ≤ 0.02·|∇h|, its slope changes
//     by at most 2 % across one cell, whatever the cell size), hilltop
//     convexity, the gradient-aspect anisotropy (the grid's eight
//     directions against the mean), and the concavity θ of the channels
//     (ChiConcavityOf, chi.go): the χ method of Perron and Royden 2013
//     basin by basin (Mudd et al. 2018), each basin's θ the one that puts
//     its tributaries on its trunk in χ–elevation space, the landscape's
//     the median over basins, so that uplift or erodibility differing
//     between basins does not move it (slope against area over every
//     channel at once, ChannelConcavity, is kept beside it). The
//     base-level plain (BaseLevel: the lowest flat land reaching an open
//     edge, the sea or the outlets' level) is where rivers end (CutTree),
//     never a lake to route across, nor pits;
//   - a verdict (verdict.go): natural when every criterion is inside its
//     range, each Criterion naming its source: threshold spike ≤ 3, planar
//     share ≤ 3 %, anisotropy ≤ 1.1 and pits ≤ 5 % of the cells, measured
//     on the two real 90 m DEMs of app/cli/testdata (Jacksboro 1.14, 2.1 %,
//     1.03, 1.3 %; Big Tujunga 1.22, 1.6 %, 1.04, 0.3 %); Hack h and c
//     (Hack 1957; Schott et al. 2022); the χ method's θ in [0.35, 0.65]
//     (Whipple and Tucker 1999; Wobus et al. 2006).
//
// The slope-based measures need heights that resolve a fraction of a
// degree: whole metres over 30 m cells step by about 2° (the Big Tujunga
// DEM is averaged to 90 m for that reason), over 90 m cells by about 0.6°.
//
// Analyze routes a heightmap with Orogen's own D8 routing and lakes through
// their passes (package flow), or fills its depressions first (Fill, by sim/pitfill:
// Barnes et al. 2014). The measures work on a Tree (receivers, distances,
// a receiver-first order, node areas), which TreeOf takes from a routed
// grid and tests build by hand. Lengths are metres and areas m² except
// where a name says km or km²; sums over cells are float64. Regressions are
// gonum's stat.LinearRegression on log10 values.
//
// Bad input from outside (too small a map, no cell size, cells without a
// height, a flat map, a map with no drainage) is an error naming the
// problem; a Tree whose slices disagree in length is a programming error
// and panics. Nothing here keeps state between calls: every function may
// run on any goroutine.
package analysis
