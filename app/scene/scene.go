package scene

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"orogen/app/engines"
	"orogen/app/jsondoc"
	"orogen/app/safefile"
	"orogen/assets"
	"orogen/sim/engine"
	"orogen/sim/geology"
	"orogen/sim/roudier"
	"orogen/uplifttree"
)

// Version is the scene format version this package reads and writes.
const Version = 1

// MaxSamples is the largest graph node count a scene may ask for
// (poisson.MaxPoints).
const MaxSamples = 1 << 24

// Scene is a parsed scene.
type Scene struct {
	Version     int         `json:"version"`
	Name        string      `json:"name"`
	Description string      `json:"description,omitempty"`
	Width       int         `json:"width"`
	Height      int         `json:"height"`
	DomainM     float64     `json:"domain_m"`
	Engine      engine.Kind `json:"engine"`
	// Samples is the graph engine's node count (0: one per 4 cells);
	// --samples overrides it.
	Samples         int     `json:"samples,omitempty"`
	Seed            uint64  `json:"seed"`
	Steps           int     `json:"steps"`
	UntilConverged  bool    `json:"until_converged"`
	ToleranceMPerYr float64 `json:"tolerance_m_per_yr"`
	Uplift          Uplift  `json:"uplift"`
	Init            *Init   `json:"init,omitempty"`
	Params          Params  `json:"params"`
	// Roudier holds the coefficients of Roudier's engine (engine
	// "roudier"); nil takes roudier.DefaultParams.
	Roudier *roudier.Params `json:"roudier,omitempty"`
	// Geology is the rock under the terrain (package geology): layers,
	// rocks, deformations. nil: uniform rock.
	Geology *geology.Spec `json:"geology,omitempty"`
	// Constraints are elevation constraints the run meets by adjusting
	// the uplift (package constrain); grid engine only.
	Constraints []Constraint `json:"constraints,omitempty"`

	dir      string // directory of the scene file; "" when embedded
	embedded bool
}

// Uplift is where the uplift comes from, scaled by UmaxMPerYr: a normalized
// image, or an Uplift Tree (package uplifttree) whose raster leaves read the
// named Layers (images of normalized values, relative to the scene).
type Uplift struct {
	Image      string            `json:"image,omitempty"`
	Tree       *uplifttree.Tree  `json:"tree,omitempty"`
	Layers     map[string]string `json:"layers,omitempty"`
	UmaxMPerYr float64           `json:"umax_m_per_yr"`
}

// Init names a heightmap of initial heights in metres.
type Init struct {
	Image string `json:"image"`
}

// Params are the erosion parameters.
type Params struct {
	K                float64 `json:"k"`
	M                float64 `json:"m"`
	N                float64 `json:"n"`
	DtYr             float64 `json:"dt_yr"`
	DiffusionM2PerYr float64 `json:"diffusion_m2_per_yr"`
	Talus            Talus   `json:"talus"`
	Edges            Edges   `json:"edges"`
	NaturalDistanceM float64 `json:"natural_distance_m"`
	InitNoiseM       float64 `json:"init_noise_m"`
	// The lakes' water budget (Błaszczuk et al. 2023): rain r, m/yr (0:
	// off, lakes drawn full to their passes), evaporation e, m^½/yr, and
	// the discharge from which a channel is a river, m³/yr (0: rain ×
	// 10 km²).
	RainMPerYr            float64 `json:"rain_m_per_yr,omitempty"`
	Evaporation           float64 `json:"evaporation,omitempty"`
	RiverThresholdM3PerYr float64 `json:"river_threshold_m3_per_yr,omitempty"`
	// Soil-mantled hillslopes, sediment and no grid imprint (issue 34),
	// engine.Params' CreepSc, G, KNoise, KNoiseWavelength, Routing and
	// ChannelArea. Left out they are 0 (and "d8"): the old physics, so
	// that a scene or project saved before they existed steps to the
	// terrain it was saved with; the presets set them.
	CreepCriticalSlope float64 `json:"creep_critical_slope,omitempty"`
	DepositionG        float64 `json:"deposition_g,omitempty"`
	KNoise             float64 `json:"k_noise,omitempty"`
	KNoiseWavelengthM  float64 `json:"k_noise_wavelength_m,omitempty"`
	HillslopeRouting   string  `json:"hillslope_routing,omitempty"`
	ChannelAreaM2      float64 `json:"channel_area_m2,omitempty"`
	// PlainUpliftMPerYr: ground uplifting slower is the base-level
	// plain (the sea), where nothing deposits (engine.Params.PlainUplift).
	PlainUpliftMPerYr float64 `json:"plain_uplift_m_per_yr,omitempty"`
}

// Talus is the thermal slope limit.
type Talus struct {
	Mode        string  `json:"mode"`
	AngleDeg    float64 `json:"angle_deg,omitempty"`
	LowDeg      float64 `json:"low_deg,omitempty"`
	HighDeg     float64 `json:"high_deg,omitempty"`
	HeightM     float64 `json:"height_m,omitempty"`
	BlendM      float64 `json:"blend_m,omitempty"`
	MinDeg      float64 `json:"min_deg,omitempty"`
	MaxDeg      float64 `json:"max_deg,omitempty"`
	WavelengthM float64 `json:"wavelength_m,omitempty"`
	Octaves     int     `json:"octaves,omitempty"`
}

// Edges says what each side of the grid does with water.
type Edges struct {
	North string `json:"north"`
	South string `json:"south"`
	East  string `json:"east"`
	West  string `json:"west"`
}

// Default returns a scene with every default filled in.
func Default() *Scene {
	return &Scene{
		Version: Version, Name: "untitled", Width: 512, Height: 512, DomainM: 50000,
		Engine: engines.Default(), Seed: 1, Steps: 200, ToleranceMPerYr: 1e-6,
		Uplift: Uplift{UmaxMPerYr: 5e-4},
		Params: Params{
			K: 5.61e-7, M: 0.5, N: 1, DtYr: 2.5e5, DiffusionM2PerYr: 0,
			Talus:      Talus{Mode: "constant", AngleDeg: 30},
			Edges:      Edges{"outlet", "outlet", "outlet", "outlet"},
			InitNoiseM: 1,
		},
	}
}

// Parse reads a scene strictly: unknown keys and a missing or unknown
// version are errors. Fields left out take their defaults. Parse does not
// Validate.
func Parse(b []byte) (*Scene, error) {
	s := Default()
	if err := format.Decode(b, s); err != nil {
		return nil, err
	}
	return s, nil
}

// format is the scene file: its errors start "scene: ".
var format = jsondoc.Format{Name: "scene", Version: Version, NoVersion: fmt.Sprintf("add \"version\": %d", Version)}

// UnmarshalJSON reads a talus object on its own: a given object replaces
// the default entirely. A missing mode is "constant", and a constant mode
// without an angle takes 30°; null keeps the default. Keys of another mode
// and an explicit angle_deg of 0 are errors, so that what Parse accepts
// survives Marshal (which leaves zero fields out).
func (t *Talus) UnmarshalJSON(b []byte) error {
	if string(bytes.TrimSpace(b)) == "null" {
		return nil
	}
	type plain Talus
	var v plain
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		return fmt.Errorf("params.talus: %w", err)
	}
	var given struct {
		AngleDeg *float64 `json:"angle_deg"`
	}
	if err := json.Unmarshal(b, &given); err != nil {
		return fmt.Errorf("params.talus: %w", err)
	}
	if v.Mode == "" {
		v.Mode = "constant"
	}
	if v.Mode == "constant" && v.AngleDeg == 0 {
		if given.AngleDeg != nil {
			return errors.New("params.talus.angle_deg = 0: must be an angle in (0, 90) degrees; use \"mode\": \"off\" to turn the slope limit off")
		}
		v.AngleDeg = 30
	}
	if err := talusKeys(Talus(v)); err != nil {
		return err
	}
	*t = Talus(v)
	return nil
}

// talusKeys returns an error naming the first field set that the mode of t
// does not use.
func talusKeys(t Talus) error {
	fields := []struct {
		name, mode string
		set        bool
	}{
		{"angle_deg", "constant", t.AngleDeg != 0},
		{"low_deg", "height", t.LowDeg != 0},
		{"high_deg", "height", t.HighDeg != 0},
		{"height_m", "height", t.HeightM != 0},
		{"blend_m", "height", t.BlendM != 0},
		{"min_deg", "noise", t.MinDeg != 0},
		{"max_deg", "noise", t.MaxDeg != 0},
		{"wavelength_m", "noise", t.WavelengthM != 0},
		{"octaves", "noise", t.Octaves != 0},
	}
	for _, f := range fields {
		if f.set && f.mode != t.Mode {
			return fmt.Errorf("params.talus.%s is set but mode %q does not use it (it belongs to mode %q): remove it or change the mode", f.name, t.Mode, f.mode)
		}
	}
	return nil
}

// Marshal writes s as indented JSON with the current version.
func Marshal(s *Scene) ([]byte, error) {
	c := *s
	c.Version = Version
	b, err := json.MarshalIndent(&c, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("scene: %w", err)
	}
	return append(b, '\n'), nil
}

// Validate returns an error naming the first field out of range, its value
// and the valid range.
func (s *Scene) Validate() error {
	type check struct {
		name   string
		v      float64
		lo, hi float64
		loOpen bool
		what   string
	}
	p := s.Params
	checks := []check{
		{"width", float64(s.Width), 3, 16384, false, "cells"},
		{"height", float64(s.Height), 3, 16384, false, "cells"},
		{"domain_m", s.DomainM, 1, 1e8, false, "metres, the longer side; Cordonnier et al. 2016 §6 uses 50000"},
		{"steps", float64(s.Steps), 0, 1e7, false, "steps"},
		{"tolerance_m_per_yr", s.ToleranceMPerYr, 0, 1, true, "m/yr"},
		{"uplift.umax_m_per_yr", s.Uplift.UmaxMPerYr, -1, 1, false, "m/yr; Cordonnier et al. 2016 §6 uses 5e-4"},
		{"params.k", p.K, 0, 1, true, "erodibility, 1/yr; Cordonnier et al. 2016 §6 uses 5.61e-7"},
		{"params.m", p.M, 0, 2, false, "drainage area exponent; 0.5 is usual"},
		{"params.n", p.N, 0, 4, true, "slope exponent; 1 is usual"},
		{"params.dt_yr", p.DtYr, 0, 1e8, true, "years; Cordonnier et al. 2016 §6 uses 2.5e5"},
		{"params.diffusion_m2_per_yr", p.DiffusionM2PerYr, 0, 1e4, false, "m²/yr; 0 turns hillslope off"},
		{"params.rain_m_per_yr", p.RainMPerYr, 0, 100, false, "m/yr; 0 turns the lakes' water budget off"},
		{"params.evaporation", p.Evaporation, 0, 1e4, false, "m^½/yr: a lake of V m³ loses e·V^(5/6) m³/yr"},
		{"params.river_threshold_m3_per_yr", p.RiverThresholdM3PerYr, 0, 1e15, false, "m³/yr; 0: rain × 10 km²"},
		{"params.natural_distance_m", p.NaturalDistanceM, 0, 1e9, false, "metres; 0 means the domain size"},
		{"params.init_noise_m", p.InitNoiseM, 0, 1e4, false, "metres"},
		{"params.creep_critical_slope", p.CreepCriticalSlope, 0, 100, false, "critical slope S_c of nonlinear creep, a tangent (Roering et al. 1999 use 1.25); 0: linear diffusion"},
		{"params.deposition_g", p.DepositionG, 0, 100, false, "deposition coefficient G (Yuan et al. 2019 use about 1); 0: no deposition"},
		{"params.plain_uplift_m_per_yr", p.PlainUpliftMPerYr, 0, 1, false, "m/yr: ground uplifting slower is the base-level plain, where nothing deposits; 0: off"},
		{"params.k_noise", p.KNoise, 0, 3, false, "standard deviation of ln k over the map; 0: uniform k"},
		{"params.k_noise_wavelength_m", p.KNoiseWavelengthM, 0, 1e9, false, "metres; 0: a quarter of the map"},
		{"params.channel_area_m2", p.ChannelAreaM2, 0, 1e15, false, "m²; 0: 100 cells"},
	}
	for _, c := range checks {
		bad := math.IsNaN(c.v) || math.IsInf(c.v, 0) || c.v < c.lo || c.v > c.hi || (c.loOpen && c.v == c.lo)
		if bad {
			lo := "["
			if c.loOpen {
				lo = "("
			}
			return fmt.Errorf("scene: %s = %g: must be in %s%g, %g] (%s)", c.name, c.v, lo, c.lo, c.hi, c.what)
		}
	}
	if s.Engine == "" {
		s.Engine = engines.Default()
	}
	if _, err := engines.Lookup(s.Engine); err != nil {
		return fmt.Errorf("scene: %w", err)
	}
	if s.Roudier != nil {
		if err := s.Roudier.Validate(); err != nil {
			return fmt.Errorf("scene: %w", err)
		}
	}
	if s.Samples < 0 || s.Samples > MaxSamples || (s.Samples > 0 && s.Samples < 16) {
		return fmt.Errorf("scene: samples = %d: must be 0 (the default) or in [16, %d]", s.Samples, MaxSamples)
	}
	if err := validTalus(p.Talus); err != nil {
		return err
	}
	switch p.HillslopeRouting {
	case "", "d8", "random":
	default:
		return fmt.Errorf("scene: params.hillslope_routing = %q: must be d8 or random", p.HillslopeRouting)
	}
	closed := 0
	for _, e := range []struct{ side, v string }{{"north", p.Edges.North}, {"south", p.Edges.South}, {"east", p.Edges.East}, {"west", p.Edges.West}} {
		switch e.v {
		case "outlet", "natural":
		case "closed":
			closed++
		default:
			return fmt.Errorf("scene: params.edges.%s = %q: must be outlet, closed or natural", e.side, e.v)
		}
	}
	if closed == 4 {
		return errors.New("scene: all four edges are closed: water has nowhere to go; make at least one edge outlet or natural")
	}
	if s.Uplift.Image != "" && s.Uplift.Tree != nil {
		return errors.New("scene: uplift has both an image and a tree: keep one")
	}
	if s.Uplift.Image == "" && s.Uplift.Tree == nil && (s.Init == nil || s.Init.Image == "") {
		return errors.New("scene: no uplift.image, uplift.tree or init.image: give an uplift, initial heights, or both")
	}
	if len(s.Uplift.Layers) > 0 && s.Uplift.Tree == nil {
		return errors.New("scene: uplift.layers without an uplift.tree: layers feed the tree's raster nodes")
	}
	for name, file := range s.Uplift.Layers {
		if name == "" || file == "" {
			return fmt.Errorf("scene: uplift.layers: empty name or file in %q: %q", name, file)
		}
	}
	if s.Init != nil && s.Init.Image == "" {
		return errors.New("scene: init has no image: name a heightmap or remove init")
	}
	if s.Geology != nil {
		if _, err := s.Geology.Compile(); err != nil {
			return fmt.Errorf("scene: %w", err)
		}
	}
	return s.validateConstraints()
}

func validTalus(t Talus) error {
	angle := func(name string, v float64) error {
		if math.IsNaN(v) || v <= 0 || v >= 90 {
			return fmt.Errorf("scene: params.talus.%s = %g: must be an angle in (0, 90) degrees", name, v)
		}
		return nil
	}
	finite := func(name string, v float64, min float64) error {
		if math.IsNaN(v) || math.IsInf(v, 0) || v < min {
			return fmt.Errorf("scene: params.talus.%s = %g: must be finite and >= %g", name, v, min)
		}
		return nil
	}
	switch t.Mode {
	case "off", "constant", "height", "noise":
		if err := talusKeys(t); err != nil {
			return fmt.Errorf("scene: %w", err)
		}
	}
	switch t.Mode {
	case "off":
		return nil
	case "constant":
		return angle("angle_deg", t.AngleDeg)
	case "height":
		return errors.Join(angle("low_deg", t.LowDeg), angle("high_deg", t.HighDeg),
			finite("height_m", t.HeightM, -1e5), finite("blend_m", t.BlendM, 0))
	case "noise":
		if err := errors.Join(angle("min_deg", t.MinDeg), angle("max_deg", t.MaxDeg), finite("wavelength_m", t.WavelengthM, 0)); err != nil {
			return err
		}
		if t.MinDeg > t.MaxDeg {
			return fmt.Errorf("scene: params.talus: min_deg %g > max_deg %g: swap them", t.MinDeg, t.MaxDeg)
		}
		if t.WavelengthM == 0 {
			return errors.New("scene: params.talus.wavelength_m = 0: must be > 0 metres")
		}
		if t.Octaves < 1 || t.Octaves > 16 {
			return fmt.Errorf("scene: params.talus.octaves = %d: must be in [1, 16]", t.Octaves)
		}
		return nil
	}
	return fmt.Errorf("scene: params.talus.mode %q: must be off, constant, height or noise", t.Mode)
}

// PresetNames returns the names of the embedded scenes, sorted.
func PresetNames() []string {
	ents, err := fs.ReadDir(assets.Presets, assets.PresetDir)
	if err != nil {
		panic("scene: embedded presets unreadable: " + err.Error())
	}
	var names []string
	for _, e := range ents {
		if n, ok := strings.CutSuffix(e.Name(), ".json"); ok {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	return names
}

// Load reads a preset by name or a scene file by path.
func Load(nameOrPath string) (*Scene, error) {
	if slices.Contains(PresetNames(), nameOrPath) {
		b, err := fs.ReadFile(assets.Presets, path.Join(assets.PresetDir, nameOrPath+".json"))
		if err != nil {
			return nil, fmt.Errorf("scene: preset %s: %w", nameOrPath, err)
		}
		s, err := Parse(b)
		if err != nil {
			return nil, fmt.Errorf("preset %s: %w", nameOrPath, err)
		}
		s.embedded = true
		return s, nil
	}
	b, err := safefile.ReadFile(nameOrPath)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("scene: %s: no such file, and not a preset (presets: %s)", nameOrPath, strings.Join(PresetNames(), ", "))
		}
		return nil, fmt.Errorf("scene: %w", err)
	}
	s, err := Parse(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", nameOrPath, err)
	}
	s.dir = filepath.Dir(nameOrPath)
	if s.Name == "untitled" {
		s.Name = strings.TrimSuffix(filepath.Base(nameOrPath), filepath.Ext(nameOrPath))
	}
	return s, nil
}

// Embedded reports whether the scene is a preset.
func (s *Scene) Embedded() bool { return s.embedded }

// Path returns the file system path of a file the scene names: relative to
// the scene file, or as is when absolute. It returns "" for a relative name
// in an embedded scene, whose files live in the binary (use Open).
func (s *Scene) Path(name string) string {
	if filepath.IsAbs(name) {
		return name
	}
	if s.embedded {
		return ""
	}
	return filepath.Join(s.dir, name)
}

// ReadFile reads a file the scene names, on disk or embedded.
func (s *Scene) ReadFile(name string) ([]byte, error) {
	r, err := s.Open(name)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("scene %s: %s: %w", s.Name, name, err)
	}
	return b, nil
}

// Open opens a file the scene names, on disk or embedded.
func (s *Scene) Open(name string) (io.ReadCloser, error) {
	if p := s.Path(name); p != "" {
		if err := safefile.CheckRegular(p); err != nil {
			return nil, fmt.Errorf("scene %s: %w", s.Name, err)
		}
		f, err := os.Open(p)
		if err != nil {
			return nil, fmt.Errorf("scene %s: %w", s.Name, err)
		}
		return f, nil
	}
	f, err := assets.Presets.Open(path.Join(assets.PresetDir, name))
	if err != nil {
		return nil, fmt.Errorf("scene %s: embedded file %s: %w", s.Name, name, err)
	}
	return f, nil
}
