package build

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"orogen/sim/graph"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"orogen/app/engines"
	"orogen/app/export"
	"orogen/app/project"
	"orogen/app/run"
	"orogen/app/safefile"
	"orogen/app/scene"
	"orogen/sim/engine"
	"orogen/sim/grid"
)

// cone loads the cone project of app/project's test data (32×24 cells,
// 200 steps), with steps cut to keep the test short.
func cone(t *testing.T, steps int) *project.Project {
	t.Helper()
	p, err := project.Load(filepath.Join("..", "project", "testdata", "v1", "cone.orogen.json"))
	if err != nil {
		t.Fatal(err)
	}
	p.Scene.Steps = steps
	return p
}

func TestPresetsDeterministic(t *testing.T) {
	// Every preset, built with GOMAXPROCS 1 and 2, lists the same files
	// with the same checksums.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, name := range export.Presets {
		var reps [2]*Report
		for i, procs := range []int{1, 2} {
			runtime.GOMAXPROCS(procs)
			p := cone(t, 30)
			var err error
			if p.Export, err = export.Preset(name, 32); err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			if reps[i], err = Build(context.Background(), p, Options{OutDir: dir, Name: "cone"}); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if _, err := os.Stat(filepath.Join(dir, ReportName)); err != nil {
				t.Fatal(err)
			}
		}
		if !reflect.DeepEqual(reps[0], reps[1]) {
			t.Errorf("%s: GOMAXPROCS 1 and 2 differ:\n%+v\n%+v", name, reps[0], reps[1])
		}
		n := 0
		for _, o := range reps[0].Outputs {
			n += len(o.Files)
			for _, f := range o.Files {
				if len(f.SHA256) != 64 || f.Bytes == 0 {
					t.Errorf("%s: %+v", name, f)
				}
			}
		}
		if n < 8 {
			t.Errorf("%s: %d files", name, n)
		}
	}
}

// leftovers returns the names under dir that look like unfinished saves
// (safefile's temporary files start with a dot).
func leftovers(t *testing.T, dir string) []string {
	var bad []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasPrefix(d.Name(), ".") {
			bad = append(bad, p)
		}
		return nil
	})
	return bad
}

// snapshotDir returns every file under dir with its bytes.
func snapshotDir(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			m[p] = string(b)
		}
		return nil
	})
	return m
}

// checkReport checks that the build report in dir lists each file once
// and that every file has the size and SHA-256 it gives.
func checkReport(t *testing.T, dir string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, ReportName))
	if err != nil {
		t.Fatal(err)
	}
	var r Report
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, o := range r.Outputs {
		for _, f := range o.Files {
			if seen[f.Path] {
				t.Errorf("the report lists %s twice", f.Path)
			}
			seen[f.Path] = true
			data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f.Path)))
			if err != nil {
				t.Errorf("report lists %s: %v", f.Path, err)
				continue
			}
			if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) != f.SHA256 || int64(len(data)) != f.Bytes {
				t.Errorf("%s: %d bytes, not the %d with the SHA-256 the report gives", f.Path, len(data), f.Bytes)
			}
		}
	}
	if len(seen) == 0 {
		t.Error("the report lists no file")
	}
}

func TestBadBuilds(t *testing.T) {
	prof := func(outs ...export.Output) *export.Profile { return &export.Profile{Outputs: outs} }
	h := export.Output{Kind: "heightmap", Format: "png", Target: "unreal", Size: 127, Path: "h"}
	for _, c := range []struct {
		name string
		p    *export.Profile
		want string
	}{
		{"no profile", nil, "no export profile"},
		{"unknown target", prof(export.Output{Kind: "heightmap", Format: "png", Target: "cry", Size: 127, Path: "h"}), `unknown target "cry"`},
		{"size refused", prof(export.Output{Kind: "heightmap", Format: "r16", Target: "unity", Size: 100, Path: "h"}), "unity does not take a size of 100"},
		// A tiled heightmap h (h_x0_y0.png ...) and a mask named like its
		// first tile: refused before the run, not one file listed twice.
		{"tile collision", prof(export.Output{Kind: "heightmap", Format: "png", Size: 33, Tiles: "2x2", Path: "h"},
			export.Output{Kind: "mask", Mask: "slope", Format: "png", Path: "h_x0_y0"}),
			"output 1 (h.png) and output 2 (h_x0_y0.png) both write"},
	} {
		p := cone(t, 2)
		p.Export = c.p
		dir := t.TempDir()
		_, err := Build(context.Background(), p, Options{OutDir: dir, Name: "c"})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v; want an error containing %q", c.name, err, c.want)
		}
		if ents, _ := os.ReadDir(dir); len(ents) != 0 {
			t.Errorf("%s: wrote %d files", c.name, len(ents))
		}
	}

	// A path that cannot be written: its folder is a file.
	p := cone(t, 2)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "sub"), []byte("x"), 0o644)
	p.Export = prof(export.Output{Kind: "heightmap", Format: "png", Target: "unreal", Size: 127, Path: "sub/h"})
	if _, err := Build(context.Background(), p, Options{OutDir: dir, Name: "c"}); err == nil || !strings.Contains(err.Error(), "cannot make its folder") {
		t.Errorf("folder is a file: got %v", err)
	}
	// The final name is a folder.
	dir = t.TempDir()
	os.Mkdir(filepath.Join(dir, "h.png"), 0o755)
	p.Export = prof(h)
	if _, err := Build(context.Background(), p, Options{OutDir: dir, Name: "c"}); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("final name is a folder: got %v", err)
	}

	// A disk that fills mid-rebuild: the second output fails after 1000
	// bytes of one of its files. The folder keeps the previous build
	// whole (its report's checksums all hold), no temporary file is left.
	dir = t.TempDir()
	p.Export = prof(h, export.Output{Kind: "splat", Format: "png", Size: 127, Path: "s"})
	if _, err := Build(context.Background(), p, Options{OutDir: dir, Name: "c"}); err != nil {
		t.Fatal(err)
	}
	before := snapshotDir(t, dir)
	p2 := cone(t, 3) // other heights: every file would change
	p2.Export = p.Export
	restore := func() {}
	o := Options{OutDir: dir, Name: "c", Progress: func(f float64, what string) {
		if what == "writing s.png" {
			restore = safefile.FailAfter(1000, syscall.ENOSPC)
		}
	}}
	_, err := Build(context.Background(), p2, o)
	restore()
	if err == nil || !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), "output 2 (s.png)") {
		t.Errorf("full disk: got %v; want ENOSPC naming output 2", err)
	}
	if after := snapshotDir(t, dir); !reflect.DeepEqual(before, after) {
		t.Errorf("full disk: the folder changed: %d files before, %d after", len(before), len(after))
	}
	checkReport(t, dir)
	if l := leftovers(t, dir); len(l) > 0 {
		t.Errorf("full disk: left %v", l)
	}

	// A build whose amplified output cannot fit in the memory available is
	// refused before it simulates, and names the grid that would fit
	// (issue 31.4); without the amplification it fits.
	func() {
		defer func(f func() int64) { run.AvailableMemory = f }(run.AvailableMemory)
		run.AvailableMemory = func() int64 {
			return engines.EstimateBytes(engines.Spec{Kind: grid.Kind, W: 32, H: 24, Params: engine.DefaultParams()}, 1) + 1<<10
		}
		dir := t.TempDir()
		p := cone(t, 2)
		p.Export = prof(export.Output{Kind: "heightmap", Format: "png", Size: 255, Path: "big"})
		_, err := Build(context.Background(), p, Options{OutDir: dir, Name: "c"})
		if err == nil || !strings.Contains(err.Error(), "build: a 32×24 build amplified ×8 needs about") || !strings.Contains(err.Error(), "cells a side (the scene's width and height) fits") {
			t.Errorf("amplified past the memory: got %v", err)
		}
		if ents, _ := os.ReadDir(dir); len(ents) != 0 {
			t.Errorf("amplified past the memory: wrote %d files", len(ents))
		}
		p.Export = prof(export.Output{Kind: "heightmap", Format: "png", Size: 32, Path: "small"})
		if _, err := Build(context.Background(), p, Options{OutDir: dir, Name: "c"}); err != nil {
			t.Errorf("a build at the grid's size: %v", err)
		}
	}()

	// Cancelled before the outputs.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	dir = t.TempDir()
	if _, err := Build(ctx, p, Options{OutDir: dir, Name: "c"}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: got %v", err)
	}
}

func TestGraphDeterministic(t *testing.T) {
	// The stream graph too builds to the same bytes with 1 and 2 cores.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	var reps [2]*Report
	for i, procs := range []int{1, 2} {
		runtime.GOMAXPROCS(procs)
		sc, err := scene.Load("default")
		if err != nil {
			t.Fatal(err)
		}
		sc.Width, sc.Height, sc.Steps, sc.Engine, sc.Samples = 64, 64, 10, graph.Kind, 1000
		p, err := project.FromScene(sc)
		if err != nil {
			t.Fatal(err)
		}
		if p.Export, err = export.Preset("generic", 64); err != nil {
			t.Fatal(err)
		}
		if reps[i], err = Build(context.Background(), p, Options{OutDir: t.TempDir(), Name: "g"}); err != nil {
			t.Fatal(err)
		}
	}
	if !reflect.DeepEqual(reps[0], reps[1]) {
		t.Errorf("GOMAXPROCS 1 and 2 differ:\n%+v\n%+v", reps[0], reps[1])
	}
}
