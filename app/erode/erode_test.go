package erode

import (
	"math"
	"testing"
)

func TestParseSource(t *testing.T) {
	s, err := ParseSource(" 3.5, 4 ,2,10")
	if err != nil || s.X != 3.5 || s.Y != 4 || s.Radius != 2 || s.Rate != 10 {
		t.Fatalf("ParseSource = %+v, %v; want {3.5 4 2 10}", s, err)
	}
	for _, bad := range []string{"", "1,2,3", "1,2,3,4,5", "a,2,3,4", "1,2,-1,4", "1,2,3,-4", "1,NaN,3,4", "1,2,Inf,4"} {
		if _, err := ParseSource(bad); err == nil {
			t.Errorf("ParseSource(%q): no error", bad)
		}
	}
}

func FuzzParseSource(f *testing.F) {
	for _, s := range []string{"1,2,3,4", "0,0,0,0", "1e308,1,1,1", ",,,", "1,2,3"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		s, err := ParseSource(in)
		if err != nil {
			return
		}
		for _, v := range []float64{s.X, s.Y, s.Radius, s.Rate} {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("ParseSource(%q) = %+v: not finite", in, s)
			}
		}
		if s.Radius < 0 || s.Rate < 0 {
			t.Fatalf("ParseSource(%q) = %+v: negative", in, s)
		}
	})
}
