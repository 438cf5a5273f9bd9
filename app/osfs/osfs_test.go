package osfs

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
)

func TestRoots(t *testing.T) {
	r := Roots()
	if runtime.GOOS != "windows" {
		if !slices.Equal(r, []string{"/"}) {
			t.Errorf("Roots() = %q; want [/]", r)
		}
		return
	}
	// Under Wine C: is the prefix's drive_c and Z: is /; on Windows C:
	// holds the system.
	if !slices.Contains(r, `C:\`) {
		t.Errorf("Roots() = %q; want C:\\ among them", r)
	}
	if _, err := os.Stat(`Z:\`); err == nil && !slices.Contains(r, `Z:\`) {
		t.Errorf("Roots() = %q; Z:\\ exists but is missing", r)
	}
	for _, d := range r {
		if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
			t.Errorf("root %s: %v", d, err)
		}
	}
}

func TestHidden(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{".git", "Karte.png", "desktop.ini"} {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	setHidden(t, filepath.Join(dir, "desktop.ini"))
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, d := range ents {
		got[d.Name()] = Hidden(d)
	}
	want := map[string]bool{".git": true, "Karte.png": false, "desktop.ini": runtime.GOOS == "windows"}
	for n, w := range want {
		if got[n] != w {
			t.Errorf("Hidden(%s) = %v; want %v", n, got[n], w)
		}
	}
}
