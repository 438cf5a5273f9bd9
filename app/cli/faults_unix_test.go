//go:build unix

package cli

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestInputsMustBeFiles: a FIFO given as --init (reading it would wait
// for a writer forever) and /dev/zero (endless) are refused at once, as
// are a folder and a FIFO scene, geology or project (issue 31.5).
func TestInputsMustBeFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.tif")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	zero, sub := filepath.Join(dir, "zero.tif"), filepath.Join(dir, "sub.tif")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range [][]string{
		{"run", "--init", fifo},
		{"run", "--init", zero},
		{"run", "--uplift", fifo},
		{"run", "--scene", fifo},
		{"run", "--geology", fifo},
		{"run", "--rain", "1", "--rain-map", fifo},
		{"erode", "--in", fifo, "--steps", "1"},
		{"build", fifo},
		{"run", "--init", sub},
	} {
		code, _, stderr := runCLI(c...)
		if code == 0 || !strings.Contains(stderr, "not a regular file") || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
			t.Errorf("%v: exit %d, stderr %q; want one line saying it is not a regular file", c, code, stderr)
		}
	}
}
