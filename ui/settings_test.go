package ui

import (
	"strings"
	"testing"

	"orogen/app/build"
	"orogen/app/compute"
	"orogen/app/session"
	"orogen/gpu"
)

// TestSettingsDevice: the settings command sets the session's compute
// device, kept in the preferences (what the detail pass's combo reads
// and writes too), refuses a device it does not know, and hands it to
// File → Build, whose hydraulic passes come back to the window; the
// device report is the first OpenGL 4.3 device's, or why there is none.
func TestSettingsDevice(t *testing.T) {
	d, err := session.LoadScene("default", 64)
	if err != nil {
		t.Fatal(err)
	}
	a := &App{}
	if a.s, err = session.New(d, "", session.Options{Paused: true, Prefs: &a.prefs}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(a.s.Shutdown)
	for _, dev := range []string{"gpu", "auto", "cpu", "gpu"} {
		if err := a.settings([]string{dev}); err != nil {
			t.Fatal(err)
		}
		if a.prefs.ComputeDevice != dev || a.s.ComputeDevice().String() != dev {
			t.Errorf("settings %s: preferences %q, session %v", dev, a.prefs.ComputeDevice, a.s.ComputeDevice())
		}
	}
	if err := a.settings([]string{"tpu"}); err == nil || a.prefs.ComputeDevice != "gpu" {
		t.Errorf("settings tpu: %v, device now %q; want an error and gpu kept", err, a.prefs.ComputeDevice)
	}
	var o build.Options
	a.buildSettings(&o)
	if o.Device == nil || *o.Device != compute.GPU || o.Hydro == nil {
		t.Fatalf("build options: device %v, hydro callback %v", o.Device, o.Hydro != nil)
	}
	o.Hydro(build.HydroRun{Factor: 2, Steps: 5, Device: "cpu", Seconds: 0.5})
	if b := a.prefsUI.lastBuild; b == nil || b.Steps != 5 || b.Device != "cpu" {
		t.Errorf("the build's pass did not reach the window: %+v", b)
	}
	r := <-a.prefsUI.probe // the probe the first settings command started
	dev, openErr := gpu.Open(gpu.Options{AllowSoftware: true})
	switch {
	case openErr == nil:
		if r.err != nil || r.info.Renderer != dev.Info().Renderer {
			t.Errorf("device report: %+v, %v; want %s", r.info, r.err, dev.Info().Renderer)
		}
		dev.Close()
	case r.err == nil:
		// The probe opened a device that a second open, here, could not
		// (another test's device still open in this process, say): the
		// report must name it.
		if r.info.Renderer == "" {
			t.Errorf("device report without a renderer: %+v", r.info)
		}
		t.Logf("the probe found %s; a second open here: %v", r.info.Renderer, openErr)
	case strings.Contains(r.err.Error(), "\n"):
		t.Errorf("no device: the report says %q; want one line saying why", r.err)
	}
}
