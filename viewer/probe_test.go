package viewer

import (
	"image"
	"math"
	"orogen/sim/engine"
	"testing"
)

func TestProbe(t *testing.T) {
	s := synthetic()
	r, ok := Probe(s, 46.7, 17.2)
	if !ok {
		t.Fatal("Probe inside the map: got ok=false")
	}
	i := 17*64 + 46
	want := Readout{X: 46, Y: 17, XM: 4670, YM: 1720,
		HeightM: float64(s.Height[i]), UpliftMPerYr: float64(s.Uplift[i]),
		AreaM2: float64(s.Area[i]), WaterM: float64(s.Water[i]), SlopeDeg: r.SlopeDeg}
	if math.Abs(r.XM-want.XM) > 1e-9 || math.Abs(r.YM-want.YM) > 1e-9 {
		t.Errorf("Probe position: got (%g, %g) m; want (%g, %g) m", r.XM, r.YM, want.XM, want.YM)
	}
	r.XM, r.YM = want.XM, want.YM
	if r != want {
		t.Errorf("Probe: got %+v; want %+v", r, want)
	}
	if r.WaterM <= 0 {
		t.Errorf("Probe in the lake: got water %g m; want > 0", r.WaterM)
	}
	for _, p := range [][2]float64{{-0.01, 3}, {3, -0.01}, {64, 3}, {3, 64}, {math.NaN(), 1}, {math.Inf(1), 1}} {
		if _, ok := Probe(s, p[0], p[1]); ok {
			t.Errorf("Probe(%g, %g) outside the 64×64 map: got ok", p[0], p[1])
		}
	}
	if r, ok := Probe(s, 63.999, 0); !ok || r.X != 63 {
		t.Errorf("Probe(63.999, 0): got %+v, %v; want cell 63", r, ok)
	}
	// Absent fields read 0; the slope of a 1-cell map is 0.
	r, ok = Probe(plain(1, 1, []float32{7}), 0.5, 0.5)
	if !ok || r != (Readout{XM: 50, YM: 50, HeightM: 7}) {
		t.Errorf("Probe of a bare 1×1 map: got %+v, %v; want height 7 and zeros", r, ok)
	}
}

// TestSlopeDeg checks the steepest-descent slope on a plane falling east
// by 1 m per metre: 45°, found toward the east neighbour (the diagonal
// drops as much over √2 times the distance).
func TestSlopeDeg(t *testing.T) {
	s := plain(5, 5, plane(5, 5, 100, -1, 0))
	// Tolerance: float32 heights of 1000 ± 200 m are exact; atan is good
	// to an ulp.
	if got := slopeDeg(s, 2, 2); math.Abs(got-45) > 1e-9 {
		t.Errorf("slope of a 1:1 plane: got %g°; want 45°", got)
	}
	if got := slopeDeg(s, 4, 2); got != 0 {
		t.Errorf("slope at the low edge: got %g°; want 0 (no lower neighbour)", got)
	}
}

// receiversEast returns a 6×4 snapshot where every cell drains east, the
// east column being outlets.
func receiversEast() *engine.Snapshot {
	s := plain(6, 4, make([]float32, 24))
	s.Receivers = make([]int32, 24)
	for y := range 4 {
		for x := range 6 {
			i := y*6 + x
			s.Receivers[i] = int32(i + 1)
			if x == 5 {
				s.Receivers[i] = int32(i)
			}
		}
	}
	return s
}

func TestArrows(t *testing.T) {
	s := receiversEast()
	got := Arrows(s, image.Rect(-5, -5, 100, 100), 1000)
	if len(got) != 5*4 {
		t.Fatalf("Arrows over the whole map: got %d; want 20 (outlets have none)", len(got))
	}
	for _, a := range got {
		if a[2]-a[0] != ArrowLength || a[3] != a[1] {
			t.Fatalf("arrow %v: want one pointing east, %g cell long", a, ArrowLength)
		}
		if a[0]-float32(math.Floor(float64(a[0]))) != 0.5 || a[0] > 4.5 {
			t.Fatalf("arrow %v: want it to start at the centre of a cell west of the outlets", a)
		}
	}
	// A diagonal receiver.
	s.Receivers[0] = 7
	if a := Arrows(s, image.Rect(0, 0, 1, 1), 10); len(a) != 1 || a[0] != [4]float32{0.5, 0.5, 0.5 + ArrowLength, 0.5 + ArrowLength} {
		t.Errorf("diagonal arrow: got %v", a)
	}
	// Subsampling: at most max arrows, evenly spread.
	for _, max := range []int{1, 3, 6, 7, 19} {
		a := Arrows(s, image.Rect(0, 0, 6, 4), max)
		if len(a) > max || len(a) == 0 {
			t.Errorf("Arrows(max %d): got %d arrows", max, len(a))
		}
	}
	big := plain(500, 300, make([]float32, 500*300))
	big.Receivers = make([]int32, 500*300)
	for i := range big.Receivers {
		big.Receivers[i] = int32(i + 1)
		if i%500 == 499 {
			big.Receivers[i] = int32(i)
		}
	}
	a := Arrows(big, image.Rect(0, 0, 500, 300), 1000)
	if len(a) > 1000 || len(a) < 400 {
		t.Errorf("Arrows(500×300, max 1000): got %d; want at most 1000 and not far fewer", len(a))
	}
	if got := Arrows(plain(3, 3, make([]float32, 9)), image.Rect(0, 0, 3, 3), 10); got != nil {
		t.Errorf("Arrows without receivers: got %v; want none", got)
	}
	if got := Arrows(s, image.Rect(10, 10, 20, 20), 10); got != nil {
		t.Errorf("Arrows outside the map: got %v; want none", got)
	}
}
