package gpu

import (
	"encoding/binary"
	"testing"
)

// lengthSrc writes the length() of storage arrays of 4-, 8- and 16-byte
// elements and of a 32-byte struct, from blocks that the kernel indexes
// (A, B, C, D) and from blocks it declares only for length() (E, F), as
// splgpu's kernels did in session 17 (the lean contraction took its
// layout from such lengths and went wrong on an H200).
const lengthSrc = `#version 430
layout(local_size_x = 1) in;
struct Rec { int a, b; float c, d; uint e, f, g, h; };
layout(std430, binding = 0) buffer A { int a[]; };
layout(std430, binding = 1) buffer B { uvec2 b[]; };
layout(std430, binding = 2) buffer C { uvec4 c[]; };
layout(std430, binding = 3) buffer D { Rec d[]; };
layout(std430, binding = 4) readonly buffer E { uvec4 e[]; };
layout(std430, binding = 5) readonly buffer F { int f[]; };
layout(std430, binding = 6) buffer Out { int o[]; };
void main() {
	a[0] = 1; b[0] = uvec2(1u); c[0] = uvec4(1u); d[0].a = 1;
	o[0] = a.length(); o[1] = b.length(); o[2] = c.length(); o[3] = d.length();
	o[4] = e.length(); o[5] = f.length();
}
`

// TestStorageLength checks length() of storage arrays against the GL
// rule (the bound buffer's size over the element's stride, rounded
// down) on buffers whose sizes are not multiples of the strides.
func TestStorageLength(t *testing.T) {
	d := openSoftware(t)
	t.Logf("device: %s", d.Info())
	const n = 1 << 20
	sizes := []int{4*n + 4, 4*n + 4, 4*n + 4, 4*n + 4, 4*n + 4, 4 * n}
	strides := []int{4, 8, 16, 32, 16, 4}
	out := make([]byte, 4*len(sizes))
	err := d.Do(func(c Context) error {
		var bufs []Buffer
		defer func() {
			for _, b := range bufs {
				c.Free(b)
			}
		}()
		for k, s := range append(sizes, len(out)) {
			b, err := c.NewBuffer(s)
			if err != nil {
				return err
			}
			bufs = append(bufs, b)
			c.Bind(k, b)
		}
		p, err := c.Program("lengths", lengthSrc)
		if err != nil {
			return err
		}
		c.Dispatch(p, 1, 1, 1)
		return c.Read(bufs[len(bufs)-1], 0, out)
	})
	if err != nil {
		t.Fatal(err)
	}
	for k, s := range sizes {
		got, want := int32(binary.LittleEndian.Uint32(out[4*k:])), int32(s/strides[k])
		if got != want {
			t.Errorf("array %c (%d-byte elements) on a %d-byte buffer: length() %d, want %d", 'a'+k, strides[k], s, got, want)
		}
	}
}
