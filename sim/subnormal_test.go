package sim

import (
	"math"
	"testing"
)

func TestFlush(t *testing.T) {
	sub := math.Float32frombits(1) // 1.4e-45, the smallest subnormal
	for _, c := range []struct{ in, want float32 }{
		{sub, 0}, {-sub, 0}, {math.Float32frombits(0x007fffff), 0}, {0, 0},
		{SmallestNormal32, SmallestNormal32}, {-SmallestNormal32, -SmallestNormal32}, {1, 1}, {-3e5, -3e5},
	} {
		if got := Flush(c.in); got != c.want || math.Signbit(float64(got)) != math.Signbit(float64(c.want)) {
			t.Errorf("Flush(%g) = %g; want %g", c.in, got, c.want)
		}
	}
	v := []float32{sub, 1, -sub, 0, SmallestNormal32}
	if n := FlushSubnormals(v); n != 2 || v[0] != 0 || v[2] != 0 || v[1] != 1 || v[4] != SmallestNormal32 {
		t.Errorf("FlushSubnormals: %d changed, %v; want 2 and [0 1 0 0 2^-126]", n, v)
	}
}
