package delaunay

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// Point is a location in the plane.
type Point struct{ X, Y float64 }

// Triangulation is a Delaunay triangulation of a point set.
type Triangulation struct {
	Points     []Point // the input points (not copied)
	ConvexHull []Point // hull points, counter-clockwise
	Triangles  []int   // 3 point indices per triangle, counter-clockwise
	Halfedges  []int   // halfedge opposite each triangle edge, -1 on the hull
	Hull       []int   // hull point indices, counter-clockwise
}

// Errors returned by Triangulate, wrapped with details; test with errors.Is.
var (
	ErrTooFew     = errors.New("delaunay: fewer than 3 points")
	ErrNonFinite  = errors.New("delaunay: NaN or infinite coordinate")
	ErrDuplicate  = errors.New("delaunay: duplicate points")
	ErrCollinear  = errors.New("delaunay: all points collinear")
	ErrDegenerate = errors.New("delaunay: numerically degenerate input")
)

// Triangulate returns the Delaunay triangulation of points. It returns an
// error, never panics, for fewer than 3 points, NaN or infinite
// coordinates, exactly duplicated points (naming both indices) and input
// whose points are all collinear.
func Triangulate(points []Point) (*Triangulation, error) {
	n := len(points)
	if n < 3 {
		return nil, fmt.Errorf("%w: got %d; remove nothing, supply at least 3", ErrTooFew, n)
	}
	minX, minY := math.Inf(1), math.Inf(1)
	maxX, maxY := math.Inf(-1), math.Inf(-1)
	for i, p := range points {
		if math.IsNaN(p.X) || math.IsNaN(p.Y) || math.IsInf(p.X, 0) || math.IsInf(p.Y, 0) {
			return nil, fmt.Errorf("%w: point %d is (%v, %v); drop or fix it", ErrNonFinite, i, p.X, p.Y)
		}
		minX, maxX = min(minX, p.X), max(maxX, p.X)
		minY, maxY = min(minY, p.Y), max(maxY, p.Y)
	}
	tr := &triangulator{points: points}
	if err := tr.run(Point{minX/2 + maxX/2, minY/2 + maxY/2}); err != nil {
		return nil, err
	}
	t := &Triangulation{
		Points:    points,
		Triangles: tr.triangles,
		Halfedges: tr.halfedges,
	}
	t.Hull = tr.hull
	t.ConvexHull = make([]Point, len(t.Hull))
	for k, i := range t.Hull {
		t.ConvexHull[k] = points[i]
	}
	return t, nil
}

// triangulator holds the working state of the sweep.
type triangulator struct {
	points    []Point
	triangles []int
	halfedges []int

	hullPrev, hullNext, hullTri []int
	hullHash                    []int
	hullStart                   int
	hull                        []int // result, input indices
	center                      Point
	stack                       []int
}

func dist2(a, b Point) float64 {
	dx, dy := a.X-b.X, a.Y-b.Y
	return dx*dx + dy*dy
}

// circumcenter returns the centre of the circle through a, b, c and its
// squared radius; both are non-finite for (near-)collinear points.
func circumcenter(a, b, c Point) (Point, float64) {
	dx, dy := b.X-a.X, b.Y-a.Y
	ex, ey := c.X-a.X, c.Y-a.Y
	bl, cl := dx*dx+dy*dy, ex*ex+ey*ey
	d := 0.5 / (dx*ey - dy*ex)
	x := (ey*bl - dy*cl) * d
	y := (dx*cl - ex*bl) * d
	return Point{a.X + x, a.Y + y}, x*x + y*y
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

func dupError(i, j int, p Point) error {
	if i > j {
		i, j = j, i
	}
	return fmt.Errorf("%w: points %d and %d are both (%v, %v); remove one", ErrDuplicate, i, j, p.X, p.Y)
}

// seed picks the first triangle: the point nearest c, its nearest
// neighbour, and the point making the smallest circumcircle with them.
func (tr *triangulator) seed(c Point) (i0, i1, i2 int, err error) {
	pts := tr.points
	best := math.Inf(1)
	for i, p := range pts {
		if d := dist2(p, c); d < best {
			i0, best = i, d
		}
	}
	p0 := pts[i0]
	i1, best = -1, math.Inf(1)
	for i, p := range pts {
		if i == i0 {
			continue
		}
		if p == p0 {
			return 0, 0, 0, dupError(i0, i, p)
		}
		if d := dist2(p, p0); i1 < 0 || d < best {
			i1, best = i, d
		}
	}
	p1 := pts[i1]
	i2, best = -1, math.Inf(1)
	for i, p := range pts {
		if i == i0 || i == i1 {
			continue
		}
		if _, r := circumcenter(p0, p1, p); finite(r) && r < best && orient(p0, p1, p) != 0 {
			i2, best = i, r
		}
	}
	if i2 < 0 {
		// No finite circumcircle: either collinear or so flat that the
		// float circumcentre overflows. Take any point off the line.
		for i, p := range pts {
			if i != i0 && i != i1 && orient(p0, p1, p) != 0 {
				i2 = i
				break
			}
		}
		if i2 < 0 {
			if err := findDuplicate(pts); err != nil {
				return 0, 0, 0, err
			}
			return 0, 0, 0, fmt.Errorf("%w: %d points on one line; add a point off it", ErrCollinear, len(pts))
		}
	}
	if orient(p0, p1, pts[i2]) < 0 {
		i1, i2 = i2, i1
	}
	return i0, i1, i2, nil
}

type keyed struct {
	d float64
	i int
}

func (tr *triangulator) run(bboxCenter Point) error {
	pts := tr.points
	n := len(pts)
	i0, i1, i2, err := tr.seed(bboxCenter)
	if err != nil {
		return err
	}
	c, r := circumcenter(pts[i0], pts[i1], pts[i2])
	if !finite(c.X) || !finite(c.Y) || !finite(r) {
		c = Point{(pts[i0].X + pts[i1].X + pts[i2].X) / 3, (pts[i0].Y + pts[i1].Y + pts[i2].Y) / 3}
	}
	tr.center = c

	// Sort by distance from the seed circumcentre, ties by coordinates, so
	// that exact duplicates (which have bitwise equal keys) are adjacent.
	order := make([]keyed, n)
	for i, p := range pts {
		order[i] = keyed{dist2(p, c), i}
	}
	slices.SortFunc(order, func(a, b keyed) int {
		if a.d != b.d {
			if a.d < b.d {
				return -1
			}
			return 1
		}
		pa, pb := pts[a.i], pts[b.i]
		if pa.X != pb.X {
			if pa.X < pb.X {
				return -1
			}
			return 1
		}
		if pa.Y != pb.Y {
			if pa.Y < pb.Y {
				return -1
			}
			return 1
		}
		return a.i - b.i
	})
	for k := 1; k < n; k++ {
		if pts[order[k].i] == pts[order[k-1].i] {
			return dupError(order[k-1].i, order[k].i, pts[order[k].i])
		}
	}

	// Work on a copy of the points in sweep order: consecutive insertions
	// then touch nearby memory. perm maps sweep positions to input indices.
	perm := make([]int, n)
	sorted := make([]Point, n)
	s0, s1, s2 := i0, i1, i2
	for k, o := range order {
		perm[k] = o.i
		sorted[k] = pts[o.i]
		switch o.i {
		case s0:
			i0 = k
		case s1:
			i1 = k
		case s2:
			i2 = k
		}
	}
	order = nil
	pts = sorted
	tr.points = sorted

	maxTri := 2*n - 5
	tr.triangles = make([]int, 0, 3*maxTri)
	tr.halfedges = make([]int, 0, 3*maxTri)
	tr.hullPrev = make([]int, n)
	tr.hullNext = make([]int, n)
	tr.hullTri = make([]int, n)
	hashSize := int(math.Ceil(math.Sqrt(float64(n))))
	tr.hullHash = make([]int, hashSize)
	for i := range tr.hullHash {
		tr.hullHash[i] = -1
	}

	tr.hullStart = i0
	tr.hullNext[i0], tr.hullPrev[i2] = i1, i1
	tr.hullNext[i1], tr.hullPrev[i0] = i2, i2
	tr.hullNext[i2], tr.hullPrev[i1] = i0, i0
	tr.hullTri[i0], tr.hullTri[i1], tr.hullTri[i2] = 0, 1, 2
	tr.hashEdge(i0)
	tr.hashEdge(i1)
	tr.hashEdge(i2)
	tr.addTriangle(i0, i1, i2, -1, -1, -1)

	hullNext, hullPrev, hullTri := tr.hullNext, tr.hullPrev, tr.hullTri
	for i := range n {
		if i == i0 || i == i1 || i == i2 {
			continue
		}
		p := pts[i]

		// Find a hull edge visible from p, starting near p's angle.
		start := 0
		key := tr.hashKey(p)
		for j := 0; j < hashSize; j++ {
			start = tr.hullHash[(key+j)%hashSize]
			if start != -1 && start != hullNext[start] {
				break
			}
		}
		start = hullPrev[start]
		e := start
		for {
			q := hullNext[e]
			if orient(p, pts[e], pts[q]) < 0 {
				break
			}
			e = q
			if e == start {
				return fmt.Errorf("%w: point %d (%v, %v) sees no hull edge; perturb the input slightly",
					ErrDegenerate, perm[i], p.X, p.Y)
			}
		}

		// First triangle on the visible edge e→next(e).
		t := tr.addTriangle(e, i, hullNext[e], -1, -1, hullTri[e])
		hullTri[i] = tr.legalize(t + 2)
		hullTri[e] = t

		// Walk forward, adding triangles while edges stay visible.
		nx := hullNext[e]
		for steps := 0; ; steps++ {
			q := hullNext[nx]
			if orient(p, pts[nx], pts[q]) >= 0 {
				break
			}
			if steps > n {
				return tr.walkError(perm[i])
			}
			t = tr.addTriangle(nx, i, q, hullTri[i], -1, hullTri[nx])
			hullTri[i] = tr.legalize(t + 2)
			hullNext[nx] = nx // removed from the hull
			nx = q
		}
		// Walk backward from the other side.
		if e == start {
			for steps := 0; ; steps++ {
				q := hullPrev[e]
				if orient(p, pts[q], pts[e]) >= 0 {
					break
				}
				if steps > n {
					return tr.walkError(perm[i])
				}
				t = tr.addTriangle(q, i, e, -1, hullTri[e], hullTri[q])
				tr.legalize(t + 2)
				hullTri[q] = t
				hullNext[e] = e
				e = q
			}
		}

		tr.hullStart = e
		hullPrev[i] = e
		hullNext[e] = i
		hullPrev[nx] = i
		hullNext[i] = nx
		tr.hashEdge(i)
		tr.hashEdge(e)
	}

	// Back to input indices.
	for j, v := range tr.triangles {
		tr.triangles[j] = perm[v]
	}
	tr.points = tr.points[:0:0]
	e := tr.hullStart
	for {
		tr.hull = append(tr.hull, perm[e])
		e = hullNext[e]
		if e == tr.hullStart {
			break
		}
	}
	return nil
}

// walkError reports a hull walk that did not end; with exact predicates
// this cannot happen, the guard keeps a bug from hanging the caller.
func (tr *triangulator) walkError(i int) error {
	return fmt.Errorf("%w: hull walk for point %d did not end; report this input", ErrDegenerate, i)
}

// pseudoAngle maps a direction to [0, 1), monotone in the angle.
func pseudoAngle(dx, dy float64) float64 {
	p := dx / (math.Abs(dx) + math.Abs(dy))
	if dy > 0 {
		return (3 - p) / 4
	}
	return (1 + p) / 4
}

func (tr *triangulator) hashKey(p Point) int {
	n := len(tr.hullHash)
	// The angle runs clockwise (y mirrored) because the hull runs
	// counter-clockwise: the slot found is just past p, one step back
	// along the hull is before it, and the forward walk is short.
	a := pseudoAngle(p.X-tr.center.X, tr.center.Y-p.Y)
	if !(a >= 0 && a <= 1) {
		return 0
	}
	k := int(a * float64(n))
	if k >= n {
		k = n - 1
	}
	return k
}

func (tr *triangulator) hashEdge(i int) { tr.hullHash[tr.hashKey(tr.points[i])] = i }

func (tr *triangulator) link(a, b int) {
	tr.halfedges[a] = b
	if b != -1 {
		tr.halfedges[b] = a
	}
}

// addTriangle appends triangle (i0, i1, i2) whose edges are opposite to
// halfedges a, b, c and returns its first halfedge.
func (tr *triangulator) addTriangle(i0, i1, i2, a, b, c int) int {
	t := len(tr.triangles)
	tr.triangles = append(tr.triangles, i0, i1, i2)
	tr.halfedges = append(tr.halfedges, -1, -1, -1)
	tr.link(t, a)
	tr.link(t+1, b)
	tr.link(t+2, c)
	return t
}

// legalize restores the Delaunay property around halfedge a by flipping
// edges, with an explicit stack instead of recursion. A flip happens only
// when the opposite point lies strictly inside the circumcircle, so every
// flip strictly lowers a lexicographic measure of the circumcircles and
// the loop ends even on cocircular input. It returns the halfedge that
// leaves the new point along the hull (see the sweep).
func (tr *triangulator) legalize(a int) int {
	pts, tri, half := tr.points, tr.triangles, tr.halfedges
	stack := tr.stack[:0]
	ar := 0
	for {
		b := half[a]
		a0 := a - a%3
		ar = a0 + (a+2)%3
		if b == -1 {
			if len(stack) == 0 {
				break
			}
			a = stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			continue
		}
		b0 := b - b%3
		al := a0 + (a+1)%3
		bl := b0 + (b+2)%3
		p0, pr, pl, p1 := tri[ar], tri[a], tri[al], tri[bl]
		if inCircle(pts[p0], pts[pr], pts[pl], pts[p1]) > 0 {
			tri[a] = p1
			tri[b] = p0
			hbl := half[bl]
			if hbl == -1 {
				// The flipped edge was on the hull; repoint its hull entry.
				// hullStart may have left the hull during this insertion,
				// so the walk is bounded by the point count, not by
				// returning to its start.
				e := tr.hullStart
				for range len(tr.hullPrev) {
					if tr.hullTri[e] == bl {
						tr.hullTri[e] = a
						break
					}
					e = tr.hullPrev[e]
				}
			}
			tr.link(a, hbl)
			tr.link(b, half[ar])
			tr.link(ar, bl)
			stack = append(stack, b0+(b+1)%3)
		} else {
			if len(stack) == 0 {
				break
			}
			a = stack[len(stack)-1]
			stack = stack[:len(stack)-1]
		}
	}
	tr.stack = stack
	return ar
}

// findDuplicate returns an error naming the first pair of equal points in
// coordinate order, or nil. The sweep finds duplicates on its own; this
// serves the collinear case, which stops before the sweep.
func findDuplicate(pts []Point) error {
	idx := make([]int, len(pts))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int {
		pa, pb := pts[a], pts[b]
		switch {
		case pa.X < pb.X:
			return -1
		case pa.X > pb.X:
			return 1
		case pa.Y < pb.Y:
			return -1
		case pa.Y > pb.Y:
			return 1
		}
		return a - b
	})
	for k := 1; k < len(idx); k++ {
		if pts[idx[k]] == pts[idx[k-1]] {
			return dupError(idx[k-1], idx[k], pts[idx[k]])
		}
	}
	return nil
}
