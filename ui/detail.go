package ui

import (
	"fmt"

	"github.com/AllenDang/cimgui-go/imgui"

	"orogen/app/compute"
	"orogen/sim/hydro"
)

// detailUI is the detail pass panel's state: the parameters being edited
// (the session runs the pass, see session.StartDetail).
type detailUI struct {
	p hydro.Params
}

// detailPanel is the Simulation window's section for the detail pass.
func (a *App) detailPanel() {
	if !imgui.CollapsingHeaderTreeNodeFlagsV("Hydraulic & thermal erosion (detail pass)", 0) {
		return
	}
	d := &a.det
	run := a.s.Detail()
	if run == nil {
		textWrapped("Runs rain, flowing water, sediment and talus slides (Jákó & Tóth 2011) on the current terrain. The stream-power engine pauses; Keep makes the result its new terrain.")
		// Settings: Compute device (gpu: any OpenGL 4.3 device; auto: a
		// hardware GPU, else the CPU; the log says why it fell back).
		dev := int32(a.s.ComputeDevice())
		if imgui.ComboStrarr("compute device", &dev, []string{"cpu", "gpu", "auto"}, 3) && dev >= 0 {
			a.s.SetComputeDevice(compute.Device(dev))
			a.savePrefs()
		}
		if imgui.Button("Start on this terrain") {
			a.do("detail", "start")
			d.p = a.s.DetailParams()
		}
		return
	}
	f := run.Frame()
	label := "Pause"
	if !f.Running {
		label = "Run"
	}
	if imgui.Button(label + "###detailrun") {
		if f.Running {
			a.do("detail", "pause")
		} else {
			a.do("detail", "run")
		}
	}
	imgui.SameLine()
	if imgui.Button("Keep as terrain") {
		a.do("detail", "keep")
		return
	}
	imgui.SameLine()
	if imgui.Button("Discard") {
		a.do("detail", "discard")
		return
	}
	st := f.Stats
	imgui.TextUnformatted(fmt.Sprintf("step %d   %.0f s   %.1f steps/s", st.Step, st.Time, f.StepsPerSec))
	textWrapped("on " + f.Device)
	imgui.TextUnformatted(fmt.Sprintf("deepest water %.2f m   fastest %.1f m/s", st.MaxDepth, st.MaxSpeed))
	b := st.Budget
	imgui.TextUnformatted(fmt.Sprintf("water: rain %.3g m³, evaporated %.3g, out %.3g, stored %.3g", b.RainIn, b.Evaporated, b.Outflow, b.Stored))
	imgui.TextUnformatted(fmt.Sprintf("sediment out through the edges %.3g m³", b.SedimentOut))
	if f.Warning != "" {
		imgui.PushStyleColorVec4(imgui.ColText, imgui.Vec4{X: 1, Y: 0.75, Z: 0.3, W: 1})
		textWrapped(f.Warning)
		imgui.PopStyleColor()
	}
	if f.Err != nil {
		imgui.PushStyleColorVec4(imgui.ColText, imgui.Vec4{X: 1, Y: 0.45, Z: 0.45, W: 1})
		textWrapped(f.Err.Error())
		imgui.PopStyleColor()
	}
	if d.p == (hydro.Params{}) {
		d.p = a.s.DetailParams()
	}
	p := d.p
	stable, _ := p.StableDt(p.L)
	changed := false
	changed = sliderF64("dt (s)", &p.Dt, stable/100, stable*2, true, "%.3g",
		fmt.Sprintf("Time step. Stable up to %.3g s here (the pipes' CFL limit); above it the engine warns.", stable)) || changed
	changed = sliderF64("rain (m/s)", &p.Kr, 1e-6, 1e-1, true, "%.2g", "K_r: water added to every cell per second.") || changed
	changed = sliderF64("evaporation (1/s)", &p.Ke, 1e-5, 0.5, true, "%.2g", "K_e: fraction of the water depth that evaporates per second.") || changed
	changed = sliderF64("capacity (s)", &p.Kc, 1e-4, 10, true, "%.2g", "K_c: sediment the water can carry per m/s of speed and unit slope.") || changed
	changed = sliderF64("dissolve (1/s)", &p.Ks, 1e-3, 5, true, "%.2g", "K_s: how fast water picks up soil below its capacity.") || changed
	changed = sliderF64("deposit (1/s)", &p.Kd, 1e-3, 5, true, "%.2g", "K_d: how fast sediment settles above the capacity.") || changed
	changed = sliderF64("thermal (1/s)", &p.Kt, 0, 0.2, false, "%.3f", "K_t: rate of talus slides on slopes steeper than the talus angle; 0 turns them off.") || changed
	changed = sliderF64("talus (deg)", &p.TalusDeg, 5, 80, false, "%.0f", "Talus angle: the steepest slope loose rock rests at.") || changed
	bd := int32(p.Boundary)
	edges := hydro.BoundaryNames()
	if imgui.ComboStrarr("edges", &bd, edges, int32(len(edges))) {
		p.Boundary = hydro.Boundary(bd)
		changed = true
	}
	if changed {
		if err := a.s.SetDetailParams(p); err != nil {
			a.log.add(levelError, "hydraulic parameters: %v", err)
		} else {
			d.p = p
		}
	}
	textDisabled("Overlays: sediment and hardness show the pass's fields.")
}
