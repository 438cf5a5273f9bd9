//go:build unix

package ui_test

import (
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"testing"

	"orogen/app/project"
)

// layout is what the script's `signal` writes (ui/scriptwait.go).
type layout struct {
	Sliders            map[string][4]float32 `json:"sliders"`
	Map                [4]float32            `json:"map"`
	MapX0, MapY0, Zoom float64
}

// TestWindowInput drives the real window with X mouse and key events
// (xdotool) at a low frame rate (every frame 200 ms longer): a drag that
// jumps across the map between two frames paints its whole path, Ctrl+Z
// undoes the stroke, clicks (shorter than a frame) at the k slider's two
// ends reach 1e-9 and 1e-3, a Ctrl+click types a value (with three
// Backspaces sent at once: one frame must see all three, through the key
// tap of ui/keys.go, where Ebitengine alone sees one), the uplift
// scale's left end (1e-6) is reachable, and Ctrl+N then Enter makes a new
// project through File → New's dialog. The script waits for each
// effect and signals through a named pipe when the next events may go.
func TestWindowInput(t *testing.T) {
	x := startX(t, `
pause
slow-frames 200
wait 5
signal $S1
await-painting
signal $S2
await-log painted a
save $OUT/p1.orogen.json
signal $S3
await-log undid
save $OUT/p2.orogen.json
signal $S4
await-param k 1e-9
signal $S5
await-param k 0.001
signal $S6
await-typing
signal $S7
wait 2
signal $S8
await-param k 2.5e-7
signal $S9
await-param umax 1e-6
signal $S10
await-new-dialog
signal $S11
await-log new project from the default preset, 512×512 cells
quit
`, 11)
	dir := x.dir
	wait := func(i int) layout {
		t.Helper()
		var l layout
		x.wait(i, &l)
		return l
	}
	xdo, move := x.xdo, x.move

	l := wait(1)
	// A fast drag across the map: press at A; once the press is seen,
	// jump to B and release within one frame.
	// From 30 % to 70 % of the 2D view's width, in map cells.
	mx := func(f float64) float64 {
		return (float64(l.Map[0]) + f*float64(l.Map[2]-l.Map[0]) - l.MapX0) / l.Zoom
	}
	my := func(f float64) float64 {
		return (float64(l.Map[1]) + f*float64(l.Map[3]-l.Map[1]) - l.MapY0) / l.Zoom
	}
	ax, ay, bx, by := math.Floor(mx(0.3)), math.Floor(my(0.4)), math.Floor(mx(0.7)), math.Floor(my(0.6))
	t.Logf("drag from cell %.0f, %.0f to %.0f, %.0f", ax, ay, bx, by)
	sx := func(x float64) float64 { return l.MapX0 + l.Zoom*(x+0.5) }
	sy := func(y float64) float64 { return l.MapY0 + l.Zoom*(y+0.5) }
	xdo(append(move(sx(ax), sy(ay)), "mousedown", "1")...)
	wait(2)
	xdo(append(append(move(sx((ax+bx)/2), sy((ay+by)/2)), move(sx(bx), sy(by))...), "mouseup", "1")...)
	wait(3)
	xdo("key", "ctrl+z")
	l = wait(4)
	slider := func(label string) (x0, x1, y float64) {
		t.Helper()
		r, ok := l.Sliders[label]
		if !ok {
			t.Fatalf("no slider %q among %v", label, l.Sliders)
		}
		return float64(r[0]), float64(r[2]), float64(r[1]+r[3]) / 2
	}
	kx0, kx1, ky := slider("k (erodibility) (1/yr)")
	xdo(append(move(kx0+1, ky), "click", "1")...)
	wait(5)
	xdo(append(move(kx1-1, ky), "click", "1")...)
	wait(6)
	xdo(append(move((kx0+kx1)/2, ky), "keydown", "ctrl", "click", "1", "keyup", "ctrl")...)
	wait(7)
	xdo("type", "2.5e-7999")
	// Once the text is in (two frames later), three Backspaces and Enter
	// sent together, within one frame.
	wait(8)
	xdo("key", "--delay", "0", "BackSpace", "BackSpace", "BackSpace", "Return")
	wait(9)
	ux0, _, uy := slider("uplift scale (m/yr)")
	xdo(append(move(ux0+1, uy), "click", "1")...)
	// Ctrl+N opens File → New's dialog; Enter creates the project it
	// offers (the default preset at 512²).
	wait(10)
	xdo("key", "ctrl+n")
	wait(11)
	xdo("key", "Return")
	x.end()

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

// directFrame checks that the window's frames drawn straight into its
// framebuffer (ui/finalscreen.go) show what the screenshot frame, drawn
// into Ebitengine's offscreen screen and copied, showed: over the map and
// over the Simulation panel's sliders (ImGui's clipped draws), nothing
// having changed between them (the terrain rests, no input). Where a cell
// boundary of the map falls on a pixel's centre the two paths may round
// to either cell: up to 2 % of the pixels may differ.
func directFrame(t *testing.T, shot string, win *image.RGBA, l layout) {
	t.Helper()
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	im, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if im.Bounds() != win.Rect {
		t.Fatalf("screenshot %v, window %v; want the same size", im.Bounds(), win.Rect)
	}
	var sl image.Rectangle // the sliders right of the map: the Simulation panel's
	for _, r := range l.Sliders {
		if r[0] >= l.Map[2] {
			sl = sl.Union(image.Rect(int(r[0]), int(r[1]), int(r[2]), int(r[3])))
		}
	}
	regions := map[string]image.Rectangle{
		"the map":                        image.Rect(int(l.Map[0]), int(l.Map[1]), int(l.Map[2]), int(l.Map[3])),
		"the Simulation panel's sliders": sl,
	}
	for name, r := range regions {
		r = r.Intersect(win.Rect)
		if r.Dx() < 50 || r.Dy() < 50 {
			t.Fatalf("%s: %v; want a region to compare", name, r)
		}
		n, flat := 0, 0
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				sr, sg, sb, _ := im.At(x, y).RGBA()
				w := win.RGBAAt(x, y)
				if uint8(sr>>8) != w.R || uint8(sg>>8) != w.G || uint8(sb>>8) != w.B {
					n++
				}
				if w == win.RGBAAt(r.Min.X, r.Min.Y) {
					flat++
				}
			}
		}
		all := r.Dx() * r.Dy()
		t.Logf("%s %v: %d of %d pixels differ between the window and the screenshot", name, r, n, all)
		if n > all/50 || flat == all {
			t.Errorf("%s %v: %d of %d pixels differ between the window (drawn straight into it) and the screenshot, %d of one colour; want at most 2 %%, a picture", name, r, n, all, flat)
		}
	}
}

// TestWindowRest: a settled terrain rests (issue 30: the engine stepped on
// at 4096× dt for ever): the step stays put over frames, then a real click
// on the k slider (xdotool) wakes the engine and it steps again. Before
// the click the window's pixels (drawn straight into its framebuffer) are
// compared with a screenshot (directFrame).
func TestWindowRest(t *testing.T) {
	x := startX(t, `
run
await-settled
report $OUT/r1.json
wait 5
report $OUT/r2.json
screenshot $OUT/shot.png
wait 3
signal $S1
await-wake
report $OUT/r3.json
slow-frames 120
view 2d
wait 30
report $OUT/r4.json
slow-frames 40
wait 20
report $OUT/r5.json
quit
`, 1, "--scene", "classic", "--size", "64")
	var l layout
	x.wait(1, &l)
	win := x.grab()
	r, ok := l.Sliders["k (erodibility) (1/yr)"]
	if !ok {
		t.Fatalf("no k slider among %v", l.Sliders)
	}
	x.xdo(append(x.move(float64(r[0]+r[2])/2, float64(r[1]+r[3])/2), "click", "1")...)
	x.end()
	var reps [3]struct {
		Step   int `json:"step"`
		Frames int `json:"frames"`
	}
	for i := range reps {
		b, err := os.ReadFile(filepath.Join(x.dir, fmt.Sprintf("r%d.json", i+1)))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, &reps[i]); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("settled at step %d; %d frames later step %d; after the click step %d", reps[0].Step, reps[1].Frames-reps[0].Frames, reps[1].Step, reps[2].Step)
	if reps[1].Step != reps[0].Step || reps[1].Frames < reps[0].Frames+5 {
		t.Errorf("resting: step %d then %d over %d frames; want no step", reps[0].Step, reps[1].Step, reps[1].Frames-reps[0].Frames)
	}
	if reps[2].Step <= reps[1].Step {
		t.Errorf("after the click on k: step %d; want the engine to step past %d", reps[2].Step, reps[1].Step)
	}
	directFrame(t, filepath.Join(x.dir, "shot.png"), win, l)
	// The frame figures since the view command, every frame 120 ms longer:
	// the longest frame is at least that, and the rates at most 1/0.12 s.
	var fr struct {
		Min   float64 `json:"fps_min_while_running"`
		Mean  float64 `json:"fps_mean_while_running"`
		Worst float64 `json:"worst_frame_ms_while_running"`
		Parts []struct {
			Ms     float64 `json:"ms"`
			Update float64 `json:"update_ms"`
			Draw   float64 `json:"draw_ms"`
			Other  float64 `json:"other_ms"`
		} `json:"worst_frames_while_running"`
	}
	b, err := os.ReadFile(filepath.Join(x.dir, "r4.json"))
	if err == nil {
		err = json.Unmarshal(b, &fr)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("frames 120 ms longer: %.1f fps mean, %.1f at least, longest frame %.0f ms", fr.Mean, fr.Min, fr.Worst)
	if fr.Worst < 120 || fr.Mean <= 0 || fr.Mean > 1000.0/120 || fr.Min > fr.Mean {
		t.Errorf("frames 120 ms longer: %.2f fps mean, %.2f at least, longest %.1f ms; want a mean in (0, 8.3], the least at most the mean, the longest ≥ 120 ms", fr.Mean, fr.Min, fr.Worst)
	}
	// The longest frames' parts: the 120 ms are spent in Update (pace), and
	// the parts add up to the frame.
	if len(fr.Parts) == 0 {
		t.Fatalf("no worst_frames_while_running in the report")
	}
	w := fr.Parts[0]
	t.Logf("the longest frame: %.1f ms = update %.1f + draw %.1f + other %.1f", w.Ms, w.Update, w.Draw, w.Other)
	if math.Abs(w.Ms-fr.Worst) > 0.01 || w.Update < 120 || w.Update+w.Draw+w.Other > w.Ms+0.01 || w.Update+w.Draw > w.Ms+0.01 {
		t.Errorf("the longest frame's parts: %+v; want ms %.1f (the longest frame), update ≥ 120 ms, the parts adding up to the frame", w, fr.Worst)
	}
	// Frames 40 ms long: at Ebitengine's 60 ticks a second each would
	// be followed by two Updates; one Update a frame, one Draw. And
	// ImGui's font atlas is made once, not anew each frame.
	var f4, f5 struct {
		Frames int `json:"frames"`
		Draws  int `json:"draws"`
		Made   int `json:"gui_textures_made"`
	}
	for _, c := range []struct {
		name string
		v    any
	}{{"r4.json", &f4}, {"r5.json", &f5}} {
		b, err := os.ReadFile(filepath.Join(x.dir, c.name))
		if err == nil {
			err = json.Unmarshal(b, c.v)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	du, dd := f5.Frames-f4.Frames, f5.Draws-f4.Draws
	t.Logf("frames 40 ms longer: %d Updates, %d Draws; ImGui textures made %d over %d frames", du, dd, f5.Made, f5.Frames)
	if du < 20 || dd < du-1 || dd > du+1 {
		t.Errorf("frames 40 ms longer: %d Updates and %d Draws; want one Update a Draw (at least 20)", du, dd)
	}
	if f5.Made < 1 || f5.Made > 3 {
		t.Errorf("ImGui textures made %d times over %d frames; want the font atlas made once (at most 3)", f5.Made, f5.Frames)
	}
}
