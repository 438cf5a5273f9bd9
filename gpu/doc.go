// Package gpu is Orogen's compute runtime: OpenGL 4.3 compute shaders on
// the machine's graphics card, behind a small interface (Device, Context)
// that a WebGPU or Vulkan binding could implement instead.
//
// Contexts: on Linux through EGL, headless: the EGL devices
// (eglQueryDevicesEXT, EGL_PLATFORM_DEVICE_EXT; hardware devices before
// Mesa's software one), then Mesa's surfaceless platform
// (EGL_PLATFORM_SURFACELESS_MESA), each with a 4.3 core context made
// current with no surface (EGL_KHR_surfaceless_context), at a low
// priority where the driver offers EGL_IMG_context_priority (the desktop
// app's views share the card). On Windows
// through WGL: a hidden window's device context, a legacy context to reach
// wglCreateContextAttribsARB, then a 4.3 core one. macOS stops at OpenGL
// 4.1, without compute: Open says so and the CPU engines run.
//
// Loading: libEGL.so.1 (Linux) and opengl32.dll (Windows) are opened at
// run time, and every function is called through
// github.com/ebitengine/purego, without cgo: the orogen binary builds with
// CGO_ENABLED=0 as before, cross-builds for Windows without a C compiler,
// and starts on a machine without libEGL (Open then fails with one line
// and the callers run on the CPU). The OpenGL functions (glFuncs) are
// loaded by name through eglGetProcAddress or wglGetProcAddress; a driver
// that lacks one, or offers less than OpenGL 4.3, is an error naming it.
// (github.com/go-gl/gl would link libEGL or libGL at build time and needs
// cgo and a build tag on every build; the dozen and a half functions used
// here are declared in gl.go instead.)
//
// The GPU thread: one goroutine, locked to its OS thread, owns the
// context; it makes the context, serves Device.Do's closures one at a
// time, and releases the context when the Device is closed. Nothing else
// calls OpenGL. Do hands it a closure and waits for its error, so a caller
// batches a whole step (several dispatches) into one Do. The thread is
// unlocked, not ended, after the context is released: ending it runs the
// GL libraries' thread destructors, which crashed Mesa.
//
// Errors are one line and never a crash: no libEGL, no device, a driver
// older than 4.3, a shader that does not compile (its log on one line),
// out of GPU memory (GL_OUT_OF_MEMORY, checked after every allocation), a
// lost context (GL_CONTEXT_LOST: every later Do fails with it). Open's
// errors wrap ErrUnavailable, or ErrSoftware when only a software
// rasterizer (Mesa's llvmpipe) was found and Options.AllowSoftware is
// false: such a device is correct, but slower than the CPU engines.
//
// Info reports the device: renderer, version, vendor, the platform that
// made the context, the card's memory where the driver tells it (NVIDIA's
// GL_NVX_gpu_memory_info, AMD's GL_ATI_meminfo) and the limits the
// kernels need (the largest storage buffer, storage buffers per kernel,
// binding slots). Context.Timestamp gives GL_TIMESTAMP queries for
// per-kernel times.
//
// Context.DispatchIndirect runs a kernel over the work groups an earlier
// dispatch wrote into a buffer (glDispatchComputeIndirect), so that a
// kernel sizes the next one's work without a read back to the host.
// Reads wait for the work before them. With StagedReads (the default
// where the driver has OpenGL 4.4's glBufferStorage) a read goes through
// buffers mapped in the host's memory for good: a copy on the device, a
// fence, and the bytes from the mapping, in pieces of 8 MiB through two
// such buffers for a large read, in place of glGetBufferSubData. On
// NVIDIA's driver (580, an H200) a plain read of a few bytes takes time
// in proportion to the size of the buffer it reads from, about 0.11 ms a
// MB (58 µs from a 4 KiB buffer, 7.3 ms from a 64 MiB one), a staged one
// 0.07–0.09 ms whatever the buffer (BenchmarkReadWait). ReadCount and
// ReadWait count the reads and the host's time in them for the
// benchmarks. A read leaves the device idle until the commands after it
// reach it: FlushAfterRead flushes the first dispatches after a read,
// and GapStamps times each read's gap on the device (ReadGap). BufferKind and the environment's OROGEN_GPU_BUFFERS and
// OROGEN_GPU_READ (staged, plain) are measurements' knobs.
//
// Buffers are created zeroed by copies from a block of zeros: on NVIDIA's
// driver (580) a glClearBufferData landed after the glBufferSubData that
// followed it.
package gpu
