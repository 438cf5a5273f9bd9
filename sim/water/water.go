package water

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"orogen/sim"
)

// Outside is the basin beyond a pass that leads out of the domain (to an
// outlet's tree or over a natural edge), and the Lake.Into of a lake that
// spills out of the domain.
const Outside = -1

// NoSpill is the Lake.Into of a lake that does not overflow.
const NoSpill = -2

// Pass is a pass between two neighbouring basins: the lowest water surface
// at which basin A's lake spills into basin B. A basin may list several
// passes to one neighbour; only the lowest counts.
type Pass struct {
	A, B int32   // pit basins; B is Outside for a pass out of the domain
	H    float32 // pass height, m
	Node int32   // the pass node, in A (reported as Lake.Pass)
}

// Input is what an engine hands the model each step: the heights its routing
// saw, the cell areas, the stream trees rooted at pits (the pit basins)
// and the passes between them. Basins are numbered 0..len(Root)-1; every
// node not in a pit basin belongs to an outlet's tree. The model only reads
// an Input, during Step and WaterDepth.
type Input struct {
	H        []float32 // heights, m, one per node
	Area     []float64 // cell area of each node, m²; nil: CellArea for all
	CellArea float64   // m², when Area is nil
	// The basin of node i is Label[i] when LabelBasin is nil, and
	// LabelBasin[Label[i]] otherwise; a basin < 0 is an outlet's tree.
	// Label may be nil only when there are no pit basins.
	Label      []int32
	LabelBasin []int32
	Root       []int32   // per pit basin: its pit node, the root of its tree
	Nodes      [][]int32 // per pit basin: its nodes; nil: built from Label
	Passes     []Pass
}

// basinOf returns the basin of node i, or a negative number for an outlet's
// tree.
func (in *Input) basinOf(i int32) int32 {
	if in.Label == nil {
		return -1
	}
	l := in.Label[i]
	if in.LabelBasin != nil {
		if l < 0 {
			return -1
		}
		return in.LabelBasin[l]
	}
	return l
}

// area returns the cell area of node i, m².
func (in *Input) area(i int32) float64 {
	if in.Area != nil {
		return in.Area[i]
	}
	return in.CellArea
}

// check panics when the input is malformed.
func (in *Input) check() {
	n := len(in.H)
	if in.Area != nil && len(in.Area) != n {
		panic(fmt.Sprintf("water: %d cell areas for %d nodes", len(in.Area), n))
	}
	if in.Label != nil && len(in.Label) != n {
		panic(fmt.Sprintf("water: %d labels for %d nodes", len(in.Label), n))
	}
	if len(in.Root) > 0 && in.Label == nil {
		panic("water: pit basins without labels")
	}
	if in.Nodes != nil && len(in.Nodes) != len(in.Root) {
		panic(fmt.Sprintf("water: %d node lists for %d basins", len(in.Nodes), len(in.Root)))
	}
	nb := int32(len(in.Root))
	for _, r := range in.Root {
		if r < 0 || int(r) >= n {
			panic(fmt.Sprintf("water: root %d out of range [0, %d)", r, n))
		}
	}
	for k, p := range in.Passes {
		if p.A < Outside || p.A >= nb || p.B < Outside || p.B >= nb {
			panic(fmt.Sprintf("water: pass %d joins basins %d and %d: out of range [-1, %d)", k, p.A, p.B, nb))
		}
	}
}

// Params are the parameters of the water budget. They may change between
// steps (SetParams).
type Params struct {
	Rain    float64   // precipitation r, m/yr over every m²
	RainMap []float32 // precipitation per node, m/yr; replaces Rain when non-nil
	// Evap is the evaporation constant e: a lake of volume V m³ loses
	// e·V^(5/6) m³/yr (Błaszczuk et al. 2023, §III.B.1), so e is in
	// m^(1/2)/yr.
	Evap float64
}

// Validate returns an error naming the first parameter out of range.
func (p Params) Validate() error {
	if math.IsNaN(p.Rain) || math.IsInf(p.Rain, 0) || p.Rain < 0 {
		return fmt.Errorf("water: rain %g m/yr: must be finite and >= 0", p.Rain)
	}
	if math.IsNaN(p.Evap) || math.IsInf(p.Evap, 0) || p.Evap < 0 {
		return fmt.Errorf("water: evaporation %g m^(1/2)/yr: must be finite and >= 0", p.Evap)
	}
	for i, r := range p.RainMap {
		if !(r >= 0) || math.IsInf(float64(r), 0) {
			return fmt.Errorf("water: rain map node %d is %g m/yr: must be finite and >= 0", i, r)
		}
	}
	return nil
}

// Budget is a water account, m³, kept in float64. Over any run,
// Rain = Evaporated + Outflow + (Stored − stored at the start).
type Budget struct {
	Rain       float64 // fallen on the domain
	Evaporated float64 // evaporated from the lakes
	Outflow    float64 // left the domain through outlets and natural edges
	Stored     float64 // held in lakes at the end
}

// Stats describe one Step.
type Stats struct {
	Budget     Budget // this step's rain, evaporation and outflow; Stored after it
	Lakes      int    // lakes holding water
	Merged     int    // pit basins absorbed into merged lakes (both optimizations and SCCs)
	Iterations int    // rounds of Algorithm 2 (network, SCCs, maximum flow)
	Time       time.Duration
}

// Lake is a lake after a step: one pit basin, or several merged into one
// water surface.
type Lake struct {
	Root   int32   // the lowest pit of its basins
	Level  float64 // water surface, m; the pit's height when dry
	Volume float64 // water, m³
	Area   float64 // flooded area, m²
	Pass   int32   // Pass.Node of its lowest pass, -1 for none
	PassH  float64 // height of that pass, m; +Inf for none
	Full   bool    // filled to its pass
	// Into is, for a full lake holding water, the index of the lake it
	// spills into, or Outside; NoSpill otherwise.
	Into   int32
	Spill  float64 // water that left over the pass this step, m³
	Basins []int32 // its pit basins, ascending
}

// CloneLakes returns a copy of lakes that shares no memory with it (a
// Model's lakes are its own until the next Step; snapshots keep copies).
func CloneLakes(lakes []Lake) []Lake {
	out := make([]Lake, len(lakes))
	for i, l := range lakes {
		l.Basins = append([]int32(nil), l.Basins...)
		out[i] = l
	}
	return out
}

// Model carries the water of a terrain from step to step: a volume stored
// at the pit of each lake. One goroutine owns a Model; the slices it
// returns are its own, valid until the next Step.
type Model struct {
	p     Params
	node  []int32   // nodes holding water, ascending
	vol   []float64 // their volumes, m³
	total Budget    // since New or Reset
	stats Stats
	lakes []Lake
	s     solver
}

// New returns a model with no water.
func New(p Params) (*Model, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return &Model{p: p}, nil
}

// SetParams changes the parameters from the next step on.
func (m *Model) SetParams(p Params) error {
	if err := p.Validate(); err != nil {
		return err
	}
	m.p = p
	return nil
}

// Params returns the parameters.
func (m *Model) Params() Params { return m.p }

// Reset removes all water and clears the account.
func (m *Model) Reset() {
	m.node, m.vol = m.node[:0], m.vol[:0]
	m.total = Budget{}
	m.lakes = m.lakes[:0]
	m.stats = Stats{}
}

// Budget returns the account since New or Reset.
func (m *Model) Budget() Budget { return m.total }

// Stats returns the statistics of the last step.
func (m *Model) Stats() Stats { return m.stats }

// Lakes returns the lakes of the last step, ordered by their lowest basin.
func (m *Model) Lakes() []Lake { return m.lakes }

// Water returns the stored water: vol[k] m³ at node[k], nodes ascending.
func (m *Model) Water() (node []int32, vol []float64) { return m.node, m.vol }

// SetWater replaces the stored water (a saved state; nodes must be
// distinct) and sets the account's Stored to its sum.
func (m *Model) SetWater(node []int32, vol []float64) error {
	if len(node) != len(vol) {
		return errors.New("water: node and volume counts differ")
	}
	idx := make([]int, len(node))
	for k := range idx {
		idx[k] = k
		if !(vol[k] >= 0) || math.IsInf(vol[k], 0) || node[k] < 0 {
			return fmt.Errorf("water: entry %d: %g m³ at node %d: need a finite volume >= 0 at a node >= 0", k, vol[k], node[k])
		}
	}
	slices.SortFunc(idx, func(a, b int) int { return int(node[a]) - int(node[b]) })
	m.node, m.vol = m.node[:0], m.vol[:0]
	m.total.Stored = 0
	for k, i := range idx {
		if k > 0 && node[i] == node[idx[k-1]] {
			return fmt.Errorf("water: node %d listed twice", node[i])
		}
		m.node = append(m.node, node[i])
		m.vol = append(m.vol, vol[i])
		m.total.Stored += vol[i]
	}
	return nil
}

// Step advances the water by dt years over the basins of in (Błaszczuk et al.
// 2023, §III.B): the stored water moves to the pits of the current basins
// (water in an outlet's tree leaves), rain δt·r·A joins every basin and
// evaporation δt·e·V^(5/6) leaves its pit (V the water moved there), then the
// lakes are filled, spilled and merged (Algorithm 2) and the new volumes
// stored.
func (m *Model) Step(in *Input, dt float64) Stats {
	t0 := time.Now()
	in.check()
	if m.p.RainMap != nil && len(m.p.RainMap) != len(in.H) {
		panic(fmt.Sprintf("water: rain map of %d nodes for %d nodes", len(m.p.RainMap), len(in.H)))
	}
	if !(dt >= 0) || math.IsInf(dt, 0) {
		panic(fmt.Sprintf("water: time step %g years", dt))
	}
	var st Stats
	s := &m.s
	s.setup(in, m.p, dt)
	// Move the stored water to its current basins (Fig. 1).
	for k, i := range m.node {
		if int(i) >= len(in.H) {
			st.Budget.Outflow += m.vol[k] // the node is gone: count it out
			continue
		}
		if b := in.basinOf(i); b >= 0 {
			s.water[b] += m.vol[k]
		} else {
			st.Budget.Outflow += m.vol[k]
		}
	}
	// Rain and evaporation.
	st.Budget.Rain = s.rainAll
	st.Budget.Outflow += s.rainAll - s.rainPits
	for b := range s.water {
		v := s.water[b]
		r := s.rain[b]
		e := dt * m.p.Evap * math.Pow(v, 5.0/6)
		e = min(e, v+r)
		st.Budget.Evaporated += e
		s.rem[s.find(int32(b))] += v + r - e
	}
	s.solve()
	st.Budget.Outflow += s.outflow
	st.Iterations, st.Merged = s.iters, s.merged
	m.lakes = s.output(m.lakes, in)
	m.node, m.vol = s.store(m.node[:0], m.vol[:0])
	for _, v := range m.vol {
		st.Budget.Stored += v
	}
	for _, lk := range m.lakes {
		if lk.Volume > 0 {
			st.Lakes++
		}
	}
	m.total.Rain += st.Budget.Rain
	m.total.Evaporated += st.Budget.Evaporated
	m.total.Outflow += st.Budget.Outflow
	m.total.Stored = st.Budget.Stored
	st.Time = time.Since(t0)
	m.stats = st
	return st
}

// WaterDepth sets dst[i] to the depth of lake water over node i, m (0 where
// dry), for the lakes of the last Step over the basins of in (the Input of
// that step), and returns dst.
func (m *Model) WaterDepth(dst []float32, in *Input) []float32 {
	dst = sim.Resize(dst, len(in.H))
	clear(dst)
	for _, lk := range m.lakes {
		if lk.Volume <= 0 {
			continue
		}
		for _, b := range lk.Basins {
			for _, i := range m.s.nodesOf(b) {
				if d := lk.Level - float64(in.H[i]); d > 0 {
					dst[i] = float32(d)
				}
			}
		}
	}
	return dst
}
