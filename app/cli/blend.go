package cli

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"orogen/app/blend"
	"orogen/app/rasterio"
	"orogen/app/safefile"
)

func newBlendCmd(stdout io.Writer) *cobra.Command {
	var o blend.Options
	var gradient, mode, out, report string
	cmd := &cobra.Command{
		Use:   "blend A B (--mask M.png | --gradient X0,X1) --mode uplift|elevation --out FILE",
		Short: "Blend two terrains in the uplift or the elevation domain and compare",
		Long: `Blend two terrains (scenes, presets or heightmaps) through a mask or a
west-to-east gradient. In the uplift domain the two uplifts are mixed
(a heightmap's is inverted, see orogen invert) and the terrain is grown
from a flat start to steady state; in the elevation domain the heights are
mixed. Both are always made and measured side by side (pits before routing,
lake cells, water reaching the border, Hack's exponent: Schott et al. 2022,
Fig. 7); --out writes the one --mode names.

--mask: an image of B's weight in [0, 1] (white: all B). --gradient X0,X1:
fractions of the map's width, A west of X0, B east of X1, a smoothstep
between.`,
		Example: `  orogen blend default collision --gradient 0.3,0.7 --mode uplift --out blend.tif
  orogen blend dem.tif island --mask mask.png --mode elevation --out naive.tif --report blend.json`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.A, o.B = args[0], args[1]
			if out == "" {
				return errors.New("--out is required")
			}
			if err := rasterio.CheckPath(out); err != nil {
				return err
			}
			if mode != string(blend.Uplift) && mode != string(blend.Elevation) {
				return fmt.Errorf("--mode %q: want uplift or elevation", mode)
			}
			if gradient != "" {
				for _, s := range strings.Split(gradient, ",") {
					v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
					if err != nil {
						return fmt.Errorf("--gradient %q: %q is not a number; want X0,X1", gradient, s)
					}
					o.Gradient = append(o.Gradient, v)
				}
			}
			res, err := blend.Run(cmd.Context(), o)
			if err != nil {
				return err
			}
			f := res.Uplift
			if mode == string(blend.Elevation) {
				f = res.Elevation
			}
			if err := rasterio.Write(out, f); err != nil {
				return err
			}
			w := stdout
			fmt.Fprintf(w, "%-28s %12s %12s\n", "", "uplift", "elevation")
			u, e := res.Figures[0], res.Figures[1]
			fmt.Fprintf(w, "%-28s %12d %12d\n", "pits before routing", u.Pits, e.Pits)
			fmt.Fprintf(w, "%-28s %12d %12d\n", "lake cells", u.LakeCells, e.LakeCells)
			fmt.Fprintf(w, "%-28s %12.3f %12.3f\n", "fraction draining out", u.ToEdge, e.ToEdge)
			fmt.Fprintf(w, "%-28s %12d %12d\n", "largest basin before lakes", u.Largest, e.Largest)
			fmt.Fprintf(w, "%-28s %12.3f %12.3f\n", "Hack's exponent", u.Hack, e.Hack)
			fmt.Fprintf(w, "%-28s %12.0f %12.0f\n", "relief (m)", u.Relief, e.Relief)
			if report != "" {
				if err := safefile.WriteJSON(report, struct {
					A       string           `json:"a"`
					B       string           `json:"b"`
					Mode    string           `json:"mode"`
					Out     string           `json:"out"`
					Figures [2]blend.Figures `json:"figures"`
				}{o.A, o.B, mode, out, res.Figures}); err != nil {
					return err
				}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.Mask, "mask", "", "B's weight: an image in [0, 1] (white: all B), resampled to the grid")
	f.StringVar(&gradient, "gradient", "", "X0,X1: A west of X0, B east of X1 (fractions of the width), a smoothstep between")
	f.StringVar(&mode, "mode", "uplift", "which blend --out writes: uplift or elevation")
	f.StringVar(&out, "out", "", "the blended heightmap (.png .r16 .tif .obj)")
	f.StringVar(&report, "report", "", "the side-by-side figures as JSON")
	f.IntVar(&o.Size, "size", 256, "cells per side")
	f.Float64Var(&o.Cell, "cell", 0, "cell size in metres (default: the first scene's domain / size)")
	return cmd
}
