// Package analysis measures what makes a terrain's drainage look natural:
// Hack's law between the length of the longest stream above a point and
// the area it drains (Schott et al. 2022, §5: l = c·a^h with h in [0.45,
// 0.7] and c in [1, 6] for real rivers, l in km, a in km²), and which part
// of the border each cell drains to, whose boundaries are the terrain's
// main divides.
//
// Everything is computed on a heightmap routed by Orogen's own D8 routing
// with lakes through their passes (package flow), so any raster can be
// measured, whichever engine made it.
package analysis
