package splgpu

import (
	"fmt"
	"sync"
	"time"
	"unsafe"

	"orogen/gpu"
	"orogen/sim"
	"orogen/sim/engine"
	"orogen/sim/water"
)

// budget is the lakes' water budget (Błaszczuk et al. 2023, package
// water) of the GPU engine, run on the host on the basins the device
// routed, as sim/grid runs it on sim/flow's: each step with rain reads
// back the heights the routing saw and the basin labels (8 bytes a
// cell), numbers the pits' basins in cell order (the lakes phase's
// order), finds the lowest pass between each two neighbouring basins as
// sim/flow's findPasses does (the same pairs, the same order, the first
// pass on ties), and steps the model while the device erodes. The model
// never changes the terrain, on the CPU engine either: its lakes are
// the water the snapshots show (Snapshot.Water, WaterLakes, Discharge)
// and the account the report gives.
type budget struct {
	rainMap []float32
	model   *water.Model
	in      water.Input
	ok      bool      // in describes the last step's routing
	h       []float32 // the heights the routing saw (in.H)
	// live: the routing saw the heights the step then eroded (not the
	// step's start, as with creep and random routing): snapshots
	// measure the water over the heights now, as sim/grid's, whose
	// Input holds its live heights then.
	live  bool
	basin []int32 // the basin of every cell (in.Label), -1 in an outlet's tree
	raw   []uint32
	pairs map[uint64]int32
	// The last pair each pit basin met (its neighbour and the pass's
	// index in the list): a basin's boundary runs along one neighbour
	// for several cells, so most pairs need no look-up in pairs.
	lastB, lastK []int32
	sorted       []water.Pass
	count        []int32
	done         sync.WaitGroup
	err          error
	// run: the step's budget is running (waterRead started it); read
	// and work: its time reading back and on the host (the Input and
	// the model's step, which overlap the device's erosion).
	run        bool
	read, work time.Duration
}

// waterOn reports whether the lakes' water budget runs.
func (e *Engine) waterOn() bool { return e.p.Rain > 0 || e.wat.rainMap != nil }

// waterParams are the budget's parameters.
func (e *Engine) waterParams() water.Params {
	return water.Params{Rain: e.p.Rain, RainMap: e.wat.rainMap, Evap: e.p.Evap}
}

// SetRainMap sets the rain of every cell, m/yr (W·H values; nil for the
// uniform Params.Rain), for the lakes' water budget from the next step
// on, as grid.Engine.SetRainMap. The engine keeps its own copy.
func (e *Engine) SetRainMap(r []float32) error {
	if r != nil && len(r) != e.n {
		return fmt.Errorf("splgpu: %d rain values for a %d×%d grid", len(r), e.w, e.h)
	}
	p := water.Params{RainMap: r}
	if err := p.Validate(); err != nil {
		return err
	}
	for i, v := range r {
		if v > engine.MaxRain {
			return fmt.Errorf("splgpu: rain %g m/yr at cell %d: absurd (at most %g)", v, i, float64(engine.MaxRain))
		}
	}
	e.wat.rainMap = nil
	if r != nil {
		e.wat.rainMap = append([]float32(nil), r...)
	}
	return e.waterSetParams()
}

// waterSetParams hands the parameters in force to a running budget.
func (e *Engine) waterSetParams() error {
	if e.wat.model != nil {
		return e.wat.model.SetParams(e.waterParams())
	}
	return nil
}

// Water returns the lakes' water budget, or nil when it is off
// (engine.Watered).
func (e *Engine) Water() *water.Model { return e.wat.model }

// RainMap returns the rain map SetRainMap gave (the engine's own copy),
// or nil.
func (e *Engine) RainMap() []float32 { return e.wat.rainMap }

// waterRead runs in the step's device work after the lakes phase, with
// pits the pits the routing listed: with the budget on it reads the
// routing's heights and, with pits, the basin labels back, and steps the
// budget on them in a goroutine of its own (waterWait joins it).
func (e *Engine) waterRead(c gpu.Context, pits int) error {
	b := &e.wat
	if !e.waterOn() {
		b.model, b.ok = nil, false
		return nil
	}
	t0 := time.Now()
	if b.model == nil {
		m, err := water.New(e.waterParams())
		if err != nil {
			return err
		}
		b.model = m
	}
	b.h = sim.Resize(b.h, e.n)
	b.live = e.rh == e.hb
	if err := c.Read(e.rh, 0, unsafe.Slice((*byte)(unsafe.Pointer(&b.h[0])), 4*e.n)); err != nil {
		return err
	}
	if pits > 0 {
		b.raw = sim.Resize(b.raw, e.n)
		if err := c.Read(e.labels(), 0, unsafe.Slice((*byte)(unsafe.Pointer(&b.raw[0])), 4*e.n)); err != nil {
			return err
		}
	}
	b.read, b.run = time.Since(t0), true
	b.done.Add(1)
	go func() {
		defer b.done.Done()
		t := time.Now()
		b.err = e.waterStep(pits)
		b.work = time.Since(t)
	}()
	return nil
}

// waterWait waits for the step's budget, if it ran, and returns its
// error (a routing whose pits the labels do not show). The step's water
// phase is the budget's time reading back and on the host (the host's
// part overlaps the device's erosion: the step waits only for what is
// left of it).
func (e *Engine) waterWait(st *engine.StepStats) error {
	b := &e.wat
	if !b.run {
		return nil
	}
	b.done.Wait()
	b.run = false
	st.Phase[engine.PhaseWater] = b.read + b.work
	if err := b.err; err != nil {
		b.err, b.ok = nil, false
		return err
	}
	b.ok = true
	return nil
}

// waterStep builds the budget's Input from the heights and labels read
// back and steps the model.
func (e *Engine) waterStep(pits int) error {
	b := &e.wat
	in := &b.in
	in.H, in.Area, in.CellArea, in.LabelBasin, in.Nodes = b.h, nil, e.cell*e.cell, nil, nil
	in.Root, in.Passes = in.Root[:0], in.Passes[:0]
	in.Label = nil
	if pits > 0 {
		// The pits' roots numbered in cell order (as the lakes phase
		// numbers them), then every cell its root's number.
		b.basin = sim.Resize(b.basin, e.n)
		lab := b.basin
		for i, r := range b.raw {
			switch {
			case r != uint32(i):
				if r >= uint32(e.n) || b.raw[r] != r {
					return fmt.Errorf("splgpu: cell %d's basin label %d is not a root of the grid", i, r)
				}
			case e.kinds[i] == kindInterior:
				lab[i] = int32(len(in.Root))
				in.Root = append(in.Root, int32(i))
			default:
				lab[i] = -1 // an outlet's tree
			}
		}
		for i, r := range b.raw {
			if r != uint32(i) {
				lab[i] = lab[r]
			}
		}
		if len(in.Root) != pits {
			return fmt.Errorf("splgpu: the labels show %d pits; the routing listed %d", len(in.Root), pits)
		}
		in.Label = lab
		e.waterPasses(in)
	}
	b.model.Step(in, e.p.Dt)
	// As sim/grid: the solver's scratch goes back; the node lists the
	// snapshots' water depth reads stay.
	b.model.ReleaseScratch()
	return nil
}

// waterPasses lists the lowest pass between each pit basin and each
// basin next to it, as sim/flow's findPasses does: pairs of cells of
// different basins (E, then S, SW and SE of each cell, row by row), at
// max(h_i, h_j), on the lower-numbered pit's side, the first pair kept
// on ties; a pit basin's cell on a Natural edge spills out of the grid
// over its own height. The list is by pit, each pit's passes in the
// order their pairs were first met.
func (e *Engine) waterPasses(in *water.Input) {
	b := &e.wat
	if b.pairs == nil {
		b.pairs = map[uint64]int32{}
	}
	clear(b.pairs)
	np := len(in.Root)
	b.lastB, b.lastK = sim.Resize(b.lastB, np), sim.Resize(b.lastK, np)
	for k := range b.lastB {
		b.lastB[k] = -2 // no neighbour yet (-1 is Outside)
	}
	lab, h, w := in.Label, in.H, e.w
	out := b.sorted[:0]
	keep := func(a, bb, i, j int32, wt float32) {
		k := b.lastK[a]
		if b.lastB[a] != bb {
			key := uint64(uint32(a))<<32 | uint64(uint32(bb))
			var ok bool
			if k, ok = b.pairs[key]; !ok {
				k = int32(len(out))
				b.pairs[key] = k
				out = append(out, water.Pass{A: a, B: bb, H: wt, Node: i})
			}
			b.lastB[a], b.lastK[a] = bb, k
		}
		if p := &out[k]; wt < p.H {
			p.H, p.Node = wt, i
		}
	}
	emit := func(i, j int) {
		ni, nj := lab[i], lab[j]
		if ni < 0 && nj < 0 {
			return
		}
		wt := max(h[i], h[j])
		if ni < 0 || (nj >= 0 && nj < ni) {
			keep(nj, ni, int32(j), int32(i), wt) // ni < 0: Outside
			return
		}
		keep(ni, nj, int32(i), int32(j), wt)
	}
	for y := range e.h {
		row := y * w
		for x := 0; x+1 < w; x++ {
			if lab[row+x+1] != lab[row+x] {
				emit(row+x, row+x+1)
			}
		}
		if y+1 < e.h {
			for x := range w {
				i, l := row+x, lab[row+x]
				if lab[i+w] != l {
					emit(i, i+w)
				}
				if x > 0 && lab[i+w-1] != l {
					emit(i, i+w-1)
				}
				if x+1 < w && lab[i+w+1] != l {
					emit(i, i+w+1)
				}
			}
		}
		for x := 0; x < w; x++ {
			if x > 0 && x < w-1 && y > 0 && y < e.h-1 {
				x = w - 2 // inner cells are never on an edge
				continue
			}
			i := row + x
			if a := lab[i]; a >= 0 && e.kinds[i] == kindNatural {
				keep(a, water.Outside, int32(i), -1, h[i])
			}
		}
	}
	// By pit, each pit's passes in the order met (a counting sort).
	b.count = sim.Resize(b.count, np+1)
	clear(b.count)
	for _, p := range out {
		b.count[p.A+1]++
	}
	for k := 1; k <= np; k++ {
		b.count[k] += b.count[k-1]
	}
	in.Passes = sim.Resize(in.Passes, len(out))
	for _, p := range out {
		in.Passes[b.count[p.A]] = p
		b.count[p.A]++
	}
	b.sorted = out
}

// waterSnapshot gives s the budget's water, as sim/grid's snapshots: the
// depth of its lakes over each cell (over s.Height, or with creep and
// random routing over the heights the routing saw), the lakes, their
// pits' centres and the discharge (the rain on every cell upstream,
// m³/yr).
func (e *Engine) waterSnapshot(s *engine.Snapshot) {
	b := &e.wat
	if b.model == nil || !b.ok || !e.routed {
		return
	}
	in := b.in
	if b.live {
		in.H = s.Height
	}
	s.Water = b.model.WaterDepth(nil, &in)
	s.WaterLakes = water.CloneLakes(b.model.Lakes())
	s.WaterPits = make([][2]float32, len(b.in.Root))
	for k, r := range b.in.Root {
		s.WaterPits[k] = [2]float32{float32(int(r)%e.w) + 0.5, float32(int(r)/e.w) + 0.5}
	}
	q := water.Discharge(nil, drainageOrder(s.Receivers), s.Receivers, nil, e.cell*e.cell, e.waterParams())
	s.Discharge = make([]float32, e.n)
	for i, v := range q {
		s.Discharge[i] = float32(v)
	}
}

// drainageOrder lists every node after its receiver (rec[i] == i at the
// roots): the roots, then their donors breadth first.
func drainageOrder(rec []int32) []int32 {
	n := len(rec)
	off := make([]int32, n+1)
	for i, r := range rec {
		if r != int32(i) {
			off[r+1]++
		}
	}
	for i := range n {
		off[i+1] += off[i]
	}
	don := make([]int32, n)
	cur := append([]int32(nil), off[:n]...)
	for i, r := range rec {
		if r != int32(i) {
			don[cur[r]] = int32(i)
			cur[r]++
		}
	}
	order := make([]int32, 0, n)
	for i, r := range rec {
		if r == int32(i) {
			order = append(order, int32(i))
		}
	}
	for k := 0; k < len(order); k++ {
		v := order[k]
		order = append(order, don[off[v]:off[v+1]]...)
	}
	if len(order) != n {
		// A cycle in the receivers (never routed so): the rest in
		// cell order, so that Discharge still sees every node once.
		seen := make([]bool, n)
		for _, v := range order {
			seen[v] = true
		}
		for i := range n {
			if !seen[i] {
				order = append(order, int32(i))
			}
		}
	}
	return order
}

// releaseWater drops the budget's host scratch (Release): the labels
// and pairs; what the snapshots read stays.
func (e *Engine) releaseWater() {
	b := &e.wat
	b.raw, b.pairs, b.lastB, b.lastK, b.sorted, b.count = nil, nil, nil, nil, nil, nil
	if b.model == nil {
		b.basin, b.in.Label = nil, nil
	}
}
