package safefile

import (
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestWriteBytesReplaces(t *testing.T) {
	p := filepath.Join(t.TempDir(), "r.json")
	for _, s := range []string{"first", "second"} {
		if err := WriteBytes(p, []byte(s)); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(p)
		if err != nil || string(got) != s {
			t.Fatalf("read %q, %v; want %q", got, err, s)
		}
	}
}

func TestFailedWriteKeepsOldFileAndLeavesNoTemp(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "r.json")
	if err := WriteBytes(p, []byte("old")); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := Write(File{Path: p, Fill: func(w io.Writer) error {
		w.Write([]byte(strings.Repeat("x", 1<<17)))
		return boom
	}})
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), p) {
		t.Fatalf("error %v; want one naming %s and wrapping %v", err, p, boom)
	}
	got, _ := os.ReadFile(p)
	ents, _ := os.ReadDir(dir)
	if string(got) != "old" || len(ents) != 1 {
		t.Fatalf("after a failed save: file %q and %d entries; want \"old\" and 1", got, len(ents))
	}
}

func TestMissingDirectory(t *testing.T) {
	p := filepath.Join(t.TempDir(), "no", "r.json")
	if err := WriteBytes(p, nil); err == nil || !strings.Contains(err.Error(), "directory exists") {
		t.Fatalf("error %v; want one saying to check the directory", err)
	}
}

// TestWriteJSON writes indented JSON with a final newline and refuses what
// JSON cannot hold.
func TestWriteJSON(t *testing.T) {
	p := filepath.Join(t.TempDir(), "v.json")
	if err := WriteJSON(p, map[string]int{"a": 1}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(b), "{\n  \"a\": 1\n}\n"; got != want {
		t.Fatalf("got %q; want %q", got, want)
	}
	if err := WriteJSON(p, math.NaN()); err == nil {
		t.Fatal("WriteJSON accepted NaN")
	}
	if b2, _ := os.ReadFile(p); string(b2) != string(b) {
		t.Fatal("a failed WriteJSON changed the file")
	}
}

// TestFullDisk: a disk that fills at any point of a save (FailAfter, as
// ENOSPC would) gives an error naming the file and the cause, leaves the
// previous file byte for byte, and no temporary file; for a save of two
// files, neither is replaced.
func TestFullDisk(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")
	for _, p := range []string{a, b} {
		if err := WriteBytes(p, []byte("old "+p)); err != nil {
			t.Fatal(err)
		}
	}
	big := []byte(strings.Repeat("new data ", 30000)) // 270 kB: several buffer flushes
	for _, limit := range []int64{0, 1, 4095, 1 << 16, 200000} {
		restore := FailAfter(limit, syscall.ENOSPC)
		err := Write(File{Path: a, Fill: func(w io.Writer) error { _, err := w.Write(big); return err }},
			File{Path: b, Fill: func(w io.Writer) error { _, err := w.Write(big); return err }})
		restore()
		if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), a) || !strings.Contains(err.Error(), "no space left") {
			t.Errorf("limit %d: error %v; want ENOSPC naming %s", limit, err, a)
		}
		for _, p := range []string{a, b} {
			if got, _ := os.ReadFile(p); string(got) != "old "+p {
				t.Fatalf("limit %d: %s holds %d bytes; want the old file", limit, p, len(got))
			}
		}
		if ents, _ := os.ReadDir(dir); len(ents) != 2 {
			t.Fatalf("limit %d: %d entries in the directory; want the 2 files and no temporary one", limit, len(ents))
		}
	}
	// The first file staged, the second one fails: neither is replaced.
	restore := FailAfter(1000, syscall.ENOSPC)
	err := Write(File{Path: a, Fill: func(w io.Writer) error { _, err := w.Write([]byte("small")); return err }},
		File{Path: b, Fill: func(w io.Writer) error { _, err := w.Write(big); return err }})
	restore()
	if !errors.Is(err, syscall.ENOSPC) || !strings.Contains(err.Error(), b) {
		t.Errorf("error %v; want ENOSPC naming %s", err, b)
	}
	for _, p := range []string{a, b} {
		if got, _ := os.ReadFile(p); string(got) != "old "+p {
			t.Fatalf("%s holds %q; want the old file", p, got)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 2 {
		t.Fatalf("%d entries in the directory; want the 2 files and no temporary one", len(ents))
	}
	// Restored, saves work again.
	if err := WriteBytes(a, big); err != nil {
		t.Fatal(err)
	}
}

// TestStaleTemporaries: a save removes the temporary files that killed
// saves of the same file left (older than StaleAfter), and leaves a
// younger one (a save in progress) and other files' alone.
func TestStaleTemporaries(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "w.json")
	old := time.Now().Add(-2 * StaleAfter)
	mk := func(name string, mtime time.Time) string {
		q := filepath.Join(dir, name)
		if err := os.WriteFile(q, []byte("partial"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(q, mtime, mtime); err != nil {
			t.Fatal(err)
		}
		return q
	}
	stale := mk(".w.json.123.tmp", old)
	young := mk(".w.json.456.tmp", time.Now())
	other := mk(".x.json.789.tmp", old)
	if err := WriteBytes(p, []byte("new")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path string
		keep bool
	}{{stale, false}, {young, true}, {other, true}, {p, true}} {
		if _, err := os.Stat(c.path); (err == nil) != c.keep {
			t.Errorf("%s: exists %v; want %v", filepath.Base(c.path), err == nil, c.keep)
		}
	}
}
