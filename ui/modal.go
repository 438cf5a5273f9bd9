package ui

import (
	"github.com/AllenDang/cimgui-go/imgui"
)

// modal is the one dialog that may be up: an error, the unsaved-changes
// prompt, or the recovery offer.
type modal struct {
	kind    modalKind
	title   string
	text    string
	opened  bool
	buttons []modalButton
}

type modalKind int

const (
	modalNone modalKind = iota
	modalError
	modalAsk
)

type modalButton struct {
	label string
	do    func()
}

// showError puts an error in a modal and in the log.
func (a *App) showError(title string, err error) {
	a.log.add(levelError, "%s: %v", title, err)
	if a.script != nil {
		// A script has nobody to click OK: fail the session instead.
		a.script.fail(err)
		return
	}
	a.modal = modal{kind: modalError, title: title, text: err.Error(), buttons: []modalButton{{"OK", nil}}}
}

// ask shows a question with buttons; each button closes the dialog and runs
// its action.
func (a *App) ask(title, text string, buttons ...modalButton) {
	a.modal = modal{kind: modalAsk, title: title, text: text, buttons: buttons}
}

func (a *App) drawModal() {
	m := &a.modal
	if m.kind == modalNone {
		return
	}
	id := m.title + "###modal"
	if !m.opened {
		imgui.OpenPopupStr(id)
		m.opened = true
	}
	imgui.SetNextWindowPosV(imgui.MainViewport().Center(), imgui.CondAppearing, vec2(0.5, 0.5))
	imgui.SetNextWindowSizeConstraints(vec2(320, 0), vec2(720, 600))
	if !imgui.BeginPopupModalV(id, nil, imgui.WindowFlagsAlwaysAutoResize) {
		return
	}
	textWrapped(m.text)
	imgui.Spacing()
	var chosen func()
	done := false
	for i, b := range m.buttons {
		if i > 0 {
			imgui.SameLine()
		}
		if imgui.Button(b.label) {
			chosen, done = b.do, true
		}
	}
	if m.kind == modalError && imgui.IsKeyPressedBool(imgui.KeyEnter) {
		done = true
	}
	if done {
		imgui.CloseCurrentPopup()
		a.modal = modal{}
	}
	imgui.EndPopup()
	if chosen != nil {
		chosen()
	}
}
