package export

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestMasksNamed: the dialog's base name prefixes every file, so two
// exports into one folder do not overwrite each other; no prefix keeps
// the plain names.
func TestMasksNamed(t *testing.T) {
	dir := t.TempDir()
	a, err := MasksNamed(dir, "north", ".png", ramp(), 1)
	if err != nil {
		t.Fatal(err)
	}
	b, err := MasksNamed(dir, "", ".png", ramp(), 1)
	if err != nil {
		t.Fatal(err)
	}
	for i, name := range Names {
		if filepath.Base(a[i]) != "north-"+name+".png" || filepath.Base(b[i]) != name+".png" {
			t.Errorf("mask %s: %s and %s; want north-%[1]s.png and %[1]s.png", name, a[i], b[i])
		}
	}
	for _, p := range slices.Concat(a, b) {
		if _, err := os.Stat(p); err != nil {
			t.Error(err)
		}
	}
}

// TestWaterMaskDry: depths below DryDepthM (a numerical film) are 0, so a
// dry terrain's 16-bit water mask is black, not stretched to nanometres.
func TestWaterMaskDry(t *testing.T) {
	s := ramp()
	s.Water[5] = 0
	s.Water[6] = 6.8e-10
	s.Water[7] = DryDepthM
	w := Mask("water", s, 1)
	if w[6] != 0 || w[7] != DryDepthM {
		t.Fatalf("water 6.8e-10 m → %v, %g m → %v; want 0 and kept", w[6], DryDepthM, w[7])
	}
}
