package cli

import (
	"errors"
	"fmt"
	"image"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"orogen/app/engines"
	"orogen/app/rasterio"
	"orogen/app/run"
	"orogen/sim/engine"
	"orogen/viewer"
)

// maxPictureSide bounds --size: 16384² RGBA is 1 GiB.
const maxPictureSide = 16384

// Defaults of the 3D picture.
const (
	default3DWidth, default3DHeight = 800, 600
)

// flags3D are the flags that only --view 3d reads.
var flags3D = []string{"yaw", "pitch", "zoom", "shadows", "wireframe"}

func newRenderCmd(stderr io.Writer) *cobra.Command {
	var o run.Options
	var view, size, out, overlay, color string
	var seed uint64
	var quiet bool
	var yaw, pitch, zoom float64
	var shadows, wireframe bool
	vo := viewer.DefaultOptions()
	cmd := &cobra.Command{
		Use:   "render",
		Short: "Run a scene headless and render a picture of the result",
		Long: `Run a scene (a preset name or a scene file) for a number of steps and render
the final terrain as the app shows it.

--view 2d (the default) is the 2D map: a hillshade with a hypsometric tint,
rivers and lakes, and optionally an overlay, rendered at one pixel per cell
and then scaled to fit --size (letterboxed).

--view 3d is the 3D view: the lit heightfield (a mesh of at most 512² vertices,
larger grids decimated) seen from a camera fitted to the terrain, looking from
--yaw degrees clockwise from north and --pitch degrees above the horizon, with
rivers, lakes at their spill level, optional cast shadows and a wireframe. It
is drawn by the software rasterizer of package viewer (viewer.Render3D: the
same back-to-front triangles the app gives Ebiten, filled in pure Go), so it
needs no display or GPU. --overlay uplift tints it with the uplift; the other
overlays are 2D only (--color slope colours the 3D view by slope).

--size is the picture's size (default: one pixel per cell in 2D, 800x600 in
3D); --grid sets the simulation's.

--init FILE renders a heightmap (a .png or .r16 with its sidecar, or a
float .tif in metres) as it is, without simulating: a real DEM drawn as
Orogen's terrains are. --grid then resamples it to that many cells on its
longer side over the same extent (so two pictures can share a scale), and
--cell gives the cell size of a file without one.`,
		Example: `  orogen render --scene default --steps 200 --view 2d --size 1600x1200 --out map.png
  orogen render --scene cone --grid 256 --steps 50 --overlay slope --out slope.png
  orogen render --scene default --steps 200 --view 3d --size 1280x720 --yaw 220 --pitch 30 --exaggeration 2 --shadows --out view.png
  orogen render --scene default --until-converged --steps 5000 --rivers=false --lakes=false --size 320 --out docs/img/default-hillshade.png
  orogen render --init app/cli/testdata/bigtujunga.tif --cell 90 --grid 147 --rivers=false --lakes=false --out docs/img/bigtujunga-hillshade.png`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			f := cmd.Flags()
			switch view {
			case "2d":
				for _, name := range flags3D {
					if f.Changed(name) {
						return fmt.Errorf("--%s applies to --view 3d only", name)
					}
				}
			case "3d":
			default:
				return fmt.Errorf("--view %q: want 2d or 3d", view)
			}
			if out == "" {
				return errors.New("--out is required (a .png file)")
			}
			if err := run.CheckPNGPath(out); err != nil {
				return err
			}
			w, h, err := parseSize(size)
			if err != nil {
				return err
			}
			if vo.Overlay, err = viewer.ParseOverlay(overlay); err != nil {
				return fmt.Errorf("--overlay: %w", err)
			}
			var o3 viewer.Options3D
			if view == "3d" {
				if o3, err = options3D(f.Changed, vo, color, shadows, wireframe); err != nil {
					return err
				}
				if err := checkCamera(yaw, pitch, zoom); err != nil {
					return err
				}
				if w == 0 {
					w, h = default3DWidth, default3DHeight
				}
			} else {
				switch color {
				case "height":
				case "rock":
					vo.Rock = true
				default:
					return fmt.Errorf("--color %q: the 2d view is coloured by height or rock (--overlay slope shows slopes)", color)
				}
				if err := vo.Validate(); err != nil {
					return fmt.Errorf("picture options: %w", err)
				}
			}
			if f.Changed("seed") {
				o.Seed = &seed
			}
			if o.Init != "" {
				for _, name := range []string{"steps", "until-converged", "engine", "samples"} {
					if f.Changed(name) {
						return fmt.Errorf("--%s: --init renders the heightmap as it is, without simulating", name)
					}
				}
				var none float64
				o.Umax = &none
			}
			if f.Changed("cell") && !(o.Cell > 0) {
				return fmt.Errorf("--cell %g: want a positive cell size in metres", o.Cell)
			}
			if o.Init != "" && o.Cell > 0 && o.Size > 0 {
				// --cell is the file's; the grid's cells cover the same extent.
				hf, err := rasterio.ReadHeights(o.Init)
				if err != nil {
					return err
				}
				o.Cell *= float64(max(hf.W, hf.H)) / float64(o.Size)
			}
			if !quiet {
				o.Progress, o.Meter = stderr, &progressMeter{w: stderr}
			}
			if f.Changed("grid") && (o.Size < 3 || o.Size > 16384) {
				return fmt.Errorf("--grid %d: must be in [3, 16384] cells per side (--size is the picture's)", o.Size)
			}
			job, err := run.Prepare(o)
			if err != nil {
				return err
			}
			if _, own := job.Engine.(engine.Stratified); color == "rock" && job.Scene.Geology == nil && !own {
				return errors.New("--color rock colours the exposed rock, and the scene has no geology: give --geology FILE.json, a scene with a geology or --engine roudier")
			}
			var rep *run.Report
			if o.Init == "" {
				if rep, err = job.Run(cmd.Context()); err != nil {
					return err
				}
			}
			s := job.Snapshot()
			var img *image.RGBA
			if view == "3d" {
				cam := viewer.FitCameraAspect(s, o3.Exaggeration, yaw, pitch, float64(w)/float64(h)).Zoom(zoom)
				img = viewer.Render3D(image.NewRGBA(image.Rect(0, 0, w, h)), s, cam, o3)
			} else {
				img = viewer.Relief(nil, s, vo)
				if w > 0 {
					img = viewer.Resize(image.NewRGBA(image.Rect(0, 0, w, h)), img)
				}
			}
			if err := run.WritePNG(out, img); err != nil {
				return err
			}
			if !quiet {
				b := img.Bounds()
				if rep == nil {
					fmt.Fprintf(stderr, "%s: %d×%d cells of %.4g m → %s (%d×%d, %s)\n", o.Init, s.W, s.H, s.Cell, out, b.Dx(), b.Dy(), view)
				} else {
					fmt.Fprintf(stderr, "%s: %d×%d, %d steps (%.3g Myr) → %s (%d×%d, %s)\n",
						rep.Scene, rep.Width, rep.Height, rep.Steps, rep.Years/1e6, out, b.Dx(), b.Dy(), view)
				}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Scene, "scene", "default", "scene file or preset")
	f.IntVar(&o.Size, "grid", 0, "grid cells per side (default: the scene's)")
	f.IntVar(&o.Steps, "steps", 0, "number of steps (default: the scene's)")
	f.BoolVar(&o.UntilConverged, "until-converged", false, "run until the terrain settles (--steps caps it), as orogen run --until-converged")
	f.StringVar(&o.Init, "init", "", "render this heightmap (.png or .r16 with its sidecar, or float .tif in metres) as it is, without simulating")
	f.Float64Var(&o.Cell, "cell", 0, "cell size in metres (default: the scene's domain / --grid, or the --init file's)")
	f.StringVar(&o.Engine, "engine", "", "erosion engine ("+engines.Names()+"; default: the scene's); graph scenes draw their stream arcs as rivers")
	f.IntVar(&o.Samples, "samples", 0, "graph engine: number of Poisson nodes (default: the scene's, or size²/4)")
	f.Uint64Var(&seed, "seed", 0, "random seed (default: the scene's)")
	f.StringVar(&view, "view", "2d", "2d (relief map) or 3d (lit heightfield, software-rendered)")
	f.StringVar(&size, "size", "", "picture size WxH, or N for N×N (default: one pixel per cell in 2d, 800x600 in 3d)")
	f.StringVar(&out, "out", "", "output picture (.png)")
	f.StringVar(&overlay, "overlay", "none", "overlay: "+strings.Join(viewer.OverlayNames(), ", ")+" (3d: none or uplift)")
	f.Float64Var(&vo.OverlayAlpha, "overlay-alpha", vo.OverlayAlpha, "overlay opacity in [0, 1]")
	f.BoolVar(&vo.Rivers, "rivers", vo.Rivers, "draw rivers (--rivers=false to hide)")
	f.Float64Var(&vo.RiverThresholdM2, "river-threshold", vo.RiverThresholdM2, "drainage area where rivers start, m²")
	f.BoolVar(&vo.Lakes, "lakes", vo.Lakes, "draw lakes (--lakes=false to hide)")
	f.Float64Var(&vo.Exaggeration, "exaggeration", vo.Exaggeration, "vertical exaggeration (2d: of the hillshade; 3d: of the heightfield)")
	f.Float64Var(&vo.LightAzimuthDeg, "light-azimuth", vo.LightAzimuthDeg, "light (sun) azimuth, degrees clockwise from north")
	f.Float64Var(&vo.LightAltitudeDeg, "light-altitude", vo.LightAltitudeDeg, "light (sun) altitude above the horizon, degrees (3d default 35)")
	f.Float64Var(&yaw, "yaw", viewer.DefaultYawDeg, "3d: camera direction, degrees clockwise from north (the side it looks from)")
	f.Float64Var(&pitch, "pitch", viewer.DefaultPitchDeg, "3d: camera height, degrees above the horizon, in [5, 89]")
	f.Float64Var(&zoom, "zoom", 1, "3d: magnification over the camera fitted to the whole terrain (2 = twice as close)")
	f.StringVar(&color, "color", "height", "colour by "+strings.Join(viewer.ColorModeNames(), ", ")+" (2d: height or rock; rock needs a geology)")
	f.StringVar(&o.Geology, "geology", "", "geology JSON (layers, rocks, deformations) replacing the scene's")
	f.BoolVar(&shadows, "shadows", false, "3d: cast shadows")
	f.BoolVar(&wireframe, "wireframe", false, "3d: draw the mesh edges")
	f.BoolVarP(&quiet, "quiet", "q", false, "no progress bar or summary")
	return cmd
}

// options3D returns the 3D view's options from the render flags: the ones
// shared with the 2D view (rivers, lakes, exaggeration, light) where given,
// the 3D defaults otherwise.
func options3D(changed func(flag string) bool, vo viewer.Options, color string, shadows, wireframe bool) (viewer.Options3D, error) {
	o := viewer.DefaultOptions3D()
	var err error
	if o.Color, err = viewer.ParseColorMode(color); err != nil {
		return o, fmt.Errorf("--color: %w", err)
	}
	switch vo.Overlay {
	case viewer.OverlayNone:
	case viewer.OverlayUplift:
		o.UpliftAlpha = vo.OverlayAlpha
	default:
		return o, fmt.Errorf("--overlay %s: the 3d view shows only the uplift overlay (use --color slope for slopes, or --view 2d)", vo.Overlay)
	}
	o.Shadows, o.Wireframe = shadows, wireframe
	o.Rivers, o.RiverThresholdM2, o.Lakes = vo.Rivers, vo.RiverThresholdM2, vo.Lakes
	o.Exaggeration = vo.Exaggeration
	if changed("light-azimuth") {
		o.SunAzimuthDeg = vo.LightAzimuthDeg
	}
	if changed("light-altitude") {
		o.SunElevationDeg = vo.LightAltitudeDeg
	}
	if err := o.Validate(); err != nil {
		return o, fmt.Errorf("picture options: %w", err)
	}
	return o, nil
}

// checkCamera checks the 3D camera flags.
func checkCamera(yaw, pitch, zoom float64) error {
	if math.IsNaN(yaw) || math.IsInf(yaw, 0) {
		return fmt.Errorf("--yaw %g: want a finite angle in degrees", yaw)
	}
	if !(pitch >= viewer.MinPitchDeg && pitch <= viewer.MaxPitchDeg) {
		return fmt.Errorf("--pitch %g: want an angle in [%d, %d] degrees above the horizon", pitch, viewer.MinPitchDeg, viewer.MaxPitchDeg)
	}
	if !(zoom >= 1e-3 && zoom <= 1e4) {
		return fmt.Errorf("--zoom %g: want a factor in [0.001, 10000]", zoom)
	}
	return nil
}

// parseSize parses --size: "WxH" (or "W×H") or "N" for N×N; "" is (0, 0),
// the map's own size.
func parseSize(s string) (w, h int, err error) {
	if s == "" {
		return 0, 0, nil
	}
	bad := func() (int, int, error) {
		return 0, 0, fmt.Errorf("--size %q: want WxH (like 1600x1200) or N, sides in [1, %d] pixels", s, maxPictureSide)
	}
	ws, hs, ok := strings.Cut(strings.ReplaceAll(strings.ToLower(s), "×", "x"), "x")
	if !ok {
		hs = ws
	}
	w, err1 := strconv.Atoi(strings.TrimSpace(ws))
	h, err2 := strconv.Atoi(strings.TrimSpace(hs))
	if err1 != nil || err2 != nil || w < 1 || h < 1 || w > maxPictureSide || h > maxPictureSide {
		return bad()
	}
	return w, h, nil
}
