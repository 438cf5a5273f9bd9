package viewer

import (
	"image"
	"image/color"
	"testing"
)

func fill(img *image.RGBA, c color.RGBA) {
	for y := img.Rect.Min.Y; y < img.Rect.Max.Y; y++ {
		for x := img.Rect.Min.X; x < img.Rect.Max.X; x++ {
			img.SetRGBA(x, y, c)
		}
	}
}

// TestResizeLetterboxes scales a uniform image into wider and taller
// frames: the content keeps its colour exactly (weights sum to 1; ±0
// because a uniform colour times weights summing to 1 rounds back), keeps
// its aspect ratio and is centred, and the margins are the letterbox grey.
func TestResizeLetterboxes(t *testing.T) {
	red := color.RGBA{200, 30, 40, 255}
	box := color.RGBA{letterboxColour[0], letterboxColour[1], letterboxColour[2], letterboxColour[3]}
	cases := []struct {
		sw, sh, dw, dh int
		content        image.Rectangle
	}{
		{100, 50, 400, 400, image.Rect(0, 100, 400, 300)}, // enlarge, bars top and bottom
		{100, 50, 60, 100, image.Rect(0, 35, 60, 65)},     // shrink, bars top and bottom
		{50, 100, 400, 100, image.Rect(175, 0, 225, 100)}, // bars left and right
		{64, 64, 64, 64, image.Rect(0, 0, 64, 64)},        // same size
	}
	for _, tc := range cases {
		src := image.NewRGBA(image.Rect(0, 0, tc.sw, tc.sh))
		fill(src, red)
		dst := Resize(image.NewRGBA(image.Rect(0, 0, tc.dw, tc.dh)), src)
		for y := range tc.dh {
			for x := range tc.dw {
				want := box
				if (image.Point{x, y}).In(tc.content) {
					want = red
				}
				if got := dst.RGBAAt(x, y); got != want {
					t.Fatalf("%d×%d into %d×%d: pixel (%d, %d) got %v; want %v", tc.sw, tc.sh, tc.dw, tc.dh, x, y, got, want)
				}
			}
		}
	}
}

// TestResizeSameSizeIsIdentity: at scale 1 the tent filter puts all the
// weight on the source pixel, so the copy is exact.
func TestResizeSameSizeIsIdentity(t *testing.T) {
	src := Relief(nil, synthetic(), DefaultOptions())
	dst := Resize(image.NewRGBA(src.Rect), src)
	for i := range src.Pix {
		if src.Pix[i] != dst.Pix[i] {
			t.Fatalf("byte %d: got %d; want %d", i, dst.Pix[i], src.Pix[i])
		}
	}
}

// TestResizeAveragesWhenShrinking: a one-pixel checkerboard halved turns
// mid grey (the tent averages neighbours), not back into black or white
// as sampling would. Tolerance ±1: one rounding.
func TestResizeAveragesWhenShrinking(t *testing.T) {
	src := image.NewRGBA(image.Rect(0, 0, 64, 64))
	for y := range 64 {
		for x := range 64 {
			v := uint8(0)
			if (x+y)%2 == 0 {
				v = 254
			}
			src.SetRGBA(x, y, color.RGBA{v, v, v, 255})
		}
	}
	dst := Resize(image.NewRGBA(image.Rect(0, 0, 32, 32)), src)
	for y := 1; y < 31; y++ {
		for x := 1; x < 31; x++ {
			if c := dst.RGBAAt(x, y); c.R < 126 || c.R > 128 {
				t.Fatalf("pixel (%d, %d): got %v; want grey 127 (±1)", x, y, c)
			}
		}
	}
}
