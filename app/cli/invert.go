package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"orogen/app/rasterio"
	"orogen/app/scene"
	"orogen/sim"
	"orogen/sim/engine"
	"orogen/sim/invert"
)

// InvertOptions are `orogen invert`'s inputs.
type InvertOptions struct {
	In, Out string
	// OutHeights is where to write the heightmap the uplift holds: the
	// DEM cut to the talus angle (invert.Result.Held), or the DEM itself
	// where no cell is steeper. `orogen run --init` from it under the
	// uplift stays put; from the raw DEM the engine's talus limit would
	// cut the steep cells at the first step and the network would move.
	OutHeights string
	Scene      string // scene or preset whose parameters the inversion uses
	Cell       float64
	K, M, N    *float64
	Smooth     int
	Lakes      string
	// Fit > 0 runs invert.Fit with that many corrections of FitSteps
	// steps each, from the scene's flat start (its noise and seed).
	Fit, FitSteps int
}

// InvertDEM reads o.In, inverts (or fits) it with the scene's parameters
// and the overrides, and returns the uplift (not yet written), the exact
// inversion's figures, and with a fit its correlations.
func InvertDEM(ctx context.Context, o InvertOptions) (*invert.Result, []float64, error) {
	if o.In == "" {
		return nil, nil, errors.New("--in is required")
	}
	sc, err := scene.Load(o.Scene)
	if err != nil {
		return nil, nil, err
	}
	for _, f := range []struct {
		v   *float64
		dst *float64
	}{{o.K, &sc.Params.K}, {o.M, &sc.Params.M}, {o.N, &sc.Params.N}} {
		if f.v != nil {
			*f.dst = *f.v
		}
	}
	p, err := sc.EngineParams()
	if err != nil {
		return nil, nil, err
	}
	if err := invertible(o.Scene, p); err != nil {
		return nil, nil, err
	}
	lakes, err := invert.ParseLakes(o.Lakes)
	if err != nil {
		return nil, nil, fmt.Errorf("--lakes: %w", err)
	}
	dem, err := rasterio.ReadHeights(o.In)
	if err != nil {
		return nil, nil, err
	}
	if o.Cell != 0 {
		dem.Cell = o.Cell
	}
	if dem.Cell == 0 {
		return nil, nil, fmt.Errorf("%s has no sidecar giving its cell size: give --cell METRES", o.In)
	}
	io := invert.Options{Params: p, Smooth: o.Smooth, Lakes: lakes}
	res, err := invert.Uplift(dem, io)
	if err != nil || o.Fit == 0 {
		return res, nil, err
	}
	if o.Fit < 0 {
		return nil, nil, fmt.Errorf("--fit %d: must be >= 0", o.Fit)
	}
	if o.FitSteps < 0 {
		return nil, nil, fmt.Errorf("--fit-steps %d: must be >= 0", o.FitSteps)
	}
	fit, err := invert.Fit(ctx, dem, invert.FitOptions{Options: io, Iterations: o.Fit, Steps: o.FitSteps,
		InitNoise: sc.Params.InitNoiseM, Seed: sc.Seed})
	if err != nil {
		return nil, nil, err
	}
	res.Uplift = fit.Uplift
	return res, fit.R, nil
}

// invertible returns an error naming what of p sim/invert does not invert
// (invert.NotInverted): a DEM it "holds" would move under it.
func invertible(name string, p engine.Params) error {
	not := invert.NotInverted(p)
	if len(not) == 0 {
		return nil
	}
	return fmt.Errorf("--scene %s: invert holds a DEM under the classic physics only (k, m, n, dt, linear diffusion, talus, edges), not the scene's %s: use --scene classic, or a scene without them",
		name, strings.Join(not, ", "))
}

func newInvertCmd(stderr io.Writer) *cobra.Command {
	var o InvertOptions
	var k, m, n float64
	var quiet bool
	cmd := &cobra.Command{
		Use:   "invert",
		Short: "Compute the uplift that makes a DEM a steady state (uplift from a DEM)",
		Long: `Compute the uplift field u = k A^m s^n (minus the hillslope term when the
scene has one) that makes a heightmap a steady state of Orogen's grid engine,
routed with Orogen's own routing (lakes through their passes): running the
engine from the DEM under this uplift leaves it unchanged, and running it
from a flat start grows a terrain like it (Schott et al. 2022, §1, §4).
It inverts the classic physics (k, m, n, dt, linear diffusion, talus,
edges: the classic preset, the default --scene); a scene with creep,
deposition, k noise or random hillslope routing (the soil physics of most
presets) is refused, and the run from the DEM names the same scene.

Flats get no uplift; lakes and pits get the negative uplift that holds them
(--lakes keep, the default: the DEM is then exactly a steady state) or none
(--lakes fill: they fill to their pass over a run, which perturbs the
network); cells of Outlet edges take their interior neighbour's value (the
engine holds them at base level anyway); cells steeper than the talus angle
are cut to the angle first and counted. --smooth R averages the uplift over
a (2R+1)² box.

The exact uplift holds the DEM still, but grown from a flat start it lets
the engine organize its own drainage network. --fit N corrects it N times
(u ← u · target/grown heights, smoothed, between runs of --fit-steps
steps) so that the terrain grown from the scene's flat start (its noise and
seed) looks like the DEM; the DEM is then no longer a fixed point. Write a float .tif to keep the values in m/yr: it feeds
orogen run --uplift unscaled.

--out-heights writes the heightmap the uplift holds: the DEM with its
cells steeper than the talus angle cut to it (the engine's talus limit
would cut them at the first step). Run from it, the terrain stays put.`,
		Example: `  orogen invert --in dem.tif --cell 90 --out uplift.tif --out-heights held.tif
  orogen run --scene classic --init held.tif --cell 90 --uplift uplift.tif --steps 100 --out same.tif
  orogen invert --in dem.tif --cell 90 --fit 12 --out fitted.tif`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if o.Out == "" {
				return errors.New("--out is required")
			}
			if err := rasterio.CheckPath(o.Out); err != nil {
				return err
			}
			if o.OutHeights != "" {
				if err := rasterio.CheckPath(o.OutHeights); err != nil {
					return fmt.Errorf("--out-heights: %w", err)
				}
				if filepath.Clean(o.OutHeights) == filepath.Clean(o.Out) {
					return fmt.Errorf("--out-heights %s: the same file as --out; give another", o.OutHeights)
				}
			}
			fl := cmd.Flags()
			for _, f := range []struct {
				name string
				v    *float64
				dst  **float64
			}{{"k", &k, &o.K}, {"m", &m, &o.M}, {"n", &n, &o.N}} {
				if fl.Changed(f.name) {
					*f.dst = f.v
				}
			}
			t0 := time.Now()
			res, r, err := InvertDEM(cmd.Context(), o)
			if err != nil {
				return err
			}
			took := time.Since(t0)
			if err := rasterio.Write(o.Out, res.Uplift); err != nil {
				return err
			}
			if o.OutHeights != "" {
				held := res.Held
				if held == nil {
					if held, err = rasterio.ReadHeights(o.In); err != nil {
						return err
					}
					held.Cell = res.Uplift.Cell
				}
				if err := rasterio.Write(o.OutHeights, held); err != nil {
					return fmt.Errorf("--out-heights: %w", err)
				}
			}
			if !quiet {
				lo, hi := res.Uplift.MinMax()
				u := res.Uplift
				fmt.Fprintf(stderr, "%s: %d×%d cells of %g m, uplift %.4g to %.4g m/yr (mean %.4g); %d lakes, %d flat cells, %d draining uphill, %d steeper than the talus angle; %.0f ms\n",
					o.Out, u.W, u.H, u.Cell, lo, hi, mean(u), res.Lakes, res.Flat, res.Uphill, res.Steep, took.Seconds()*1e3)
				if r != nil {
					fmt.Fprintf(stderr, "fit: Pearson r between the DEM and the grown terrain (5×5 box) by iteration %.3f; the last is the final uplift grown from a flat start\n", r)
				}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.In, "in", "", "the DEM: float .tif in metres, or .png / .r16 with its sidecar")
	f.StringVar(&o.Out, "out", "", "the uplift in m/yr (.tif keeps the values exactly; .png .r16 with a sidecar)")
	f.StringVar(&o.OutHeights, "out-heights", "", "the heightmap the uplift holds (the DEM cut to the talus angle): run --init from it")
	f.StringVar(&o.Scene, "scene", "classic", "scene or preset whose parameters (k, m, n, dt, diffusion, talus, edges) the inversion uses; the classic physics only (no creep, deposition, k noise or random routing)")
	f.Float64Var(&o.Cell, "cell", 0, "cell size in metres (default: from the DEM's sidecar)")
	f.Float64Var(&k, "k", 0, "erodibility k, yr⁻¹ (the scene's)")
	f.Float64Var(&m, "m", 0, "drainage area exponent m (the scene's)")
	f.Float64Var(&n, "n", 0, "slope exponent n (the scene's)")
	f.IntVar(&o.Smooth, "smooth", 0, "average the uplift over a (2R+1)² box of cells; 0: exact steady state")
	f.StringVar(&o.Lakes, "lakes", "keep", "lakes and pits: keep (negative uplift holds them) or fill (no uplift: they fill to their pass)")
	f.IntVar(&o.Fit, "fit", 0, "fit instead of invert: this many corrections so that the terrain grown from a flat start looks like the DEM (12 is a good start); 0: the exact inversion")
	f.IntVar(&o.FitSteps, "fit-steps", 0, "engine steps between fit corrections (80)")
	f.BoolVarP(&quiet, "quiet", "q", false, "no summary")
	return cmd
}

// mean is the mean value of f.
func mean(f *sim.Field) float64 {
	var s float64
	for _, v := range f.Data {
		s += float64(v)
	}
	return s / float64(len(f.Data))
}
