package project_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"orogen/app/project"
	"orogen/app/rasterio"
	"orogen/sim"
)

// TestOldFormats reads the project files earlier Orogens wrote (testdata,
// one directory per format version, see its README) with the current
// code, and demands that saving each again gives the same bytes: nothing
// an old file holds is lost or changed on the way through.
func TestOldFormats(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "v*", "*"+project.Ext))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 9 {
		t.Fatalf("%d fixtures in testdata; want the random project and every preset of version 1", len(files))
	}
	for _, f := range files {
		p, err := project.Load(f)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		want, _ := os.ReadFile(f)
		got, err := p.Marshal()
		if err != nil {
			t.Errorf("%s: marshal: %v", f, err)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: saved again, %d bytes differ from the file's %d", f, len(got), len(want))
		}
	}
}

// TestNewerFormat: a project from a newer Orogen (a version this one does
// not know) gets a message saying so and what to do, naming the file.
func TestNewerFormat(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "v1", "default"+project.Ext))
	if err != nil {
		t.Fatal(err)
	}
	newer := bytes.Replace(b, []byte(`"version": 1`), []byte(`"version": 7`), 1)
	if bytes.Equal(newer, b) {
		t.Fatal("the fixture has no \"version\": 1")
	}
	path := filepath.Join(t.TempDir(), "future"+project.Ext)
	if err := os.WriteFile(path, newer, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = project.Load(path)
	for _, want := range []string{path, "version 7", "newer Orogen"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Load of a version 7 project: error %v; want one with %q", err, want)
		}
	}
}

// TestMovedFiles: a project whose scene names an uplift image or layer
// file that is not there (moved, or written on another machine) is
// refused with a message naming the file and what to fix.
func TestMovedFiles(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "v1", "default"+project.Ext))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, c := range []struct{ uplift, key string }{
		{`"uplift": {"image": "gone/up.png", "umax_m_per_yr": 0.0005}`, `"uplift": {"image"}`},
		{`"uplift": {"umax_m_per_yr": 0.0005, "tree": {"version": 1, "root": 1, "nodes": [{"id": 1, "type": "sum", "children": []}]}, "layers": {"ridge": "/elsewhere/ridge.png"}}`, `"uplift": {"layers"}`},
	} {
		var doc map[string]json.RawMessage
		if err := json.Unmarshal(b, &doc); err != nil {
			t.Fatal(err)
		}
		var sc map[string]json.RawMessage
		if err := json.Unmarshal(doc["scene"], &sc); err != nil {
			t.Fatal(err)
		}
		var up map[string]json.RawMessage
		if err := json.Unmarshal([]byte("{"+c.uplift+"}"), &up); err != nil {
			t.Fatal(err)
		}
		sc["uplift"] = up["uplift"]
		doc["scene"], _ = json.Marshal(sc)
		delete(doc, "layers")
		out, _ := json.Marshal(doc)
		path := filepath.Join(dir, "moved"+project.Ext)
		if err := os.WriteFile(path, out, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := project.Load(path)
		for _, want := range []string{"no such file", c.key} {
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("Load with %s: error %v; want one with %q", c.uplift, err, want)
			}
		}
		if err != nil && !strings.Contains(err.Error(), filepath.Join(dir, "gone", "up.png")) && !strings.Contains(err.Error(), filepath.Join("elsewhere", "ridge.png")) {
			t.Errorf("error %v; want it to name the missing file", err)
		}
	}
}

// TestRelink: a project naming an uplift image that moved fails with a
// MissingFileError naming the file; loaded again with the image's new
// place in the relink map, it opens, holds the image embedded (it no
// longer names a file), and gives the same uplift as a project naming the
// new place directly.
func TestRelink(t *testing.T) {
	dir := t.TempDir()
	img := &sim.Field{W: 16, H: 16, Cell: 1, Data: make([]float32, 256)}
	for i := range img.Data {
		img.Data[i] = float32(i%16) / 15
	}
	moved := filepath.Join(dir, "new place", "up.png")
	if err := os.MkdirAll(filepath.Dir(moved), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := rasterio.Write(moved, img); err != nil {
		t.Fatal(err)
	}
	doc := func(image string) string {
		b, _ := json.Marshal(image)
		return `{"version": 1, "scene": {"version": 1, "name": "r", "width": 32, "height": 32, "domain_m": 3200, "uplift": {"image": ` + string(b) + `, "umax_m_per_yr": 0.0005}}}`
	}
	write := func(name, image string) string {
		path := filepath.Join(dir, name+project.Ext)
		if err := os.WriteFile(path, []byte(doc(image)), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	old := write("old", "gone/up.png")
	_, err := project.Load(old)
	var miss *project.MissingFileError
	if !errors.As(err, &miss) || miss.Path != filepath.Join(dir, "gone", "up.png") {
		t.Fatalf("Load: error %v (%T); want a MissingFileError naming %s", err, err, filepath.Join(dir, "gone", "up.png"))
	}
	p, err := project.LoadRelinked(old, map[string]string{miss.Path: moved})
	if err != nil {
		t.Fatalf("LoadRelinked: %v", err)
	}
	if !p.SelfContained() || p.Scene.Uplift.Image != "" {
		t.Errorf("relinked project names uplift image %q; want it embedded", p.Scene.Uplift.Image)
	}
	want, err := project.Load(write("direct", moved))
	if err != nil {
		t.Fatal(err)
	}
	a, _ := p.Marshal()
	b, _ := want.Marshal()
	if !bytes.Equal(a, b) {
		t.Errorf("the relinked project saves to %d bytes unlike the one naming the new place (%d)", len(a), len(b))
	}
}
