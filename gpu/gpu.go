package gpu

import (
	"errors"
	"fmt"
	"os"
	"strings"
)

// Info describes the device a context was opened on.
type Info struct {
	API      string // "OpenGL 4.3 core"
	Platform string // how the context was made: "EGL device", "EGL surfaceless", "WGL"
	Vendor   string // GL_VENDOR
	Renderer string // GL_RENDERER
	Version  string // GL_VERSION
	// MemoryMiB is the device's dedicated memory, MiB, where the driver
	// tells it (NVIDIA's GL_NVX_gpu_memory_info, AMD's GL_ATI_meminfo
	// free memory); 0 when it does not.
	MemoryMiB int
	// MaxBufferBytes is the largest storage buffer the driver allows
	// (GL_MAX_SHADER_STORAGE_BLOCK_SIZE).
	MaxBufferBytes int64
	// MaxStorageBuffers is the number of storage buffers a compute
	// program may use (GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS), and
	// MaxBindings the number of binding slots.
	MaxStorageBuffers, MaxBindings int
	// Software is true for a software rasterizer (Mesa llvmpipe or
	// softpipe, lavapipe, SwiftShader, Microsoft's GDI Generic or Basic
	// Render driver): correct but slower than the CPU engines.
	Software bool
}

// String is the one-line report of the device: renderer, version, vendor
// and memory.
func (i Info) String() string {
	s := fmt.Sprintf("%s (%s, %s, %s)", i.Renderer, i.Version, i.Vendor, i.Platform)
	if i.MemoryMiB > 0 {
		s += fmt.Sprintf(", %d MiB", i.MemoryMiB)
	}
	if i.Software {
		s += ", software"
	}
	return s
}

// softwareNames are parts of the renderer strings of software rasterizers.
var softwareNames = []string{"llvmpipe", "softpipe", "lavapipe", "swiftshader", "gdi generic", "basic render", "swrast"}

// IsSoftware reports whether renderer names a software rasterizer.
func IsSoftware(renderer string) bool {
	r := strings.ToLower(renderer)
	for _, n := range softwareNames {
		if strings.Contains(r, n) {
			return true
		}
	}
	return false
}

// Buffer is a storage buffer on the device.
type Buffer interface {
	Size() int // bytes
}

// Program is a compiled compute program.
type Program interface {
	Name() string
}

// Query is a timestamp taken on the device (Context.Timestamp).
type Query interface{}

// Context is what runs on the device's thread: the operations a compute
// binding offers. Its methods may be called only inside Device.Do.
// OpenGL implements it here; a WebGPU or Vulkan binding could too.
type Context interface {
	// NewBuffer allocates a storage buffer of size bytes, zeroed.
	NewBuffer(size int) (Buffer, error)
	// Free releases a buffer.
	Free(b Buffer)
	// Write copies src into b from byte off.
	Write(b Buffer, off int, src []byte) error
	// Read copies b from byte off into dst, waiting for the work before.
	Read(b Buffer, off int, dst []byte) error
	// Copy copies size bytes from src at srcOff to dst at dstOff.
	Copy(dst Buffer, dstOff int, src Buffer, srcOff, size int)
	// Program returns the compute program compiled from src, compiled
	// once per name and cached.
	Program(name, src string) (Program, error)
	// Bind attaches b to the storage binding slot for the dispatches
	// that follow.
	Bind(slot int, b Buffer)
	// Dispatch runs p over gx×gy×gz work groups, after all writes of
	// earlier dispatches are visible.
	Dispatch(p Program, gx, gy, gz int)
	// DispatchIndirect runs p over the work groups in the three uints
	// at byte off of args (written by an earlier dispatch), after all
	// writes of earlier dispatches are visible.
	DispatchIndirect(p Program, args Buffer, off int)
	// Timestamp records the device's clock once the work before is done;
	// Time returns it, ns, waiting for it, and releases the query.
	Timestamp() Query
	Time(q Query) (ns int64, err error)
	// Finish waits for all work and returns the first error the device
	// reported since the last check (out of memory, a lost context).
	Finish() error
}

// Device is an open compute device. One goroutine, locked to its OS
// thread, owns the device's context; Do hands it work and waits.
type Device interface {
	Info() Info
	// Do runs fn on the device's thread and returns its error, or the
	// error of a device that was closed or lost.
	Do(fn func(c Context) error) error
	// Close releases the context and stops its thread.
	Close() error
}

// ErrUnavailable wraps every reason a device could not be opened: no
// driver, no GPU, an old driver, a platform without compute.
var ErrUnavailable = errors.New("no GPU compute")

// Options choose the device Open returns.
type Options struct {
	// AllowSoftware lets Open return a software rasterizer. Without it,
	// a software renderer is an error wrapping ErrSoftware.
	AllowSoftware bool
}

// BufferKind is how NewBuffer asks the driver for storage; the default,
// glBufferData with GL_DYNAMIC_COPY, is what every engine has used.
// The others are for BenchmarkReadWait (session 18): whether a read's
// wait in proportion to the buffer's size follows the driver's placement
// of a buffer the host reads from.
var BufferKind = BufferDynamicCopy

// The kinds of BufferKind.
const (
	BufferDynamicCopy = iota // glBufferData, GL_DYNAMIC_COPY
	BufferImmutable          // glBufferStorage, GL_DYNAMIC_STORAGE_BIT only (OpenGL 4.4)
	BufferStatic             // glBufferData, GL_STATIC_DRAW
	BufferStreamRead         // glBufferData, GL_STREAM_READ
)

// bufferKinds names BufferKind's values for OROGEN_GPU_BUFFERS.
var bufferKinds = map[string]int{"dynamic": BufferDynamicCopy, "immutable": BufferImmutable, "static": BufferStatic, "stream": BufferStreamRead}

// ErrSoftware is the error of Open for a software rasterizer when
// Options.AllowSoftware is false.
var ErrSoftware = errors.New("only a software rasterizer")

// Open opens the first usable device: on Linux through EGL (a hardware
// device first, then Mesa's surfaceless platform), on Windows through
// WGL. The error, if any, is one line that says why and wraps
// ErrUnavailable or ErrSoftware.
func Open(o Options) (Device, error) {
	if k, ok := bufferKinds[os.Getenv("OROGEN_GPU_BUFFERS")]; ok {
		BufferKind = k // the measurements' knob (docs/GPU.md, session 18)
	}
	switch os.Getenv("OROGEN_GPU_READ") {
	case "staged":
		StagedReads = true
	case "plain":
		StagedReads = false
	}
	d, err := open()
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnavailable, err)
	}
	if d.Info().Software && !o.AllowSoftware {
		info := d.Info()
		d.Close()
		return nil, fmt.Errorf("%w (%s)", ErrSoftware, info.Renderer)
	}
	return d, nil
}
