package cli

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"orogen/app/erode"
	"orogen/sim/hydro"
)

// newErodeCmd is `orogen erode`: hydraulic and thermal erosion (sim/hydro)
// on a heightmap.
func newErodeCmd(stderr io.Writer) *cobra.Command {
	var o erode.Options
	var sources []string
	var boundary string
	var quiet bool
	// Every parameter has a flag; only the flags given override the
	// defaults, which depend on the cell size (hydro.DefaultParams).
	d := hydro.DefaultParams(30)
	type pflag struct {
		name  string
		field func(q *hydro.Params) *float64 // the parameter the flag sets
		usage string
		v     float64
	}
	flags := []*pflag{
		{name: "dt", field: func(q *hydro.Params) *float64 { return &q.Dt }, usage: "time step Δt, s (default: half the stable step, sqrt(cell/2g)/2: 0.61 s at 30 m cells)"},
		{name: "rain", field: func(q *hydro.Params) *float64 { return &q.Kr }, usage: fmt.Sprintf("rain rate K_r, m/s of water over every cell, times the rain map (%g)", d.Kr)},
		{name: "pipe-area", field: func(q *hydro.Params) *float64 { return &q.A }, usage: "cross-section A of a virtual pipe, m² (default: cell²)"},
		{name: "gravity", field: func(q *hydro.Params) *float64 { return &q.G }, usage: fmt.Sprintf("gravity g, m/s² (%g)", d.G)},
		{name: "pipe-length", field: func(q *hydro.Params) *float64 { return &q.L }, usage: "length l of a virtual pipe, m (default: the cell size)"},
		{name: "capacity", field: func(q *hydro.Params) *float64 { return &q.Kc }, usage: fmt.Sprintf("sediment capacity K_c, s (%g)", d.Kc)},
		{name: "depth-limit", field: func(q *hydro.Params) *float64 { return &q.LMax }, usage: fmt.Sprintf("depth l_max, m, at which the capacity falls to 0 (%g)", d.LMax)},
		{name: "max-concentration", field: func(q *hydro.Params) *float64 { return &q.CMax }, usage: fmt.Sprintf("cap on the capacity as a fraction of the water depth (%g)", d.CMax)},
		{name: "dissolve", field: func(q *hydro.Params) *float64 { return &q.Ks }, usage: fmt.Sprintf("dissolving rate K_s, 1/s (%g)", d.Ks)},
		{name: "deposit", field: func(q *hydro.Params) *float64 { return &q.Kd }, usage: fmt.Sprintf("deposition rate K_d, 1/s (%g)", d.Kd)},
		{name: "soften", field: func(q *hydro.Params) *float64 { return &q.Kh }, usage: fmt.Sprintf("softening of deposits K_h, 1/m (%g)", d.Kh)},
		{name: "min-hardness", field: func(q *hydro.Params) *float64 { return &q.RMin }, usage: fmt.Sprintf("hardness floor R_min (%g)", d.RMin)},
		{name: "evaporation", field: func(q *hydro.Params) *float64 { return &q.Ke }, usage: fmt.Sprintf("evaporation rate K_e, 1/s (%g)", d.Ke)},
		{name: "thermal", field: func(q *hydro.Params) *float64 { return &q.Kt }, usage: fmt.Sprintf("thermal erosion rate K_t, 1/s; 0 turns it off (%g)", d.Kt)},
		{name: "talus", field: func(q *hydro.Params) *float64 { return &q.TalusDeg }, usage: fmt.Sprintf("talus angle, degrees (%g)", d.TalusDeg)},
	}
	cmd := &cobra.Command{
		Use:   "erode",
		Short: "Hydraulic and thermal erosion of a heightmap (virtual pipes)",
		Long: `Erode a heightmap with the virtual-pipe hydraulic and thermal erosion model
of Jákó & Tóth 2011 (package sim/hydro): rain and springs fill the pipes,
running water dissolves, carries and deposits soil, slopes steeper than the
talus angle slide. Time is in seconds, lengths in metres.

The input is a .png or .r16 with its sidecar (which gives the metres and the
cell size), or a float .tif (give --cell unless a sidecar sits beside it or
it is a GeoTIFF in projected metres, such as UTM).
Outputs are written like those of orogen run: .png (16-bit), .r16, .tif
(32-bit float, metres) or .obj, each raster with its sidecar. The report has
per-step timings by phase and the water budget (rain in, evaporated,
outflow, stored) in m³.

Defaults depend on the cell size: pipes one cell long with a cross-section
of a cell squared, and a time step of half the stable one. A --dt above the
stable step is accepted with a warning.`,
		Example: `  orogen erode --in dem.tif --cell 30 --steps 2000 --out eroded.tif --out-water water.tif --report r.json
  orogen erode --in height.png --steps 500 --source 100,80,3,50 --boundary walls --out eroded.png
  orogen erode --in dem.tif --cell 30 --steps 2000 --device auto --out eroded.tif`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			fs := cmd.Flags()
			for _, s := range sources {
				src, err := erode.ParseSource(s)
				if err != nil {
					return err
				}
				o.Sources = append(o.Sources, src)
			}
			var bd *hydro.Boundary
			if fs.Changed("boundary") {
				b, err := hydro.ParseBoundary(boundary)
				if err != nil {
					return fmt.Errorf("--boundary: %w", err)
				}
				bd = &b
			}
			o.Override = func(q *hydro.Params) {
				for _, pf := range flags {
					if fs.Changed(pf.name) {
						*pf.field(q) = pf.v
					}
				}
				if bd != nil {
					q.Boundary = *bd
				}
			}
			if !quiet {
				o.Progress, o.Meter = stderr, &progressMeter{w: stderr}
			}
			job, err := erode.Prepare(o)
			if err != nil {
				return err
			}
			if job.Hydro.Fallback != "" {
				fmt.Fprintln(stderr, "orogen:", job.Hydro.Fallback)
			}
			if !quiet && job.Hydro.OnGPU() {
				fmt.Fprintln(stderr, "orogen: on the GPU:", job.Hydro.Device)
			}
			if w := job.Engine.Warning(); w != "" {
				fmt.Fprintln(stderr, "orogen: warning:", w)
			}
			rep, err := job.Run(cmd.Context())
			if err != nil {
				return err
			}
			if !quiet {
				fmt.Fprintf(stderr, "%s: %d×%d, %d steps (%.4g s simulated) in %.1f s on %s; eroded %.3g m³, deposited %.3g m³, water stored %.3g m³, outflow %.3g m³\n",
					o.In, rep.Width, rep.Height, rep.Steps, rep.SimulatedS, rep.WallS, rep.Device, rep.Soil.Eroded, rep.Soil.Deposited, rep.Water.Stored, rep.Water.Outflow)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.In, "in", "", "heightmap to erode: .png or .r16 with sidecar, or .tif (metres)")
	f.Float64Var(&o.Cell, "cell", 0, "cell size in metres (default: from the sidecar)")
	f.IntVar(&o.Steps, "steps", 0, "number of steps")
	for _, pf := range flags {
		f.Float64Var(&pf.v, pf.name, 0, pf.usage)
	}
	f.StringVar(&boundary, "boundary", "", "walls, open or wrap ("+d.Boundary.String()+")")
	f.StringVar(&o.RainMap, "rain-map", "", "rain factors per cell multiplying --rain: grayscale .png (0..1) or float .tif")
	f.StringVar(&o.Hardness, "hardness", "", "initial hardness per cell in [0, 1]: grayscale .png or float .tif (default 1)")
	f.StringVar(&o.Geology, "geology", "", "geology JSON: the hardness follows the exposed rock (max(R_min, Kd)) every step")
	f.StringArrayVar(&sources, "source", nil, "point source x,y,radius,rate: cells from the north-west corner, radius in cells, m³/s (repeatable)")
	f.StringVar(&o.Out, "out", "", "eroded heightmap (.png .r16 .tif .obj) with sidecar")
	f.StringVar(&o.OutWater, "out-water", "", "water depth mask, metres")
	f.StringVar(&o.OutSediment, "out-sediment", "", "suspended sediment mask, metres")
	f.StringVar(&o.OutHardness, "out-hardness", "", "hardness mask")
	f.StringVar(&o.Report, "report", "", "JSON report: per-step timings by phase, heights, water budget")
	f.Var(&o.Device, "device", "where to compute: cpu, gpu (any OpenGL 4.3 GPU, a software one too) or auto (a hardware GPU if there is one, else the CPU); without a usable GPU it runs on the CPU and says why")
	f.BoolVarP(&quiet, "quiet", "q", false, "no progress bar or summary")
	return cmd
}
