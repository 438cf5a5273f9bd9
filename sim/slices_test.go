package sim

import (
	"math"
	"testing"
)

func TestResize(t *testing.T) {
	s := make([]int, 3, 10)
	s[0] = 7
	if got := Resize(s, 8); len(got) != 8 || cap(got) != 10 || got[0] != 7 {
		t.Errorf("Resize within capacity: got len %d cap %d [0]=%d; want 8, 10, 7 (the same array)", len(got), cap(got), got[0])
	}
	if got := Resize(s, 11); len(got) != 11 || cap(got) != 11 || got[0] != 0 {
		t.Errorf("Resize past capacity: got len %d cap %d [0]=%d; want 11, 11, 0 (a new zeroed array)", len(got), cap(got), got[0])
	}
	if got := ResizeSpare(s, 8); len(got) != 8 || cap(got) != 10 {
		t.Errorf("ResizeSpare within capacity: got len %d cap %d; want 8, 10", len(got), cap(got))
	}
	if got := ResizeSpare(s, 40); len(got) != 40 || cap(got) != 40+10+16 {
		t.Errorf("ResizeSpare past capacity: got len %d cap %d; want 40, 66", len(got), cap(got))
	}
}

// TestSum32 checks the four-lane sum against a plain float64 sum on
// lengths around the lane width, to 1e-12 relative (the two orders round
// differently, each by at most n·2⁻⁵³ of the total).
func TestSum32(t *testing.T) {
	for n := range 23 {
		v := make([]float32, n)
		var want float64
		for i := range v {
			v[i] = float32(i*i) + 0.25
			want += float64(v[i])
		}
		if got := Sum32(v); math.Abs(got-want) > 1e-12*math.Abs(want) {
			t.Errorf("n=%d: Sum32 = %g, want %g", n, got, want)
		}
	}
}
