// Package build runs a project's export profile headless: it simulates
// the project (the engine to convergence or to the scene's step count),
// then writes every output of the profile (app/export) into an output
// folder, and a JSON build report listing each file with its SHA-256.
// It is `orogen build` and the app's File → Build.
//
// Determinism: the engines and the exporters give the same bits whatever
// GOMAXPROCS, so a project builds to the same bytes on any machine and
// number of cores (the report holds no times for that reason).
//
// Failures: every file is staged in one safefile.Set and the set is
// committed at the end (the old report removed first, the new one renamed
// last), so a failed build (a bad path, a full disk, a cancel) leaves the
// folder's previous build as it was, and the error names the output that
// failed; a build killed while saving leaves temporary files that the
// next build removes (safefile.CleanDir). Everything is checked before
// the simulation starts: targets, sizes, tilings, the folders, and that
// no two outputs (tiles and sidecars included) write one file.
//
// Geology: a project's geology runs in the simulation, and its exposed
// rock and alluvium are the rock and sediment inputs of masks and splat
// rules (export.InputsOf).
//
// Amplification: an output larger than the simulated grid is made from
// the terrain amplified by sim/amplify (detail that follows the drainage,
// Cordonnier et al. 2016, §6.2), not resampled: at the smallest factor of
// 2, 4 or 8 that reaches its size (8 beyond), routed again at the fine
// resolution for its masks, splat and flow maps, then resampled to the
// exact size. Each factor is amplified once per build and seeded by the
// scene's seed; the report gives the factor per output. A profile's
// hydro_steps finish each amplified terrain with that many steps of the
// hydraulic pass (sim/hydro) on the device its "device" names (cpu when
// it names none; Options.Device, `orogen build --device` and the app's
// Settings override it; app/compute falls back to the CPU with a line
// saying why); the report names the device per output. The CPU and the
// GPU give different bits (float order): a build is reproducible on one
// device.
package build

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"time"

	"orogen/app/compute"
	"orogen/app/doc"
	"orogen/app/engines"
	"orogen/app/export"
	"orogen/app/project"
	"orogen/app/rasterio"
	"orogen/app/run"
	"orogen/app/safefile"
	"orogen/app/version"
	"orogen/sim/amplify"
	"orogen/sim/engine"
	"orogen/viewer"
)

// ReportName is the build report's file name in the output folder.
const ReportName = "build-report.json"

// Options are a build's output folder, project name and progress.
type Options struct {
	// OutDir is the output folder; it is created if missing.
	OutDir string
	// Name replaces "{project}" in output paths.
	Name string
	// Progress, if set, is called on the build's goroutine with the
	// fraction done (0 to 1) and what is under way.
	Progress func(frac float64, what string)
	// Log, if set, receives a line per output (and the engine scales),
	// and one per hydraulic pass naming its device.
	Log io.Writer
	// Device, if not nil, is where the build computes instead of the
	// profile's "device" (the CPU when it names none): the grid engine
	// (gpu/splgpu, which falls back to the CPU with a line to Log saying
	// why) and the hydraulic pass of amplified outputs.
	Device *compute.Device
	// Hydro, if set, is called on the build's goroutine after each
	// hydraulic pass.
	Hydro func(HydroRun)
}

// HydroRun is one hydraulic pass of a build: the amplification factor it
// finished, its steps, where it ran (Fallback: why on the CPU) and how
// long it took.
type HydroRun struct {
	Factor, Steps    int
	Device, Fallback string
	Seconds          float64
}

// Report is the JSON build report.
type Report struct {
	Project   string         `json:"project"`
	Orogen    string         `json:"orogen"` // the version that built it
	Grid      [2]int         `json:"grid"`
	CellM     float64        `json:"cell_size_m"`
	Engine    string         `json:"engine"`
	Steps     int            `json:"steps"`
	Converged bool           `json:"converged"`
	Outputs   []OutputReport `json:"outputs"`
}

// OutputReport is one output of the profile and the files it made.
type OutputReport struct {
	Kind   string               `json:"kind"`
	Mask   string               `json:"mask,omitempty"`
	Path   string               `json:"path"`
	Target string               `json:"target,omitempty"`
	Size   [2]int               `json:"size"`
	Engine *rasterio.EngineMeta `json:"engine,omitempty"`
	// Amplified is the factor of the amplified terrain the output was
	// made from (0: the simulated grid's).
	Amplified int `json:"amplified,omitempty"`
	// HydroSteps and HydroDevice are the hydraulic pass that finished the
	// amplified terrain and where it ran ("cpu" or the GPU's report), and
	// HydroFallback why a gpu or auto pass ran on the CPU.
	HydroSteps    int    `json:"hydro_steps,omitempty"`
	HydroDevice   string `json:"hydro_device,omitempty"`
	HydroFallback string `json:"hydro_fallback,omitempty"`
	Files         []File `json:"files"`
}

// File is one file written, relative to the output folder (slashes).
type File struct {
	Path   string `json:"path"`
	Bytes  int64  `json:"bytes"`
	SHA256 string `json:"sha256"`
}

// Name returns the project name of a project file path: its base name
// without .orogen.json.
func Name(path string) string {
	b := filepath.Base(path)
	if strings.HasSuffix(strings.ToLower(b), project.Ext) {
		return b[:len(b)-len(project.Ext)]
	}
	return strings.TrimSuffix(b, filepath.Ext(b))
}

// Check returns an error naming the first output of p's profile that
// cannot be built into o.OutDir: no profile, a bad one, a folder that
// cannot be made. It creates the folders the outputs need.
func Check(p *project.Project, o Options) error {
	if p.Export == nil {
		return errors.New("build: the project has no export profile: add one (File → Export profile… in the app, or an \"export\" key; orogen build --preset NAME uses a ready-made one)")
	}
	if err := p.Export.Validate(); err != nil {
		return fmt.Errorf("build: %w", err)
	}
	if o.OutDir == "" {
		return errors.New("build: no output folder")
	}
	sc := p.Scene
	dev, err := buildDevice(p.Export, o)
	if err != nil {
		return err
	}
	var claims export.Claims
	report := filepath.Join(o.OutDir, ReportName)
	if err := claims.Claim("the build report", report); err != nil {
		return err
	}
	amp := 1 // the largest amplification an output asks for
	for i, out := range p.Export.Outputs {
		path := filepath.Join(o.OutDir, filepath.FromSlash(out.FileName(o.Name)))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return fmt.Errorf("build: output %d (%s): cannot make its folder: %w", i+1, out.Path, safefile.Cause(err))
		}
		files := []string{path}
		side := out.Size
		switch out.Kind {
		case "preview", "mesh":
			if err := safefile.CheckDir(path); err != nil {
				return fmt.Errorf("build: output %d: %w", i+1, err)
			}
		default:
			pl, err := out.Plan(path, sc.Width, sc.Height)
			if err != nil {
				return fmt.Errorf("build: output %d (%s): %w", i+1, out.Path, err)
			}
			files = pl.AllFiles(path)
			side = max(pl.W, pl.H)
		}
		if f := ampFactor(side, max(sc.Width, sc.Height)); f > 0 && p.Export.HydroSteps > 0 {
			cells := f * sc.Width * f * sc.Height
			if cells > amplify.MaxHydroPassCells || dev == compute.CPU && cells > cpuHydroCells {
				return fmt.Errorf("build: output %d (%s): the hydraulic pass (hydro_steps) on %d×%d amplified cells: the CPU takes up to 4096², a GPU (device gpu or auto) 8192²: give a smaller size or drop hydro_steps",
					i+1, out.Path, f*sc.Width, f*sc.Height)
			}
		}
		amp = max(amp, ampFactor(side, max(sc.Width, sc.Height)))
		if err := claims.Claim(fmt.Sprintf("output %d (%s)", i+1, out.FileName(o.Name)), files...); err != nil {
			return fmt.Errorf("build: %w", err)
		}
	}
	if err := safefile.CheckDir(report); err != nil {
		return err
	}
	// Before anything is simulated: refuse a build that cannot fit.
	ep, err := sc.EngineParams()
	if err != nil {
		return fmt.Errorf("build: %w", err)
	}
	ms := engines.Spec{Kind: sc.Engine, W: sc.Width, H: sc.Height, Params: ep, Samples: sc.Samples}
	if err := run.CheckMemory(ms, amp, "build", "a grid of %d cells a side (the scene's width and height)"); err != nil {
		return fmt.Errorf("build: %w", err)
	}
	return nil
}

// Build simulates p and writes its profile's outputs and the build report
// into o.OutDir. ctx cancels it between steps and between outputs (and
// tiles). It returns the report, also saved as ReportName.
func Build(ctx context.Context, p *project.Project, o Options) (*Report, error) {
	if err := Check(p, o); err != nil {
		return nil, err
	}
	// The temporary files of a build that was killed while saving.
	for _, f := range safefile.CleanDir(o.OutDir) {
		if o.Log != nil {
			fmt.Fprintf(o.Log, "removed %s, left by a build that did not finish\n", f)
		}
	}
	progress := func(f float64, what string) {
		if o.Progress != nil {
			o.Progress(f, what)
		}
	}
	d, err := doc.New(p)
	if err != nil {
		return nil, fmt.Errorf("build: %w", err)
	}
	sc := d.Scene()
	spec, err := d.EngineSpec()
	if err != nil {
		return nil, fmt.Errorf("build: %w", err)
	}
	dev, err := buildDevice(p.Export, o)
	if err != nil {
		return nil, err
	}
	spec.Device = dev
	// The simulation is 70% of the bar, the outputs the rest.
	const simShare = 0.7
	var job *run.Job
	ro := run.Options{}
	ro.OnStep = func(st engine.StepStats) {
		progress(simShare*float64(st.Step)/float64(max(job.Steps, 1)), fmt.Sprintf("simulating: step %d of %d", st.Step, job.Steps))
	}
	if job, err = run.NewJob(sc, spec, ro); err != nil {
		return nil, fmt.Errorf("build: %w", err)
	}
	if dev, why := engines.DeviceOf(job.Engine); o.Log != nil && (why != "" || dev != "cpu") {
		if why == "" {
			why = "grid engine on " + dev
		}
		fmt.Fprintln(o.Log, why)
	}
	progress(0, "simulating")
	rep, err := job.Run(ctx)
	if err != nil {
		return nil, fmt.Errorf("build: simulation: %w", err)
	}
	s := job.Snapshot()
	t := &terrains{s: s, height: s.Height, in: export.InputsOf(s), seed: sc.Seed, hydroSteps: p.Export.HydroSteps, log: o.Log, hydro: o.Hydro, device: dev}
	defer t.release()

	r := &Report{Project: o.Name, Orogen: version.String(), Grid: [2]int{s.W, s.H}, CellM: s.Cell, Engine: spec.Label(),
		Steps: rep.Steps, Converged: rep.Converged}
	// Every file is staged in one set and committed at the end, the
	// report last: a build that fails or is interrupted while writing
	// leaves the folder's previous build as it was.
	set := &safefile.Set{Cancel: ctx.Err}
	defer set.Abort()
	n := len(p.Export.Outputs)
	for i, out := range p.Export.Outputs {
		if err := ctx.Err(); err != nil {
			return r, err
		}
		rel := out.FileName(o.Name)
		progress(simShare+(1-simShare)*float64(i)/float64(n), "writing "+rel)
		or, err := writeOutput(ctx, &out, filepath.Join(o.OutDir, filepath.FromSlash(rel)), t, o, set)
		if err != nil {
			return r, fmt.Errorf("build: output %d (%s): %w", i+1, rel, err)
		}
		if or.Files, err = checksums(o.OutDir, or.Files, set); err != nil {
			return r, fmt.Errorf("build: %w", err)
		}
		or.Path = filepath.ToSlash(rel)
		r.Outputs = append(r.Outputs, *or)
	}
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return r, fmt.Errorf("build: report: %w", err)
	}
	report := filepath.Join(o.OutDir, ReportName)
	if err := set.Write(safefile.File{Path: report, Fill: func(w io.Writer) error {
		_, err := w.Write(append(b, '\n'))
		return err
	}}); err != nil {
		return r, fmt.Errorf("build: report: %w", err)
	}
	// The old report goes first: should the commit be cut short between
	// two renames, no report lists checksums the folder no longer has.
	if err := os.Remove(report); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return r, fmt.Errorf("build: report: %w", safefile.Cause(err))
	}
	if err := set.Commit(); err != nil {
		return r, fmt.Errorf("build: %w", err)
	}
	progress(1, "done")
	return r, nil
}

// cpuHydroCells is the most fine cells sim/amplify's hydraulic pass takes
// on the CPU.
const cpuHydroCells = 4096 * 4096

// buildDevice returns where the build computes (the grid engine and the
// profile's hydraulic pass): o.Device, else the profile's device, else the
// CPU.
func buildDevice(p *export.Profile, o Options) (compute.Device, error) {
	if o.Device != nil {
		return *o.Device, nil
	}
	if p.Device == "" {
		return compute.CPU, nil
	}
	d, err := compute.ParseDevice(p.Device)
	if err != nil {
		return 0, fmt.Errorf("build: export profile \"device\" %q: use cpu, gpu or auto", p.Device)
	}
	return d, nil
}

// writeOutput writes one output to path and lists its files (full paths
// in Files[i].Path, checksums to come).
func writeOutput(ctx context.Context, out *export.Output, path string, t *terrains, o Options, set *safefile.Set) (*OutputReport, error) {
	or := &OutputReport{Kind: out.Kind, Mask: out.Mask, Target: out.Target}
	var files []string
	// The terrain at the output's size: the simulated grid's, or amplified.
	side := out.Size
	var p *export.Plan
	if out.Kind != "preview" && out.Kind != "mesh" {
		var err error
		if p, err = out.Plan(path, t.s.W, t.s.H); err != nil {
			return nil, err
		}
		p.Cancel, p.Set = ctx.Err, set
		side = max(p.W, p.H)
	}
	routed := out.Kind != "heightmap" && out.Kind != "mesh"
	s, height, in, factor, err := t.at(ctx, side, routed)
	if err != nil {
		return nil, err
	}
	or.Amplified = factor
	if ft := t.fine[factor]; factor > 0 && ft != nil && ft.hydroDevice != "" {
		or.HydroSteps, or.HydroDevice, or.HydroFallback = t.hydroSteps, ft.hydroDevice, ft.hydroFallback
	}
	switch out.Kind {
	case "preview":
		img := viewer.Relief(nil, s, viewer.DefaultOptions())
		if out.Size > 0 {
			w := out.Size
			h := max(1, int(float64(w)*float64(s.H)/float64(s.W)+0.5))
			img = viewer.Resize(image.NewRGBA(image.Rect(0, 0, w, h)), img)
		}
		if err := run.WritePNGIn(set, path, img); err != nil {
			return nil, err
		}
		b := img.Bounds()
		or.Size, files = [2]int{b.Dx(), b.Dy()}, []string{path}
	case "mesh":
		f := s.Field(height)
		if out.Size > 0 && out.Size != s.W {
			h := max(2, int(float64(out.Size)*float64(s.H)/float64(s.W)+0.5))
			f = export.Resample(f, out.Size, h)
		}
		if err := rasterio.WriteWith(path, f, rasterio.Options{Set: set}); err != nil {
			return nil, err
		}
		or.Size, files = [2]int{f.W, f.H}, []string{path}
	default:
		switch out.Kind {
		case "heightmap":
			files, or.Engine, err = p.Write(path, s.Field(height))
		case "mask":
			files, err = p.WriteMask(path, out.Mask, in)
		case "splat":
			rules := out.Rules
			if rules == nil {
				rules = export.DefaultRules()
			}
			files, err = p.WriteSplat(path, in, rules)
		case "flow":
			files, err = p.WriteFlow(path, in)
		}
		if err != nil {
			return nil, err
		}
		or.Size = [2]int{p.W, p.H}
		if o.Log != nil {
			fmt.Fprintf(o.Log, "%s: %s %d×%d in %d file(s)\n", filepath.Base(path), out.Kind, p.W, p.H, len(files))
			if or.Engine != nil {
				fmt.Fprintf(o.Log, "  %s\n", export.Describe(or.Engine, p.TileW))
			}
		}
	}
	for _, f := range files {
		or.Files = append(or.Files, File{Path: f})
		for _, extra := range []string{rasterio.SidecarPath(f), rasterio.VRTPath(f)} {
			if _, _, ok := set.Sum(extra); ok && (extra != rasterio.VRTPath(f) || out.VRT) {
				or.Files = append(or.Files, File{Path: extra})
			}
		}
	}
	return or, nil
}

// checksums fills the size and SHA-256 of every file, as staged in set,
// and makes its path relative to dir, with slashes.
func checksums(dir string, files []File, set *safefile.Set) ([]File, error) {
	for i, f := range files {
		n, sum, ok := set.Sum(f.Path)
		if !ok {
			return nil, fmt.Errorf("checksum: %s was not written", f.Path)
		}
		rel, err := filepath.Rel(dir, f.Path)
		if err != nil {
			rel = f.Path
		}
		files[i] = File{Path: filepath.ToSlash(rel), Bytes: n, SHA256: sum}
	}
	return files, nil
}

// terrains are the build's terrain at the simulated grid and amplified,
// each factor amplified once, on demand, and routed at the fine
// resolution (with its export inputs) only for the outputs that read
// drainage or masks.
type terrains struct {
	s      *engine.Snapshot
	height []float32 // the grid's heights as exported (the graph's raster)
	in     *export.Inputs
	seed   uint64
	fine   map[int]*fineTerrain
	// hydroSteps and device are the hydraulic pass that finishes each
	// amplified terrain; log gets a line per pass.
	hydroSteps int
	device     compute.Device
	log        io.Writer
	hydro      func(HydroRun)
	// gcPercent is the collector's setting before the first
	// amplification, put back by release (0: untouched).
	gcPercent int
}

// release lets the amplified terrains go and puts the collector's setting
// back.
func (t *terrains) release() {
	t.fine = nil
	if t.gcPercent != 0 {
		debug.SetGCPercent(t.gcPercent)
		t.gcPercent = 0
	}
}

type fineTerrain struct {
	res *amplify.Result
	// hydroDevice is where its hydraulic pass ran, "" without one, and
	// hydroFallback why it ran on the CPU.
	hydroDevice, hydroFallback string
	plain                      *engine.Snapshot // heights, water, rock: not routed
	routed                     *engine.Snapshot // with the fine drainage
	in                         *export.Inputs   // of routed
}

// ampFactor is the factor of sim/amplify that makes an output of side
// pixels from a grid whose longer side is n: 0 when the grid's own size
// covers it, else the smallest of 2, 4, 8 reaching it (8 beyond).
func ampFactor(side, n int) int {
	if side <= n {
		return 0
	}
	for _, f := range []int{2, 4} {
		if f*n >= side {
			return f
		}
	}
	return 8
}

// at returns the terrain an output of side pixels (0: the grid's) is made
// from: the snapshot, its heights, its export inputs, and the factor it
// was amplified by (0: not). Amplified, the snapshot is routed and the
// inputs made only when routed is true (nil inputs otherwise).
func (t *terrains) at(ctx context.Context, side int, routed bool) (*engine.Snapshot, []float32, *export.Inputs, int, error) {
	f := ampFactor(side, max(t.s.W, t.s.H))
	if f == 0 {
		return t.s, t.height, t.in, 0, nil
	}
	c := *t.s
	c.Height = t.height
	ft := t.fine[f]
	if ft == nil {
		o := amplify.DefaultOptions(f)
		o.Seed = t.seed
		o.HydroSteps = t.hydroSteps
		var dev, fallback string
		var took time.Duration
		if o.HydroSteps > 0 {
			// On the CPU too, for the time (sim/hydro either way: the
			// same bits as amplify's own pass).
			dev = "cpu"
			o.HydroPass = &compute.Pass{D: t.device, Note: func(s string) { fallback = s }, Used: func(s string) { dev = s },
				Done: func(_ string, _ int, d time.Duration) { took += d }}
		}
		r, err := amplify.Amplify(ctx, &c, o)
		if err != nil {
			return nil, nil, nil, 0, fmt.Errorf("amplifying ×%d: %w", f, err)
		}
		plain := &engine.Snapshot{Kind: c.Kind, W: r.W, H: r.H, Cell: r.Cell, Step: c.Step, Time: c.Time, Stats: c.Stats, Param: c.Param,
			Height: r.Height, Water: r.Water}
		if r.Rock != nil && c.Geology != nil {
			plain.Rock, plain.Geology = r.Rock, c.Geology
		}
		if t.gcPercent == 0 {
			// The amplified terrain keeps a live heap of about a
			// gigabyte at 4096², and by default the collector lets the
			// outputs' garbage (resampled tiles, encoder buffers) grow as
			// large again before it runs: until release, it runs at
			// half that (BenchmarkUnreal4033's peak memory).
			t.gcPercent = debug.SetGCPercent(50)
		}
		ft = &fineTerrain{res: r, plain: plain, hydroDevice: dev, hydroFallback: fallback}
		if dev != "" && t.log != nil {
			if fallback != "" {
				fmt.Fprintln(t.log, fallback)
			}
			fmt.Fprintf(t.log, "×%d: hydraulic pass (%d steps) on %s\n", f, o.HydroSteps, dev)
		}
		if dev != "" && t.hydro != nil {
			t.hydro(HydroRun{Factor: f, Steps: o.HydroSteps, Device: dev, Fallback: fallback, Seconds: took.Seconds()})
		}
		r.River = nil // no output reads the beds: let them go
		// The amplification's working arrays are garbage now: collect
		// them before the fine routing and the exports allocate theirs,
		// so the heap does not grow to twice its live size on top of
		// them (BenchmarkUnreal4033's peak memory).
		runtime.GC()
		if t.fine == nil {
			t.fine = map[int]*fineTerrain{}
		}
		t.fine[f] = ft
	}
	if !routed {
		return ft.plain, ft.plain.Height, nil, f, nil
	}
	if ft.routed == nil {
		fs, err := ft.res.Snapshot(ctx, &c, c.Param.Edges, nil)
		if err != nil {
			return nil, nil, nil, 0, fmt.Errorf("amplifying ×%d: %w", f, err)
		}
		runtime.GC() // the routing's graph
		ft.routed, ft.in = fs, export.InputsOf(fs)
	}
	return ft.routed, ft.routed.Height, ft.in, f, nil
}
