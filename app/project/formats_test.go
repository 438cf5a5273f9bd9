package project_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"orogen/app/project"
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
