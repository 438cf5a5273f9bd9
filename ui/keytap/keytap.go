// Package keytap reads the app window's key events from the window
// system, on a connection of its own beside Ebitengine's.
//
// Ebitengine 2.8 reads the keyboard as a state, once a frame: a key
// pressed twice between two frames counts once (GLFW's sticky keys keep
// one press of it), so at a few frames a second three quick Backspaces in
// a text field delete one character. Typed characters are queued and
// reach the UI whole; keys that type nothing (Backspace, Delete, the
// arrows, Enter, the letters of Ctrl shortcuts) are not. A Tap gets every
// press and release of those keys, in order: on X11 a second connection
// selects the window's KeyPress and KeyRelease (several clients may) with
// detectable auto-repeat, on Windows a keyboard hook on the window's
// thread sees each key message before GLFW does.
//
// Where no tap opens (another platform, no window found) the app reads
// keys as before, with merged presses.
package keytap

// Key is a key the tap counts: the keys that matter when pressed several
// times quickly and that type no character.
type Key uint8

const (
	Backspace Key = iota
	Delete
	Enter
	KPEnter
	Tab
	Escape
	Left
	Right
	Up
	Down
	Home
	End
	PageUp
	PageDown
	Insert
	A       // A..Z follow in order: the letters of Ctrl shortcuts (Ctrl+Z twice is two undos)
	NumKeys = A + 26
)

// Letter returns the key of letter c, 'a'..'z' or 'A'..'Z'.
func Letter(c byte) Key {
	if c >= 'a' {
		c -= 'a' - 'A'
	}
	return A + Key(c-'A')
}

// Tap reports the key events of the app's window. Poll calls fn for each
// event read since the last Poll, in order: a press, a release, or an
// auto-repeated press (repeat; on X11 a repeat is a press of a key
// already down). When the window loses the focus, every key is
// released. Close releases the tap.
type Tap interface {
	Poll(fn func(k Key, press, repeat bool))
	Close()
}

// Open starts a tap on this process's window, or says why there is none.
// Call it once the window is shown.
func Open() (Tap, error) { return open() }
