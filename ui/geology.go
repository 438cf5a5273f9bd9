package ui

import (
	"fmt"
	"slices"
	"strings"

	"github.com/AllenDang/cimgui-go/imgui"

	"orogen/app/session"
	"orogen/sim/geology"
	"orogen/viewer"
)

// winGeology is the Geology panel: the layer stack, the rocks and the
// deformations of the scene's geology (package geology), every edit an
// undo entry that the engine takes at its next step.
const winGeology = "Geology"

// geologyUI is the Geology panel's state.
type geologyUI struct {
	err string // the last refused edit, shown in the panel
}

// geoEdit applies an edit of a copy of the document's geology: each widget
// edits g and, if it changed, this hands it to the session. merge merges a
// drag into one undo entry (the gesture ends when the widget is released).
func (a *App) geoEdit(label, merge string, edit func(g *geology.Spec)) {
	cur := a.s.Geology()
	if cur == nil {
		return
	}
	g := cur.Clone()
	edit(&g)
	if err := a.s.SetGeology(&g, label, merge); err != nil {
		a.geo.err = err.Error()
		return
	}
	a.geo.err = ""
}

// geoEnd closes the gesture of the widget just drawn when it is released.
func (a *App) geoEnd() {
	if imgui.IsItemDeactivated() {
		a.s.Doc().EndGesture()
	}
}

// dragF edits a float64 of the geology by dragging; key names the undo
// gesture.
func (a *App) dragF(label, key string, v float64, speed, lo, hi float32, format string, set func(g *geology.Spec, v float64)) {
	f := float32(v)
	imgui.SetNextItemWidth(110)
	if imgui.DragFloatV(label, &f, speed, lo, hi, format, imgui.SliderFlagsAlwaysClamp) {
		a.geoEdit("Edit geology: "+strings.TrimSpace(strings.SplitN(label, "##", 2)[0]), "geology:"+key, func(g *geology.Spec) { set(g, float64(f)) })
	}
	a.geoEnd()
}

// rockNames lists the rocks a layer may use: the presets and the user's.
func rockNames(g *geology.Spec) []string {
	var n []string
	for _, r := range geology.Presets() {
		n = append(n, r.Name)
	}
	for _, r := range g.Rocks {
		if !slices.ContainsFunc(n, func(s string) bool { return strings.EqualFold(s, r.Name) }) {
			n = append(n, r.Name)
		}
	}
	return n
}

// moveItem swaps s[i] with s[i+d] when both exist.
func moveItem[T any](s []T, i, d int) {
	if j := i + d; j >= 0 && j < len(s) {
		s[i], s[j] = s[j], s[i]
	}
}

func (a *App) geologyWindow() {
	if !imgui.Begin(winGeology) {
		imgui.End()
		return
	}
	cur := a.s.Geology()
	on := cur != nil
	if imgui.Checkbox("layered rock", &on) {
		var err error
		if on {
			err = a.s.SetGeology(session.PresetGeology(), "Add geology", "")
		} else {
			err = a.s.SetGeology(nil, "Remove geology", "")
		}
		if err != nil {
			a.showError("Geology", err)
		}
	}
	if imgui.IsItemHovered() {
		tooltip("Erode by the rock under the terrain: each cell's k is k·Kd/Kd_ref of the layer exposed there (Roudier et al. 1993, §3).")
	}
	if cur == nil {
		textWrapped("Uniform rock. Turn on layered rock, or File → Import geology..., to erode strata, folds and faults differentially.")
		imgui.End()
		return
	}
	g := cur.Clone()
	imgui.SameLine()
	if imgui.Checkbox("colour by rock", &a.vopts.Rock) {
		a.setRockColours(a.vopts.Rock)
	}
	if a.geo.err != "" {
		imgui.PushStyleColorVec4(imgui.ColText, imgui.Vec4{X: 1, Y: 0.45, Z: 0.45, W: 1})
		textWrapped(a.geo.err)
		imgui.PopStyleColor()
	}
	a.dragF("base (m)", "base", g.Base, 5, -1e5, 1e5, "%.0f", func(g *geology.Spec, v float64) { g.Base = v })
	imgui.SameLine()
	kd := g.KdRef
	if kd == 0 {
		kd = geology.DefaultKdRef
	}
	a.dragF("Kd ref", "kdref", kd, 0.005, 0.01, 1, "%.2f", func(g *geology.Spec, v float64) { g.KdRef = v })
	if imgui.IsItemHovered() {
		tooltip("The softness that erodes at the scene's k: a rock of softness Kd erodes at k·Kd/Kd_ref.")
	}
	tr := g.TalusByRock
	if imgui.Checkbox("talus by rock", &tr) {
		a.geoEdit("Edit geology: talus by rock", "", func(g *geology.Spec) { g.TalusByRock = tr })
	}
	if imgui.IsItemHovered() {
		tooltip("Hard rock holds steeper slopes: the talus angle's tangent times √(Kd_ref/Kd), within ×¼ to ×4.")
	}
	a.stackEditor(&g)
	a.rocksEditor(&g)
	a.deformEditor(&g)
	imgui.End()
}

// stackEditor lists the groups of layers, bottom to top.
func (a *App) stackEditor(g *geology.Spec) {
	if !imgui.CollapsingHeaderTreeNodeFlagsV("Layers (bottom to top)", imgui.TreeNodeFlagsDefaultOpen) {
		return
	}
	names := rockNames(g)
	for gi, grp := range g.Stack {
		imgui.PushIDInt(int32(gi))
		rep := int32(grp.Times())
		imgui.SetNextItemWidth(90)
		if imgui.InputIntV("repeat", &rep, 1, 5, 0) && rep >= 1 {
			a.geoEdit("Edit geology: repeat", "", func(g *geology.Spec) { g.Stack[gi].Repeat = int(rep) })
		}
		imgui.SameLine()
		if imgui.SmallButton("up") {
			a.geoEdit("Move group", "", func(g *geology.Spec) { moveItem(g.Stack, gi, 1) })
		}
		imgui.SameLine()
		if imgui.SmallButton("down") {
			a.geoEdit("Move group", "", func(g *geology.Spec) { moveItem(g.Stack, gi, -1) })
		}
		imgui.SameLine()
		if imgui.SmallButton("remove group") {
			a.geoEdit("Remove group", "", func(g *geology.Spec) { g.Stack = slices.Delete(g.Stack, gi, gi+1) })
		}
		imgui.Indent()
		for li, l := range grp.Layers {
			imgui.PushIDInt(int32(li))
			rk := int32(slices.IndexFunc(names, func(s string) bool { return strings.EqualFold(s, l.Rock) }))
			imgui.SetNextItemWidth(110)
			if imgui.ComboStrarr("##rock", &rk, names, int32(len(names))) && rk >= 0 {
				a.geoEdit("Edit geology: rock", "", func(g *geology.Spec) { g.Stack[gi].Layers[li].Rock = names[rk] })
			}
			imgui.SameLine()
			a.dragF("m##thick", fmt.Sprintf("thick:%d:%d", gi, li), l.Thickness, 0.5, 0.1, 1e5, "%.1f",
				func(g *geology.Spec, v float64) { g.Stack[gi].Layers[li].Thickness = v })
			imgui.SameLine()
			if imgui.SmallButton("^") {
				a.geoEdit("Move layer", "", func(g *geology.Spec) { moveItem(g.Stack[gi].Layers, li, 1) })
			}
			imgui.SameLine()
			if imgui.SmallButton("v") {
				a.geoEdit("Move layer", "", func(g *geology.Spec) { moveItem(g.Stack[gi].Layers, li, -1) })
			}
			imgui.SameLine()
			if imgui.SmallButton("x") {
				a.geoEdit("Remove layer", "", func(g *geology.Spec) {
					g.Stack[gi].Layers = slices.Delete(g.Stack[gi].Layers, li, li+1)
				})
			}
			imgui.PopID()
		}
		if imgui.SmallButton("add layer") {
			a.geoEdit("Add layer", "", func(g *geology.Spec) {
				g.Stack[gi].Layers = append(g.Stack[gi].Layers, geology.Layer{Thickness: 50, Rock: geology.Granite.Name})
			})
		}
		imgui.Unindent()
		imgui.PopID()
	}
	if imgui.Button("add group") {
		a.geoEdit("Add group", "", func(g *geology.Spec) {
			g.Stack = append(g.Stack, geology.Group{Layers: []geology.Layer{{Thickness: 50, Rock: geology.Limestone.Name}}})
		})
	}
}

// rocksEditor edits the user's rocks.
func (a *App) rocksEditor(g *geology.Spec) {
	if !imgui.CollapsingHeaderTreeNodeFlagsV("Rocks", 0) {
		return
	}
	textDisabled("Presets (Roudier et al. 1993, Table 1): Clay, Quartzite, Limestone, River sand, Granite. Kd softness, Kf permeability, Ke dissolution.")
	for ri, r := range g.Rocks {
		imgui.PushIDInt(int32(ri))
		name := r.Name
		imgui.SetNextItemWidth(110)
		if imgui.InputTextWithHint("##name", "name", &name, imgui.InputTextFlagsEnterReturnsTrue, nil) && strings.TrimSpace(name) != "" {
			a.geoEdit("Rename rock", "", func(g *geology.Spec) {
				old := g.Rocks[ri].Name
				g.Rocks[ri].Name = name
				for gi := range g.Stack {
					for li := range g.Stack[gi].Layers {
						if strings.EqualFold(g.Stack[gi].Layers[li].Rock, old) {
							g.Stack[gi].Layers[li].Rock = name
						}
					}
				}
			})
		}
		imgui.SameLine()
		c, _ := geology.ParseColor(r.Color)
		col := [3]float32{float32(c.R) / 255, float32(c.G) / 255, float32(c.B) / 255}
		if imgui.ColorEdit3V("##colour", &col, imgui.ColorEditFlagsNoInputs) {
			a.geoEdit("Rock colour", "geology:colour:"+r.Name, func(g *geology.Spec) {
				g.Rocks[ri].Color = fmt.Sprintf("#%02x%02x%02x", uint8(col[0]*255+0.5), uint8(col[1]*255+0.5), uint8(col[2]*255+0.5))
			})
		}
		a.geoEnd()
		imgui.SameLine()
		if imgui.SmallButton("x") {
			a.geoEdit("Remove rock", "", func(g *geology.Spec) { g.Rocks = slices.Delete(g.Rocks, ri, ri+1) })
		}
		a.dragF("Kd", "kd:"+r.Name, r.Kd, 0.005, 0, 1, "%.2f", func(g *geology.Spec, v float64) { g.Rocks[ri].Kd = v })
		imgui.SameLine()
		a.dragF("Kf", "kf:"+r.Name, r.Kf, 0.005, 0, 1, "%.2f", func(g *geology.Spec, v float64) { g.Rocks[ri].Kf = v })
		imgui.SameLine()
		a.dragF("Ke", "ke:"+r.Name, r.Ke, 0.005, 0, 1, "%.2f", func(g *geology.Spec, v float64) { g.Rocks[ri].Ke = v })
		imgui.PopID()
	}
	if imgui.Button("add rock") {
		a.geoEdit("Add rock", "", func(g *geology.Spec) {
			n := 1
			for slices.ContainsFunc(rockNames(g), func(s string) bool { return strings.EqualFold(s, fmt.Sprintf("Rock %d", n)) }) {
				n++
			}
			g.Rocks = append(g.Rocks, geology.RockSpec{Name: fmt.Sprintf("Rock %d", n), Kd: 0.5, Kf: 0.5, Ke: 0.3, Color: "#a08070"})
		})
	}
}

// deformEditor edits the deformations, in the order they apply.
func (a *App) deformEditor(g *geology.Spec) {
	if !imgui.CollapsingHeaderTreeNodeFlagsV("Deformations (in order)", imgui.TreeNodeFlagsDefaultOpen) {
		return
	}
	kinds := geology.Kinds()
	labels := make([]string, len(kinds))
	for i, k := range kinds {
		labels[i] = string(k)
	}
	for di, d := range g.Deformations {
		imgui.PushIDInt(int32(di))
		k := int32(slices.Index(kinds, d.Kind))
		imgui.SetNextItemWidth(90)
		if imgui.ComboStrarr("##kind", &k, labels, int32(len(labels))) && k >= 0 {
			a.geoEdit("Edit geology: deformation kind", "", func(g *geology.Spec) {
				g.Deformations[di] = defaultDeformation(kinds[k], d.Azimuth, d.Offset)
			})
		}
		imgui.SameLine()
		if imgui.SmallButton("^") {
			a.geoEdit("Move deformation", "", func(g *geology.Spec) { moveItem(g.Deformations, di, -1) })
		}
		imgui.SameLine()
		if imgui.SmallButton("v") {
			a.geoEdit("Move deformation", "", func(g *geology.Spec) { moveItem(g.Deformations, di, 1) })
		}
		imgui.SameLine()
		if imgui.SmallButton("x") {
			a.geoEdit("Remove deformation", "", func(g *geology.Spec) { g.Deformations = slices.Delete(g.Deformations, di, di+1) })
		}
		key := func(f string) string { return fmt.Sprintf("def:%d:%s", di, f) }
		set := func(f func(d *geology.Deformation, v float64)) func(g *geology.Spec, v float64) {
			return func(g *geology.Spec, v float64) { f(&g.Deformations[di], v) }
		}
		a.dragF("azimuth (°)", key("az"), d.Azimuth, 0.5, -360, 360, "%.0f", set(func(d *geology.Deformation, v float64) { d.Azimuth = v }))
		imgui.SameLine()
		a.dragF("offset (m)", key("off"), d.Offset, 50, -1e6, 1e6, "%.0f", set(func(d *geology.Deformation, v float64) { d.Offset = v }))
		a.dragF("lean (°)", key("lean"), d.Lean, 0.2, -geology.MaxLean, geology.MaxLean, "%.1f", set(func(d *geology.Deformation, v float64) { d.Lean = v }))
		switch d.Kind {
		case geology.Fold:
			imgui.SameLine()
			a.dragF("wavelength (m)", key("wl"), d.Wavelength, 50, 10, 1e6, "%.0f", set(func(d *geology.Deformation, v float64) { d.Wavelength = v }))
			a.dragF("amplitude (m)", key("amp"), d.Amplitude, 2, -1e4, 1e4, "%.0f", set(func(d *geology.Deformation, v float64) { d.Amplitude = v }))
			imgui.SameLine()
			a.dragF("phase (°)", key("ph"), d.Phase, 1, -360, 360, "%.0f", set(func(d *geology.Deformation, v float64) { d.Phase = v }))
		case geology.Fault:
			imgui.SameLine()
			a.dragF("throw (m)", key("throw"), d.Throw, 2, -1e4, 1e4, "%.0f", set(func(d *geology.Deformation, v float64) { d.Throw = v }))
			steps := int32(d.Steps)
			imgui.SetNextItemWidth(90)
			if imgui.InputIntV("steps", &steps, 1, 5, 0) && steps >= 1 {
				a.geoEdit("Edit geology: fault steps", "", func(g *geology.Spec) { g.Deformations[di].Steps = int(steps) })
			}
			imgui.SameLine()
			a.dragF("spacing (m)", key("sp"), d.Spacing, 10, 0, 1e5, "%.0f", set(func(d *geology.Deformation, v float64) { d.Spacing = v }))
			imgui.SameLine()
			a.dragF("ramp (m)", key("w"), d.Width, 5, 0, 1e5, "%.0f", set(func(d *geology.Deformation, v float64) { d.Width = v }))
		case geology.Tilt:
			imgui.SameLine()
			a.dragF("dip (°)", key("dip"), d.Dip, 0.1, -89, 89, "%.1f", set(func(d *geology.Deformation, v float64) { d.Dip = v }))
		case geology.Profile:
			for pi, p := range d.Points {
				imgui.PushIDInt(int32(pi))
				a.dragF("s (m)", key(fmt.Sprintf("ps%d", pi)), p[0], 10, -1e6, 1e6, "%.0f", set(func(d *geology.Deformation, v float64) { d.Points[pi][0] = v }))
				imgui.SameLine()
				a.dragF("f (m)", key(fmt.Sprintf("pf%d", pi)), p[1], 2, -1e4, 1e4, "%.0f", set(func(d *geology.Deformation, v float64) { d.Points[pi][1] = v }))
				imgui.SameLine()
				if imgui.SmallButton("x") && len(d.Points) > 2 {
					a.geoEdit("Remove profile point", "", func(g *geology.Spec) {
						g.Deformations[di].Points = slices.Delete(g.Deformations[di].Points, pi, pi+1)
					})
				}
				imgui.PopID()
			}
			if imgui.SmallButton("add point") {
				a.geoEdit("Add profile point", "", func(g *geology.Spec) {
					ps := g.Deformations[di].Points
					last := ps[len(ps)-1]
					g.Deformations[di].Points = append(ps, [2]float64{last[0] + 1000, last[1]})
				})
			}
		}
		imgui.Separator()
		imgui.PopID()
	}
	for _, k := range kinds {
		if imgui.SmallButton("add " + string(k)) {
			a.geoEdit("Add "+string(k), "", func(g *geology.Spec) {
				g.Deformations = append(g.Deformations, defaultDeformation(k, 0, 0))
			})
		}
		imgui.SameLine()
	}
	imgui.NewLine()
}

// defaultDeformation is a new deformation of kind k: a visible but gentle
// one on a map of tens of kilometres.
func defaultDeformation(k geology.DeformKind, az, off float64) geology.Deformation {
	d := geology.Deformation{Kind: k, Azimuth: az, Offset: off}
	switch k {
	case geology.Fold:
		d.Wavelength, d.Amplitude = 10000, 150
	case geology.Fault:
		d.Throw, d.Steps, d.Offset = 200, 1, max(off, 20000)
	case geology.Tilt:
		d.Dip = 2
	case geology.Profile:
		d.Points = [][2]float64{{0, 0}, {20000, 300}, {40000, 0}}
	}
	return d
}

// setRockColours colours the 2D and 3D views by exposed rock, or by
// height.
func (a *App) setRockColours(on bool) {
	a.vopts.Rock = on
	if on {
		a.v3.opts.Color = viewer.ColorRock
	} else if a.v3.opts.Color == viewer.ColorRock {
		a.v3.opts.Color = viewer.ColorHeight
	}
}

// geologyOnOff is the geology action: on, off, or (from the menu) toggle.
func (a *App) geologyOnOff(args []string) error {
	on := a.s.Geology() == nil
	if len(args) > 0 && args[0] != "toggle" {
		on = args[0] == "on"
	}
	switch {
	case on && a.s.Geology() == nil:
		return a.s.SetGeology(session.PresetGeology(), "Add geology", "")
	case !on && a.s.Geology() != nil:
		return a.s.SetGeology(nil, "Remove geology", "")
	}
	return nil
}

// loadGeology is the load-geology action; without a path it asks.
func (a *App) loadGeology(args []string) error {
	if len(args) == 0 {
		a.browser.show("Import geology", false, a.s.Dir(), "", []string{".json"}, func(p string) {
			if err := a.s.LoadGeology(p); err != nil {
				a.showError("Import geology", err)
			}
		})
		return nil
	}
	return a.s.LoadGeology(args[0])
}
