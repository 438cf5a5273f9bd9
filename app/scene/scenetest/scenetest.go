// Package scenetest pins tests to an explicit physics. A test that needs a
// quick steady state, or figures fixed on a small grid, takes a preset's
// grid, uplift and seed here with the classic physics, so that it does not
// move when the preset is retuned (issue 34 gave `default` and `cone` the
// soil physics: creep, deposition, k noise, random hillslope routing and a
// base-level plain, which take hundreds of steps to settle at 64–128² where
// the classic physics takes tens). Tests about the presets themselves load
// the presets.
package scenetest

import (
	"os"
	"path/filepath"
	"testing"

	"orogen/app/scene"
)

// Classic returns preset name (a scene.PresetNames name) with the classic
// physics: the detachment-limited stream power of Cordonnier et al. 2016
// §6 with a constant talus of 30°, no diffusion, no creep, no deposition,
// uniform k and D8 routing (scene.Default's parameters, which `default`
// and `cone` shipped with before issue 34), keeping the preset's edges.
// The scene is the embedded preset's: its uplift image is read from the
// binary.
func Classic(t testing.TB, name string) *scene.Scene {
	t.Helper()
	sc, err := scene.Load(name)
	if err != nil {
		t.Fatal(err)
	}
	if !sc.Embedded() {
		t.Fatalf("scenetest: %s is not a preset", name)
	}
	edges := sc.Params.Edges
	sc.Params = scene.Default().Params
	sc.Params.Edges = edges
	return sc
}

// File writes Classic(name) and its uplift image into a fresh directory
// of t and returns the scene file's path, for `orogen run --scene`,
// run.Options.Scene, scene.Load or session.LoadScene. The scene keeps the
// preset's name.
func File(t testing.TB, name string) string {
	t.Helper()
	sc := Classic(t, name)
	dir := t.TempDir()
	if img := sc.Uplift.Image; img != "" {
		b, err := sc.ReadFile(img)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(img)), b, 0o644); err != nil {
			t.Fatal(err)
		}
		sc.Uplift.Image = filepath.Base(img)
	}
	b, err := scene.Marshal(sc)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name+".json")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
