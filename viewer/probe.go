package viewer

import (
	"image"
	"math"
	"orogen/sim/engine"
)

// Readout is what the map shows about the cell under the cursor. Fields
// the snapshot lacks (nil Uplift, Area or Water) read 0.
type Readout struct {
	X, Y         int     // cell
	XM, YM       float64 // the probed point, metres from the map's north-west corner
	HeightM      float64
	UpliftMPerYr float64
	AreaM2       float64 // drainage area
	WaterM       float64 // lake depth
	SlopeDeg     float64 // steepest-descent slope
}

// Probe returns the readout at map point (mx, my), which lies in cell
// (floor(mx), floor(my)); ok is false outside the map.
func Probe(s *engine.Snapshot, mx, my float64) (r Readout, ok bool) {
	checkSnapshot(s)
	if !(mx >= 0 && my >= 0 && mx < float64(s.W) && my < float64(s.H)) {
		return Readout{}, false
	}
	x, y := min(int(mx), s.W-1), min(int(my), s.H-1)
	i := y*s.W + x
	r = Readout{X: x, Y: y, XM: mx * s.Cell, YM: my * s.Cell, HeightM: float64(s.Height[i]), SlopeDeg: slopeDeg(s, x, y)}
	if s.Uplift != nil {
		r.UpliftMPerYr = float64(s.Uplift[i])
	}
	if s.Area != nil {
		r.AreaM2 = float64(s.Area[i])
	}
	if s.Water != nil {
		r.WaterM = float64(s.Water[i])
	}
	return r, true
}

// ArrowLength is the length of a flow arrow as a fraction of the distance
// between the centres of a cell and its receiver, so that consecutive
// arrows do not touch.
const ArrowLength = 0.75

// Arrows returns flow arrows for the cells of r (clipped to the map) as
// {x0, y0, x1, y1} in map coordinates: from the cell's centre toward its
// receiver's centre, ArrowLength of the way. Outlets (cells that are their
// own receiver) have none, nor has a snapshot without Receivers. When r
// holds more than maxArrows cells, rows and columns are subsampled with
// one even stride, centred in r, so at most maxArrows arrows come back.
func Arrows(s *engine.Snapshot, r image.Rectangle, maxArrows int) [][4]float32 {
	checkSnapshot(s)
	r = r.Intersect(image.Rect(0, 0, s.W, s.H))
	if s.Receivers == nil || r.Empty() || maxArrows <= 0 {
		return nil
	}
	step := 1
	for count(r.Dx(), step)*count(r.Dy(), step) > maxArrows {
		// Jump close to the right stride, then creep up to it.
		step = int(math.Max(float64(step+1), math.Floor(math.Sqrt(float64(r.Dx())*float64(r.Dy())/float64(maxArrows)))))
	}
	// Centre the samples in the rectangle.
	x0 := r.Min.X + (r.Dx()-1-(count(r.Dx(), step)-1)*step)/2
	y0 := r.Min.Y + (r.Dy()-1-(count(r.Dy(), step)-1)*step)/2
	var out [][4]float32
	for y := y0; y < r.Max.Y; y += step {
		for x := x0; x < r.Max.X; x += step {
			i := y*s.W + x
			rc := int(s.Receivers[i])
			if rc == i || rc < 0 || rc >= s.W*s.H {
				continue
			}
			cx, cy := float64(x)+0.5, float64(y)+0.5
			rx, ry := float64(rc%s.W)+0.5, float64(rc/s.W)+0.5
			out = append(out, [4]float32{
				float32(cx), float32(cy),
				float32(cx + (rx-cx)*ArrowLength), float32(cy + (ry-cy)*ArrowLength),
			})
		}
	}
	return out
}

// count returns how many samples of stride step fit in n.
func count(n, step int) int { return (n + step - 1) / step }
