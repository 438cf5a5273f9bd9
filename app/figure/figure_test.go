package figure

import (
	"bytes"
	"image/png"
	"math"
	"testing"

	"orogen/sim"
	"orogen/sim/analysis"
	"orogen/sim/flow"
	"orogen/sim/simtest"
)

// The figure of a real analysis has its size, survives a PNG round trip,
// and draws every panel: each third holds ink, fit red and scatter blue.
func TestAnalysisFigure(t *testing.T) {
	f := sim.NewField(120, 100, 40)
	copy(f.Data, simtest.Rough(120, 100, 300, 3))
	nat := flow.Edges{North: flow.Natural, South: flow.Natural, East: flow.Natural, West: flow.Natural}
	r, err := analysis.Analyze(f, analysis.Options{Edges: nat, MinArea: 20})
	if err != nil {
		t.Fatal(err)
	}
	img := Analysis(r, "rough.tif")
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	back, err := png.Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if b := back.Bounds(); b.Dx() != Width || b.Dy() != Height {
		t.Fatalf("figure %v; want %d×%d", b, Width, Height)
	}
	for p := range 3 {
		var dark, red, blue int
		for y := 0; y < Height; y++ {
			for x := p * Width / 3; x < (p+1)*Width/3; x++ {
				c := img.RGBAAt(x, y)
				switch {
				case c.R < 80 && c.G < 80 && c.B < 80:
					dark++
				case c.R > 150 && c.G < 90 && c.B < 90:
					red++
				case c.B > 120 && c.R < 130 && c.G < 160:
					blue++
				}
			}
		}
		// Thresholds: text and axes give thousands of dark pixels; a fit
		// line across the panel hundreds of red ones; the scatter (not on
		// the hypsometric panel) a hundred blue ones at least (a rough
		// terrain has few river cells that slope downhill).
		if dark < 2000 || red < 200 || (p < 2 && blue < 100) {
			t.Errorf("panel %d: %d dark, %d red, %d blue pixels: a part is missing", p, dark, red, blue)
		}
	}
	if math.IsNaN(r.Hypsometric) {
		t.Fatal("no hypsometry")
	}
}
