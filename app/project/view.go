package project

import (
	"fmt"
	"maps"
	"math"
	"unicode"
	"unicode/utf8"

	"orogen/brushes"
)

// View holds the small settings of the user interface that a project keeps:
// where the 2D map looks, what it overlays, the 3D camera and the brush.
// Every key is optional in JSON and defaults as in DefaultView. Nothing
// here changes the simulation.
type View struct {
	// Mode is the main view, "2d" or "3d".
	Mode string `json:"mode"`
	// CenterX, CenterY is the cell at the centre of the 2D view (it may
	// lie off the grid).
	CenterX float64 `json:"center_x"`
	CenterY float64 `json:"center_y"`
	// Zoom is screen pixels per cell, > 0; 0 in a file means "fit".
	Zoom float64 `json:"zoom"`
	// Overlay names what the 2D map shows over the relief ("none",
	// "drainage", "water", "uplift" ...; the UI decides the names).
	Overlay string `json:"overlay"`
	// RiverThresholdM2 is the drainage area, m², above which a cell is
	// drawn as a river.
	RiverThresholdM2 float64 `json:"river_threshold_m2"`
	Rivers           bool    `json:"rivers"`
	Lakes            bool    `json:"lakes"`
	// TintMinM and TintMaxM are the heights, m, at the two ends of the
	// colour ramp; both 0 means the snapshot's own range.
	TintMinM float64 `json:"tint_min_m"`
	TintMaxM float64 `json:"tint_max_m"`
	// Camera is the 3D view's.
	Camera Camera `json:"camera"`
	// Brush is the brush last used.
	Brush BrushSettings `json:"brush"`
	// Extra holds anything else small the UI wants kept, as strings.
	Extra map[string]string `json:"extra,omitempty"`
}

// Camera places the 3D view: it looks at the grid's centre from Yaw degrees
// clockwise from north, Pitch degrees above the horizon, at Distance times
// the domain size, with heights multiplied by Exaggeration.
type Camera struct {
	Yaw          float64 `json:"yaw_deg"`
	Pitch        float64 `json:"pitch_deg"`
	Distance     float64 `json:"distance"`
	Exaggeration float64 `json:"exaggeration"`
}

// BrushSettings is a brushes.Brush in plain words: Kind and Falloff are the
// names brushes.ParseKind and ParseFalloff read, Radius is in cells.
type BrushSettings struct {
	Kind       string  `json:"kind"`
	Falloff    string  `json:"falloff"`
	Radius     float64 `json:"radius"`
	Strength   float64 `json:"strength"`
	Value      float64 `json:"value"`
	Spacing    float64 `json:"spacing"`
	Seed       uint64  `json:"seed"`
	NoiseScale float64 `json:"noise_scale"`
	Octaves    int     `json:"octaves"`
}

// DefaultView returns the view of a new project: 2D, fitted, no overlay,
// rivers above 1 km² and lakes shown, automatic tint, a camera from the
// south-south-west at 35°, and brushes.Default(brushes.Raise).
func DefaultView() View {
	return View{
		Mode: "2d", Overlay: "none",
		RiverThresholdM2: 1e6, Rivers: true, Lakes: true,
		Camera: Camera{Yaw: 200, Pitch: 35, Distance: 1.5, Exaggeration: 1},
		Brush:  SettingsOf(brushes.Default(brushes.Raise)),
	}
}

// SettingsOf returns the settings of brush b.
func SettingsOf(b brushes.Brush) BrushSettings {
	return BrushSettings{
		Kind: b.Kind.String(), Falloff: b.Falloff.String(), Radius: b.Radius, Strength: b.Strength,
		Value: b.Value, Spacing: b.Spacing, Seed: b.Seed, NoiseScale: b.NoiseScale, Octaves: b.Octaves,
	}
}

// Brush returns the brush the settings describe, or an error naming the
// bad setting.
func (s BrushSettings) Brush() (brushes.Brush, error) {
	k, err := brushes.ParseKind(s.Kind)
	if err != nil {
		return brushes.Brush{}, err
	}
	f, err := brushes.ParseFalloff(s.Falloff)
	if err != nil {
		return brushes.Brush{}, err
	}
	b := brushes.Brush{
		Kind: k, Falloff: f, Radius: s.Radius, Strength: s.Strength, Value: s.Value,
		Spacing: s.Spacing, Seed: s.Seed, NoiseScale: s.NoiseScale, Octaves: s.Octaves,
	}
	if err := b.Validate(); err != nil {
		return brushes.Brush{}, err
	}
	return b, nil
}

// Limits on the view's strings, which keep a project's view small.
const (
	maxViewString = 256
	maxExtra      = 256
)

// Validate returns an error naming the first bad setting, or nil.
func (v View) Validate() error {
	if v.Mode != "2d" && v.Mode != "3d" {
		return fmt.Errorf("view.mode %q: must be \"2d\" or \"3d\"", clip(v.Mode))
	}
	nums := []struct {
		name string
		v    float64
	}{
		{"center_x", v.CenterX}, {"center_y", v.CenterY}, {"zoom", v.Zoom},
		{"river_threshold_m2", v.RiverThresholdM2}, {"tint_min_m", v.TintMinM}, {"tint_max_m", v.TintMaxM},
		{"camera.yaw_deg", v.Camera.Yaw}, {"camera.pitch_deg", v.Camera.Pitch},
		{"camera.distance", v.Camera.Distance}, {"camera.exaggeration", v.Camera.Exaggeration},
	}
	for _, n := range nums {
		if math.IsNaN(n.v) || math.IsInf(n.v, 0) || math.Abs(n.v) > 1e15 {
			return fmt.Errorf("view.%s = %g: must be a finite number within ±1e15", n.name, n.v)
		}
	}
	if v.Zoom < 0 {
		return fmt.Errorf("view.zoom = %g: must be ≥ 0 screen pixels per cell (0 fits the grid)", v.Zoom)
	}
	if v.RiverThresholdM2 < 0 {
		return fmt.Errorf("view.river_threshold_m2 = %g: must be ≥ 0 m²", v.RiverThresholdM2)
	}
	if v.TintMinM > v.TintMaxM {
		return fmt.Errorf("view: tint_min_m %g > tint_max_m %g: swap them (both 0: automatic)", v.TintMinM, v.TintMaxM)
	}
	if v.Camera.Distance < 0 {
		return fmt.Errorf("view.camera.distance = %g: must be ≥ 0 (0: automatic)", v.Camera.Distance)
	}
	if err := plain("view.overlay", v.Overlay); err != nil {
		return err
	}
	if _, err := v.Brush.Brush(); err != nil {
		return fmt.Errorf("view.brush: %w", err)
	}
	if len(v.Extra) > maxExtra {
		return fmt.Errorf("view.extra has %d entries: at most %d", len(v.Extra), maxExtra)
	}
	for k, s := range v.Extra {
		if k == "" {
			return fmt.Errorf("view.extra: empty key")
		}
		if err := plain("view.extra key", k); err != nil {
			return err
		}
		if err := plain("view.extra."+clip(k), s); err != nil {
			return err
		}
	}
	return nil
}

// plain checks that s is short printable UTF-8.
func plain(what, s string) error {
	if len(s) > maxViewString || !utf8.ValidString(s) {
		return fmt.Errorf("%s: must be at most %d bytes of UTF-8", what, maxViewString)
	}
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return fmt.Errorf("%s %q: must hold printable characters only", what, s)
		}
	}
	return nil
}

// clip shortens s for an error message.
func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

// clone returns a copy of v that shares nothing with it.
func (v View) clone() View {
	v.Extra = maps.Clone(v.Extra)
	return v
}
