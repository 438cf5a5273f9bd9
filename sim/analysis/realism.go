package analysis

import (
	"math"
	"slices"

	"orogen/sim"
	"orogen/sim/flow"
)

// The realism measures' constants. Each is a definition, not a tuning:
// changing one changes what a figure means, so the doc comments say what
// each is.
const (
	// SlopeBinDeg is the width of the slope histogram's bins (Realism's
	// SlopeHist) and of the threshold spike's window: ±SlopeBinDeg/2
	// around the talus angle.
	SlopeBinDeg = 0.5

	// MinSlopeDeg is where sloping land starts: cells whose steepest
	// descent to a neighbour is at least this steep. Flats, pits and plains
	// below it take no part in the slope histogram, the planar share or the
	// anisotropy.
	MinSlopeDeg = 1.0

	// SpikeNear and SpikeFar bound the reference band of the threshold
	// spike: the slopes SpikeNear to SpikeFar degrees from the talus angle,
	// on both sides.
	SpikeNear, SpikeFar = 2.0, 5.0

	// PlanarTol is the planar share's "near zero": a sloping cell is planar
	// when its slope changes across one cell by at most this fraction of
	// itself, |∇²h|·Δx ≤ PlanarTol·|∇h|, ∇²h the five-point Laplacian
	// (1/m), |∇h| the central-difference gradient (m/m) and Δx the cell
	// size (m). The test is dimensionless and holds the same on any cell
	// size and relief: a plane, a ramp or a cone's flank (whose |∇²h|·Δx/|∇h|
	// is Δx/r at r from the apex) reads planar; a soil-mantled hillslope,
	// curved at every cell, does not.
	PlanarTol = 0.02

	// AspectBinDeg is the width of the gradient-aspect histogram's bins,
	// centred on multiples of it, so that 0, 45, 90 and 135° are bin
	// centres.
	AspectBinDeg = 1.0

	// BaseTol is how far above the map's lowest height a cell may be and
	// still belong to the base-level plain (m).
	BaseTol = 1e-3

	// DefaultChannelArea is the channel threshold of the concavity fit in
	// cells when Options.ChannelArea is 0: cells draining this many cells
	// or more are channels.
	DefaultChannelArea = 200

	// ChannelReach is the number of receiver steps over which a channel
	// cell's slope is measured for the concavity fit: the drop to the cell
	// ChannelReach steps downstream over the flow distance to it, so that
	// heights stored in whole metres (most DEMs) still give slopes.
	ChannelReach = 3
)

// Realism holds the measures that tell a terrain made of soil-mantled
// hillslopes and valleys from one made of planar facets at the talus angle,
// a smooth ramp or noise. Shares are fractions of the sloping land
// (MinSlopeDeg) unless a name says otherwise.
type Realism struct {
	Sloping int `json:"sloping_cells"` // interior cells off the base-level plain, MinSlopeDeg or steeper
	// SlopeHist[k] is the share of the sloping land whose steepest descent
	// lies in [k, k+1)·SlopeBinDeg degrees.
	SlopeHist []float64 `json:"slope_histogram"`
	Talus     float64   `json:"talus_deg"`       // the angle the spike is measured at
	TalusMode bool      `json:"talus_from_mode"` // Talus is the histogram's mode, no talus angle was given
	// Spike is the threshold spike: the share of the sloping land within
	// ±SlopeBinDeg/2 of Talus over the mean share of a SlopeBinDeg-wide bin
	// SpikeNear–SpikeFar degrees away. About 1 on a smooth histogram.
	Spike float64 `json:"threshold_spike"`
	// Planar is the share of the sloping land that is planar (PlanarTol).
	Planar float64 `json:"planar_share"`
	// Hilltops are the crest cells: interior cells off the plain higher
	// than both their neighbours along a row, a column or a diagonal.
	// HilltopCurv is the median five-point Laplacian ∇²h on them (1/m;
	// negative: convex), HilltopConvex the share of them whose ∇²h < 0.
	Hilltops      int     `json:"hilltop_cells"`
	HilltopCurv   float64 `json:"hilltop_laplacian_per_m"`
	HilltopConvex float64 `json:"hilltop_convex_share"`
	// Anisotropy is the gradient-aspect anisotropy: the mean share of the
	// AspectHist bins centred on 0, 45, 90 and 135° over the mean share of
	// all bins; 1 for aspects spread evenly, above 1 when the eight
	// directions of the grid stand out. AspectHist[k] is the share of the
	// sloping land whose aspect (Horn's 3×3 gradient, taken modulo 180°)
	// lies within AspectBinDeg/2 of k·AspectBinDeg.
	Anisotropy float64   `json:"anisotropy"`
	AspectHist []float64 `json:"aspect_histogram"`
}

// surface is what the realism measures read per interior cell of a map:
// the steepest descent, kept (8 bytes a cell), and the Laplacian, the
// gradient and its aspect, computed when read (lap, grad, aspect), which
// saves 24 bytes a cell at the end of a run (docs/MEMORY.md).
type surface struct {
	w, h     int
	cell     float64
	d        []float32 // the heights
	steep    []float64 // steepest descent to a neighbour, degrees; NaN off the sloping land
	sloping  int
	baseMask []bool
}

// lap is the five-point Laplacian at interior cell i, 1/m.
func (s *surface) lap(i int) float64 {
	d, w, c := s.d, s.w, s.cell
	z := float64(d[i])
	e, wst, no, so := float64(d[i+1]), float64(d[i-1]), float64(d[i-w]), float64(d[i+w])
	return (e + wst + no + so - 4*z) / (c * c)
}

// grad is the central-difference gradient magnitude at interior cell i,
// m/m.
func (s *surface) grad(i int) float64 {
	d, w, c := s.d, s.w, s.cell
	e, wst, no, so := float64(d[i+1]), float64(d[i-1]), float64(d[i-w]), float64(d[i+w])
	return math.Hypot(e-wst, so-no) / (2 * c)
}

// aspect is Horn's gradient direction modulo 180° at interior cell i,
// degrees in [0, 180).
func (s *surface) aspect(i int) float64 {
	d, w, c := s.d, s.w, s.cell
	at := func(dx, dy int) float64 { return float64(d[i+dy*w+dx]) }
	e, wst, no, so := at(1, 0), at(-1, 0), at(0, -1), at(0, 1)
	ne, nw, se, sw := at(1, -1), at(-1, -1), at(1, 1), at(-1, 1)
	gx := ((ne + 2*e + se) - (nw + 2*wst + sw)) / (8 * c)
	gy := ((sw + 2*so + se) - (nw + 2*no + ne)) / (8 * c)
	a := math.Atan2(gy, gx) * 180 / math.Pi
	if a < 0 {
		a += 180
	}
	if a >= 180 {
		a -= 180
	}
	return a
}

// newSurface measures f cell by cell; base marks the cells of the
// base-level plain (nil: none).
func newSurface(f *sim.Field, base []bool) *surface {
	w, ht, c := f.W, f.H, f.Cell
	n := w * ht
	s := &surface{w: w, h: ht, cell: c, d: f.Data, steep: make([]float64, n), baseMask: base}
	d := f.Data
	diag := c * math.Sqrt2
	for i := range s.steep {
		s.steep[i] = math.NaN()
	}
	for y := 1; y < ht-1; y++ {
		for x := 1; x < w-1; x++ {
			i := y*w + x
			z := float64(d[i])
			at := func(dx, dy int) float64 { return float64(d[i+dy*w+dx]) }
			e, wst, no, so := at(1, 0), at(-1, 0), at(0, -1), at(0, 1)
			ne, nw, se, sw := at(1, -1), at(-1, -1), at(1, 1), at(-1, 1)
			if base != nil && base[i] {
				continue
			}
			drop := max((z-e)/c, (z-wst)/c, (z-no)/c, (z-so)/c,
				(z-ne)/diag, (z-nw)/diag, (z-se)/diag, (z-sw)/diag)
			if deg := math.Atan(drop) * 180 / math.Pi; deg >= MinSlopeDeg {
				s.steep[i] = deg
				s.sloping++
			}
		}
	}
	return s
}

// SlopeHistogram is the distribution of the steepest descent over a map's
// sloping land (MinSlopeDeg, off the base-level plain, interior cells).
type SlopeHistogram struct {
	Cells int       // sloping cells
	fine  []float64 // cells per fineBin-wide bin from 0°
}

// fineBin is the bin width the histogram counts in, degrees: a tenth of
// SlopeBinDeg, so that any window of SlopeBinDeg is read to 0.05°.
const fineBin = SlopeBinDeg / 10

// SlopeHist returns the histogram of the steepest descent to a neighbour
// over the sloping land of f; base marks the base-level plain (nil: none).
func SlopeHist(f *sim.Field, base []bool) SlopeHistogram {
	return newSurface(f, base).hist()
}

func (s *surface) hist() SlopeHistogram {
	h := SlopeHistogram{Cells: s.sloping, fine: make([]float64, int(90/fineBin)+1)}
	for _, v := range s.steep {
		if !math.IsNaN(v) {
			h.fine[int(v/fineBin)]++
		}
	}
	return h
}

// Shares returns the share of the sloping land per SlopeBinDeg-wide bin
// from 0°, up to the steepest non-empty bin.
func (h SlopeHistogram) Shares() []float64 {
	per := int(math.Round(SlopeBinDeg / fineBin))
	var out []float64
	for k := 0; k < len(h.fine); k += per {
		sum := 0.0
		for _, c := range h.fine[k:min(k+per, len(h.fine))] {
			sum += c
		}
		out = append(out, sum/float64(max(h.Cells, 1)))
	}
	last := len(out)
	for last > 0 && out[last-1] == 0 {
		last--
	}
	return out[:last]
}

// Mode returns the centre of the most populated SlopeBinDeg-wide bin, in
// degrees (the lowest on a tie; 0 without sloping land).
func (h SlopeHistogram) Mode() float64 {
	sh := h.Shares()
	if len(sh) == 0 {
		return 0
	}
	k := 0
	for j, v := range sh {
		if v > sh[k] {
			k = j
		}
	}
	return (float64(k) + 0.5) * SlopeBinDeg
}

// count returns the cells whose slope lies in [lo, hi) degrees, to a
// fineBin, and the width of that range inside the sloping land's [MinSlopeDeg, 90].
func (h SlopeHistogram) count(lo, hi float64) (cells, width float64) {
	lo, hi = max(lo, MinSlopeDeg), min(hi, 90)
	if hi <= lo {
		return 0, 0
	}
	for k, c := range h.fine {
		if mid := (float64(k) + 0.5) * fineBin; mid >= lo && mid < hi {
			cells += c
		}
	}
	return cells, hi - lo
}

// Spike returns the threshold spike at talus degrees: the cells within
// ±SlopeBinDeg/2 of talus over the mean cells per SlopeBinDeg of the
// slopes SpikeNear to SpikeFar degrees away on either side (the part of
// that band within the sloping land). A reference band with no cells
// counts as one cell, so that the spike stays finite. 0 without sloping
// land.
func (h SlopeHistogram) Spike(talus float64) float64 {
	if h.Cells == 0 {
		return 0
	}
	win, _ := h.count(talus-SlopeBinDeg/2, talus+SlopeBinDeg/2)
	lo, wlo := h.count(talus-SpikeFar, talus-SpikeNear)
	hi, whi := h.count(talus+SpikeNear, talus+SpikeFar)
	ref := 0.0
	if w := wlo + whi; w > 0 {
		ref = (lo + hi) / (w / SlopeBinDeg)
	}
	return win / max(ref, 1)
}

// PlanarShare returns the share of the sloping land of f that is planar
// (PlanarTol); base marks the base-level plain (nil: none).
func PlanarShare(f *sim.Field, base []bool) float64 { return newSurface(f, base).planar() }

func (s *surface) planar() float64 {
	if s.sloping == 0 {
		return 0
	}
	n := 0
	for i, v := range s.steep {
		if !math.IsNaN(v) && math.Abs(s.lap(i))*s.cell <= PlanarTol*s.grad(i) {
			n++
		}
	}
	return float64(n) / float64(s.sloping)
}

// HilltopConvexity returns the median Laplacian ∇²h (1/m) of the crest
// cells of f (see Realism.Hilltops), the share of them that are convex
// (∇²h < 0) and their number; base marks the base-level plain (nil: none).
func HilltopConvexity(f *sim.Field, base []bool) (median, convex float64, cells int) {
	return newSurface(f, base).hilltops(f.Data)
}

func (s *surface) hilltops(d []float32) (median, convex float64, cells int) {
	w := s.w
	var laps []float64
	neg := 0
	lines := [4]int{1, w, w + 1, w - 1}
	for y := 1; y < s.h-1; y++ {
		for x := 1; x < w-1; x++ {
			i := y*w + x
			if s.baseMask != nil && s.baseMask[i] {
				continue
			}
			z := d[i]
			crest := false
			for _, o := range lines {
				if z > d[i-o] && z > d[i+o] {
					crest = true
					break
				}
			}
			if !crest {
				continue
			}
			l := s.lap(i)
			laps = append(laps, l)
			if l < 0 {
				neg++
			}
		}
	}
	if len(laps) == 0 {
		return 0, 0, 0
	}
	slices.Sort(laps)
	m := laps[len(laps)/2]
	if len(laps)%2 == 0 {
		m = (laps[len(laps)/2-1] + m) / 2
	}
	return m, float64(neg) / float64(len(laps)), len(laps)
}

// Anisotropy returns the gradient-aspect anisotropy of the sloping land of
// f and its aspect histogram (see Realism.Anisotropy); base marks the
// base-level plain (nil: none). 0 and nil without sloping land.
func Anisotropy(f *sim.Field, base []bool) (float64, []float64) {
	return newSurface(f, base).anisotropy()
}

func (s *surface) anisotropy() (float64, []float64) {
	if s.sloping == 0 {
		return 0, nil
	}
	nb := int(math.Round(180 / AspectBinDeg))
	hist := make([]float64, nb)
	for i, v := range s.steep {
		if math.IsNaN(v) {
			continue
		}
		k := int(math.Floor(s.aspect(i)/AspectBinDeg+0.5)) % nb
		hist[k]++
	}
	for k := range hist {
		hist[k] /= float64(s.sloping)
	}
	step := nb / 4 // 45°
	axes := (hist[0] + hist[step] + hist[2*step] + hist[3*step]) / 4
	return axes / (1 / float64(nb)), hist
}

// BaseLevel returns the cells of f's base-level plain: those within BaseTol
// of the map's lowest height that reach an edge water leaves by (Outlet or
// Natural) through such cells, 8-connected. Water that reaches the plain
// has reached base level (the sea, or the outlets' level), so the measures
// end rivers there rather than route them across it as lakes. nil when no
// such cell touches an open edge.
func BaseLevel(f *sim.Field, edges flow.Edges) []bool {
	w, ht := f.W, f.H
	lo, _ := f.MinMax()
	low := func(i int) bool { return float64(f.Data[i])-float64(lo) <= BaseTol }
	base := make([]bool, w*ht)
	var queue []int
	for y := range ht {
		for x := range w {
			i := y*w + x
			if (x == 0 || y == 0 || x == w-1 || y == ht-1) && lets(edges, x, y, w, ht) && low(i) {
				base[i] = true
				queue = append(queue, i)
			}
		}
	}
	if len(queue) == 0 {
		return nil
	}
	for len(queue) > 0 {
		i := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		x, y := i%w, i/w
		for d := range 8 {
			nx, ny := x+dx8[d], y+dy8[d]
			if nx < 0 || ny < 0 || nx >= w || ny >= ht {
				continue
			}
			j := ny*w + nx
			if !base[j] && low(j) {
				base[j] = true
				queue = append(queue, j)
			}
		}
	}
	return base
}

// CutTree returns t with every node that base marks made a root: rivers end
// where they reach the base-level plain. t is not modified; nil base
// returns t.
func CutTree(t Tree, base []bool) Tree {
	if base == nil {
		return t
	}
	t.check()
	t.Rec, t.Dist = slices.Clone(t.Rec), slices.Clone(t.Dist)
	return cutTree(t, base)
}

// cutTree is CutTree writing t's receivers and distances in place.
func cutTree(t Tree, base []bool) Tree {
	for i, b := range base {
		if b {
			t.Rec[i], t.Dist[i] = int32(i), 0
		}
	}
	return t
}

// ChannelConcavity fits the slope–area relation on the channels of t only:
// the nodes draining minArea m² or more that base does not mark (the
// base-level plain and sea; nil: none) and skip does not (cells a fill
// raised; nil: none), with each node's slope measured over ChannelReach
// receiver steps on heights h (fewer where the path reaches a root or a
// marked node first), against the mean log10 area of the reach's steps
// weighted by their lengths (the slope is their mean). The fit is
// FitSlopeArea's least squares on log10 values; nodes whose reach does not
// fall are left out.
func ChannelConcavity(t Tree, h []float32, base, skip []bool, minArea float64) (SlopeArea, error) {
	t.check()
	return channelConcavity(t, t.Area(nil), h, base, skip, minArea)
}

func channelConcavity(t Tree, area []float64, h []float32, base, skip []bool, minArea float64) (SlopeArea, error) {
	var xs, ys []float64
	for i, a := range area {
		if a < minArea || (base != nil && base[i]) || (skip != nil && skip[i]) {
			continue
		}
		j, dist, logA := int32(i), 0.0, 0.0
		for k := 0; k < ChannelReach; k++ {
			r := t.Rec[j]
			if r == j {
				break
			}
			d := float64(t.Dist[j])
			dist += d
			logA += d * math.Log10(area[j])
			j = r
			if base != nil && base[j] {
				break
			}
		}
		if dist == 0 {
			continue
		}
		s := (float64(h[i]) - float64(h[j])) / dist
		if !(s > 0) {
			continue
		}
		xs = append(xs, logA/dist)
		ys = append(ys, math.Log10(s))
	}
	return slopeAreaFromLogs(xs, ys, minArea)
}

// MeasureRealism measures f's realism (see Realism): edges say where water
// leaves (for the base-level plain, BaseLevel), talus is the angle in
// degrees the threshold spike is measured at (0: the slope histogram's
// mode).
func MeasureRealism(f *sim.Field, edges flow.Edges, talus float64) (*Realism, error) {
	if err := checkField(f); err != nil {
		return nil, err
	}
	return measureRealism(f, BaseLevel(f, edges), talus), nil
}

func measureRealism(f *sim.Field, base []bool, talus float64) *Realism {
	s := newSurface(f, base)
	hist := s.hist()
	r := &Realism{Sloping: s.sloping, SlopeHist: hist.Shares(), Talus: talus}
	if talus <= 0 {
		r.Talus, r.TalusMode = hist.Mode(), true
	}
	r.Spike = hist.Spike(r.Talus)
	r.Planar = s.planar()
	r.HilltopCurv, r.HilltopConvex, r.Hilltops = s.hilltops(f.Data)
	r.Anisotropy, r.AspectHist = s.anisotropy()
	return r
}

// MeasureRealismBase is MeasureRealism with the base-level plain given.
func MeasureRealismBase(f *sim.Field, base []bool, talus float64) *Realism {
	return measureRealism(f, base, talus)
}

// FitHackMasked fits Hack's law on the cells draining minArea m² or more
// that base does not mark; area and length as Tree.Area and Tree.Length.
func FitHackMasked(area, length []float64, base []bool, minArea float64) (Hack, error) {
	if base == nil {
		return fitHack(area, length, minArea)
	}
	var xs, ys []float64
	for i, a := range area {
		if a >= minArea && !base[i] {
			xs = append(xs, math.Log10(a/1e6))
			ys = append(ys, math.Log10(length[i]/1e3))
		}
	}
	return hackFromLogs(xs, ys, minArea)
}
