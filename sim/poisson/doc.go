// Package poisson is Poisson-disc sampling of a rectangular domain for the
// stream-graph engine (issue 6): the nodes of the stream graph are a point
// set in which no two points are closer than a chosen distance r, with
// outlet points along the domain edges.
//
// Units: lengths (w, h, r, point coordinates) are metres; the domain is
// [0,w]×[0,h] with the origin at a corner, x along w and y along h.
//
// Bridson follows R. Bridson, "Fast Poisson disk sampling in arbitrary
// dimensions", SIGGRAPH 2007 sketches: a background grid of square cells of
// side r/√2 (at most one point per cell) answers "is any point closer than
// r?" by looking at the 21 cells within two cells of the candidate (the
// four (±2, ±2) corner cells are at least r away), and an active list
// grows the sample from its front, trying K = 30 candidates in the annulus
// [r, 2r] around a randomly chosen active point before retiring it. The
// candidates are stratified in angle (equally spaced from a random start)
// with a radius uniform in area; this packs slightly tighter than purely
// random candidates (Density ≈ 0.650 points per r² against about 0.627)
// and leaves no direction unprobed when a point retires.
//
// Border: before the interior is sampled, each edge of length L gets
// ⌊L/r⌋ + 1 equally spaced points, corners included, at spacing
// L/⌊L/r⌋ ∈ [r, 2r) (exactly r when r divides L; rounding of L·i/n may make
// a spacing a few ulps shorter than r). These are flagged in
// Sample.Border: they are the base-level outlets. Interior points keep
// distance ≥ r from them like from any other point.
//
// Guarantees: no two points are closer than r (interior points are tested
// with exact squared distances; only the border spacing carries rounding);
// every retired point had K candidates rejected, so in practice every
// location of the domain is within 2r of a point (the tests probe this).
//
// Progressive refinement (§6.3): Refine keeps the points of a sample, in
// order, as the first points of a denser sample at a smaller distance r2,
// so heights stored per point carry over by index. Border gaps are split
// at spacing r2, then every point is active again.
//
// Determinism: the only random source is math/rand/v2's PCG seeded from
// the seed argument (never the global source); the same arguments give the
// same points, in the same order, on every run and for any GOMAXPROCS on a
// given architecture (across architectures the compiler's fused
// multiply-add on arm64, ppc64 and s390x may round differently). Nothing runs concurrently; a Sample is plain data
// owned by the caller and never modified by this package.
//
// Errors: bad user parameters (non-finite or non-positive lengths, r larger
// than a side, more than MaxPoints expected points, a sample that does not
// fit the domain or is denser than r2) return an error naming the remedy;
// a Sample whose Border and Points lengths differ is a programming error
// and panics.
package poisson
