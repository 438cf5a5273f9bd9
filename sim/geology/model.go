package geology

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strings"
)

// Layer is one stratum of the stack: a name, a thickness in metres and the
// name of its rock (a preset or one of Spec.Rocks).
type Layer struct {
	Name      string  `json:"name,omitempty"`
	Thickness float64 `json:"thickness"`
	Rock      string  `json:"rock"`
}

// Group is a run of layers, bottom to top, repeated Repeat times (0 or 1:
// once).
type Group struct {
	Repeat int     `json:"repeat,omitempty"`
	Layers []Layer `json:"layers"`
}

// Times returns how many times the group is laid: Repeat, at least 1.
func (g Group) Times() int { return max(1, g.Repeat) }

// RockSpec is a user's rock: Roudier et al. 1993 §3.2's coefficients, each
// in [0, 1], and a colour "#rrggbb".
type RockSpec struct {
	Name  string  `json:"name"`
	Kd    float64 `json:"kd"`
	Kf    float64 `json:"kf"`
	Ke    float64 `json:"ke"`
	Color string  `json:"color"`
}

// Spec is the editable, JSON form of a geology: the stack, bottom to top,
// from elevation Base (m), the user's rocks (which may redefine a preset's
// name) and the deformations in the order they apply.
type Spec struct {
	Base         float64       `json:"base"`
	Rocks        []RockSpec    `json:"rocks,omitempty"`
	Stack        []Group       `json:"stack"`
	Deformations []Deformation `json:"deformations,omitempty"`
	// KdRef is the softness at which a rock erodes at the engine's k:
	// the stream-power engines use k·Kd/KdRef (Erodibility). 0 means
	// DefaultKdRef.
	KdRef float64 `json:"kd_ref,omitempty"`
	// TalusByRock makes the talus angle depend on the rock: hard rock
	// holds steeper slopes (TalusScale).
	TalusByRock bool `json:"talus_by_rock,omitempty"`
}

// DefaultKdRef is the reference softness when Spec.KdRef is 0: granite's
// (Roudier et al. 1993, Table 1), a middling rock.
const DefaultKdRef = 0.5

// MaxDeformations bounds a geology's deformations, each evaluated at
// every cell of every step: more would cost minutes a step at any size.
const MaxDeformations = 256

// MaxLayers bounds the expanded stack: exposed-layer maps are 8-bit, and
// index MaxLayers is alluvium's.
const MaxLayers = 254

// maxThickness bounds a layer's thickness and |Base|, m: far beyond any
// crust, small enough that sums stay exact to well under a millimetre.
const maxThickness = 1e6

// Model is a compiled Spec: the expanded layers, their boundaries and the
// deformations. It implements Lithology and is safe for concurrent use.
type Model struct {
	spec   Spec
	layers []Layer
	rocks  []Rock    // per layer
	tops   []float64 // tops[i]: top of layer i; layer i spans [tops[i-1], tops[i])
	base   float64
	defs   []deform
	kdRef  float64
}

// ParseColor reads "#rrggbb".
func ParseColor(s string) (color.RGBA, error) {
	var c color.RGBA
	if len(s) != 7 || s[0] != '#' {
		return c, fmt.Errorf("colour %q: want #rrggbb", s)
	}
	var v [3]uint8
	for i := range 3 {
		var b uint8
		for _, ch := range s[1+2*i : 3+2*i] {
			var d uint8
			switch {
			case ch >= '0' && ch <= '9':
				d = uint8(ch - '0')
			case ch >= 'a' && ch <= 'f':
				d = uint8(ch-'a') + 10
			case ch >= 'A' && ch <= 'F':
				d = uint8(ch-'A') + 10
			default:
				return c, fmt.Errorf("colour %q: want #rrggbb", s)
			}
			b = b<<4 | d
		}
		v[i] = b
	}
	return color.RGBA{v[0], v[1], v[2], 0xff}, nil
}

// FormatColor writes c as "#rrggbb".
func FormatColor(c color.RGBA) string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }

func unit(v float64) bool { return v >= 0 && v <= 1 }

// rockTable returns the rocks a layer may name: presets, then the spec's.
func (s *Spec) rockTable() (map[string]Rock, error) {
	t := map[string]Rock{}
	for _, r := range Presets() {
		t[strings.ToLower(r.Name)] = r
	}
	seen := map[string]bool{}
	for i, r := range s.Rocks {
		key := strings.ToLower(strings.TrimSpace(r.Name))
		if key == "" {
			return nil, fmt.Errorf("geology: rock %d has no name", i+1)
		}
		if seen[key] {
			return nil, fmt.Errorf("geology: rock %q is defined twice", r.Name)
		}
		seen[key] = true
		if !unit(r.Kd) || !unit(r.Kf) || !unit(r.Ke) {
			return nil, fmt.Errorf("geology: rock %q: kd %g, kf %g, ke %g must each be in [0, 1] (and not NaN)", r.Name, r.Kd, r.Kf, r.Ke)
		}
		c, err := ParseColor(r.Color)
		if err != nil {
			return nil, fmt.Errorf("geology: rock %q: %v", r.Name, err)
		}
		t[key] = Rock{Name: strings.TrimSpace(r.Name), Kd: r.Kd, Kf: r.Kf, Ke: r.Ke, Color: c}
	}
	return t, nil
}

// Compile checks the spec and returns its model, or an error naming the
// first problem.
func (s Spec) Compile() (*Model, error) {
	if n := len(s.Deformations); n > MaxDeformations {
		return nil, fmt.Errorf("geology: %d deformations; the limit is %d (each one is evaluated at every cell, every step)", n, MaxDeformations)
	}
	if !finite(s.Base) || math.Abs(s.Base) > maxThickness {
		return nil, fmt.Errorf("geology: base %g m must be finite and within ±%g m", s.Base, float64(maxThickness))
	}
	if !finite(s.KdRef) || s.KdRef < 0 || s.KdRef > 1 {
		return nil, fmt.Errorf("geology: kd_ref %g must be in (0, 1] (0: the default %g)", s.KdRef, DefaultKdRef)
	}
	rocks, err := s.rockTable()
	if err != nil {
		return nil, err
	}
	m := &Model{spec: s, base: s.Base, kdRef: s.KdRef}
	if m.kdRef == 0 {
		m.kdRef = DefaultKdRef
	}
	if len(s.Stack) == 0 {
		return nil, fmt.Errorf("geology: the stack is empty: give at least one layer")
	}
	z := s.Base
	for gi, g := range s.Stack {
		if g.Repeat < 0 {
			return nil, fmt.Errorf("geology: group %d: repeat %d must be >= 1", gi+1, g.Repeat)
		}
		if len(g.Layers) == 0 {
			return nil, fmt.Errorf("geology: group %d has no layers", gi+1)
		}
		if g.Times()*len(g.Layers)+len(m.layers) > MaxLayers {
			return nil, fmt.Errorf("geology: group %d: the stack would exceed %d layers", gi+1, MaxLayers)
		}
		for li, l := range g.Layers {
			if !finite(l.Thickness) || !(l.Thickness > 0) || l.Thickness > maxThickness {
				return nil, fmt.Errorf("geology: group %d, layer %d (%s): thickness %g m must be > 0 and at most %g m", gi+1, li+1, l.Name, l.Thickness, float64(maxThickness))
			}
			if _, ok := rocks[strings.ToLower(strings.TrimSpace(l.Rock))]; !ok {
				return nil, fmt.Errorf("geology: group %d, layer %d (%s): unknown rock %q (presets: Clay, Quartzite, Limestone, River sand, Granite; or define it under rocks)", gi+1, li+1, l.Name, l.Rock)
			}
		}
		for range g.Times() {
			for _, l := range g.Layers {
				r := rocks[strings.ToLower(strings.TrimSpace(l.Rock))]
				if l.Name == "" {
					l.Name = r.Name
				}
				z += l.Thickness
				m.layers = append(m.layers, l)
				m.rocks = append(m.rocks, r)
				m.tops = append(m.tops, z)
			}
		}
	}
	for i, d := range s.Deformations {
		c, err := d.compile(i)
		if err != nil {
			return nil, err
		}
		m.defs = append(m.defs, c)
	}
	return m, nil
}

// Spec returns the spec the model was compiled from (its slices shared:
// do not modify).
func (m *Model) Spec() Spec { return m.spec }

// NumLayers returns the number of layers of the expanded stack.
func (m *Model) NumLayers() int { return len(m.layers) }

// Layer returns layer i of the expanded stack (0 the bottom) and its
// rock; i = NumLayers is alluvium.
func (m *Model) Layer(i int) (Layer, Rock) {
	if i == len(m.layers) {
		return Layer{Name: "Alluvium", Rock: Alluvium.Name}, Alluvium
	}
	return m.layers[i], m.rocks[i]
}

// Rock returns the rock of layer i (NumLayers: alluvium).
func (m *Model) Rock(i int) Rock {
	if i == len(m.layers) {
		return Alluvium
	}
	return m.rocks[i]
}

// Bounds returns the bottom and top of layer i in undeformed coordinates
// (the bottom layer's bottom is Base, though it extends below).
func (m *Model) Bounds(i int) (bottom, top float64) {
	if i == 0 {
		return m.base, m.tops[0]
	}
	return m.tops[i-1], m.tops[i]
}

// Erodibility returns the factor f(Kd) = Kd/KdRef that the stream-power
// engines multiply k by on rock r.
func (m *Model) Erodibility(r Rock) float64 { return r.Kd / m.kdRef }

// TalusByRock reports whether the talus angle depends on the rock.
func (m *Model) TalusByRock() bool { return m.spec.TalusByRock }

// TalusScale returns the factor on the talus angle's tangent of rock r
// when TalusByRock: √(KdRef/Kd), within [1/4, 4], so a rock as soft as
// the reference keeps the scene's angle, quartzite (Kd 0.1 against 0.5)
// holds 30° slopes up to 52°, clay (0.9) only to 23°. The square root is
// Orogen's choice: Roudier et al. 1993 tie creep, not the angle, to Kd.
func (m *Model) TalusScale(r Rock) float64 {
	if r.Kd <= 0 {
		return 4
	}
	return min(4, max(0.25, math.Sqrt(m.kdRef/r.Kd)))
}

// Deform applies the deformations in order to an undeformed point.
func (m *Model) Deform(x, y, z float64) (float64, float64, float64) {
	for i := range m.defs {
		x, y, z = m.defs[i].forward(x, y, z)
	}
	return x, y, z
}

// Undeform undoes the deformations in reverse order (Roudier et al. 1993
// §3.2): it returns the point of the undeformed stack that lies at
// (x, y, z) now.
func (m *Model) Undeform(x, y, z float64) (float64, float64, float64) {
	for i := len(m.defs) - 1; i >= 0; i-- {
		x, y, z = m.defs[i].inverse(x, y, z)
	}
	return x, y, z
}

// LayerOf returns the index of the layer at elevation z of the undeformed
// stack.
func (m *Model) LayerOf(z float64) int {
	lo, hi := 0, len(m.tops)-1 // the answer is in [lo, hi]
	for lo < hi {
		mid := (lo + hi) / 2
		if z < m.tops[mid] {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// LayerAt returns the index of the layer at (x, y, z) of the deformed
// terrain.
func (m *Model) LayerAt(x, y, z float64) int {
	_, _, z0 := m.Undeform(x, y, z)
	return m.LayerOf(z0)
}

// RockAt returns the rock at (x, y, z): Lithology.
func (m *Model) RockAt(x, y, z float64) Rock { return m.rocks[m.LayerAt(x, y, z)] }

// Vegetation returns K_v after Roudier et al. 1993 §3.2: 0 at or above the
// snow line z ≥ snow, on slopes of 60° or more and in river beds; kv on
// slopes up to 30°; linear in the slope between.
func Vegetation(kv, slopeDeg, z, snow float64, riverBed bool) float64 {
	switch {
	case z >= snow || slopeDeg >= 60 || riverBed:
		return 0
	case slopeDeg <= 30:
		return kv
	default:
		return kv * (60 - slopeDeg) / 30
	}
}

// Clone returns a deep copy of s.
func (s Spec) Clone() Spec {
	c := s
	c.Rocks = slices.Clone(s.Rocks)
	c.Stack = make([]Group, len(s.Stack))
	for i, g := range s.Stack {
		c.Stack[i] = Group{Repeat: g.Repeat, Layers: slices.Clone(g.Layers)}
	}
	if s.Stack == nil {
		c.Stack = nil
	}
	c.Deformations = make([]Deformation, len(s.Deformations))
	for i, d := range s.Deformations {
		d.Points = slices.Clone(d.Points)
		c.Deformations[i] = d
	}
	if s.Deformations == nil {
		c.Deformations = nil
	}
	return c
}
