package ui

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/AllenDang/cimgui-go/imgui"

	"orogen/app/build"
	"orogen/app/export"
)

// exportUI is the state of File > Export profile... (the list being edited,
// applied to the document with Apply) and of File > Build (a build on its
// own goroutine: the window polls its progress and result each frame and
// never waits on it).
type exportUI struct {
	shown bool
	edit  *export.Profile // the profile being edited; nil until the window opens
	rules []string        // a splat output's rules as JSON text, by output index
	err   string          // why the edited profile does not validate
	base  []byte          // the profile as opened or last applied (JSON): closing asks about edits

	building bool
	cancel   context.CancelFunc
	frac     atomic.Uint64          // math.Float64bits of the fraction done
	what     atomic.Pointer[string] // what the build is doing
	done     chan error             // the build's result, buffered
	dir      string                 // where it builds
}

// exportProfile is the export-profile action: a preset name or a profile
// JSON file sets the document's profile; no argument opens the editor.
func (a *App) exportProfile(args []string) error {
	if len(args) == 0 {
		a.openProfileEditor()
		return nil
	}
	var p *export.Profile
	var err error
	if slices.Contains(export.Presets, args[0]) {
		sc := a.s.Doc().Scene()
		p, err = export.Preset(args[0], max(sc.Width, sc.Height))
	} else {
		var b []byte
		if b, err = os.ReadFile(args[0]); err != nil {
			return err
		}
		p, err = export.ParseProfile(b)
	}
	if err != nil {
		return err
	}
	if err := a.s.Doc().SetExport(p); err != nil {
		return err
	}
	a.log.add(levelInfo, "export profile: %d outputs (File > Build writes them)", len(p.Outputs))
	if a.exp.shown {
		a.openProfileEditor()
	}
	return nil
}

// openProfileEditor shows the editor on the document's profile (a preset
// for the grid when it has none).
func (a *App) openProfileEditor() {
	e := &a.exp
	e.shown, e.err, e.base = true, "", nil
	e.edit = a.s.Doc().Export()
	if e.edit == nil {
		sc := a.s.Doc().Scene()
		e.edit, _ = export.Preset("generic", max(sc.Width, sc.Height))
	}
	e.rules = make([]string, len(e.edit.Outputs))
	for i, o := range e.edit.Outputs {
		e.rules[i] = rulesText(o.Rules)
	}
}

func rulesText(r *export.Rules) string {
	if r == nil {
		r = export.DefaultRules()
	}
	b, _ := json.MarshalIndent(r, "", " ")
	return string(b)
}

// startBuild is the build action: it builds the document's profile into
// args[0], or into NAME-build beside the project (a folder is asked for
// when the project has no file yet). A script waits until it ends.
func (a *App) startBuild(args []string) error {
	e := &a.exp
	if e.building {
		return fmt.Errorf("a build into %s is under way: wait for it or cancel it", e.dir)
	}
	p := a.s.Doc().Project()
	if p.Export == nil {
		return fmt.Errorf("the project has no export profile: set one with File > Export profile")
	}
	name := "untitled"
	if path := a.s.Path(); path != "" {
		name = build.Name(path)
	}
	var dir string
	switch {
	case len(args) == 1:
		dir = args[0]
	case a.s.Path() != "":
		dir = filepath.Join(filepath.Dir(a.s.Path()), name+"-build")
	default:
		a.browser.show("Build into folder (its name)", true, a.s.Dir(), name+"-build", nil, func(p string) { a.do("build", p) })
		return nil
	}
	o := build.Options{OutDir: dir, Name: name}
	a.buildSettings(&o) // Settings: Compute device
	if err := build.Check(p, o); err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(context.Background())
	e.building, e.cancel, e.dir, e.done = true, cancel, dir, make(chan error, 1)
	e.frac.Store(0)
	start := "starting"
	e.what.Store(&start)
	o.Progress = func(f float64, what string) {
		e.frac.Store(math.Float64bits(f))
		e.what.Store(&what)
	}
	done := e.done
	go func() {
		_, err := build.Build(ctx, p, o)
		done <- err
	}()
	a.log.add(levelInfo, "building %d outputs into %s", len(p.Export.Outputs), dir)
	if a.script != nil {
		a.waitFor("the build", func() bool { return !e.building })
	}
	return nil
}

// pollBuild picks up a finished build's result without waiting.
func (a *App) pollBuild() {
	e := &a.exp
	if !e.building {
		return
	}
	select {
	case err := <-e.done:
		e.building = false
		e.cancel()
		if err != nil {
			a.showError("Build", err)
			return
		}
		a.log.add(levelInfo, "built into %s (report: %s)", e.dir, build.ReportName)
	default:
	}
}

// exportWindows draws the profile editor and the build's progress.
func (a *App) exportWindows() {
	a.pollBuild()
	e := &a.exp
	if e.building {
		imgui.SetNextWindowSizeV(vec2(420, 0), imgui.CondAppearing)
		if imgui.BeginV("Build", nil, imgui.WindowFlagsNoDocking|imgui.WindowFlagsNoCollapse) {
			what := ""
			if w := e.what.Load(); w != nil {
				what = *w
			}
			textWrapped("Building into " + e.dir)
			imgui.ProgressBarV(float32(math.Float64frombits(e.frac.Load())), vec2(-1, 0), what)
			if imgui.Button("Cancel build") {
				e.cancel()
			}
		}
		imgui.End()
	}
	if !e.shown || e.edit == nil {
		return
	}
	imgui.SetNextWindowSizeV(vec2(560, 520), imgui.CondAppearing)
	if e.base == nil {
		// What the editor opened on: closing it with this asks nothing.
		if p, err := a.editedProfile(); err == nil {
			e.base = profileJSON(p)
		}
	}
	open := true
	if imgui.BeginV("Export profile", &open, imgui.WindowFlagsNoDocking) {
		footer := imgui.FrameHeightWithSpacing() + imgui.CurrentStyle().ItemSpacing().Y
		if e.err != "" {
			footer += imgui.TextLineHeightWithSpacing() * 2
		}
		if imgui.BeginChildStrV("profile", vec2(0, -footer), 0, 0) {
			a.profileEditor()
		}
		imgui.EndChild()
		a.profileFooter()
	}
	imgui.End()
	if !open {
		a.closeProfileEditor()
	}
}

// closeProfileEditor closes the Export profile window; edits not applied
// are asked about, not dropped.
func (a *App) closeProfileEditor() {
	e := &a.exp
	p, err := a.editedProfile()
	if err == nil && bytes.Equal(profileJSON(p), e.base) {
		e.shown = false
		return
	}
	a.ask("Export profile", "The export profile has edits you have not applied.",
		modalButton{"Apply", func() {
			if err != nil {
				a.showError("Export profile", err)
				return
			}
			if err := a.s.Doc().SetExport(p); err != nil {
				a.showError("Export profile", err)
				return
			}
			e.shown, e.base = false, profileJSON(p)
		}},
		modalButton{"Discard", func() { e.shown = false }},
		modalButton{"Keep editing", nil})
}

// profileJSON is p as JSON, to tell whether the editor holds edits (nil
// for a profile that does not validate).
func profileJSON(p *export.Profile) []byte {
	b, err := json.Marshal(p)
	if err != nil {
		return nil
	}
	return b
}

// profileEditor is the Export profile window's content.
func (a *App) profileEditor() {
	e := &a.exp
	textWrapped("The outputs File > Build writes (and orogen build PROJECT), into NAME-build beside the project. Paths are relative to that folder; {project} is the project's name.")
	imgui.TextUnformatted("Start from a preset:")
	for _, name := range export.Presets {
		imgui.SameLine()
		if imgui.Button(name) {
			sc := a.s.Doc().Scene()
			e.edit, _ = export.Preset(name, max(sc.Width, sc.Height))
			e.rules = make([]string, len(e.edit.Outputs))
			for i, o := range e.edit.Outputs {
				e.rules[i] = rulesText(o.Rules)
			}
		}
	}
	imgui.Separator()
	remove := -1
	for i := range e.edit.Outputs {
		o := &e.edit.Outputs[i]
		imgui.PushIDInt(int32(i))
		imgui.TextUnformatted(fmt.Sprintf("%d.", i+1))
		imgui.SameLine()
		imgui.SetNextItemWidth(110)
		if c, ok := combo("##kind", o.Kind, export.Kinds); ok {
			o.Kind, o.Format, o.Mask = c, export.KindFormats(c)[0], ""
			if c == "mask" {
				o.Mask = export.MaskNames[0]
			}
			if c == "preview" || c == "mesh" {
				o.Target, o.Tiles, o.VRT = "", "", false
			}
		}
		imgui.SameLine()
		imgui.SetNextItemWidth(70)
		if c, ok := combo("##format", o.Format, export.KindFormats(o.Kind)); ok {
			o.Format = c
		}
		if o.Kind == "mask" {
			imgui.SameLine()
			imgui.SetNextItemWidth(110)
			if c, ok := combo("##mask", o.Mask, export.MaskNames); ok {
				o.Mask = c
			}
		}
		imgui.SameLine()
		imgui.SetNextItemWidth(-70)
		imgui.InputTextWithHint("##path", "path", &o.Path, 0, nil)
		imgui.SameLine()
		if imgui.Button("Remove") {
			remove = i
		}
		if o.Kind != "preview" && o.Kind != "mesh" {
			imgui.SetNextItemWidth(110)
			t := o.Target
			if t == "" {
				t = "generic"
			}
			if c, ok := combo("target", t, export.TargetNames); ok {
				o.Target = c
				if c == "generic" {
					o.Target = ""
				}
			}
			imgui.SameLine()
		}
		size := strconv.Itoa(o.Size)
		imgui.SetNextItemWidth(70)
		if imgui.InputTextWithHint("size", "0 = grid", &size, imgui.InputTextFlagsCharsDecimal, nil) {
			o.Size, _ = strconv.Atoi(strings.TrimSpace(size))
		}
		if o.Kind != "preview" && o.Kind != "mesh" {
			imgui.SameLine()
			imgui.SetNextItemWidth(60)
			imgui.InputTextWithHint("tiles", "RxC", &o.Tiles, 0, nil)
			if o.Format == "r16" || o.Format == "raw" {
				imgui.SameLine()
				imgui.Checkbox("vrt", &o.VRT)
			}
		}
		if o.Kind == "splat" && i < len(e.rules) {
			imgui.InputTextMultiline("rules (JSON)", &e.rules[i], vec2(-1, 90), 0, nil)
		}
		imgui.Separator()
		imgui.PopID()
	}
	if remove >= 0 {
		e.edit.Outputs = slices.Delete(e.edit.Outputs, remove, remove+1)
		e.rules = slices.Delete(e.rules, remove, remove+1)
	}
	if imgui.Button("Add output") {
		e.edit.Outputs = append(e.edit.Outputs, export.Output{Kind: "heightmap", Format: "tif", Path: fmt.Sprintf("{project}_out%d", len(e.edit.Outputs)+1)})
		e.rules = append(e.rules, rulesText(nil))
	}
}

// profileFooter is the Export profile window's last lines: the error, if
// any, and Apply, always in view below the scrolled editor.
func (a *App) profileFooter() {
	e := &a.exp
	p, err := a.editedProfile()
	e.err = ""
	if err != nil {
		e.err = err.Error()
		imgui.TextColored(imgui.Vec4{X: 1, Y: 0.45, Z: 0.4, W: 1}, e.err)
	}
	if err != nil {
		imgui.BeginDisabled()
	}
	if imgui.Button("Apply") {
		if err := a.s.Doc().SetExport(p); err != nil {
			a.showError("Export profile", err)
		} else {
			e.base = profileJSON(p)
			a.log.add(levelInfo, "export profile: %d outputs", len(p.Outputs))
		}
	}
	imgui.SameLine()
	if imgui.Button("Apply and build") {
		if err := a.s.Doc().SetExport(p); err != nil {
			a.showError("Export profile", err)
		} else {
			a.do("build")
		}
	}
	if err != nil {
		imgui.EndDisabled()
	}
	imgui.SameLine()
	if imgui.Button("Revert") {
		a.openProfileEditor()
	}
}

// editedProfile returns the profile in the editor with its splat rules
// parsed, or the first error.
func (a *App) editedProfile() (*export.Profile, error) {
	e := &a.exp
	p := e.edit.Clone()
	for i := range p.Outputs {
		p.Outputs[i].Rules = nil
		if p.Outputs[i].Kind == "splat" && i < len(e.rules) {
			r, err := export.ParseRules([]byte(e.rules[i]))
			if err != nil {
				return nil, fmt.Errorf("output %d: %w", i+1, err)
			}
			if !reflectEqualRules(r, export.DefaultRules()) {
				p.Outputs[i].Rules = r
			}
		}
	}
	return p, p.Validate()
}

func reflectEqualRules(a, b *export.Rules) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	return string(ja) == string(jb)
}

// combo draws a combo box of choices; it returns the choice made this
// frame, if any.
func combo(label, cur string, choices []string) (string, bool) {
	got, ok := "", false
	if imgui.BeginCombo(label, cur) {
		for _, c := range choices {
			if imgui.SelectableBoolV(c, c == cur, 0, imgui.Vec2{}) && c != cur {
				got, ok = c, true
			}
		}
		imgui.EndCombo()
	}
	return got, ok
}
