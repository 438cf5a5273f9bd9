//go:build unix

package ui_test

import (
	"image"
	"path/filepath"
	"testing"
)

// TestWindowSection drives the Cross-section tool with real X events: a
// click on its radio button in the Tools panel, then a drag across the map
// of the strata preset. The window then shows the profile with its rock
// layers, and two screenshots a few frames apart show the Cross-section
// window and the Tools panel the same, pixel for pixel (the stray lines of
// issue 30 changed every frame and crossed both: the profile's polyline
// went to C as one point, and C read the others from whatever followed
// it).
func TestWindowSection(t *testing.T) {
	x := startX(t, `
new strata 256
steps 20
wait 3
signal $S1
await-tool Cross-section
signal $S2
await-section drag
signal $S3
await-section
wait 3
screenshot $OUT/a.png
wait 3
screenshot $OUT/b.png
signal $S4
quit
`, 4)
	var l struct {
		layout
		Items map[string][4]float32 `json:"items"`
	}
	x.wait(1, &l)
	r, ok := l.Items["Cross-section"]
	if !ok {
		t.Fatalf("no Cross-section radio button among %v", l.Items)
	}
	x.xdo(append(x.move(float64(r[0]+r[2])/2, float64(r[1]+r[3])/2), "click", "1")...)
	x.wait(2, &l)
	// Across the map at mid height, from 15 % to 85 % of the 2D view.
	at := func(f float64) float64 { return float64(l.Map[0]) + f*float64(l.Map[2]-l.Map[0]) }
	midY := float64(l.Map[1]+l.Map[3]) / 2
	// Press; once the press is seen, drag to the end and release.
	x.xdo(append(x.move(at(0.15), midY), "mousedown", "1")...)
	x.wait(3, &l)
	for _, f := range []float64{0.3, 0.5, 0.7, 0.85} {
		x.xdo(x.move(at(f), midY)...)
	}
	x.xdo("mouseup", "1")
	x.wait(4, &l)
	x.end()
	dir := x.dir

	a, b := readPNG(t, filepath.Join(dir, "a.png")), readPNG(t, filepath.Join(dir, "b.png"))
	for _, name := range []string{"Cross-section", "Tools"} {
		rr, ok := l.Items[name]
		if !ok {
			t.Fatalf("no %s window among %v", name, l.Items)
		}
		rect := image.Rect(int(rr[0]), int(rr[1]), int(rr[2]), int(rr[3])).Intersect(a.Bounds())
		if rect.Dx() < 50 || rect.Dy() < 50 {
			t.Fatalf("%s window is %v", name, rect)
		}
		diff := 0
		for y := rect.Min.Y; y < rect.Max.Y; y++ {
			for x := rect.Min.X; x < rect.Max.X; x++ {
				if a.At(x, y) != b.At(x, y) {
					diff++
				}
			}
		}
		if diff > 0 {
			t.Errorf("%s window: %d pixels differ between two frames of a paused engine; want none", name, diff)
		}
		if name != "Cross-section" {
			continue
		}
		// The strata: several rock colours, each over a sizeable area.
		count := map[[3]uint32]int{}
		for y := rect.Min.Y; y < rect.Max.Y; y++ {
			for x := rect.Min.X; x < rect.Max.X; x++ {
				r, g, b, _ := a.At(x, y).RGBA()
				count[[3]uint32{r >> 8, g >> 8, b >> 8}]++
			}
		}
		big := 0
		for _, n := range count {
			if n >= rect.Dx()*rect.Dy()/100 {
				big++
			}
		}
		if big < 4 {
			t.Errorf("the Cross-section window shows %d colours over 1 %% of it or more; want the background and at least three rock layers", big)
		}
	}
}
