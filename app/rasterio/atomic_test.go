package rasterio

import (
	"bytes"
	"errors"
	"io"
	"math"
	"orogen/app/safefile"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestWriteMissingDirectory(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "nope", "h.png")
	err := Write(path, testField(4, 4, 1))
	if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "directory") {
		t.Fatalf("got error %v; want one naming %s and the directory", err, path)
	}
	if got := dirNames(t, dir); len(got) != 0 {
		t.Errorf("directory holds %q; want nothing", got)
	}
}

// snapshot returns the contents of every file in dir.
func snapshot(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	m := map[string][]byte{}
	for _, n := range dirNames(t, dir) {
		b, err := os.ReadFile(filepath.Join(dir, n))
		if err == nil {
			m[n] = b
		}
	}
	return m
}

// sameFiles fails unless dir holds exactly the files of before.
func sameFiles(t *testing.T, dir string, before map[string][]byte) {
	t.Helper()
	after := snapshot(t, dir)
	if len(after) != len(before) {
		t.Errorf("directory holds %q; want %d files as before", dirNames(t, dir), len(before))
	}
	for n, b := range before {
		if !bytes.Equal(after[n], b) {
			t.Errorf("%s changed", n)
		}
	}
}

func TestWriteNaNKeepsOldFile(t *testing.T) {
	for _, name := range []string{"h.png", "h.r16", "h.tif", "h.obj"} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, name)
			if err := Write(path, testField(5, 5, 1)); err != nil {
				t.Fatal(err)
			}
			before := snapshot(t, dir)
			f := testField(5, 5, 2)
			f.Data[3] = float32(math.NaN())
			f.Data[7] = float32(math.Inf(-1))
			err := Write(path, f)
			if err == nil || !strings.Contains(err.Error(), "2 NaN or infinite") || !strings.Contains(err.Error(), path) {
				t.Fatalf("got error %v; want one naming %s and the count 2", err, path)
			}
			sameFiles(t, dir, before)
		})
	}
}

func TestWriteFailureLeavesNothing(t *testing.T) {
	// A write that fails half way removes its temporary file and leaves the
	// existing file as it was.
	dir := t.TempDir()
	path := writeFile(t, dir, "h.png", []byte("old"))
	before := snapshot(t, dir)
	boom := errors.New("disk on fire")
	err := safefile.Write(safefile.File{Path: path, Fill: func(w io.Writer) error {
		w.Write(bytes.Repeat([]byte("x"), 100000)) // more than the buffer: reaches the file
		return boom
	}})
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), path) {
		t.Fatalf("got error %v; want one naming %s wrapping %v", err, path, boom)
	}
	sameFiles(t, dir, before)

	// The sidecar failing spares the raster too: nothing is renamed until
	// every file is staged.
	err = safefile.Write(
		safefile.File{Path: path, Fill: func(w io.Writer) error { _, err := w.Write([]byte("new")); return err }},
		safefile.File{Path: SidecarPath(path), Fill: func(io.Writer) error { return boom }},
	)
	if !errors.Is(err, boom) {
		t.Fatalf("got error %v; want %v", err, boom)
	}
	sameFiles(t, dir, before)
}

func TestWriteOverDirectory(t *testing.T) {
	// The final name, or the sidecar's, taken by a directory: error, and
	// no file written.
	for _, taken := range []string{"h.tif", "h.tif.json"} {
		dir := t.TempDir()
		if err := os.Mkdir(filepath.Join(dir, taken), 0o755); err != nil {
			t.Fatal(err)
		}
		err := Write(filepath.Join(dir, "h.tif"), testField(3, 3, 1))
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Fatalf("%s is a directory: got error %v; want one saying so", taken, err)
		}
		if got := dirNames(t, dir); !slices.Equal(got, []string{taken}) {
			t.Errorf("%s is a directory: directory holds %q; want only it", taken, got)
		}
	}
}

func TestWriteReadOnlyDirectory(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes into read-only directories")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "h.png")
	if err := Write(path, testField(4, 4, 1)); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, dir)
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(dir, 0o755)
	err := Write(path, testField(4, 4, 2))
	if err == nil || !strings.Contains(err.Error(), "writable") {
		t.Fatalf("got error %v; want one saying the directory must be writable", err)
	}
	sameFiles(t, dir, before)
}

func TestWriteKeepsMode(t *testing.T) {
	dir := t.TempDir()
	path := writeFile(t, dir, "h.r16", []byte("old"))
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Write(path, testField(2, 2, 1)); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]os.FileMode{"h.r16": 0o600, "h.r16.json": 0o644} {
		fi, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != want {
			t.Errorf("%s: got mode %v; want %v", name, fi.Mode().Perm(), want)
		}
	}
}
