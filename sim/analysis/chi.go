package analysis

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// The χ method's constants (ChiConcavity). Like realism.go's, each is a
// definition: changing one changes what θ means.
const (
	// ThetaMax and ThetaStep set the concavities the χ method tries: every
	// ThetaStep from 0 to ThetaMax. Real rivers lie in 0.35–0.65 (Whipple
	// and Tucker 1999; Wobus et al. 2006); the range is wide so that a
	// terrain outside it reads where it is.
	ThetaMax, ThetaStep = 1.5, 0.01

	// ThetaCoarse is the step of the χ method's first pass: it tries every
	// ThetaCoarse, then every ThetaStep within ThetaCoarse of the best.
	ThetaCoarse = 0.05

	// DefaultMinBasin is the smallest basin the χ method fits when
	// Options.MinBasin is 0, in channel thresholds: a basin whose outlet
	// drains fewer than DefaultMinBasin·ChannelArea cells is left out.
	// Small basins have a trunk and one or two short tributaries, whose
	// misfit hardly changes with θ.
	DefaultMinBasin = 5

	// MinHeads is the fewest channel heads a basin needs to be fitted: a
	// trunk and at least one tributary to collapse onto it.
	MinHeads = 2
)

// ChiConcavity is the concavity θ of a landscape by the χ method, fitted
// basin by basin (ChiConcavityOf).
type ChiConcavity struct {
	// Concavity is the median of the basins' θ (the mean of the two middle
	// ones on an even count), Q1 and Q3 their lower and upper quartiles
	// (linear between ranks): how far the basins agree.
	Concavity float64 `json:"concavity"`
	Q1        float64 `json:"q1"`
	Q3        float64 `json:"q3"`
	// Misfit is the median of the basins' misfits (ChiBasin.Misfit).
	Misfit float64    `json:"misfit"`
	Points int        `json:"points"` // channel nodes of the fitted basins
	Basins []ChiBasin `json:"basins"` // largest first
}

// ChiBasin is one basin's χ fit.
type ChiBasin struct {
	Outlet    [2]int  `json:"outlet"`        // x, y of the outlet
	Cells     float64 `json:"cells"`         // area draining to the outlet, in cells
	Nodes     int     `json:"channel_nodes"` // channel nodes
	Heads     int     `json:"heads"`         // channel heads: channel nodes without a channel donor
	Concavity float64 `json:"concavity"`     // the θ that collapses the tributaries onto the trunk best
	// Misfit is the root mean square, over the tributary nodes, of their
	// height less the trunk's at the same χ (linear between trunk nodes),
	// at Concavity, over the basin's channel relief: 0 when every
	// tributary lies on the trunk in χ–elevation space.
	Misfit float64 `json:"misfit"`
}

// ChiConcavityOf fits the concavity θ of the channels of t by the χ method
// (Perron and Royden 2013), basin by basin as Mudd et al. 2018 do. The
// channels are the nodes draining minArea m² or more that base does not
// mark (the base-level plain and sea; nil: none), heights h; w is the
// grid's width, for the outlets' x and y. A basin is the channel network
// of one outlet (a root of t) that drains minBasin m² or more and has at
// least MinHeads channel heads.
//
// In each basin χ = ∫ (A₀/A)^θ dx is integrated up every channel from the
// outlet, one receiver step at a time with the area of the step's upper
// node (A₀ the channel threshold: θ does not depend on it). At steady
// state under uplift and erodibility uniform in the basin, heights are
// z = z_b + k_sn·χ at θ = m/n (Perron and Royden 2013), so every tributary
// lies on the trunk in χ–elevation space whatever the steepness k_sn.
// Sources of the rest slope that vary along the rivers move the θ read
// here off m/n though every node is at rest: uplift, erodibility, and in
// the grid engine the deposition term G·Qs/A and the creep's delivery
// into the channels (docs/REALISM.md, "Why the retuned presets' θ by χ
// was off"). The
// basin's θ is the one that minimizes the mean square of the tributary
// nodes' height less the trunk's at the same χ (linear between trunk
// nodes). Mudd et al. 2018 compare tributaries with the trunk in
// χ–elevation space the same way and score the residuals by a Gaussian
// likelihood, whose maximum for a fixed σ is this least-squares minimum.
// θ is tried every ThetaCoarse from 0 to ThetaMax, then every ThetaStep
// within ThetaCoarse of the best (the middle of a run of equal misfits on
// a tie). The trunk is the channel from the outlet up, at each confluence
// through the donor draining more area; tributary nodes higher in χ than
// the trunk's top are left out.
//
// The landscape's θ is the median over the basins: a basin's steepness,
// set by its uplift and erodibility, does not move its θ, where one fit of
// slope against area over every channel at once (ChannelConcavity) mixes
// the steepness of all basins into the exponent. The channel threshold
// keeps out the hillslopes and colluvial hollows, whose slope does not
// fall with area as a river's does (Montgomery and Foufoula-Georgiou
// 1993). No reach is left out for being near flat: χ needs no slope, and
// a minimum slope (tried at 0.005–0.05 on the real DEMs of app/cli's
// testdata and the retuned presets) moved the presets' θ by 0.05 at most
// and Jacksboro's from 0.55 up to 0.73.
func ChiConcavityOf(t Tree, h []float32, base []bool, minArea, minBasin float64, w int) (ChiConcavity, error) {
	t.check()
	if len(h) != len(t.Rec) || (base != nil && len(base) != len(t.Rec)) {
		panic(fmt.Sprintf("analysis: %d heights and %d base cells for %d nodes", len(h), len(base), len(t.Rec)))
	}
	return chiConcavity(t, t.Area(nil), h, base, minArea, minBasin, w)
}

// chiBasin is one basin's channel nodes, receivers first, by index in
// the tree.
type chiBasin struct {
	outlet int32
	nodes  []int32
}

func chiConcavity(t Tree, area []float64, h []float32, base []bool, minArea, minBasin float64, w int) (ChiConcavity, error) {
	n := len(t.Rec)
	channel := func(i int32) bool { return area[i] >= minArea && (base == nil || !base[i]) }
	// Each node's outlet, receivers first; the channel nodes of each
	// outlet draining minBasin or more, in Stack order.
	outlet := make([]int32, n)
	slot := make([]int32, n) // outlet → its basin in basins, plus one
	var basins []chiBasin
	for _, i := range t.Stack {
		r := t.Rec[i]
		if r == i {
			outlet[i] = i
		} else {
			outlet[i] = outlet[r]
		}
		o := outlet[i]
		if !channel(i) || area[o] < minBasin {
			continue
		}
		if slot[o] == 0 {
			basins = append(basins, chiBasin{outlet: o})
			slot[o] = int32(len(basins))
		}
		b := &basins[slot[o]-1]
		b.nodes = append(b.nodes, i)
	}
	slices.SortFunc(basins, func(a, b chiBasin) int {
		if c := cmp.Compare(area[b.outlet], area[a.outlet]); c != 0 {
			return c
		}
		return cmp.Compare(a.outlet, b.outlet)
	})
	var res ChiConcavity
	s := newChiScratch(n)
	for _, b := range basins {
		fit, ok := s.fit(t, area, h, b.nodes, minArea)
		if !ok || fit.Heads < MinHeads {
			continue
		}
		o := int(b.outlet)
		fit.Outlet = [2]int{o % w, o / w}
		fit.Cells = area[o] / t.cellArea(b.outlet)
		res.Basins = append(res.Basins, fit)
		res.Points += fit.Nodes
	}
	if len(res.Basins) == 0 {
		return ChiConcavity{}, fmt.Errorf("analysis: no basin drains %g m² or more with %d channel heads or more: the map is too small, or the channel threshold too high, for the χ method", minBasin, MinHeads)
	}
	ths := make([]float64, len(res.Basins))
	mis := make([]float64, len(res.Basins))
	for k, b := range res.Basins {
		ths[k], mis[k] = b.Concavity, b.Misfit
	}
	slices.Sort(ths)
	slices.Sort(mis)
	res.Concavity, res.Q1, res.Q3 = quantile(ths, 0.5), quantile(ths, 0.25), quantile(ths, 0.75)
	res.Misfit = quantile(mis, 0.5)
	return res, nil
}

// cellArea is the area of node i, m².
func (t Tree) cellArea(i int32) float64 {
	if t.Weight != nil {
		return t.Weight[i]
	}
	return t.CellArea
}

// quantile returns the q-quantile of sorted s, linear between ranks.
func quantile(s []float64, q float64) float64 {
	p := q * float64(len(s)-1)
	k := int(p)
	if k+1 >= len(s) {
		return s[len(s)-1]
	}
	f := p - float64(k)
	return s[k]*(1-f) + s[k+1]*f
}

// chiScratch holds what one basin's fit needs, reused from basin to basin:
// pos maps a tree node to its place in the basin (plus one; 0: not in it)
// and is cleared after each basin.
type chiScratch struct {
	pos                  []int32
	up, big, trunk       []int32
	dist, logA, z, x, tc []float64
	wgt, rise            []float64 // (A₀/A)^θ, and its factor from one coarse θ to the next
	q                    []int32   // each node's place on the trunk at the last θ
	onTrunk              []bool
}

// misfit returns the mean square of the tributary nodes' height less the
// trunk's at the same χ, on the basin fit set up, with each node's
// (A₀/A)^θ in wgt; false when no tributary node lies within the trunk's χ.
func (s *chiScratch) misfit() (float64, bool) {
	m := len(s.x)
	for k := range m { // receivers first: χ of the receiver is ready
		v := s.dist[k] * s.wgt[k]
		if u := s.up[k]; u >= 0 {
			v += s.x[u]
		}
		s.x[k] = v
	}
	for q, k := range s.trunk {
		s.tc[q] = s.x[k]
	}
	tc := s.tc
	top := tc[len(tc)-1]
	ss, cnt := 0.0, 0
	for k := range m {
		x := s.x[k]
		if s.onTrunk[k] || x > top {
			continue
		}
		// The trunk segment [tc[q-1], tc[q]] holding x, from the last θ's.
		q := int(s.q[k])
		for q > 1 && tc[q-1] > x {
			q--
		}
		for q < len(tc)-1 && tc[q] < x {
			q++
		}
		s.q[k] = int32(q)
		a, b := s.trunk[q-1], s.trunk[q]
		zt := s.z[a] // below the trunk's lowest node: its height
		if x > tc[q-1] {
			zt += (x - tc[q-1]) / (tc[q] - tc[q-1]) * (s.z[b] - s.z[a])
		}
		ss += (s.z[k] - zt) * (s.z[k] - zt)
		cnt++
	}
	return ss / float64(max(cnt, 1)), cnt > 0
}

func newChiScratch(n int) *chiScratch { return &chiScratch{pos: make([]int32, n)} }

// fit fits θ on one basin's channel nodes (receivers first); false when
// the basin has no channel relief or no tributary node to compare.
func (s *chiScratch) fit(t Tree, area []float64, h []float32, nodes []int32, a0 float64) (ChiBasin, bool) {
	m := len(nodes)
	for k, i := range nodes {
		s.pos[i] = int32(k) + 1
	}
	defer func() {
		for _, i := range nodes {
			s.pos[i] = 0
		}
	}()
	grow := func(v []float64) []float64 { return slices.Grow(v[:0], m)[:m] }
	growI := func(v []int32) []int32 { return slices.Grow(v[:0], m)[:m] }
	s.up, s.big = growI(s.up), growI(s.big)
	s.dist, s.logA, s.z, s.x = grow(s.dist), grow(s.logA), grow(s.z), grow(s.x)
	s.wgt, s.rise = grow(s.wgt), grow(s.rise)
	s.onTrunk = slices.Grow(s.onTrunk[:0], m)[:m]
	zlo, zhi := math.Inf(1), math.Inf(-1)
	heads := 0
	for k := range m {
		s.big[k] = -1
	}
	first := int32(-1) // the trunk's lowest node: the largest with no receiver in the basin
	for k, i := range nodes {
		s.up[k] = -1
		r := t.Rec[i]
		if r != i {
			s.dist[k] = float64(t.Dist[i])
			if p := s.pos[r]; p > 0 {
				s.up[k] = p - 1
				if b := s.big[p-1]; b < 0 || area[i] > area[nodes[b]] {
					s.big[p-1] = int32(k)
				}
			}
		} else {
			s.dist[k] = 0
		}
		if s.up[k] < 0 && (first < 0 || area[i] > area[nodes[first]]) {
			first = int32(k)
		}
		s.logA[k] = math.Log(a0 / area[i])
		s.z[k] = float64(h[i])
		zlo, zhi = min(zlo, s.z[k]), max(zhi, s.z[k])
		s.onTrunk[k] = false
	}
	for k := range m {
		if s.big[k] < 0 {
			heads++
		}
	}
	relief := zhi - zlo
	if !(relief > 0) || first < 0 {
		return ChiBasin{}, false
	}
	s.trunk = s.trunk[:0]
	for k := first; k >= 0; k = s.big[k] {
		s.trunk = append(s.trunk, k)
		s.onTrunk[k] = true
	}
	if len(s.trunk) < 2 || len(s.trunk) == m {
		return ChiBasin{}, false
	}
	s.tc = slices.Grow(s.tc[:0], len(s.trunk))[:len(s.trunk)]
	s.q = slices.Grow(s.q[:0], m)[:m]
	for k := range s.q {
		s.q[k] = 1
	}
	// The misfit at every coarse θ (ThetaCoarse apart), then at every
	// ThetaStep within ThetaCoarse of the best of them.
	nth := int(math.Round(ThetaMax / ThetaStep))
	per := int(math.Round(ThetaCoarse / ThetaStep))
	best, lo, hi := math.Inf(1), -1, -1
	// The coarse θ raise each (A₀/A)^θ by the same factor, (A₀/A)^ThetaCoarse.
	for k := range m {
		s.wgt[k], s.rise[k] = 1, math.Exp(float64(per)*ThetaStep*s.logA[k])
	}
	try := func(c int) {
		d, ok := s.misfit()
		for k := range m {
			s.wgt[k] *= s.rise[k]
		}
		if !ok {
			return
		}
		switch {
		case d < best:
			best, lo, hi = d, c, c
		case d == best && hi == c-per:
			hi = c
		}
	}
	for c := 0; c <= nth; c += per {
		try(c)
	}
	if lo < 0 {
		return ChiBasin{}, false
	}
	c0, c1 := max(lo-per+1, 0), min(hi+per-1, nth)
	best, lo, hi = math.Inf(1), -1, -1
	for c := c0; c <= c1; c++ {
		for k := range m {
			s.wgt[k] = math.Exp(float64(c) * ThetaStep * s.logA[k])
		}
		d, ok := s.misfit()
		if !ok {
			continue
		}
		switch {
		case d < best:
			best, lo, hi = d, c, c
		case d == best && hi == c-1:
			hi = c
		}
	}
	return ChiBasin{
		Nodes: m, Heads: heads,
		Concavity: float64(lo+hi) / 2 * ThetaStep,
		Misfit:    math.Sqrt(best) / relief,
	}, true
}
