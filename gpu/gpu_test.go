package gpu

import (
	"encoding/binary"
	"errors"
	"math"
	"testing"
)

// openSoftware opens any device, a software rasterizer included; the test
// is skipped where there is none (no libEGL or Mesa).
func openSoftware(t testing.TB) Device {
	t.Helper()
	d, err := Open(Options{AllowSoftware: true})
	if err != nil {
		t.Skipf("no OpenGL 4.3 device: %v", err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

const squareSrc = `#version 430
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer A { float a[]; };
layout(std430, binding = 1) buffer B { float b[]; };
void main() {
	uint i = gl_GlobalInvocationID.x;
	if (i < uint(a.length())) b[i] = a[i] * a[i] + 1.0;
}
`

// TestDispatchSquares runs a kernel over 1000 floats and checks every
// result against the same arithmetic in Go.
func TestDispatchSquares(t *testing.T) {
	d := openSoftware(t)
	info := d.Info()
	t.Logf("device: %s; %+v", info, info)
	if info.Renderer == "" || info.Version == "" {
		t.Fatalf("empty device report: %+v", info)
	}
	const n = 1000
	in := make([]byte, 4*n)
	for i := range n {
		binary.LittleEndian.PutUint32(in[4*i:], math.Float32bits(float32(i)*0.5))
	}
	out := make([]byte, 4*n)
	err := d.Do(func(c Context) error {
		a, err := c.NewBuffer(4 * n)
		if err != nil {
			return err
		}
		b, err := c.NewBuffer(4 * n)
		if err != nil {
			return err
		}
		defer c.Free(a)
		defer c.Free(b)
		if err := c.Write(a, 0, in); err != nil {
			return err
		}
		p, err := c.Program("square", squareSrc)
		if err != nil {
			return err
		}
		if p2, _ := c.Program("square", "not compiled again"); p2 != p {
			t.Error("Program compiled the same name twice")
		}
		c.Bind(0, a)
		c.Bind(1, b)
		t0 := c.Timestamp()
		c.Dispatch(p, (n+63)/64, 1, 1)
		t1 := c.Timestamp()
		ta, err := c.Time(t0)
		if err != nil {
			return err
		}
		if tb, err := c.Time(t1); err != nil || tb < ta {
			t.Errorf("timestamps %d then %d (%v)", ta, tb, err)
		}
		return c.Read(b, 0, out)
	})
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		x := float32(i) * 0.5
		if got, want := math.Float32frombits(binary.LittleEndian.Uint32(out[4*i:])), x*x+1; got != want {
			t.Fatalf("b[%d] = %g, want %g", i, got, want)
		}
	}
}

// TestCompileErrorIsOneLine checks that a shader that does not compile
// gives an error naming the program, not a crash.
func TestCompileErrorIsOneLine(t *testing.T) {
	d := openSoftware(t)
	err := d.Do(func(c Context) error {
		_, err := c.Program("broken", "#version 430\nlayout(local_size_x = 1) in;\nvoid main() { undefined_thing = 1; }\n")
		return err
	})
	if err == nil {
		t.Fatal("a broken shader compiled")
	}
	t.Log(err)
}

// TestClosedDevice checks that work sent to a closed device fails cleanly.
func TestClosedDevice(t *testing.T) {
	d := openSoftware(t)
	d.Close()
	if err := d.Do(func(Context) error { return nil }); err == nil {
		t.Fatal("Do on a closed device succeeded")
	}
}

// TestSoftwareRefused checks that without AllowSoftware a software
// rasterizer is refused with ErrSoftware.
func TestSoftwareRefused(t *testing.T) {
	d := openSoftware(t)
	if !d.Info().Software {
		t.Skip("a hardware device: nothing to refuse")
	}
	_, err := Open(Options{})
	if !errors.Is(err, ErrSoftware) {
		t.Fatalf("Open without AllowSoftware on %s: %v, want ErrSoftware", d.Info().Renderer, err)
	}
}

func TestIsSoftware(t *testing.T) {
	for r, want := range map[string]bool{
		"llvmpipe (LLVM 15.0.6, 256 bits)": true, "NVIDIA H100 80GB HBM3/PCIe/SSE2": false,
		"GDI Generic": true, "AMD Radeon RX 7900 XTX": false,
	} {
		if IsSoftware(r) != want {
			t.Errorf("IsSoftware(%q) = %v", r, !want)
		}
	}
}

const argsSrc = `#version 430
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer A { uint args[]; };
layout(std430, binding = 1) buffer B { uint b[]; };
void main() {
	args[0] = 5u; args[1] = 2u; args[2] = 1u; // 10 groups of 64
	b[0] = 0u;
}
`

const countSrc = `#version 430
layout(local_size_x = 64) in;
layout(std430, binding = 1) buffer B { uint b[]; };
void main() {
	atomicAdd(b[0], 1u);
	b[1 + gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x] = gl_NumWorkGroups.x;
}
`

// TestIndirectAndStagedReads: a dispatch sized by the work groups an
// earlier dispatch wrote runs that many, and reads give the device's
// words through the mapped staging buffer (StagedReads) as through the
// plain path, where the driver has buffer storage.
func TestIndirectAndStagedReads(t *testing.T) {
	d := openSoftware(t)
	defer func(s, p bool) { StagedReads, SpinReads = s, p }(StagedReads, SpinReads)
	for k, staged := range []bool{false, true, false} {
		StagedReads, SpinReads = staged, k == 2 // the third: a fence polled, then the plain read
		out := make([]byte, 4*12)
		err := d.Do(func(c Context) error {
			args, err := c.NewBuffer(16)
			if err != nil {
				return err
			}
			b, err := c.NewBuffer(4 * 12)
			if err != nil {
				return err
			}
			defer c.Free(args)
			defer c.Free(b)
			pa, err := c.Program("args", argsSrc)
			if err != nil {
				return err
			}
			pc, err := c.Program("count", countSrc)
			if err != nil {
				return err
			}
			c.Bind(0, args)
			c.Bind(1, b)
			c.Dispatch(pa, 1, 1, 1)
			c.DispatchIndirect(pc, args, 0)
			if err := c.Read(b, 0, out); err != nil {
				return err
			}
			if gc := c.(*glContext); staged && gc.st != nil && gc.stage == nil {
				t.Error("StagedReads on a driver with buffer storage read without the staging buffer")
			} else if staged {
				t.Logf("staged reads through a mapped buffer: %v", gc.stage != nil)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if got := binary.LittleEndian.Uint32(out); got != 640 {
			t.Errorf("staged %v: %d invocations ran; want 640 (10 groups of 64)", staged, got)
		}
		for g := range 10 {
			if got := binary.LittleEndian.Uint32(out[4+4*g:]); got != 5 {
				t.Errorf("staged %v: group %d saw %d groups along x; want 5", staged, g, got)
			}
		}
	}
}
