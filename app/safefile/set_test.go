package safefile

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

func fileOf(path, data string) File {
	return File{Path: path, Fill: func(w io.Writer) error { _, err := io.WriteString(w, data); return err }}
}

// TestSetCommitsTogether: nothing reaches a final name before Commit;
// Abort leaves the old files; Sum gives what was staged; a file staged
// twice is refused.
func TestSetCommitsTogether(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	os.WriteFile(a, []byte("old a"), 0o644)
	var s Set
	if err := s.Write(fileOf(a, "new a")); err != nil {
		t.Fatal(err)
	}
	if err := s.Write(fileOf(b, "new b")); err != nil {
		t.Fatal(err)
	}
	if err := s.Write(fileOf(a, "again")); !errors.Is(err, ErrStagedTwice) {
		t.Errorf("a staged twice: %v", err)
	}
	if got, _ := os.ReadFile(a); string(got) != "old a" {
		t.Errorf("a before Commit: %q", got)
	}
	if _, err := os.Stat(b); err == nil {
		t.Error("b exists before Commit")
	}
	sum := sha256.Sum256([]byte("new b"))
	if n, h, ok := s.Sum(b); !ok || n != 5 || h != hex.EncodeToString(sum[:]) {
		t.Errorf("Sum(b) = %d %s %v", n, h, ok)
	}
	if err := s.Commit(); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(a); string(got) != "new a" {
		t.Errorf("a after Commit: %q", got)
	}

	var s2 Set
	s2.Write(fileOf(a, "newer a"))
	s2.Abort()
	if got, _ := os.ReadFile(a); string(got) != "new a" {
		t.Errorf("a after Abort: %q", got)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 2 {
		t.Errorf("%d entries after Abort; want a and b", len(ents))
	}
}

// TestSetCancel: a cancelled save stops at its next write with the
// cancel's error and removes its temporary file.
func TestSetCancel(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	s := Set{Cancel: ctx.Err}
	err := s.Write(File{Path: filepath.Join(dir, "big"), Fill: func(w io.Writer) error {
		chunk := make([]byte, 1<<16)
		for i := 0; ; i++ {
			if i == 3 {
				cancel() // Ctrl+C in the middle of a long save
			}
			if _, err := w.Write(chunk); err != nil {
				return err
			}
		}
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v; want context.Canceled", err)
	}
	s.Abort()
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("left %d files", len(ents))
	}
}

// TestDeadProcessTemporaries: a temporary file whose process is gone is
// removed by the next save at once, whatever its age; one of a live
// process stays until StaleAfter.
func TestDeadProcessTemporaries(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("processAlive cannot tell on Windows: StaleAfter alone applies")
	}
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip("no `true` to make a dead process id:", err)
	}
	dead := cmd.Process.Pid
	dir := t.TempDir()
	p := filepath.Join(dir, "h.tif")
	deadTmp := filepath.Join(dir, ".h.tif."+strconv.Itoa(dead)+"-123.tmp")
	liveTmp := filepath.Join(dir, ".h.tif."+strconv.Itoa(os.Getppid())+"-456.tmp")
	for _, f := range []string{deadTmp, liveTmp} {
		os.WriteFile(f, []byte("partial"), 0o644)
	}
	if err := WriteBytes(p, []byte("x")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(deadTmp); err == nil {
		t.Error("the dead process's temporary file stayed")
	}
	if _, err := os.Stat(liveTmp); err != nil {
		t.Error("the live process's temporary file was removed")
	}
	os.WriteFile(deadTmp, []byte("partial"), 0o644)
	if got := CleanDir(dir); len(got) != 1 || !strings.HasSuffix(got[0], filepath.Base(deadTmp)) {
		t.Errorf("CleanDir removed %v; want only %s", got, deadTmp)
	}
}
