package ui

import (
	"fmt"
	"slices"

	"github.com/AllenDang/cimgui-go/imgui"

	"orogen/app/detail"
	"orogen/app/worker"
	"orogen/sim/engine"
	"orogen/sim/hydro"
)

// detailUI is the hydraulic and thermal detail pass (sim/hydro through
// app/detail): while a session is open the views show its terrain, water,
// sediment and hardness, and the stream-power engine is paused. Keep hands
// the terrain to the stream-power engine as its new heights; Discard drops
// it.
type detailUI struct {
	run        *detail.Runner // nil: no session
	wasRunning bool           // the stream-power engine ran before the session
	p          hydro.Params   // the parameters being edited
}

// viewSnap is the snapshot the views draw: the detail pass's while one is
// open, else the stream-power engine's.
func (a *App) viewSnap() *engine.Snapshot {
	if a.det.run != nil {
		return a.det.run.Frame().Snap
	}
	return a.wk.Frame().Snap
}

// startDetail opens a detail session on the current terrain, running.
func (a *App) startDetail() error {
	if a.det.run != nil {
		return nil
	}
	f := a.wk.Frame()
	terrain := f.Snap.Field(slices.Clone(f.Snap.Height))
	p := hydro.DefaultParams(terrain.Cell)
	if a.det.p.Dt > 0 && a.det.p.L == terrain.Cell {
		p = a.det.p // the last session's, for the same cell size
	}
	r, err := detail.Start(hydro.Config{Terrain: terrain, Params: p}, true, min(a.duty, 1))
	if err != nil {
		return err
	}
	a.det.wasRunning = f.Running
	a.wk.Send(worker.Pause{})
	a.det.run, a.det.p = r, p
	a.log.add(levelInfo, "hydraulic erosion started on the terrain of step %d (dt %.3g s)", f.Snap.Step, p.Dt)
	return nil
}

// endDetail closes the session; keep hands its terrain to the engine.
func (a *App) endDetail(keep bool) {
	r := a.det.run
	if r == nil {
		return
	}
	r.Close()
	f := r.Frame()
	a.det.run = nil
	if keep {
		a.wk.Send(worker.SetHeights{H: f.Terrain().Data})
		a.log.add(levelInfo, "kept the hydraulic pass (%d steps, %.0f s simulated) as the terrain", f.Snap.Step, f.Snap.Time)
	} else {
		a.log.add(levelInfo, "discarded the hydraulic pass")
	}
	if a.det.wasRunning {
		a.wk.Send(worker.Run{})
	}
}

// detailPanel is the Simulation window's section for the detail pass.
func (a *App) detailPanel() {
	if !imgui.CollapsingHeaderTreeNodeFlagsV("Hydraulic & thermal erosion (detail pass)", 0) {
		return
	}
	d := &a.det
	if d.run == nil {
		textWrapped("Runs rain, flowing water, sediment and talus slides (Jákó & Tóth 2011) on the current terrain. The stream-power engine pauses; Keep makes the result its new terrain.")
		if imgui.Button("Start on this terrain") {
			if err := a.startDetail(); err != nil {
				a.showError("Hydraulic erosion", err)
			}
		}
		return
	}
	f := d.run.Frame()
	label := "Pause"
	if !f.Running {
		label = "Run"
	}
	if imgui.Button(label + "###detailrun") {
		if f.Running {
			d.run.Pause()
		} else {
			d.run.Run()
		}
	}
	imgui.SameLine()
	if imgui.Button("Keep as terrain") {
		a.endDetail(true)
		return
	}
	imgui.SameLine()
	if imgui.Button("Discard") {
		a.endDetail(false)
		return
	}
	st := f.Stats
	imgui.TextUnformatted(fmt.Sprintf("step %d   %.0f s   %.1f steps/s", st.Step, st.Time, f.StepsPerSec))
	imgui.TextUnformatted(fmt.Sprintf("deepest water %.2f m   fastest %.1f m/s", st.MaxDepth, st.MaxSpeed))
	b := st.Budget
	imgui.TextUnformatted(fmt.Sprintf("water: rain %.3g m³, evaporated %.3g, out %.3g, stored %.3g", b.RainIn, b.Evaporated, b.Outflow, b.Stored))
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
	if imgui.ComboStrarr("edges", &bd, []string{"walls", "open", "wrap"}, 3) {
		p.Boundary = hydro.Boundary(bd)
		changed = true
	}
	if changed {
		if err := d.run.Set(p); err != nil {
			a.log.add(levelError, "hydraulic parameters: %v", err)
		} else {
			d.p = p
		}
	}
	textDisabled("Overlays: sediment and hardness show the pass's fields.")
}
