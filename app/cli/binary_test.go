package cli

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

var (
	binOnce sync.Once
	binPath string
	binErr  error
	binDir  string
)

// removeBinary removes the binary orogenBinary built (TestMain calls it
// after the tests).
func removeBinary() {
	if binDir != "" {
		os.RemoveAll(binDir)
	}
}

// orogenBinary builds the real `orogen` once per test run: README
// examples run through it as users run them.
func orogenBinary(t testing.TB) string {
	t.Helper()
	binOnce.Do(func() {
		binDir, binErr = os.MkdirTemp("", "orogen-bin-")
		if binErr != nil {
			return
		}
		binPath = filepath.Join(binDir, "orogen")
		out, err := exec.Command("go", "build", "-o", binPath, "orogen").CombinedOutput()
		if err != nil {
			binErr = &buildError{err, string(out)}
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

type buildError struct {
	err error
	out string
}

func (e *buildError) Error() string { return "go build orogen: " + e.err.Error() + "\n" + e.out }

// readmeLines returns the README's example lines that start with prefix,
// their trailing comments cut.
func readmeLines(t testing.TB, prefix string) []string {
	t.Helper()
	f, err := os.Open("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := sc.Text()
		if !strings.HasPrefix(l, prefix) {
			continue
		}
		if i := strings.Index(l, "#"); i >= 0 {
			l = l[:i]
		}
		out = append(out, strings.TrimSpace(l))
	}
	return out
}

// runLine runs one README command line (words split on blanks, "orogen"
// the binary) in dir; it must succeed.
func runLine(t *testing.T, dir, line string) { runLineExit(t, dir, line, 0) }

// runLineExit runs one command line in dir and wants exit status code.
func runLineExit(t *testing.T, dir, line string, code int) {
	t.Helper()
	args := strings.Fields(line)
	if len(args) == 0 || args[0] != "orogen" {
		t.Fatalf("%q: not an orogen command", line)
	}
	cmd := exec.Command(orogenBinary(t), args[1:]...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if got := cmd.ProcessState.ExitCode(); got != code {
		t.Fatalf("%s: exit %d (%v); want %d\n%s", line, got, err, code, out)
	}
}
