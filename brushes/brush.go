package brushes

import (
	"fmt"
	"math"
	"slices"

	"orogen/sim/enum"
)

// Kind says what a brush does to the pixels under a stamp.
type Kind uint8

// The brush kinds. doc.go gives each one's stamp formula.
const (
	Raise   Kind = iota // add strength·w
	Lower               // subtract strength·w
	Smooth              // conservative exchange between neighbours
	Flatten             // move toward the value under the stroke's start
	Set                 // move toward Brush.Value
	Noise               // add strength·w·fBm
	Erase               // move toward the layer's base
	numKinds
)

var kindNames = [numKinds]string{"raise", "lower", "smooth", "flatten", "set", "noise", "erase"}

// String returns the kind's lower-case name, as ParseKind reads it.
func (k Kind) String() string { return enum.Name(kindNames[:], k) }

// KindNames lists the names ParseKind reads, in Kind order.
func KindNames() []string { return slices.Clone(kindNames[:]) }

// ParseKind returns the kind named s ("raise", "lower", "smooth", "flatten",
// "set", "noise" or "erase").
func ParseKind(s string) (Kind, error) {
	k, err := enum.Parse[Kind]("brush kind", kindNames[:], s)
	if err != nil {
		return 0, fmt.Errorf("brushes: %w", err)
	}
	return k, nil
}

// Falloff is the shape of a stamp's weight w(d) from its centre (d = 0) to
// its radius (d = r).
type Falloff uint8

// The falloffs.
const (
	FalloffSmooth   Falloff = iota // w = (1 − d²/r²)³, as the Uplift Tree's disc
	FalloffLinear                  // w = 1 − d/r
	FalloffConstant                // w = 1
	numFalloffs
)

var falloffNames = [numFalloffs]string{"smooth", "linear", "constant"}

// String returns the falloff's lower-case name, as ParseFalloff reads it.
func (f Falloff) String() string { return enum.Name(falloffNames[:], f) }

// FalloffNames lists the names ParseFalloff reads, in Falloff order.
func FalloffNames() []string { return slices.Clone(falloffNames[:]) }

// ParseFalloff returns the falloff named s ("smooth", "linear" or
// "constant").
func ParseFalloff(s string) (Falloff, error) {
	f, err := enum.Parse[Falloff]("falloff", falloffNames[:], s)
	if err != nil {
		return 0, fmt.Errorf("brushes: %w", err)
	}
	return f, nil
}

// Limits on brush parameters; Validate enforces them.
const (
	// MaxRadius is the largest radius in pixels. A stamp of this radius
	// covers 13 million pixels; anything larger is a units mistake.
	MaxRadius = 2048
	// MinSpacing and MaxSpacing bound Brush.Spacing. Below MinSpacing a
	// stroke places needlessly many stamps; above MaxSpacing neighbouring
	// stamps no longer overlap and a stroke becomes a row of dots.
	MinSpacing = 0.01
	MaxSpacing = 2
	// MaxOctaves bounds Brush.Octaves.
	MaxOctaves = 16
	// DefaultOctaves is used when Brush.Octaves is 0.
	DefaultOctaves = 4
	// NoisePersistence and NoiseLacunarity are the fBm constants of the
	// noise brush: each octave has half the amplitude and twice the
	// frequency of the one before.
	NoisePersistence = 0.5
	NoiseLacunarity  = 2.0
)

// Brush holds a brush's parameters. The zero value is not valid (Radius and
// Spacing must be set); Default gives a usable brush of each kind.
type Brush struct {
	Kind    Kind
	Falloff Falloff
	// Radius in pixels, 0 < Radius ≤ MaxRadius. Pixels at distance d ≤
	// Radius from a stamp's centre are inside it.
	Radius float64
	// Strength in [0, 1]: how far one stamp goes (see doc.go).
	Strength float64
	// Value is the target of Set, in layer units (any finite float32).
	Value float64
	// Spacing is the distance between stamps along a stroke as a fraction
	// of Radius, MinSpacing ≤ Spacing ≤ MaxSpacing; 0.25 is usual.
	Spacing float64
	// Seed, NoiseScale and Octaves shape the Noise brush: fBm of the
	// seeded gradient noise of package sim/noise, first octave of
	// wavelength NoiseScale pixels (0 means Radius), Octaves octaves (0
	// means DefaultOctaves).
	Seed       uint64
	NoiseScale float64
	Octaves    int
}

// Default returns a brush of kind k with radius 32 pixels, strength 0.5,
// smooth falloff, spacing 0.25, value 1 and seed 1.
func Default(k Kind) Brush {
	return Brush{Kind: k, Falloff: FalloffSmooth, Radius: 32, Strength: 0.5, Value: 1, Spacing: 0.25, Seed: 1}
}

// Validate returns an error naming the first bad parameter of b and the
// range it must lie in, or nil.
func (b Brush) Validate() error {
	if b.Kind >= numKinds {
		return fmt.Errorf("brushes: unknown brush kind %d: want raise, lower, smooth, flatten, set, noise or erase", b.Kind)
	}
	if b.Falloff >= numFalloffs {
		return fmt.Errorf("brushes: unknown falloff %d: want smooth, linear or constant", b.Falloff)
	}
	if !(b.Radius > 0 && b.Radius <= MaxRadius) {
		return fmt.Errorf("brushes: radius %v pixels out of range: want 0 < radius ≤ %d", b.Radius, MaxRadius)
	}
	if !(b.Strength >= 0 && b.Strength <= 1) {
		return fmt.Errorf("brushes: strength %v out of range: want 0 ≤ strength ≤ 1", b.Strength)
	}
	if !(math.Abs(b.Value) <= math.MaxFloat32) {
		return fmt.Errorf("brushes: set value %v out of range: want a finite value within ±%g", b.Value, math.MaxFloat32)
	}
	if !(b.Spacing >= MinSpacing && b.Spacing <= MaxSpacing) {
		return fmt.Errorf("brushes: spacing %v out of range: want %v ≤ spacing ≤ %v (a fraction of the radius; 0.25 is usual)", b.Spacing, MinSpacing, MaxSpacing)
	}
	if !(b.NoiseScale == 0 || b.NoiseScale >= 1e-3 && b.NoiseScale <= 1e6) {
		return fmt.Errorf("brushes: noise scale %v pixels out of range: want 0 (the radius) or 0.001 ≤ scale ≤ 1e6", b.NoiseScale)
	}
	if b.Octaves < 0 || b.Octaves > MaxOctaves {
		return fmt.Errorf("brushes: %d noise octaves out of range: want 0 ≤ octaves ≤ %d (0 means %d)", b.Octaves, MaxOctaves, DefaultOctaves)
	}
	return nil
}

// Weight returns the falloff weight at distance d pixels from a stamp's
// centre: 1 at the centre for every falloff, 0 beyond the radius. A UI may
// use it to draw the brush cursor.
func (b Brush) Weight(d float64) float64 {
	d = math.Abs(d)
	if !(d <= b.Radius) {
		return 0
	}
	return weight(b.Falloff, d*d, 1/(b.Radius*b.Radius), 1/b.Radius)
}

// weight is the falloff at squared distance d2 ≤ r², given 1/r² and 1/r.
func weight(f Falloff, d2, invR2, invR float64) float64 {
	switch f {
	case FalloffSmooth:
		t := max(0, 1-d2*invR2)
		return t * t * t
	case FalloffLinear:
		return max(0, 1-math.Sqrt(d2)*invR)
	}
	return 1
}
