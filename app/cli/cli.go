// Package cli is Orogen's headless command line: `orogen run`, `build`,
// `erode`, `render`, `analyze`, `invert`, `blend` and the others (main.go
// opens the desktop app when there is no subcommand). Errors go to stderr
// as one line with a non-zero exit, progress goes to stderr (a bar on a
// terminal, a line every few seconds elsewhere), and stdout stays clean.
package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"orogen/app/engines"
	"orogen/app/rasterio"
	"orogen/app/run"
	"orogen/app/safefile"
	"orogen/app/scene"
	"orogen/app/version"
	"orogen/sim/settle"
)

// Main runs the command line with args (without the program name) and
// returns the process exit code.
//
// The first interrupt (Ctrl+C, SIGTERM) cancels the command: a run stops
// after its step, or stops its save, and writes nothing over earlier
// outputs (exit 130, one line saying so). A second one, should the
// command not have stopped yet, removes the temporary files of the save
// under way and exits 130 at once.
func Main(args []string, stdout, stderr io.Writer) int {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sig := make(chan os.Signal, 2)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sig)
	done := make(chan struct{})
	defer close(done)
	go func() {
		for n := 0; ; {
			select {
			case <-done:
				return
			case <-sig:
				if n++; n == 1 {
					cancel()
					continue
				}
				k := safefile.RemoveTemps()
				fmt.Fprintf(stderr, "orogen: interrupted twice: stopped at once (%d temporary files removed); existing outputs are unchanged\n", k)
				os.Exit(130)
			}
		}
	}()
	root := newRoot(stdout, stderr)
	root.SetArgs(args)
	if err := root.ExecuteContext(ctx); err != nil {
		fmt.Fprintln(stderr, "orogen:", err)
		if errors.Is(err, context.Canceled) {
			return 130
		}
		if errors.Is(err, ErrNotConverged) {
			return ExitNotConverged
		}
		return 1
	}
	return 0
}

func newRoot(stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:   "orogen",
		Short: "Terrain from tectonic uplift and fluvial erosion",
		Long: `Orogen grows terrain from tectonic uplift carved by stream-power erosion.

Without a subcommand it opens the desktop app (orogen-app, beside this
binary or on PATH; arguments that start with "-" go to the app). The
subcommands below run headless: they run scenes and projects and write
heightmaps, masks, meshes and reports.`,
		Version:       version.String(),
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetVersionTemplate("orogen {{.Version}}\n")
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.AddCommand(newRunCmd(stderr), newAnalyzeCmd(stdout), newUpliftCmd(stderr), newRenderCmd(stderr), newPresetsCmd(stdout), newEnginesCmd(stdout), newErodeCmd(stderr), newBuildCmd(stderr), newInvertCmd(stderr), newBlendCmd(stdout))
	return root
}

func newRunCmd(stderr io.Writer) *cobra.Command {
	var o run.Options
	var k, m, n, dt, talusDeg, diffusion, umax, target, rain, evap, riverThr, initNoise float64
	var seed uint64
	var quiet bool
	var refine int
	var coefficients func() map[string]float64
	cmd := &cobra.Command{
		Use:   "run",
		Short: "Run a scene headless and write its outputs",
		Long: `Run a scene (a preset name or a scene file) for a number of steps, or until
it converges, and write the heightmap, masks and a JSON report. --project
runs a saved project instead, built and stepped exactly as the desktop app
builds and steps it (the same driver, app/drive): its painted layers,
constraints and geology included.

Heightmaps and masks are written by extension: .png (16-bit), .r16 (raw
little-endian uint16), .tif (32-bit float GeoTIFF, metres), .obj (mesh).
Every raster NAME.ext gets a sidecar NAME.ext.json with its size, cell size
and the metres its 0..65535 range maps to; --vrt adds NAME.r16.vrt beside
.r16 files so GDAL and GIS tools open them. --out-preview writes the 2D
view's picture of the final terrain as an 8-bit PNG.

--target exports the raster outputs for a game engine at --export-size
(resampled with a Catmull-Rom bicubic, corner to corner), in its formats,
with its import scales in the sidecar and on stderr; --tiles splits them.

--out-size N at 2, 4 or 8 times the grid's longer side amplifies --out,
--out-water, --out-rivers (the carved river beds) and --out-rock to N
(sim/amplify: river beds sized by drainage area, ravines following the
flow, lakes flat, strata at the fine cells) instead of resampling them;
with --export-size or --target the amplified terrain is then resampled to
that size. The report's "amplify" section gives the factor and the time.

The outputs and the report are written as one set, beside their final
names, and renamed over them only when all are written: a failure or an
interrupt leaves earlier outputs as they were. Two outputs on one file are
refused before the run. Exit status: 0 done, 1 an error, 3
--until-converged stopped by --steps or --patience before converging (the
outputs hold the last step), 130 interrupted by Ctrl+C (nothing written; a
second Ctrl+C stops a save at once).`,
		Example: `  orogen run --scene default --steps 200 --out terrain.png --out-preview preview.png --report report.json
  orogen run --scene cone --size 1024 --until-converged --out cone.tif
  orogen run --size 1024 --until-converged --out-size 4096 --out h4k.tif
  orogen run --init dem.tif --umax 0 --dt 2e4 --steps 10 --out eroded.tif
  orogen run --project island.orogen.json --steps 200 --out island.tif`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			f := cmd.Flags()
			pick := func(name string, v *float64) *float64 {
				if f.Changed(name) {
					return v
				}
				return nil
			}
			o.K, o.M, o.N, o.Dt = pick("k", &k), pick("m", &m), pick("n", &n), pick("dt", &dt)
			o.Talus, o.Diffusion = pick("talus", &talusDeg), pick("diffusion", &diffusion)
			o.Umax, o.TargetHeight = pick("umax", &umax), pick("target-height", &target)
			o.Rain, o.Evaporation, o.RiverThreshold = pick("rain", &rain), pick("evaporation", &evap), pick("river-threshold", &riverThr)
			o.InitNoise = pick("init-noise", &initNoise)
			if f.Changed("seed") {
				o.Seed = &seed
			}
			if o.Project != "" && !f.Changed("scene") {
				o.Scene = "" // the project's
			}
			if f.Changed("tolerance") && !(o.Tolerance > 0) {
				return fmt.Errorf("--tolerance %g: must be > 0 m/yr", o.Tolerance)
			}
			if !quiet {
				o.Progress, o.Meter = stderr, &progressMeter{w: stderr}
			}
			o.Coefficients = coefficients()
			job, err := run.Prepare(o)
			if err != nil {
				return err
			}
			if dev, why := engines.DeviceOf(job.Engine); why != "" {
				fmt.Fprintln(stderr, "orogen:", why)
			} else if dev != "cpu" && !quiet {
				fmt.Fprintln(stderr, "orogen: grid engine on", dev)
			}
			if err := job.SetRefine(refine); err != nil {
				return err
			}
			rep, err := job.Run(cmd.Context())
			if err != nil {
				return err
			}
			if a := rep.Amplify; a != nil && a.HydroFallback != "" {
				fmt.Fprintln(stderr, "orogen:", a.HydroFallback)
			}
			notConverged := notConverging(o, rep)
			if quiet {
				return notConverged
			}
			if a := rep.Amplify; a != nil && a.HydroDevice != "" {
				fmt.Fprintln(stderr, "orogen: hydraulic pass on", a.HydroDevice)
			}
			conv := ""
			switch {
			case rep.Converged:
				conv = ", converged"
			case rep.Stalled:
				conv = ", not converging"
			case o.UntilConverged:
				conv = ", not converged"
			}
			fmt.Fprintf(stderr, "%s: %d×%d, %d steps (%.3g Myr%s) in %.1f s, max height %.0f m\n",
				rep.Scene, rep.Width, rep.Height, rep.Steps, rep.Years/1e6, conv, rep.WallS, rep.MaxHeight)
			return notConverged
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Scene, "scene", "default", "scene file or preset ("+strings.Join(scene.PresetNames(), ", ")+")")
	f.StringVar(&o.Project, "project", "", "run a saved project (FILE.orogen.json: its scene, Uplift Tree, painted layers, constraints, geology) as the app does")
	f.IntVar(&o.Size, "size", 0, "grid cells per side (default: the scene's); with --init, of the longer side")
	f.Float64Var(&o.Cell, "cell", 0, "cell size in metres (default: domain / size)")
	f.IntVar(&o.Steps, "steps", 0, "number of steps, or the cap with --until-converged (default: the scene's)")
	f.BoolVar(&o.UntilConverged, "until-converged", false, "stop when a step at dt changes no height faster than --tolerance m/yr; until then take longer steps (--fixed-dt: never); --steps caps it (default 100000)")
	f.IntVar(&o.Patience, "patience", settle.DefaultPatience, "with --until-converged, give up after this many steps without halving the fastest change: the terrain is cycling or a wave keeps travelling, not settling")
	f.BoolVar(&o.FixedDt, "fixed-dt", false, "with --until-converged, keep dt fixed at every step (the reference scheme) instead of taking longer steps while the terrain settles")
	f.Float64Var(&o.Tolerance, "tolerance", 0, "convergence tolerance in m/yr (default: the scene's, 1e-6)")
	f.StringVar(&o.Engine, "engine", "", "erosion engine (default: the scene's): "+engineHelp()+"; orogen engines lists them")
	f.IntVar(&o.Samples, "samples", 0, "graph engine: number of Poisson nodes (default: size²/4, one per 4 cells)")
	f.StringVar(&o.Raster, "raster", "", "graph engine: heightmap from the nodes by linear (over the triangles, default) or gaussian (normalized Gaussian kernel, Cordonnier et al. 2016, §6.2) interpolation")
	f.IntVar(&refine, "refine", 0, "graph engine: progressive refinement (Cordonnier et al. 2016, §6.3) in this many stages: start on samples/4^K nodes, split --steps equally, halve the distance and refine after each stage")
	f.Float64Var(&k, "k", 0, "erodibility k, 1/yr (Cordonnier et al. 2016 §6: 5.61e-7)")
	f.Float64Var(&m, "m", 0, "drainage area exponent m (0.5)")
	f.Float64Var(&n, "n", 0, "slope exponent n (1)")
	f.Float64Var(&dt, "dt", 0, "time step in years (2.5e5)")
	f.Float64Var(&talusDeg, "talus", 0, "talus angle in degrees; 0 turns the limit off (30)")
	f.Float64Var(&diffusion, "diffusion", 0, "hillslope diffusivity κ in m²/yr; 0 turns it off")
	f.Uint64Var(&seed, "seed", 0, "random seed (initial noise, talus noise)")
	f.StringVar(&o.Edges, "edges", "", "outlet, closed or natural for every side, or per side: north=natural,west=closed")
	f.StringVar(&o.Uplift, "uplift", "", "uplift map: 8/16-bit grayscale PNG or .r16 scaled to [0, umax]; float .tif in m/yr")
	f.Float64Var(&umax, "umax", 0, "uplift of a white pixel, m/yr (5e-4)")
	f.Float64Var(&target, "target-height", 0, "set k so mountains culminate near this height, metres (h_max ≈ 2.244 u/k)")
	f.StringVar(&o.Init, "init", "", "initial heights: .png or .r16 with its sidecar, or float .tif in metres")
	f.Float64Var(&initNoise, "init-noise", 0, "seeded uniform noise in [0, M) metres added to the initial heights (default: none with --init, else the scene's init_noise_m)")
	f.StringVar(&o.Out, "out", "", "heightmap output (.png .r16 .tif .obj) with sidecar")
	f.StringVar(&o.OutDrainage, "out-drainage", "", "drainage area mask output, m²")
	f.StringVar(&o.OutWater, "out-water", "", "lake water depth mask output, metres (with --rain: the water budget's lakes)")
	f.Float64Var(&rain, "rain", 0, "rain r in m/yr: turns on the lakes' water budget (Błaszczuk et al. 2023): lakes fill, dry out, overflow and merge as rain and evaporation dictate; 0 fills every lake to its pass")
	f.Float64Var(&evap, "evaporation", 0, "evaporation e in m^½/yr: a lake of V m³ loses e·V^(5/6) m³/yr")
	f.Float64Var(&riverThr, "river-threshold", 0, "discharge in m³/yr from which --out-rivers marks a river (default: the rain on 10 km²)")
	f.StringVar(&o.RainMap, "rain-map", "", "rain map: a float .tif in m/yr, or an image scaled to [0, --rain]")
	f.StringVar(&o.OutLakes, "out-lakes", "", "the water budget's lakes as JSON: id, surface_m, volume_m3, area_m2, outlet, members (needs --rain)")
	f.StringVar(&o.OutRivers, "out-rivers", "", "river mask (1 where the discharge reaches --river-threshold, outside lakes; needs --rain)")
	f.StringVar(&o.OutPreview, "out-preview", "", "PNG preview of the final terrain: hillshade, rivers and lakes, one pixel per cell")
	f.StringVar(&o.Geology, "geology", "", "geology JSON (layers, rocks, deformations) replacing the scene's: differential erosion")
	f.StringVar(&o.OutRock, "out-rock", "", "PNG of the exposed layer index per cell (8-bit), with a NAME.json legend: layer, rock, colour (needs a geology or --engine roudier, whose own strata it maps); follows --export-size, by nearest neighbour")
	f.StringVar(&o.OutAlluvium, "out-alluvium", "", "alluvium thickness per cell, m (needs a geology or --engine roudier); follows --export-size")
	f.StringVar(&o.OutSediment, "out-sediment", "", "sediment thickness per cell, m: what deposition laid on the rock (needs params.deposition_g > 0 in the scene, a geology or --engine roudier); follows --export-size")
	f.StringVar(&o.Report, "report", "", "JSON report: per-step timings by phase, convergence, heights")
	f.BoolVar(&o.VRT, "vrt", false, "write a GDAL virtual raster NAME.r16.vrt beside every .r16 output")
	f.StringVar(&o.Target, "target", "", "export the raster outputs for unreal (.png/.r16, 127…8129), unity (.raw, 33…4097), godot (.r16, 33…4097) or generic; the import scales go in the sidecar and to stderr")
	f.BoolVar(&o.StrictTalus, "strict-talus", false, "with --out-size: hold every amplified cell off the river beds to the talus angle (a last pass lowers the crests the amplification sharpened to keep each grid cell's mean height; the means move by up to a few times tan θ·cell/4 there)")
	f.IntVar(&o.OutHydroSteps, "out-hydro-steps", 0, "with --out-size: finish the amplified terrain with this many steps of the hydraulic pass (sim/hydro at the fine resolution, grids up to 4096², 8192² on a GPU): it rounds the ravines and moves the cell means by a few % of the relief")
	f.Var(&o.HydroDevice, "device", "where the grid engine and --out-hydro-steps run: cpu, gpu (any OpenGL 4.3 GPU, a software one too) or auto (a hardware GPU if there is one, else the CPU); without a usable GPU it runs on the CPU and says why")
	f.IntVar(&o.OutSize, "out-size", 0, "amplify the heightmap, water, river and rock outputs to N per side: 2, 4 or 8 times the grid's longer side (sim/amplify: detail that follows the drainage, not a resample); --export-size then resamples the amplified terrain; not with --out-drainage, --out-alluvium or --out-lakes")
	f.IntVar(&o.ExportSize, "export-size", 0, "pixels per side of the raster outputs, resampled bicubically from the grid (default: the grid's; with --target unreal, unity or godot, the smallest size the target takes not below the grid, said on stderr)")
	f.StringVar(&o.Tiles, "tiles", "", "split each raster output into RxC tiles sharing their edges, NAME_x{col}_y{row}.ext (Unreal World Partition); --export-size is the whole")
	f.BoolVarP(&quiet, "quiet", "q", false, "no progress bar or summary")
	coefficients = coefficientFlags(cmd)
	return cmd
}

// ErrNotConverged marks a run --until-converged that stopped without
// converging (the step cap or the patience): the outputs are written, and
// the exit status is ExitNotConverged.
var ErrNotConverged = errors.New("not converged")

// ExitNotConverged is the exit status of a run --until-converged that
// stopped without converging.
const ExitNotConverged = 3

// notConverging returns, for a run --until-converged that stopped without
// converging, the one-line reason wrapping ErrNotConverged; else nil.
func notConverging(o run.Options, rep *run.Report) error {
	switch {
	case !o.UntilConverged || rep.Converged:
		return nil
	case rep.Stalled:
		return fmt.Errorf("%w: after %d steps the terrain still changes %.3g m/yr (--tolerance %g) and has come no closer for %d steps (--patience): a cycle or a travelling wave, not a steady state; the outputs hold the last step",
			ErrNotConverged, rep.Steps, rep.StalledRate, rep.Tolerance, o.Patience)
	default:
		rate := math.NaN()
		if n := len(rep.MaxDh); n > 0 && rep.DtYr[n-1] > 0 {
			rate = rep.MaxDh[n-1] / rep.DtYr[n-1]
		}
		return fmt.Errorf("%w: the %d-step cap (--steps) came first, the terrain still changing %.3g m/yr (--tolerance %g); the outputs hold the last step: raise --steps or --tolerance",
			ErrNotConverged, rep.Steps, rate, rep.Tolerance)
	}
}

func newUpliftCmd(stderr io.Writer) *cobra.Command {
	var sceneName, out string
	var size int
	var umax float64
	cmd := &cobra.Command{
		Use:   "uplift",
		Short: "Rasterize a scene's uplift (image or Uplift Tree) to a file",
		Long: `Rasterize the uplift of a scene, in m/yr, at the requested size and write it
like any heightmap (.png .r16 .tif) with its sidecar. A float .tif keeps the
exact values and feeds back with orogen run --uplift FILE.tif.`,
		Example: `  orogen uplift --scene collision --size 1024 --out uplift.tif`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if out == "" {
				return errors.New("--out is required")
			}
			if err := rasterio.CheckPath(out); err != nil {
				return err
			}
			sc, err := scene.Load(sceneName)
			if err != nil {
				return err
			}
			if size != 0 {
				if size < 3 || size > 16384 {
					return fmt.Errorf("--size %d: must be in [3, 16384]", size)
				}
				sc.Width, sc.Height = size, size
			}
			if cmd.Flags().Changed("umax") {
				sc.Uplift.UmaxMPerYr = umax
			}
			if err := sc.Validate(); err != nil {
				return err
			}
			w, h := sc.Width, sc.Height
			f, err := sc.UpliftField("", w, h, sc.DomainM/float64(max(w, h)), sc.Uplift.UmaxMPerYr)
			if err != nil {
				return err
			}
			if f == nil {
				return fmt.Errorf("scene %s has no uplift (only initial heights)", sc.Name)
			}
			if err := rasterio.Write(out, f); err != nil {
				return err
			}
			lo, hi := f.MinMax()
			fmt.Fprintf(stderr, "%s: %d×%d uplift, %.3g to %.3g m/yr → %s\n", sc.Name, w, h, lo, hi, out)
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&sceneName, "scene", "default", "scene file or preset")
	f.IntVar(&size, "size", 0, "grid cells per side (default: the scene's)")
	f.StringVar(&out, "out", "", "output file (.png .r16 .tif)")
	f.Float64Var(&umax, "umax", 0, "uplift of a value of 1, m/yr (default: the scene's)")
	return cmd
}

func newPresetsCmd(stdout io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "presets",
		Short: "List the embedded scenes",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			for _, name := range scene.PresetNames() {
				sc, err := scene.Load(name)
				if err != nil {
					return err
				}
				fmt.Fprintf(stdout, "%-10s %s\n", name, sc.Description)
			}
			return nil
		},
	}
}

func newEnginesCmd(stdout io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "engines",
		Short: "List the erosion engines a scene may run on",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			for _, k := range engines.Kinds() {
				e := engines.Must(k)
				fmt.Fprintf(stdout, "%-8s %s: %s\n", k, e.Label, e.Help)
				reads := make([]string, len(e.Groups))
				for i, g := range e.Groups {
					reads[i] = engines.GroupLabel(g)
				}
				fmt.Fprintf(stdout, "%-8s reads: %s\n", "", strings.Join(reads, "; "))
			}
			return nil
		},
	}
}

// engineHelp lists the registry's engines for --engine: each name with
// its label.
func engineHelp() string {
	var b strings.Builder
	for i, k := range engines.Kinds() {
		e := engines.Must(k)
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "%s (%s)", k, e.Label)
	}
	return b.String()
}
