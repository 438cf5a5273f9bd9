package ui_test

import (
	"encoding/json"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

// shaderViewsScript, a part of TestWindowSession's script, draws the
// views with the shaders (forced: auto would turn to the CPU on llvmpipe),
// pauses the engine and saves the 2D and 3D views as the shaders drew them
// (read back from the GPU) beside viewer's software pictures of the same
// snapshot and camera (view-picture); checkShaderViews compares them. The
// two reports around 10 frames with no new snapshot count the surface
// passes: none may be drawn (the relief is blitted).
const shaderViewsScript = `
views shader
pause
wait 30
await-relief
view-picture $OUT/relief.png
expect-log view picture relief.png
report $OUT/still-a.json
wait 10
report $OUT/still-b.json
view 3d
wait 40
view-picture $OUT/terrain.png
expect-log view picture terrain.png
view 2d
views auto
run
`

// checkShaderViews compares the pictures of shaderViewsScript. Tolerances:
// the 2D relief is the same picture, pixel for pixel, to float rounding
// (no channel more than 4 levels of 255 apart, at most 1 % of the pixels
// more than 2; measured: 1 level at most); the 3D view differs in how
// colours spread over a triangle (the shaders read the surface at every
// pixel, the software fill blends the vertex colours) and along
// silhouettes, where the shaders' mesh, capped by the canvas's size
// (shaderMesh: 327² for the 696×616 canvas of this 512² map), leaves
// ridge lines up to a pixel off viewer.Render3D's full mesh: the mean
// difference stays under 2 levels and at most 2 % of the pixels differ by
// more than 24 (measured on llvmpipe: mean 0.7, 0.12 % over 24 with the
// full mesh; mean 1.0, 0.85 % over 24 with the capped one).
func checkShaderViews(t *testing.T, dir string) {
	t.Helper()
	var still [2]struct {
		Frames int `json:"frames"`
		Passes int `json:"shader_passes"`
	}
	for i, name := range []string{"still-a.json", "still-b.json"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &still[i]); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	if still[0].Passes == 0 || still[1].Frames < still[0].Frames+10 || still[1].Passes != still[0].Passes {
		t.Errorf("frames without a new snapshot: %d to %d frames, surface passes %d to %d; want at least 10 frames, passes above 0 and unchanged",
			still[0].Frames, still[1].Frames, still[0].Passes, still[1].Passes)
	}
	got, want := readRGBA(t, filepath.Join(dir, "relief.png")), readRGBA(t, filepath.Join(dir, "relief-software.png"))
	if got.Rect != want.Rect || got.Rect.Dx() < 64 {
		t.Fatalf("2D: the shaders' picture is %v, the software's %v", got.Rect, want.Rect)
	}
	maxd, over, mean := compareRGBA(got, want, 2)
	t.Logf("shaders, 2D: largest difference %d, %.3f %% over 2, mean %.3f", maxd, 100*over, mean)
	if maxd > 4 || over > 0.01 {
		t.Errorf("2D: the shaders' relief differs from viewer.Relief: largest difference %d, %.2f %% over 2", maxd, 100*over)
	}
	got, want = readRGBA(t, filepath.Join(dir, "terrain.png")), readRGBA(t, filepath.Join(dir, "terrain-software.png"))
	if got.Rect != want.Rect || got.Rect.Dx() < 100 {
		t.Fatalf("3D: the shaders' picture is %v, the software's %v", got.Rect, want.Rect)
	}
	maxd, over, mean = compareRGBA(got, want, 24)
	t.Logf("shaders, 3D: largest difference %d, %.3f %% over 24, mean %.3f", maxd, 100*over, mean)
	if mean > 2 || over > 0.02 {
		t.Errorf("3D: the shaders' terrain differs from viewer.Render3D: mean difference %.2f, %.2f %% of the pixels over 24", mean, 100*over)
	}
}

func readRGBA(t *testing.T, path string) *image.RGBA {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	b := img.Bounds()
	out := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	for y := range b.Dy() {
		for x := range b.Dx() {
			out.Set(x, y, img.At(b.Min.X+x, b.Min.Y+y))
		}
	}
	return out
}

// compareRGBA returns the largest channel difference, the share of pixels
// with a channel more than tol apart, and the mean channel difference.
func compareRGBA(a, b *image.RGBA, tol int) (maxd int, over, mean float64) {
	n, sum := 0, 0
	for i := 0; i+3 < len(a.Pix); i += 4 {
		bad := false
		for c := range 3 {
			d := int(a.Pix[i+c]) - int(b.Pix[i+c])
			if d < 0 {
				d = -d
			}
			sum += d
			maxd = max(maxd, d)
			bad = bad || d > tol
		}
		if bad {
			n++
		}
	}
	px := len(a.Pix) / 4
	return maxd, float64(n) / float64(px), float64(sum) / float64(3*px)
}
