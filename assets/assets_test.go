package assets

import (
	"image"
	"image/png"
	"path"
	"testing"

	"orogen/assets/internal/shapes"
)

// TestPresetsMatchShapes renders every shape again and demands the
// committed uplift map hold the same pixels, so the files never drift from
// their definitions (regenerate with go generate ./assets).
func TestPresetsMatchShapes(t *testing.T) {
	for _, s := range shapes.All {
		f, err := Presets.Open(path.Join(PresetDir, s.Name+"-uplift.png"))
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", s.Name, err)
		}
		got, ok := img.(*image.Gray16)
		if !ok {
			t.Fatalf("%s: %T; want a 16-bit grayscale PNG", s.Name, img)
		}
		want := shapes.Render(s.F, shapes.Size, shapes.Size)
		if got.Rect != want.Rect {
			t.Fatalf("%s: size %v; want %v", s.Name, got.Rect, want.Rect)
		}
		for y := 0; y < shapes.Size; y++ {
			for x := 0; x < shapes.Size; x++ {
				if g, w := got.Gray16At(x, y).Y, want.Gray16At(x, y).Y; g != w {
					t.Fatalf("%s: pixel (%d, %d) = %d; the shape gives %d: run go generate ./assets", s.Name, x, y, g, w)
				}
			}
		}
	}
}
