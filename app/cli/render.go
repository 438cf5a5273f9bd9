package cli

import (
	"errors"
	"fmt"
	"image"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"orogen/app/run"
	"orogen/viewer"
)

// maxPictureSide bounds --size: 16384² RGBA is 1 GiB.
const maxPictureSide = 16384

func newRenderCmd(stderr io.Writer) *cobra.Command {
	var o run.Options
	var view, size, out, overlay string
	var seed uint64
	var quiet bool
	vo := viewer.DefaultOptions()
	cmd := &cobra.Command{
		Use:   "render",
		Short: "Run a scene headless and render a picture of the result",
		Long: `Run a scene (a preset name or a scene file) for a number of steps and render
the final terrain as the app's 2D view shows it: a hillshade with a
hypsometric tint, rivers and lakes, and optionally an overlay. The map is
rendered at one pixel per cell, then scaled to fit --size (letterboxed).
--size is the picture's size; --grid sets the simulation's.

The 3D view comes with a later issue.`,
		Example: `  orogen render --scene default --steps 200 --view 2d --size 1600x1200 --out map.png
  orogen render --scene cone --grid 256 --steps 50 --overlay slope --out slope.png`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			f := cmd.Flags()
			switch view {
			case "2d":
			case "3d":
				return errors.New("--view 3d: 3d view not implemented yet: use --view 2d")
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
			if err := vo.Validate(); err != nil {
				return fmt.Errorf("picture options: %w", err)
			}
			if f.Changed("seed") {
				o.Seed = &seed
			}
			if !quiet {
				o.Progress = stderr
			}
			job, err := run.Prepare(o)
			if err != nil {
				return err
			}
			rep, err := job.Run(cmd.Context())
			if err != nil {
				return err
			}
			img := viewer.Relief(nil, job.Engine.Snapshot(), vo)
			if w > 0 {
				img = viewer.Resize(image.NewRGBA(image.Rect(0, 0, w, h)), img)
			}
			if err := run.WritePNG(out, img); err != nil {
				return err
			}
			if !quiet {
				b := img.Bounds()
				fmt.Fprintf(stderr, "%s: %d×%d, %d steps (%.3g Myr) → %s (%d×%d)\n",
					rep.Scene, rep.Width, rep.Height, rep.Steps, rep.Years/1e6, out, b.Dx(), b.Dy())
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Scene, "scene", "default", "scene file or preset")
	f.IntVar(&o.Size, "grid", 0, "grid cells per side (default: the scene's)")
	f.IntVar(&o.Steps, "steps", 0, "number of steps (default: the scene's)")
	f.Uint64Var(&seed, "seed", 0, "random seed (default: the scene's)")
	f.StringVar(&view, "view", "2d", "2d (relief map) or 3d (not implemented yet)")
	f.StringVar(&size, "size", "", "picture size WxH, or N for N×N (default: one pixel per cell)")
	f.StringVar(&out, "out", "", "output picture (.png)")
	f.StringVar(&overlay, "overlay", "none", "overlay: "+strings.Join(viewer.OverlayNames(), ", "))
	f.Float64Var(&vo.OverlayAlpha, "overlay-alpha", vo.OverlayAlpha, "overlay opacity in [0, 1]")
	f.BoolVar(&vo.Rivers, "rivers", vo.Rivers, "draw rivers (--rivers=false to hide)")
	f.Float64Var(&vo.RiverThresholdM2, "river-threshold", vo.RiverThresholdM2, "drainage area where rivers start, m²")
	f.BoolVar(&vo.Lakes, "lakes", vo.Lakes, "draw lakes (--lakes=false to hide)")
	f.Float64Var(&vo.Exaggeration, "exaggeration", vo.Exaggeration, "vertical exaggeration of the hillshade")
	f.Float64Var(&vo.LightAzimuthDeg, "light-azimuth", vo.LightAzimuthDeg, "light azimuth, degrees clockwise from north")
	f.Float64Var(&vo.LightAltitudeDeg, "light-altitude", vo.LightAltitudeDeg, "light altitude above the horizon, degrees")
	f.BoolVarP(&quiet, "quiet", "q", false, "no progress bar or summary")
	return cmd
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
