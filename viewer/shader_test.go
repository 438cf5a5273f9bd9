package viewer

import (
	"math"
	"testing"
)

// TestRiverDiscs: a disc on every dry cell at or over the threshold and on
// no other, 1 wide at the threshold, 1.5 wider per decade, capped; the
// ramp position within [0, 1] and rising with the area.
func TestRiverDiscs(t *testing.T) {
	s := terrain(t, 64)
	const thr, maxW = 2e6, 5
	ds := RiverDiscs(nil, s, thr, maxW, true)
	want := 0
	for i, a := range s.Area {
		if float64(a) >= thr && s.Water[i] <= 0 {
			want++
		}
	}
	if len(ds) != want || want == 0 {
		t.Fatalf("%d discs, want %d (and some)", len(ds), want)
	}
	for _, d := range ds {
		i := int(d.Y)*s.W + int(d.X)
		a := float64(s.Area[i])
		w := min(1+1.5*math.Log10(a/thr), maxW)
		if math.Abs(float64(d.Rho)-(w/2+0.5)) > 1e-4 {
			t.Fatalf("cell %d, %d (area %g): ρ %g, want %g", d.X, d.Y, a, d.Rho, w/2+0.5)
		}
		if tt := math.Log10(a/thr) / riverDecadesToDeep; math.Abs(float64(d.T)-min(tt, 1)) > 1e-4 {
			t.Fatalf("cell %d, %d: ramp position %g, want %g", d.X, d.Y, d.T, min(tt, 1))
		}
	}
	if n := len(RiverDiscs(nil, s, thr, maxW, false)); n <= want {
		t.Errorf("without lakes %d discs, want more than the %d dry ones", n, want)
	}
}

// TestSurfaceBytesIndices: the overlay's ramp index per cell is the entry
// lut.at picks, so the shader's colour is the LUT's.
func TestSurfaceBytesIndices(t *testing.T) {
	s := terrain(t, 32)
	o := DefaultOptions()
	o.Overlay = OverlayUplift
	o3 := DefaultOptions3D()
	o3.UpliftAlpha = 0.5
	b := SurfaceBytes(nil, s, o, &o3)
	r := newRenderer(s, o.sanitized())
	defer r.release()
	for i := range s.W * s.H {
		x, y := i%s.W, i/s.W
		if got, want := upliftLUT[b[4*i]], r.overlay(x, y); got != want {
			t.Fatalf("cell %d: index %d gives %v, the relief draws %v", i, b[4*i], got, want)
		}
		if b[4*i+3] != b[4*i] {
			t.Fatalf("cell %d: 3D uplift index %d, 2D %d: the same ramp and scale", i, b[4*i+3], b[4*i])
		}
	}
}

// TestRampBytes: a ramp sampled by Ramp.Bytes is the lookup table Relief
// shades with, byte for byte (the height tint at 1024 entries is tint8),
// and the overlay tables rounded to bytes.
func TestRampBytes(t *testing.T) {
	b := rampOf(tintStops).Bytes(nil, len(tint8))
	if len(b) != 4*len(tint8) {
		t.Fatalf("%d bytes; want %d", len(b), 4*len(tint8))
	}
	for i, c := range tint8 {
		got := [4]byte(b[4*i : 4*i+4])
		if want := [4]byte{byte(c[0]), byte(c[1]), byte(c[2]), 255}; got != want {
			t.Fatalf("entry %d: got %v; want %v", i, got, want)
		}
	}
	b = rampOf(slopeStops).Bytes(b, len(slopeLUT))
	for i, c := range slopeLUT {
		for k := range 3 {
			if got, want := b[4*i+k], byte(c[k]*255+0.5); got != want {
				t.Fatalf("slope entry %d channel %d: got %d; want %d", i, k, got, want)
			}
		}
	}
	if b := (Ramp{}).Bytes(nil, 4); len(b) != 16 {
		t.Errorf("an empty ramp: %d bytes; want 16", len(b))
	}
}
