package amplifier

import (
	"context"

	"orogen/sim/amplify"
	"orogen/sim/engine"
	"orogen/sim/flow"
)

// fineSnapshot is the amplified window as a snapshot the views draw (see
// the package doc). It shares res's slices. Water leaves the window where
// the terrain leads it out (natural edges on every side), and the rivers
// entering it keep their upstream area (inflow).
func fineSnapshot(ctx context.Context, r Request, res *amplify.Result) (*engine.Snapshot, error) {
	nat := flow.Edges{North: flow.Natural, South: flow.Natural, East: flow.Natural, West: flow.Natural}
	f, err := res.Snapshot(ctx, r.Snap, nat, func(area []float64) { inflow(area, r, res) })
	if err != nil {
		return nil, err
	}
	if r.Snap.Uplift != nil {
		f.Uplift = upsample(r.Snap.Uplift, r.Snap.W, r)
	}
	return f, nil
}

// upsample repeats the coarse values of r's window (a grid cw cells wide)
// over each coarse cell's fine cells.
func upsample(coarse []float32, cw int, r Request) []float32 {
	fw, fh := r.Fine()
	k := r.Opt.Factor
	out := make([]float32, fw*fh)
	for y := range fh {
		row := coarse[(r.Y0+y/k)*cw+r.X0:]
		for x := range fw {
			out[y*fw+x] = row[x/k]
		}
	}
	return out
}

// inflow adds to area the drainage area of every coarse cell outside the
// window whose receiver lies inside it: at the lowest fine cell of the
// receiver's block on the side of the window it enters by (ties: the
// lower index), so rivers from upstream keep their size in the preview.
func inflow(area []float64, r Request, res *amplify.Result) {
	c := r.Snap
	if c.Receivers == nil || c.Area == nil {
		return
	}
	k := r.Opt.Factor
	in := func(x, y int) bool { return x >= r.X0 && x < r.X0+r.W && y >= r.Y0 && y < r.Y0+r.H }
	for y := max(r.Y0-1, 0); y <= min(r.Y0+r.H, c.H-1); y++ {
		for x := max(r.X0-1, 0); x <= min(r.X0+r.W, c.W-1); x++ {
			if in(x, y) {
				continue
			}
			rc := int(c.Receivers[y*c.W+x])
			rx, ry := rc%c.W, rc/c.W
			if !in(rx, ry) {
				continue
			}
			bx, by := (rx-r.X0)*k, (ry-r.Y0)*k // the block's first fine cell
			best := -1
			for fy := by; fy < by+k; fy++ {
				for fx := bx; fx < bx+k; fx++ {
					facing := (x < r.X0 && fx == 0) || (x >= r.X0+r.W && fx == res.W-1) ||
						(y < r.Y0 && fy == 0) || (y >= r.Y0+r.H && fy == res.H-1)
					if !facing {
						continue
					}
					if i := fy*res.W + fx; best < 0 || res.Height[i] < res.Height[best] {
						best = i
					}
				}
			}
			if best >= 0 {
				area[best] += float64(c.Area[y*c.W+x])
			}
		}
	}
}
