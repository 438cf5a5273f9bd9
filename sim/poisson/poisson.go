package poisson

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
)

// Point is a position in the domain, in metres.
type Point struct{ X, Y float64 }

// Sample is a Poisson-disc point set.
type Sample struct {
	Points []Point
	// Border is parallel to Points: true for the points placed along the
	// domain edges (the base-level outlets of the stream graph).
	Border []bool
}

// K is the number of candidates tried around an active point before it is
// retired (Bridson's k).
const K = 30

// MaxPoints is the largest number of points (as estimated by Count) that
// Bridson and Refine accept.
const MaxPoints = 20_000_000

// Density is the measured number of points per r² of area: Count uses it.
// It was measured on 100 km × 100 km at r = 500 m over 8 seeds (mean
// 0.6504 with the border included, all within 0.3 %); see TestCount.
const Density = 0.650

// Count estimates the number of points Bridson places on [0,w]×[0,h] at
// minimum distance r: Density·w·h/r², border included (the border adds
// about 2(w+h)/r points, already inside the measured constant for domains
// many r wide). It does not validate its arguments.
func Count(w, h, r float64) float64 {
	return Density * w * h / (r * r)
}

// Bridson samples the rectangle [0,w]×[0,h] (metres) so that no two points
// are closer than r, trying K candidates per active point. Border points
// are placed first along the four edges, corners included, at the equal
// spacing L/⌊L/r⌋ ∈ [r, 2r) for an edge of length L (exactly r when r
// divides L); the interior sampling then respects them. The random source
// is math/rand/v2's PCG seeded with seed: the same arguments give the same
// points.
func Bridson(w, h, r float64, seed uint64) (*Sample, error) {
	if err := check(w, h, r); err != nil {
		return nil, err
	}
	s := newSampler(w, h, r, seed, 0)
	for _, p := range edgePoints(w, h, r) {
		s.add(p, true)
	}
	s.run()
	return &Sample{Points: s.pts, Border: s.border}, nil
}

// Refine returns a new sample at the smaller minimum distance r2 that
// starts with the points of s, in order and unchanged, on the same domain
// [0,w]×[0,h]. Every gap between consecutive border points along an edge is
// split equally into ⌊gap/r2⌋ parts (a new border point is skipped if an
// existing interior point lies within r2 of it), then Bridson's algorithm
// runs with every point, old and new, active. s is not modified. Refine
// returns an error if the points of s lie outside the domain or closer
// than r2 to each other.
func Refine(s *Sample, w, h, r2 float64, seed uint64) (*Sample, error) {
	if len(s.Border) != len(s.Points) {
		panic("poisson: len(Border) != len(Points)")
	}
	if err := check(w, h, r2); err != nil {
		return nil, err
	}
	sm := newSampler(w, h, r2, seed, len(s.Points))
	for i, p := range s.Points {
		if !(p.X >= 0 && p.X <= w && p.Y >= 0 && p.Y <= h) {
			return nil, fmt.Errorf("poisson: point %d (%g, %g) lies outside the domain [0,%g]×[0,%g]; refine on the domain the sample was drawn on", i, p.X, p.Y, w, h)
		}
		if j := sm.near(p); j >= 0 {
			return nil, fmt.Errorf("poisson: points %d and %d are closer than r2 = %g; r2 must not exceed the sample's minimum distance", j, i, r2)
		}
		sm.add(p, s.Border[i])
	}
	for _, p := range refineEdges(s, w, h, r2) {
		if sm.near(p) < 0 {
			sm.add(p, true)
		}
	}
	sm.run()
	return &Sample{Points: sm.pts, Border: sm.border}, nil
}

func check(w, h, r float64) error {
	for _, v := range []struct {
		name string
		x    float64
	}{{"w", w}, {"h", h}, {"r", r}} {
		if math.IsNaN(v.x) || math.IsInf(v.x, 0) || v.x <= 0 {
			return fmt.Errorf("poisson: %s = %g; want a finite length > 0 (metres)", v.name, v.x)
		}
	}
	if r > w || r > h {
		return fmt.Errorf("poisson: r = %g exceeds the domain %g × %g; want r ≤ %g", r, w, h, math.Min(w, h))
	}
	if n := Count(w, h, r); !(n <= MaxPoints) {
		return fmt.Errorf("poisson: about %.3g points expected for %g × %g at r = %g; the limit is %d: raise r to at least %.4g", n, w, h, r, MaxPoints, math.Sqrt(Density*w*h/MaxPoints))
	}
	return nil
}

// edgePoints returns the border points of [0,w]×[0,h] at spacing r: the
// bottom and top edges with their corners, then the left and right edges
// without them.
func edgePoints(w, h, r float64) []Point {
	nx, ny := segments(w, r), segments(h, r)
	pts := make([]Point, 0, 2*(nx+ny))
	for _, y := range []float64{0, h} {
		for i := 0; i <= nx; i++ {
			pts = append(pts, Point{along(w, i, nx), y})
		}
	}
	for _, x := range []float64{0, w} {
		for j := 1; j < ny; j++ {
			pts = append(pts, Point{x, along(h, j, ny)})
		}
	}
	return pts
}

// segments returns the number of equal parts of length ≥ r a length L is
// cut into: ⌊L/r⌋, at least 1.
func segments(L, r float64) int {
	n := int(math.Floor(L / r))
	if n > 1 && L/float64(n) < r {
		n--
	}
	return max(n, 1)
}

// along returns the i-th of n+1 equally spaced positions on [0,L], exact at
// both ends.
func along(L float64, i, n int) float64 {
	if i == n {
		return L
	}
	return L * float64(i) / float64(n)
}

// refineEdges returns the new border points that split the gaps between
// the existing border points of s along each edge at spacing r2.
func refineEdges(s *Sample, w, h, r2 float64) []Point {
	var out []Point
	edge := func(L float64, on func(Point) bool, pos func(Point) float64, at func(t float64) Point) {
		var ts []float64
		for i, p := range s.Points {
			if s.Border[i] && on(p) {
				ts = append(ts, pos(p))
			}
		}
		sort.Float64s(ts)
		for i := 0; i+1 < len(ts); i++ {
			a, b := ts[i], ts[i+1]
			n := segments(b-a, r2)
			for j := 1; j < n; j++ {
				out = append(out, at(a+(b-a)*float64(j)/float64(n)))
			}
		}
	}
	xPos := func(p Point) float64 { return p.X }
	yPos := func(p Point) float64 { return p.Y }
	edge(w, func(p Point) bool { return p.Y == 0 }, xPos, func(t float64) Point { return Point{t, 0} })
	edge(w, func(p Point) bool { return p.Y == h }, xPos, func(t float64) Point { return Point{t, h} })
	edge(h, func(p Point) bool { return p.X == 0 }, yPos, func(t float64) Point { return Point{0, t} })
	edge(h, func(p Point) bool { return p.X == w }, yPos, func(t float64) Point { return Point{w, t} })
	return out
}

// sampler holds the state of one run of Bridson's algorithm: a background
// grid of square cells of side r/√2, so that a cell holds at most one point
// (stored as index+1, 0 when empty), padded by two empty cells on every
// side so that neighbour lookups need no bounds checks; and the active list.
type sampler struct {
	w, h, r, rr float64
	inv         float64 // 1/cell side
	gw, gh      int     // unpadded grid size
	pw          int     // padded row length, gw+4
	off         []int   // neighbour cell offsets, nearest first
	grid        []int32
	gp          []Point // gp[0] is far away (+Inf), gp[i] = pts[i-1]
	pts         []Point
	border      []bool
	active      []int32
	rng         *rand.Rand
}

func newSampler(w, h, r float64, seed uint64, n0 int) *sampler {
	cell := r / math.Sqrt2
	// floor+1 columns keep x = w inside the grid with half-open cells, whose
	// diagonal is strictly below r.
	gw := int(math.Floor(w/cell)) + 1
	gh := int(math.Floor(h/cell)) + 1
	pw := gw + 4
	n := int(Count(w, h, r)*1.05) + n0 + 16
	return &sampler{
		w: w, h: h, r: r, rr: r * r,
		inv:    1 / cell,
		gw:     gw,
		gh:     gh,
		pw:     pw,
		off:    offsets(pw),
		grid:   make([]int32, pw*(gh+4)),
		gp:     append(make([]Point, 0, n+1), Point{math.Inf(1), math.Inf(1)}),
		pts:    make([]Point, 0, n),
		border: make([]bool, 0, n),
		active: make([]int32, 0, 1024),
		rng:    rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15)),
	}
}

// offsets returns the index offsets, in a grid with rows of length pw, of
// the cells within two cells of a cell, nearest first so that a rejected
// candidate is rejected early. The four corner cells (±2, ±2) are left
// out: their points are at least √2 cell sides = r away.
func offsets(pw int) []int {
	type o struct{ dx, dy, d int }
	var os []o
	for dy := -2; dy <= 2; dy++ {
		for dx := -2; dx <= 2; dx++ {
			if abs(dx) == 2 && abs(dy) == 2 {
				continue
			}
			// Squared gap between the cells, in cell sides.
			gx, gy := max(abs(dx)-1, 0), max(abs(dy)-1, 0)
			os = append(os, o{dx, dy, gx*gx + gy*gy})
		}
	}
	sort.SliceStable(os, func(i, j int) bool { return os[i].d < os[j].d })
	out := make([]int, len(os))
	for i, v := range os {
		out[i] = v.dy*pw + v.dx
	}
	return out
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// cellOf returns the padded grid index of the cell holding p.
func (s *sampler) cellOf(p Point) int {
	cx := min(int(p.X*s.inv), s.gw-1)
	cy := min(int(p.Y*s.inv), s.gh-1)
	return (cy+2)*s.pw + cx + 2
}

func (s *sampler) add(p Point, border bool) {
	s.pts = append(s.pts, p)
	s.gp = append(s.gp, p)
	s.border = append(s.border, border)
	i := int32(len(s.pts))
	s.grid[s.cellOf(p)] = i
	s.active = append(s.active, i-1)
}

// near returns the index of a point closer than r to p, or -1. Empty cells
// point at gp[0], at infinity, so the loop has no branch on emptiness.
func (s *sampler) near(p Point) int {
	c := s.cellOf(p)
	for _, o := range s.off {
		j := s.grid[c+o]
		q := s.gp[j]
		dx, dy := q.X-p.X, q.Y-p.Y
		if dx*dx+dy*dy < s.rr {
			return int(j - 1)
		}
	}
	return -1
}

// run is Bridson's loop: pick a random active point, try K candidates in
// the annulus [r, 2r] around it, keep the first that lies in the domain and
// at least r from every point; retire the active point when all K fail.
// The candidates are stratified in angle: the j-th lies at angle
// θ₀ + 2πj/K (θ₀ uniform, stepped by a fixed rotation, no trigonometry in
// the loop) and at radius r·√(1 + 3u), u uniform, which is uniform in area
// over the annulus. A retired point has thus had every direction probed.
func (s *sampler) run() {
	cs, sn := math.Cos(2*math.Pi/K), math.Sin(2*math.Pi/K)
	for len(s.active) > 0 {
		ai := s.rng.IntN(len(s.active))
		c := s.pts[s.active[ai]]
		th := 2 * math.Pi * s.rng.Float64()
		ux, uy := math.Cos(th), math.Sin(th)
		found := false
		last := Point{math.Inf(1), math.Inf(1)} // the point that rejected the previous candidate
		for k := 0; k < K; k++ {
			if k > 0 {
				ux, uy = ux*cs-uy*sn, ux*sn+uy*cs
			}
			d := s.r * math.Sqrt(1+3*s.rng.Float64())
			p := Point{c.X + d*ux, c.Y + d*uy}
			if p.X < 0 || p.X > s.w || p.Y < 0 || p.Y > s.h {
				continue
			}
			// Neighbouring candidates are often rejected by the same
			// point: test it before the grid.
			if dx, dy := last.X-p.X, last.Y-p.Y; dx*dx+dy*dy < s.rr {
				continue
			}
			j := s.near(p)
			if j < 0 {
				s.add(p, false)
				found = true
				break
			}
			last = s.pts[j]
		}
		if !found {
			n := len(s.active) - 1
			s.active[ai] = s.active[n]
			s.active = s.active[:n]
		}
	}
}
