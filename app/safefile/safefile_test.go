package safefile

import (
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
