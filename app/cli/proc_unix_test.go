//go:build unix

package cli

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"orogen/app/safefile"
)

// The process tests run this test binary as orogen: with envArgs set it
// runs Main on those arguments (JSON) and exits, so that real signals
// reach the real command line. envStall makes its saves stall for good
// after that many bytes of a file (safefile.StallAfter), printing
// "stalled" on stderr when one does.
const (
	envArgs  = "OROGEN_CLI_TEST_ARGS"
	envStall = "OROGEN_CLI_TEST_STALL"
)

func TestMain(m *testing.M) {
	if a := os.Getenv(envArgs); a != "" {
		var args []string
		if err := json.Unmarshal([]byte(a), &args); err != nil {
			fmt.Fprintln(os.Stderr, "bad", envArgs, err)
			os.Exit(2)
		}
		if n, err := strconv.ParseInt(os.Getenv(envStall), 10, 64); err == nil {
			safefile.StallAfter(n, func() { fmt.Fprintln(os.Stderr, "stalled") })
		}
		os.Exit(Main(args, os.Stdout, os.Stderr))
	}
	code := m.Run()
	removeBinary()
	os.Exit(code)
}

// orogenProc is a running orogen; lines receives its stderr, line by
// line, and is closed at its end.
type orogenProc struct {
	cmd   *exec.Cmd
	lines chan string
	all   []string
}

func startOrogen(t *testing.T, stall int64, args ...string) *orogenProc {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(args)
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), envArgs+"="+string(a))
	if stall >= 0 {
		cmd.Env = append(cmd.Env, envStall+"="+strconv.FormatInt(stall, 10))
	}
	errp, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &orogenProc{cmd: cmd, lines: make(chan string, 1000)}
	go func() {
		sc := bufio.NewScanner(errp)
		for sc.Scan() {
			p.lines <- sc.Text()
		}
		close(p.lines)
	}()
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return p
}

// await reads stderr until a line starts with prefix; it fails if the
// process ends first.
func (p *orogenProc) await(t *testing.T, prefix string) {
	t.Helper()
	for l := range p.lines {
		p.all = append(p.all, l)
		if strings.HasPrefix(l, prefix) {
			return
		}
	}
	t.Fatalf("orogen ended without printing %q:\n%s", prefix, strings.Join(p.all, "\n"))
}

// wait reads the rest of stderr and returns the exit status and the last
// line.
func (p *orogenProc) wait(t *testing.T) (int, string) {
	t.Helper()
	for l := range p.lines {
		p.all = append(p.all, l)
	}
	err := p.cmd.Wait()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	last := ""
	if n := len(p.all); n > 0 {
		last = p.all[n-1]
	}
	return code, last
}

// temporaries returns the temporary files of saves in dir.
func temporaries(dir string) []string {
	var out []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasPrefix(d.Name(), ".") && strings.HasSuffix(d.Name(), ".tmp") {
			out = append(out, p)
		}
		return nil
	})
	return out
}

// TestInterruptKeepsOutputs: Ctrl+C (SIGINT) during the steps of a run
// or an erode whose outputs exist writes nothing over them, exits 130 and
// says so in one line (issue 31.2).
func TestInterruptKeepsOutputs(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.tif")
	if code, _, stderr := runCLI("run", "-q", "--scene", "cone", "--size", "48", "--steps", "2", "--out", in); code != 0 {
		t.Fatal(stderr)
	}
	for _, c := range []struct {
		name string
		args []string
	}{
		{"run", []string{"run", "--scene", "cone", "--size", "48", "--steps", "1000000"}},
		{"erode", []string{"erode", "--in", in, "--steps", "1000000"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, rep := filepath.Join(dir, c.name+"-good.tif"), filepath.Join(dir, c.name+"-r.json")
			first := append(append([]string{}, c.args...), "-q", "--out", out)
			first[len(c.args)-1] = "2"
			if code, _, stderr := runCLI(first...); code != 0 {
				t.Fatal(stderr)
			}
			good, _ := os.ReadFile(out)
			goodSide, _ := os.ReadFile(out + ".json")
			p := startOrogen(t, -1, append(append([]string{}, c.args...), "--out", out, "--report", rep)...)
			p.await(t, "step 1 of 1000000") // not a terminal: progress lines
			if err := p.cmd.Process.Signal(syscall.SIGINT); err != nil {
				t.Fatal(err)
			}
			code, last := p.wait(t)
			if code != 130 || !strings.HasPrefix(last, "orogen: interrupted after ") || !strings.HasSuffix(last, "steps: nothing written, existing outputs are unchanged") {
				t.Errorf("exit %d, last line %q; want 130 and the interrupt said", code, last)
			}
			if b, _ := os.ReadFile(out); string(b) != string(good) {
				t.Error("the output was written over")
			}
			if b, _ := os.ReadFile(out + ".json"); string(b) != string(goodSide) {
				t.Error("the output's sidecar was written over")
			}
			if _, err := os.Stat(rep); err == nil {
				t.Error("the report was written")
			}
			if l := temporaries(dir); len(l) > 0 {
				t.Errorf("left %v", l)
			}
		})
	}
}

// TestSecondInterruptStopsSave: a save that does not end (a disk that
// stopped answering) ignores nothing: Ctrl+C again stops the process at
// once, removes the temporary file and leaves the old output (issue
// 31.2).
func TestSecondInterruptStopsSave(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "h.tif")
	if err := os.WriteFile(out, []byte("the old terrain"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := startOrogen(t, 1000, "run", "-q", "--scene", "cone", "--size", "32", "--steps", "2", "--out", out)
	p.await(t, "stalled")
	if len(temporaries(dir)) == 0 {
		t.Fatal("no temporary file while the save stalls")
	}
	// Interrupts until it ends: the first cancels (the stalled write
	// cannot see it), the next stops it. Signals sent back to back may
	// merge into one, hence the loop.
	ended := make(chan struct{})
	var code int
	var last string
	go func() { code, last = p.wait(t); close(ended) }()
	for done := false; !done; {
		p.cmd.Process.Signal(syscall.SIGINT)
		select {
		case <-ended:
			done = true
		case <-time.After(200 * time.Millisecond):
		}
	}
	if code != 130 || !strings.HasPrefix(last, "orogen: interrupted twice: stopped at once (1 temporary files removed)") {
		t.Errorf("exit %d, last line %q; want 130 and the second interrupt said", code, last)
	}
	if b, _ := os.ReadFile(out); string(b) != "the old terrain" {
		t.Errorf("h.tif holds %q", b)
	}
	if l := temporaries(dir); len(l) > 0 {
		t.Errorf("left %v", l)
	}
}

// TestKilledBuildKeepsFolder: a build killed (kill -9) in the middle of
// its save leaves the folder's previous build whole (its report's
// checksums hold) and a temporary file, which the next build removes
// (issue 31.3).
func TestKilledBuildKeepsFolder(t *testing.T) {
	dir := t.TempDir()
	proj := filepath.Join(dir, "cone.orogen.json")
	b, err := os.ReadFile(filepath.Join("..", "project", "testdata", "v1", "cone.orogen.json"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(proj, b, 0o644)
	out := filepath.Join(dir, "out")
	if code, _, stderr := runCLI("build", "-q", proj, "--preset", "generic", "--out-dir", out); code != 0 {
		t.Fatal(stderr)
	}
	before := readTree(t, out)
	p := startOrogen(t, 5000, "build", "-q", proj, "--preset", "generic", "--out-dir", out)
	p.await(t, "stalled")
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	p.wait(t)
	left := temporaries(out)
	if len(left) == 0 {
		t.Fatal("the killed build left no temporary file: the test kills it too late")
	}
	after := readTree(t, out)
	for _, l := range left {
		delete(after, l)
	}
	if len(after) != len(before) {
		t.Errorf("%d files before the killed build, %d after", len(before), len(after))
	}
	for k, v := range before {
		if after[k] != v {
			t.Errorf("%s changed", k)
		}
	}
	if code, _, stderr := runCLI("build", proj, "--preset", "generic", "--out-dir", out); code != 0 || !strings.Contains(stderr, "left by a build that did not finish") {
		t.Errorf("the next build: exit %d, stderr %q; want it to say what it removed", code, stderr)
	}
	if l := temporaries(out); len(l) > 0 {
		t.Errorf("the next build left %v", l)
	}
}

// readTree returns every file under dir with its bytes.
func readTree(t *testing.T, dir string) map[string]string {
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
