package gpu

import (
	"fmt"
	"strings"

	"github.com/ebitengine/purego"
)

// EGL enums.
const (
	eglSuccess                    = 0x3000
	eglNone                       = 0x3038
	eglExtensions                 = 0x3055
	eglOpenGLAPI                  = 0x30A2
	eglRenderableType             = 0x3040
	eglOpenGLBit                  = 0x0008
	eglContextMajorVersion        = 0x3098
	eglContextMinorVersion        = 0x30FB
	eglContextOpenGLProfileMask   = 0x30FD
	eglContextOpenGLCoreBit       = 0x0001
	eglPlatformDeviceEXT          = 0x313F
	eglPlatformSurfacelessMESA    = 0x31DD
	eglContextPriorityLevelIMG    = 0x3100
	eglContextPriorityLowIMG      = 0x3103
	eglDeviceSoftwareExtensionStr = "EGL_MESA_device_software"
)

// eglFuncs are the EGL functions, from libEGL.so.1 opened at run time: a
// machine without it still runs every CPU path.
type eglFuncs struct {
	GetProcAddress        func(name string) uintptr
	QueryString           func(dpy uintptr, name int32) string
	GetError              func() int32
	Initialize            func(dpy uintptr, major, minor *int32) uint32
	Terminate             func(dpy uintptr) uint32
	BindAPI               func(api uint32) uint32
	ChooseConfig          func(dpy uintptr, attrs *int32, configs *uintptr, size int32, n *int32) uint32
	CreateContext         func(dpy, config, share uintptr, attrs *int32) uintptr
	DestroyContext        func(dpy, ctx uintptr) uint32
	MakeCurrent           func(dpy, draw, read, ctx uintptr) uint32
	queryDevices          func(max int32, devices *uintptr, n *int32) uint32
	queryDeviceString     func(dev uintptr, name int32) string
	getPlatformDisplayEXT func(platform uint32, native uintptr, attrs *int32) uintptr
}

type eglPlatform struct {
	f    *eglFuncs
	dpy  uintptr
	ctx  uintptr
	what string
}

func (p *eglPlatform) proc(name string) uintptr { return p.f.GetProcAddress(name) }
func (p *eglPlatform) name() string             { return p.what }
func (p *eglPlatform) destroy() {
	// The display stays initialized: EGL hands every device of the
	// process the same display, and terminating it would break another
	// device's context.
	p.f.MakeCurrent(p.dpy, 0, 0, 0)
	p.f.DestroyContext(p.dpy, p.ctx)
}

// eglNames are the names libEGL is opened by, in order.
var eglNames = []string{"libEGL.so.1", "libEGL.so"}

// loadEGL opens libEGL and its core functions.
func loadEGL() (*eglFuncs, error) {
	var lib uintptr
	var err error
	for _, name := range eglNames {
		if lib, err = purego.Dlopen(name, purego.RTLD_NOW|purego.RTLD_GLOBAL); err == nil {
			break
		}
	}
	if lib == 0 {
		return nil, fmt.Errorf("no libEGL.so.1 (install the graphics driver, or Mesa's libegl1)")
	}
	f := &eglFuncs{}
	for name, fp := range map[string]any{
		"eglGetProcAddress": &f.GetProcAddress, "eglQueryString": &f.QueryString, "eglGetError": &f.GetError,
		"eglInitialize": &f.Initialize, "eglTerminate": &f.Terminate, "eglBindAPI": &f.BindAPI,
		"eglChooseConfig": &f.ChooseConfig, "eglCreateContext": &f.CreateContext,
		"eglDestroyContext": &f.DestroyContext, "eglMakeCurrent": &f.MakeCurrent,
	} {
		addr, err := purego.Dlsym(lib, name)
		if err != nil || addr == 0 {
			return nil, fmt.Errorf("libEGL has no %s", name)
		}
		purego.RegisterFunc(fp, addr)
	}
	for name, fp := range map[string]any{
		"eglQueryDevicesEXT": &f.queryDevices, "eglQueryDeviceStringEXT": &f.queryDeviceString,
		"eglGetPlatformDisplayEXT": &f.getPlatformDisplayEXT,
	} {
		if addr := f.GetProcAddress(name); addr != 0 {
			purego.RegisterFunc(fp, addr)
		}
	}
	return f, nil
}

// newPlatform makes an OpenGL 4.3 core context current on this thread
// with no surface: on an EGL device (hardware devices before Mesa's
// software one), else on Mesa's surfaceless platform.
func newPlatform() (platform, error) {
	f, err := loadEGL()
	if err != nil {
		return nil, err
	}
	if f.getPlatformDisplayEXT == nil {
		return nil, fmt.Errorf("libEGL lacks eglGetPlatformDisplayEXT (EGL_EXT_platform_base): update the graphics driver")
	}
	type candidate struct {
		platform uint32
		native   uintptr
		what     string
	}
	var cands, soft []candidate
	if f.queryDevices != nil {
		var devs [16]uintptr
		var n int32
		if f.queryDevices(int32(len(devs)), &devs[0], &n) != 0 {
			for _, d := range devs[:n] {
				c := candidate{eglPlatformDeviceEXT, d, "EGL device"}
				if f.queryDeviceString != nil && strings.Contains(f.queryDeviceString(d, eglExtensions), eglDeviceSoftwareExtensionStr) {
					soft = append(soft, c)
					continue
				}
				cands = append(cands, c)
			}
		}
	}
	cands = append(cands, soft...)
	cands = append(cands, candidate{eglPlatformSurfacelessMESA, 0, "EGL surfaceless"})
	var errs []string
	for _, c := range cands {
		p, err := tryEGL(f, c.platform, c.native, c.what)
		if err == nil {
			return p, nil
		}
		errs = append(errs, err.Error())
	}
	return nil, fmt.Errorf("no EGL display gave an OpenGL 4.3 context (%s)", strings.Join(errs, "; "))
}

func tryEGL(f *eglFuncs, plat uint32, native uintptr, what string) (*eglPlatform, error) {
	dpy := f.getPlatformDisplayEXT(plat, native, nil)
	if dpy == 0 {
		return nil, fmt.Errorf("%s: no display (EGL error 0x%x)", what, f.GetError())
	}
	var major, minor int32
	if f.Initialize(dpy, &major, &minor) == 0 {
		return nil, fmt.Errorf("%s: eglInitialize failed (EGL error 0x%x)", what, f.GetError())
	}
	fail := func(msg string) (*eglPlatform, error) {
		return nil, fmt.Errorf("%s: %s (EGL error 0x%x)", what, msg, f.GetError())
	}
	if !strings.Contains(f.QueryString(dpy, eglExtensions), "EGL_KHR_surfaceless_context") {
		return fail("no EGL_KHR_surfaceless_context")
	}
	if f.BindAPI(eglOpenGLAPI) == 0 {
		return fail("no desktop OpenGL")
	}
	attrs := []int32{eglRenderableType, eglOpenGLBit, eglNone}
	var cfg uintptr
	var n int32
	if f.ChooseConfig(dpy, &attrs[0], &cfg, 1, &n) == 0 || n == 0 {
		cfg = 0 // EGL_NO_CONFIG_KHR (EGL_KHR_no_config_context)
	}
	cattrs := []int32{eglContextMajorVersion, 4, eglContextMinorVersion, 3,
		eglContextOpenGLProfileMask, eglContextOpenGLCoreBit, eglNone}
	var ctx uintptr
	if strings.Contains(f.QueryString(dpy, eglExtensions), "EGL_IMG_context_priority") {
		// A low priority, where the driver offers one: the desktop app's
		// views share the GPU with the engine, and a frame waited at the
		// swap behind the engine's kernels (docs/GPU.md).
		low := append(cattrs[:len(cattrs)-1:len(cattrs)-1], eglContextPriorityLevelIMG, eglContextPriorityLowIMG, eglNone)
		ctx = f.CreateContext(dpy, cfg, 0, &low[0])
	}
	if ctx == 0 {
		ctx = f.CreateContext(dpy, cfg, 0, &cattrs[0])
	}
	if ctx == 0 {
		return fail("no OpenGL 4.3 core context")
	}
	if f.MakeCurrent(dpy, 0, 0, ctx) == 0 {
		code := f.GetError() // before eglDestroyContext resets it
		f.DestroyContext(dpy, ctx)
		return nil, fmt.Errorf("%s: eglMakeCurrent without a surface failed (EGL error 0x%x)", what, code)
	}
	return &eglPlatform{f: f, dpy: dpy, ctx: ctx, what: what}, nil
}
