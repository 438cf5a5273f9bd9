//go:build unix

package ui_test

import (
	"context"
	"encoding/json"
	"fmt"
	"image"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestWindowSection drives the Cross-section tool with real X events: a
// click on its radio button in the Tools panel, then a drag across the map
// of the strata preset. The window then shows the profile with its rock
// layers, and two screenshots a few frames apart show the Cross-section
// window and the Tools panel the same, pixel for pixel (the stray lines of
// issue 30 changed every frame and crossed both: the profile's polyline
// went to C as one point, and C read the others from whatever followed
// it).
func TestWindowSection(t *testing.T) {
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
	for i := 1; i <= 4; i++ {
		if err := syscall.Mkfifo(sig(i), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	script := strings.NewReplacer("$OUT", dir, "$S", filepath.Join(dir, "signal")).Replace(`
new strata 256
steps 20
wait 3
signal $S1
await-tool Cross-section
signal $S2
await-section drag
signal $S3
await-section
wait 3
screenshot $OUT/a.png
wait 3
screenshot $OUT/b.png
signal $S4
quit
`)
	sp := filepath.Join(dir, "section.script")
	if err := os.WriteFile(sp, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
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
	type sectionLayout struct {
		layout
		Items map[string][4]float32 `json:"items"`
	}
	wait := func(i int) sectionLayout {
		t.Helper()
		got := make(chan []byte, 1)
		go func() { b, _ := os.ReadFile(sig(i)); got <- b }()
		select {
		case b := <-got:
			var l sectionLayout
			if err := json.Unmarshal(b, &l); err != nil {
				t.Fatalf("signal %d: %v (%q)", i, err, b)
			}
			return l
		case err := <-exited:
			t.Fatalf("orogen exited before signal %d: %v\n%s", i, err, out.String())
		}
		return sectionLayout{}
	}
	xdo := func(args ...string) {
		t.Helper()
		if b, err := exec.Command("xdotool", args...).CombinedOutput(); err != nil {
			t.Fatalf("xdotool %v: %v\n%s", args, err, b)
		}
	}
	win := strings.Fields(func() string {
		b, err := exec.Command("xdotool", "search", "--sync", "--name", "Orogen").Output()
		if err != nil {
			t.Fatalf("xdotool search: %v", err)
		}
		return string(b)
	}())[0]
	move := func(x, y float64) []string {
		return []string{"mousemove", "--window", win, fmt.Sprint(int(math.Round(x))), fmt.Sprint(int(math.Round(y)))}
	}

	l := wait(1)
	r, ok := l.Items["Cross-section"]
	if !ok {
		t.Fatalf("no Cross-section radio button among %v", l.Items)
	}
	xdo(append(move(float64(r[0]+r[2])/2, float64(r[1]+r[3])/2), "click", "1")...)
	l = wait(2)
	// Across the map at mid height, from 15 % to 85 % of the 2D view.
	at := func(f float64) float64 { return float64(l.Map[0]) + f*float64(l.Map[2]-l.Map[0]) }
	midY := float64(l.Map[1]+l.Map[3]) / 2
	// Press; once the press is seen, drag to the end and release.
	xdo(append(move(at(0.15), midY), "mousedown", "1")...)
	wait(3)
	for _, f := range []float64{0.3, 0.5, 0.7, 0.85} {
		xdo(move(at(f), midY)...)
	}
	xdo("mouseup", "1")
	l = wait(4)
	if err := <-exited; err != nil {
		t.Fatalf("orogen --script: %v\n%s", err, out.String())
	}

	a, b := readPNG(t, filepath.Join(dir, "a.png")), readPNG(t, filepath.Join(dir, "b.png"))
	for _, name := range []string{"Cross-section", "Tools"} {
		rr, ok := l.Items[name]
		if !ok {
			t.Fatalf("no %s window among %v", name, l.Items)
		}
		rect := image.Rect(int(rr[0]), int(rr[1]), int(rr[2]), int(rr[3])).Intersect(a.Bounds())
		if rect.Dx() < 50 || rect.Dy() < 50 {
			t.Fatalf("%s window is %v", name, rect)
		}
		diff := 0
		for y := rect.Min.Y; y < rect.Max.Y; y++ {
			for x := rect.Min.X; x < rect.Max.X; x++ {
				if a.At(x, y) != b.At(x, y) {
					diff++
				}
			}
		}
		if diff > 0 {
			t.Errorf("%s window: %d pixels differ between two frames of a paused engine; want none", name, diff)
		}
		if name != "Cross-section" {
			continue
		}
		// The strata: several rock colours, each over a sizeable area.
		count := map[[3]uint32]int{}
		for y := rect.Min.Y; y < rect.Max.Y; y++ {
			for x := rect.Min.X; x < rect.Max.X; x++ {
				r, g, b, _ := a.At(x, y).RGBA()
				count[[3]uint32{r >> 8, g >> 8, b >> 8}]++
			}
		}
		big := 0
		for _, n := range count {
			if n >= rect.Dx()*rect.Dy()/100 {
				big++
			}
		}
		if big < 4 {
			t.Errorf("the Cross-section window shows %d colours over 1 %% of it or more; want the background and at least three rock layers", big)
		}
	}
}
