package gpu

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

const markSrc = `#version 430
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer A { uint a[]; };
layout(std430, binding = 1) buffer C { uint c[]; };
void main() {
	uint i = gl_GlobalInvocationID.x;
	if (i < 16u) a[i] = c[0] + i;
}
`

const touchSrc = `#version 430
layout(local_size_x = 64) in;
layout(std430, binding = 2) buffer T { uint t[]; };
void main() {
	uint i = gl_GlobalInvocationID.x;
	if (i < 16u) t[i] += 1u;
}
`

// BenchmarkReadWait times a read of 64 bytes that a one-group dispatch
// has just written, ns/op a read, against what the device holds: the
// size of the buffer read, other buffers (ballast, untouched or each
// touched by a dispatch before the read), and a host write of 16 bytes
// into the buffer read or into another small buffer before the dispatch.
// Sub-benchmarks are named size-MB/ballast-MB/touch/write. The session
// 16 engine's reads of a few words waited about a millisecond per GB of
// its buffers on an H200 (docs/GPU.md): this separates the causes.
// OROGEN_READ_CASES limits the cases (a comma-separated list of names).
// OROGEN_READ_BUFFERS picks how the buffers are made (BufferKind:
// dynamic, immutable, static, stream) and OROGEN_READ_STAGED=1 reads
// through the staging buffer (StagedReads); the cases named "whole" read
// the whole buffer, as a snapshot does.
func BenchmarkReadWait(b *testing.B) {
	defer func(k int, s bool) { BufferKind, StagedReads = k, s }(BufferKind, StagedReads)
	switch os.Getenv("OROGEN_READ_BUFFERS") {
	case "immutable":
		BufferKind = BufferImmutable
	case "static":
		BufferKind = BufferStatic
	case "stream":
		BufferKind = BufferStreamRead
	}
	StagedReads = os.Getenv("OROGEN_READ_STAGED") == "1"
	d, err := Open(Options{AllowSoftware: true})
	if err != nil {
		b.Skipf("no OpenGL 4.3 device: %v", err)
	}
	defer d.Close()
	b.Logf("device: %s", d.Info())
	soft := d.Info().Software
	type rcase struct {
		size, ballast int // MB (size 0: 4 KB)
		touch         bool
		write         string // "", "same" (the buffer read), "other" (a small one), "whole" (read it all)
	}
	cases := []rcase{
		{0, 0, false, ""}, {1, 0, false, ""}, {16, 0, false, ""}, {64, 0, false, ""}, {256, 0, false, ""},
		{0, 1024, false, ""}, {0, 4096, false, ""}, {0, 1024, true, ""}, {0, 4096, true, ""},
		{0, 0, false, "same"}, {0, 0, false, "other"}, {64, 0, false, "same"}, {64, 0, false, "other"},
		{0, 4096, true, "other"}, {64, 4096, true, "other"},
		{16, 0, false, "whole"}, {64, 0, false, "whole"},
	}
	if soft {
		cases = []rcase{{0, 0, false, ""}, {16, 0, false, ""}, {0, 64, true, "other"}}
	}
	only := map[string]bool{}
	if v := os.Getenv("OROGEN_READ_CASES"); v != "" {
		for _, f := range strings.Split(v, ",") {
			only[f] = true
		}
	}
	for _, rc := range cases {
		name := fmt.Sprintf("%d/%d/%v/%s", rc.size, rc.ballast, rc.touch, rc.write)
		if len(only) > 0 && !only[name] {
			continue
		}
		b.Run(strings.ReplaceAll(name, "/", "_"), func(b *testing.B) {
			var bufs []Buffer
			err := d.Do(func(c Context) error {
				size := 4096
				if rc.size > 0 {
					size = rc.size << 20
				}
				rb, err := c.NewBuffer(size)
				if err != nil {
					return err
				}
				cb, err := c.NewBuffer(64)
				if err != nil {
					return err
				}
				bufs = append(bufs, rb, cb)
				for left := rc.ballast; left > 0; left -= 256 {
					bb, err := c.NewBuffer(min(left, 256) << 20)
					if err != nil {
						return err
					}
					bufs = append(bufs, bb)
				}
				pm, err := c.Program("readwait-mark", markSrc)
				if err != nil {
					return err
				}
				pt, err := c.Program("readwait-touch", touchSrc)
				if err != nil {
					return err
				}
				if err := c.Finish(); err != nil {
					return err
				}
				out := make([]byte, 64)
				if rc.write == "whole" {
					out = make([]byte, size)
				}
				word := make([]byte, 16)
				run := func() error {
					switch rc.write {
					case "same":
						if err := c.Write(rb, 64, word); err != nil {
							return err
						}
					case "other":
						if err := c.Write(cb, 0, word); err != nil {
							return err
						}
					}
					if rc.touch {
						for _, bb := range bufs[2:] {
							c.Bind(2, bb)
							c.Dispatch(pt, 1, 1, 1)
						}
					}
					c.Bind(0, rb)
					c.Bind(1, cb)
					c.Dispatch(pm, 1, 1, 1)
					return c.Read(rb, 0, out)
				}
				for range 5 {
					if err := run(); err != nil {
						return err
					}
				}
				b.ResetTimer()
				for range b.N {
					if err := run(); err != nil {
						return err
					}
				}
				b.StopTimer()
				return nil
			})
			d.Do(func(c Context) error {
				for _, x := range bufs {
					c.Free(x)
				}
				return nil
			})
			if err != nil {
				b.Fatal(err)
			}
		})
	}
}

// TestBufferKinds: every BufferKind gives a zeroed buffer that takes
// host writes, a kernel's writes and reads back, staged or not.
func TestBufferKinds(t *testing.T) {
	defer func(k int, s bool) { BufferKind, StagedReads = k, s }(BufferKind, StagedReads)
	d, err := Open(Options{AllowSoftware: true})
	if err != nil {
		t.Skipf("no OpenGL 4.3 device: %v", err)
	}
	defer d.Close()
	for _, kind := range []int{BufferDynamicCopy, BufferImmutable, BufferStatic, BufferStreamRead} {
		for _, staged := range []bool{false, true} {
			BufferKind, StagedReads = kind, staged
			err := d.Do(func(c Context) error {
				a, err := c.NewBuffer(4096)
				if err != nil {
					return err
				}
				defer c.Free(a)
				cb, err := c.NewBuffer(64)
				if err != nil {
					return err
				}
				defer c.Free(cb)
				got := make([]byte, 4096)
				if err := c.Read(a, 0, got); err != nil {
					return err
				}
				for i, v := range got {
					if v != 0 {
						return fmt.Errorf("byte %d of a new buffer is %d", i, v)
					}
				}
				if err := c.Write(cb, 0, []byte{7, 0, 0, 0}); err != nil {
					return err
				}
				p, err := c.Program("readwait-mark", markSrc)
				if err != nil {
					return err
				}
				c.Bind(0, a)
				c.Bind(1, cb)
				c.Dispatch(p, 1, 1, 1)
				if err := c.Read(a, 0, got[:64]); err != nil {
					return err
				}
				for i := range 16 {
					if got[4*i] != byte(7+i) {
						return fmt.Errorf("word %d read %d, want %d", i, got[4*i], 7+i)
					}
				}
				return nil
			})
			if err != nil {
				t.Errorf("buffer kind %d, staged %v: %v", kind, staged, err)
			}
		}
	}
}

// TestStagedBigRead: a read larger than one staging buffer, from an
// offset, in pieces through the two staging buffers, gives the bytes
// written, as the plain read does.
func TestStagedBigRead(t *testing.T) {
	defer func(s bool) { StagedReads = s }(StagedReads)
	d, err := Open(Options{AllowSoftware: true})
	if err != nil {
		t.Skipf("no OpenGL 4.3 device: %v", err)
	}
	defer d.Close()
	const size = 2*bigStage + 12345*4
	src := make([]byte, size)
	for i := range src {
		src[i] = byte(i*7 + i>>12)
	}
	for _, staged := range []bool{true, false} {
		StagedReads = staged
		err := d.Do(func(c Context) error {
			b, err := c.NewBuffer(size)
			if err != nil {
				return err
			}
			defer c.Free(b)
			if err := c.Write(b, 0, src); err != nil {
				return err
			}
			for _, r := range [][2]int{{4, size - 4}, {0, bigStage}, {bigStage - 8, bigStage + 100}, {0, size}} {
				got := make([]byte, r[1])
				if err := c.Read(b, r[0], got); err != nil {
					return err
				}
				for i, v := range got {
					if v != src[r[0]+i] {
						return fmt.Errorf("read of %d bytes at %d: byte %d is %d, want %d", r[1], r[0], i, v, src[r[0]+i])
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Errorf("staged %v: %v", staged, err)
		}
	}
}
