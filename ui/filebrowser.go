package ui

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/AllenDang/cimgui-go/imgui"

	"orogen/app/osfs"
)

// entry is one line of the file browser.
type entry struct {
	name string
	dir  bool
}

// listDir returns the directories and the files with one of exts (all
// files when exts is empty) in dir, directories first, each group sorted by
// name, case-insensitively. Hidden entries (dot files; on Windows also
// those with the hidden or system attribute, see osfs.Hidden) are left
// out.
func listDir(dir string, exts []string) ([]entry, error) {
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []entry
	for _, d := range des {
		n := d.Name()
		if osfs.Hidden(d) {
			continue
		}
		isDir := d.IsDir()
		if !isDir && d.Type()&os.ModeSymlink != 0 {
			if fi, err := os.Stat(filepath.Join(dir, n)); err == nil {
				isDir = fi.IsDir()
			}
		}
		if !isDir && !hasExt(n, exts) {
			continue
		}
		out = append(out, entry{n, isDir})
	}
	slices.SortFunc(out, func(a, b entry) int {
		if a.dir != b.dir {
			if a.dir {
				return -1
			}
			return 1
		}
		return strings.Compare(strings.ToLower(a.name), strings.ToLower(b.name))
	})
	return out, nil
}

// hasExt reports whether name ends with one of exts (case-insensitive); an
// empty list accepts everything. ".orogen.json" style double extensions
// work as suffixes.
func hasExt(name string, exts []string) bool {
	if len(exts) == 0 {
		return true
	}
	l := strings.ToLower(name)
	for _, e := range exts {
		if strings.HasSuffix(l, e) {
			return true
		}
	}
	return false
}

// fileBrowser is the ImGui file dialog: no native dialog library is
// reachable, so Open, Save As, Import and Export all use this. It edits
// only its own state and calls ok with the chosen path.
type fileBrowser struct {
	visible bool
	justOpn bool
	title   string
	save    bool
	dir     string
	name    string
	exts    []string
	list    []entry
	err     string
	ok      func(path string)
	roots   []string // osfs.Roots, read when the dialog opens
}

// show opens the browser in dir (the working directory if empty) with name
// typed in (save mode) and files filtered by exts.
func (b *fileBrowser) show(title string, save bool, dir, name string, exts []string, ok func(string)) {
	if dir == "" {
		dir, _ = os.Getwd()
	}
	*b = fileBrowser{visible: true, justOpn: true, title: title, save: save, dir: dir, name: name, exts: exts, ok: ok}
	b.refresh()
}

func (b *fileBrowser) refresh() {
	b.list, b.err = nil, ""
	l, err := listDir(b.dir, b.exts)
	if err != nil {
		b.err = err.Error()
		return
	}
	b.list = l
}

func (b *fileBrowser) cd(dir string) {
	b.dir = filepath.Clean(dir)
	b.refresh()
}

// draw shows the dialog while it is visible. Call it every frame.
func (b *fileBrowser) draw() {
	if !b.visible {
		return
	}
	id := b.title + "###filebrowser"
	if b.justOpn {
		imgui.OpenPopupStr(id)
		b.justOpn = false
	}
	vp := imgui.MainViewport()
	imgui.SetNextWindowSizeV(imgui.Vec2{X: 640, Y: 440}, imgui.CondAppearing)
	c := vp.Center()
	imgui.SetNextWindowPosV(c, imgui.CondAppearing, imgui.Vec2{X: 0.5, Y: 0.5})
	open := true
	if !imgui.BeginPopupModalV(id, &open, 0) {
		if !open {
			b.visible = false
		}
		return
	}
	dir := b.dir
	imgui.SetNextItemWidth(-90)
	if imgui.InputTextWithHint("##dir", "folder", &dir, imgui.InputTextFlagsEnterReturnsTrue, nil) {
		b.cd(dir)
	}
	imgui.SameLine()
	if imgui.Button("Up") {
		b.cd(filepath.Dir(b.dir))
	}
	// The drives, on Windows (one root elsewhere: Up reaches it).
	if b.roots == nil {
		b.roots = osfs.Roots()
	}
	if len(b.roots) > 1 {
		for i, r := range b.roots {
			if i > 0 {
				imgui.SameLine()
			}
			if imgui.SmallButton(r) {
				b.cd(r)
			}
		}
	}
	if len(b.exts) > 0 {
		textDisabled("Files: " + strings.Join(b.exts, " "))
	}
	footer := imgui.FrameHeightWithSpacing()*2 + 8
	if imgui.BeginChildStrV("##list", imgui.Vec2{X: 0, Y: -footer}, imgui.ChildFlagsBorders, 0) {
		if b.err != "" {
			imgui.PushStyleColorVec4(imgui.ColText, imgui.Vec4{X: 1, Y: 0.45, Z: 0.45, W: 1})
			textWrapped(b.err)
			imgui.PopStyleColor()
		}
		for _, e := range b.list {
			label := e.name
			if e.dir {
				label += string(filepath.Separator)
			}
			if imgui.SelectableBoolV(label, !e.dir && e.name == b.name, imgui.SelectableFlagsAllowDoubleClick, imgui.Vec2{}) {
				if e.dir {
					b.cd(filepath.Join(b.dir, e.name))
					break
				}
				b.name = e.name
				if imgui.IsMouseDoubleClicked(imgui.MouseButtonLeft) {
					b.accept()
				}
			}
		}
	}
	imgui.EndChild()
	imgui.SetNextItemWidth(-170)
	if imgui.InputTextWithHint("##name", "file name", &b.name, imgui.InputTextFlagsEnterReturnsTrue, nil) {
		b.accept()
	}
	imgui.SameLine()
	label := "Open"
	if b.save {
		label = "Save"
	}
	imgui.BeginDisabledV(strings.TrimSpace(b.name) == "")
	if imgui.Button(label) {
		b.accept()
	}
	imgui.EndDisabled()
	imgui.SameLine()
	if imgui.Button("Cancel") || imgui.IsKeyPressedBool(imgui.KeyEscape) {
		b.visible = false
	}
	if !b.visible {
		imgui.CloseCurrentPopup()
	}
	imgui.EndPopup()
}

// accept resolves the typed name against the folder and hands it over:
// a folder name opens the folder instead.
func (b *fileBrowser) accept() {
	name := strings.TrimSpace(b.name)
	if name == "" {
		return
	}
	p := name
	if !filepath.IsAbs(p) {
		p = filepath.Join(b.dir, p)
	}
	if fi, err := os.Stat(p); err == nil && fi.IsDir() {
		b.name = ""
		b.cd(p)
		return
	}
	if !b.save {
		if _, err := os.Stat(p); err != nil {
			b.err = "no such file: " + p
			return
		}
	}
	if b.save && len(b.exts) > 0 && !hasExt(p, b.exts) {
		p += b.exts[0]
	}
	b.visible = false
	if b.ok != nil {
		b.ok(p)
	}
}
