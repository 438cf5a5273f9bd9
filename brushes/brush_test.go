package brushes

import (
	"math"
	"strings"
	"testing"

	"orogen/sim"
)

func TestValidate(t *testing.T) {
	nan := math.NaN()
	for _, tc := range []struct {
		name string
		edit func(*Brush)
		want string // a piece of the error message; "" for no error
	}{
		{"default", func(b *Brush) {}, ""},
		{"largest radius", func(b *Brush) { b.Radius = MaxRadius }, ""},
		{"tiny radius", func(b *Brush) { b.Radius = 0.01 }, ""},
		{"radius NaN", func(b *Brush) { b.Radius = nan }, "radius NaN"},
		{"radius 0", func(b *Brush) { b.Radius = 0 }, "radius 0 pixels out of range"},
		{"radius negative", func(b *Brush) { b.Radius = -3 }, "radius -3"},
		{"radius absurd", func(b *Brush) { b.Radius = 1e6 }, "radius 1e+06"},
		{"radius infinite", func(b *Brush) { b.Radius = math.Inf(1) }, "radius +Inf"},
		{"strength NaN", func(b *Brush) { b.Strength = nan }, "strength NaN"},
		{"strength above 1", func(b *Brush) { b.Strength = 1.5 }, "strength 1.5"},
		{"strength negative", func(b *Brush) { b.Strength = -0.1 }, "strength -0.1"},
		{"value NaN", func(b *Brush) { b.Value = nan }, "value NaN"},
		{"value infinite", func(b *Brush) { b.Value = math.Inf(-1) }, "value -Inf"},
		{"value beyond float32", func(b *Brush) { b.Value = 1e39 }, "value 1e+39 out of range"},
		{"spacing 0", func(b *Brush) { b.Spacing = 0 }, "spacing 0 out of range"},
		{"spacing negative", func(b *Brush) { b.Spacing = -0.25 }, "spacing -0.25"},
		{"spacing NaN", func(b *Brush) { b.Spacing = nan }, "spacing NaN"},
		{"spacing too wide", func(b *Brush) { b.Spacing = 5 }, "spacing 5"},
		{"unknown kind", func(b *Brush) { b.Kind = 99 }, "unknown brush kind 99"},
		{"unknown falloff", func(b *Brush) { b.Falloff = 7 }, "unknown falloff 7"},
		{"noise scale negative", func(b *Brush) { b.NoiseScale = -1 }, "noise scale -1"},
		{"noise scale NaN", func(b *Brush) { b.NoiseScale = nan }, "noise scale NaN"},
		{"noise scale tiny", func(b *Brush) { b.NoiseScale = 5e-324 }, "noise scale 5e-324"},
		{"octaves negative", func(b *Brush) { b.Octaves = -1 }, "-1 noise octaves"},
		{"octaves too many", func(b *Brush) { b.Octaves = MaxOctaves + 1 }, "17 noise octaves"},
	} {
		b := Default(Raise)
		tc.edit(&b)
		err := b.Validate()
		l := NewLayer(sim.NewField(8, 8, 1))
		_, berr := Begin(l, b, 4, 4)
		if tc.want == "" {
			if err != nil || berr != nil {
				t.Errorf("%s: got %v and %v; want no error", tc.name, err, berr)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "brushes: ") {
			t.Errorf("%s: got error %v; want one with %q", tc.name, err, tc.want)
		}
		if berr == nil || berr.Error() != err.Error() {
			t.Errorf("%s: Begin got error %v; want %v", tc.name, berr, err)
		}
	}
}

func TestBeginErrors(t *testing.T) {
	l := NewLayer(sim.NewField(40, 30, 1))
	l.Periodic = true
	b := Default(Smooth)
	b.Radius = 15 // 2·15 + 1 > 30
	if _, err := Begin(l, b, 5, 5); err == nil || !strings.Contains(err.Error(), "too large for a periodic 40×30 layer") {
		t.Errorf("radius 15 on a periodic 40×30 layer: got %v; want an error", err)
	}
	b.Radius = 14.9
	if _, err := Begin(l, b, 5, 5); err != nil {
		t.Errorf("radius 14.9 on a periodic 40×30 layer: got %v; want no error", err)
	}
	for _, p := range [][2]float64{{math.NaN(), 0}, {0, math.Inf(1)}, {2 * MaxCoord, 0}} {
		if _, err := Begin(l, b, p[0], p[1]); err == nil || !strings.Contains(err.Error(), "stroke start") {
			t.Errorf("start %v: got %v; want an error", p, err)
		}
	}
}

func TestDefault(t *testing.T) {
	for k := range numKinds {
		if err := Default(k).Validate(); err != nil {
			t.Errorf("Default(%v): got %v; want a valid brush", k, err)
		}
	}
}

func TestParse(t *testing.T) {
	for k := range numKinds {
		got, err := ParseKind(k.String())
		if err != nil || got != k {
			t.Errorf("ParseKind(%q) = %v, %v; want %v", k.String(), got, err, k)
		}
	}
	for f := range numFalloffs {
		got, err := ParseFalloff(f.String())
		if err != nil || got != f {
			t.Errorf("ParseFalloff(%q) = %v, %v; want %v", f.String(), got, err, f)
		}
	}
	if _, err := ParseKind("blur"); err == nil || !strings.Contains(err.Error(), `unknown brush kind "blur"`) {
		t.Errorf(`ParseKind("blur"): got %v; want an error`, err)
	}
	if _, err := ParseFalloff("gauss"); err == nil || !strings.Contains(err.Error(), `unknown falloff "gauss"`) {
		t.Errorf(`ParseFalloff("gauss"): got %v; want an error`, err)
	}
	if s := Kind(42).String(); s != "Kind(42)" {
		t.Errorf("Kind(42).String() = %q; want Kind(42)", s)
	}
}

func TestWeight(t *testing.T) {
	// Exact values: every operation below is exact in binary floating
	// point (r = 8, d = 4 gives d²/r² = 1/4).
	for _, tc := range []struct {
		f       Falloff
		d, want float64
	}{
		{FalloffSmooth, 0, 1},
		{FalloffSmooth, 4, 27.0 / 64},
		{FalloffSmooth, -4, 27.0 / 64},
		{FalloffSmooth, 8, 0},
		{FalloffSmooth, 8.5, 0},
		{FalloffLinear, 0, 1},
		{FalloffLinear, 4, 0.5},
		{FalloffLinear, 8, 0},
		{FalloffLinear, 9, 0},
		{FalloffConstant, 0, 1},
		{FalloffConstant, 8, 1},
		{FalloffConstant, 8.001, 0},
		{FalloffConstant, math.NaN(), 0},
	} {
		b := Brush{Falloff: tc.f, Radius: 8}
		if got := b.Weight(tc.d); got != tc.want {
			t.Errorf("%v falloff, radius 8: Weight(%v) = %v; want %v", tc.f, tc.d, got, tc.want)
		}
	}
}
