package scene

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"orogen/app/engines"
	"orogen/sim/constrain"
)

// Constraint is one elevation constraint of a scene (package constrain):
// exactly one of
//
//	{"point": [x, y], "height_m": h}
//	{"curve": [[x, y, h], [x, y, h], ...]}   (two vertices or more)
//
// x and y are metres in map coordinates (origin at the north-west corner,
// x east, y south), heights metres.
type Constraint struct {
	Point   []float64   `json:"point,omitempty"`
	HeightM *float64    `json:"height_m,omitempty"`
	Curve   [][]float64 `json:"curve,omitempty"`
}

// UnmarshalJSON reads a constraint strictly: unknown keys, both or
// neither of point and curve, a point without height_m, a curve of fewer
// than 2 vertices are errors.
func (c *Constraint) UnmarshalJSON(b []byte) error {
	type plain Constraint
	var v plain
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		return err
	}
	switch {
	case v.Point != nil && v.Curve != nil:
		return fmt.Errorf("a constraint is a \"point\" or a \"curve\", not both")
	case v.Point != nil && v.HeightM == nil:
		return fmt.Errorf("a point constraint needs \"height_m\"")
	case v.Curve != nil && v.HeightM != nil:
		return fmt.Errorf("a curve constraint gives its heights per vertex, [x, y, h]: drop \"height_m\"")
	case v.Point == nil && v.Curve == nil:
		return fmt.Errorf("a constraint needs \"point\": [x, y] with \"height_m\", or \"curve\": [[x, y, h], ...]")
	case v.Curve != nil && len(v.Curve) < 2:
		return fmt.Errorf("a curve constraint needs 2 vertices or more, got %d", len(v.Curve))
	case len(v.Curve) > constrain.MaxPoints:
		return fmt.Errorf("a curve constraint has %d vertices: at most %d", len(v.Curve), constrain.MaxPoints)
	case v.Point != nil && len(v.Point) != 2:
		return fmt.Errorf("a point is [x, y] in metres, got %d numbers", len(v.Point))
	}
	for i, p := range v.Curve {
		if len(p) != 3 {
			return fmt.Errorf("curve vertex %d: a vertex is [x, y, h] in metres, got %d numbers", i, len(p))
		}
	}
	*c = Constraint(v)
	return nil
}

// Clone returns a deep copy of c.
func (c Constraint) Clone() Constraint {
	out := Constraint{Point: slices.Clone(c.Point)}
	if c.HeightM != nil {
		h := *c.HeightM
		out.HeightM = &h
	}
	if c.Curve != nil {
		out.Curve = make([][]float64, len(c.Curve))
		for i, v := range c.Curve {
			out.Curve[i] = slices.Clone(v)
		}
	}
	return out
}

// NewPoint is a point constraint at (x, y) m of height h m.
func NewPoint(x, y, h float64) Constraint {
	return Constraint{Point: []float64{x, y}, HeightM: &h}
}

// Points returns c as package constrain's points.
func (c Constraint) Points() []constrain.Point {
	if c.Point != nil {
		h := 0.0
		if c.HeightM != nil {
			h = *c.HeightM
		}
		return []constrain.Point{{X: c.Point[0], Y: c.Point[1], H: h}}
	}
	ps := make([]constrain.Point, len(c.Curve))
	for i, v := range c.Curve {
		ps[i] = constrain.Point{X: v[0], Y: v[1], H: v[2]}
	}
	return ps
}

// ConstraintList returns the scene's constraints for package constrain.
func (s *Scene) ConstraintList() []constrain.Constraint {
	cs := make([]constrain.Constraint, len(s.Constraints))
	for i, c := range s.Constraints {
		cs[i] = constrain.Constraint{Points: c.Points()}
	}
	return cs
}

// validateConstraints checks every constraint lies in the map and is
// finite, naming the first that does not.
func (s *Scene) validateConstraints() error {
	if len(s.Constraints) == 0 {
		return nil
	}
	if ent, err := engines.Lookup(s.Engine); err == nil && !ent.Constraints {
		var can []string
		for _, k := range engines.Kinds() {
			if engines.Must(k).Constraints {
				can = append(can, k.String())
			}
		}
		return fmt.Errorf("scene: constraints need the %s engine (engine is %q)", strings.Join(can, " or "), s.Engine)
	}
	cell := s.DomainM / float64(max(s.Width, s.Height))
	W, H := float64(s.Width)*cell, float64(s.Height)*cell
	for i, c := range s.Constraints {
		for k, p := range c.Points() {
			if math.IsNaN(p.X+p.Y+p.H) || math.IsInf(p.X+p.Y+p.H, 0) {
				return fmt.Errorf("scene: constraints[%d], vertex %d: (%g, %g, %g) is not finite", i, k, p.X, p.Y, p.H)
			}
			if p.X < 0 || p.Y < 0 || p.X > W || p.Y > H {
				return fmt.Errorf("scene: constraints[%d], vertex %d: (%g, %g) m is outside the map [0, %g] × [0, %g] m", i, k, p.X, p.Y, W, H)
			}
			if math.Abs(p.H) > 1e5 {
				return fmt.Errorf("scene: constraints[%d], vertex %d: height %g m is absurd (|h| must be <= 1e5 m)", i, k, p.H)
			}
		}
	}
	return nil
}
