// Package blend blends two terrains through a mask or a gradient, in the
// elevation domain (a weighted mean of the heights) or in the uplift
// domain (a weighted mean of the uplifts, then the simulation grows the
// terrain), and measures both side by side (Schott et al. 2022, §4 and
// Fig. 7: blending elevations leaves pits and broken drainage, blending
// uplifts keeps a consistent flow).
//
// A terrain is a scene or preset (its uplift rasterized, its heights grown
// to steady state on the grid) or a heightmap file (its heights, its
// uplift inverted with package invert). Both are taken on one grid: the
// first scene's parameters, Size cells on the longer side, Cell metres.
package blend

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"orogen/app/drive"
	"orogen/app/engines"
	"orogen/app/rasterio"
	"orogen/app/scene"
	"orogen/sim"
	"orogen/sim/analysis"
	"orogen/sim/engine"
	"orogen/sim/invert"
)

// Mode is the domain of the blend.
type Mode string

// The modes.
const (
	Uplift    Mode = "uplift"
	Elevation Mode = "elevation"
)

// Options describe a blend.
type Options struct {
	A, B string // scenes, presets or heightmap files
	// Mask is an image whose values in [0, 1] weigh B (0: all A, 1: all
	// B), resampled to the grid; or Gradient, two fractions of the map's
	// width: A west of the first, B east of the second, a smoothstep
	// between. Exactly one.
	Mask     string
	Gradient []float64
	Size     int     // cells on the longer side (default 256)
	Cell     float64 // metres (default: the first scene's domain / Size, or the file's cell)
	// MaxSteps bounds each run to steady state (default 4000).
	MaxSteps int
}

// Terrain is one side of a blend on the common grid.
type Terrain struct {
	Name    string
	Heights *sim.Field // metres
	Uplift  *sim.Field // m/yr
}

// Figures are the drainage measures of a blended terrain.
type Figures struct {
	Mode      Mode    `json:"mode"`
	Pits      int     `json:"pits_before_routing"` // -1 when not measured (see Verdict)
	LakeCells int     `json:"lake_cells"`
	ToEdge    float64 `json:"fraction_to_edge"`
	Largest   int     `json:"largest_raw_basin_cells"`
	Hack      float64 `json:"hack_exponent"`
	HackR2    float64 `json:"hack_r2"`
	Verdict   string  `json:"verdict"`
	Relief    float64 `json:"relief_m"`
	Steps     int     `json:"steps,omitempty"` // of the uplift-domain run
}

// Result is both blends and their figures.
type Result struct {
	Weight    *sim.Field // B's weight
	Uplift    *sim.Field // the uplift-domain blend's heights
	Elevation *sim.Field // the elevation-domain blend's heights
	Figures   [2]Figures // uplift, elevation
}

// Run loads A and B, blends them both ways and measures both.
func Run(ctx context.Context, o Options) (*Result, error) {
	if (o.Mask == "") == (len(o.Gradient) == 0) {
		return nil, errors.New("give --mask FILE or --gradient X0,X1, one of them")
	}
	if len(o.Gradient) != 0 && (len(o.Gradient) != 2 || !(o.Gradient[0] >= 0 && o.Gradient[0] < o.Gradient[1] && o.Gradient[1] <= 1)) {
		return nil, fmt.Errorf("--gradient %v: want X0,X1 with 0 <= X0 < X1 <= 1 (fractions of the map's width)", o.Gradient)
	}
	if o.Size == 0 {
		o.Size = 256
	}
	if o.Size < 16 || o.Size > 4096 {
		return nil, fmt.Errorf("--size %d: must be in [16, 4096]", o.Size)
	}
	if o.MaxSteps == 0 {
		o.MaxSteps = 4000
	}
	// The parameters: the first scene's, else the default preset's.
	base := "default"
	for _, n := range []string{o.A, o.B} {
		if !isHeightmap(n) {
			base = n
			break
		}
	}
	sc, err := scene.Load(base)
	if err != nil {
		return nil, err
	}
	p, err := sc.EngineParams()
	if err != nil {
		return nil, err
	}
	cell := o.Cell
	if cell == 0 {
		cell = sc.DomainM / float64(o.Size)
	}
	n := o.Size
	ta, err := load(ctx, o.A, n, cell, p, o.MaxSteps)
	if err != nil {
		return nil, fmt.Errorf("terrain A %s: %w", o.A, err)
	}
	tb, err := load(ctx, o.B, n, cell, p, o.MaxSteps)
	if err != nil {
		return nil, fmt.Errorf("terrain B %s: %w", o.B, err)
	}
	w, err := weights(o, n, cell)
	if err != nil {
		return nil, err
	}
	res := &Result{Weight: w}
	mix := func(a, b *sim.Field) *sim.Field {
		out := sim.NewField(n, n, cell)
		for i := range out.Data {
			t := w.Data[i]
			out.Data[i] = a.Data[i]*(1-t) + b.Data[i]*t
		}
		return out
	}
	// Elevation domain: the heights mixed, nothing else.
	res.Elevation = mix(ta.Heights, tb.Heights)
	// Uplift domain: the uplifts mixed, the terrain grown from flat.
	up := mix(ta.Uplift, tb.Uplift)
	hs, steps, err := grow(ctx, up.Data, n, cell, p, sc, o.MaxSteps)
	if err != nil {
		return nil, err
	}
	res.Uplift = &sim.Field{W: n, H: n, Cell: cell, Data: hs}
	for k, f := range []*sim.Field{res.Uplift, res.Elevation} {
		fig, err := measure(f, p)
		if err != nil {
			return nil, err
		}
		res.Figures[k] = fig
	}
	res.Figures[0].Mode, res.Figures[0].Steps = Uplift, steps
	res.Figures[1].Mode = Elevation
	return res, nil
}

func isHeightmap(name string) bool {
	if slices.Contains(scene.PresetNames(), name) {
		return false
	}
	l := strings.ToLower(name)
	for _, e := range []string{".tif", ".tiff", ".png", ".r16"} {
		if strings.HasSuffix(l, e) {
			return true
		}
	}
	return false
}

// load takes a terrain on the n×n grid.
func load(ctx context.Context, name string, n int, cell float64, p engine.Params, maxSteps int) (*Terrain, error) {
	if isHeightmap(name) {
		f, err := rasterio.ReadHeights(name)
		if err != nil {
			return nil, err
		}
		if f.Cell == 0 {
			f.Cell = cell * float64(n) / float64(max(f.W, f.H))
		}
		f = f.Resample(n, n)
		f.Cell = cell
		inv, err := invert.Uplift(f, invert.Options{Params: p})
		if err != nil {
			return nil, err
		}
		return &Terrain{Name: name, Heights: f, Uplift: inv.Uplift}, nil
	}
	sc, err := scene.Load(name)
	if err != nil {
		return nil, err
	}
	sc.Width, sc.Height = n, n
	up, err := sc.UpliftField("", n, n, cell, sc.Uplift.UmaxMPerYr)
	if err != nil {
		return nil, err
	}
	if up == nil {
		return nil, fmt.Errorf("scene %s has no uplift to blend", name)
	}
	hs, _, err := grow(ctx, up.Data, n, cell, p, sc, maxSteps)
	if err != nil {
		return nil, err
	}
	return &Terrain{Name: name, Heights: &sim.Field{W: n, H: n, Cell: cell, Data: hs}, Uplift: up}, nil
}

// grow runs the default engine (the grid: the blend's domain is the
// grid's uplift) from the scene's flat start under uplift u to steady
// state, through the driver (app/drive: adaptive steps, package settle),
// at most maxSteps steps.
func grow(ctx context.Context, u []float32, n int, cell float64, p engine.Params, sc *scene.Scene, maxSteps int) ([]float32, int, error) {
	d, err := drive.New(engines.Spec{Kind: engines.Default(), W: n, H: n, Cell: cell, Up: u, InitNoise: sc.Params.InitNoiseM,
		Seed: sc.Seed, Params: p}, drive.Options{})
	if err != nil {
		return nil, 0, err
	}
	steps := 0
	for ; steps < maxSteps && !d.Settled(); steps++ {
		if err := ctx.Err(); err != nil {
			return nil, steps, err
		}
		if _, err := d.Step(); err != nil {
			return nil, steps, err
		}
	}
	return append([]float32(nil), d.Engine().Heights()...), steps, nil
}

// weights is B's weight per cell.
func weights(o Options, n int, cell float64) (*sim.Field, error) {
	if o.Mask != "" {
		m, err := rasterio.ReadNormalized(o.Mask)
		if err != nil {
			return nil, fmt.Errorf("--mask: %w", err)
		}
		for i, v := range m.Data {
			if !(v >= 0 && v <= 1) {
				return nil, fmt.Errorf("--mask %s: value %g at cell (%d, %d) is outside [0, 1]: a mask weighs B from 0 to 1 (images are normalized; a float .tif is read as stored)", o.Mask, v, i%m.W, i/m.W)
			}
		}
		if m.W != n || m.H != n {
			if m.W != m.H {
				return nil, fmt.Errorf("--mask %s is %d×%d: the grid is %d×%d; give a square mask (it is resampled)", o.Mask, m.W, m.H, n, n)
			}
			m = m.Resample(n, n)
		}
		m.Cell = cell
		for i, v := range m.Data {
			m.Data[i] = min(1, max(0, v)) // the resampling's overshoot
		}
		return m, nil
	}
	w := sim.NewField(n, n, cell)
	x0, x1 := o.Gradient[0], o.Gradient[1]
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			t := ((float64(x)+0.5)/float64(n) - x0) / (x1 - x0)
			t = min(1, max(0, t))
			w.Data[y*n+x] = float32(t * t * (3 - 2*t))
		}
	}
	return w, nil
}

// measure routes f and takes the figures. A map too small or too smooth
// for the analysis keeps its lake count and says why in Verdict.
func measure(f *sim.Field, p engine.Params) (Figures, error) {
	var fig Figures
	r, err := analysis.Analyze(f, analysis.Options{Edges: p.Edges})
	if err != nil {
		fig.Verdict = "not measured: " + err.Error()
		fig.Pits = -1
	} else {
		fig = Figures{Pits: r.Drainage.Pits, ToEdge: r.Drainage.ToEdge, Largest: r.Drainage.LargestRaw,
			Verdict: r.Verdict.Line, Relief: r.Relief}
		if r.Hack != nil {
			fig.Hack, fig.HackR2 = r.Hack.H, r.Hack.R2
		}
	}
	g, err := analysis.Route(f, p.Edges)
	if err != nil {
		return Figures{}, err
	}
	for _, d := range g.WaterDepth(nil, f.Data) {
		if d > 0 {
			fig.LakeCells++
		}
	}
	return fig, nil
}
