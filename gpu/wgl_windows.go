package gpu

import (
	"fmt"
	"syscall"
	"unsafe"
)

var (
	user32             = syscall.NewLazyDLL("user32.dll")
	gdi32              = syscall.NewLazyDLL("gdi32.dll")
	opengl32           = syscall.NewLazyDLL("opengl32.dll")
	kernel32           = syscall.NewLazyDLL("kernel32.dll")
	pRegisterClassExW  = user32.NewProc("RegisterClassExW")
	pCreateWindowExW   = user32.NewProc("CreateWindowExW")
	pDefWindowProcW    = user32.NewProc("DefWindowProcW")
	pDestroyWindow     = user32.NewProc("DestroyWindow")
	pGetDC             = user32.NewProc("GetDC")
	pReleaseDC         = user32.NewProc("ReleaseDC")
	pChoosePixelFormat = gdi32.NewProc("ChoosePixelFormat")
	pSetPixelFormat    = gdi32.NewProc("SetPixelFormat")
	pCreateContext     = opengl32.NewProc("wglCreateContext")
	pMakeCurrent       = opengl32.NewProc("wglMakeCurrent")
	pDeleteContext     = opengl32.NewProc("wglDeleteContext")
	pGetProcAddress    = opengl32.NewProc("wglGetProcAddress")
	pGetModuleHandleW  = kernel32.NewProc("GetModuleHandleW")
)

// WGL and window constants.
const (
	pfdDrawToWindow        = 0x04
	pfdSupportOpenGL       = 0x20
	pfdDoubleBuffer        = 0x01
	wsOverlappedWindow     = 0x00CF0000
	wglContextMajorVersion = 0x2091
	wglContextMinorVersion = 0x2092
	wglContextProfileMask  = 0x9126
	wglContextCoreBit      = 0x0001
)

type wndClassEx struct {
	size                   uint32
	style                  uint32
	wndProc                uintptr
	clsExtra, wndExtra     int32
	instance, icon, cursor uintptr
	background, menuName   uintptr
	className, iconSm      uintptr
}

type pixelFormatDescriptor struct {
	size, version                                uint16
	flags                                        uint32
	pixelType, colorBits, redBits, redShift      uint8
	greenBits, greenShift, blueBits, blueShift   uint8
	alphaBits, alphaShift, accumBits, accumRed   uint8
	accumGreen, accumBlue, accumAlpha, depthBits uint8
	stencilBits, auxBuffers, layerType, reserved uint8
	layerMask, visibleMask, damageMask           uint32
}

type wglPlatform struct {
	hwnd, hdc, ctx uintptr
}

// proc returns a GL function: wglGetProcAddress gives those past OpenGL
// 1.1, opengl32.dll itself the rest.
func (p *wglPlatform) proc(name string) uintptr {
	cname, _ := syscall.BytePtrFromString(name)
	a, _, _ := pGetProcAddress.Call(uintptr(unsafe.Pointer(cname)))
	switch int(a) {
	case 0, 1, 2, 3, -1:
		if pr := opengl32.NewProc(name); pr.Find() == nil {
			return pr.Addr()
		}
		return 0
	}
	return a
}

func (p *wglPlatform) name() string { return "WGL" }

func (p *wglPlatform) destroy() {
	pMakeCurrent.Call(0, 0)
	pDeleteContext.Call(p.ctx)
	pReleaseDC.Call(p.hwnd, p.hdc)
	pDestroyWindow.Call(p.hwnd)
}

// newPlatform makes an OpenGL 4.3 core context current on this thread: a
// hidden window's device context, a legacy context to reach
// wglCreateContextAttribsARB, then the core one.
func newPlatform() (platform, error) {
	if err := opengl32.Load(); err != nil {
		return nil, fmt.Errorf("no opengl32.dll: %v", err)
	}
	inst, _, _ := pGetModuleHandleW.Call(0)
	cls, _ := syscall.UTF16PtrFromString("OrogenGPU")
	wc := wndClassEx{wndProc: pDefWindowProcW.Addr(), instance: inst, className: uintptr(unsafe.Pointer(cls))}
	wc.size = uint32(unsafe.Sizeof(wc))
	pRegisterClassExW.Call(uintptr(unsafe.Pointer(&wc))) // fails harmlessly when already registered
	hwnd, _, err := pCreateWindowExW.Call(0, uintptr(unsafe.Pointer(cls)), uintptr(unsafe.Pointer(cls)),
		wsOverlappedWindow, 0, 0, 1, 1, 0, 0, inst, 0)
	if hwnd == 0 {
		return nil, fmt.Errorf("no hidden window for the context: %v", err)
	}
	p := &wglPlatform{hwnd: hwnd}
	p.hdc, _, _ = pGetDC.Call(hwnd)
	pfd := pixelFormatDescriptor{version: 1, flags: pfdDrawToWindow | pfdSupportOpenGL | pfdDoubleBuffer, colorBits: 32, depthBits: 24}
	pfd.size = uint16(unsafe.Sizeof(pfd))
	fail := func(msg string) (platform, error) {
		pReleaseDC.Call(p.hwnd, p.hdc)
		pDestroyWindow.Call(p.hwnd)
		return nil, fmt.Errorf("WGL: %s", msg)
	}
	pf, _, _ := pChoosePixelFormat.Call(p.hdc, uintptr(unsafe.Pointer(&pfd)))
	if pf == 0 {
		return fail("no OpenGL pixel format")
	}
	if ok, _, _ := pSetPixelFormat.Call(p.hdc, pf, uintptr(unsafe.Pointer(&pfd))); ok == 0 {
		return fail("SetPixelFormat failed")
	}
	legacy, _, _ := pCreateContext.Call(p.hdc)
	if legacy == 0 {
		return fail("no OpenGL context")
	}
	pMakeCurrent.Call(p.hdc, legacy)
	create := p.proc("wglCreateContextAttribsARB")
	if create == 0 {
		pMakeCurrent.Call(0, 0)
		pDeleteContext.Call(legacy)
		return fail("the driver has no wglCreateContextAttribsARB (update the graphics driver)")
	}
	attrs := []int32{wglContextMajorVersion, 4, wglContextMinorVersion, 3, wglContextProfileMask, wglContextCoreBit, 0}
	ctx, _, _ := syscall.SyscallN(create, p.hdc, 0, uintptr(unsafe.Pointer(&attrs[0])))
	pMakeCurrent.Call(0, 0)
	pDeleteContext.Call(legacy)
	if ctx == 0 {
		return fail("no OpenGL 4.3 core context (the driver offers less: update it)")
	}
	if ok, _, _ := pMakeCurrent.Call(p.hdc, ctx); ok == 0 {
		pDeleteContext.Call(ctx)
		return fail("wglMakeCurrent failed")
	}
	p.ctx = ctx
	return p, nil
}
