package invert

import (
	"fmt"
	"math"

	"orogen/sim"
	"orogen/sim/engine"
	"orogen/sim/flow"
	"orogen/sim/hillslope"
	"orogen/sim/parallel"
	"orogen/sim/talus"
)

// Lakes says what uplift cells that drain uphill (lakes, pits) get.
type Lakes uint8

// The lake treatments.
const (
	LakesKeep Lakes = iota // signed u: the DEM's lakes are held by negative uplift
	LakesFill              // u = max(0, k A^m s^n): lakes fill to their pass
)

var lakesNames = [...]string{LakesKeep: "keep", LakesFill: "fill"}

func (l Lakes) String() string {
	if int(l) < len(lakesNames) {
		return lakesNames[l]
	}
	return fmt.Sprintf("Lakes(%d)", int(l))
}

// ParseLakes reads "fill" or "keep".
func ParseLakes(s string) (Lakes, error) {
	for i, n := range lakesNames {
		if n == s {
			return Lakes(i), nil
		}
	}
	return 0, fmt.Errorf("invert: lakes %q: want %q or %q", s, lakesNames[LakesKeep], lakesNames[LakesFill])
}

// MaxSmooth bounds Options.Smooth, cells.
const MaxSmooth = 256

// MaxUplift is the largest |u| the engine accepts, m/yr.
const MaxUplift = 1

// Options are the inversion's parameters.
type Options struct {
	// Params are the engine's: k, m, n, dt (for the hillslope term), κ,
	// talus, edges and the Natural edges' distance.
	Params engine.Params
	Smooth int   // box radius in cells; 0 for none
	Lakes  Lakes // what lakes and pits get
}

// Result is an inverted uplift and what the inversion met.
type Result struct {
	Uplift *sim.Field // m/yr, the DEM's size and cell
	Flat   int        // interior cells level with their receiver
	Uphill int        // cells routed uphill (lake floors, pits' carved paths)
	Steep  int        // cells steeper than the talus angle, cut to it
	// Held is the heightmap the uplift holds when cells were cut to the
	// talus angle (Steep > 0), else nil: the DEM itself.
	Held  *sim.Field
	Lakes int // basins connected through their passes
}

// Inverter holds the routing and buffers of one grid size; reuse it to
// invert many heightmaps of that size without allocating. It is not safe
// for concurrent use.
type Inverter struct {
	w, h   int
	cell   float64
	edges  flow.Edges
	nat    float64
	g      *flow.Graph
	diff   *hillslope.Diffuser
	hd     []float32 // heights after the hillslope step
	as     []float64 // drainage area in stack order
	ds     []float32 // receiver distance in stack order
	tmp    []float32 // smoothing
	held   []float32 // the heights the uplift holds (talus-cut)
	queued []bool    // envelope's work list marks
	hs     []float32 // heights in drainage order
	sums   []int64   // per-block counts: flat, uphill
}

// New returns an Inverter for w×h grids of cell metres.
func New(w, h int, cell float64) (*Inverter, error) {
	if w < 3 || h < 3 || w > 1<<15 || h > 1<<15 {
		return nil, fmt.Errorf("invert: size %d×%d: each side must be in [3, 32768]", w, h)
	}
	if !(cell >= 1e-3 && cell <= 1e6) {
		return nil, fmt.Errorf("invert: cell size %g m: must be in [0.001, 1e6] m (give --cell for a DEM without a sidecar)", cell)
	}
	return &Inverter{w: w, h: h, cell: cell}, nil
}

// Uplift inverts dem (heights in metres; its Cell is the cell size) with
// options o. It is New(...).Run for a single heightmap.
func Uplift(dem *sim.Field, o Options) (*Result, error) {
	iv, err := New(dem.W, dem.H, dem.Cell)
	if err != nil {
		return nil, err
	}
	return iv.Run(dem.Data, o)
}

// Run inverts heights h (W·H values, metres) and returns a new Result.
func (iv *Inverter) Run(h []float32, o Options) (*Result, error) {
	if len(h) != iv.w*iv.h {
		return nil, fmt.Errorf("invert: %d heights for a %d×%d grid", len(h), iv.w, iv.h)
	}
	if err := sim.CheckFinite("invert: DEM", "cell", h); err != nil {
		return nil, fmt.Errorf("%w (fill the DEM's no-data cells first, e.g. gdal_fillnodata)", err)
	}
	p := o.Params
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if o.Smooth < 0 || o.Smooth > MaxSmooth {
		return nil, fmt.Errorf("invert: smoothing radius %d cells: must be in [0, %d]", o.Smooth, MaxSmooth)
	}
	if o.Lakes > LakesFill {
		return nil, fmt.Errorf("invert: unknown lake treatment %d", o.Lakes)
	}
	n := iv.w * iv.h
	if iv.g == nil || iv.edges != p.Edges || iv.nat != p.NaturalDist {
		iv.g = flow.NewGraph(iv.w, iv.h, iv.cell, p.Edges, p.NaturalDist)
		iv.edges, iv.nat = p.Edges, p.NaturalDist
	}
	g := iv.g
	hill := p.Kappa > 0 && p.Dt > 0
	if hill && iv.diff == nil {
		iv.diff = hillslope.NewDiffuser(iv.w, iv.h)
	}
	lim := p.Talus.Limiter(iv.w, iv.h, iv.cell)
	talusOn := p.Talus.Mode != "" && p.Talus.Mode != talus.ModeOff
	iv.held = sim.Resize(iv.held, n)
	copy(iv.held, h)
	held := iv.held
	res := &Result{}
	// With the talus limit on, first lower the cells steeper than the
	// angle to the talus envelope of the DEM (see envelope), then route as
	// the engine's step does.
	if talusOn {
		res.Steep, iv.queued = envelope(held, h, iv.w, iv.h, iv.cell, g, p.Talus, lim, iv.queued)
	}
	iv.route(held, hill, p)
	h = held
	chunks := g.Chunks(parallel.Workers())
	nc := len(chunks) - 1
	// Heights in drainage order, so a receiver's is read near its donor's
	// (a lake's pass drains into its outlet's tree, in the same chunk).
	iv.hs = sim.Resize(iv.hs, n)
	parallel.Do(nc, func(c int) {
		lo, hi := int(chunks[c]), int(chunks[c+1])
		g.OrderedDist(iv.ds, lo, hi)
		for q, i := range g.Stack[lo:hi] {
			iv.hs[lo+q] = h[i]
		}
	})

	up := sim.NewField(iv.w, iv.h, iv.cell)
	u := up.Data
	iv.sums = sim.Resize(iv.sums, 2*nc)
	k, m, ne := p.K, p.M, p.N
	dt := p.Dt
	parallel.Do(nc, func(c int) {
		var flat, uphill int64
		st, rp := g.Stack, g.RecPos
		for q := int(chunks[c]); q < int(chunks[c+1]); q++ {
			i := st[q]
			r := int(rp[q])
			d := float64(iv.ds[q])
			var hr float64
			if r == q {
				if d == 0 {
					continue // fixed base level: set below
				}
				// a Natural edge's virtual node at height 0
			} else {
				hr = float64(iv.hs[r])
			}
			s := (float64(iv.hs[q]) - hr) / d
			var v float64
			switch {
			case s == 0:
				flat++
			case s < 0:
				uphill++
				if o.Lakes == LakesKeep {
					v = -k * apow(iv.as[q], m) * spow(-s, ne)
				}
			default:
				v = k * apow(iv.as[q], m) * spow(s, ne)
			}
			if hill {
				v += (float64(h[i]) - float64(iv.hd[i])) / dt
			}
			u[i] = float32(v)
		}
		iv.sums[2*c], iv.sums[2*c+1] = flat, uphill
	})
	res.Uplift, res.Lakes = up, len(g.Lakes)
	for c := 0; c < nc; c++ {
		res.Flat += int(iv.sums[2*c])
		res.Uphill += int(iv.sums[2*c+1])
	}
	if res.Steep > 0 {
		res.Held = sim.NewField(iv.w, iv.h, iv.cell)
		copy(res.Held.Data, held)
	}
	iv.fillEdges(u)
	if o.Smooth > 0 {
		iv.tmp = sim.Resize(iv.tmp, n)
		boxSmooth(u, iv.tmp, iv.w, iv.h, o.Smooth)
	}
	for i, v := range u {
		if math.Abs(float64(v)) > MaxUplift {
			return nil, fmt.Errorf("invert: uplift %g m/yr at cell (%d, %d) is beyond the engine's %g m/yr: lower k (now %g) or check the DEM's units and cell size",
				v, i%iv.w, i/iv.w, float64(MaxUplift), k)
		}
	}
	return res, nil
}

// route builds the routing, areas and receiver distances of heights h as
// the engine's step would: after the hillslope step when hill is set (into
// iv.hd).
func (iv *Inverter) route(h []float32, hill bool, p engine.Params) {
	routed := h
	if hill {
		iv.hd = sim.Resize(iv.hd, len(h))
		copy(iv.hd, h)
		iv.diff.Step(iv.hd, iv.cell, p.Kappa, p.Dt, hillslope.Edges{
			North: p.Edges.North == flow.Outlet, South: p.Edges.South == flow.Outlet,
			East: p.Edges.East == flow.Outlet, West: p.Edges.West == flow.Outlet,
		})
		routed = iv.hd
	}
	iv.g.Forget() // route as the engine's first step: no hysteresis
	iv.g.Update(routed)
	iv.as = iv.g.AccumulateStack(iv.as, iv.cell*iv.cell)
	iv.ds = sim.Resize(iv.ds, len(h))
}

// apow is a^m, with the usual m = 0.5 as a square root (as spl.Erode).
func apow(a, m float64) float64 {
	if m == 0.5 {
		return math.Sqrt(a)
	}
	return math.Pow(a, m)
}

// spow is s^n for s > 0, with n = 1 exact and cheap.
func spow(s, n float64) float64 {
	if n == 1 {
		return s
	}
	return math.Pow(s, n)
}

// fillEdges gives every fixed (Outlet edge) cell the uplift of the nearest
// interior cell.
func (iv *Inverter) fillEdges(u []float32) {
	w, h := iv.w, iv.h
	edge := func(x, y int) {
		i := y*w + x
		if iv.g.IsFixed(i) {
			u[i] = u[min(max(y, 1), h-2)*w+min(max(x, 1), w-2)]
		}
	}
	for x := 0; x < w; x++ {
		edge(x, 0)
		edge(x, h-1)
	}
	for y := 1; y < h-1; y++ {
		edge(0, y)
		edge(w-1, y)
	}
}

// boxSmooth replaces v (w×h) by its mean over a (2r+1)² box clipped to the
// grid, using tmp (w·h) as scratch. Sums run in float64 over running
// windows; rows and columns are independent, so the result does not depend
// on the number of workers.
func boxSmooth(v, tmp []float32, w, h, r int) {
	parallel.Blocks(h, 16, func(_, y0, y1 int) {
		for y := y0; y < y1; y++ {
			row, out := v[y*w:(y+1)*w], tmp[y*w:(y+1)*w]
			var s float64
			for x := 0; x <= min(r, w-1); x++ {
				s += float64(row[x])
			}
			for x := 0; x < w; x++ {
				lo, hi := max(0, x-r), min(w-1, x+r)
				out[x] = float32(s / float64(hi-lo+1))
				if x+r+1 < w {
					s += float64(row[x+r+1])
				}
				if x-r >= 0 {
					s -= float64(row[x-r])
				}
			}
		}
	})
	parallel.Blocks(w, 64, func(_, x0, x1 int) {
		col := make([]float64, x1-x0)
		for x := x0; x < x1; x++ {
			var s float64
			for y := 0; y <= min(r, h-1); y++ {
				s += float64(tmp[y*w+x])
			}
			col[x-x0] = s
		}
		for y := 0; y < h; y++ {
			lo, hi := max(0, y-r), min(h-1, y+r)
			cnt := float64(hi - lo + 1)
			for x := x0; x < x1; x++ {
				s := col[x-x0]
				v[y*w+x] = float32(s / cnt)
				if y+r+1 < h {
					s += float64(tmp[(y+r+1)*w+x])
				}
				if y-r >= 0 {
					s -= float64(tmp[(y-r)*w+x])
				}
				col[x-x0] = s
			}
		}
	})
}
