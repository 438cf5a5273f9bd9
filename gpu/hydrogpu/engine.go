package hydrogpu

import (
	"embed"
	"encoding/binary"
	"fmt"
	"math"
	"time"

	"orogen/gpu"
	"orogen/sim/geology"
	"orogen/sim/hydro"
)

//go:embed shaders/*.glsl
var shaders embed.FS

// kernel returns the source of one kernel: the version line, SPLIT for
// a grid split into bands, the shared declarations and the kernel's own
// file.
func kernel(name string, split bool) string {
	common, _ := shaders.ReadFile("shaders/common.glsl")
	own, _ := shaders.ReadFile("shaders/" + name + ".glsl")
	def := ""
	if split {
		def = "#define SPLIT 1\n"
	}
	return "#version 430\n" + def + string(common) + "\n" + string(own)
}

// Kernels, in the order a step runs them.
const (
	KFlux = iota
	KErode
	KMove
	KFinish
	KFix
	NumKernels
)

// KernelNames are the kernels' names, as in their .glsl files and the
// benchmark's metrics.
var KernelNames = [NumKernels]string{"flux", "erode", "move", "finish", "fix"}

// Storage bindings, as in the shaders.
const (
	bindParams = 0
	bindB      = 1
	bindBN     = 2
	bindD      = 3
	bindD1     = 4
	bindS      = 5
	bindS1     = 6
	bindF      = 7
	bindV      = 8
	bindHard   = 9
	bindQ      = 10
	bindTrem   = 11 // the thermal change the float32 terrain could not hold yet, m
	bindIn     = 12
	bindAlluv  = 13
	bindDisp   = 14
	bindRed    = 15
	// storageBlocks is the most storage buffers one kernel uses (erode).
	storageBlocks = 11
)

// group is the work group's width, cells, and rows the cells each
// invocation does along y (16×16 invocations, ROWS in common.glsl).
const (
	group = 16
	rows  = 4
)

// redHeader is the bytes of Red before the partial sums: acc[8] doubles
// and stats[8] uints.
const redHeader = 8*8 + 8*4

// Engine is sim/hydro's virtual-pipe model on a GPU. Its state lives in
// the device's memory; Step and Run queue work on the device's thread,
// and the accessors read the fields back. An Engine is owned by one
// goroutine, as hydro.Engine is.
type Engine struct {
	dev     gpu.Device
	w, h, n int
	cell    float64
	p       hydro.Params
	sources []hydro.Source
	rain    []float32 // the rain map, nil for 1
	warning string
	gx, gy  int

	b                                     [2]*field
	d, d1, s, s1, f, v, hard, q, trem, in *field
	alluv, disp                           *field // the alluvium (zero without a geology); the displacement (a geology only)
	geo                                   *geology.Map
	red                                   gpu.Buffer
	progs                                 [NumKernels]gpu.Program
	rock                                  gpu.Program // the hardness from the rock (a geology only)
	cur                                   int
	bands                                 []band     // one, or the bands of a split grid
	halo                                  int        // halo rows of each band's buffers: 0, or halo when split
	copies                                []haloCopy // the halo rows to bring up to date after a kernel

	inVol  float64
	step   int
	time   float64
	budget hydro.Budget
	rock0  float64
	stats  hydro.StepStats
	err    error
	// Kernel holds the milliseconds each kernel took in the last timed
	// step (Step times every step; Run does not).
	Kernel [NumKernels]float64
}

// params is Params in common.glsl, std430.
type params struct {
	Area, Dtd                                   float64
	W, H, Boundary, Thermal, GroupsX, Groups    int32
	Dt, Kf, Vol, InvArea, InvCell, HalfInvCell  float32
	Kc, Cmax, InvLMax, Dtks, Dtkd, Dtkhks, Rmin float32
	EvapKeep, DtCell, DtKt2, TanO, TanD         float32
	Band0, BandRows, GroupY0, Pad               int32
	Geology, NTops, AlluvLayer, Pad2            int32
	Tops                                        [maxLayers]float64
	RockHard                                    [maxLayers]float32
}

// maxLayers bounds a geology's layers and alluvium (its rock is a uint8
// a cell; the tables in Params).
const maxLayers = 256

// Bytes returns the device memory an n×m grid needs, bytes (8 more a
// cell with a geology: the displacement).
func Bytes(w, h int) int64 {
	n := int64(w) * int64(h)
	groups := int64((w+group-1)/group) * int64((h+group*rows-1)/(group*rows))
	// b×2, d, d1, s, s1, hard, q, trem, in, alluvium: 11 floats; f 4, v 2.
	return n*4*17 + groups*64 + redHeader
}

// New uploads cfg's terrain and state to dev and compiles the kernels.
// The configuration is checked as hydro.New checks it; a geology takes
// the hardness from the rock every step, as on the CPU. A grid whose
// fields exceed the driver's largest storage buffer is split into bands
// of rows, each field a buffer per band. Errors are one line.
func New(dev gpu.Device, cfg hydro.Config) (*Engine, error) {
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	if g := cfg.Geology; g != nil && g.NumLayers()+1 > maxLayers {
		return nil, fmt.Errorf("hydrogpu: a geology of %d layers: the GPU takes %d", g.NumLayers(), maxLayers-1)
	}
	t := cfg.Terrain
	e := &Engine{dev: dev, w: t.W, h: t.H, n: t.W * t.H, cell: t.Cell, p: cfg.Params,
		sources: append([]hydro.Source(nil), cfg.Sources...), rain: append([]float32(nil), cfg.Rain...), warning: cfg.Params.Warning(cfg.Terrain.Cell)}
	e.gx, e.gy = (e.w+group-1)/group, (e.h+group*rows-1)/(group*rows)
	info := dev.Info()
	if info.MaxStorageBuffers > 0 && info.MaxStorageBuffers < storageBlocks {
		return nil, fmt.Errorf("hydrogpu: %s allows %d storage buffers per kernel; the erosion kernel needs %d", info.Renderer, info.MaxStorageBuffers, storageBlocks)
	}
	if info.MaxBindings > 0 && info.MaxBindings <= bindRed {
		return nil, fmt.Errorf("hydrogpu: %s has %d storage bindings; the kernels need %d", info.Renderer, info.MaxBindings, bindRed+1)
	}
	if err := e.layout(info.MaxBufferBytes, info.Renderer); err != nil {
		return nil, err
	}
	if need := Bytes(e.w, e.h); info.MemoryMiB > 0 && need>>20 > int64(info.MemoryMiB) {
		return nil, fmt.Errorf("hydrogpu: a %d×%d grid needs %d MiB of GPU memory; %s has %d MiB", e.w, e.h, need>>20, info.Renderer, info.MemoryMiB)
	}
	var alluvium []float32
	if cfg.Geology != nil {
		alluvium = cfg.Alluvium
	}
	hard := cfg.Hardness
	if hard == nil {
		hard = make([]float32, e.n)
		for i := range hard {
			hard[i] = 1
		}
	}
	in, vol := hydro.Inflow(e.w, e.h, e.cell, e.p, cfg.Rain, cfg.Sources)
	e.inVol = vol
	var water float64
	for _, v := range cfg.Water {
		water += float64(v)
	}
	e.budget.Initial = water * e.cell * e.cell
	e.budget.Stored = e.budget.Initial
	e.rock0 = sumArea(t.Data, e.cell)
	e.stats.SedimentFix = 1
	e.stats.Budget = e.budget
	if cfg.Geology != nil {
		e.geo = cfg.Geology.Map(e.w, e.h, e.cell)
	}
	err := dev.Do(func(c gpu.Context) error {
		split := len(e.bands) > 1
		for k, name := range KernelNames {
			pname := "hydro-" + name
			if split {
				pname += "-split"
			}
			p, err := c.Program(pname, kernel(name, split))
			if err != nil {
				return err
			}
			e.progs[k] = p
		}
		fields := []struct {
			f     **field
			comps int
		}{
			{&e.b[0], 1}, {&e.b[1], 1}, {&e.d, 1}, {&e.d1, 1}, {&e.s, 1}, {&e.s1, 1},
			{&e.f, 4}, {&e.v, 2}, {&e.hard, 1}, {&e.q, 1}, {&e.trem, 1}, {&e.in, 1}, {&e.alluv, 1},
		}
		if e.geo != nil {
			name := "hydro-rock"
			if split {
				name += "-split"
			}
			p, err := c.Program(name, kernel("rock", split))
			if err != nil {
				return err
			}
			e.rock = p
			fields = append(fields, struct {
				f     **field
				comps int
			}{&e.disp, 2})
		}
		for _, a := range fields {
			fd, err := e.newField(c, a.comps)
			if err != nil {
				e.free(c)
				return err
			}
			*a.f = fd
		}
		var err error
		if e.red, err = c.NewBuffer(redHeader + e.gx*e.gy*64); err != nil {
			e.free(c)
			return err
		}
		for k := range e.bands {
			if e.bands[k].par, err = c.NewBuffer(binary.Size(params{})); err != nil {
				e.free(c)
				return err
			}
		}
		for _, u := range []struct {
			f *field
			v []float32
		}{{e.b[0], t.Data}, {e.b[1], t.Data}, {e.d, cfg.Water}, {e.hard, hard}, {e.in, in}, {e.alluv, alluvium}} {
			if err := e.writeField(c, u.f, u.v); err != nil {
				e.free(c)
				return err
			}
		}
		if e.geo != nil {
			// The displacement, float64 a cell.
			err := e.writeRows(c, e.disp, func(g int, out []byte) {
				for x := range e.w {
					binary.LittleEndian.PutUint64(out[8*x:], math.Float64bits(e.geo.Displacement(g*e.w+x)))
				}
			})
			if err != nil {
				e.free(c)
				return err
			}
		}
		if err := e.writeParams(c); err != nil {
			e.free(c)
			return err
		}
		return c.Finish()
	})
	if err != nil {
		return nil, err
	}
	return e, nil
}

// SetParams replaces the parameters from the next step on, as
// hydro.Engine.SetParams does (a change of boundary clears the fluxes
// through the map's edges).
func (e *Engine) SetParams(p hydro.Params) error {
	if err := p.Validate(); err != nil {
		return err
	}
	if e.err != nil {
		return e.err
	}
	old := e.p
	e.p, e.warning = p, p.Warning(e.cell)
	in, vol := hydro.Inflow(e.w, e.h, e.cell, p, e.rain, e.sources)
	e.inVol = vol
	var f []float32
	if old.Boundary != p.Boundary {
		f = e.read(e.f)
		for y := range e.h {
			f[4*(y*e.w)] = 0         // fL of the west column
			f[4*(y*e.w+e.w-1)+1] = 0 // fR of the east column
		}
		for x := range e.w {
			f[4*x+2] = 0               // fT of the north row
			f[4*((e.h-1)*e.w+x)+3] = 0 // fB of the south row
		}
	}
	err := e.dev.Do(func(c gpu.Context) error {
		if err := e.writeField(c, e.f, f); err != nil {
			return err
		}
		if err := e.writeField(c, e.in, in); err != nil {
			return err
		}
		return e.writeParams(c)
	})
	if err != nil {
		e.err = err
	}
	return err
}

// free releases the engine's buffers (on the device's thread).
func (e *Engine) free(c gpu.Context) {
	for _, fd := range []*field{e.b[0], e.b[1], e.d, e.d1, e.s, e.s1, e.f, e.v, e.hard, e.q, e.trem, e.in, e.alluv, e.disp} {
		e.freeField(c, fd)
	}
	for k := range e.bands {
		if e.bands[k].par != nil {
			c.Free(e.bands[k].par)
			e.bands[k].par = nil
		}
	}
	if e.red != nil {
		c.Free(e.red)
		e.red = nil
	}
}

// writeParams writes each band's parameters.
func (e *Engine) writeParams(c gpu.Context) error {
	for _, b := range e.bands {
		if err := c.Write(b.par, 0, e.paramBytes(b)); err != nil {
			return err
		}
	}
	return nil
}

// Close releases the engine's device memory (not the device).
func (e *Engine) Close() {
	e.dev.Do(func(c gpu.Context) error { e.free(c); return nil })
}

// paramBytes returns the per-step constants as sim/hydro's prepare makes
// them, in float32 where it rounds to float32, and band b's rows.
func (e *Engine) paramBytes(b band) []byte {
	p, cell := e.p, e.cell
	tan := math.Tan(p.TalusDeg * math.Pi / 180)
	dt := float32(p.Dt)
	q := params{
		Area: cell * cell, Dtd: p.Dt,
		W: int32(e.w), H: int32(e.h), Boundary: int32(p.Boundary), GroupsX: int32(e.gx), Groups: int32(e.gx * e.gy),
		Dt: dt, Kf: float32(p.Dt * p.A * p.G / p.L), Vol: float32(cell * cell / p.Dt),
		InvArea: float32(1 / (cell * cell)), InvCell: float32(1 / cell), HalfInvCell: float32(0.5 / cell),
		Kc: float32(p.Kc), Cmax: float32(p.CMax), InvLMax: float32(1 / p.LMax),
		Dtks: dt * float32(p.Ks), Dtkd: dt * float32(p.Kd), Dtkhks: dt * float32(p.Kh*p.Ks), Rmin: float32(p.RMin),
		EvapKeep: float32(max(0, 1-p.Ke*p.Dt)), DtCell: float32(p.Dt / cell),
		DtKt2: float32(min(p.Dt*p.Kt, 2.0/9) / 2),
		TanO:  float32(tan * cell), TanD: float32(tan * cell * math.Sqrt2),
		Band0: int32(b.r0), BandRows: int32(b.rows), GroupY0: int32(b.g0),
	}
	if e.geo != nil {
		m := e.geo.Model()
		q.Geology, q.NTops, q.AlluvLayer = 1, int32(m.NumLayers()), int32(m.NumLayers())
		for i := range m.NumLayers() {
			_, q.Tops[i] = m.Bounds(i)
		}
		for i := range m.NumLayers() + 1 {
			q.RockHard[i] = float32(max(p.RMin, m.Rock(i).Kd)) // as sim/hydro's rockHardness
		}
	}
	if p.Kt > 0 {
		q.Thermal = 1
	}
	buf := make([]byte, 0, binary.Size(q))
	buf, _ = binary.Append(buf, binary.LittleEndian, q)
	return buf
}

// bind attaches band k's buffers to the kernels' binding slots.
func (e *Engine) bind(c gpu.Context, k int) {
	c.Bind(bindParams, e.bands[k].par)
	c.Bind(bindB, e.b[e.cur].bufs[k])
	c.Bind(bindBN, e.b[1-e.cur].bufs[k])
	for _, b := range []struct {
		slot int
		f    *field
	}{{bindD, e.d}, {bindD1, e.d1}, {bindS, e.s}, {bindS1, e.s1}, {bindF, e.f}, {bindV, e.v},
		{bindHard, e.hard}, {bindQ, e.q}, {bindTrem, e.trem}, {bindIn, e.in}, {bindAlluv, e.alluv}, {bindDisp, e.disp}} {
		if b.f != nil {
			c.Bind(b.slot, b.f.bufs[k])
		}
	}
	c.Bind(bindRed, e.red)
}

// dispatch queues one step's kernels: each over every band, and on a
// split grid the halo rows of what a kernel wrote that the next ones read
// of the rows beside a cell (the fluxes and thermal outflows after flux,
// the water and the sediment after erode, the new terrain after move).
func (e *Engine) dispatch(c gpu.Context, timed bool) [NumKernels + 1]gpu.Query {
	var qs [NumKernels + 1]gpu.Query
	stamp := func(k int) {
		if timed {
			qs[k] = c.Timestamp()
		}
	}
	split := len(e.bands) > 1
	if !split {
		e.bind(c, 0)
	}
	each := func(k int, syncs ...*field) {
		for i, b := range e.bands {
			if split {
				e.bind(c, i)
			}
			c.Dispatch(e.progs[k], e.gx, b.gy, 1)
		}
		for _, fd := range syncs {
			e.sync(c, fd)
		}
	}
	stamp(0)
	if e.geo != nil {
		for i, b := range e.bands {
			if split {
				e.bind(c, i)
			}
			c.Dispatch(e.rock, e.gx, b.gy, 1)
		}
	}
	each(KFlux, e.f, e.q)
	stamp(1)
	each(KErode, e.d, e.s1)
	stamp(2)
	each(KMove, e.b[1-e.cur])
	stamp(3)
	c.Dispatch(e.progs[KFinish], 1, 1, 1)
	stamp(4)
	if e.p.Boundary != hydro.Open {
		each(KFix)
	}
	stamp(5)
	e.cur = 1 - e.cur
	return qs
}

// advance books a step on the host side.
func (e *Engine) advance() {
	e.step++
	e.time += e.p.Dt
	e.budget.RainIn += e.p.Dt * e.inVol
}

// Err returns the first device error (lost context, out of memory); once
// set, Step and Run do nothing.
func (e *Engine) Err() error { return e.err }

// Step runs one step, reads back its statistics and returns them, with
// each kernel's time (Kernel) from timer queries.
func (e *Engine) Step() hydro.StepStats {
	if e.err != nil {
		return e.stats
	}
	start := time.Now()
	var head [redHeader]byte
	var ns [NumKernels]int64
	err := e.dev.Do(func(c gpu.Context) error {
		qs := e.dispatch(c, true)
		var ts [NumKernels + 1]int64
		for k, q := range qs {
			t, err := c.Time(q)
			if err != nil {
				return err
			}
			ts[k] = t
		}
		for k := range ns {
			ns[k] = ts[k+1] - ts[k]
		}
		if err := c.Read(e.red, 0, head[:]); err != nil {
			return err
		}
		return c.Finish()
	})
	if err != nil {
		e.err = err
		return e.stats
	}
	e.advance()
	for k := range ns {
		e.Kernel[k] = float64(ns[k]) / 1e6
	}
	e.readStats(head[:])
	st := &e.stats
	st.Phase[hydro.PhaseFlux] = time.Duration(ns[KFlux])
	st.Phase[hydro.PhaseErosion] = time.Duration(ns[KErode])
	st.Phase[hydro.PhaseTransport] = time.Duration(ns[KMove] + ns[KFinish] + ns[KFix])
	st.Total = time.Since(start)
	return *st
}

// Run runs n steps without reading anything back between them, and then
// the statistics of the last.
func (e *Engine) Run(n int) error {
	if e.err != nil || n <= 0 {
		return e.err
	}
	var head [redHeader]byte
	err := e.dev.Do(func(c gpu.Context) error {
		for range n {
			e.dispatch(c, false)
		}
		return c.Read(e.red, 0, head[:])
	})
	if err != nil {
		e.err = err
		return err
	}
	for range n {
		e.advance()
	}
	e.readStats(head[:])
	return nil
}

// readStats fills e.stats and the budget from Red's header.
func (e *Engine) readStats(head []byte) {
	acc := func(k int) float64 { return math.Float64frombits(binary.LittleEndian.Uint64(head[8*k:])) }
	stat := func(k int) uint32 { return binary.LittleEndian.Uint32(head[64+4*k:]) }
	e.budget.Outflow, e.budget.Evaporated, e.budget.Dissolved = acc(0), acc(1), acc(2)
	e.budget.Stored, e.budget.SedimentOut = acc(3), acc(4)
	st := &e.stats
	st.Step, st.Time = e.step, e.time
	st.SedimentFix = acc(5)
	st.MaxDepth = float64(math.Float32frombits(stat(4)))
	st.MaxSpeed = float64(math.Float32frombits(stat(5)))
	st.MaxDh = float64(math.Float32frombits(stat(6)))
	st.Scaled = int(stat(7))
	st.Budget = e.budget
}

// read returns a field from the device.
func (e *Engine) read(fd *field) []float32 {
	out := make([]float32, e.n*fd.comps)
	if e.err != nil {
		return out
	}
	if err := e.dev.Do(func(c gpu.Context) error { return e.readField(c, fd, out) }); err != nil {
		e.err = err
	}
	return out
}

// Terrain returns a copy of the terrain heights b, metres.
func (e *Engine) Terrain() []float32 { return e.read(e.b[e.cur]) }

// Water returns a copy of the water depths d, metres.
func (e *Engine) Water() []float32 { return e.read(e.d) }

// Sediment returns a copy of the suspended sediment s, metres.
func (e *Engine) Sediment() []float32 { return e.read(e.s) }

// Hardness returns a copy of the hardness R.
func (e *Engine) Hardness() []float32 { return e.read(e.hard) }

// Velocity returns copies of the velocity components, m/s.
func (e *Engine) Velocity() (vx, vy []float32) {
	v := e.read(e.v)
	vx, vy = make([]float32, e.n), make([]float32, e.n)
	for i := range vx {
		vx[i], vy[i] = v[2*i], v[2*i+1]
	}
	return vx, vy
}

// Flux returns copies of the outflow fluxes f^L, f^R, f^T, f^B, m³/s.
func (e *Engine) Flux() (l, r, t, b []float32) {
	f := e.read(e.f)
	l, r, t, b = make([]float32, e.n), make([]float32, e.n), make([]float32, e.n), make([]float32, e.n)
	for i := range l {
		l[i], r[i], t[i], b[i] = f[4*i], f[4*i+1], f[4*i+2], f[4*i+3]
	}
	return
}

// Alluvium returns a copy of the alluvium's thickness per cell, m (nil
// without a geology).
func (e *Engine) Alluvium() []float32 {
	if e.geo == nil {
		return nil
	}
	return e.read(e.alluv)
}

// Geology returns the geology the hardness comes from, or nil.
func (e *Engine) Geology() *geology.Model {
	if e.geo == nil {
		return nil
	}
	return e.geo.Model()
}

// Snapshot reads the state back as sim/hydro's snapshot (with a geology,
// the rock exposed at the end of the step, as on the CPU).
func (e *Engine) Snapshot() *hydro.Snapshot {
	vx, vy := e.Velocity()
	s := &hydro.Snapshot{W: e.w, H: e.h, Cell: e.cell, Step: e.step, Time: e.time, Stats: e.stats, Param: e.p,
		Terrain: e.Terrain(), Water: e.Water(), Sediment: e.Sediment(), Hardness: e.Hardness(), VX: vx, VY: vy}
	if e.geo != nil {
		s.Geology, s.Alluvium = e.geo.Model(), e.Alluvium()
		s.Rock = e.geo.Exposed(make([]uint8, e.n), s.Terrain, s.Alluvium)
	}
	return s
}

// Stats returns the statistics of the last step read back.
func (e *Engine) Stats() hydro.StepStats { return e.stats }

// Budget returns the water account as of the last step read back.
func (e *Engine) Budget() hydro.Budget { return e.budget }

// Mass returns the rock account (reads the terrain and sediment back).
func (e *Engine) Mass() hydro.Mass {
	return hydro.Mass{RockInitial: e.rock0, Rock: sumArea(e.Terrain(), e.cell) + sumArea(e.read(e.trem), e.cell),
		Suspended: sumArea(e.Sediment(), e.cell), SedimentOut: e.budget.SedimentOut}
}

// Size returns the grid size and the cell size in metres.
func (e *Engine) Size() (w, h int, cell float64) { return e.w, e.h, e.cell }

// Params returns the parameters.
func (e *Engine) Params() hydro.Params { return e.p }

// StableDt returns Params().StableDt for the cell size.
func (e *Engine) StableDt() (float64, string) { return e.p.StableDt(e.cell) }

// Sources returns a copy of the point sources.
func (e *Engine) Sources() []hydro.Source { return append([]hydro.Source(nil), e.sources...) }

// Warning returns hydro's warning for the parameters, or "".
func (e *Engine) Warning() string { return e.warning }

// Device returns the device the engine runs on.
func (e *Engine) Device() gpu.Device { return e.dev }

func sumArea(v []float32, cell float64) float64 {
	var s float64
	for _, x := range v {
		s += float64(x)
	}
	return s * cell * cell
}
