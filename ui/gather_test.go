package ui

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"orogen/sim/engine"
	"orogen/viewer"
)

// checkGatheredDiscs: the river image gathered (gather.kage, on a card)
// is the one the discs' quads draw (discs.kage, on a software
// rasterizer): coverage (R) and ramp position (G) within 1 level of 255 at
// every pixel, at full resolution and zoomed out (steps 2 to 4), narrow
// and wide rivers, lakes drawn or not, with the drainage overlay's pass
// under them; gathered in bands of rows, the same bytes as at once. Run inside TestShaderViewsMatchSoftware's game (Ebitengine
// runs one a process).
func checkGatheredDiscs(t *testing.T, g *gpuView, s *engine.Snapshot) error {
	cases := []struct {
		name      string
		thr, maxW float64
		lakes     bool
		ov        viewer.Overlay
		steps     []int
	}{
		{"default", 1e7, 4, true, viewer.OverlayNone, []int{1, 2, 4}},
		{"wide, no lakes", 2e6, 9, false, viewer.OverlayNone, []int{1, 2, 4}},
		{"3D width, odd threshold", 3.3e6, 7, true, viewer.OverlayDrainage, []int{1, 3}},
	}
	{
		g.f2.load(s)
		for _, c := range cases {
			o := viewer.DefaultOptions()
			o.RiverThresholdM2, o.RiverMaxPx, o.Lakes, o.Overlay = c.thr, c.maxW, c.lakes, c.ov
			p := viewer.ReliefParams(s, o)
			if !p.Rivers {
				return fmt.Errorf("%s: no rivers in the test terrain's parameters", c.name)
			}
			for _, step := range c.steps {
				var pics [2][]byte
				for k, gather := range []bool{false, true} {
					g.gather = gather
					g.f2.riversOf, g.rivLOf, g.discsOf = riversKey{}, riversKey{}, discsKey{}
					img, err := g.riverPass(&g.f2, s, &p, step, s.H)
					if err != nil {
						return err
					}
					b := img.Bounds()
					pics[k] = make([]byte, 4*b.Dx()*b.Dy())
					img.ReadPixels(pics[k])
				}
				// Gathered in three bands of rows, as a picture drawn
				// over frames draws them: the same bytes.
				g.gather = true
				g.f2.riversOf, g.rivLOf = riversKey{}, riversKey{}
				var img *ebiten.Image
				for _, y1 := range []int{1, s.H / 3, s.H / 3, 2 * s.H / 3, s.H} {
					var err error
					if img, err = g.riverPass(&g.f2, s, &p, step, (y1+step-1)/step); err != nil {
						return err
					}
				}
				banded := make([]byte, len(pics[1]))
				img.ReadPixels(banded)
				if !bytes.Equal(banded, pics[1]) {
					t.Errorf("%s, step %d: the river image gathered in bands differs from the one gathered at once", c.name, step)
				}
				worst, covered := 0, 0
				for i := 0; i < len(pics[0]); i += 4 {
					for ch := range 2 {
						worst = max(worst, abs(int(pics[0][i+ch])-int(pics[1][i+ch])))
					}
					if pics[0][i] > 0 {
						covered++
					}
				}
				t.Logf("%s, step %d: %d pixels with a river, largest difference %d", c.name, step, covered, worst)
				if covered == 0 || worst > 1 {
					t.Errorf("%s, step %d: gathered discs differ from the quads by up to %d levels (%d pixels with a river); want ≤ 1 and some river", c.name, step, worst, covered)
				}
			}
		}
		g.gather = false
		return nil
	}
}
