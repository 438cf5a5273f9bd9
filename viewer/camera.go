package viewer

import (
	"fmt"
	"math"
	"orogen/sim/engine"
)

// Camera limits and defaults.
const (
	MinPitchDeg   = 5   // lowest camera: just above the horizon
	MaxPitchDeg   = 89  // highest: almost straight down (90 has no "up")
	MinDistanceM  = 1   // closest the eye gets to the target, metres
	MaxDistanceM  = 1e8 // farthest, metres
	DefaultFovDeg = 40  // vertical field of view
	// DefaultYawDeg and DefaultPitchDeg are the camera of a new project
	// (app/project.DefaultView): from the south-south-west, 35° up.
	DefaultYawDeg   = 200
	DefaultPitchDeg = 35

	// nearFraction places the near plane at this fraction of Distance:
	// points closer to the eye plane are behind the camera for Project.
	nearFraction = 1e-3
	// fitMargin is how much room FitCamera leaves around the terrain: the
	// terrain's extent times fitMargin fills the field of view.
	fitMargin = 1.05
	// panReach bounds the ground point PanFrom may use, in multiples of
	// Distance from the eye, so a drag at the horizon does not fling the
	// target to infinity.
	panReach = 100
)

// Camera orbits a target point. World coordinates are metres: x east, y
// south (down the map's rows), z up; the map spans [0, W·cell] × [0, H·cell]
// and heights are multiplied by the view's exaggeration. The eye sits
// Distance metres from the target, in the direction Yaw degrees clockwise
// from north (the direction the camera looks from, as app/project.Camera's
// Yaw) and Pitch degrees above the horizon, and looks at the target with z
// up on the screen. Cameras are values: every method returns a new one.
//
// The zero Camera is not useful: start from FitCamera. Methods treat
// fields out of range as their nearest valid value (Pitch clamped to
// [MinPitchDeg, MaxPitchDeg], Distance to [MinDistanceM, MaxDistanceM], a
// FovDeg outside [1, 179] as DefaultFovDeg, a NaN Yaw as 0); Validate
// reports them.
type Camera struct {
	TargetX, TargetY, TargetZ float64 // metres
	Yaw                       float64 // degrees clockwise from north, the direction the eye looks from
	Pitch                     float64 // degrees above the horizon, [5, 89]
	Distance                  float64 // metres from the target, > 0
	FovDeg                    float64 // vertical field of view, degrees; default 40
}

// Validate returns an error naming the first field that is not finite or
// out of range.
func (c Camera) Validate() error {
	finite := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
	switch {
	case !finite(c.TargetX) || !finite(c.TargetY) || !finite(c.TargetZ):
		return fmt.Errorf("viewer: camera target (%g, %g, %g): must be finite", c.TargetX, c.TargetY, c.TargetZ)
	case !finite(c.Yaw):
		return fmt.Errorf("viewer: camera Yaw = %g: must be a finite angle in degrees", c.Yaw)
	case !(c.Pitch >= MinPitchDeg && c.Pitch <= MaxPitchDeg):
		return fmt.Errorf("viewer: camera Pitch = %g: must be in [%d, %d] degrees", c.Pitch, MinPitchDeg, MaxPitchDeg)
	case !(c.Distance >= MinDistanceM && c.Distance <= MaxDistanceM):
		return fmt.Errorf("viewer: camera Distance = %g: must be in [%g, %g] metres", c.Distance, float64(MinDistanceM), float64(MaxDistanceM))
	case !(c.FovDeg >= 1 && c.FovDeg <= 179):
		return fmt.Errorf("viewer: camera FovDeg = %g: must be in [1, 179] degrees", c.FovDeg)
	}
	return nil
}

// sane returns c with every field in range (see Camera).
func (c Camera) sane() Camera {
	if math.IsNaN(c.Yaw) || math.IsInf(c.Yaw, 0) {
		c.Yaw = 0
	}
	c.Pitch = clampPitch(c.Pitch)
	c.Distance = clampDistance(c.Distance)
	if !(c.FovDeg >= 1 && c.FovDeg <= 179) {
		c.FovDeg = DefaultFovDeg
	}
	return c
}

func clampPitch(p float64) float64 {
	if math.IsNaN(p) {
		return DefaultPitchDeg
	}
	return min(max(p, MinPitchDeg), MaxPitchDeg)
}

func clampDistance(d float64) float64 {
	if math.IsNaN(d) {
		return MinDistanceM
	}
	return min(max(d, MinDistanceM), MaxDistanceM)
}

// wrapDeg returns a in [0, 360).
func wrapDeg(a float64) float64 {
	a = math.Mod(a, 360)
	if a < 0 {
		a += 360
	}
	if a >= 360 { // -tiny + 360 rounds to 360
		a = 0
	}
	return a
}

// Eye returns the position of the eye, metres.
func (c Camera) Eye() (x, y, z float64) {
	c = c.sane()
	yaw, pitch := c.Yaw*math.Pi/180, c.Pitch*math.Pi/180
	h := c.Distance * math.Cos(pitch)
	return c.TargetX + h*math.Sin(yaw), c.TargetY - h*math.Cos(yaw), c.TargetZ + c.Distance*math.Sin(pitch)
}

// Orbit turns the camera around its target: Yaw by dYawDeg (wrapped to
// [0, 360)) and Pitch by dPitchDeg (clamped to [MinPitchDeg, MaxPitchDeg]).
// The distance and the target stay.
func (c Camera) Orbit(dYawDeg, dPitchDeg float64) Camera {
	c = c.sane()
	if y := c.Yaw + dYawDeg; !math.IsNaN(y) && !math.IsInf(y, 0) {
		c.Yaw = wrapDeg(y)
	}
	if !math.IsNaN(dPitchDeg) {
		c.Pitch = clampPitch(c.Pitch + dPitchDeg)
	}
	return c
}

// Zoom divides the distance to the target by factor (clamped to
// [MinDistanceM, MaxDistanceM]): a factor above 1 moves closer. A factor
// that is not positive and finite leaves the camera unchanged.
func (c Camera) Zoom(factor float64) Camera {
	c = c.sane()
	if !(factor > 0) || math.IsInf(factor, 0) {
		return c
	}
	c.Distance = clampDistance(c.Distance / factor)
	return c
}

// Pan moves the target in the horizontal plane through it, following a
// drag of (dxScreen, dyScreen) pixels on a screenW × screenH screen: the
// ground point under the screen centre (the target) moves with the drag
// to the centre plus (dx, dy). It is PanFrom from the centre.
func (c Camera) Pan(dxScreen, dyScreen, screenW, screenH float64) Camera {
	return c.PanFrom(screenW/2, screenH/2, screenW/2+dxScreen, screenH/2+dyScreen, screenW, screenH)
}

// PanFrom moves the target in the horizontal plane through it so that the
// point of that plane under screen position (x0, y0) ends up under (x1,
// y1): a drag that grabs the ground under the cursor. When either position
// looks at or above the horizon, or at a point more than 100 Distances
// away, the camera is returned unchanged.
func (c Camera) PanFrom(x0, y0, x1, y1, screenW, screenH float64) Camera {
	c = c.sane()
	if !(screenW > 0 && screenH > 0) {
		return c
	}
	f := c.frame(screenW, screenH)
	gx0, gy0, ok0 := f.ground(x0, y0, c.TargetZ, panReach*c.Distance)
	gx1, gy1, ok1 := f.ground(x1, y1, c.TargetZ, panReach*c.Distance)
	if !ok0 || !ok1 {
		return c
	}
	// Moving the eye and the target by T shows every point p where p - T
	// was: the point under (x0, y0) goes to (x1, y1) for T = g0 - g1.
	c.TargetX += gx0 - gx1
	c.TargetY += gy0 - gy1
	return c
}

// Project returns the screen position of world point (x, y, z) on a
// screenW × screenH screen (pixels, y down, the target at the centre) and
// whether it is in front of the near plane (Distance/1000 in front of the
// eye). A point behind the camera has ok false and a meaningless position.
func (c Camera) Project(x, y, z float64, screenW, screenH float64) (sx, sy float64, ok bool) {
	if !(screenW > 0 && screenH > 0) {
		return 0, 0, false
	}
	f := c.sane().frame(screenW, screenH)
	sx, sy, depth := f.project(x, y, z)
	return sx, sy, depth >= f.near
}

// Near returns the distance of the near plane from the eye, metres.
func (c Camera) Near() float64 { return c.sane().Distance * nearFraction }

// frame is a camera's basis and perspective for one screen size.
type frame struct {
	ex, ey, ez float64 // eye
	rx, ry     float64 // right (horizontal: rz = 0)
	ux, uy, uz float64 // screen up
	fx, fy, fz float64 // forward, toward the target
	focal      float64 // pixels per unit of x/depth
	cx, cy     float64 // screen centre
	near       float64
}

// frame returns the frame of a sane camera.
func (c Camera) frame(screenW, screenH float64) frame {
	yaw, pitch := c.Yaw*math.Pi/180, c.Pitch*math.Pi/180
	sy, cy := math.Sincos(yaw)
	sp, cp := math.Sincos(pitch)
	var f frame
	f.ex, f.ey, f.ez = c.Eye()
	// The eye is at target + D (sinθ cosφ, -cosθ cosφ, sinφ): forward is the
	// opposite; right is forward's horizontal part turned a quarter to the
	// right (looking south, right is west); up completes the basis.
	f.fx, f.fy, f.fz = -sy*cp, cy*cp, -sp
	f.rx, f.ry = -cy, -sy
	f.ux, f.uy, f.uz = -sy*sp, cy*sp, cp
	f.focal = screenH / 2 / math.Tan(c.FovDeg*math.Pi/360)
	f.cx, f.cy = screenW/2, screenH/2
	f.near = c.Distance * nearFraction
	return f
}

// view returns the camera-space coordinates of (x, y, z): right, up and
// depth along the view direction.
func (f *frame) view(x, y, z float64) (vx, vy, vz float64) {
	dx, dy, dz := x-f.ex, y-f.ey, z-f.ez
	return dx*f.rx + dy*f.ry, dx*f.ux + dy*f.uy + dz*f.uz, dx*f.fx + dy*f.fy + dz*f.fz
}

// project returns the screen position and depth of (x, y, z).
func (f *frame) project(x, y, z float64) (sx, sy, depth float64) {
	vx, vy, vz := f.view(x, y, z)
	k := f.focal / vz
	return f.cx + vx*k, f.cy - vy*k, vz
}

// ground returns the point of the plane at height z under screen position
// (sx, sy), if the ray hits it within reach metres of the eye.
func (f *frame) ground(sx, sy, z, reach float64) (gx, gy float64, ok bool) {
	a, b := (sx-f.cx)/f.focal, -(sy-f.cy)/f.focal
	dx := f.fx + a*f.rx + b*f.ux
	dy := f.fy + a*f.ry + b*f.uy
	dz := f.fz + b*f.uz
	if !(dz < 0) || !(f.ez > z) {
		return 0, 0, false
	}
	t := (z - f.ez) / dz
	if !(t*math.Sqrt(dx*dx+dy*dy+dz*dz) <= reach) {
		return 0, 0, false
	}
	return f.ex + t*dx, f.ey + t*dy, true
}

// FitCamera returns the camera looking from yaw and pitch (degrees, as in
// Camera) at s's terrain, with heights multiplied by exaggeration, that
// makes the terrain fill a square screen with a 5% margin: see
// FitCameraAspect.
func FitCamera(s *engine.Snapshot, exaggeration float64, yaw, pitch float64) Camera {
	return FitCameraAspect(s, exaggeration, yaw, pitch, 1)
}

// FitCameraAspect is FitCamera for a screen aspect (width / height): the
// UI's "fit to terrain" and "reset" for its viewport. A non-positive or
// non-finite aspect is taken as 1, a bad exaggeration as 1.
//
// The fit reads the terrain's points (the cell centres at their heights,
// every cell up to 512 a side, every k-th beyond), not the box of the map
// and its height range: a box's top corners float far above a terrain
// whose peaks are in the middle, and fitting them left the terrain small
// in the view. The camera is the closest one at that yaw and pitch whose
// picture holds every point with the margin, moved sideways and up so
// that the points' extent is centred: it fills the screen's width or its
// height, whichever binds, and is centred in the other.
func FitCameraAspect(s *engine.Snapshot, exaggeration float64, yaw, pitch, aspect float64) Camera {
	checkSnapshot(s)
	if !(exaggeration > 0) || math.IsInf(exaggeration, 0) {
		exaggeration = 1
	}
	if !(aspect > 0) || math.IsInf(aspect, 0) {
		aspect = 1
	}
	lo, hi := minMax(s.Height)
	w, h := float64(s.W)*s.Cell, float64(s.H)*s.Cell
	c := Camera{TargetX: w / 2, TargetY: h / 2, TargetZ: (lo + hi) / 2 * exaggeration,
		Yaw: yaw, Pitch: pitch, Distance: 1, FovDeg: DefaultFovDeg}.sane()
	c.Yaw = wrapDeg(c.Yaw)
	f := c.frame(1, 1) // the basis: it does not depend on the distance
	ty := math.Tan(c.FovDeg*math.Pi/360) / fitMargin
	tx := ty * aspect
	// A point at (r, u, v) from the box centre in camera axes (right, up,
	// forward), seen from the eye at centre + a·right + b·up − D·forward,
	// is on screen with the margin when |r − a| <= tx (v + D) and
	// |u − b| <= ty (v + D). Over all points: a in [ax − tx·D, bx + tx·D]
	// with ax = max(r − tx·v), bx = min(r + tx·v), which needs
	// D >= (ax − bx) / (2 tx), and a = (ax + bx)/2 centres it; the same
	// for b along up. The smallest D is the larger of the two.
	//
	// With the D of one axis the points touch the margin on both sides
	// of it; on the other axis the interval's middle is not the picture's
	// (perspective: the extreme points lie at different depths), so that
	// offset is found by bisection: the top and bottom of the picture
	// both fall as it grows.
	ax, bx, ay, by, back := math.Inf(-1), math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	step := max(1, (max(s.W, s.H)+511)/512)
	var pr, pu, pv []float64
	add := func(i, j int) {
		vx := (float64(i)+0.5)*s.Cell - c.TargetX
		vy := (float64(j)+0.5)*s.Cell - c.TargetY
		vz := float64(s.Height[j*s.W+i])*exaggeration - c.TargetZ
		r := vx*f.rx + vy*f.ry
		u := vx*f.ux + vy*f.uy + vz*f.uz
		v := vx*f.fx + vy*f.fy + vz*f.fz
		ax, bx = max(ax, r-tx*v), min(bx, r+tx*v)
		ay, by = max(ay, u-ty*v), min(by, u+ty*v)
		back = max(back, -v)
		pr, pu, pv = append(pr, r), append(pu, u), append(pv, v)
	}
	for j := 0; j < s.H; j += step {
		for i := 0; i < s.W; i += step {
			add(i, j)
		}
		if (s.W-1)%step != 0 {
			add(s.W-1, j)
		}
	}
	if (s.H-1)%step != 0 {
		for i := 0; i < s.W; i += step {
			add(i, s.H-1)
		}
		add(s.W-1, s.H-1)
	}
	dx, dy := (ax-bx)/(2*tx), (ay-by)/(2*ty)
	d := max(dx, dy)
	// Keep every point well in front of the near plane.
	diag := math.Sqrt(w*w + h*h + (hi-lo)*(hi-lo)*exaggeration*exaggeration)
	d = max(d, back+0.01*diag)
	a := centre(pr, pv, d, ax-tx*d, bx+tx*d)
	b := centre(pu, pv, d, ay-ty*d, by+ty*d)
	c.TargetX += a*f.rx + b*f.ux
	c.TargetY += a*f.ry + b*f.uy
	c.TargetZ += b * f.uz
	c.Distance = clampDistance(d)
	return c
}

// centre returns the offset o in [lo, hi] along one screen axis that
// centres the points (p, v) seen from distance d: max (p−o)/(v+d) =
// −min (p−o)/(v+d). Both fall as o grows, so their sum does too, and it
// is >= 0 at lo and <= 0 at hi (every point is on screen there):
// bisection until the interval is 1e-9 of d (a nanopixel on any screen
// the fit is for).
func centre(p, v []float64, d, lo, hi float64) float64 {
	if !(lo < hi) {
		return (lo + hi) / 2
	}
	for k := 0; k < 100 && hi-lo > 1e-9*d; k++ {
		o := (lo + hi) / 2
		top, bot := math.Inf(-1), math.Inf(1)
		for i, pi := range p {
			q := (pi - o) / (v[i] + d)
			top, bot = max(top, q), min(bot, q)
		}
		if top+bot > 0 {
			lo = o
		} else {
			hi = o
		}
	}
	return (lo + hi) / 2
}
