package amplify

import (
	"context"
	"fmt"
	"math"

	"orogen/sim/engine"
	"orogen/sim/hydro"
)

// Options tune an amplification. The zero value of a field takes its
// default, except Detail (0 means no detail); DefaultOptions returns the
// defaults.
type Options struct {
	// Factor is the fine cells per coarse cell along a side: 2, 4 or 8.
	Factor int
	// Seed seeds the detail; the same snapshot, options and seed give
	// bit-identical results whatever GOMAXPROCS.
	Seed uint64
	// WidthExp and DepthExp are the hydraulic-geometry exponents of a
	// river bed's width and depth in its drainage area (width ∝ A^b).
	// Defaults 0.5 and 0.4 (Leopold and Maddock 1953).
	WidthExp, DepthExp float64
	// WidthCoef and DepthCoef scale them (m at A = 1 km²). Defaults 8 m
	// and 0.8 m.
	WidthCoef, DepthCoef float64
	// Detail scales the hillslope detail (1: the default amplitude, 0:
	// none).
	Detail float64
	// HydroSteps, when > 0, finishes the fine surface with that many
	// steps of the hydraulic pass (sim/hydro), at most MaxHydroSteps, on
	// at most 4096² fine cells (see the package doc).
	HydroSteps int
	// HydroPass, if not nil, runs the hydraulic pass instead of
	// sim/hydro's Engine (app/compute gives the GPU engine's, which takes
	// fine grids up to MaxHydroPassCells).
	HydroPass HydroRunner
	// RiverArea is the drainage area, m², from which a coarse cell carries
	// a carved river bed; 0: the area of RiverCells(Factor) coarse cells.
	RiverArea float64
	// StrictTalus holds every dry fine cell off the river beds to its
	// coarse cell's talus angle towards all eight neighbours, by a last
	// pass that lowers what is steeper (see the package doc): crests
	// that kept their coarse cell's mean above the limit come down, and
	// the cell means there with them.
	StrictTalus bool
	// Meander scales the rivers' sideways wander (1: the default, up to
	// about a fifth of a coarse cell; 0: the default; negative: none).
	Meander float64
	// Warp scales the base surface's sideways displacement, which keeps
	// the coarse grid from showing (see the package doc, step 1): at 1,
	// up to 0.42 coarse cells (0.48 at factor 2); at most 1; 0: the
	// default, 1; negative: none (the base interpolates the coarse grid
	// undisplaced, its crests and thalwegs at the coarse centres).
	Warp float64
}

// Defaults of Options.
const (
	DefaultWidthExp  = 0.5
	DefaultDepthExp  = 0.4
	DefaultWidthCoef = 8.0 // m at 1 km²
	DefaultDepthCoef = 0.8 // m at 1 km²
)

// RiverCells is the default river threshold in coarse cells: 4 (every
// valley a few cells long gets its bed: without one, the cubic leaves a
// string of pits along a valley that zigzags diagonally on the coarse
// grid), 16 at factor 2, where a bed is half a coarse cell wide and would
// scar the smallest valleys.
func RiverCells(factor int) int {
	if factor <= 2 {
		return 16
	}
	return 4
}

// A HydroRunner runs the hydraulic pass: steps steps of sim/hydro's
// model on cfg, returning the terrain after them. Implementations are
// pointers, so that Options stay comparable.
type HydroRunner interface {
	RunHydro(ctx context.Context, cfg hydro.Config, steps int) ([]float32, error)
}

// DefaultOptions returns the defaults for a factor: Detail 1, every other
// field its default.
func DefaultOptions(factor int) Options {
	return Options{Factor: factor, Detail: 1,
		WidthExp: DefaultWidthExp, DepthExp: DefaultDepthExp,
		WidthCoef: DefaultWidthCoef, DepthCoef: DefaultDepthCoef}
}

// Result is an amplified terrain: W×H cells of Cell metres.
type Result struct {
	W, H int
	Cell float64
	// Height is the fine terrain, metres.
	Height []float32
	// River is the depth of the carved river bed, metres (0 off the beds).
	River []float32
	// Water is the lake water depth over the fine terrain, metres.
	Water []float32
	// Rock is the exposed layer index per fine cell; nil without geology.
	Rock []uint8
	// Stats tell what the amplification did.
	Stats Stats
}

// Stats are diagnostics of one amplification.
type Stats struct {
	Segments int // river segments carved (coarse cell to receiver)
	Pits     int // fine pits the final drainage pass found
	Raised   int // fine cells that pass cut or raised
}

// Amplify amplifies the whole snapshot: the result has Factor·W ×
// Factor·H cells of Cell/Factor metres.
func Amplify(ctx context.Context, s *engine.Snapshot, o Options) (*Result, error) {
	if s == nil {
		return nil, fmt.Errorf("amplify: no snapshot")
	}
	return Window(ctx, s, o, 0, 0, s.W, s.H)
}

// Window amplifies the coarse cells [x0, x0+w) × [y0, y0+h) of the
// snapshot, reading what it needs around them (the drainage upstream and
// downstream of the window): the result has Factor·w × Factor·h cells and
// matches the same cells of Amplify's result (the package doc says how
// closely).
func Window(ctx context.Context, s *engine.Snapshot, o Options, x0, y0, w, h int) (*Result, error) {
	a, err := New(ctx, s, o)
	if err != nil {
		return nil, err
	}
	return a.Window(ctx, x0, y0, w, h)
}

// Amplifier holds what every window of one snapshot shares (the control
// heights, bed tops, river segments: the work over the whole coarse
// grid, about 0.6 s at 1024² on two cores), so that windows of the same
// snapshot and options cost only their own cells. It only reads the
// snapshot and is safe for concurrent use.
type Amplifier struct {
	p *prep
}

// New checks the snapshot and options and prepares their amplification.
func New(ctx context.Context, s *engine.Snapshot, o Options) (*Amplifier, error) {
	if s == nil {
		return nil, fmt.Errorf("amplify: no snapshot")
	}
	if err := check(s, &o); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p, err := prepare(ctx, s, o)
	if err != nil {
		return nil, err
	}
	return &Amplifier{p: p}, nil
}

// Window is the package's Window with the prepared snapshot and options.
func (a *Amplifier) Window(ctx context.Context, x0, y0, w, h int) (*Result, error) {
	p := a.p
	if w <= 0 || h <= 0 || x0 < 0 || y0 < 0 || x0+w > p.W || y0+h > p.H {
		return nil, fmt.Errorf("amplify: window %d×%d at (%d, %d) is not inside the %d×%d map: give a window of at least 1×1 cell within it",
			w, h, x0, y0, p.W, p.H)
	}
	return p.run(ctx, x0, y0, w, h)
}

// Amplify is the package's Amplify with the prepared snapshot and options.
func (a *Amplifier) Amplify(ctx context.Context) (*Result, error) {
	return a.p.run(ctx, 0, 0, a.p.W, a.p.H)
}

// check validates the snapshot and fills o's defaults.
func check(s *engine.Snapshot, o *Options) error {
	if o.Factor != 2 && o.Factor != 4 && o.Factor != 8 {
		return fmt.Errorf("amplify: factor %d: use 2, 4 or 8", o.Factor)
	}
	if s.W < 2 || s.H < 2 {
		return fmt.Errorf("amplify: a %d×%d snapshot: need at least 2×2 cells", s.W, s.H)
	}
	n := s.W * s.H
	if len(s.Height) != n {
		return fmt.Errorf("amplify: the snapshot has %d heights for %d×%d cells", len(s.Height), s.W, s.H)
	}
	if len(s.Area) != n || len(s.Receivers) != n {
		return fmt.Errorf("amplify: the snapshot has %d drainage areas and %d receivers for %d cells: amplify needs a routed terrain",
			len(s.Area), len(s.Receivers), n)
	}
	if s.Water != nil && len(s.Water) != n {
		return fmt.Errorf("amplify: the snapshot has %d water depths for %d cells", len(s.Water), n)
	}
	if !(s.Cell > 0) || math.IsInf(s.Cell, 0) {
		return fmt.Errorf("amplify: cell size %g m: need a positive, finite cell size", s.Cell)
	}
	for _, f := range [][]float32{s.Height, s.Area, s.Water} {
		for i, v := range f {
			if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
				return fmt.Errorf("amplify: cell (%d, %d) has a non-finite value (%g) in the snapshot: amplify needs finite heights, areas and water", i%s.W, i/s.W, v)
			}
		}
	}
	for i, r := range s.Receivers {
		if r < 0 || int(r) >= n {
			return fmt.Errorf("amplify: cell (%d, %d) has receiver %d, outside the map", i%s.W, i/s.W, r)
		}
	}
	if s.Geology != nil && s.Alluvium != nil && len(s.Alluvium) != n {
		return fmt.Errorf("amplify: the snapshot has %d alluvium values for %d cells", len(s.Alluvium), n)
	}
	if o.HydroSteps < 0 || o.HydroSteps > MaxHydroSteps {
		return fmt.Errorf("amplify: HydroSteps %d: need 0 (no hydraulic pass) to %d", o.HydroSteps, MaxHydroSteps)
	}
	for _, f := range []struct {
		name string
		v    *float64
		def  float64
		max  float64
	}{
		{"width exponent", &o.WidthExp, DefaultWidthExp, 2},
		{"depth exponent", &o.DepthExp, DefaultDepthExp, 2},
		{"width coefficient", &o.WidthCoef, DefaultWidthCoef, 1e4},
		{"depth coefficient", &o.DepthCoef, DefaultDepthCoef, 1e3},
		{"river area", &o.RiverArea, float64(RiverCells(o.Factor)) * s.Cell * s.Cell, math.MaxFloat64},
	} {
		if math.IsNaN(*f.v) || *f.v < 0 || *f.v > f.max {
			return fmt.Errorf("amplify: %s %g: need a value in [0, %g] (0: the default %g)", f.name, *f.v, f.max, f.def)
		}
		if *f.v == 0 {
			*f.v = f.def
		}
	}
	if math.IsNaN(o.Detail) || o.Detail < 0 || o.Detail > 10 {
		return fmt.Errorf("amplify: detail %g: need a value in [0, 10] (1: the default amplitude, 0: none)", o.Detail)
	}
	if math.IsNaN(o.Meander) || o.Meander > 10 || math.IsInf(o.Meander, -1) {
		return fmt.Errorf("amplify: meander %g: need a value up to 10 (1 or 0: the default, negative: none)", o.Meander)
	}
	if math.IsNaN(o.Warp) || o.Warp > 1 || math.IsInf(o.Warp, -1) {
		return fmt.Errorf("amplify: warp %g: need a value up to 1 (0: the default, negative: none)", o.Warp)
	}
	if o.Warp == 0 {
		o.Warp = 1
	}
	if o.Warp < 0 {
		o.Warp = 0
	}
	if o.Meander == 0 {
		o.Meander = 1
	}
	if o.Meander < 0 {
		o.Meander = 0
	}
	return nil
}
