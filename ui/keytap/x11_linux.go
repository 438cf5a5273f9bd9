package keytap

/*
#cgo LDFLAGS: -lX11
#include <stdlib.h>
#include <X11/Xlib.h>
#include <X11/XKBlib.h>
#include <X11/Xatom.h>

static Display *tapDpy;
static XErrorHandler tapPrevHandler;

// tapIgnore swallows the errors of the tap's own connection (a window
// destroyed while the scan reads it) and hands every other connection's
// to the handler it replaced.
static int tapIgnore(Display *d, XErrorEvent *e) {
	if (d == tapDpy) return 0;
	return tapPrevHandler ? tapPrevHandler(d, e) : 0;
}

// tapHasPid says whether w's _NET_WM_PID is pid.
static int tapHasPid(Window w, Atom pidAtom, unsigned long pid) {
	Atom type; int format; unsigned long n, after; unsigned char *data = NULL;
	int ok = 0;
	if (XGetWindowProperty(tapDpy, w, pidAtom, 0, 1, False, XA_CARDINAL, &type, &format, &n, &after, &data) == Success && data) {
		if (type == XA_CARDINAL && format == 32 && n == 1 && *(unsigned long *)data == pid) ok = 1;
		XFree(data);
	}
	return ok;
}

// tapFind looks for pid's window among the root's children and theirs
// (a window manager reparents clients into frames).
static Window tapFind(Window parent, Atom pidAtom, unsigned long pid, int depth) {
	Window root, par, *kids = NULL, found = 0;
	unsigned int n;
	if (!XQueryTree(tapDpy, parent, &root, &par, &kids, &n)) return 0;
	for (unsigned int i = 0; i < n && !found; i++) {
		XWindowAttributes a;
		if (tapHasPid(kids[i], pidAtom, pid) && XGetWindowAttributes(tapDpy, kids[i], &a) && a.map_state == IsViewable) found = kids[i];
	}
	for (unsigned int i = 0; i < n && !found && depth > 0; i++) found = tapFind(kids[i], pidAtom, pid, depth - 1);
	if (kids) XFree(kids);
	return found;
}

// tapOpen opens the tap's connection and listens to pid's window's keys;
// it returns 0, 1 (no display) or 2 (no window of pid).
static int tapOpen(unsigned long pid) {
	tapDpy = XOpenDisplay(NULL);
	if (!tapDpy) return 1;
	XSync(tapDpy, False);
	tapPrevHandler = XSetErrorHandler(tapIgnore);
	Atom pidAtom = XInternAtom(tapDpy, "_NET_WM_PID", False);
	Window w = tapFind(DefaultRootWindow(tapDpy), pidAtom, pid, 2);
	if (w) {
		XSelectInput(tapDpy, w, KeyPressMask | KeyReleaseMask | FocusChangeMask);
		Bool supported;
		XkbSetDetectableAutoRepeat(tapDpy, True, &supported);
	}
	XSync(tapDpy, False);
	if (!w) {
		XCloseDisplay(tapDpy);
		tapDpy = NULL;
		return 2;
	}
	return 0;
}

// tapNext reads the next event without waiting: 1 for a key, with its
// keysym (unshifted) and press, 2 when the window lost the focus (its
// keys' releases go elsewhere), 0 when none is queued.
static int tapNext(unsigned long *sym, int *press) {
	while (XPending(tapDpy) > 0) {
		XEvent ev;
		XNextEvent(tapDpy, &ev);
		if (ev.type == KeyPress || ev.type == KeyRelease) {
			*sym = XLookupKeysym(&ev.xkey, 0);
			*press = ev.type == KeyPress;
			return 1;
		}
		if (ev.type == FocusOut) return 2;
	}
	return 0;
}

static void tapClose(void) {
	if (tapDpy) XCloseDisplay(tapDpy);
	tapDpy = NULL;
}
*/
import "C"

import (
	"errors"
	"os"
	"sync"
)

// One tap per process: the C side keeps one connection.
var x11Mu sync.Mutex

type x11Tap struct{}

func open() (Tap, error) {
	x11Mu.Lock()
	defer x11Mu.Unlock()
	if os.Getenv("DISPLAY") == "" {
		return nil, errors.New("no X display (DISPLAY is empty)")
	}
	switch C.tapOpen(C.ulong(os.Getpid())) {
	case 1:
		return nil, errors.New("cannot open the X display " + os.Getenv("DISPLAY"))
	case 2:
		return nil, errors.New("no mapped X window of this process (_NET_WM_PID)")
	}
	return x11Tap{}, nil
}

func (x11Tap) Poll(fn func(k Key, press, repeat bool)) {
	x11Mu.Lock()
	defer x11Mu.Unlock()
	var sym C.ulong
	var press C.int
	for {
		switch C.tapNext(&sym, &press) {
		case 0:
			return
		case 1:
			// Detectable auto-repeat: a held key repeats as presses
			// without releases; the caller tells them from new presses
			// by the key's state.
			if k, ok := x11Key(uint32(sym)); ok {
				fn(k, press != 0, false)
			}
		case 2:
			for k := range Key(NumKeys) {
				fn(k, false, false)
			}
		}
	}
}

func (x11Tap) Close() {
	x11Mu.Lock()
	defer x11Mu.Unlock()
	C.tapClose()
}

// x11Key maps an X keysym (X11/keysymdef.h) to a Key.
func x11Key(sym uint32) (Key, bool) {
	switch {
	case sym >= 'a' && sym <= 'z':
		return Letter(byte(sym)), true
	case sym >= 'A' && sym <= 'Z':
		return Letter(byte(sym)), true
	}
	k, ok := x11Keys[sym]
	return k, ok
}

var x11Keys = map[uint32]Key{
	0xff08: Backspace, 0xffff: Delete, 0xff0d: Enter, 0xff8d: KPEnter,
	0xff09: Tab, 0xff1b: Escape, 0xff51: Left, 0xff53: Right, 0xff52: Up,
	0xff54: Down, 0xff50: Home, 0xff57: End, 0xff55: PageUp,
	0xff56: PageDown, 0xff63: Insert,
}
