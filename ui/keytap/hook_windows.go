package keytap

import (
	"errors"
	"os"
	"sync"
	"syscall"
	"unsafe"
)

var (
	user32                   = syscall.NewLazyDLL("user32.dll")
	procEnumWindows          = user32.NewProc("EnumWindows")
	procGetWindowThreadPid   = user32.NewProc("GetWindowThreadProcessId")
	procIsWindowVisible      = user32.NewProc("IsWindowVisible")
	procSetWindowsHookExW    = user32.NewProc("SetWindowsHookExW")
	procCallNextHookEx       = user32.NewProc("CallNextHookEx")
	procUnhookWindowsHookEx  = user32.NewProc("UnhookWindowsHookEx")
	hookProc, enumProc       uintptr
	hookOnce                 sync.Once
	hookMu                   sync.Mutex
	hookQueue                []hookEvent
	hookFoundThread          uint32
	errNoWindowOfThisProcess = errors.New("no visible window of this process")
)

const (
	whKeyboard = 2
	maxQueued  = 4096
)

type hookEvent struct {
	vk            uint32
	press, repeat bool
}

// hookTap is a keyboard hook on the thread that owns the window (GLFW's
// message loop): Windows calls it for every key message that thread
// takes, before GLFW sees it.
type hookTap struct{ h uintptr }

func open() (Tap, error) {
	hookOnce.Do(func() {
		hookProc = syscall.NewCallback(keyboardHook)
		enumProc = syscall.NewCallback(enumWindow)
	})
	hookFoundThread = 0
	procEnumWindows.Call(enumProc, 0)
	if hookFoundThread == 0 {
		return nil, errNoWindowOfThisProcess
	}
	h, _, err := procSetWindowsHookExW.Call(whKeyboard, hookProc, 0, uintptr(hookFoundThread))
	if h == 0 {
		return nil, errors.New("SetWindowsHookEx: " + err.Error())
	}
	return &hookTap{h: h}, nil
}

// enumWindow notes the thread of the first visible window of this process.
func enumWindow(hwnd, _ uintptr) uintptr {
	var pid uint32
	tid, _, _ := procGetWindowThreadPid.Call(hwnd, uintptr(unsafe.Pointer(&pid)))
	if v, _, _ := procIsWindowVisible.Call(hwnd); v != 0 && pid == uint32(os.Getpid()) {
		hookFoundThread = uint32(tid)
		return 0
	}
	return 1
}

// keyboardHook queues a key message: lParam's bit 31 is set on a release,
// bit 30 when the key was already down (an auto-repeat).
func keyboardHook(code, wParam, lParam uintptr) uintptr {
	if int32(code) == 0 { // HC_ACTION
		hookMu.Lock()
		if len(hookQueue) >= maxQueued { // nobody polls: keep the newest
			hookQueue = append(hookQueue[:0], hookQueue[len(hookQueue)/2:]...)
		}
		hookQueue = append(hookQueue, hookEvent{vk: uint32(wParam), press: lParam&(1<<31) == 0, repeat: lParam&(1<<30) != 0})
		hookMu.Unlock()
	}
	r, _, _ := procCallNextHookEx.Call(0, code, wParam, lParam)
	return r
}

func (t *hookTap) Poll(fn func(k Key, press, repeat bool)) {
	hookMu.Lock()
	q := hookQueue
	hookQueue = nil
	hookMu.Unlock()
	for _, e := range q {
		if k, ok := vkKey(e.vk); ok {
			fn(k, e.press, e.press && e.repeat)
		}
	}
}

func (t *hookTap) Close() {
	if t.h != 0 {
		procUnhookWindowsHookEx.Call(t.h)
		t.h = 0
	}
}

// vkKey maps a Windows virtual-key code to a Key.
func vkKey(vk uint32) (Key, bool) {
	if vk >= 'A' && vk <= 'Z' {
		return Letter(byte(vk)), true
	}
	k, ok := vkKeys[vk]
	return k, ok
}

// VK_RETURN stands for both Enter keys; the keypad's differs only by an
// extended-key flag, which the UI treats alike.
var vkKeys = map[uint32]Key{
	0x08: Backspace, 0x2e: Delete, 0x0d: Enter, 0x09: Tab, 0x1b: Escape,
	0x25: Left, 0x27: Right, 0x26: Up, 0x28: Down, 0x24: Home, 0x23: End,
	0x21: PageUp, 0x22: PageDown, 0x2d: Insert,
}
