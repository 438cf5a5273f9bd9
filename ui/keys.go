package ui

import (
	"github.com/AllenDang/cimgui-go/imgui"
	"github.com/hajimehoshi/ebiten/v2"
	"github.com/hajimehoshi/ebiten/v2/inpututil"

	"orogen/ui/keytap"
)

// keyInput hands Dear ImGui the keyboard itself while a keytap.Tap runs,
// in place of cimgui-go's Ebiten backend. The backend gives a key's
// presses between two frames as one (Ebitengine reads keys as a state
// once a frame): three quick Backspaces at three frames a second delete
// one character. With the tap, the keys it reads reach ImGui press by
// press and in order, and ImGui's input trickling hands them to the
// widgets a change a frame; the other keys and the typed characters come
// from Ebitengine as the backend sends them. The backend's own events are
// then refused (io.AppAcceptingEvents off while it runs). Without a tap
// the backend sends everything, as before.
type keyInput struct {
	tap   keytap.Tap
	tries int
	err   error                // why there is no tap, after openTries frames
	down  [keytap.NumKeys]bool // each tapped key's state, as sent to ImGui
	gone  [keytap.NumKeys]int  // frames Ebitengine has seen a down key up
	chars []rune
	taken int // key events taken from the tap (the script's report)
}

// openTries is how many frames the tap is looked for (the window may not
// be mapped on the first ones) before the app goes on without it.
const openTries = 120

// stuck is how many frames in a row Ebitengine may see up a key the tap
// holds down before the key is released: the release went elsewhere (the
// focus moved on a platform whose tap does not say so). Ebitengine sees
// a held key down within a frame, so this never cuts a real hold.
const stuck = 3

// send queues this frame's keys and characters from the tap; Update calls
// it before the backend's BeginFrame and, when it returns true, turns
// io.AppAcceptingEvents back on after it.
func (ki *keyInput) send(io *imgui.IO, log *logBuf) bool {
	if ki.tap == nil {
		if ki.tries >= openTries {
			return false
		}
		ki.tries++
		t, err := keytap.Open()
		if err != nil {
			if ki.tries == openTries {
				ki.err = err
				log.add(levelInfo, "several presses of one key within a frame count as one: %v", err)
			}
			return false
		}
		ki.tap = t
	}
	// Characters first: within one frame their order against the keys
	// is not known, and typing then erasing is the common order.
	if ki.chars = ebiten.AppendInputChars(ki.chars[:0]); len(ki.chars) > 0 {
		io.AddInputCharactersUTF8(string(ki.chars))
	}
	for _, k := range otherKeys {
		if inpututil.IsKeyJustPressed(k.e) {
			io.AddKeyEvent(k.i, true)
		}
		if inpututil.IsKeyJustReleased(k.e) {
			io.AddKeyEvent(k.i, false)
		}
	}
	ki.tap.Poll(func(k keytap.Key, press, repeat bool) {
		// ImGui repeats a held key itself; a repeat here would restart
		// its count.
		if repeat || press == ki.down[k] {
			return
		}
		ki.down[k], ki.gone[k] = press, 0
		io.AddKeyEvent(imguiKey(k), press)
		ki.taken++
	})
	for k, d := range ki.down {
		if !d || ebiten.IsKeyPressed(ebitenKey(keytap.Key(k))) {
			ki.gone[k] = 0
			continue
		}
		if ki.gone[k]++; ki.gone[k] >= stuck {
			ki.down[k], ki.gone[k] = false, 0
			io.AddKeyEvent(imguiKey(keytap.Key(k)), false)
		}
	}
	io.SetAppAcceptingEvents(false)
	return true
}

// state is "on" while the tap runs, else why it does not.
func (ki *keyInput) state() string {
	switch {
	case ki.tap != nil:
		return "on"
	case ki.err != nil:
		return ki.err.Error()
	}
	return "not yet open"
}

func (ki *keyInput) close() {
	if ki.tap != nil {
		ki.tap.Close()
		ki.tap = nil
	}
}

// ebitenKey and imguiKey name a tapped key for Ebitengine and ImGui.
func ebitenKey(k keytap.Key) ebiten.Key {
	if k >= keytap.A {
		return ebiten.KeyA + ebiten.Key(k-keytap.A)
	}
	return tapped[k].e
}

func imguiKey(k keytap.Key) imgui.Key {
	if k >= keytap.A {
		return imgui.KeyA + imgui.Key(k-keytap.A)
	}
	return tapped[k].i
}

type keyPair struct {
	e ebiten.Key
	i imgui.Key
}

// tapped are the tap's keys before the letters.
var tapped = [keytap.A]keyPair{
	keytap.Backspace: {ebiten.KeyBackspace, imgui.KeyBackspace},
	keytap.Delete:    {ebiten.KeyDelete, imgui.KeyDelete},
	keytap.Enter:     {ebiten.KeyEnter, imgui.KeyEnter},
	keytap.KPEnter:   {ebiten.KeyNumpadEnter, imgui.KeyKeypadEnter},
	keytap.Tab:       {ebiten.KeyTab, imgui.KeyTab},
	keytap.Escape:    {ebiten.KeyEscape, imgui.KeyEscape},
	keytap.Left:      {ebiten.KeyArrowLeft, imgui.KeyLeftArrow},
	keytap.Right:     {ebiten.KeyArrowRight, imgui.KeyRightArrow},
	keytap.Up:        {ebiten.KeyArrowUp, imgui.KeyUpArrow},
	keytap.Down:      {ebiten.KeyArrowDown, imgui.KeyDownArrow},
	keytap.Home:      {ebiten.KeyHome, imgui.KeyHome},
	keytap.End:       {ebiten.KeyEnd, imgui.KeyEnd},
	keytap.PageUp:    {ebiten.KeyPageUp, imgui.KeyPageUp},
	keytap.PageDown:  {ebiten.KeyPageDown, imgui.KeyPageDown},
	keytap.Insert:    {ebiten.KeyInsert, imgui.KeyInsert},
}

// otherKeys are the keys ImGui knows that the tap does not read: the
// backend's key map less the tapped keys.
var otherKeys = func() []keyPair {
	ks := []keyPair{
		{ebiten.KeySpace, imgui.KeySpace}, {ebiten.KeyComma, imgui.KeyComma},
		{ebiten.KeyPeriod, imgui.KeyPeriod}, {ebiten.KeyMinus, imgui.KeyMinus},
		{ebiten.KeyEqual, imgui.KeyEqual}, {ebiten.KeySlash, imgui.KeySlash},
		{ebiten.KeySemicolon, imgui.KeySemicolon}, {ebiten.KeyQuote, imgui.KeyApostrophe},
		{ebiten.KeyBracketLeft, imgui.KeyLeftBracket}, {ebiten.KeyBracketRight, imgui.KeyRightBracket},
		{ebiten.KeyBackslash, imgui.KeyBackslash}, {ebiten.KeyBackquote, imgui.KeyGraveAccent},
		{ebiten.KeyCapsLock, imgui.KeyCapsLock}, {ebiten.KeyScrollLock, imgui.KeyScrollLock},
		{ebiten.KeyNumLock, imgui.KeyNumLock}, {ebiten.KeyPrintScreen, imgui.KeyPrintScreen},
		{ebiten.KeyPause, imgui.KeyPause}, {ebiten.KeyContextMenu, imgui.KeyMenu},
		{ebiten.KeyControlLeft, imgui.KeyLeftCtrl}, {ebiten.KeyControlRight, imgui.KeyRightCtrl},
		{ebiten.KeyShiftLeft, imgui.KeyLeftShift}, {ebiten.KeyShiftRight, imgui.KeyRightShift},
		{ebiten.KeyAltLeft, imgui.KeyLeftAlt}, {ebiten.KeyAltRight, imgui.KeyRightAlt},
		{ebiten.KeyMetaLeft, imgui.KeyLeftSuper}, {ebiten.KeyMetaRight, imgui.KeyRightSuper},
		{ebiten.KeyNumpadDecimal, imgui.KeyKeypadDecimal}, {ebiten.KeyNumpadDivide, imgui.KeyKeypadDivide},
		{ebiten.KeyNumpadMultiply, imgui.KeyKeypadMultiply}, {ebiten.KeyNumpadSubtract, imgui.KeyKeypadSubtract},
		{ebiten.KeyNumpadAdd, imgui.KeyKeypadAdd}, {ebiten.KeyNumpadEqual, imgui.KeyKeypadEqual},
	}
	for i := range 10 {
		ks = append(ks, keyPair{ebiten.KeyDigit0 + ebiten.Key(i), imgui.Key0 + imgui.Key(i)},
			keyPair{ebiten.KeyNumpad0 + ebiten.Key(i), imgui.KeyKeypad0 + imgui.Key(i)})
	}
	for i := range 24 {
		ks = append(ks, keyPair{ebiten.KeyF1 + ebiten.Key(i), imgui.KeyF1 + imgui.Key(i)})
	}
	return ks
}()
