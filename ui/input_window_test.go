//go:build unix

package ui_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"orogen/app/project"
)

// layout is what the script's `signal` writes (ui/scriptwait.go).
type layout struct {
	Sliders            map[string][4]float32 `json:"sliders"`
	Map                [4]float32            `json:"map"`
	MapX0, MapY0, Zoom float64
}

// TestWindowInput drives the real window with X mouse and key events
// (xdotool) at a low frame rate (every frame 200 ms longer): a fast drag
// paints its whole path, Ctrl+Z undoes the stroke, clicks at the k
// slider's two ends reach 1e-9 and 1e-3, a Ctrl+click types a value, and
// the uplift scale's left end is reachable. The script waits for each
// effect and signals through a named pipe when the next events may go.
func TestWindowInput(t *testing.T) {
	if testing.Short() {
		t.Skip("the window session runs in the full (non -short) test run")
	}
	needDisplay(t)
	if _, err := exec.LookPath("xdotool"); err != nil {
		if os.Getenv("OROGEN_WINDOW_TEST") == "1" {
			t.Fatal("OROGEN_WINDOW_TEST=1 but xdotool is missing: scripts/deps.sh installs it")
		}
		t.Skip("no xdotool")
	}
	bin := buildOrogen(t)
	dir := t.TempDir()
	sig := func(i int) string { return filepath.Join(dir, fmt.Sprintf("signal%d", i)) }
	for i := 1; i <= 6; i++ {
		if err := syscall.Mkfifo(sig(i), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	script := strings.NewReplacer("$OUT", dir, "$S", filepath.Join(dir, "signal")).Replace(`
pause
slow-frames 200
wait 5
signal $S1
await-log painted a
save $OUT/p1.orogen.json
signal $S2
await-log undid
save $OUT/p2.orogen.json
signal $S3
await-param k 1e-9
signal $S4
await-param k 0.001
signal $S5
await-typing
signal $S6
await-param k 2.5e-7
quit
`)
	sp := filepath.Join(dir, "input.script")
	if err := os.WriteFile(sp, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--script", sp, "--width", fmt.Sprint(winW), "--height", fmt.Sprint(winH))
	cmd.Env = append(os.Environ(), "OROGEN_CONFIG_DIR="+filepath.Join(dir, "config"))
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	// wait reads signal i: the script has reached it.
	wait := func(i int) layout {
		t.Helper()
		got := make(chan []byte, 1)
		go func() { b, _ := os.ReadFile(sig(i)); got <- b }()
		select {
		case b := <-got:
			var l layout
			if err := json.Unmarshal(b, &l); err != nil {
				t.Fatalf("signal %d: %v (%q)", i, err, b)
			}
			return l
		case err := <-exited:
			t.Fatalf("orogen exited before signal %d: %v\n%s", i, err, out.String())
		}
		return layout{}
	}
	xdo := func(args ...string) {
		t.Helper()
		if b, err := exec.Command("xdotool", args...).CombinedOutput(); err != nil {
			t.Fatalf("xdotool %v: %v\n%s", args, err, b)
		}
	}
	pt := func(x, y float64) []string {
		return []string{fmt.Sprint(int(math.Round(x))), fmt.Sprint(int(math.Round(y)))}
	}
	win := strings.Fields(func() string {
		b, err := exec.Command("xdotool", "search", "--sync", "--name", "Orogen").Output()
		if err != nil {
			t.Fatalf("xdotool search: %v", err)
		}
		return string(b)
	}())[0]
	// Window-relative moves: xdotool mousemove --window.
	move := func(x, y float64) []string { return append([]string{"mousemove", "--window", win}, pt(x, y)...) }

	l := wait(1)
	// A fast drag across the map: press at A; once the press is seen,
	// jump to B and release within one frame.
	ax, ay, bx, by := 20.0, 30.0, 100.0, 60.0 // map cells
	sx := func(x float64) float64 { return l.MapX0 + l.Zoom*x }
	sy := func(y float64) float64 { return l.MapY0 + l.Zoom*y }
	xdo(append(move(sx(ax), sy(ay)), "mousedown", "1")...)
	xdo(append(append(move(sx((ax+bx)/2), sy((ay+by)/2)), move(sx(bx), sy(by))...), "mouseup", "1")...)
	wait(2)
	xdo("key", "ctrl+z")
	l = wait(3)
	k, ok := l.Sliders["k (erodibility) (1/yr)"]
	if !ok {
		t.Fatalf("no k slider among %v", l.Sliders)
	}
	midY := float64(k[1]+k[3]) / 2
	xdo(append(move(float64(k[0])+1, midY), "click", "1")...)
	wait(4)
	xdo(append(move(float64(k[2])-1, midY), "click", "1")...)
	wait(5)
	xdo(append(move(float64(k[0]+k[2])/2, midY), "keydown", "ctrl", "click", "1", "keyup", "ctrl")...)
	wait(6)
	xdo("type", "2.5e-7")
	xdo("key", "Return")
	if err := <-exited; err != nil {
		t.Fatalf("orogen --script: %v\n%s", err, out.String())
	}

	// The stroke painted its whole path, and Ctrl+Z took it back.
	p1, err := project.Load(filepath.Join(dir, "p1.orogen.json"))
	if err != nil {
		t.Fatal(err)
	}
	paint := p1.Layers["paint"]
	if paint == nil {
		t.Fatal("no paint layer after the stroke")
	}
	for f := 0.0; f <= 1; f += 0.125 {
		x, y := int(ax+f*(bx-ax)), int(ay+f*(by-ay))
		if v := paint.Data[y*paint.W+x]; !(v > 0) {
			t.Errorf("paint at %.0f%% of the drag (cell %d, %d) = %v; want painted", 100*f, x, y, v)
		}
	}
	p2, err := project.Load(filepath.Join(dir, "p2.orogen.json"))
	if err != nil {
		t.Fatal(err)
	}
	if pl := p2.Layers["paint"]; pl != nil {
		for i, v := range pl.Data {
			if v != 0 {
				t.Fatalf("after Ctrl+Z the paint layer holds %v at cell %d; want the stroke undone", v, i)
			}
		}
	}
}
