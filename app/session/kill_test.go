package session

import (
	"bufio"
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"orogen/app/prefs"
	"orogen/app/project"
	"orogen/app/project/projecttest"
	"orogen/sim/simtest"
)

// The kill test's helper process: the test binary run again with
// envKillHelper set, saving and autosaving in a loop until it is killed.
const (
	envKillHelper = "OROGEN_KILL_HELPER" // the project file to save to
	// envKillFull selects the full kill test: 1024² projects with a deep
	// tree, 200 kills (make soak). Without it: 128², 30 kills.
	envKillFull = "OROGEN_KILL_FULL"
)

// killSize returns the grid side, the tree size and the number of kills.
func killSize() (n, nodes, kills int) {
	if os.Getenv(envKillFull) != "" {
		return 1024, 400, 200
	}
	return 128, 60, 30
}

// killVersions returns the two projects the helper alternates between,
// and their bytes as a save writes them: the same in both processes
// (seeded).
func killVersions(t testing.TB) ([2]*project.Project, [2][]byte) {
	n, nodes, _ := killSize()
	var ps [2]*project.Project
	var bs [2][]byte
	for k := range ps {
		ps[k] = projecttest.Project(rand.New(rand.NewPCG(7, uint64(k))), n, n, nodes)
		b, err := ps[k].Marshal()
		if err != nil {
			t.Fatal(err)
		}
		bs[k] = b
	}
	return ps, bs
}

// TestKillHelper is the helper process (it does nothing in a normal run):
// it alternates the two versions, saving each to the project file and
// then autosaving it to the recovery file, and prints a line before each
// write, until it is killed.
func TestKillHelper(t *testing.T) {
	path := os.Getenv(envKillHelper)
	if path == "" {
		t.Skip("the kill test's helper process")
	}
	ps, _ := killVersions(t)
	out := bufio.NewWriter(os.Stdout)
	for i := 0; ; i++ {
		p := ps[i%2]
		fmt.Fprintf(out, "save %d\n", i)
		out.Flush()
		if err := p.Save(path); err != nil {
			fmt.Fprintf(out, "error %v\n", err)
			out.Flush()
			os.Exit(1)
		}
		fmt.Fprintf(out, "autosave %d\n", i)
		out.Flush()
		if err := prefs.WriteRecovery(p); err != nil {
			fmt.Fprintf(out, "error %v\n", err)
			out.Flush()
			os.Exit(1)
		}
	}
}

// TestKillDuringSaves kills the helper process (SIGKILL) at random
// moments of its saves and autosaves, and checks after every kill that
// the project file is one of the two versions byte for byte and that the
// recovery file opens. The moment is random: a random number of writes
// begun (a line each), then a random delay of up to one write's duration
// (measured as the helper runs), so kills land before, inside and after
// the writes; the test counts the kills that left a temporary file (a
// write cut short) to show the window was hit.
func TestKillDuringSaves(t *testing.T) {
	simtest.SkipUnderRace(t, "process kills only")
	if os.Getenv(envKillHelper) != "" {
		t.Skip("in the helper")
	}
	_, _, kills := killSize()
	_, want := killVersions(t)
	dir := t.TempDir()
	config := t.TempDir()
	path := filepath.Join(dir, "work"+ProjectExt)
	if err := os.WriteFile(path, want[0], 0o644); err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 1))
	var writeTime time.Duration // the longest gap between two lines seen
	cut, versions := 0, [2]int{}
	for k := range kills {
		cmd := exec.Command(exe, "-test.run=^TestKillHelper$", "-test.count=1")
		cmd.Env = append(os.Environ(), envKillHelper+"="+path, prefs.EnvDir+"="+config)
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		lines := bufio.NewScanner(stdout)
		begun := 1 + r.IntN(4)
		last := time.Now()
		for i := 0; i < begun; i++ {
			if !lines.Scan() {
				t.Fatalf("kill %d: the helper ended: %v", k, lines.Err())
			}
			if l := lines.Text(); strings.HasPrefix(l, "error") {
				t.Fatalf("kill %d: the helper failed: %s", k, l)
			}
			if i > 0 {
				writeTime = max(writeTime, time.Since(last))
			}
			last = time.Now()
		}
		if writeTime > 0 {
			time.Sleep(time.Duration(r.Int64N(int64(writeTime)))) // the random moment, not a wait for a state
		}
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		cmd.Wait()

		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("kill %d: %v", k, err)
		}
		switch {
		case bytes.Equal(got, want[0]):
			versions[0]++
		case bytes.Equal(got, want[1]):
			versions[1]++
		default:
			t.Fatalf("kill %d: the project file (%d bytes) is neither version (%d, %d bytes)", k, len(got), len(want[0]), len(want[1]))
		}
		t.Setenv(prefs.EnvDir, config)
		if _, _, ok, err := prefs.ReadRecovery(); ok && err != nil {
			t.Fatalf("kill %d: the recovery file does not open: %v", k, err)
		}
		// Temporary files a cut write left (a later save removes them
		// once safefile.StaleAfter old): count and remove them.
		for _, d := range []string{dir, config} {
			ents, _ := os.ReadDir(d)
			for _, e := range ents {
				if strings.HasSuffix(e.Name(), ".tmp") {
					cut++
					os.Remove(filepath.Join(d, e.Name()))
				}
			}
		}
	}
	t.Logf("%d kills: the file held version 0 %d times, version 1 %d times; %d writes cut short; longest write %v",
		kills, versions[0], versions[1], cut, writeTime)
	if versions[1] == 0 {
		t.Errorf("the helper never saved over the first version in %d kills", kills)
	}
}
