package viewer

import (
	"fmt"
	"math"
	"math/rand/v2"
	"orogen/sim/engine"
	"strings"
	"testing"
)

// testCameras returns cameras spread over every yaw, pitch, distance and
// field of view, with a fixed seed.
func testCameras() []Camera {
	r := rand.New(rand.NewPCG(3, 3))
	var cs []Camera
	for k := 0; k < 200; k++ {
		cs = append(cs, Camera{
			TargetX: r.Float64()*1e4 - 2e3, TargetY: r.Float64()*1e4 - 2e3, TargetZ: r.Float64()*3e3 - 500,
			Yaw: r.Float64()*720 - 360, Pitch: MinPitchDeg + r.Float64()*(MaxPitchDeg-MinPitchDeg),
			Distance: math.Pow(10, r.Float64()*5), FovDeg: 10 + r.Float64()*100,
		})
	}
	cs = append(cs,
		Camera{Yaw: 0, Pitch: MinPitchDeg, Distance: 1000, FovDeg: 40},
		Camera{Yaw: 90, Pitch: MaxPitchDeg, Distance: 1000, FovDeg: 40},
		Camera{Yaw: 180, Pitch: 45, Distance: MinDistanceM, FovDeg: 1},
		Camera{Yaw: 270, Pitch: 45, Distance: MaxDistanceM, FovDeg: 179},
	)
	return cs
}

func TestProjectTargetAtCentre(t *testing.T) {
	for _, c := range testCameras() {
		for _, sz := range [][2]float64{{640, 480}, {100, 900}, {1, 1}} {
			x, y, ok := c.Project(c.TargetX, c.TargetY, c.TargetZ, sz[0], sz[1])
			// The target is Distance in front along the axis: its
			// position is exact up to rounding of the eye (1e-12
			// relative to the distance, in pixels times focal/D).
			if !ok || math.Abs(x-sz[0]/2) > 1e-6*sz[0] || math.Abs(y-sz[1]/2) > 1e-6*sz[1] {
				t.Errorf("%+v on %v: target at (%g, %g) ok=%v; want the centre (%g, %g)", c, sz, x, y, ok, sz[0]/2, sz[1]/2)
			}
		}
	}
}

func TestOrbitKeepsDistanceAndTarget(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 4))
	for _, c := range testCameras() {
		o := c.Orbit(r.Float64()*1000-500, r.Float64()*200-100)
		ex, ey, ez := o.Eye()
		d := math.Sqrt((ex-c.TargetX)*(ex-c.TargetX) + (ey-c.TargetY)*(ey-c.TargetY) + (ez-c.TargetZ)*(ez-c.TargetZ))
		// Rounding of sin/cos and the sums: 1e-9 relative.
		if math.Abs(d-c.Distance) > 1e-9*c.Distance {
			t.Errorf("%+v: eye at %g m from the target after Orbit; want %g", c, d, c.Distance)
		}
		if o.TargetX != c.TargetX || o.TargetY != c.TargetY || o.TargetZ != c.TargetZ || o.Distance != c.Distance {
			t.Errorf("Orbit moved the target or the distance: got %+v from %+v", o, c)
		}
		if o.Pitch < MinPitchDeg || o.Pitch > MaxPitchDeg || o.Yaw < 0 || o.Yaw >= 360 {
			t.Errorf("Orbit: got yaw %g, pitch %g; want yaw in [0, 360), pitch in [5, 89]", o.Yaw, o.Pitch)
		}
	}
	c := Camera{Yaw: 350, Pitch: 80, Distance: 10, FovDeg: 40}
	if got := c.Orbit(20, 30); got.Yaw != 10 || got.Pitch != MaxPitchDeg {
		t.Errorf("Orbit(20, 30) from yaw 350, pitch 80: got yaw %g, pitch %g; want 10, 89", got.Yaw, got.Pitch)
	}
	if got := c.Orbit(-360, -200); math.Abs(got.Yaw-350) > 1e-12 || got.Pitch != MinPitchDeg {
		t.Errorf("Orbit(-360, -200): got yaw %g, pitch %g; want 350, 5", got.Yaw, got.Pitch)
	}
}

func TestZoomClamps(t *testing.T) {
	c := Camera{Yaw: 10, Pitch: 30, Distance: 1000, FovDeg: 40}
	cases := []struct {
		factor, want float64
	}{
		{2, 500},
		{0.5, 2000},
		{1e12, MinDistanceM},
		{1e-12, MaxDistanceM},
		{0, 1000},
		{-3, 1000},
		{math.NaN(), 1000},
		{math.Inf(1), 1000},
	}
	for _, tc := range cases {
		if got := c.Zoom(tc.factor).Distance; got != tc.want {
			t.Errorf("Zoom(%g) from 1000 m: got %g m; want %g", tc.factor, got, tc.want)
		}
	}
}

// cornersOnScreen reports the first corner of the terrain box of s that is
// off a w × h screen for c.
// extent returns the screen box of s's terrain (every cell centre at its
// height times ex) under c on a w×h screen, and whether every point is in
// front of the near plane.
func extent(s *engine.Snapshot, ex float64, c Camera, w, h float64) (x0, y0, x1, y1 float64, ok bool) {
	x0, y0, x1, y1, ok = math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1), true
	for j := range s.H {
		for i := range s.W {
			sx, sy, in := c.Project((float64(i)+0.5)*s.Cell, (float64(j)+0.5)*s.Cell, float64(s.Height[j*s.W+i])*ex, w, h)
			ok = ok && in
			x0, y0, x1, y1 = min(x0, sx), min(y0, sy), max(x1, sx), max(y1, sy)
		}
	}
	return
}

// TestFitCameraFillsTheView: the fitted camera shows the whole terrain
// and fills the view with it: the terrain's screen box touches the 5%
// margin on both sides of one axis and is centred on the other, for
// peaked, wide and flat terrains, every yaw, pitches from 5° to 89°,
// exaggerations 1 and 5, and square, wide and tall screens. Tolerance
// 1e-6 of the screen: the fit is solved in closed form over the same
// points, so only rounding separates it from the margin. (The old fit
// held the box of map × height range: on the cone its top corners
// floated above the peak and the terrain filled 60% of the height.)
func TestFitCameraFillsTheView(t *testing.T) {
	wide := plain(120, 30, make([]float32, 120*30))
	for i := range wide.Height {
		wide.Height[i] = float32(i % 7 * 100)
	}
	flat := plain(50, 50, make([]float32, 2500))
	const tol = 1e-6
	for _, s := range []*engine.Snapshot{synthetic(), wide, flat} {
		for _, ex := range []float64{1, 5} {
			for yaw := 0.0; yaw < 360; yaw += 30 {
				for _, pitch := range []float64{5, 20, 45, 89} {
					for _, sz := range [][2]float64{{480, 480}, {640, 480}, {1920, 1080}, {300, 600}} {
						w, h := sz[0], sz[1]
						c := FitCameraAspect(s, ex, yaw, pitch, w/h)
						name := fmt.Sprintf("%d×%d, ×%g, yaw %g, pitch %g, %gx%g", s.W, s.H, ex, yaw, pitch, w, h)
						x0, y0, x1, y1, ok := extent(s, ex, c, w, h)
						if !ok || x0 < 0 || y0 < 0 || x1 > w || y1 > h {
							t.Errorf("%s: terrain at [%g, %g]×[%g, %g]: want it on screen", name, x0, x1, y0, y1)
							continue
						}
						mx, my := w/2*(1-1/fitMargin), h/2*(1-1/fitMargin)
						fillsX := math.Abs(x0-mx) <= tol*w && math.Abs(w-x1-mx) <= tol*w
						fillsY := math.Abs(y0-my) <= tol*h && math.Abs(h-y1-my) <= tol*h
						centredX := math.Abs((x0+x1)/2-w/2) <= tol*w
						centredY := math.Abs((y0+y1)/2-h/2) <= tol*h
						if !(fillsX && centredY || fillsY && centredX) {
							t.Errorf("%s: terrain at [%.1f, %.1f]×[%.1f, %.1f]: want it to fill one axis to the %.1f, %.1f px margin and be centred on the other",
								name, x0, x1, y0, y1, mx, my)
						}
					}
					// FitCamera fits a square screen, and so any wider one.
					c := FitCamera(s, ex, yaw, pitch)
					for _, sz := range [][2]float64{{480, 480}, {1920, 1080}} {
						if x0, y0, x1, y1, ok := extent(s, ex, c, sz[0], sz[1]); !ok || x0 < 0 || y0 < 0 || x1 > sz[0] || y1 > sz[1] {
							t.Errorf("FitCamera %d×%d, ×%g, yaw %g, pitch %g, %v: terrain at [%g, %g]×[%g, %g] off screen", s.W, s.H, ex, yaw, pitch, sz, x0, x1, y0, y1)
						}
					}
				}
			}
		}
	}
}

func TestCameraPanFollowsTheDrag(t *testing.T) {
	const w, h = 800, 600
	panned := 0
	for _, c := range testCameras() {
		c = c.sane()
		for _, d := range [][2]float64{{30, -20}, {-200, 100}, {0, 150}} {
			p := c.Pan(d[0], d[1], w, h)
			if p.TargetZ != c.TargetZ || p.Distance != c.Distance || p.Yaw != c.Yaw || p.Pitch != c.Pitch {
				t.Fatalf("Pan changed more than the target's x, y: %+v → %+v", c, p)
			}
			if p == c { // the drag reached above the horizon
				continue
			}
			panned++
			x, y, ok := p.Project(c.TargetX, c.TargetY, c.TargetZ, w, h)
			// Relative to the screen size: the drag is exact up to
			// rounding.
			if !ok || math.Abs(x-(w/2+d[0])) > 1e-6*w || math.Abs(y-(h/2+d[1])) > 1e-6*h {
				t.Errorf("%+v: Pan(%v): the old target is at (%g, %g); want (%g, %g)", c, d, x, y, w/2+d[0], h/2+d[1])
			}
		}
		// PanFrom grabs the ground under any cursor.
		f := c.frame(w, h)
		gx, gy, ok := f.ground(100, 500, c.TargetZ, panReach*c.Distance)
		if !ok {
			continue
		}
		p := c.PanFrom(100, 500, 160, 450, w, h)
		x, y, ok := p.Project(gx, gy, c.TargetZ, w, h)
		if !ok || math.Abs(x-160) > 1e-6*w || math.Abs(y-450) > 1e-6*h {
			t.Errorf("%+v: PanFrom((100, 500) → (160, 450)): the grabbed point is at (%g, %g)", c, x, y)
		}
	}
	if n := 3 * len(testCameras()); panned < n/2 {
		t.Errorf("only %d of %d drags moved the camera; want most", panned, n)
	}
	// Above the horizon nothing moves.
	c := Camera{Yaw: 0, Pitch: 5, Distance: 1000, FovDeg: 40}
	if got := c.PanFrom(400, 300, 400, 0, w, h); got != c {
		t.Errorf("a drag to the sky: got %+v; want the camera unchanged", got)
	}
}

// lookAt returns the screen position of p for a camera given by its eye
// and target, computed the textbook way: the world turned right-handed
// (y north), gluLookAt with z up, gluPerspective, then NDC to pixels.
func lookAt(eye, target, p [3]float64, fovDeg, w, h float64) (sx, sy, wClip float64) {
	rh := func(v [3]float64) [3]float64 { return [3]float64{v[0], -v[1], v[2]} }
	sub := func(a, b [3]float64) [3]float64 { return [3]float64{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }
	dot := func(a, b [3]float64) float64 { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }
	cross := func(a, b [3]float64) [3]float64 {
		return [3]float64{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
	}
	norm := func(a [3]float64) [3]float64 {
		l := math.Sqrt(dot(a, a))
		return [3]float64{a[0] / l, a[1] / l, a[2] / l}
	}
	e, c, q := rh(eye), rh(target), rh(p)
	f := norm(sub(c, e))
	s := norm(cross(f, [3]float64{0, 0, 1}))
	u := cross(s, f)
	// View matrix rows s, u, -f; translation -R·e.
	var view [4][4]float64
	for k, row := range [3][3]float64{s, u, {-f[0], -f[1], -f[2]}} {
		view[k] = [4]float64{row[0], row[1], row[2], -dot(row, e)}
	}
	view[3] = [4]float64{0, 0, 0, 1}
	const near, far = 0.1, 1e9
	fy := 1 / math.Tan(fovDeg*math.Pi/360)
	proj := [4][4]float64{
		{fy / (w / h), 0, 0, 0},
		{0, fy, 0, 0},
		{0, 0, (far + near) / (near - far), 2 * far * near / (near - far)},
		{0, 0, -1, 0},
	}
	v := [4]float64{q[0], q[1], q[2], 1}
	mul := func(m [4][4]float64, v [4]float64) (o [4]float64) {
		for i := range 4 {
			for j := range 4 {
				o[i] += m[i][j] * v[j]
			}
		}
		return o
	}
	clip := mul(proj, mul(view, v))
	return (clip[0]/clip[3] + 1) / 2 * w, (1 - clip[1]/clip[3]) / 2 * h, clip[3]
}

func TestProjectMatchesLookAtMatrices(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	const w, h = 640, 480
	compared := 0
	for _, c := range testCameras() {
		// The eye from the definition: Yaw clockwise from north, the
		// side the camera looks from; Pitch above the horizon.
		yaw, pitch := c.sane().Yaw*math.Pi/180, c.sane().Pitch*math.Pi/180
		d := c.sane().Distance
		eye := [3]float64{
			c.TargetX + d*math.Cos(pitch)*math.Sin(yaw),
			c.TargetY - d*math.Cos(pitch)*math.Cos(yaw), // north is -y
			c.TargetZ + d*math.Sin(pitch),
		}
		ex, ey, ez := c.Eye()
		if math.Abs(ex-eye[0])+math.Abs(ey-eye[1])+math.Abs(ez-eye[2]) > 1e-9*d {
			t.Fatalf("%+v: Eye() = (%g, %g, %g); want %v", c, ex, ey, ez, eye)
		}
		for range 20 {
			p := [3]float64{
				c.TargetX + (r.Float64()*2-1)*d, c.TargetY + (r.Float64()*2-1)*d, c.TargetZ + (r.Float64()*2-1)*d,
			}
			wx, wy, wc := lookAt(eye, [3]float64{c.TargetX, c.TargetY, c.TargetZ}, p, c.sane().FovDeg, w, h)
			gx, gy, ok := c.Project(p[0], p[1], p[2], w, h)
			if ok != (wc >= d*nearFraction) {
				t.Errorf("%+v, %v: ok = %v; want %v (depth %g)", c, p, ok, !ok, wc)
				continue
			}
			if !ok || wc < 1e-3*d {
				continue
			}
			compared++
			// Both are exact up to rounding, amplified by focal/depth
			// near the eye: 1e-6 relative to the screen position.
			tol := 1e-6 * (math.Abs(wx) + math.Abs(wy) + w)
			if math.Abs(gx-wx) > tol || math.Abs(gy-wy) > tol {
				t.Errorf("%+v: Project%v = (%g, %g); want (%g, %g) from the matrices", c, p, gx, gy, wx, wy)
			}
		}
	}
	if compared < 1000 {
		t.Errorf("compared %d points; want at least 1000 in front of the cameras", compared)
	}
}

func TestCameraValidateAndRange(t *testing.T) {
	good := Camera{Yaw: 30, Pitch: 30, Distance: 100, FovDeg: 40}
	if err := good.Validate(); err != nil {
		t.Fatalf("Validate(%+v): %v", good, err)
	}
	for _, tc := range []struct {
		edit func(*Camera)
		want string
	}{
		{func(c *Camera) { c.TargetX = math.NaN() }, "target"},
		{func(c *Camera) { c.Yaw = math.Inf(1) }, "Yaw"},
		{func(c *Camera) { c.Pitch = 2 }, "Pitch"},
		{func(c *Camera) { c.Pitch = 90 }, "Pitch"},
		{func(c *Camera) { c.Distance = 0 }, "Distance"},
		{func(c *Camera) { c.FovDeg = 0 }, "FovDeg"},
	} {
		c := good
		tc.edit(&c)
		if err := c.Validate(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Validate(%+v): got %v; want an error naming %s", c, err, tc.want)
		}
	}
	// The zero camera projects as the nearest valid one.
	var z Camera
	x, y, ok := z.Project(0, 0, 0, 100, 100)
	if !ok || math.IsNaN(x) || math.IsNaN(y) {
		t.Errorf("zero Camera: Project(target) = (%g, %g, %v); want the centre", x, y, ok)
	}
}
