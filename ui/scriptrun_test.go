package ui

import (
	"strings"
	"testing"

	"orogen/ui/picture"
	"orogen/ui/script"
)

// TestScreenshotWaitsForDraw: when frames come late Ebitengine runs Update
// up to five times before one Draw, and a script runs a command per
// Update. A screenshot must hold the next command until Draw has taken
// the shot, however many Updates run before it: here `view 2d`, which,
// run first, took the 3D half out of the window test's detail.png.
func TestScreenshotWaitsForDraw(t *testing.T) {
	cmds, err := script.Parse(strings.NewReader("screenshot shot.png\nview 2d\n"), scriptSpecs())
	if err != nil {
		t.Fatal(err)
	}
	a := &App{mode: modeSplit, rend: picture.New(), script: &scriptRun{cmds: cmds}}
	t.Cleanup(a.rend.Close)
	update := func() {
		a.frames++
		a.stepScript()
	}
	for range 10 { // Updates without a Draw
		update()
	}
	if a.screenshot != "shot.png" {
		t.Fatalf("after 10 Updates the shot asked for is %q; want shot.png", a.screenshot)
	}
	if a.mode != modeSplit || a.script.err != nil {
		t.Fatalf("the script went on before Draw took the shot (mode %s, error %v)", modeNames[a.mode], a.script.err)
	}
	a.shotTaken() // what Draw does once it has saved the picture
	update()
	if a.mode != mode2D {
		t.Fatalf("after the shot the script did not go on: mode %s", modeNames[a.mode])
	}
}
