//go:build linux || windows

package gpu

import (
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"time"
	"unsafe"

	"github.com/ebitengine/purego"
)

// OpenGL enums this package uses.
const (
	glVendor                  = 0x1F00
	glRenderer                = 0x1F01
	glVersion                 = 0x1F02
	glExtensions              = 0x1F03
	glNumExtensions           = 0x821D
	glMajorVersion            = 0x821B
	glMinorVersion            = 0x821C
	glComputeShader           = 0x91B9
	glCompileStatus           = 0x8B81
	glLinkStatus              = 0x8B82
	glInfoLogLength           = 0x8B84
	glShaderStorageBuffer     = 0x90D2
	glCopyReadBuffer          = 0x8F36
	glCopyWriteBuffer         = 0x8F37
	glDynamicCopy             = 0x88EA
	glShaderStorageBarrierBit = 0x00002000
	glBufferUpdateBarrierBit  = 0x00000200
	glAllBarrierBits          = 0xFFFFFFFF
	glTimestamp               = 0x8E28
	glQueryResult             = 0x8866
	glMaxShaderStorageBlock   = 0x90DE
	glMaxComputeStorageBlocks = 0x90DB
	glMaxStorageBindings      = 0x90DD
	glNoError                 = 0
	glOutOfMemory             = 0x0505
	glContextLost             = 0x0507
	glGPUMemTotalNVX          = 0x9048 // GL_GPU_MEMORY_INFO_TOTAL_AVAILABLE_MEMORY_NVX, KiB
	glTextureFreeMemoryATI    = 0x87FC
	glDispatchIndirectBuffer  = 0x90EE
	glCommandBarrierBit       = 0x00000040
	glMapRead                 = 0x0001
	glMapPersistent           = 0x0040
	glMapCoherent             = 0x0080
	glClientStorage           = 0x0200
	glDynamicStorage          = 0x0100
	glStaticDraw              = 0x88E4
	glStreamRead              = 0x88E1
	glSyncGPUCommandsComplete = 0x9117
	glSyncFlushCommands       = 0x00000001
	glTimeoutExpired          = 0x911B
	glWaitFailed              = 0x911D
)

// glFuncs are the OpenGL 4.3 functions the package calls, each loaded by
// name ("gl" + the field's name) through the platform's proc address.
type glFuncs struct {
	GetString               func(name uint32) string
	GetStringi              func(name, i uint32) string
	GetIntegerv             func(pname uint32, data *int32)
	GetInteger64v           func(pname uint32, data *int64)
	GetError                func() uint32
	CreateShader            func(kind uint32) uint32
	ShaderSource            func(s uint32, count int32, str **byte, length *int32)
	CompileShader           func(s uint32)
	GetShaderiv             func(s, pname uint32, v *int32)
	GetShaderInfoLog        func(s uint32, max int32, length *int32, log *byte)
	CreateProgram           func() uint32
	AttachShader            func(p, s uint32)
	LinkProgram             func(p uint32)
	GetProgramiv            func(p, pname uint32, v *int32)
	GetProgramInfoLog       func(p uint32, max int32, length *int32, log *byte)
	DeleteShader            func(s uint32)
	DeleteProgram           func(p uint32)
	UseProgram              func(p uint32)
	GenBuffers              func(n int32, b *uint32)
	DeleteBuffers           func(n int32, b *uint32)
	BindBuffer              func(target, b uint32)
	BufferData              func(target uint32, size int, data unsafe.Pointer, usage uint32)
	BufferSubData           func(target uint32, off, size int, data unsafe.Pointer)
	GetBufferSubData        func(target uint32, off, size int, data unsafe.Pointer)
	CopyBufferSubData       func(rt, wt uint32, ro, wo, size int)
	BindBufferBase          func(target, index, b uint32)
	DispatchCompute         func(x, y, z uint32)
	MemoryBarrier           func(bits uint32)
	GenQueries              func(n int32, q *uint32)
	DeleteQueries           func(n int32, q *uint32)
	QueryCounter            func(q, target uint32)
	GetQueryObjectui64v     func(q, pname uint32, v *uint64)
	Finish                  func()
	Flush                   func()
	DispatchComputeIndirect func(off int)
}

// glStaging are the functions of the staged reads (Read), loaded when
// the driver has them (OpenGL 4.4's buffer storage).
type glStaging struct {
	BufferStorage  func(target uint32, size int, data unsafe.Pointer, flags uint32)
	MapBufferRange func(target uint32, off, size int, access uint32) unsafe.Pointer
	FenceSync      func(cond, flags uint32) uintptr
	ClientWaitSync func(sync uintptr, flags uint32, timeout uint64) uint32
	DeleteSync     func(sync uintptr)
}

// load fills every function of f from proc, or names the first that the
// driver lacks.
func (f *glFuncs) load(proc func(string) uintptr) error {
	return loadFuncs(f, proc)
}

// loadFuncs fills every function field of the struct f points to.
func loadFuncs(f any, proc func(string) uintptr) error {
	v := reflect.ValueOf(f).Elem()
	t := v.Type()
	for i := range t.NumField() {
		name := "gl" + t.Field(i).Name
		addr := proc(name)
		if addr == 0 {
			return fmt.Errorf("the driver has no %s (OpenGL 4.3 is needed)", name)
		}
		purego.RegisterFunc(v.Field(i).Addr().Interface(), addr)
	}
	return nil
}

// glContext implements Context on the current OpenGL context.
type glContext struct {
	gl       glFuncs
	st       *glStaging     // nil where the driver lacks buffer storage
	stage    *glBuffer      // the staged reads' buffer, mapped for good (made on first use)
	stagePtr unsafe.Pointer // its mapping
	big      [2]*glBuffer   // the large reads' two staging buffers, mapped for good (made on first use)
	bigPtr   [2]unsafe.Pointer
	programs map[string]*glProgram
	buffers  map[*glBuffer]struct{}
	lost     error // set once the context is lost: every Do fails with it
	exts     map[string]bool
	major    int32
	minor    int32
	since    int           // dispatches since the last read (FlushEvery)
	gapOpen  *glQuery      // the timestamp before the last read, until the next dispatch (GapStamps)
	gaps     [][2]*glQuery // the reads' gaps not yet resolved
}

type glBuffer struct {
	id   uint32
	size int
}

func (b *glBuffer) Size() int { return b.size }

type glProgram struct {
	id   uint32
	name string
}

func (p *glProgram) Name() string { return p.name }

type glQuery struct{ id uint32 }

// newGLContext loads the functions of the current context and checks
// that it is OpenGL 4.3 or later.
func newGLContext(proc func(string) uintptr) (*glContext, error) {
	c := &glContext{programs: map[string]*glProgram{}, buffers: map[*glBuffer]struct{}{}, exts: map[string]bool{}}
	if err := c.gl.load(proc); err != nil {
		return nil, err
	}
	c.gl.GetIntegerv(glMajorVersion, &c.major)
	c.gl.GetIntegerv(glMinorVersion, &c.minor)
	if c.major < 4 || c.major == 4 && c.minor < 3 {
		return nil, fmt.Errorf("%s offers OpenGL %d.%d; compute needs 4.3 (update the graphics driver)", c.gl.GetString(glRenderer), c.major, c.minor)
	}
	var n int32
	c.gl.GetIntegerv(glNumExtensions, &n)
	for i := range n {
		c.exts[c.gl.GetStringi(glExtensions, uint32(i))] = true
	}
	var st glStaging
	if loadFuncs(&st, proc) == nil {
		c.st = &st
	}
	c.gl.GetError()
	return c, nil
}

func (c *glContext) info(platform string) Info {
	i := Info{
		API:      fmt.Sprintf("OpenGL %d.%d core", c.major, c.minor),
		Platform: platform,
		Vendor:   c.gl.GetString(glVendor),
		Renderer: c.gl.GetString(glRenderer),
		Version:  c.gl.GetString(glVersion),
	}
	i.Software = IsSoftware(i.Renderer)
	var kib [4]int32
	switch {
	case c.exts["GL_NVX_gpu_memory_info"]:
		c.gl.GetIntegerv(glGPUMemTotalNVX, &kib[0])
		i.MemoryMiB = int(kib[0]) / 1024
	case c.exts["GL_ATI_meminfo"]:
		c.gl.GetIntegerv(glTextureFreeMemoryATI, &kib[0])
		i.MemoryMiB = int(kib[0]) / 1024
	}
	c.gl.GetInteger64v(glMaxShaderStorageBlock, &i.MaxBufferBytes)
	var blocks, bindings int32
	c.gl.GetIntegerv(glMaxComputeStorageBlocks, &blocks)
	c.gl.GetIntegerv(glMaxStorageBindings, &bindings)
	i.MaxStorageBuffers, i.MaxBindings = int(blocks), int(bindings)
	c.gl.GetError()
	return i
}

// check returns the first OpenGL error pending, as a one-line message; a
// lost context is remembered so that every later call fails with it.
func (c *glContext) check(what string) error {
	e := c.gl.GetError()
	switch e {
	case glNoError:
		return nil
	case glOutOfMemory:
		return fmt.Errorf("gpu: out of GPU memory (%s)", what)
	case glContextLost:
		c.lost = fmt.Errorf("gpu: the GPU context was lost (%s): the driver was reset", what)
		return c.lost
	}
	return fmt.Errorf("gpu: OpenGL error 0x%04X (%s)", e, what)
}

func (c *glContext) NewBuffer(size int) (Buffer, error) {
	if size <= 0 {
		size = 4
	}
	b := &glBuffer{size: size}
	c.gl.GenBuffers(1, &b.id)
	c.gl.BindBuffer(glShaderStorageBuffer, b.id)
	switch {
	case BufferKind == BufferImmutable && c.st != nil:
		c.st.BufferStorage(glShaderStorageBuffer, size, nil, glDynamicStorage)
	case BufferKind == BufferStatic:
		c.gl.BufferData(glShaderStorageBuffer, size, nil, glStaticDraw)
	case BufferKind == BufferStreamRead:
		c.gl.BufferData(glShaderStorageBuffer, size, nil, glStreamRead)
	default:
		c.gl.BufferData(glShaderStorageBuffer, size, nil, glDynamicCopy)
	}
	if err := c.check(fmt.Sprintf("allocating %d MiB", (size+1<<20-1)>>20)); err != nil {
		c.gl.DeleteBuffers(1, &b.id)
		return nil, err
	}
	// Zeroed by copies from a zero block: on NVIDIA's driver (580) a
	// glClearBufferData landed after the glBufferSubData that followed it.
	zero := make([]byte, min(size, 16<<20))
	for off := 0; off < size; off += len(zero) {
		c.gl.BufferSubData(glShaderStorageBuffer, off, min(len(zero), size-off), unsafe.Pointer(&zero[0]))
	}
	runtime.KeepAlive(zero)
	c.buffers[b] = struct{}{}
	return b, c.check("clearing a buffer")
}

func (c *glContext) Free(b Buffer) {
	gb := b.(*glBuffer)
	if _, ok := c.buffers[gb]; ok {
		c.gl.DeleteBuffers(1, &gb.id)
		delete(c.buffers, gb)
	}
}

func (c *glContext) Write(b Buffer, off int, src []byte) error {
	gb := b.(*glBuffer)
	if off < 0 || off+len(src) > gb.size {
		return fmt.Errorf("gpu: write of %d bytes at %d past a %d-byte buffer", len(src), off, gb.size)
	}
	if len(src) == 0 {
		return nil
	}
	c.gl.MemoryBarrier(glBufferUpdateBarrierBit)
	c.gl.BindBuffer(glShaderStorageBuffer, gb.id)
	c.gl.BufferSubData(glShaderStorageBuffer, off, len(src), unsafe.Pointer(&src[0]))
	runtime.KeepAlive(src)
	return c.check("writing a buffer")
}

func (c *glContext) Read(b Buffer, off int, dst []byte) error {
	gb := b.(*glBuffer)
	if off < 0 || off+len(dst) > gb.size {
		return fmt.Errorf("gpu: read of %d bytes at %d past a %d-byte buffer", len(dst), off, gb.size)
	}
	if len(dst) == 0 {
		return nil
	}
	t0 := time.Now()
	defer func() {
		ReadCount++
		ReadWait += time.Since(t0)
	}()
	c.since = 0
	if GapStamps && c.gapOpen == nil {
		c.gapOpen = c.Timestamp().(*glQuery)
	}
	c.gl.MemoryBarrier(glBufferUpdateBarrierBit)
	if StagedReads && c.st != nil {
		read := c.stagedRead
		if len(dst) > stageBytes {
			read = c.stagedReadBig
		}
		if err := read(gb, off, dst); err != errNoStaging {
			return err
		}
	}
	if SpinReads && c.st != nil {
		if err := c.spin(); err != nil {
			return err
		}
	}
	c.gl.BindBuffer(glShaderStorageBuffer, gb.id)
	c.gl.GetBufferSubData(glShaderStorageBuffer, off, len(dst), unsafe.Pointer(&dst[0]))
	runtime.KeepAlive(dst)
	return c.check("reading a buffer")
}

// ReadCount and ReadWait are the reads since the process started and
// the host's time in them (waiting for the work before, mostly), for the
// benchmarks: the device's thread adds to them, read them between Do
// calls.
var (
	ReadCount int64
	ReadWait  time.Duration
)

// Dispatches counts the dispatches since the process started; with
// GapStamps, ReadGap and ReadGaps are the device's time from a read's
// start (a timestamp queued before it) to the next dispatch (one queued
// before that: the device idles between them but for the read's copy),
// added up at Finish. For the benchmarks, read between Do calls.
var (
	Dispatches int64
	GapStamps  bool
	ReadGap    time.Duration
	ReadGaps   int64
)

// FlushAfterRead makes the dispatches after a read flush the commands
// queued (glFlush) after the 1st, 2nd, 4th, ... up to the
// FlushAfterRead-th of them; 0 never. A read leaves the device idle, and
// the driver holds the commands that follow until it flushes them itself:
// on an H200 (driver 580) the device idled 0.54 / 0.89 / 1.19 ms a step
// at 1024² / 2048² / 4096² between a read and the next dispatch (4.4 to
// 5.3 reads a step, GapStamps), about twice as long as with a flush after
// every 4th dispatch (docs/GPU.md, session 19). The flushes stop once
// the device has a queue again: a flush after every dispatch made the
// contraction's rounds slower (0.92 against 0.62 ms at 1024²).
//
// FlushEvery flushes after the 1st, (FlushEvery+1)-th, ... dispatch after
// a read, with no end; 0 never. A measurement's knob.
var (
	FlushAfterRead = 16
	FlushEvery     = 0
)

// StagedReads makes Read copy through buffers mapped in the host's
// memory for good and poll a fence, instead of glGetBufferSubData (where
// the driver has OpenGL 4.4's buffer storage): reads of up to stageBytes
// through one, larger reads in pieces through two (stagedReadBig). On
// by default since session 18: on an H200 (driver 580) a plain read of
// 64 bytes waited 4.5–6.7 ms on a 64 MiB buffer and 25 ms on a 256 MiB
// one (the driver moves the whole buffer), a staged one 0.07–0.09 ms
// whatever the buffer; a whole 64 MiB buffer read in 8.2 ms against 15.9;
// the default preset settled at 2048² in 4.73–4.82 s against 5.13–5.22,
// and the app at 4096² stepped 4.2 times a second beside the 2D view
// against 2.8 (docs/GPU.md, "Reads through mapped buffers"). Session 16
// had found no change, timing reads whose wait was the work before them.
var StagedReads = true

// SpinReads makes Read wait for the device by polling a fence before it
// reads (where the driver has fences and buffer storage); staged reads
// always do.
var SpinReads = false

// stageBytes is the size of the staged reads' buffer.
const stageBytes = 64 << 10

// stagedRead reads through the mapped staging buffer: a copy on the
// device, a fence, and the bytes from the mapping.
func (c *glContext) stagedRead(b *glBuffer, off int, dst []byte) error {
	if c.stage == nil {
		c.stage, c.stagePtr = c.mapStage(stageBytes)
		if c.stage == nil {
			c.st = nil // the plain reads from now on
			return errNoStaging
		}
	}
	c.gl.BindBuffer(glCopyReadBuffer, b.id)
	c.gl.BindBuffer(glCopyWriteBuffer, c.stage.id)
	c.gl.CopyBufferSubData(glCopyReadBuffer, glCopyWriteBuffer, off, 0, len(dst))
	if err := c.spin(); err != nil {
		return err
	}
	copy(dst, unsafe.Slice((*byte)(c.stagePtr), len(dst)))
	return c.check("reading a buffer")
}

// bigStage is the size of each of the large reads' two staging buffers.
const bigStage = 8 << 20

// errNoStaging says that the staging buffers could not be mapped: the
// caller reads the plain way.
var errNoStaging = fmt.Errorf("gpu: no staging buffers")

// mapStage makes a buffer of size bytes in the host's memory, mapped for
// reading for good, or returns nil where the driver refuses.
func (c *glContext) mapStage(size int) (*glBuffer, unsafe.Pointer) {
	sb := &glBuffer{size: size}
	c.gl.GenBuffers(1, &sb.id)
	c.gl.BindBuffer(glCopyWriteBuffer, sb.id)
	flags := uint32(glMapRead | glMapPersistent | glMapCoherent)
	c.st.BufferStorage(glCopyWriteBuffer, size, nil, flags|glClientStorage)
	p := c.st.MapBufferRange(glCopyWriteBuffer, 0, size, flags)
	if c.gl.GetError() != glNoError || p == nil {
		c.gl.DeleteBuffers(1, &sb.id)
		return nil, nil
	}
	return sb, p
}

// stagedReadBig reads more than stageBytes through two staging buffers
// in turn: the device copies a piece into one while the host copies the
// last piece out of the other. A plain glGetBufferSubData of a whole
// 64 MiB buffer took 18 ms on an H200 (driver 580, about 3.5 GB/s), and
// the app's frames waited at the swap behind it (docs/GPU.md, session
// 18).
func (c *glContext) stagedReadBig(b *glBuffer, off int, dst []byte) error {
	for k := range c.big {
		if c.big[k] == nil {
			c.big[k], c.bigPtr[k] = c.mapStage(bigStage)
			if c.big[k] == nil {
				c.st = nil // the plain reads from now on
				return errNoStaging
			}
		}
	}
	n := len(dst)
	pieces := (n + bigStage - 1) / bigStage
	var fences [2]uintptr
	issue := func(k int) {
		lo := k * bigStage
		c.gl.BindBuffer(glCopyReadBuffer, b.id)
		c.gl.BindBuffer(glCopyWriteBuffer, c.big[k%2].id)
		c.gl.CopyBufferSubData(glCopyReadBuffer, glCopyWriteBuffer, off+lo, 0, min(bigStage, n-lo))
		fences[k%2] = c.st.FenceSync(glSyncGPUCommandsComplete, 0)
	}
	issue(0)
	if pieces > 1 {
		issue(1)
	}
	for k := range pieces {
		if err := c.await(fences[k%2]); err != nil {
			return err
		}
		lo := k * bigStage
		copy(dst[lo:min(n, lo+bigStage)], unsafe.Slice((*byte)(c.bigPtr[k%2]), min(bigStage, n-lo)))
		if k+2 < pieces {
			issue(k + 2)
		}
	}
	return c.check("reading a buffer")
}

// await waits for a fence polled with no timeout, the commands flushed
// on the first poll, and deletes it.
func (c *glContext) await(sync uintptr) error {
	defer c.st.DeleteSync(sync)
	for flags := uint32(glSyncFlushCommands); ; flags = 0 {
		switch c.st.ClientWaitSync(sync, flags, 0) {
		case glWaitFailed:
			return fmt.Errorf("gpu: waiting for the device failed")
		case glTimeoutExpired:
			continue
		}
		return nil
	}
}

// spin waits for the work queued so far on a fence polled with no
// timeout, the commands flushed on the first poll: a driver that sleeps
// while it waits may wake well after the device is done (reads of a few
// words took a millisecond and more at 4096², H200).
func (c *glContext) spin() error {
	return c.await(c.st.FenceSync(glSyncGPUCommandsComplete, 0))
}

func (c *glContext) Copy(dst Buffer, dstOff int, src Buffer, srcOff, size int) {
	c.gl.MemoryBarrier(glAllBarrierBits)
	c.gl.BindBuffer(glCopyReadBuffer, src.(*glBuffer).id)
	c.gl.BindBuffer(glCopyWriteBuffer, dst.(*glBuffer).id)
	c.gl.CopyBufferSubData(glCopyReadBuffer, glCopyWriteBuffer, srcOff, dstOff, size)
}

func (c *glContext) Program(name, src string) (Program, error) {
	if p, ok := c.programs[name]; ok {
		return p, nil
	}
	s := c.gl.CreateShader(glComputeShader)
	csrc := append([]byte(src), 0)
	ptrs := []*byte{&csrc[0]}
	var pin runtime.Pinner
	pin.Pin(&csrc[0])
	pin.Pin(&ptrs[0])
	c.gl.ShaderSource(s, 1, &ptrs[0], nil)
	pin.Unpin()
	c.gl.CompileShader(s)
	var ok int32
	c.gl.GetShaderiv(s, glCompileStatus, &ok)
	if ok == 0 {
		log := c.infoLog(s, c.gl.GetShaderiv, c.gl.GetShaderInfoLog)
		c.gl.DeleteShader(s)
		return nil, fmt.Errorf("gpu: compiling %s: %s", name, log)
	}
	p := c.gl.CreateProgram()
	c.gl.AttachShader(p, s)
	c.gl.LinkProgram(p)
	c.gl.DeleteShader(s)
	c.gl.GetProgramiv(p, glLinkStatus, &ok)
	if ok == 0 {
		log := c.infoLog(p, c.gl.GetProgramiv, c.gl.GetProgramInfoLog)
		c.gl.DeleteProgram(p)
		return nil, fmt.Errorf("gpu: linking %s: %s", name, log)
	}
	gp := &glProgram{id: p, name: name}
	c.programs[name] = gp
	return gp, c.check("compiling " + name)
}

func (c *glContext) infoLog(id uint32, iv func(uint32, uint32, *int32), get func(uint32, int32, *int32, *byte)) string {
	var n int32
	iv(id, glInfoLogLength, &n)
	if n <= 1 {
		return "no log"
	}
	buf := make([]byte, n)
	get(id, n, nil, &buf[0])
	return strings.Join(strings.Fields(strings.TrimRight(string(buf), "\x00")), " ")
}

func (c *glContext) Bind(slot int, b Buffer) {
	c.gl.BindBufferBase(glShaderStorageBuffer, uint32(slot), b.(*glBuffer).id)
}

func (c *glContext) Dispatch(p Program, gx, gy, gz int) {
	c.beforeDispatch()
	c.gl.MemoryBarrier(glShaderStorageBarrierBit)
	c.gl.UseProgram(p.(*glProgram).id)
	c.gl.DispatchCompute(uint32(gx), uint32(gy), uint32(gz))
	c.afterDispatch()
}

func (c *glContext) DispatchIndirect(p Program, args Buffer, off int) {
	c.beforeDispatch()
	c.gl.MemoryBarrier(glShaderStorageBarrierBit | glCommandBarrierBit)
	c.gl.UseProgram(p.(*glProgram).id)
	c.gl.BindBuffer(glDispatchIndirectBuffer, args.(*glBuffer).id)
	c.gl.DispatchComputeIndirect(off)
	c.afterDispatch()
}

// beforeDispatch closes the gap a read left open (GapStamps).
func (c *glContext) beforeDispatch() {
	Dispatches++
	if c.gapOpen == nil {
		return
	}
	c.gaps = append(c.gaps, [2]*glQuery{c.gapOpen, c.Timestamp().(*glQuery)})
	c.gapOpen = nil
	if len(c.gaps) >= 1024 {
		c.resolveGaps()
	}
}

// afterDispatch flushes the commands queued (FlushAfterRead,
// FlushEvery).
func (c *glContext) afterDispatch() {
	c.since++
	if flushAt(c.since, FlushAfterRead, FlushEvery) {
		c.gl.Flush()
	}
}

// flushAt tells whether the k-th dispatch after a read (from 1) flushes:
// k a power of two up to afterRead, or k = 1, every+1, 2·every+1, ...
func flushAt(k, afterRead, every int) bool {
	return afterRead > 0 && k <= afterRead && k&(k-1) == 0 || every > 0 && (k-1)%every == 0
}

// resolveGaps adds the device's idle time of the gaps recorded to
// ReadGap (waiting for their timestamps).
func (c *glContext) resolveGaps() {
	for _, g := range c.gaps {
		t0, _ := c.Time(g[0])
		t1, _ := c.Time(g[1])
		ReadGap += time.Duration(t1 - t0)
		ReadGaps++
	}
	c.gaps = c.gaps[:0]
}

func (c *glContext) Timestamp() Query {
	q := &glQuery{}
	c.gl.GenQueries(1, &q.id)
	c.gl.QueryCounter(q.id, glTimestamp)
	return q
}

func (c *glContext) Time(q Query) (int64, error) {
	gq := q.(*glQuery)
	var t uint64
	c.gl.GetQueryObjectui64v(gq.id, glQueryResult, &t)
	c.gl.DeleteQueries(1, &gq.id)
	return int64(t), c.check("reading a timer")
}

func (c *glContext) Finish() error {
	c.gl.Finish()
	if len(c.gaps) > 0 {
		c.resolveGaps()
	}
	return c.check("finishing")
}

// release frees every buffer and program before the context goes.
func (c *glContext) release() {
	if c.stage != nil {
		c.gl.DeleteBuffers(1, &c.stage.id)
	}
	for _, b := range c.big {
		if b != nil {
			c.gl.DeleteBuffers(1, &b.id)
		}
	}
	for b := range c.buffers {
		c.gl.DeleteBuffers(1, &b.id)
	}
	for _, p := range c.programs {
		c.gl.DeleteProgram(p.id)
	}
	c.gl.Finish()
}
