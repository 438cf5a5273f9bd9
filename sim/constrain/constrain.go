// Package constrain makes a terrain pass through given heights at steady
// state by adjusting its uplift, not by clamping heights (Schott et al.
// 2022, §1: point and curve elevation constraints).
//
// Constraints. A point constraint is one (x, y, h); a curve constraint is a
// polyline with a height per vertex (a ridge crest, a river bed), heights
// interpolated linearly along it. x and y are metres in map coordinates
// (origin at the north-west corner, x east, y south, cell (i, j) centred
// at ((i+½)·cell, (j+½)·cell)); h is metres. Rasterize turns them into
// target cells: the cell under a point; for a curve, one cell per step
// along each segment's longer axis (an 8-connected line: no cell the
// segment only clips at a corner, which would stand beside a crest rather
// than on it), each with the curve's height at the point of the segment
// nearest the cell's centre.
//
// Scheme. At steady state with no hillslope or talus term a cell's step
// to its receiver is (u/k)^(1/n) A^(-m/n) times the distance, so along a
// fixed drainage network heights grow as u^(1/n). Adjust runs two passes
// on factors that multiply the base uplift, from the steady heights hs:
//
//   - The disc pass moves the region: each target's log-ratio
//     ln((T+ε)/(h+ε))·n·Damping (ε = Eps = 50 m, Damping ¼), clamped to the
//     log of [½, 2], spread over a disc of Radius cells (10 by default)
//     with Schott et al. 2022's falloff (1 − d²/r²)³; where discs overlap
//     (a curve) a cell takes their weighted mean.
//   - The local pass meets each target cell by cell. A cell's height is its
//     steepest receiver's plus its own step, so the target asks its own
//     cell's uplift to change by (T − h_receiver)/step (to the power n,
//     LocalDamping ½). A step cannot exceed the talus angle: the part of a
//     rise past it is asked of the receiver's step, and so on down the
//     flow path (at most PathCells cells). Conversely a cell held at the
//     talus angle stands where its receiver's excess uplift lifts it (the
//     engine erodes towards the receiver's uplifted height before the talus
//     cut), so lowering it asks the receiver to give up uplift as well.
//
// The uplift is the base uplift times both passes' accumulated factors,
// bounded to [0.001, 20] (a curve cell that must stand level with its
// receiver needs a very small factor). The network moves as the uplift does, so Adjust
// is iterated with the simulation (Drive): run, adjust, run again. Nothing
// clamps a height.
//
// Figures (the default preset at 128², 390 m cells, with a point of
// 1 500 m at the centre, 2 344 m unconstrained; app/run's
// TestConstraintsDefaultPreset): the point ends within a metre; a level
// 1 700 m curve along the south-west crest (1 800 to 2 400 m
// unconstrained) within 19 m at worst (0.7 % of the relief), 7 m on
// average, after 19 adjustments of 100 steps. Three other curves measured
// the same way, each until within 1 % of the relief: the same crest as
// one straight segment, 9 m after 44 adjustments; a level 1 700 m line up
// the north-east arm, 24 m after 43; a 1 200 to 1 000 m line on the
// north-west flank, 14 m after 28. The way there is not monotone: while
// the network reorganises, a curve cell can be captured by a river for an
// adjustment or two (the worst error swings up to ~1 000 m on the way).
// A level curve drawn along a crest ends as a level channel, its cells
// draining into one another (20 of 21 on the south-west crest), not as a
// crest: the heights are met, the shape of the ground between them is
// the simulation's.
//
// Limits. A target at or below base level cannot be met (counted in
// Unreachable). Where the talus limit and the path bound stop a rise, or a
// target must sit below every neighbour (a pit), it is not met. Lowering
// or raising a region moves divides: a basin next to the constraints can
// gain or lose cells to theirs, which changes its trunk's drainage area and
// so every height upstream of it. Basins that neither hold a constraint,
// nor a cell whose uplift changed, nor traded cells with such a basin keep
// their heights (measured: unchanged to the metre). Constraints are met at
// steady state only.
package constrain

import (
	"fmt"
	"math"
	"slices"

	"orogen/sim/engine"
	"orogen/sim/talus"
)

// Point is a position in map coordinates and a height, metres.
type Point struct{ X, Y, H float64 }

// Constraint is one point (len(Points) == 1) or a curve (2 or more).
type Constraint struct {
	Points []Point
}

// Target is a rasterized constraint cell.
type Target struct {
	Cell int32   // y*W + x
	H    float64 // target height, metres
	C    int     // index of the constraint
}

// MaxPoints bounds the vertices of one curve.
const MaxPoints = 10000

// Rasterize returns the target cells of cs on a w×h grid of cell metres.
// A cell two constraints reach keeps the first one's. A point
// outside the map, a curve of no vertices or with a non-finite value are
// errors naming the constraint and vertex.
func Rasterize(cs []Constraint, w, h int, cell float64) ([]Target, error) {
	W, H := float64(w)*cell, float64(h)*cell
	type hit struct {
		k int     // index in out
		d float64 // squared distance of the curve to the cell centre
	}
	seen := map[int32]hit{}
	var out []Target
	// A cell takes the height of the curve's point nearest its centre,
	// from the first constraint that reaches it.
	add := func(x, y float64, a, b Point, c int) {
		cx := min(w-1, max(0, int(math.Floor(x/cell))))
		cy := min(h-1, max(0, int(math.Floor(y/cell))))
		i := int32(cy*w + cx)
		px, py := (float64(cx)+0.5)*cell, (float64(cy)+0.5)*cell
		u := 0.0
		if l2 := (b.X-a.X)*(b.X-a.X) + (b.Y-a.Y)*(b.Y-a.Y); l2 > 0 {
			u = min(1, max(0, ((px-a.X)*(b.X-a.X)+(py-a.Y)*(b.Y-a.Y))/l2))
		}
		dx, dy := a.X+u*(b.X-a.X)-px, a.Y+u*(b.Y-a.Y)-py
		d, ht := dx*dx+dy*dy, a.H+u*(b.H-a.H)
		if old, ok := seen[i]; !ok {
			seen[i] = hit{len(out), d}
			out = append(out, Target{Cell: i, H: ht, C: c})
		} else if out[old.k].C == c && d < old.d {
			seen[i] = hit{old.k, d}
			out[old.k].H = ht
		}
	}
	for ci, c := range cs {
		if len(c.Points) == 0 || len(c.Points) > MaxPoints {
			return nil, fmt.Errorf("constraint %d: %d points: give 1 (a point) to %d (a curve)", ci, len(c.Points), MaxPoints)
		}
		for pi, p := range c.Points {
			for _, v := range []float64{p.X, p.Y, p.H} {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return nil, fmt.Errorf("constraint %d, point %d: (%g, %g, %g) is not finite", ci, pi, p.X, p.Y, p.H)
				}
			}
			if p.X < 0 || p.Y < 0 || p.X > W || p.Y > H {
				return nil, fmt.Errorf("constraint %d, point %d: (%g, %g) m is outside the map [0, %g] × [0, %g] m", ci, pi, p.X, p.Y, W, H)
			}
			if math.Abs(p.H) > 1e5 {
				return nil, fmt.Errorf("constraint %d, point %d: height %g m is absurd (|h| must be <= 1e5 m)", ci, pi, p.H)
			}
		}
		p0 := c.Points[0]
		add(p0.X, p0.Y, p0, p0, ci)
		for k := 1; k < len(c.Points); k++ {
			// One sample per cell along the segment's longer axis: an
			// 8-connected line, no cell the segment only clips.
			a, b := c.Points[k-1], c.Points[k]
			n := max(1, int(math.Ceil(max(math.Abs(b.X-a.X), math.Abs(b.Y-a.Y))/cell)))
			for s := 1; s <= n; s++ {
				t := float64(s) / float64(n)
				add(a.X+t*(b.X-a.X), a.Y+t*(b.Y-a.Y), a, b, ci)
			}
		}
	}
	return out, nil
}

// Damping is the power on each disc factor: a quarter of the
// (logarithmic) way at each adjustment.
var Damping = 0.25

// LocalDamping is the power on each local factor: half the (logarithmic)
// way at each adjustment.
var LocalDamping = 0.5

// DefaultRadius is the default kernel radius, cells.
const DefaultRadius = 10

// Eps is added to target and current heights in their ratio, metres, so
// cells near base level do not ask for absurd factors.
const Eps = 50

// Bounds of the factors.
const (
	MinStep  = 0.5   // smallest factor of one adjustment
	MaxStep  = 2     // largest
	MinScale = 0.001 // smallest accumulated factor
	MaxScale = 20    // largest
)

// PathCells bounds how far down a target's flow path the local pass
// carries a rise its own cell cannot take.
const PathCells = 16

// Solver keeps the per-cell factors on the base uplift.
type Solver struct {
	w, h    int
	cell    float64
	targets []Target
	disc    []float32 // per cell: the smooth (disc) factors
	local   []float32 // per cell: the factors of the local pass
	scale   []float32 // per cell: disc times local
	logSum  []float64
	wSum    []float64
	lsum    []float64
	lcnt    []float64
	// Radius is the kernel radius, cells (0: DefaultRadius).
	Radius float64
	// Unreachable counts, after Adjust, the targets at or below base
	// level (0 m).
	Unreachable int
}

// New returns a solver for the targets on a w×h grid of cell metres, every
// factor 1.
func New(targets []Target, w, h int, cell float64) (*Solver, error) {
	if w < 1 || h < 1 || !(cell > 0) {
		return nil, fmt.Errorf("constrain: grid %d×%d of %g m cells", w, h, cell)
	}
	n := w * h
	s := &Solver{w: w, h: h, cell: cell, targets: slices.Clone(targets),
		disc: make([]float32, n), local: make([]float32, n), scale: make([]float32, n)}
	for i := range s.scale {
		s.scale[i], s.disc[i], s.local[i] = 1, 1, 1
	}
	for _, t := range s.targets {
		if int(t.Cell) >= n || t.Cell < 0 {
			return nil, fmt.Errorf("constrain: target cell %d outside the %d×%d grid", t.Cell, w, h)
		}
	}
	return s, nil
}

// Inherit takes old's factors (a solver of the same grid, for the
// constraints before an edit) as the starting point; with a nil old or
// another grid it does nothing.
func (s *Solver) Inherit(old *Solver) {
	if old == nil || old.w != s.w || old.h != s.h {
		return
	}
	copy(s.disc, old.disc)
	copy(s.local, old.local)
	copy(s.scale, old.scale)
}

// Targets returns the solver's targets.
func (s *Solver) Targets() []Target { return s.targets }

// Set reports whether the constraints changed cell i's uplift.
func (s *Solver) Set(i int) bool { return s.scale[i] != 1 }

// Scale returns the per-cell factors (read only).
func (s *Solver) Scale() []float32 { return s.scale }

// Uplift sets dst (grown as needed) to base times the factors, bounded to
// ±umax, and returns it.
func (s *Solver) Uplift(dst, base []float32, umax float32) []float32 {
	if len(base) != len(s.scale) {
		panic(fmt.Sprintf("constrain: %d uplift values for a %d×%d grid", len(base), s.w, s.h))
	}
	dst = append(dst[:0], base...)
	for i, f := range s.scale {
		dst[i] = min(umax, max(-umax, dst[i]*f))
	}
	return dst
}

// recOf returns cell i's steepest-descent neighbour in hs (i itself when
// none is lower).
func (s *Solver) recOf(hs []float32, i int32) int32 {
	const diag = 1 / math.Sqrt2
	x, y := int(i)%s.w, int(i)/s.w
	best, bs := i, 0.0
	for dy := -1; dy <= 1; dy++ {
		for dx := -1; dx <= 1; dx++ {
			xx, yy := x+dx, y+dy
			if (dx == 0 && dy == 0) || xx < 0 || yy < 0 || xx >= s.w || yy >= s.h {
				continue
			}
			j := int32(yy*s.w + xx)
			sl := float64(hs[i] - hs[j])
			if dx != 0 && dy != 0 {
				sl *= diag
			}
			if sl > bs {
				best, bs = j, sl
			}
		}
	}
	return best
}

// Adjust updates the factors from the steady heights hs and the engine's
// parameters p (n and the talus limit); see the package doc.
func (s *Solver) Adjust(hs []float32, p engine.Params) error {
	if len(hs) != len(s.scale) {
		return fmt.Errorf("constrain: %d heights for a %d×%d grid", len(hs), s.w, s.h)
	}
	n := p.N
	r := s.Radius
	if r <= 0 {
		r = DefaultRadius
	}
	if s.logSum == nil {
		s.logSum = make([]float64, len(s.scale))
		s.wSum = make([]float64, len(s.scale))
	}
	clear(s.logSum)
	clear(s.wSum)
	s.Unreachable = 0
	ri := int(math.Ceil(r))
	for _, t := range s.targets {
		h := float64(hs[t.Cell])
		if t.H <= 0 {
			s.Unreachable++ // at or below base level
		}
		ratio := min(MaxStep, max(MinStep, (max(t.H, 0)+Eps)/(max(h, 0)+Eps)))
		lr := math.Log(ratio) * n * Damping
		cx, cy := int(t.Cell)%s.w, int(t.Cell)/s.w
		for y := max(0, cy-ri); y <= min(s.h-1, cy+ri); y++ {
			for x := max(0, cx-ri); x <= min(s.w-1, cx+ri); x++ {
				d2 := float64((x-cx)*(x-cx)+(y-cy)*(y-cy)) / (r * r)
				if d2 >= 1 {
					continue
				}
				k := (1 - d2) * (1 - d2) * (1 - d2)
				i := y*s.w + x
				s.logSum[i] += k * lr
				s.wSum[i] += k
			}
		}
	}
	for i, w := range s.wSum {
		if w == 0 {
			continue
		}
		// The weighted mean where kernels overlap (a curve's cells), the
		// kernel's own falloff where one reaches alone.
		f := math.Exp(s.logSum[i] / max(1, w))
		s.disc[i] = float32(min(MaxScale, max(MinScale, float64(s.disc[i])*f)))
	}
	s.adjustLocal(hs, n, p.Talus.Limiter(s.w, s.h, s.cell))
	for i, d := range s.disc {
		s.scale[i] = float32(min(MaxScale, max(MinScale, float64(d)*float64(s.local[i]))))
	}
	return nil
}

// adjustLocal is the local pass (package doc): each target asks its own
// cell's step to its receiver to become target − receiver height; what the
// talus limit keeps the step from taking, the receiver's step is asked
// for, and so on down the path.
func (s *Solver) adjustLocal(hs []float32, n float64, lim *talus.Limiter) {
	if s.lsum == nil {
		s.lsum = make([]float64, len(s.scale))
		s.lcnt = make([]float64, len(s.scale))
	}
	clear(s.lsum)
	clear(s.lcnt)
	isTarget := make(map[int32]float64, len(s.targets))
	for _, t := range s.targets {
		isTarget[t.Cell] = t.H
	}
	ask := func(c int32, ratio float64) {
		s.lsum[c] += math.Log(min(MaxStep, max(MinStep, ratio))) * n * LocalDamping
		s.lcnt[c]++
	}
	for _, t := range s.targets {
		need := t.H
		c := t.Cell
		for range PathCells {
			r := s.recOf(hs, c)
			if r == c {
				break
			}
			hr := float64(hs[r])
			if th, ok := isTarget[r]; ok && r != t.Cell {
				hr = th // where the receiver is headed
			}
			d := float64(hs[c] - hs[r])
			want := need - hr
			if d <= 0 {
				break
			}
			dist := s.cell
			if int(c)%s.w != int(r)%s.w && int(c)/s.w != int(r)/s.w {
				dist *= math.Sqrt2
			}
			maxD := 0.98 * float64(lim.Tan(int(c), hs[c])) * dist // +Inf with the talus limit off
			if want <= maxD {
				ratio := MinStep
				if want > 0 {
					ratio = want / d
				}
				ask(c, ratio)
				if ratio < 1 && d >= 0.99*maxD {
					// Held at the talus angle: the receiver's excess
					// uplift lifts this cell (the engine erodes towards
					// the receiver's height before the talus cut), so
					// the receiver must give some up too.
					ask(r, ratio)
				}
				break
			}
			// Past the limit: the step at most, the rest from downstream.
			ask(c, maxD/d)
			need -= maxD
			c = r
		}
	}
	for i, cnt := range s.lcnt {
		if cnt == 0 {
			continue
		}
		f := math.Exp(s.lsum[i] / cnt)
		s.local[i] = float32(min(MaxScale, max(MinScale, float64(s.local[i])*f)))
	}
}

// Error is, for each constraint, the largest |height - target| over its
// cells, metres.
func (s *Solver) Error(hs []float32, constraints int) []float64 {
	e := make([]float64, constraints)
	for _, t := range s.targets {
		e[t.C] = max(e[t.C], math.Abs(float64(hs[t.Cell])-t.H))
	}
	return e
}
