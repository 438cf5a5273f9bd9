package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"orogen/app/figure"
	"orogen/app/rasterio"
	"orogen/app/run"
	"orogen/sim/analysis"
	"orogen/sim/flow"
)

// newAnalyzeCmd is `orogen analyze`: the drainage measures of package
// sim/analysis on any heightmap.
func newAnalyzeCmd(stdout io.Writer) *cobra.Command {
	var asJSON, fill bool
	var cell, minArea float64
	var plot, edges string
	cmd := &cobra.Command{
		Use:   "analyze FILE",
		Short: "Measure how natural a heightmap's drainage is (Hack's law, slope–area, ...)",
		Long: `Route water over a heightmap with Orogen's own routing (D8, lakes through
their passes; --fill priority-floods the depressions instead) and measure:

  - Hack's law l = c·a^h between the longest flow length above a river cell
    (km) and its drainage area (km²): h, c, r², fitted on the cells that
    drain --min-area cells or more;
  - slope–area S = k_s·A^(−θ): the exponent (−θ, the concavity θ is −m/n at
    steady state), the steepness k_s, r² and the medians in bins of area;
  - drainage consistency: pits before routing, the fraction of the cells
    whose water leaves the map, the outlets and the five largest basins;
  - relief, the hypsometric integral, the mean slope and the drainage
    density at the river threshold;
  - a verdict: inside or outside the published ranges (Hack: h in 0.45–0.7,
    c in 1–6, Schott et al. 2022; concavity in 0.35–0.65).

FILE is a .png or .r16 with its sidecar, or a .tif in metres (give --cell
unless a sidecar sits beside it). Water leaves by every edge (--edges
natural: an edge cell with no lower neighbour drains out of the map).
--json prints the figures as JSON; --plot writes the Hack scatter, the
slope–area plot and the hypsometric curve as a PNG.`,
		Example: `  orogen analyze terrain.png
  orogen analyze dem.tif --cell 30 --fill --json
  orogen analyze terrain.tif --min-area 100 --plot analysis.png`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			path := args[0]
			if plot != "" {
				if err := run.CheckPNGPath(plot); err != nil {
					return fmt.Errorf("--plot: %w", err)
				}
			}
			b, err := flow.ParseBoundary(edges)
			if err != nil {
				return fmt.Errorf("--edges: %w", err)
			}
			if cmd.Flags().Changed("cell") && !(cell > 0) {
				return fmt.Errorf("--cell %g: want a positive cell size in metres", cell)
			}
			if !(minArea >= 2) {
				return fmt.Errorf("--min-area %g: want at least 2 cells", minArea)
			}
			f, err := rasterio.ReadHeights(path)
			if err != nil {
				return err
			}
			if cell > 0 {
				f.Cell = cell
			}
			if f.Cell == 0 {
				return fmt.Errorf("%s has no cell size: give --cell in metres (or put a sidecar beside it)", path)
			}
			r, err := analysis.Analyze(f, analysis.Options{
				Edges: flow.Edges{North: b, South: b, East: b, West: b}, Fill: fill, MinArea: minArea,
			})
			if err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
			if plot != "" {
				if err := run.WritePNG(plot, figure.Analysis(r, filepath.Base(path))); err != nil {
					return fmt.Errorf("--plot: %w", err)
				}
			}
			if asJSON {
				e := json.NewEncoder(stdout)
				e.SetIndent("", "  ")
				return e.Encode(struct {
					File string `json:"file"`
					*analysis.Result
				}{path, r})
			}
			_, err = io.WriteString(stdout, describe(path, r))
			return err
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&asJSON, "json", false, "print the figures as JSON")
	fl.BoolVar(&fill, "fill", false, "priority-flood the depressions before routing instead of routing lakes through their passes")
	fl.Float64Var(&cell, "cell", 0, "cell size in metres (default: from the sidecar)")
	fl.Float64Var(&minArea, "min-area", analysis.DefaultMinArea, "river threshold: cells draining at least this many cells are rivers")
	fl.StringVar(&plot, "plot", "", "write the Hack, slope–area and hypsometry plots to this .png")
	fl.StringVar(&edges, "edges", flow.Natural.String(), "how water leaves at every edge: "+strings.Join(flow.BoundaryNames(), ", "))
	return cmd
}

// describe is the text report of r.
func describe(path string, r *analysis.Result) string {
	var b strings.Builder
	p := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	routing := "lakes routed through their passes"
	if r.Fill {
		routing = "depressions filled (priority flood)"
	}
	p("%s: %d×%d cells of %g m (%.3g × %.3g km), %s\n", path, r.Width, r.Height, r.Cell,
		float64(r.Width)*r.Cell/1e3, float64(r.Height)*r.Cell/1e3, routing)
	p("rivers: cells draining %g cells (%.3g km²) or more\n\n", r.MinArea, r.MinArea*r.Cell*r.Cell/1e6)
	if h := r.Hack; h != nil {
		p("Hack's law     h = %.3f   c = %.3f   r² = %.3f   (%d cells; l km, a km²)\n", h.H, h.C, h.R2, h.Points)
	} else {
		p("Hack's law     no fit: %s\n", r.HackErr)
	}
	if s := r.SlopeA; s != nil {
		p("slope–area     exponent = %.3f (concavity θ = %.3f)   k_s = %.4g   r² = %.3f   (%d cells; S m/m, A m²)\n",
			s.Exponent, s.Concavity, s.Ks, s.R2, s.Points)
		p("  medians      ")
		for k, bin := range s.Bins {
			if k > 0 && k%4 == 0 {
				p("\n               ")
			}
			p("A %-9.3g S %-9.3g ", bin.Area, bin.Slope)
		}
		p("\n")
	} else {
		p("slope–area     no fit: %s\n", r.SlopeErr)
	}
	d := r.Drainage
	p("drainage       %d pits before routing; %.1f %% of the cells drain off the map; %d outlets drain %g cells or more\n",
		d.Pits, 100*d.ToEdge, d.Outlets, r.MinArea)
	p("  largest      ")
	for k, bs := range d.Basins {
		if k > 0 {
			p(", ")
		}
		p("(%d, %d) %.3g km²", bs.X, bs.Y, bs.AreaKm)
	}
	p("\n")
	p("terrain        relief %.4g m; hypsometric integral %.3f; mean slope %.2f°; drainage density %.3g km/km²\n",
		r.Relief, r.Hypsometric, r.MeanSlope, r.Density)
	p("\n%s\n", r.Verdict.Line)
	return b.String()
}
