// Package amplify turns a settled coarse terrain into one at 2, 4 or 8
// times its resolution whose detail follows the drainage: river beds sized
// by drainage area, ridges and hillslopes with flow-aligned detail, lakes
// flat at their level, strata at the fine resolution (Cordonnier et al.
// 2016, §6.2: the stream graph as landform primitives, amplified).
//
// The API below is the contract the CLI and the app are written against;
// the implementation lands with issue 19.
package amplify

import (
	"context"
	"errors"

	"orogen/sim/engine"
)

// Options tune an amplification. The zero value of a field takes its
// default.
type Options struct {
	// Factor is the fine cells per coarse cell along a side: 2, 4 or 8.
	Factor int
	// Seed seeds the detail; the same snapshot, options and seed give
	// bit-identical results whatever GOMAXPROCS.
	Seed uint64
	// WidthExp and DepthExp are the hydraulic-geometry exponents of a
	// river bed's width and depth in its drainage area (width ∝ A^b).
	WidthExp, DepthExp float64
	// WidthCoef and DepthCoef scale them (m at A = 1 km²).
	WidthCoef, DepthCoef float64
	// Detail scales the hillslope detail (1: the default amplitude, 0:
	// none).
	Detail float64
	// HydroSteps, when > 0, finishes the fine surface with that many
	// steps of the hydraulic pass (sim/hydro).
	HydroSteps int
}

// Result is an amplified terrain: W×H cells of Cell metres.
type Result struct {
	W, H int
	Cell float64
	// Height is the fine terrain, metres.
	Height []float32
	// River is the depth of the carved river bed, metres (0 off the beds).
	River []float32
	// Water is the lake water depth over the fine terrain, metres.
	Water []float32
	// Rock is the exposed layer index per fine cell; nil without geology.
	Rock []uint8
}

// Amplify amplifies the whole snapshot: the result has Factor·W ×
// Factor·H cells of Cell/Factor metres.
func Amplify(ctx context.Context, s *engine.Snapshot, o Options) (*Result, error) {
	return Window(ctx, s, o, 0, 0, s.W, s.H)
}

// Window amplifies the coarse cells [x0, x0+w) × [y0, y0+h) of the
// snapshot, reading what it needs around them (the drainage upstream and
// downstream of the window): the result has Factor·w × Factor·h cells and
// matches the same cells of Amplify's result (the package doc says how
// closely).
func Window(ctx context.Context, s *engine.Snapshot, o Options, x0, y0, w, h int) (*Result, error) {
	return nil, errors.New("amplify: not built yet")
}
