package viewer

import (
	"bytes"
	"testing"
)

// TestHydroOverlays: the hardness overlay tells soft from hard rock, the
// sediment overlay darkens where sediment is carried, and a snapshot
// without those fields draws as with no overlay.
func TestHydroOverlays(t *testing.T) {
	const w, h = 32, 16
	s := flatSnap(w, h, nil)
	o := DefaultOptions()
	o.OverlayAlpha = 1
	plain := Relief(nil, s, DefaultOptions())
	for _, ov := range []Overlay{OverlaySediment, OverlayHardness} {
		o.Overlay = ov
		if got := Relief(nil, s, o); !bytes.Equal(got.Pix, plain.Pix) {
			t.Errorf("%v overlay on a snapshot without the field changed the picture", ov)
		}
	}
	s.Hardness = make([]float32, w*h)
	s.Sediment = make([]float32, w*h)
	for y := range h {
		for x := w / 2; x < w; x++ {
			s.Hardness[y*w+x] = 1
			s.Sediment[y*w+x] = 0.3
		}
	}
	lum := func(c [4]uint8) int { return 299*int(c[0]) + 587*int(c[1]) + 114*int(c[2]) }
	for _, ov := range []Overlay{OverlaySediment, OverlayHardness} {
		o.Overlay = ov
		img := Relief(nil, s, o)
		soft, hard := pixel(img, 4, 8), pixel(img, w-4, 8)
		if lum(hard) >= lum(soft)-50000 {
			t.Errorf("%v overlay: %v at 0, %v at the top; want the top clearly darker", ov, soft, hard)
		}
	}
	if got, err := ParseOverlay("Hardness"); err != nil || got != OverlayHardness {
		t.Errorf("ParseOverlay(Hardness) = %v, %v", got, err)
	}
}
