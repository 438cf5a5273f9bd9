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
func BenchmarkReadWait(b *testing.B) {
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
		write         string // "", "same" (the buffer read), "other" (a small one)
	}
	cases := []rcase{
		{0, 0, false, ""}, {1, 0, false, ""}, {16, 0, false, ""}, {64, 0, false, ""}, {256, 0, false, ""},
		{0, 1024, false, ""}, {0, 4096, false, ""}, {0, 1024, true, ""}, {0, 4096, true, ""},
		{0, 0, false, "same"}, {0, 0, false, "other"}, {64, 0, false, "same"}, {64, 0, false, "other"},
		{0, 4096, true, "other"}, {64, 4096, true, "other"},
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
