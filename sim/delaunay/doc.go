// Package delaunay computes Delaunay triangulations of planar point sets
// with the sweep-hull scheme (S-hull, as popularised by Delaunator) on
// exact geometric predicates. Its types follow fogleman/delaunay
// (Triangulation with Triangles, Halfedges, ConvexHull), so callers can
// swap one for the other; Hull adds the hull as point indices.
//
// # Conventions
//
// Coordinates are y up: a counter-clockwise turn has a positive
// orientation determinant. (In screen coordinates, y down, the same
// triangles appear clockwise.)
//
//   - Triangles holds 3 point indices per triangle, counter-clockwise.
//     Triangle t has halfedges 3t, 3t+1, 3t+2; halfedge e goes from point
//     Triangles[e] to point Triangles[next(e)] and belongs to triangle e/3,
//     where next(e) is e-2 if e%3 == 2 and e+1 otherwise.
//   - Halfedges[e] is the opposite halfedge in the neighbouring triangle,
//     or -1 if e lies on the convex hull. Halfedges[Halfedges[e]] == e.
//   - Hull lists the hull point indices counter-clockwise; ConvexHull the
//     same points. Points lying exactly on a hull edge are hull points, so
//     with n points and h hull points there are 2n-2-h triangles and
//     3n-3-h edges.
//   - Points is the caller's slice, not a copy; do not modify it while the
//     Triangulation is in use.
//
// Output is deterministic: the same input gives the same slices, bit for
// bit (no map iteration, no goroutines; ties in the sweep order are broken
// by coordinates, then index).
//
// # Errors
//
// Triangulate returns an error, never panics, on input from outside:
// fewer than 3 points (ErrTooFew), NaN or infinite coordinates
// (ErrNonFinite), two exactly equal points (ErrDuplicate, naming both
// indices) and all points on one line (ErrCollinear). ErrDegenerate is
// reserved for a sweep step that cannot proceed (see Robustness); the tests
// and fuzzing have not produced it.
//
// # Algorithm
//
// The seed triangle is the point nearest the bounding-box centre, its
// nearest neighbour, and the third point giving the smallest circumcircle.
// The remaining points are sorted by squared distance to the seed
// circumcentre (ties by coordinates, which also puts exact duplicates next
// to each other, where they are detected) and copied in that order for
// memory locality. Each point is joined to the hull edges it sees; a hash
// of hull points by pseudo-angle around the centre finds a visible edge in
// expected O(1). Each new triangle is legalised by Lawson edge flips
// driven by an explicit stack.
//
// # Robustness
//
// Only two predicates decide the combinatorics: orient (sign of the 2×2
// orientation determinant) and inCircle (sign of the 3×3 lifted
// determinant). Both are evaluated in float64 first and trusted only when
// |det| exceeds Shewchuk's a-priori error bound (Shewchuk 1997, "Adaptive
// Precision Floating-Point Arithmetic and Fast Robust Geometric
// Predicates", bounds ccwerrboundA = (3+16ε)ε times |detleft|+|detright|
// and iccerrboundA = (10+96ε)ε times the permanent, ε = 2^-53). Those
// bounds assume no underflow: the fast result is also refused when a
// nonzero coordinate difference is so small (below 2^-510 for orient,
// 2^-255 for inCircle) that a product could become subnormal; overflow
// makes the bound Inf or NaN and also falls through. A refused fast result
// is replaced by the determinant evaluated exactly with math/big.Float at 8600 bits, which
// holds every intermediate of degree ≤ 4 in float64 differences without
// rounding. Signs are therefore exact for all finite input.
//
// A flip happens only when the opposite point lies strictly inside the
// circumcircle. Such a flip strictly lowers the lifted surface (the
// piecewise-linear interpolant of x²+y² over the triangulation) on the
// flipped quadrilateral and leaves it elsewhere, so no triangulation
// recurs and flipping ends, even on heavily
// cocircular input such as integer grids, where ties are left unflipped
// (any triangulation of a cocircular polygon is Delaunay). A point is
// joined only to hull edges it strictly sees by exact orient, so no
// triangle is ever degenerate. The sweep order makes each new point lie
// outside the current hull (it is at least as far from the centre as every
// earlier point; the seed vertices, inserted first, are the exception, and
// choosing the smallest seed circumcircle makes a point inside the seed
// triangle unlikely); that argument rests on floating-point distances, so a
// point could in principle be found inside the hull, and Triangulate then
// returns ErrDegenerate rather than a wrong answer. The circumcentre, the
// distances and the hash are plain floating point: they steer the order
// and the search, never a topological decision.
//
// # Complexity
//
// O(n log n) for the sort plus expected O(n) for the sweep on
// well-distributed input (O(n²) flips are possible only on contrived sets).
// Memory is about 100 bytes per point. The exact path costs microseconds
// per call and is taken only on (nearly) degenerate configurations.
// Uniform random points: 1M in about 1.0 s on one core (see
// BenchmarkTriangulate).
package delaunay
