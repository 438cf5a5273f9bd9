package analysis

import (
	"fmt"
	"math"
	"slices"
	"sync"

	"orogen/sim"
	"orogen/sim/flow"
)

// DefaultMinArea is the river threshold in cells: cells draining at least
// this many cells are rivers, fitted by Hack's law and slope–area and
// counted in the drainage density.
const DefaultMinArea = 50

// Options choose how Analyze routes and measures.
type Options struct {
	Edges       flow.Edges // the edges water leaves by
	Fill        bool       // priority-flood the depressions (Fill) instead of routing lakes through their passes
	MinArea     float64    // river threshold in cells; 0: DefaultMinArea
	ChannelArea float64    // channel threshold of the concavity fits in cells; 0: DefaultChannelArea
	MinBasin    float64    // smallest basin of the χ fit in cells; 0: DefaultMinBasin channel thresholds
	Talus       float64    // talus angle in degrees the threshold spike is measured at; 0: the slope histogram's mode
}

// Result is what Analyze measures on a heightmap. Lengths are metres unless
// a name says km; areas m² unless it says km².
type Result struct {
	Width   int     `json:"width"`
	Height  int     `json:"height"`
	Cell    float64 `json:"cell_size_m"`
	Fill    bool    `json:"fill"`
	MinArea float64 `json:"min_area_cells"`
	// Base counts the cells of the base-level plain (BaseLevel): rivers
	// end there, and no fit reads them.
	Base int `json:"base_level_cells"`
	// Hack is fitted on the river cells off the base-level plain; nil when
	// it cannot be fitted (HackErr says why).
	Hack    *Hack  `json:"hack"`
	HackErr string `json:"hack_error,omitempty"`
	// SlopeA is the slope–area relation of every river cell, its slope the
	// drop to its receiver; nil when it cannot be fitted.
	SlopeA   *SlopeArea `json:"slope_area"`
	SlopeErr string     `json:"slope_area_error,omitempty"`
	// Chi is the concavity by the χ method (ChiConcavityOf) on the
	// channels (ChannelArea cells or more, off the base-level plain), in
	// the basins of MinBasin cells or more: the θ the verdict reads; nil
	// when it cannot be fitted (ChiErr says why).
	ChannelArea float64       `json:"channel_area_cells"`
	MinBasin    float64       `json:"min_basin_cells"`
	Chi         *ChiConcavity `json:"chi_concavity"`
	ChiErr      string        `json:"chi_concavity_error,omitempty"`
	// Channels is slope against area fitted on the same channels, all
	// basins at once (ChannelConcavity): the concavity the verdict read
	// before the χ method, kept for comparison; nil when it cannot be
	// fitted.
	Channels   *SlopeArea `json:"channel_concavity"`
	ChannelErr string     `json:"channel_concavity_error,omitempty"`
	// Realism holds the slope histogram, threshold spike, planar share,
	// hilltop convexity and aspect anisotropy (MeasureRealism).
	Realism  *Realism `json:"realism"`
	Drainage Drainage `json:"drainage"`
	Relief   float64  `json:"relief_m"`
	// Hypsometric is the hypsometric integral (mean − min)/(max − min)
	// (Pike and Wilson 1971), and HypsoCurve[k] the fraction of the map at
	// or above relative height k/100.
	Hypsometric float64   `json:"hypsometric_integral"`
	HypsoCurve  []float64 `json:"hypsometric_curve"`
	MeanSlope   float64   `json:"mean_slope_deg"`          // mean of the slope angle, central differences
	Density     float64   `json:"drainage_density_per_km"` // river length over map area, km/km²
	Verdict     Verdict   `json:"verdict"`

	// Rivers are the river cells (draining MinArea cells or more): their
	// area (km²), longest flow length (km) and slope (m/m; 0 where it is
	// not positive or the fill raised the cell), for scatter plots.
	Rivers Rivers `json:"-"`

	// The routing the measures come from, for profiles and basins: the
	// tree of the routed heights Heights (the filled ones with Fill), each
	// cell's drainage area (m²) and longest flow length (m).
	Tree    Tree      `json:"-"`
	Heights []float32 `json:"-"`
	Area    []float64 `json:"-"`
	Length  []float64 `json:"-"`

	donorsOnce sync.Once
	donorOff   []int32 // the donors of cell i are donors[donorOff[i]:donorOff[i+1]]
	donors     []int32
}

// Rivers holds one entry per river cell.
type Rivers struct {
	Cell   []int32
	AreaKm []float64
	LenKm  []float64
	Slope  []float64
}

// Drainage says whether the map's drainage is consistent.
type Drainage struct {
	Pits       int     `json:"pits"`                    // cells with no lower neighbour before routing (not counting edges water leaves by nor the base-level plain)
	ToEdge     float64 `json:"fraction_to_edge"`        // fraction of the cells whose water leaves the map
	Outlets    int     `json:"outlets"`                 // edge outlets draining MinArea cells or more
	Basins     []Basin `json:"largest_basins"`          // the five largest, largest first
	LargestRaw int     `json:"largest_raw_basin_cells"` // the most cells draining downhill to one cell before lakes or fill
}

// Basin is a drainage basin: its outlet cell and area.
type Basin struct {
	X      int     `json:"x"`
	Y      int     `json:"y"`
	AreaKm float64 `json:"area_km2"`
	Cells  int     `json:"cells"`
}

// Analyze routes heights f (lakes through their passes, or filled when
// o.Fill) and measures its drainage. Bad input (too small, no cell size,
// cells without a height, a flat map, a map without drainage) is an error
// naming the problem.
func Analyze(f *sim.Field, o Options) (*Result, error) {
	if err := checkField(f); err != nil {
		return nil, err
	}
	minCells := o.MinArea
	if minCells == 0 {
		minCells = DefaultMinArea
	}
	if !(minCells >= 2) || math.IsInf(minCells, 0) {
		return nil, fmt.Errorf("analysis: river threshold %g cells: need at least 2 cells", minCells)
	}
	chanCells := o.ChannelArea
	if chanCells == 0 {
		chanCells = DefaultChannelArea
	}
	if !(chanCells >= 2) || math.IsInf(chanCells, 0) {
		return nil, fmt.Errorf("analysis: channel threshold %g cells: need at least 2 cells", chanCells)
	}
	basinCells := o.MinBasin
	if basinCells == 0 {
		basinCells = DefaultMinBasin * chanCells
	}
	if !(basinCells >= chanCells) || math.IsInf(basinCells, 0) {
		return nil, fmt.Errorf("analysis: smallest basin %g cells: need at least the channel threshold, %g cells", basinCells, chanCells)
	}
	if !(o.Talus >= 0 && o.Talus < 90) {
		return nil, fmt.Errorf("analysis: talus angle %g°: need an angle in [0, 90) degrees (0: the slope histogram's mode)", o.Talus)
	}
	lo, hi := f.MinMax()
	if lo == hi {
		return nil, fmt.Errorf("analysis: all %d cells are at %g m: a flat map has no drainage to measure", len(f.Data), lo)
	}
	r := &Result{Width: f.W, Height: f.H, Cell: f.Cell, Fill: o.Fill, MinArea: minCells, ChannelArea: chanCells, MinBasin: basinCells}
	base := BaseLevel(f, o.Edges)
	for _, b := range base {
		if b {
			r.Base++
		}
	}
	r.Drainage.Pits = countPits(f.Data, f.W, f.H, o.Edges, base)
	h := f.Data
	var raised []bool
	if o.Fill {
		var err error
		if h, raised, err = Fill(f.Data, f.W, f.H, o.Edges); err != nil {
			return nil, err
		}
	}
	// The realism figures read only the heights: measured before the
	// routing, their slopes (8 bytes a cell) are gone when it takes its
	// memory (docs/MEMORY.md).
	realism := measureRealism(f, base, o.Talus)
	g := flow.NewGraph(f.W, f.H, f.Cell, o.Edges, 0)
	// Update, letting go of the passes before Assemble: no water budget
	// reads them (docs/MEMORY.md).
	g.Route(h)
	g.Order()
	g.ConnectLakes(h)
	g.Release()
	g.Assemble()
	// The pass search's and the depth-first walks' scratch are not read
	// again (docs/MEMORY.md).
	g.ReleaseTrees()
	// Tree.Area sums in reverse drainage order as Graph.Accumulate does,
	// bit for bit, in one buffer rather than two.
	area := TreeOf(g).Area(nil)
	r.Drainage.LargestRaw = largestLabel(g.Label)
	g.ReleaseRouting() // only the tree is read from here on
	minArea := minCells * g.Cell * g.Cell
	if float64(r.Drainage.LargestRaw) < minCells {
		return nil, fmt.Errorf("analysis: no drainage: at most %d cells drain downhill to one cell, fewer than the river threshold of %g cells (noise, or a map of pits?); lower --min-area to measure it anyway",
			r.Drainage.LargestRaw, minCells)
	}
	r.drainage(g, area, minCells)
	// CutTree in place: the graph's receivers and distances are not read
	// uncut again, and a copy would be 8 bytes a cell.
	t := cutTree(TreeOf(g), base)
	if base != nil {
		area = t.Area(area)
	}
	length := t.Length(nil)
	if hk, err := FitHackMasked(area, length, base, minArea); err != nil {
		r.HackErr = err.Error()
	} else {
		r.Hack = &hk
	}
	if sa, err := channelConcavity(t, area, h, base, raised, chanCells*t.CellArea); err != nil {
		r.ChannelErr = err.Error()
	} else {
		r.Channels = &sa
	}
	if c, err := chiConcavity(t, area, h, base, chanCells*t.CellArea, basinCells*t.CellArea, f.W); err != nil {
		r.ChiErr = err.Error()
	} else {
		r.Chi = &c
	}
	if sa, err := fitSlopeArea(t, area, h, raised, minArea); err != nil {
		r.SlopeErr = err.Error()
	} else {
		r.SlopeA = &sa
	}
	if r.Hack == nil && r.SlopeA == nil {
		return nil, fmt.Errorf("%s; %s", r.HackErr, r.SlopeErr)
	}
	r.rivers(t, area, length, h, raised, minArea)
	r.terrain(f, lo, hi)
	r.Realism = realism
	r.Verdict = verdict(r)
	r.Tree, r.Heights, r.Area, r.Length = t, h, area, length
	return r, nil
}

// countPits counts the cells with no strictly lower neighbour, except those
// on an edge water leaves by (Outlet or Natural: flow drains them out) and
// those of the base-level plain base marks (nil: none).
func countPits(h []float32, w, ht int, e flow.Edges, base []bool) int {
	pits := 0
	for y := range ht {
		for x := range w {
			if lets(e, x, y, w, ht) || (base != nil && base[y*w+x]) {
				continue
			}
			v := h[y*w+x]
			pit := true
			for d := 0; d < 8 && pit; d++ {
				nx, ny := x+dx8[d], y+dy8[d]
				if nx >= 0 && ny >= 0 && nx < w && ny < ht && h[ny*w+nx] < v {
					pit = false
				}
			}
			if pit {
				pits++
			}
		}
	}
	return pits
}

// lets reports whether cell (x, y) is on an edge that lets water out.
func lets(e flow.Edges, x, y, w, h int) bool {
	open := func(b flow.Boundary) bool { return b != flow.Closed }
	return (y == 0 && open(e.North)) || (y == h-1 && open(e.South)) ||
		(x == 0 && open(e.West)) || (x == w-1 && open(e.East))
}

// largestLabel returns the cell count of the largest pre-lake basin.
func largestLabel(label []int32) int {
	var count []int32
	for _, l := range label {
		if int(l) >= len(count) {
			count = slices.Grow(count, int(l)+1-len(count))[:l+1]
		}
		count[l]++
	}
	return int(slices.Max(count))
}

func (r *Result) drainage(g *flow.Graph, area []float64, minCells float64) {
	cellA := g.Cell * g.Cell
	var roots []int32
	toEdge := 0.0
	for i, rc := range g.Rec {
		if rc != int32(i) {
			continue
		}
		if g.IsFixed(i) || g.Dist[i] > 0 { // an Outlet edge cell, or a Natural one draining out
			toEdge += area[i]
			if area[i] >= minCells*cellA {
				r.Drainage.Outlets++
			}
		}
		roots = append(roots, int32(i))
	}
	r.Drainage.ToEdge = toEdge / (float64(len(area)) * cellA)
	slices.SortFunc(roots, func(a, b int32) int {
		if area[a] != area[b] {
			if area[a] > area[b] {
				return -1
			}
			return 1
		}
		return int(a - b)
	})
	for _, i := range roots[:min(5, len(roots))] {
		r.Drainage.Basins = append(r.Drainage.Basins, Basin{
			X: int(i) % g.W, Y: int(i) / g.W, AreaKm: area[i] / 1e6, Cells: int(math.Round(area[i] / cellA)),
		})
	}
}

func (r *Result) rivers(t Tree, area, length []float64, h []float32, raised []bool, minArea float64) {
	var riv Rivers
	var riverLen float64
	for i, a := range area {
		if a < minArea {
			continue
		}
		s := 0.0
		if rc := t.Rec[i]; rc != int32(i) {
			riverLen += float64(t.Dist[i])
			if raised == nil || !raised[i] {
				s = math.Max(0, (float64(h[i])-float64(h[rc]))/float64(t.Dist[i]))
			}
		}
		riv.Cell = append(riv.Cell, int32(i))
		riv.AreaKm = append(riv.AreaKm, a/1e6)
		riv.LenKm = append(riv.LenKm, length[i]/1e3)
		riv.Slope = append(riv.Slope, s)
	}
	r.Rivers = riv
	total := float64(len(area)) * t.CellArea
	r.Density = riverLen / 1e3 / (total / 1e6)
}

// terrain measures relief, hypsometry and the mean slope of f, whose
// heights span [lo, hi].
func (r *Result) terrain(f *sim.Field, lo, hi float32) {
	const nb = 100
	span := float64(hi) - float64(lo)
	r.Relief = span
	var hist [nb + 1]int
	var sum float64
	for _, v := range f.Data {
		sum += float64(v)
		hist[int((float64(v)-float64(lo))/span*nb)]++
	}
	n := float64(len(f.Data))
	r.Hypsometric = (sum/n - float64(lo)) / span
	r.HypsoCurve = make([]float64, nb+1)
	above := n
	for k := 0; k <= nb; k++ {
		r.HypsoCurve[k] = above / n
		above -= float64(hist[k])
	}
	w, h, cell := f.W, f.H, f.Cell
	var ang float64
	for y := range h {
		y0, y1 := max(y-1, 0), min(y+1, h-1)
		for x := range w {
			x0, x1 := max(x-1, 0), min(x+1, w-1)
			gx := (float64(f.Data[y*w+x1]) - float64(f.Data[y*w+x0])) / (float64(x1-x0) * cell)
			gy := (float64(f.Data[y1*w+x]) - float64(f.Data[y0*w+x])) / (float64(y1-y0) * cell)
			ang += math.Atan(math.Hypot(gx, gy))
		}
	}
	r.MeanSlope = ang / n * 180 / math.Pi
}

func inside(v float64, r [2]float64) bool { return v >= r[0] && v <= r[1] }
