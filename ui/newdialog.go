package ui

import (
	"fmt"
	"image"
	"image/color"
	"orogen/app/engines"
	"strconv"

	"github.com/AllenDang/cimgui-go/imgui"
	"github.com/hajimehoshi/ebiten/v2"

	"orogen/app/scene"
	"orogen/app/session"
	"orogen/sim/engine"
)

// File → New: a dialog with the preset gallery (each preset's uplift as a
// thumbnail, with its description), the grid size with what it will cost,
// and the engine.

// newSizes are the grid sizes File → New offers, cells a side.
var newSizes = []int{128, 256, 512, 1024, 2048, 4096}

// newStepSecPerCel is what a step of the grid engine costs a cell,
// measured with `orogen run --scene default --steps 20 --report` at 256²
// and 512² on the 2-core development machine under load (see the README):
// a median 60 ms at 512², 0.23 µs a cell. An estimate, to tell 512² from
// 4096².
const newStepSecPerCel = 0.23e-6

// newCost says what an n×n grid of the engine kind with the preset's
// parameters p will cost: the memory `orogen run` estimates for it
// (engines.EstimateBytes: each engine's own, with what the scene's
// processes keep; the app keeps pictures and snapshots besides) and the
// grid engine's time a step.
func newCost(n int, kind engine.Kind, p engine.Params) string {
	mem := float64(engines.EstimateBytes(engines.Spec{Kind: kind, W: n, H: n, Params: p}, 1))
	memS := fmt.Sprintf("%.0f MB", mem/1e6)
	if mem >= 1e9 {
		memS = fmt.Sprintf("%.1f GB", mem/1e9)
	}
	step := float64(n) * float64(n) * newStepSecPerCel
	stepS := fmt.Sprintf("%.0f ms", step*1e3)
	if step >= 1 {
		stepS = fmt.Sprintf("%.1f s", step)
	}
	return fmt.Sprintf("about %s of memory, %s a step (grid engine)", memS, stepS)
}

// thumbSize is the thumbnails' side in cells and pixels.
const thumbSize = 96

// thumbTexBase numbers the thumbnails' textures far above the ids the
// backend's texture cache gives its own (the font atlas).
const thumbTexBase = 1 << 40

// newDialog is File → New's state.
type newDialog struct {
	open    bool
	opened  bool
	presets []presetInfo
	preset  int
	size    int32 // index into newSizes
	kind    int32 // index into engines.Kinds()
	// Thumbnails: made once per run on a goroutine (a preset's uplift at
	// thumbSize²), turned into textures by the UI goroutine as they come.
	started bool
	made    chan thumb
	tex     map[string]imgui.TextureID
}

type presetInfo struct {
	name, desc string
	params     engine.Params // for the memory estimate
}

type thumb struct {
	name string
	img  *image.RGBA
}

// openNew shows the dialog, on the document's size and engine.
func (a *App) openNew() {
	d := &a.newDlg
	d.open, d.opened = true, false
	if d.presets == nil {
		for _, n := range scene.PresetNames() {
			info := presetInfo{name: n, params: engine.DefaultParams()}
			if sc, err := scene.Load(n); err == nil {
				info.desc = sc.Description
				if p, err := sc.EngineParams(); err == nil {
					info.params = p
				}
			}
			d.presets = append(d.presets, info)
			if n == "default" {
				d.preset = len(d.presets) - 1
			}
		}
		d.size = 2 // 512
	}
	if !d.started {
		d.started, d.made, d.tex = true, make(chan thumb, len(d.presets)), map[string]imgui.TextureID{}
		names := make([]string, len(d.presets))
		for i, p := range d.presets {
			names[i] = p.name
		}
		go makeThumbs(names, d.made)
	}
}

// makeThumbs draws each preset's uplift at thumbSize² and sends it.
func makeThumbs(names []string, out chan<- thumb) {
	for _, n := range names {
		img, err := presetThumb(n)
		if err != nil {
			continue // the gallery shows the name alone
		}
		out <- thumb{n, img}
	}
}

// presetThumb is preset name's uplift, shaded from dark green (none) to
// white (the largest), blue where it lowers the terrain.
func presetThumb(name string) (*image.RGBA, error) {
	d, err := session.LoadScene(name, thumbSize)
	if err != nil {
		return nil, err
	}
	u := d.Uplift()
	top := 0.0
	for _, v := range u.Data {
		top = max(top, float64(v), -float64(v))
	}
	img := image.NewRGBA(image.Rect(0, 0, u.W, u.H))
	for y := range u.H {
		for x := range u.W {
			t := 0.0
			if top > 0 {
				t = float64(u.Data[y*u.W+x]) / top
			}
			var c color.RGBA
			if t < 0 {
				c = color.RGBA{30, 60, uint8(120 - 80*t), 255}
			} else {
				c = color.RGBA{uint8(40 + 215*t), uint8(70 + 185*t), uint8(40 + 215*t), 255}
			}
			img.SetRGBA(x, y, c)
		}
	}
	return img, nil
}

// newDialogWindow draws the dialog while it is open.
func (a *App) newDialogWindow() {
	d := &a.newDlg
	if !d.open {
		return
	}
	for done := false; !done; {
		select {
		case t := <-d.made:
			id := imgui.TextureID(thumbTexBase + len(d.tex))
			a.gui.cache.Set(id, ebiten.NewImageFromImage(t.img))
			d.tex[t.name] = id
		default:
			done = true
		}
	}
	const id = "New project###new"
	if !d.opened {
		imgui.OpenPopupStr(id)
		d.opened = true
	}
	imgui.SetNextWindowPosV(imgui.MainViewport().Center(), imgui.CondAppearing, vec2(0.5, 0.5))
	imgui.SetNextWindowSizeV(vec2(720, 560), imgui.CondAppearing)
	open := true
	if !imgui.BeginPopupModalV(id, &open, 0) {
		d.open = false
		return
	}
	textWrapped("Start from a preset: its uplift (below, white where the terrain rises fastest) grows the terrain.")
	footer := imgui.FrameHeightWithSpacing()*3 + imgui.TextLineHeightWithSpacing()*2
	if imgui.BeginChildStrV("presets", vec2(0, -footer), imgui.ChildFlagsBorders, 0) {
		for i, p := range d.presets {
			imgui.PushIDInt(int32(i))
			pos := imgui.CursorScreenPos()
			if imgui.SelectableBoolV("##preset", d.preset == i, imgui.SelectableFlagsAllowDoubleClick, vec2(0, thumbSize+6)) {
				d.preset = i
				if imgui.IsMouseDoubleClicked(imgui.MouseButtonLeft) {
					a.createNew()
				}
			}
			imgui.SetCursorScreenPos(vec2(pos.X+3, pos.Y+3))
			if tex, ok := d.tex[p.name]; ok {
				imgui.Image(*imgui.NewTextureRefTextureID(tex), vec2(thumbSize, thumbSize))
			} else {
				imgui.Dummy(vec2(thumbSize, thumbSize))
			}
			imgui.SameLine()
			imgui.BeginGroup()
			imgui.TextUnformatted(p.name)
			imgui.PushTextWrapPos()
			textDisabled(p.desc)
			imgui.PopTextWrapPos()
			imgui.EndGroup()
			imgui.SetCursorScreenPos(vec2(pos.X, pos.Y+thumbSize+8))
			imgui.Dummy(vec2(0, 0)) // an item where the cursor went, as Dear ImGui asks
			imgui.PopID()
		}
	}
	imgui.EndChild()
	labels := make([]string, len(newSizes))
	for i, n := range newSizes {
		labels[i] = strconv.Itoa(n) + "²"
	}
	imgui.SetNextItemWidth(120)
	imgui.ComboStrarr("grid (cells a side)", &d.size, labels, int32(len(labels)))
	imgui.SameLine()
	kinds := engines.Kinds()
	textDisabled(newCost(newSizes[d.size], kinds[d.kind], d.presets[d.preset].params))
	kl := make([]string, len(kinds))
	for i, k := range kinds {
		kl[i] = engines.Label(k)
	}
	imgui.SetNextItemWidth(200)
	imgui.ComboStrarr("engine", &d.kind, kl, int32(len(kl)))
	imgui.Spacing()
	if imgui.Button("Create") || imgui.IsKeyPressedBool(imgui.KeyEnter) {
		a.createNew()
	}
	imgui.SameLine()
	if imgui.Button("Cancel") || imgui.IsKeyPressedBool(imgui.KeyEscape) || !open {
		d.open = false
	}
	if !d.open {
		imgui.CloseCurrentPopup()
	}
	imgui.EndPopup()
}

// createNew makes the chosen project and closes the dialog.
func (a *App) createNew() {
	d := &a.newDlg
	d.open = false
	p := d.presets[d.preset].name
	a.do("new", p, strconv.Itoa(newSizes[d.size]), engines.Kinds()[d.kind].String())
}
