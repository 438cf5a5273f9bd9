package ui

import (
	"bytes"
	"fmt"
	"slices"
	"testing"

	"github.com/hajimehoshi/ebiten/v2"

	"orogen/sim/engine"
	"orogen/viewer"
)

// checkFieldPairs: a field set's two pairs of textures (fieldSet). While a
// new snapshot goes up in bands into the back pair, the front keeps the
// old one, which a picture can still draw from with no upload (the split
// view's 3D side); once whole the new one is the front and its textures
// hold its floats' bytes exactly, and the old one stays in the back, drawn
// from again with no upload; a third snapshot goes into the pair drawn
// from least recently. Written straight and through the staging ring (a
// card's path: the ring wraps around, 14 bands through 4 textures). Both
// views' sets share a frame's upload budget. Run inside
// TestShaderViewsMatchSoftware's game.
func checkFieldPairs(t *testing.T, g *gpuView, s1 *engine.Snapshot) error {
	vary := func(s *engine.Snapshot, by float32) *engine.Snapshot {
		c := *s
		c.Height, c.Area, c.Water = slices.Clone(s.Height), slices.Clone(s.Area), slices.Clone(s.Water)
		for k := range c.Height {
			c.Height[k] += by * float32(k%89)
			c.Area[k] += by * 1e4
			c.Water[k] += by * float32(k%7) * 0.25
		}
		return &c
	}
	s2, s3 := vary(s1, 0.5), vary(s1, 1.5)
	if len(s1.Area) == 0 || len(s1.Water) == 0 {
		return fmt.Errorf("the test terrain has no drainage area or water")
	}
	// same reports whether the front textures hold s's floats exactly.
	same := func(f *fieldSet, s *engine.Snapshot) error {
		for _, c := range []struct {
			name string
			im   *ebiten.Image
			v    []float32
		}{{"heights", f.hgt, s.Height}, {"areas", f.area, s.Area}, {"water", f.water, s.Water}} {
			got := make([]byte, 4*s.W*s.H)
			c.im.ReadPixels(got)
			if !bytes.Equal(got, floatBytes(c.v)) {
				return fmt.Errorf("the front's %s are not the snapshot's bytes", c.name)
			}
		}
		return nil
	}
	defer func(b int) { uploadBudget = b }(uploadBudget)
	uploadBudget = 4 * s1.W * 3 * 7 // bands of 7 rows
	bands := ceilDiv(s1.H, 7)
	o3, o2 := viewer.DefaultOptions3D(), viewer.DefaultOptions()
	for _, staged := range []bool{false, true} {
		name := map[bool]string{false: "straight", true: "staged"}[staged]
		g.forget()
		g.f2.staged = staged
		g.f2.load(s1)
		if err := same(&g.f2, s1); err != nil {
			return fmt.Errorf("%s, loaded whole: %w", name, err)
		}
		calls := 0
		for done := false; !done; calls++ {
			done, _ = g.f2.loadSome(s2, uploadBudget)
			if calls == 0 {
				// Mid-way: the 3D view of the old snapshot draws from the
				// front, uploading nothing.
				if g.fieldsOf(s1) != &g.f2 || g.fieldsOf(s2) != &g.f2 {
					t.Errorf("%s: while s2 goes up the 3D view draws s1 from the 2D set %v, s2 %v; want both", name, g.fieldsOf(s1) == &g.f2, g.fieldsOf(s2) == &g.f2)
				}
				up := g.f2.uploads + g.f3.uploads
				if _, err := g.surface3DImage(s1, nil, o3, o2); err != nil {
					return err
				}
				if n := g.f2.uploads + g.f3.uploads - up; n != 0 || !g.f2.holds(s1) {
					t.Errorf("%s: the 3D surface of s1 while s2 went up wrote %d textures (front holds s1: %v); want none", name, n, g.f2.holds(s1))
				}
			}
		}
		if calls != bands {
			t.Errorf("%s: s2 went up in %d bands; want %d", name, calls, bands)
		}
		if !g.f2.holds(s2) || !g.f2.back.holds(s1) {
			t.Fatalf("%s: after s2's last band the front holds s2 %v, the back s1 %v; want both", name, g.f2.holds(s2), g.f2.back.holds(s1))
		}
		if err := same(&g.f2, s2); err != nil {
			return fmt.Errorf("%s, loaded in bands: %w", name, err)
		}
		up := g.f2.uploads
		g.f2.load(s1)
		if g.f2.uploads != up || !g.f2.holds(s1) {
			t.Errorf("%s: s1, in the back, wrote %d textures to be drawn again; want none", name, g.f2.uploads-up)
		}
		if err := same(&g.f2, s1); err != nil {
			return fmt.Errorf("%s, picked again: %w", name, err)
		}
		// s1 drawn from last: s3 replaces s2.
		for done, _ := g.f2.loadSome(s3, uploadBudget); !done; done, _ = g.f2.loadSome(s3, uploadBudget) {
			if !g.f2.holds(s1) {
				t.Fatalf("%s: s1, drawn from last, was replaced while s3 went up", name)
			}
		}
		if !g.f2.holds(s3) || !g.f2.back.holds(s1) {
			t.Errorf("%s: after s3 the pairs hold s3 %v and s1 %v; want both", name, g.f2.holds(s3), g.f2.back.holds(s1))
		}
		if err := same(&g.f2, s3); err != nil {
			return fmt.Errorf("%s, s3: %w", name, err)
		}
		t.Logf("%s: %d bands a snapshot, %d staging textures", name, bands, len(g.f2.stage.ims))
	}
	g.f2.staged = false
	// Both views' sets share a frame's budget (loadBand): the frame that
	// sent the 2D set a band sends the 3D set none; the next one does.
	g.forget()
	g.newFrame()
	up2, up3 := g.f2.uploads, g.f3.uploads
	g.loadBand(&g.f2, s2)
	g.loadBand(&g.f3, s3)
	if g.f2.uploads-up2 != 3 || g.f3.uploads != up3 {
		t.Errorf("one frame's bands: %d textures of the 2D set, %d of the 3D set; want 3 and none", g.f2.uploads-up2, g.f3.uploads-up3)
	}
	g.newFrame()
	g.loadBand(&g.f3, s3)
	if g.f3.uploads-up3 != 3 {
		t.Errorf("the next frame sent %d textures of the 3D set; want 3", g.f3.uploads-up3)
	}
	g.forget()
	return nil
}
