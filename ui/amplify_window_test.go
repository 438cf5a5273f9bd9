package ui_test

import (
	"encoding/json"
	"image"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The Amplify preview in the real window: the window set, the preview
// turned on, moved, its result waited for (the script's amplify commands
// wait until the preview of the newest window is amplified and its
// picture uploaded: no sleep), then the screenshots compared with the
// plain map: inside the window the amplified relief differs from the
// coarse map's upsample, where the window was before its move and far
// from it the map is as it was.
func TestWindowAmplify(t *testing.T) {
	if testing.Short() {
		t.Skip("the window session runs in the full (non -short) test run")
	}
	needDisplay(t)
	bin := buildOrogen(t)
	dir, _ := session(t, bin, `
steps 80
amplify-factor 4
amplify-window 30 40 48
wait 5
screenshot $OUT/plain.png
amplify-preview on
expect-log amplify preview on
amplify-window 130 110 48
expect-log amplify window: cells 130, 110 to 177, 157 at 4×
wait 3
screenshot $OUT/amplified.png
report $OUT/report.json
view 3d
wait 10
screenshot $OUT/amplified-3d.png
amplify-preview off
view 2d
quit
`, "--size", "256")
	var rep struct {
		Amplify *struct {
			Status  string     `json:"status"`
			X       int        `json:"x"`
			Y       int        `json:"y"`
			Size    int        `json:"size"`
			Factor  int        `json:"factor"`
			FineW   int        `json:"fine_w"`
			FineH   int        `json:"fine_h"`
			Seconds float64    `json:"seconds"`
			Screen  [4]float64 `json:"screen"`
			Error   string     `json:"error"`
		} `json:"amplify"`
	}
	b, err := os.ReadFile(filepath.Join(dir, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	am := rep.Amplify
	if am == nil || am.Error != "" || am.FineW != 192 || am.FineH != 192 || !strings.HasPrefix(am.Status, "amplified 48² → 192² in ") {
		t.Fatalf("report's amplify %+v; want 48² cells amplified to 192², no error", am)
	}
	t.Logf("amplify: %s", am.Status)
	// Screen pixels of cell (cx, cy)'s corner, from the window's rectangle
	// (its corner is cell 130, 110; 48 cells wide).
	zoom := (am.Screen[2] - am.Screen[0]) / 48
	if zoom <= 0 {
		t.Fatalf("window on screen %v; want a rectangle", am.Screen)
	}
	at := func(cx, cy float64) (int, int) {
		return int(am.Screen[0] + (cx-130)*zoom), int(am.Screen[1] + (cy-110)*zoom)
	}
	plain, amp := readPNG(t, filepath.Join(dir, "plain.png")), readPNG(t, filepath.Join(dir, "amplified.png"))
	// diff is the mean over cells [x0, x1) × [y0, y1), a pixel in from
	// their edges, of the sum of the channels' differences (0..765).
	diff := func(x0, y0, x1, y1 float64) float64 {
		sx0, sy0 := at(x0, y0)
		sx1, sy1 := at(x1, y1)
		r := image.Rect(sx0+2, sy0+2, sx1-2, sy1-2).Intersect(plain.Bounds())
		if r.Dx() < 10 || r.Dy() < 10 {
			t.Fatalf("cells %g, %g to %g, %g are %v on the screen; want a region to compare", x0, y0, x1, y1, r)
		}
		var d float64
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				r0, g0, b0, _ := plain.At(x, y).RGBA()
				r1, g1, b1, _ := amp.At(x, y).RGBA()
				d += math.Abs(float64(r0>>8)-float64(r1>>8)) + math.Abs(float64(g0>>8)-float64(g1>>8)) + math.Abs(float64(b0>>8)-float64(b1>>8))
			}
		}
		return d / float64(r.Dx()*r.Dy())
	}
	// Inside the window, below its tab: the amplified relief, hillshaded at
	// four times the resolution, is not the coarse map's upsample. The
	// bound is well under what fine ridges and river beds change, and far
	// over the 0 of the same picture drawn twice.
	d := diff(134, 118, 176, 156)
	t.Logf("inside the window the picture changed by %.1f per pixel (sum of channels)", d)
	if d < 10 {
		t.Errorf("inside the amplified window the picture changed by %.2f per pixel (sum of channels); want the amplified relief (≥ 10)", d)
	}
	// Where the window was before its move, and far from it: the map as it
	// was (the engine is paused; the same picture, to rounding).
	for _, c := range [][4]float64{{32, 42, 76, 86}, {10, 180, 60, 230}} {
		if d := diff(c[0], c[1], c[2], c[3]); d > 1 {
			t.Errorf("cells %g, %g to %g, %g changed by %.2f per pixel with the preview on; want the map as it was (≤ 1)", c[0], c[1], c[2], c[3], d)
		}
	}
	// The 3D view shows the window: its picture is not empty sky.
	sky := readPNG(t, filepath.Join(dir, "amplified-3d.png"))
	bb := sky.Bounds()
	var lo, hi uint32 = math.MaxUint32, 0
	for y := bb.Dy() * 3 / 10; y < bb.Dy()*6/10; y += 4 {
		for x := bb.Dx() * 3 / 10; x < bb.Dx()*6/10; x += 4 {
			r, g, b, _ := sky.At(x, y).RGBA()
			v := (r + g + b) >> 8
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	if hi-lo < 30 {
		t.Errorf("3D view of the amplified window: brightness %d to %d in its centre; want a shaded terrain", lo, hi)
	}
}
