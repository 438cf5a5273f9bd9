package export

import (
	"fmt"
	"image"
	"math"
	"slices"
	"strings"

	"orogen/app/jsondoc"
	"orogen/app/rasterio"
)

// Splat maps. A splat map is an 8-bit RGBA PNG of up to four layer
// weights (R, G, B, A in the order of the rules' layers) that sum to 255
// at every pixel, for a terrain material to blend its textures with.
//
// A layer's raw weight at a pixel is its Weight times the product of its
// ramps; a ramp on an input goes from 0 at From to 1 at To with a
// smoothstep in between (From > To makes it fall), constant beyond. A ramp
// on an input the simulation does not have (sediment without a hydraulic
// pass or alluvium, rock without geology) is left out of the product.
// The raw weights are then scaled to sum to 255 and rounded by largest
// remainder (ties to the earlier layer), so the sum is exactly 255; where
// every raw weight is 0 the first layer takes all 255.

// Rules are a splat map's layers, as JSON in an export profile:
//
//	{"layers": [{"name": "rock", "weight": 1,
//	             "ramps": [{"input": "slope", "from": 20, "to": 35}]}, ...]}
type Rules struct {
	Layers []Layer `json:"layers"`
}

// Layer is one channel of a splat map.
type Layer struct {
	Name   string  `json:"name"`
	Weight float64 `json:"weight"`
	Ramps  []Ramp  `json:"ramps,omitempty"`
}

// Ramp is a smooth step of one input (one of InputNames) from From to To.
type Ramp struct {
	Input string  `json:"input"`
	From  float64 `json:"from"`
	To    float64 `json:"to"`
}

// DefaultRules are rock on steep slopes (and exposed bedrock when geology
// is on), grass on gentle low ground, sediment where much water gathers
// on gentle slopes (and where loose sediment lies when there is some),
// snow high up on slopes it holds on.
func DefaultRules() *Rules {
	return &Rules{Layers: []Layer{
		{Name: "rock", Weight: 1, Ramps: []Ramp{{"slope", 20, 35}, {"rock", 0.2, 0.8}}},
		{Name: "grass", Weight: 1, Ramps: []Ramp{{"slope", 35, 20}, {"height_frac", 0.8, 0.6}}},
		{Name: "sediment", Weight: 1.5, Ramps: []Ramp{{"flow", 0.35, 0.55}, {"slope", 15, 5}, {"sediment", 0, 0.5}}},
		{Name: "snow", Weight: 1.2, Ramps: []Ramp{{"height_frac", 0.65, 0.8}, {"slope", 45, 30}}},
	}}
}

// maxRamps bounds the ramps of one layer.
const maxRamps = 8

// ParseRules reads rules strictly (unknown keys and trailing text are
// errors) and validates them (see Validate).
func ParseRules(b []byte) (*Rules, error) {
	var r Rules
	if err := jsondoc.Strict(b, &r); err != nil {
		return nil, fmt.Errorf("splat rules: %w", err)
	}
	if err := r.Validate(); err != nil {
		return nil, err
	}
	return &r, nil
}

// Validate returns an error naming the first problem: no layers or more
// than four, a layer without a name or with a name used twice, a weight
// that is negative or not finite, more than 8 ramps, a ramp on an unknown
// input, with From equal to To or either not finite.
func (r *Rules) Validate() error {
	if len(r.Layers) == 0 || len(r.Layers) > 4 {
		return fmt.Errorf("splat rules: %d layers; want 1 to 4 (R, G, B, A)", len(r.Layers))
	}
	seen := map[string]bool{}
	for i, l := range r.Layers {
		what := fmt.Sprintf("splat rules: layer %d (%q)", i+1, l.Name)
		switch {
		case strings.TrimSpace(l.Name) == "":
			return fmt.Errorf("splat rules: layer %d has no name", i+1)
		case seen[l.Name]:
			return fmt.Errorf("%s: the name is used twice", what)
		case !(l.Weight >= 0) || math.IsInf(l.Weight, 0):
			return fmt.Errorf("%s: weight %g; want a finite number ≥ 0", what, l.Weight)
		case len(l.Ramps) > maxRamps:
			return fmt.Errorf("%s: %d ramps; at most %d", what, len(l.Ramps), maxRamps)
		}
		seen[l.Name] = true
		for j, rp := range l.Ramps {
			switch {
			case !slices.Contains(InputNames, rp.Input):
				return fmt.Errorf("%s, ramp %d: unknown input %q; want one of %s", what, j+1, rp.Input, strings.Join(InputNames, ", "))
			case math.IsNaN(rp.From) || math.IsInf(rp.From, 0) || math.IsNaN(rp.To) || math.IsInf(rp.To, 0):
				return fmt.Errorf("%s, ramp %d: from %g and to %g must be finite", what, j+1, rp.From, rp.To)
			case rp.From == rp.To:
				return fmt.Errorf("%s, ramp %d: from and to are both %g; a ramp needs two values", what, j+1, rp.From)
			}
		}
	}
	return nil
}

// inputs returns the inputs the rules read, in InputNames order.
func (r *Rules) inputs() []string {
	var out []string
	for _, name := range InputNames {
		for _, l := range r.Layers {
			if slices.ContainsFunc(l.Ramps, func(rp Ramp) bool { return rp.Input == name }) {
				out = append(out, name)
				break
			}
		}
	}
	return slices.Compact(out)
}

// smoothstep is 0 below 0, 1 above 1 and 3t²-2t³ between.
func smoothstep(t float64) float64 {
	t = min(max(t, 0), 1)
	return t * t * (3 - 2*t)
}

// weights255 turns the raw weights w into bytes summing to 255 (see the
// comment on splat maps), into dst.
func weights255(dst *[4]uint8, w []float64) {
	*dst = [4]uint8{}
	sum := 0.0
	for _, v := range w {
		sum += v
	}
	if !(sum > 0) {
		dst[0] = 255
		return
	}
	var frac [4]float64
	left := 255
	for i, v := range w {
		x := 255 * v / sum
		q := math.Floor(x)
		dst[i] = uint8(q)
		frac[i] = x - q
		left -= int(q)
	}
	for ; left > 0; left-- {
		best := 0
		for i := 1; i < len(w); i++ {
			if frac[i] > frac[best] {
				best = i
			}
		}
		dst[best]++
		frac[best] = -1
	}
}

// WriteSplat writes the splat map of in by rules to path (a .png), by the
// plan's size and tiles, one tile at a time. It returns the files written.
func (p *Plan) WriteSplat(path string, in *Inputs, rules *Rules) ([]string, error) {
	if err := rules.Validate(); err != nil {
		return nil, err
	}
	names := rules.inputs()
	res := map[string]*Resampler{}
	for _, name := range names {
		if d := in.Field(name); d != nil {
			res[name] = NewResampler(in.field(d), p.W, p.H)
		}
	}
	kind := "splat:"
	for i, l := range rules.Layers {
		if i > 0 {
			kind += ","
		}
		kind += l.Name
	}
	cell := NewResampler(in.field(in.Height), p.W, p.H).CellX
	return p.eachTile(path, func(name string, x0, y0 int, tile *rasterio.TileMeta) error {
		tw, th := p.TileW, p.TileH
		vals := map[string][]float32{}
		for n, r := range res {
			vals[n] = r.Window(x0, y0, tw, th).Data
		}
		// Each layer's ramps with their inputs' windows; ramps on absent
		// inputs are left out.
		type ramp struct {
			d        []float32
			from, to float64
		}
		ramps := make([][]ramp, len(rules.Layers))
		for k, l := range rules.Layers {
			for _, rp := range l.Ramps {
				if d := vals[rp.Input]; d != nil {
					ramps[k] = append(ramps[k], ramp{d, rp.From, rp.To})
				}
			}
		}
		img := image.NewNRGBA(image.Rect(0, 0, tw, th))
		parallelRows(th, func(a, b int) {
			w := make([]float64, len(rules.Layers))
			var px [4]uint8
			for y := a; y < b; y++ {
				for x := range tw {
					i := y*tw + x
					for k, l := range rules.Layers {
						v := l.Weight
						for _, rp := range ramps[k] {
							v *= smoothstep((float64(rp.d[i]) - rp.from) / (rp.to - rp.from))
						}
						w[k] = v
					}
					// Unused channels stay 0, alpha included: the
					// weights are data, not a colour.
					weights255(&px, w)
					copy(img.Pix[y*img.Stride+4*x:], px[:])
				}
			}
		})
		return rasterio.WriteRGBA(name, img, cell, 0, 1, rasterio.Options{Kind: kind, Tile: tile, Set: p.Set})
	})
}

// WriteFlow writes the flow map of in to path (a .png): the unit flow
// direction to each cell's receiver, resampled and renormalized, east in
// R and south in G as round((d+1)/2·255), so 128 is no flow (outlets,
// lakes, and where opposite directions cancel); B is 0 and A 255.
func (p *Plan) WriteFlow(path string, in *Inputs) ([]string, error) {
	rx := NewResampler(in.field(in.dx), p.W, p.H)
	ry := NewResampler(in.field(in.dy), p.W, p.H)
	return p.eachTile(path, func(name string, x0, y0 int, tile *rasterio.TileMeta) error {
		tw, th := p.TileW, p.TileH
		dx, dy := rx.Window(x0, y0, tw, th).Data, ry.Window(x0, y0, tw, th).Data
		img := image.NewNRGBA(image.Rect(0, 0, tw, th))
		for i := range dx {
			x, y := float64(dx[i]), float64(dy[i])
			if l := math.Hypot(x, y); l > 0.05 {
				x, y = x/l, y/l
			} else {
				x, y = 0, 0
			}
			img.Pix[4*i] = uint8(math.Round((x + 1) / 2 * 255))
			img.Pix[4*i+1] = uint8(math.Round((y + 1) / 2 * 255))
			img.Pix[4*i+3] = 255
		}
		return rasterio.WriteRGBA(name, img, rx.CellX, -1, 1, rasterio.Options{Kind: "flow", Tile: tile, Set: p.Set})
	})
}

// WriteMask writes the named input (see InputNames) as a single-channel
// mask by the plan. A mask of an input the simulation lacks is an error.
func (p *Plan) WriteMask(path, name string, in *Inputs) ([]string, error) {
	d := in.Field(name)
	if d == nil {
		if slices.Contains(InputNames, name) {
			return nil, fmt.Errorf("export: %s: no %s in this simulation (sediment needs the hydraulic pass or geology's alluvium, rock needs geology)", path, name)
		}
		return nil, fmt.Errorf("export: %s: unknown mask %q; want one of %s", path, name, strings.Join(InputNames, ", "))
	}
	q := *p
	q.Kind, q.Heightmap = "mask:"+name, false
	files, _, err := q.Write(path, in.field(d))
	return files, err
}

// eachTile calls write for every tile of the plan (or the whole export),
// with its file name and position, in row-major order, and returns the
// files written.
func (p *Plan) eachTile(path string, write func(name string, x0, y0 int, tile *rasterio.TileMeta) error) ([]string, error) {
	var files []string
	tiled := p.Cols > 1 || p.Rows > 1
	for row := range p.Rows {
		for col := range p.Cols {
			x0, y0 := col*(p.TileW-1), row*(p.TileH-1)
			name := path
			var tm *rasterio.TileMeta
			if tiled {
				name = TilePath(path, col, row)
				tm = &rasterio.TileMeta{Col: col, Row: row, Cols: p.Cols, Rows: p.Rows, X0: x0, Y0: y0, Total: [2]int{p.W, p.H}}
			}
			if p.Cancel != nil {
				if err := p.Cancel(); err != nil {
					return files, err
				}
			}
			if err := write(name, x0, y0, tm); err != nil {
				return files, err
			}
			files = append(files, name)
		}
	}
	return files, nil
}
