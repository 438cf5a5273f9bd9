package ui

import (
	"errors"
	"fmt"
	"sync"

	"github.com/AllenDang/cimgui-go/imgui"

	"orogen/app/build"
	"orogen/app/compute"
	"orogen/gpu"
	"orogen/ui/script"
)

// settingsUI is the Settings window's state (Edit → Settings…): the
// compute device, the device report and the last runs on it. The device
// itself is the session's (kept in the preferences, compute_device), the
// one the detail pass's combo sets too.
type settingsUI struct {
	open bool
	// The device report: probed once, on a goroutine, when the window
	// first opens (or the script's settings command runs).
	probing bool
	probe   chan probeResult
	report  *probeResult
	// lastDetail is the detail pass seen last: device, steps and speed.
	lastDetail lastRun
	// lastBuild is the last hydraulic pass of a build, written on the
	// build's goroutine.
	mu        sync.Mutex
	lastBuild *build.HydroRun
	logged    *build.HydroRun // the pass the log has a line for
}

// probeResult is the first OpenGL 4.3 device's report, or why there is
// none.
type probeResult struct {
	info gpu.Info
	err  error
}

// lastRun is a detail pass's device and pace.
type lastRun struct {
	device      string
	steps       int
	stepsPerSec float64
}

// deviceNames are the Compute device choices, in compute.Device order.
var deviceNames = []string{"cpu", "gpu", "auto"}

// settingsSpec is the settings command's grammar: no argument, or a
// device.
var settingsSpec = script.Spec{Max: 1, Check: func(c script.Command) error {
	if len(c.Args) == 1 {
		return c.Choice(0, "compute device", deviceNames...)
	}
	return nil
}}

// settings is the settings action: with an argument it sets the compute
// device (cpu, gpu or auto), without one it opens the window. Either way
// the device report is probed once (a script waits for it).
func (a *App) settings(args []string) error {
	if len(args) == 1 {
		d, err := compute.ParseDevice(args[0])
		if err != nil {
			return err
		}
		a.s.SetComputeDevice(d)
		a.savePrefs()
		a.log.add(levelInfo, "compute device: %s (the detail pass and builds)", d)
	} else {
		a.prefsUI.open = true
	}
	a.startProbe()
	// A script goes on once the report is in (settingsWindow polls it).
	a.waitFor("the device report", func() bool { return a.prefsUI.report != nil })
	return nil
}

// startProbe opens the first OpenGL 4.3 device (a software one too) on a
// goroutine to read its report, once.
func (a *App) startProbe() {
	st := &a.prefsUI
	if st.probing || st.report != nil {
		return
	}
	st.probing = true
	st.probe = make(chan probeResult, 1)
	ch := st.probe
	go func() {
		dev, err := gpu.Open(gpu.Options{AllowSoftware: true})
		if err != nil {
			ch <- probeResult{err: err}
			return
		}
		info := dev.Info()
		dev.Close()
		ch <- probeResult{info: info}
	}()
}

// buildSettings makes a build of the app run its hydraulic pass on the
// compute device and report it to the window.
func (a *App) buildSettings(o *build.Options) {
	d := a.s.ComputeDevice()
	o.Device = &d
	st := &a.prefsUI
	o.Hydro = func(r build.HydroRun) {
		st.mu.Lock()
		st.lastBuild = &r
		st.mu.Unlock()
	}
}

// autoChoice says where auto runs with the probed device.
func (p *probeResult) autoChoice() string {
	switch {
	case p.err != nil:
		return "the CPU (no GPU compute)"
	case p.info.Software:
		return "the CPU (" + p.info.Renderer + " is a software rasterizer, slower than the CPU engine)"
	}
	return "this GPU"
}

// settingsWindow keeps the last detail pass's figures and, when open,
// draws the window. It runs every frame.
func (a *App) settingsWindow() {
	st := &a.prefsUI
	if st.probing {
		select {
		case r := <-st.probe:
			st.probing, st.report = false, &r
			a.gv.gather = r.err == nil && !r.info.Software
			a.gv.card(a.gv.gather)
			if a.gpace.most = 4; a.gv.gather {
				a.gpace.most = 16
			}
			if r.err != nil {
				a.log.add(levelInfo, "compute: %v", r.err)
			} else {
				a.log.add(levelInfo, "compute: %s; auto runs on %s", r.info, r.autoChoice())
			}
		default:
		}
	}
	if run := a.s.Detail(); run != nil {
		if f := run.Frame(); f.Stats.Step > 0 {
			rate := f.StepsPerSec
			if rate == 0 && st.lastDetail.device == f.Device { // paused: the pace it ran at
				rate = st.lastDetail.stepsPerSec
			}
			st.lastDetail = lastRun{device: f.Device, steps: f.Stats.Step, stepsPerSec: rate}
		}
	}
	st.mu.Lock()
	b := st.lastBuild
	st.mu.Unlock()
	if b != nil && b != st.logged {
		st.logged = b
		a.log.add(levelInfo, "build ×%d: hydraulic pass of %d steps in %.1f s on %s", b.Factor, b.Steps, b.Seconds, b.Device)
	}
	if !st.open {
		return
	}
	imgui.SetNextWindowSizeV(vec2(520, 0), imgui.CondAlways)
	if imgui.BeginV("Settings", &st.open, imgui.WindowFlagsNoDocking|imgui.WindowFlagsNoResize) {
		a.settingsContents()
	}
	imgui.End()
}

func (a *App) settingsContents() {
	st := &a.prefsUI
	imgui.SeparatorText("Compute device")
	dev := int32(a.s.ComputeDevice())
	if imgui.ComboStrarr("device##settings", &dev, deviceNames, int32(len(deviceNames))) && dev >= 0 {
		a.settings([]string{deviceNames[dev]})
	}
	textWrapped("Where the hydraulic detail pass and the hydraulic pass of builds (the export profile's hydro_steps) run. " +
		"cpu: the CPU engine. gpu: any OpenGL 4.3 device, a software one too. auto: a hardware GPU if there is one, else the CPU. " +
		"Without a usable GPU a pass runs on the CPU and the log says why.")

	imgui.SeparatorText("Device")
	switch r := st.report; {
	case r == nil:
		textDisabled("looking for a GPU…")
	case r.err != nil:
		msg := r.err.Error()
		if errors.Is(r.err, gpu.ErrUnavailable) {
			msg = "No GPU compute: " + msg
		}
		textWrapped(msg)
		textWrapped("gpu and auto run on the CPU.")
	default:
		i := r.info
		mem := "not reported by the driver"
		if i.MemoryMiB > 0 {
			mem = fmt.Sprintf("%d MiB", i.MemoryMiB)
		}
		for _, row := range [][2]string{
			{"renderer", i.Renderer}, {"vendor", i.Vendor}, {"version", i.Version}, {"API", i.API + " (" + i.Platform + ")"},
			{"memory", mem}, {"largest buffer", fmt.Sprintf("%d MiB", i.MaxBufferBytes>>20)},
		} {
			imgui.TextUnformatted(row[0])
			imgui.SameLineV(130, 0)
			textWrapped(row[1])
		}
		textWrapped("auto runs on " + r.autoChoice() + ".")
	}

	imgui.SeparatorText("Last runs")
	if l := st.lastDetail; l.device != "" {
		textWrapped(fmt.Sprintf("detail pass: %d steps, %.1f steps/s on %s", l.steps, l.stepsPerSec, l.device))
	} else {
		textDisabled("detail pass: none yet")
	}
	st.mu.Lock()
	b := st.lastBuild
	st.mu.Unlock()
	if b != nil {
		rate := 0.0
		if b.Seconds > 0 {
			rate = float64(b.Steps) / b.Seconds
		}
		textWrapped(fmt.Sprintf("build (×%d): %d steps in %.1f s, %.1f steps/s on %s", b.Factor, b.Steps, b.Seconds, rate, b.Device))
		if b.Fallback != "" {
			textWrapped(b.Fallback)
		}
	} else {
		textDisabled("build: no hydraulic pass yet")
	}
}
