package viewer

import (
	"math"
	"math/rand/v2"
	"regexp"
	"strconv"
	"testing"
)

// Tolerance of the view round trips: the maps are two multiply-adds each
// way on values below 1e4, so they agree to a few ulps; 1e-9 is far above
// that and far below a pixel.
const viewTol = 1e-9

func TestViewRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 1000 {
		v := View{CenterX: rng.Float64() * 2048, CenterY: rng.Float64() * 2048, Zoom: math.Exp2(-6 + 14*rng.Float64())}
		sw, sh := 100+rng.Float64()*3000, 100+rng.Float64()*2000
		mx, my := rng.Float64()*2048, rng.Float64()*2048
		sx, sy := v.ToScreen(mx, my, sw, sh)
		gx, gy := v.ToMap(sx, sy, sw, sh)
		if math.Abs(gx-mx) > viewTol*max(1, math.Abs(mx)) || math.Abs(gy-my) > viewTol*max(1, math.Abs(my)) {
			t.Fatalf("%+v: ToMap(ToScreen(%g, %g)) got (%g, %g); want the point back (±1e-9)", v, mx, my, gx, gy)
		}
	}
}

func TestFitCentresTheMap(t *testing.T) {
	cases := []struct {
		mw, mh   int
		sw, sh   float64
		wantZoom float64
	}{
		{512, 512, 1024, 768, 1.5},
		{1024, 256, 512, 512, 0.5},
		{2, 2, 4000, 4000, 256},            // clamped up: at most 256 px per cell
		{100000, 10, 1000, 1000, 1.0 / 64}, // clamped down
	}
	for _, tc := range cases {
		v := Fit(tc.mw, tc.mh, tc.sw, tc.sh)
		if v.Zoom != tc.wantZoom {
			t.Errorf("Fit(%d, %d, %g, %g).Zoom: got %g; want %g", tc.mw, tc.mh, tc.sw, tc.sh, v.Zoom, tc.wantZoom)
		}
		// The map's centre is on the screen's centre, and unless clamped
		// the map touches two opposite screen edges and stays inside.
		cx, cy := v.ToScreen(float64(tc.mw)/2, float64(tc.mh)/2, tc.sw, tc.sh)
		if math.Abs(cx-tc.sw/2) > viewTol || math.Abs(cy-tc.sh/2) > viewTol {
			t.Errorf("Fit(%d, %d): map centre at (%g, %g); want the screen centre", tc.mw, tc.mh, cx, cy)
		}
		if tc.wantZoom > MinZoom && tc.wantZoom < MaxZoom {
			x0, y0 := v.ToScreen(0, 0, tc.sw, tc.sh)
			x1, y1 := v.ToScreen(float64(tc.mw), float64(tc.mh), tc.sw, tc.sh)
			if x0 < -viewTol || y0 < -viewTol || x1 > tc.sw+viewTol || y1 > tc.sh+viewTol {
				t.Errorf("Fit(%d, %d): map spans (%g, %g)-(%g, %g); want inside %g×%g", tc.mw, tc.mh, x0, y0, x1, y1, tc.sw, tc.sh)
			}
			if math.Abs(x0) > viewTol && math.Abs(y0) > viewTol {
				t.Errorf("Fit(%d, %d): map touches no screen edge", tc.mw, tc.mh)
			}
		}
	}
	if v := Fit(0, 10, 100, 100); v.Zoom != 1 {
		t.Errorf("Fit of an empty map: got zoom %g; want 1", v.Zoom)
	}
}

func TestZoomAtKeepsCursorPoint(t *testing.T) {
	const sw, sh = 1280, 720
	rng := rand.New(rand.NewPCG(7, 8))
	v := Fit(1024, 1024, sw, sh)
	for range 200 {
		sx, sy := rng.Float64()*sw, rng.Float64()*sh
		f := math.Exp2(-3 + 6*rng.Float64())
		mx, my := v.ToMap(sx, sy, sw, sh)
		nv := v.ZoomAt(sx, sy, f, sw, sh)
		gx, gy := nv.ToMap(sx, sy, sw, sh)
		if math.Abs(gx-mx) > 1e-9*max(1, math.Abs(mx)) || math.Abs(gy-my) > 1e-9*max(1, math.Abs(my)) {
			t.Fatalf("ZoomAt(%g, %g, ×%g): map point under the cursor moved from (%g, %g) to (%g, %g)", sx, sy, f, mx, my, gx, gy)
		}
		if nv.Zoom < MinZoom || nv.Zoom > MaxZoom {
			t.Fatalf("zoom %g outside [1/64, 256]", nv.Zoom)
		}
		v = nv
	}
	// Clamping, and bad factors leave the view alone.
	if got := v.ZoomAt(10, 10, 1e9, sw, sh).Zoom; got != MaxZoom {
		t.Errorf("zoom ×1e9: got %g; want %g", got, float64(MaxZoom))
	}
	if got := v.ZoomAt(10, 10, 1e-9, sw, sh).Zoom; got != MinZoom {
		t.Errorf("zoom ×1e-9: got %g; want %g", got, MinZoom)
	}
	for _, f := range []float64{0, -2, math.NaN(), math.Inf(1)} {
		if got := v.ZoomAt(10, 10, f, sw, sh); got != v {
			t.Errorf("zoom ×%g: got %+v; want the view unchanged", f, got)
		}
	}
}

func TestPanFollowsTheDrag(t *testing.T) {
	const sw, sh = 800, 600
	v := View{CenterX: 100, CenterY: 50, Zoom: 4}
	mx, my := v.ToMap(300, 200, sw, sh)
	p := v.Pan(25, -40)
	gx, gy := p.ToMap(325, 160, sw, sh)
	if math.Abs(gx-mx) > viewTol || math.Abs(gy-my) > viewTol {
		t.Errorf("after Pan(25, -40) the grabbed point is at map (%g, %g); want (%g, %g)", gx, gy, mx, my)
	}
}

func TestScaleBar(t *testing.T) {
	nice := regexp.MustCompile(`^(1|2|5)(0*)$|^0\.(0*)(1|2|5)$`)
	rng := rand.New(rand.NewPCG(9, 10))
	for range 2000 {
		mpp := math.Pow(10, -3+9*rng.Float64())
		maxPx := 20 + 400*rng.Float64()
		px, label := ScaleBar(mpp, maxPx)
		if px > maxPx || px <= 0 {
			t.Fatalf("ScaleBar(%g, %g): got %g px; want in (0, %g]", mpp, maxPx, px, maxPx)
		}
		// The next nice length up would not fit: the bar is at least
		// maxPx / 2.5 long (5 → 10 is the largest step).
		if px < maxPx/2.5*(1-1e-12) {
			t.Fatalf("ScaleBar(%g, %g): got %g px; want at least %g", mpp, maxPx, px, maxPx/2.5)
		}
		num, unit, ok := cutLast(label)
		if !ok || (unit != "m" && unit != "km") {
			t.Fatalf("ScaleBar(%g, %g): label %q; want NUMBER m|km", mpp, maxPx, label)
		}
		if !nice.MatchString(num) {
			t.Fatalf("ScaleBar(%g, %g): label %q is not 1, 2 or 5 × 10^k", mpp, maxPx, label)
		}
		v, _ := strconv.ParseFloat(num, 64)
		if unit == "km" {
			v *= 1000
		} else if v >= 1000 {
			t.Fatalf("label %q: want km from 1000 m up", label)
		}
		if math.Abs(v/mpp-px) > 1e-9*px {
			t.Fatalf("ScaleBar(%g, %g): %q is %g px; got %g", mpp, maxPx, label, v/mpp, px)
		}
	}
	for _, tc := range []struct {
		mpp, maxPx float64
		px         float64
		label      string
	}{
		{10, 120, 100, "1 km"},
		{10, 99, 50, "500 m"},
		{48.828125, 150, 5000 / 48.828125, "5 km"},
		{10, 250, 200, "2 km"},
		{0.01, 60, 50, "0.5 m"},
		{1000, 100, 100, "100 km"}, // exactly maxPx fits
		{1000, 99, 50, "50 km"},
	} {
		px, label := ScaleBar(tc.mpp, tc.maxPx)
		if math.Abs(px-tc.px) > 1e-9 || label != tc.label {
			t.Errorf("ScaleBar(%g, %g): got %g px %q; want %g px %q", tc.mpp, tc.maxPx, px, label, tc.px, tc.label)
		}
	}
	for _, bad := range [][2]float64{{0, 100}, {-1, 100}, {math.NaN(), 100}, {10, 0}, {math.Inf(1), 10}} {
		if px, label := ScaleBar(bad[0], bad[1]); px != 0 || label != "" {
			t.Errorf("ScaleBar(%g, %g): got %g %q; want 0 \"\"", bad[0], bad[1], px, label)
		}
	}
}

// cutLast splits "2 km" into "2" and "km".
func cutLast(s string) (string, string, bool) {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == ' ' {
			return s[:i], s[i+1:], true
		}
	}
	return "", "", false
}
