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
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"
)

// xSession is the real window run by a script that signals through named
// pipes when the test may send the next X events (xdotool): the harness
// of the window tests that drive it with real mouse and key events.
type xSession struct {
	t      *testing.T
	dir    string // the script's $OUT
	win    string // the X window id
	out    strings.Builder
	exited chan error
}

// startX starts the window on script (and the app's args), in which $OUT
// is a temporary folder and $S1, $S2, ... the pipes of signals 1 to n; it
// skips or fails as needDisplay does, and when xdotool is missing.
func startX(t *testing.T, script string, n int, args ...string) *xSession {
	t.Helper()
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
	x := &xSession{t: t, dir: t.TempDir(), exited: make(chan error, 1)}
	for i := 1; i <= n; i++ {
		if err := syscall.Mkfifo(x.signal(i), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	script = strings.NewReplacer("$OUT", x.dir, "$S", filepath.Join(x.dir, "signal")).Replace(script)
	sp := filepath.Join(x.dir, "x.script")
	if err := os.WriteFile(sp, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	cmd := exec.CommandContext(ctx, bin, append([]string{"--script", sp, "--width", fmt.Sprint(winW), "--height", fmt.Sprint(winH)}, args...)...)
	cmd.Env = append(os.Environ(), "OROGEN_CONFIG_DIR="+filepath.Join(x.dir, "config"))
	cmd.Stdout, cmd.Stderr = &x.out, &x.out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { x.exited <- cmd.Wait() }()
	b, err := exec.Command("xdotool", "search", "--sync", "--name", "Orogen").Output()
	if err != nil {
		t.Fatalf("xdotool search: %v", err)
	}
	x.win = strings.Fields(string(b))[0]
	return x
}

func (x *xSession) signal(i int) string { return filepath.Join(x.dir, fmt.Sprintf("signal%d", i)) }

// wait reads signal i (the script has reached it) into v, the layout the
// script's `signal` writes; it fails if the window exits first.
func (x *xSession) wait(i int, v any) {
	x.t.Helper()
	got := make(chan []byte, 1)
	go func() { b, _ := os.ReadFile(x.signal(i)); got <- b }()
	select {
	case b := <-got:
		if err := json.Unmarshal(b, v); err != nil {
			x.t.Fatalf("signal %d: %v (%q)", i, err, b)
		}
	case err := <-x.exited:
		x.t.Fatalf("orogen exited before signal %d: %v\n%s", i, err, x.out.String())
	}
}

// end waits for the script to quit and fails if it did not end well.
func (x *xSession) end() {
	x.t.Helper()
	if err := <-x.exited; err != nil {
		x.t.Fatalf("orogen --script: %v\n%s", err, x.out.String())
	}
}

// xdo runs xdotool with args.
func (x *xSession) xdo(args ...string) {
	x.t.Helper()
	if b, err := exec.Command("xdotool", args...).CombinedOutput(); err != nil {
		x.t.Fatalf("xdotool %v: %v\n%s", args, err, b)
	}
}

// move returns xdotool's arguments to move the pointer to window pixel
// (x, y).
func (x *xSession) move(px, py float64) []string {
	return []string{"mousemove", "--window", x.win, fmt.Sprint(int(math.Round(px))), fmt.Sprint(int(math.Round(py)))}
}

// grab returns the window's pixels as the X server holds them: what the
// app presented last.
func (x *xSession) grab() *image.RGBA {
	x.t.Helper()
	c, err := xgb.NewConn()
	if err != nil {
		x.t.Fatalf("connecting to the X server: %v", err)
	}
	defer c.Close()
	id, err := strconv.ParseUint(x.win, 10, 32)
	if err != nil {
		x.t.Fatalf("window id %q: %v", x.win, err)
	}
	d := xproto.Drawable(id)
	g, err := xproto.GetGeometry(c, d).Reply()
	if err != nil {
		x.t.Fatalf("the window's geometry: %v", err)
	}
	r, err := xproto.GetImage(c, xproto.ImageFormatZPixmap, d, 0, 0, g.Width, g.Height, 0xffffffff).Reply()
	if err != nil {
		x.t.Fatalf("the window's pixels: %v", err)
	}
	w, h := int(g.Width), int(g.Height)
	if r.Depth != 24 || len(r.Data) != 4*w*h {
		x.t.Fatalf("the window's pixels: depth %d, %d bytes for %d×%d; want 24 bits in 4 bytes a pixel (Xvfb -screen 0 WxHx24)", r.Depth, len(r.Data), w, h)
	}
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := 0; i < w*h; i++ { // B, G, R, unused: little-endian TrueColor
		img.Pix[4*i], img.Pix[4*i+1], img.Pix[4*i+2], img.Pix[4*i+3] = r.Data[4*i+2], r.Data[4*i+1], r.Data[4*i], 255
	}
	return img
}
