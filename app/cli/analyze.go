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
	var cell, minArea, channelArea, minBasin, talus float64
	var plot, edges string
	cmd := &cobra.Command{
		Use:   "analyze FILE",
		Short: "Measure how natural a heightmap looks (threshold spike, planar share, Hack's law, concavity, ...)",
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
  - realism: the slope histogram of the sloping land (steepest descent,
    1° or steeper, off the base-level plain) and its threshold spike (the
    share within ±0.25° of --talus, or of the histogram's mode, over the
    mean share of a 0.5° bin 2–5° away), the planar share (sloping cells
    whose slope changes by at most 2 % across one cell), hilltop
    convexity, the gradient-aspect anisotropy (0/45/90/135° over the
    mean), and the concavity θ of the channels (cells draining
    --channel-area cells or more) by the χ method, basin by basin: in each
    basin of --min-basin cells or more (default 5 × --channel-area) with a
    tributary, the θ whose χ = ∫(A₀/A)^θ dx puts the tributaries on the
    trunk in χ–elevation space (Perron and Royden 2013; Mudd et al. 2018),
    the median over the basins; slope against area on the same channels,
    all basins at once, is shown beside it;
  - a verdict, natural when every criterion is inside its range, each
    with its source: threshold spike ≤ 3, planar share ≤ 3 %, anisotropy
    ≤ 1.1 and pits ≤ 5 % of the cells (measured on two real DEMs), Hack h
    in 0.45–0.7 and c in 1–6 (Hack 1957; Schott et al. 2022), the χ θ
    in 0.35–0.65 (Whipple and Tucker 1999; Wobus et al. 2006).

The base-level plain (the lowest flat land reaching an edge, the sea or
the outlets' level) ends the rivers: it is neither routed as lakes nor
fitted.

FILE is a .png or .r16 with its sidecar, or a .tif in metres (give --cell
unless a sidecar sits beside it or it is a GeoTIFF in projected metres). Water leaves by every edge (--edges
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
			if !(channelArea >= 2) {
				return fmt.Errorf("--channel-area %g: want at least 2 cells", channelArea)
			}
			if cmd.Flags().Changed("min-basin") && !(minBasin >= channelArea) {
				return fmt.Errorf("--min-basin %g: want at least --channel-area, %g cells", minBasin, channelArea)
			}
			if !(talus >= 0 && talus < 90) {
				return fmt.Errorf("--talus %g: want an angle in degrees in [0, 90) (0: the slope histogram's mode)", talus)
			}
			f, err := rasterio.ReadHeights(path)
			if err != nil {
				return err
			}
			if cell > 0 {
				f.Cell = cell
			}
			if f.Cell == 0 {
				return fmt.Errorf("%s has no cell size (no sidecar, and no GeoTIFF pixel size in projected metres): give --cell in metres", path)
			}
			r, err := analysis.Analyze(f, analysis.Options{
				Edges: flow.Edges{North: b, South: b, East: b, West: b}, Fill: fill, MinArea: minArea,
				ChannelArea: channelArea, MinBasin: minBasin, Talus: talus,
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
	fl.Float64Var(&channelArea, "channel-area", analysis.DefaultChannelArea, "channel threshold of the concavity fit: cells draining at least this many cells are channels")
	fl.Float64Var(&minBasin, "min-basin", 0, "smallest basin of the χ concavity fit, in cells (default 5 × --channel-area)")
	fl.Float64Var(&talus, "talus", 0, "talus angle in degrees the threshold spike is measured at (0: the slope histogram's mode)")
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
	if r.Base > 0 {
		p("base level     %d cells of flat land at the lowest height reach an edge: rivers end there\n", r.Base)
	}
	if c := r.Chi; c != nil {
		p("concavity      θ = %.3f by χ, the median of %d basins (quartiles %.3f–%.3f, misfit %.3f of the relief)   (basins of %g cells or more, channels of %g)\n",
			c.Concavity, len(c.Basins), c.Q1, c.Q3, c.Misfit, r.MinBasin, r.ChannelArea)
	} else {
		p("concavity      no χ fit: %s\n", r.ChiErr)
	}
	if c := r.Channels; c != nil {
		p("  slope–area   θ = %.3f   r² = %.3f on the same channels, all basins at once   (%d cells, slopes over %d steps)\n",
			c.Concavity, c.R2, c.Points, analysis.ChannelReach)
	} else {
		p("  slope–area   no fit on the channels: %s\n", r.ChannelErr)
	}
	re := r.Realism
	at := "the talus angle"
	if re.TalusMode {
		at = "the mode"
	}
	p("realism        %d sloping cells; threshold spike %.3g at %.2f° (%s); planar share %.2f %%; aspect anisotropy %.3f\n",
		re.Sloping, re.Spike, re.Talus, at, 100*re.Planar, re.Anisotropy)
	p("  hilltops     %d crest cells, median ∇²h %.3g /m, %.0f %% convex\n", re.Hilltops, re.HilltopCurv, 100*re.HilltopConvex)
	p("\nverdict\n")
	for _, c := range r.Verdict.Criteria {
		p("  %s\n", c.Describe())
	}
	p("%s\n", r.Verdict.Line)
	return b.String()
}
