package ui

import (
	"fmt"
	"math"
	"strings"

	"github.com/AllenDang/cimgui-go/imgui"
	"github.com/AllenDang/cimgui-go/implot"

	"orogen/app/engines"
	"orogen/app/session"
	"orogen/app/worker"
	"orogen/brushes"
	"orogen/sim/engine"
	"orogen/sim/settle"
	"orogen/sim/spl"
	"orogen/viewer"
)

var (
	kindLabels    = titles(brushes.KindNames())
	falloffLabels = titles(brushes.FalloffNames())
	overlayLabels = titles(viewer.OverlayNames())
)

func (a *App) toolsWindow() {
	if !imgui.Begin(winTools) {
		imgui.End()
		return
	}
	imgui.SeparatorText("Tool")
	recordWindowRect(winTools)
	for t := toolPaint; t < numTools; t++ {
		if imgui.RadioButtonBool(toolNames[t], a.tool == t) {
			a.tool = t
		}
		recordItemRect(toolNames[t])
	}
	switch a.tool {
	case toolPaint:
		imgui.SeparatorText("Brush")
		k := int32(a.brush.Kind)
		if imgui.ComboStrarr("kind", &k, kindLabels, int32(len(kindLabels))) {
			a.brush.Kind = brushes.Kind(k)
		}
		fo := int32(a.brush.Falloff)
		if imgui.ComboStrarr("falloff", &fo, falloffLabels, int32(len(falloffLabels))) {
			a.brush.Falloff = brushes.Falloff(fo)
		}
		sliderF64("radius (cells)", &a.brush.Radius, 1, 512, true, "%.1f", "Brush radius in grid cells. [ and ] change it.")
		sliderF64("strength", &a.brush.Strength, 0.001, 1, false, "%.3f", "How far one stamp moves a pixel toward the brush's goal.")
		sliderF64("spacing", &a.brush.Spacing, brushes.MinSpacing, brushes.MaxSpacing, false, "%.2f",
			"Distance between stamps along the stroke, as a fraction of the radius: strokes do not depend on mouse speed.")
		if a.brush.Kind == brushes.Set {
			sliderF64("value", &a.brush.Value, -1, 2, false, "%.3f", "The normalized uplift that Set paints toward (1 = the uplift scale).")
		}
		if a.brush.Kind == brushes.Noise {
			sliderF64("noise scale (cells)", &a.brush.NoiseScale, 0, 512, false, "%.1f", "Wavelength of the first noise octave; 0 uses the radius.")
		}
		textDisabled("Paints the normalized uplift layer \"" + a.s.Doc().PaintLayer() + "\"; the uplift overlay shows while painting.")
	case toolSegment:
		textWrapped("Drag on the map to place a mountain range from where you press to where you release. Select it to drag its ends and radius.")
	case toolValley:
		textWrapped("Drag on the map to cut a valley. Under the tree's Sum its floor lowers the uplift.")
	case toolSelect:
		textWrapped("Click a primitive to select it; drag the yellow handles to move its ends or change its radius. Each drag is one undo step.")
	case toolSection:
		textWrapped("Drag a line on the map: the Cross-section window shows the terrain profile and the strata beneath it.")
	case toolPin:
		textWrapped("Click the map to hold the terrain's height there; drag a pin to move it. Click a pin to select it: set its height in the field beside it, or Shift-drag it up and down (also in the Constraints panel). The simulation adjusts the uplift around it until the terrain passes through.")
	case toolRegion:
		a.region.regionPanel(a.toolCtx())
	case toolCurve:
		textWrapped("Drag on the map to hold a line of heights (a ridge crest or a river bed) from where you press to where you release. Drag a vertex to move it; click it to select it and set its height in the field beside it, or Shift-drag it up and down. Double-click the line to add a vertex; Remove in a vertex's field takes it out.")
	}
	imgui.End()
}

// sliderF64 is a float slider over a float64, logarithmic when asked
// (valueSlider: both ends reachable, Ctrl+click types a value). A typed
// value outside [lo, hi] is clamped.
func sliderF64(label string, v *float64, lo, hi float64, log bool, format, help string) bool {
	fitLabel(label)
	nv, changed := valueSlider(label, *v, lo, hi, log, format)
	if help != "" && imgui.IsItemHovered() {
		tooltip(help)
	}
	if changed && nv == nv {
		*v = min(max(nv, lo), hi)
	}
	return changed
}

func (a *App) simulationWindow() {
	if !imgui.Begin(winSimulation) {
		imgui.End()
		return
	}
	f := a.s.Frame()
	label := "Run"
	if f.Running {
		label = "Pause"
	}
	if imgui.Button(label + "###runpause") {
		a.do("toggle-run")
	}
	imgui.SameLine()
	if imgui.Button("Step") {
		a.do("steps", "1")
	}
	imgui.SameLine()
	if imgui.Button("Reset") {
		a.do("reset")
	}
	a.engineChooser(f)
	if f.Err != nil {
		imgui.PushStyleColorVec4(imgui.ColText, imgui.Vec4{X: 1, Y: 0.45, Z: 0.45, W: 1})
		textWrapped("Stopped: " + f.Err.Error())
		imgui.PopStyleColor()
	}
	s := f.Snap
	rate := fmt.Sprintf("%.1f steps/s", f.StepsPerSec)
	if f.Resting {
		rate = "resting" // settled: no steps until something changes
	}
	imgui.TextUnformatted(fmt.Sprintf("step %d   %s   %s", s.Step, stepTime(s.Time, s.Step, s.Param.Dt, f.Converged), rate))
	// The worker computed the heights' figures with the snapshot.
	imgui.TextUnformatted(fmt.Sprintf("max height %.0f m   mean %.0f m   max |dh| %.3g m", f.MaxHeight, f.MeanHeight, s.Stats.MaxDh))
	imgui.TextUnformatted(settleLine(f))
	for _, l := range engines.StatusOf(s) {
		imgui.TextUnformatted(l)
	}

	if sliderF64("engine share", &a.duty, 0.3, 1, false, "%.2f",
		"Largest share of the time the engine may compute: below 1 it rests between steps so the window keeps its frame rate on a small machine. Results do not change, only steps per second.") {
		a.s.SetDuty(a.duty)
	}
	imgui.SeparatorText("Parameters")
	a.sliderPanel()
	if e, err := engines.Lookup(s.Kind); err == nil && e.Reads(engines.StreamPower) {
		a.targetHeight() // sets the stream power's k
	}
	a.detailPanel()

	if imgui.CollapsingHeaderTreeNodeFlagsV("Timings (ms per phase)", 0) {
		var total float64
		for i, n := range engine.PhaseNames {
			imgui.TextUnformatted(fmt.Sprintf("%-10s %6.2f", n, f.PhaseMs[i]))
			total += f.PhaseMs[i]
		}
		imgui.TextUnformatted(fmt.Sprintf("%-10s %6.2f", "step", total))
		pic, mesh, proj := a.rend.Timings()
		imgui.TextUnformatted(fmt.Sprintf("%-10s %6.2f", "2D picture", pic))
		imgui.TextUnformatted(fmt.Sprintf("%-10s %6.2f", "3D mesh", mesh))
		imgui.TextUnformatted(fmt.Sprintf("%-10s %6.2f", "3D picture", proj))
	}
	if a.showPlot {
		a.plot(f)
	}
	imgui.End()
}

// engineChooser picks the engine (grid, stream graph with its node count,
// or Roudier's processes). A change is a document edit (undoable, saved with the project);
// the session then restarts the terrain on the new engine.
func (a *App) engineChooser(f *worker.Frame) {
	sc := a.s.Doc().Scene()
	kinds := engines.Kinds()
	labels := make([]string, len(kinds))
	cur := int32(0)
	var help strings.Builder
	for i, k := range kinds {
		e := engines.Must(k)
		labels[i] = e.Label
		if k == sc.Engine {
			cur = int32(i)
		}
		fmt.Fprintf(&help, "%s: %s.\n", e.Label, e.Help)
	}
	help.WriteString("Changing it restarts the terrain.")
	imgui.SetNextItemWidth(120)
	if imgui.ComboStrarr("engine", &cur, labels, int32(len(labels))) {
		samples := 0
		if engines.Must(kinds[cur]).Nodes {
			samples = sc.Samples
		}
		a.setEngine(kinds[cur], samples)
	}
	if imgui.IsItemHovered() {
		tooltip(help.String())
	}
	if e, err := engines.Lookup(sc.Engine); err != nil || !e.Nodes {
		return
	}
	imgui.SameLine()
	def := engines.DefaultSamples(sc.Width, sc.Height)
	if a.samplesEdit == 0 || !a.samplesActive {
		a.samplesEdit = int32(sc.Samples)
		if a.samplesEdit == 0 {
			a.samplesEdit = int32(def)
		}
	}
	imgui.SetNextItemWidth(90)
	imgui.InputIntV("nodes", &a.samplesEdit, 1000, 10000, 0)
	a.samplesActive = imgui.IsItemActive()
	if imgui.IsItemHovered() {
		tooltip(fmt.Sprintf("Poisson samples of the stream graph (%d now). Default: one per 4 cells. Applied when you leave the field; the terrain restarts.", f.Nodes))
	}
	if imgui.IsItemDeactivatedAfterEdit() {
		n := int(a.samplesEdit)
		if n == def {
			n = 0
		}
		a.setEngine(sc.Engine, n)
	}
}

// setEngine switches the engine, reporting a refusal.
func (a *App) setEngine(k engine.Kind, samples int) {
	if err := a.s.SetEngine(k, samples); err != nil {
		a.showError("Engine", err)
	}
}

// settleLine says whether the terrain has settled and how long it took,
// or the time step it is taking meanwhile.
func settleLine(f *worker.Frame) string {
	if f.Converged {
		return fmt.Sprintf("settled in %.1f s (%d steps)", f.SettleTime.Seconds(), f.SettleSteps)
	}
	if f.Stalled {
		return fmt.Sprintf("not settling: still changing %.2g m/yr, no closer for %d steps", f.Rate, settle.DefaultPatience)
	}
	if f.Dt > 0 && f.Dt != f.Snap.Param.Dt {
		return fmt.Sprintf("settling: steps of %.3g yr (%.0f× dt)", f.Dt, f.Dt/f.Snap.Param.Dt)
	}
	return "settling"
}

// stepTime is the status line's time: the simulated time while every
// step was the user's dt. Package settle lengthens steps up to 4096 times
// to reach the steady state sooner, and the sum of those steps (84 Gyr for
// the default preset at 512²) means nothing; the line then says what the
// terrain is doing instead.
func stepTime(yr float64, steps int, dt float64, converged bool) string {
	switch {
	case yr <= float64(steps)*dt*(1+1e-9):
		return simTime(yr)
	case converged:
		return "steady state"
	}
	return "settling on longer steps"
}

// simTime writes a simulated time in years with the unit that fits.
func simTime(yr float64) string {
	switch a := math.Abs(yr); {
	case a >= 1e9:
		return fmt.Sprintf("%.3g Gyr", yr/1e9)
	case a >= 1e6:
		return fmt.Sprintf("%.3g Myr", yr/1e6)
	case a >= 1e3:
		return fmt.Sprintf("%.3g kyr", yr/1e3)
	}
	return fmt.Sprintf("%.3g yr", yr)
}

// sliderPanel draws the live sliders. A drag is one undo step: the
// document merges changes with the same key until the gesture ends.
func (a *App) sliderPanel() {
	kind := a.s.Doc().Scene().Engine
	// The sliders leave room for their longest label (Dear ImGui's default
	// width, two thirds of the panel, cut "k (erodibility)" at 1600 px).
	var lw float32
	for _, s := range sliders {
		if s.AppliesTo(kind) {
			lw = max(lw, imgui.CalcTextSize(sliderLabel(s)).X)
		}
	}
	avail := imgui.ContentRegionAvail().X
	imgui.PushItemWidth(max(avail-lw-imgui.CurrentStyle().ItemInnerSpacing().X, avail*0.4))
	defer imgui.PopItemWidth()
	for _, s := range sliders {
		if !s.AppliesTo(kind) {
			continue
		}
		v, changed := valueSlider(sliderLabel(s), a.sliderValue(s.Name), s.Min, s.Max, s.Log, s.Format)
		if imgui.IsItemHovered() {
			tooltip(s.Help)
		}
		if changed {
			if err := a.setSlider(s.Name, v); err != nil {
				a.showError("Parameter "+s.Name, err)
			}
		}
		if imgui.IsItemDeactivated() {
			a.s.Doc().EndGesture()
		}
	}
}

// sliderLabel is a slider's label with its unit.
func sliderLabel(s session.Param) string {
	if s.Unit != "" {
		return s.Label + " (" + s.Unit + ")"
	}
	return s.Label
}

// sliderValue returns a slider's value in its unit.
func (a *App) sliderValue(name string) float64 {
	if name == thresholdSlider.Name {
		return a.vopts.RiverThresholdM2 / 1e6
	}
	return a.s.Param(name)
}

// setSlider moves a slider: a document parameter (session.SetParam; the
// engine gets it at the next sync) or the river threshold.
func (a *App) setSlider(name string, v float64) error {
	if name != thresholdSlider.Name {
		return a.s.SetParam(name, v)
	}
	t := thresholdSlider
	if !(v >= t.Min && v <= t.Max) {
		return fmt.Errorf("%s = %g is outside [%g, %g] %s", name, v, t.Min, t.Max, t.Unit)
	}
	a.vopts.RiverThresholdM2 = v * 1e6
	return nil
}

// targetHeight sets k from the steady-state peak h_max ~ 2.244·u/k
// (Cordonnier et al. 2016, §6.2 with the paper's defaults: m = 0.5, n = 1).
func (a *App) targetHeight() {
	imgui.SetNextItemWidth(120)
	imgui.InputDoubleV("target height (m)", &a.target, 100, 1000, "%.0f", 0)
	imgui.SameLine()
	if imgui.Button("Set k") {
		u := a.s.Doc().Scene().Uplift.UmaxMPerYr
		if !(a.target > 0) || !(u > 0) {
			a.showError("Target height", fmt.Errorf("need a positive target height and uplift scale (got %g m, %g m/yr)", a.target, u))
		} else {
			k := spl.TargetK(u, a.target)
			if err := a.setSlider("k", k); err != nil {
				a.showError("Target height", err)
			} else {
				a.s.Doc().EndGesture()
				a.log.add(levelInfo, "k = %.3g /yr for a steady-state peak near %.0f m", k, a.target)
			}
		}
	}
	if imgui.IsItemHovered() {
		tooltip("Sets k so that the highest steady-state peak is near the target: h_max ~ 2.244·u/k (Cordonnier et al. 2016, §6.2, m = 0.5, n = 1).")
	}
}

// plot draws max |dh| and max height against the step number.
func (a *App) plot(f *worker.Frame) {
	n := len(f.History)
	if n < 2 {
		return
	}
	if cap(a.plotBuf) < 3*n {
		a.plotBuf = make([]float64, 3*n)
	}
	xs, dh, hh := a.plotBuf[:n], a.plotBuf[n:2*n], a.plotBuf[2*n:3*n]
	for i, s := range f.History {
		xs[i], dh[i], hh[i] = float64(s.Step), max(s.MaxDhM, 1e-9), s.MaxHeightM
	}
	if implot.BeginPlotV("##history", vec2(-1, 220), implot.FlagsNoTitle) {
		implot.SetupAxesV("step", "max |dh| (m)", implot.AxisFlagsAutoFit, implot.AxisFlagsAutoFit)
		implot.SetupAxisScalePlotScale(implot.AxisY1, implot.ScaleLog10)
		implot.SetupAxisV(implot.AxisY2, "max height (m)", implot.AxisFlagsAutoFit|implot.AxisFlagsOpposite)
		implot.SetAxes(implot.AxisX1, implot.AxisY1)
		implot.PlotLinedoublePtrdoublePtr("max |dh|", &xs[0], &dh[0], int32(n))
		implot.SetAxes(implot.AxisX1, implot.AxisY2)
		implot.PlotLinedoublePtrdoublePtr("max height", &xs[0], &hh[0], int32(n))
		p0 := implot.PlotToPixelsdoubleV(xs[0], dh[0], implot.AxisX1, implot.AxisY1)
		p1 := implot.PlotToPixelsdoubleV(xs[n-1], dh[n-1], implot.AxisX1, implot.AxisY1)
		a.plotSpan = float64(p1.X-p0.X) / float64(max(implot.GetPlotSize().X, 1))
		implot.EndPlot()
	}
}

func (a *App) overlaysWindow() {
	if !imgui.Begin(winOverlays) {
		imgui.End()
		return
	}
	o := int32(a.vopts.Overlay)
	if imgui.ComboStrarr("overlay", &o, overlayLabels, int32(len(overlayLabels))) {
		a.vopts.Overlay = viewer.Overlay(o)
	}
	sliderF64("opacity", &a.vopts.OverlayAlpha, 0, 1, false, "%.2f", "How strongly the overlay covers the relief.")
	imgui.Checkbox("rivers", &a.vopts.Rivers)
	imgui.SameLine()
	imgui.Checkbox("lakes", &a.vopts.Lakes)
	imgui.SameLine()
	imgui.Checkbox("flow arrows", &a.arrows)
	if imgui.IsItemHovered() {
		tooltip("Arrows from each cell to its receiver, drawn when cells are at least 8 pixels wide.")
	}
	sliderF64("sun azimuth (°)", &a.vopts.LightAzimuthDeg, 0, 360, false, "%.0f", "Direction the light comes from, clockwise from north.")
	sliderF64("sun altitude (°)", &a.vopts.LightAltitudeDeg, 5, 90, false, "%.0f", "Height of the light above the horizon.")
	sliderF64("exaggeration", &a.vopts.Exaggeration, 0.1, 20, true, "%.2f", "Vertical exaggeration of the hillshade.")
	a.options3DPanel()
	a.amplifyPanel()
	imgui.End()
}

func (a *App) logWindow() {
	if !imgui.Begin(winLog) {
		imgui.End()
		return
	}
	if imgui.Button("Clear") {
		a.log.lines = nil
	}
	imgui.SameLine()
	if imgui.Button("Copy") {
		var b strings.Builder
		for _, l := range a.log.lines {
			fmt.Fprintf(&b, "%s %s %s\n", l.t.Format("15:04:05"), levelNames[l.lvl], l.text)
		}
		imgui.SetClipboardText(b.String())
	}
	if imgui.BeginChildStr("##log") {
		for _, l := range a.log.lines {
			col := imgui.Vec4{X: 0.85, Y: 0.85, Z: 0.85, W: 1}
			switch l.lvl {
			case levelWarn:
				col = imgui.Vec4{X: 1, Y: 0.8, Z: 0.3, W: 1}
			case levelError:
				col = imgui.Vec4{X: 1, Y: 0.45, Z: 0.45, W: 1}
			}
			imgui.PushStyleColorVec4(imgui.ColText, col)
			imgui.TextUnformatted(l.t.Format("15:04:05") + "  " + l.text)
			imgui.PopStyleColor()
		}
		if a.log.scroll {
			imgui.SetScrollHereYV(1)
			a.log.scroll = false
		}
	}
	imgui.EndChild()
	imgui.End()
}
