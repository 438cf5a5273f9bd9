package invert

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat"

	"orogen/sim"
	"orogen/sim/grid"
	"orogen/sim/settle"
)

// FitOptions tune Fit.
type FitOptions struct {
	Options // the inversion giving the first guess, and the engine's parameters
	// Iterations is the number of corrections (default 12).
	Iterations int
	// Steps is the number of engine steps between corrections (default 80).
	Steps int
	// InitNoise and Seed are the flat start's (grid.Config); give the ones
	// the fitted uplift will be run with.
	InitNoise float64
	Seed      uint64
}

// Fit defaults.
const (
	DefaultFitIterations = 12
	DefaultFitSteps      = 80
	MaxFitIterations     = 1000
	MaxFitSteps          = 100000
)

// FitResult is a fitted uplift and how close it came.
type FitResult struct {
	Uplift *sim.Field
	// R is, per iteration, the Pearson correlation between the DEM and
	// the terrain its uplift grows from the flat start, both box-smoothed
	// over 5×5 cells: R[0] for the first guess, R[i] after i corrections.
	R []float64
	// Best is the largest R: Uplift is the uplift that scored it.
	Best float64
}

// Fit returns an uplift whose steady state from a flat start looks like
// dem, for when the exact inversion (Uplift) is not enough: the exact
// uplift holds the DEM still, but grown from a flat start it lets the
// engine organize a drainage network of its own, and heights then follow
// that network rather than the DEM (k A^m s^n is largest along the DEM's
// big rivers, which a flat start turns into ridges).
//
// Scheme. Start from the exact inversion smoothed (o.Smooth, at least 4
// cells). Each iteration grows the terrain of the current uplift from the
// flat start (o.InitNoise, o.Seed) with the grid engine, through package
// settle's adaptive steps (as orogen run --until-converged), for at most
// o.Steps steps or until settled, then multiplies the uplift of each cell
// by the ratio of target to grown heights, both above base level and
// box-smoothed over 5×5 cells:
// u ← min(u · clamp((T + ε)/(H + ε), ½, 2), 4 u₀), T = dem − min(dem), ε =
// 2.5 % of the relief, u₀ the first guess's largest value (cells by the
// outlets, where the DEM stands high over the engine's base level, would
// otherwise double forever). At steady state with n = 1 heights are linear
// in uplift along a fixed network (Schott et al. 2022, eq. 1 at ∂h/∂t = 0),
// so the ratio is the right correction where the network stays; the clamp
// keeps network changes from overshooting. Lakes get no uplift
// (LakesFill): a flat start fills them anyway, and negative uplift would
// dig them deeper with every correction. Every iteration starts from flat,
// so its score is the score of its uplift as a user would run it; Fit
// returns the best scoring one (the networks a flat start organizes
// differ from one uplift to the next, so R is not monotonic).
//
// Limits: the fitted terrain matches the DEM's shape at the scale of the
// smoothing, not its exact river courses; the base level stays the
// engine's (0 m at Outlet edges), so heights match up to the DEM's lowest
// cell; the DEM is no longer a fixed point of the fitted uplift. ctx
// cancels between steps.
func Fit(ctx context.Context, dem *sim.Field, o FitOptions) (*FitResult, error) {
	if o.Iterations == 0 {
		o.Iterations = DefaultFitIterations
	}
	if o.Steps == 0 {
		o.Steps = DefaultFitSteps
	}
	if o.Iterations < 0 || o.Iterations > MaxFitIterations {
		return nil, fmt.Errorf("invert: %d fit iterations: must be in [1, %d]", o.Iterations, MaxFitIterations)
	}
	if o.Steps < 0 || o.Steps > MaxFitSteps {
		return nil, fmt.Errorf("invert: %d steps per fit iteration: must be in [1, %d]", o.Steps, MaxFitSteps)
	}
	o.Smooth = max(o.Smooth, 4)
	o.Lakes = LakesFill // a flat start fills lakes anyway; negative uplift would dig them
	first, err := Uplift(dem, o.Options)
	if err != nil {
		return nil, err
	}
	w, h := dem.W, dem.H
	u := first.Uplift.Data
	lo, hi := float32(math.Inf(1)), float32(math.Inf(-1))
	for _, v := range dem.Data {
		lo, hi = min(lo, v), max(hi, v)
	}
	eps := 0.025 * float64(hi-lo)
	var umax float32
	for _, v := range u {
		umax = max(umax, v)
	}
	umax = min(4*umax, MaxUplift)
	tgt := make([]float32, len(dem.Data))
	for i, v := range dem.Data {
		tgt[i] = v - lo
	}
	tc := Box(nil, tgt, w, h, fitRadius)
	ref := Box(nil, dem.Data, w, h, 2)
	grow := func() (*grid.Engine, error) {
		return grid.New(grid.Config{W: w, H: h, Cell: dem.Cell, Up: u, InitNoise: o.InitNoise, Seed: o.Seed, Params: o.Params})
	}
	run := func(e *grid.Engine) error {
		sch, err := settle.New(e, settle.Options{})
		if err != nil {
			return err
		}
		for range o.Steps {
			if err := ctx.Err(); err != nil {
				return err
			}
			sch.Step()
			if sch.Settled() {
				break
			}
		}
		return e.Err()
	}
	res := &FitResult{R: make([]float64, 0, o.Iterations+1)}
	best := append([]float32(nil), u...)
	bestR := math.Inf(-1)
	var hs, hc []float64
	// Iteration it grows the terrain of the current uplift from the flat
	// start; the last one (it == Iterations) only scores the last
	// correction.
	for it := 0; it <= o.Iterations; it++ {
		e, err := grow()
		if err != nil {
			return nil, err
		}
		if err := run(e); err != nil {
			return nil, err
		}
		hs = Box(hs, e.Heights(), w, h, 2)
		r := stat.Correlation(ref, hs, nil)
		res.R = append(res.R, r)
		if r > bestR {
			bestR = r
			copy(best, u)
		}
		if it == o.Iterations {
			break
		}
		hc = Box(hc, e.Heights(), w, h, fitRadius)
		for i := range u {
			f := min(2, max(0.5, (tc[i]+eps)/(hc[i]+eps)))
			u[i] = min(umax, float32(float64(u[i])*f))
		}
	}
	copy(u, best)
	res.Uplift, res.Best = first.Uplift, bestR
	return res, nil
}

// fitRadius is the box radius, cells, over which Fit compares heights.
var fitRadius = 2

// Box sets dst (w·h, grown as needed) to the mean of v over a (2r+1)² box
// clipped to the grid, in float64, and returns it.
func Box(dst []float64, v []float32, w, h, r int) []float64 {
	dst = sim.Resize(dst, w*h)
	tmp := make([]float32, w*h)
	c := append([]float32(nil), v...)
	boxSmooth(c, tmp, w, h, r)
	for i, x := range c {
		dst[i] = float64(x)
	}
	return dst
}
