package gpu

import (
	"encoding/binary"
	"testing"
)

// TestFlushAt checks which dispatches after a read flush: the powers of
// two up to FlushAfterRead, and 1, every+1, 2·every+1, ... with
// FlushEvery.
func TestFlushAt(t *testing.T) {
	cases := []struct {
		afterRead, every int
		want             []int // the flushing dispatches among 1..40
	}{
		{0, 0, nil},
		{1, 0, []int{1}},
		{16, 0, []int{1, 2, 4, 8, 16}},
		{20, 0, []int{1, 2, 4, 8, 16}},
		{0, 4, []int{1, 5, 9, 13, 17, 21, 25, 29, 33, 37}},
		{2, 16, []int{1, 2, 17, 33}},
	}
	for _, c := range cases {
		var got []int
		for k := 1; k <= 40; k++ {
			if flushAt(k, c.afterRead, c.every) {
				got = append(got, k)
			}
		}
		if len(got) != len(c.want) {
			t.Errorf("after read %d, every %d: got %v; want %v", c.afterRead, c.every, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("after read %d, every %d: got %v; want %v", c.afterRead, c.every, got, c.want)
				break
			}
		}
	}
}

// TestFlushesAndGaps runs dependent dispatches with reads between them,
// with every flush policy, and checks the results (each dispatch adds
// one to every word, so a dispatch run out of order or not at all shows)
// and that each read followed by a dispatch records one gap (resolved
// at Finish).
func TestFlushesAndGaps(t *testing.T) {
	d := openSoftware(t)
	const incSrc = `#version 430
layout(local_size_x = 64) in;
layout(std430, binding = 0) buffer A { uint a[]; };
void main() {
	uint i = gl_GlobalInvocationID.x;
	if (i < uint(a.length())) a[i] += 1u;
}
`
	defer func(r, e int, g bool) { FlushAfterRead, FlushEvery, GapStamps = r, e, g }(FlushAfterRead, FlushEvery, GapStamps)
	for _, pol := range [][2]int{{0, 0}, {16, 0}, {0, 1}, {0, 4}, {4, 3}} {
		FlushAfterRead, FlushEvery, GapStamps = pol[0], pol[1], true
		const n, reads, per = 1000, 5, 9
		gaps0 := ReadGaps
		err := d.Do(func(c Context) error {
			p, err := c.Program("flushinc", incSrc)
			if err != nil {
				return err
			}
			a, err := c.NewBuffer(4 * n)
			if err != nil {
				return err
			}
			defer c.Free(a)
			c.Bind(0, a)
			out := make([]byte, 4*n)
			for r := range reads {
				for range per {
					c.Dispatch(p, (n+63)/64, 1, 1)
				}
				if err := c.Read(a, 0, out); err != nil {
					return err
				}
				for i := range n {
					if v := binary.LittleEndian.Uint32(out[4*i:]); v != uint32((r+1)*per) {
						t.Errorf("flushes %v, read %d: word %d is %d; want %d", pol, r, i, v, (r+1)*per)
						return nil
					}
				}
			}
			c.Dispatch(p, (n+63)/64, 1, 1) // closes the last read's gap
			return c.Finish()
		})
		if err != nil {
			t.Fatal(err)
		}
		// Every read is followed by a dispatch.
		if got := ReadGaps - gaps0; got != reads {
			t.Errorf("flushes %v: %d gaps recorded; want %d", pol, got, reads)
		}
	}
	if ReadGap < 0 {
		t.Errorf("ReadGap %v; want ≥ 0", ReadGap)
	}
}
