package splgpu

import (
	"embed"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"time"
	"unsafe"

	"orogen/gpu"
	"orogen/sim"
	"orogen/sim/engine"
	"orogen/sim/flow"
	"orogen/sim/geology"
	"orogen/sim/grid"
	"orogen/sim/hillslope"
	"orogen/sim/talus"
)

//go:embed shaders/*.glsl
var shaders embed.FS

// Kernels, by the names of their .glsl files.
var kernelNames = []string{"diffscan", "creepfac", "creepscan", "creepscanrow", "creepscanrowi", "creepscanwide", "creepscannarrow", "creepscannarrowi", "sumh", "erodedep", "areacopy", "affmin",
	"deppits", "deplevels0", "deplevels1", "depvol", "depvolcmp", "dsinit", "dslocal16", "dslocal32", "dsrake", "dsjump", "dsrakelist", "dsjumplist", "dsrakelean", "dsjumplean", "dsinitlean", "dslist", "dslistargs", "dstail", "depphi", "depdr", "depfin", "newton", "newtondep", "route", "label", "cmapclear", "cmap", "passreset", "passmin", "passarg", "passout",
	"pitcopy", "carve", "areainit", "areainit1", "arearound", "erodeinit", "affine", "talusinit", "minplus", "finish", "reduce", "reducepart", "reducetwo",
	"balx", "baly", "reducebal", "balup", "balfin"}

// kernel returns the source of one kernel: the version line, the shared
// declarations and the kernel's own file.
func kernel(name string) string {
	common, _ := shaders.ReadFile("shaders/common.glsl")
	head := "#version 430\n"
	if v, ok := variants[name]; ok {
		name, head = v.file, head+v.defs
	}
	if depDefs != "" && depDefined(name) {
		head += depDefs
	}
	src := head + string(common)
	for _, f := range strings.Split(name, "+") { // a variant may join files
		own, _ := shaders.ReadFile("shaders/" + f + ".glsl")
		src += "\n" + string(own)
	}
	return src
}

// depDefined tells whether kernel file(s) name take depDefs: dsinit,
// dslist and the contraction's rounds but dstail's.
func depDefined(name string) bool {
	if v, ok := variants[name]; ok {
		name = v.file
	}
	return (strings.Contains(name, "dsrake") || strings.Contains(name, "dsjump") || name == "dslist" || name == "dsinit") && !strings.Contains(name, "dstail")
}

// variants are kernels compiled from another kernel's file with other
// definitions.
var variants = map[string]struct{ file, defs string }{
	// The creep's sweep along x: a work group a row (creepscan.glsl's
	// LINES).
	"creepscanrow": {"creepscan", "#define LINES 1\n"},
	// The same with c' and d' chunk-interleaved, on rows whose length
	// is a multiple of 256.
	"creepscanrowi": {"creepscan", "#define LINES 1\n#define INTERLEAVE\n"},
	// The sweep along y on grids of wideCells cells or more: 64
	// columns a work group, 4 chunks a column.
	"creepscanwide": {"creepscan", "#define LINES 64\n"},
	// The sweep along y on grids of at most NarrowCells cells: 4
	// columns a work group, 64 chunks a column.
	"creepscannarrow": {"creepscan", "#define LINES 4\n"},
	// The same with c' and d' interleaved across the group's columns
	// and chunks, on columns of a multiple of 64 cells and a multiple
	// of 4 columns (InterleaveColumns).
	"creepscannarrowi": {"creepscan", "#define LINES 4\n#define INTERLEAVE\n"},
	// The drainage area's start with its first round done (AreaFused).
	"areainit1": {"areainit", "#define FUSED\n"},
	// The deposition's rounds in shared memory on tiles of 16² and 32²
	// cells (DepTile).
	// The lakes' levels by pointer jumping, reading slot 0 or 1.
	"deplevels0": {"deplevels", "#define SLOT 0\n"},
	"deplevels1": {"deplevels", "#define SLOT 1\n"},
	"dslocal16":  {"dslocal", "#define TS 16\n"},
	"dslocal32":  {"dslocal", "#define TS 32\n"},
	// Newton's steps with deposition (n ≠ 1, G > 0): the source term
	// and sim/spl's Hold, maps with a cap.
	"newtondep": {"newton", "#define DEP\n"},
	// The contraction's rounds over the list of the nodes left
	// (DepList).
	// The finish's sums added in two levels (reducepart's groups).
	"reducetwo": {"reduce", "#define TWO\n"},
	// The contraction's rounds: their buffers (dsbuf.glsl) and halves,
	// over every cell or over the list of the nodes left (LIST).
	"dsrake":     {"dsbuf+dsrake", ""},
	"dsjump":     {"dsbuf+dsjump", ""},
	"dsrakelist": {"dsbuf+dsrake", "#define LEAN\n#define LIST\n"},
	"dsjumplist": {"dsbuf+dsjump", "#define LEAN\n#define LIST\n"},
	// On the lean layout (leanDep) before the first list.
	"dsrakelean": {"dsbuf+dsrake", "#define LEAN\n"},
	"dsjumplean": {"dsbuf+dsjump", "#define LEAN\n"},
	"dsinitlean": {"dsinit", "#define LEAN\n"},
	// The contraction's last rounds in one work group of 1024.
	"dstail": {"dsbuf+dsrake+dsjump+dstail", "#define LEAN\n#define TAIL\n#define LOCAL 1024\n#define MAXTAIL 1024\n#define TAILCAP 32768\n"},
}

// wideCells is the grid from which the creep's sweep along y takes 64
// columns a work group, not 16. With 16 (16 chunks a column, n/4 bytes
// apart) the sweep took 460 ms at 8192², 64 took 11.8 ms and 256 (one
// invocation a column) 43 ms; at 4096² 1.6, 5.0 and 18.7 ms, at 1024²
// 0.25, 0.85 and 3.1 ms (H200): 16 columns keep more invocations busy
// until the chunks' distance, 16 MB at 8192², makes them slow, which is
// measured at these two sizes only.
var wideCells = 1 << 25 // a variable for the tests

// NarrowCells is the grid up to which the creep's sweep along y takes 4
// columns a work group (64 chunks a column), not 16: at 1024² 16
// columns make 64 work groups, fewer than the card has multiprocessors.
// On an H200 the sweep took 0.174 against 0.251 ms at 1024², 0.642
// against 0.731 at 2048² (session 16). A variable for the tests and
// benchmarks.
var NarrowCells = 1 << 22

// Phases of a step, as Engine.Kernel reports them.
const (
	KHill = iota
	KRoute
	KLabel
	KLakes
	KArea
	KErode
	KTalus
	KDeposit
	KFinish
	NumKernels
)

// KernelNames are the phases' names in the benchmark's metrics.
var KernelNames = [NumKernels]string{"hillslope", "route", "label", "lakes", "area", "erode", "talus", "deposit", "finish"}

// Storage bindings, as in the shaders.
const (
	slotPar, slotCtl, slotH, slotD, slotLab = 0, 1, 2, 3, 4
	slotPs, slotPd, slotAs, slotAd, slotBs  = 5, 6, 7, 8, 9
	slotBd, slotUp, slotKF                  = 10, 11, 12
	slotQ0, slotQ1, slotCnt, slotPart       = 11, 12, 13, 14
	// storageBlocks is the most storage buffers one kernel uses
	// (dsjump, with Par and Ctl).
	storageBlocks = 12
)

// ctlHeader is the bytes of Ctl: ctl[16] uints, acc[8] doubles and corr.
const ctlHeader = 16*4 + 8*8 + 8

// group is the work group's size, cells.
const group = 256

// BytesPerCell is the device memory a cell takes: heights, uplift,
// codes, drainage counts, the previous two steps' heights and three
// pairs of pointer-jumping buffers (pointers, two values), 4 bytes each;
// the basin labels 4 more below LabelCells cells, from there none (they
// live in one of the pointer-jumping buffers: labels.go). Physics add
// to it (PhysicsBytesPerCell), and the lakes' arrays take 28 to 32
// bytes a pit (a pit in every tenth cell from a flat start with noise,
// fewer once rivers have formed; 40 more with deposition).
const BytesPerCell = 4 * 12

// PhysicsBytesPerCell is what p's physics add to BytesPerCell on a grid
// of n cells: k's factor 4 with k noise, the creep's mean factors 8 with
// nonlinear creep, with deposition 16 (the source term G·Qs/A, the
// alluvium, a pair of caps for the erosion's maps, in whose buffers and
// the pointer-jumping ones the contraction runs: leanDep), 28 below
// ListCells cells or without the lists (the contraction's slot 1 by
// cell, 12 of its own), and 4 with a talus angle by noise (its tangent
// per cell).
func PhysicsBytesPerCell(n int, p engine.Params) int64 {
	var b int64
	if p.KNoise > 0 {
		b += 4
	}
	if p.Kappa > 0 && p.CreepSc > 0 {
		b += 8
	}
	if p.G > 0 {
		b += 16
		if !leanDep(n) {
			b += 12
		}
	}
	if p.Talus.Mode == talus.ModeNoise {
		b += 4
	}
	return b
}

// Bytes returns the device memory a w×h grid needs without physics,
// bytes (with them: BytesFor).
func Bytes(w, h int) int64 {
	return BytesFor(w, h, engine.Params{})
}

// BytesFor returns the device memory a w×h grid needs with p's physics,
// bytes: what New and the physics' first step allocate, each buffer
// counted (TestBytesForIsAllocated), but the lakes' arrays (28 to 32
// bytes a pit, 40 more with deposition) and the rebalanced splitting's
// corrections (8 bytes a cell, grown by its first step); a geology adds
// GeologyBytesPerCell a cell (SetGeologyMap checks the sum against the
// card).
func BytesFor(w, h int, p engine.Params) int64 {
	n := int64(w) * int64(h)
	groups := (n + group - 1) / group
	gx := min(groups, 32768)
	ng := gx * ((groups + gx - 1) / gx)
	// Par, Ctl, the groups' sums, the diffusion's factors and lines,
	// the lists' indirect dispatch, the corrections' placeholder, the
	// label dispatches' work groups (labelargs).
	b := int64(binary.Size(params{})) + ctlHeader + ng*64 + (ng+group-1)/group*64 + 24*int64(w+h) + 32 + 32 + 16 + 4 + 16
	b += n * BytesPerCell
	// A buffer grown by grow takes 4 bytes more than 4 a cell; a
	// physics' field not grown stays a 4-byte placeholder (16 for s1).
	field := func(on bool, size int64) int64 {
		if on {
			return size
		}
		return 4
	}
	b += field(labelBytes(int(n)) > 0, 4*n)             // lab (labels.go)
	b += field(p.KNoise > 0, 4*n)                       // kf
	b += 2 * field(p.Kappa > 0 && p.CreepSc > 0, 4*n+4) // cfx, cfy
	b += 2 * field(p.G > 0, 4*n)                        // dr, alluv
	b += 2 * field(p.G > 0, 4*n+4)                      // cp
	if p.G > 0 && !leanDep(int(n)) {
		b += 12 * n // s1
	} else {
		b += 16
	}
	b += field(p.Talus.Mode == talus.ModeNoise, 4*n+4) // tf
	return b
}

// Engine is the grid stream-power engine (sim/grid's detachment-limited
// law, with the hillslope term and the talus limit) on a GPU. Its state
// lives in the device's memory; Step queues a step's kernels on the
// device's thread and reads back its statistics. An Engine is owned by
// one goroutine, as grid.Engine is.
type Engine struct {
	dev     gpu.Device
	w, h, n int
	cell    float64
	p       engine.Params
	step    int
	time    float64
	stats   engine.StepStats
	err     error

	up    []float32 // host copy of the uplift, nil for none
	upSum float64   // Σ u over the cells that move, m/yr
	kn    []float32
	knKey [4]float64
	// The creep's steps since its means were started afresh (New,
	// SetParams, SetUplift: as sim/grid resets its Creeper) and the step
	// of their last update (hillslope.Creeper's n and last).
	creepN, creepLast int
	vol               float64 // the heights' volume, m³
	kinds             []uint8
	routed            bool
	pits              int // the pits the last routing listed
	// lakeRounds is the Borůvka rounds of the last step's lakes.
	lakeRounds  int
	carveStamps [2]gpu.Query // around the carve kernel, when it ran
	// After the creep's factors, its sweeps along x and y and Σ h, when
	// it ran.
	hillStamps [4]gpu.Query
	// HillMs is the last step's hillslope phase by its parts: the
	// creep's factors, the sweep along x, along y, Σ h (0 without
	// nonlinear creep).
	HillMs     [4]float64
	passStamps []gpu.Query // around each Borůvka round's dispatches
	// PassMs is the device's time in the last step's Borůvka rounds'
	// dispatches (round 0's over every cell, the later ones' over the
	// boundary cells); the rest of the lakes phase less CarveMs is the
	// host's: reading the rounds back, merging, writing.
	PassMs float64
	// CarveMs is the part of the last step's lakes phase that reversed
	// the paths (the rest finds the passes), and LakeRounds its Borůvka
	// rounds.
	CarveMs    float64
	LakeRounds int
	// LakeHost is the last step's lakes phase on the host: its wall
	// time, the time in the calls reading from the device (each waits
	// for the device) and writing to it, ms, and the reads.
	LakeHost [4]float64
	// LakeSplit is the last lakes phase's host time by part, ms: the
	// read of the pits' roots, their sort and index (pitindex), the
	// Borůvka rounds' reads, and the tree's orientation and the lakes'
	// order after the rounds.
	LakeSplit [4]float64
	// QueryMs is the host's time in the last step after its last read:
	// the timer queries' results and the final check.
	QueryMs float64
	// lk is the lakes phase's host arrays, kept between steps.
	lk lakeScratch
	// roots are the pits' roots the labels' last read brought
	// (labelRoots) when rootsOK, in the routing's order; lastPits the
	// last step's pits.
	roots    []int32
	rootsOK  bool
	lastPits int
	// NewtonSteps is the last step's Newton steps (n ≠ 1; 0 for n = 1).
	NewtonSteps int
	// lakeList are the last routing's lakes, parents first (Spill,
	// Level, Start and Len unset: lakesOn measures them).
	lakeList []flow.Lake
	// areaBuf holds the area's counts after the area phase.
	areaBuf gpu.Buffer

	par, ctl, hb, ub, db, kf gpu.Buffer
	lab                      gpu.Buffer // the basin labels below LabelCells cells (ownLab), else a placeholder (labels.go)
	ownLab                   bool
	cnt                      gpu.Buffer // the last step's drainage area, cells
	fx, fy, dx, dy           gpu.Buffer // the diffusion's factors and lines along x and y
	cfx, cfy                 gpu.Buffer // the creep's mean factors of the east and south faces (grown with creep)
	// Deposition's fields (grown with G > 0): G·Qs/A of the last step
	// (m/yr), the erosion's caps (a pair of pointer-jumping buffers),
	// and per pit its record (Pit in common.glsl) and the lakes' order
	// from the outlets (pit, downstream pit).
	dr, lkP, lkO gpu.Buffer
	lsA          gpu.Buffer  // the list rounds' indirect dispatch (dslistargs)
	alluv        gpu.Buffer  // the alluvium's thickness, m (with G > 0)
	tf           gpu.Buffer  // the talus angle's tangent per cell (noise mode)
	tfKey        talus.Model // what tf was made for
	cp           [2]gpu.Buffer
	// lakeOrder is the last routing's lakes from the outlets as pairs
	// (pit, the pit of the lake downstream or -1), pits in the order of
	// the sorted roots.
	lakeOrder []int32
	// DepRounds is the last step's rounds of the deposition's tree
	// contraction (0 without deposition); depRounds the count the next
	// step tries before it reads back whether all nodes are solved.
	DepRounds, depRounds int
	// tailAt is the contraction's round from which dstail takes the
	// rest (DepTail, moved step by step); TailAt the last step's, -1
	// for none.
	tailAt, TailAt int
	// DepList is the length of the list of the nodes left the last
	// step's contraction ended on, -1 for none (DepList's rounds).
	DepList int
	// The contraction's slot 1 by cell (dsbuf.glsl; 16 bytes a cell,
	// grown with G > 0 where the layout is not lean: leanDep).
	s1 gpu.Buffer
	// chk: the contraction's bounds checks' record (depCheck), nil
	// without.
	chk gpu.Buffer
	// depStamps are around the contraction, when it ran; DepMs is the
	// last step's deposit phase by its parts: the lakes' records and
	// volumes, the contraction, the heights and the next rate (ms).
	depStamps [2]gpu.Query
	DepMs     [3]float64
	// The rebalanced splitting (SetRebalanced; sim/grid's balance.go):
	// whether it is on, the corrections (cx, cy) per cell, 8 bytes a
	// cell grown by the first balanced step, and whether they must
	// start from zero (a new engine, or a step without the hillslope
	// term, as sim/grid drops its balance).
	rebal, balZero bool
	cxy            gpu.Buffer
	part           gpu.Buffer // the work groups' partial sums
	part2          gpu.Buffer // their sums by 256 groups (reducepart)
	// The lakes' small arrays the host writes or reads: the pits' roots
	// sorted, and per component or basin its component, pass cell or
	// the pass's basins (lkA), the cell across (lkB). Writes to them
	// never touch a grid-sized buffer the device may still be using,
	// reads never read one. Each component's lowest pass's key and
	// edge, which only the device reads and writes, are in ab[0] and
	// ab[1] (free in the lakes phase: lakes.go).
	lkR, lkA, lkB gpu.Buffer
	// lkX holds what a Borůvka round gives the host, read at once
	// (passout.glsl): every read waits for the device.
	lkX            gpu.Buffer
	lbA            gpu.Buffer // the label dispatches' work groups (labelargs)
	difKey         [6]float64 // what fx, fy, dx, dy were made for
	difLines       [2]int     // the lines of the x and y sweeps
	sweepY         string     // the creep's last sweep along y's kernel (for the tests)
	areaSkip       int        // the area's rounds its start did (AreaFused): 0 or 1
	pb, ab, bb, qb [2]gpu.Buffer
	progs          map[string]gpu.Program
	gx, gy         int        // the grid of a field pass's work groups
	qc             int        // qb[qc] holds the heights at the start of the next step
	rh             gpu.Buffer // the heights the step routes on and finds the passes on (hb, or qb[qc]: sim/grid's routeHeights)
	rounds         [4]int
	caps           bool // jump binds the caps (affmin)

	bufs   *owned    // the buffers, freed by Close or when collected
	hcache []float32 // the heights read back, nil when stale
	wat    budget    // the lakes' water budget (water.go)
	// Kernel holds the milliseconds each phase took in the last step.
	Kernel [NumKernels]float64
	// Rounds holds the pointer-jumping rounds of the last step's label,
	// area, erosion and talus phases.
	Rounds [4]int

	// The geology (geology.go): the model on the grid, its device
	// buffer, and the last step's solves of the erosion (GeoIters).
	geo      *geology.Map
	geoBuf   gpu.Buffer
	GeoIters int
}

// Supports returns nil if the GPU engine runs p, else an error saying
// what runs on the CPU only.
func Supports(p engine.Params) error {
	why := ""
	switch {
	case p.Talus.Mode == talus.ModeHeight:
		why = "a talus angle by height"
	}
	if why != "" {
		return fmt.Errorf("splgpu: %s runs on the CPU only", why)
	}
	return nil
}

// Config describes a new engine, as grid.Config does.
type Config = grid.Config

// New uploads c's terrain to dev and compiles the kernels. The
// parameters must pass Supports; grids whose fields exceed the driver's
// largest storage buffer or the card's memory are refused. Errors are
// one line.
func New(dev gpu.Device, c Config) (*Engine, error) {
	if c.W < 3 || c.H < 3 || c.W > 1<<15 || c.H > 1<<15 {
		return nil, fmt.Errorf("splgpu: size %d×%d: each side must be in [3, 32768]", c.W, c.H)
	}
	if int64(c.W)*int64(c.H) > 1<<28 {
		return nil, fmt.Errorf("splgpu: a %d×%d grid has more than 2^28 cells, the GPU engine's limit", c.W, c.H)
	}
	if !(c.Cell >= 1e-3 && c.Cell <= 1e6) {
		return nil, fmt.Errorf("splgpu: cell size %g m: must be in [0.001, 1e6] m", c.Cell)
	}
	if math.IsNaN(c.InitNoise) || math.IsInf(c.InitNoise, 0) || c.InitNoise < 0 {
		return nil, fmt.Errorf("splgpu: initial noise %g m: must be finite and >= 0", c.InitNoise)
	}
	if err := c.Params.Validate(); err != nil {
		return nil, err
	}
	if err := Supports(c.Params); err != nil {
		return nil, err
	}
	n := c.W * c.H
	e := &Engine{dev: dev, w: c.W, h: c.H, n: n, cell: c.Cell, p: c.Params, progs: map[string]gpu.Program{}, ownLab: labelBytes(n) > 0}
	groups := (n + group - 1) / group
	e.gx = min(groups, 32768)
	e.gy = (groups + e.gx - 1) / e.gx
	info := dev.Info()
	if info.MaxStorageBuffers > 0 && info.MaxStorageBuffers < storageBlocks {
		return nil, fmt.Errorf("splgpu: %s allows %d storage buffers per kernel; the deposition's kernels need %d", info.Renderer, info.MaxStorageBuffers, storageBlocks)
	}
	if info.MaxBindings > 0 && info.MaxBindings <= slotPart {
		return nil, fmt.Errorf("splgpu: %s has %d storage bindings; the kernels need %d", info.Renderer, info.MaxBindings, slotPart+1)
	}
	if err := e.fits(e.p); err != nil {
		return nil, err
	}
	e.kinds = kinds(e.w, e.h, e.p.Edges)
	hgt := make([]float32, n)
	if c.Init != nil {
		if len(c.Init) != n {
			return nil, fmt.Errorf("splgpu: %d initial heights for a %d×%d grid", len(c.Init), c.W, c.H)
		}
		if err := sim.CheckFinite("splgpu: initial heights", "cell", c.Init); err != nil {
			return nil, err
		}
		copy(hgt, c.Init)
	}
	if c.InitNoise > 0 {
		// As grid.New: the same generator and order, fixed cells skipped.
		rng := rand.New(rand.NewPCG(c.Seed, 0x6f726f67656e))
		for i := range hgt {
			r := rng.Float64()
			if e.kinds[i] != kindFixed {
				hgt[i] += float32(r * c.InitNoise)
			}
		}
	}
	if c.Up != nil {
		if err := checkUplift(c.Up, n, c.W, c.H); err != nil {
			return nil, err
		}
		e.setUp(c.Up)
	}
	e.kn, e.knKey = grid.KNoise(e.kn, e.knKey, e.w, e.h, e.cell, e.p)
	e.vol = volume(hgt, e.cell)
	err := dev.Do(func(cx gpu.Context) error {
		for _, name := range kernelNames {
			pn := "spl-" + name
			if depDefs != "" && depDefined(name) {
				pn += fmt.Sprintf("-%x", crc32.ChecksumIEEE([]byte(depDefs)))
			}
			p, err := cx.Program(pn, kernel(name))
			if err != nil {
				return err
			}
			e.progs[name] = p
		}
		n4 := n * 4
		labSize := 4 // a placeholder where the labels share bb[1] (labels.go)
		if e.ownLab {
			labSize = n4
		}
		allocs := []struct {
			b    *gpu.Buffer
			size int
		}{
			{&e.par, binary.Size(params{})}, {&e.ctl, ctlHeader}, {&e.part, e.gx * e.gy * 64}, {&e.part2, (e.gx*e.gy + group - 1) / group * 64},
			{&e.lkR, 4}, {&e.lkA, 4}, {&e.lkB, 4}, {&e.lkX, 4}, {&e.lbA, 16}, // grown by the lakes (grow)
			{&e.fx, 24 * e.w}, {&e.fy, 24 * e.h}, {&e.dx, 32}, {&e.dy, 32}, {&e.cfx, 4}, {&e.cfy, 4}, {&e.dr, 4}, {&e.alluv, 4}, {&e.tf, 4}, {&e.lkP, 4}, {&e.lkO, 4}, {&e.lsA, 16}, {&e.cp[0], 4}, {&e.cp[1], 4}, {&e.s1, 16}, {&e.cxy, 4},
			{&e.hb, n4}, {&e.ub, n4}, {&e.db, n4}, {&e.cnt, n4}, {&e.lab, labSize}, {&e.kf, 4}, // kf grows with k noise (upload)
			{&e.pb[0], n4}, {&e.pb[1], n4}, {&e.ab[0], n4}, {&e.ab[1], n4}, {&e.bb[0], n4}, {&e.bb[1], n4},
			{&e.qb[0], n4}, {&e.qb[1], n4},
		}
		for _, a := range allocs {
			b, err := cx.NewBuffer(a.size)
			if err != nil {
				e.free(cx)
				return err
			}
			*a.b = b
		}
		hb := floatBytes(hgt)
		for _, b := range []gpu.Buffer{e.hb, e.qb[0], e.qb[1]} {
			if err := cx.Write(b, 0, hb); err != nil {
				e.free(cx)
				return err
			}
		}
		if err := e.upload(cx, upAll); err != nil {
			e.free(cx)
			return err
		}
		if err := cx.Write(e.db, 0, resetCodes(n)); err != nil {
			e.free(cx)
			return err
		}
		return cx.Finish()
	})
	if err != nil {
		return nil, err
	}
	// An engine dropped without Close (the app replaces engines) gives
	// its device memory back when it is collected.
	e.bufs = &owned{dev: dev, kf: e.kf, all: e.buffers()}
	runtime.AddCleanup(e, func(o *owned) { o.free() }, e.bufs)
	return e, nil
}

// fits returns nil if the grid with p's physics fits the device: its
// largest buffer (12 bytes a cell with deposition on a layout not lean,
// else 4) within the
// driver's largest storage buffer, and all of them (BytesFor) within the
// card's memory; else a one-line error naming the size and the remedy.
func (e *Engine) fits(p engine.Params) error {
	info := e.dev.Info()
	big := func(w, h int) int64 {
		n := int64(w) * int64(h)
		if p.G > 0 && !leanDep(w*h) {
			return 12 * n // the contraction's slot 1 by cell
		}
		return 4 * n
	}
	bufOK := func(w, h int) bool { return info.MaxBufferBytes <= 0 || big(w, h) <= info.MaxBufferBytes }
	memOK := func(w, h int) bool { return info.MemoryMiB <= 0 || BytesFor(w, h, p)>>20 <= int64(info.MemoryMiB) }
	if !bufOK(e.w, e.h) {
		return fmt.Errorf("splgpu: a %d×%d grid needs storage buffers of %d MiB; %s allows %d MiB: %s",
			e.w, e.h, big(e.w, e.h)>>20, info.Renderer, info.MaxBufferBytes>>20, fitting(e.w, e.h, bufOK))
	}
	if !memOK(e.w, e.h) {
		need := BytesFor(e.w, e.h, p)
		return fmt.Errorf("splgpu: a %d×%d grid needs %d MiB of GPU memory (%d bytes a cell); %s has %d MiB: %s",
			e.w, e.h, need>>20, BytesPerCell+labelBytes(e.n)+PhysicsBytesPerCell(e.n, p), info.Renderer, info.MemoryMiB,
			fitting(e.w, e.h, func(w, h int) bool { return bufOK(w, h) && memOK(w, h) }))
	}
	return nil
}

// fitting names the largest grid of w×h's shape that fits (ok): its
// longer side, as the CLI's --size takes it, or that none does.
func fitting(w, h int, ok func(w, h int) bool) string {
	long := max(w, h)
	lo, hi := 0, long-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if ok(max(1, w*mid/long), max(1, h*mid/long)) {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	if lo < 3 {
		return "no grid fits the card (--device cpu runs on the host)"
	}
	return fmt.Sprintf("--size %d fits", lo)
}

// owned is what a collected engine frees: its buffers on its device.
type owned struct {
	dev  gpu.Device
	kf   gpu.Buffer
	mu   sync.Mutex
	all  []gpu.Buffer
	once sync.Once
}

// set replaces the buffers freed (after one was grown).
func (o *owned) set(all []gpu.Buffer) {
	o.mu.Lock()
	o.all = all
	o.mu.Unlock()
}

func (o *owned) free() {
	o.once.Do(func() {
		o.mu.Lock()
		all := o.all
		o.mu.Unlock()
		o.dev.Do(func(c gpu.Context) error {
			for _, b := range all {
				c.Free(b)
			}
			c.Free(o.kf)
			return nil
		})
	})
}

// buffers lists the engine's buffers but k's factor.
func (e *Engine) buffers() []gpu.Buffer {
	all := []gpu.Buffer{e.par, e.ctl, e.part, e.part2, e.hb, e.ub, e.db, e.cnt, e.lab, e.fx, e.fy, e.dx, e.dy, e.cfx, e.cfy, e.dr, e.alluv, e.tf, e.lkP, e.lkO, e.lsA, e.cp[0], e.cp[1], e.s1, e.cxy, e.lkR, e.lkA, e.lkB, e.lkX, e.lbA}
	all = append(all, e.pb[:]...)
	all = append(all, e.ab[:]...)
	all = append(all, e.bb[:]...)
	if e.geoBuf != nil {
		all = append(all, e.geoBuf)
	}
	return append(all, e.qb[:]...)
}

// kinds returns sim/flow's kind of every cell (interior, fixed, natural).
func kinds(w, h int, ed flow.Edges) []uint8 {
	of := func(b flow.Boundary) uint8 {
		switch b {
		case flow.Outlet:
			return kindFixed
		case flow.Natural:
			return kindNatural
		}
		return kindInterior
	}
	rank := [3]int{kindInterior: 0, kindFixed: 2, kindNatural: 1}
	pick := func(a, b uint8) uint8 {
		if rank[a] >= rank[b] {
			return a
		}
		return b
	}
	k := make([]uint8, w*h)
	for y := range h {
		for x := range w {
			v := uint8(kindInterior)
			if y == 0 {
				v = pick(v, of(ed.North))
			}
			if y == h-1 {
				v = pick(v, of(ed.South))
			}
			if x == w-1 {
				v = pick(v, of(ed.East))
			}
			if x == 0 {
				v = pick(v, of(ed.West))
			}
			k[y*w+x] = v
		}
	}
	return k
}

const (
	kindInterior = 0
	kindFixed    = 1
	kindNatural  = 2
)

// resetCodes are the direction words of a grid never routed: no last
// receiver (15), so the first routing takes the steepest everywhere and
// counts every receiver as changed, and no random receiver (8, bits
// 12-15).
func resetCodes(n int) []byte {
	out := make([]byte, 4*n)
	for i := range n {
		binary.LittleEndian.PutUint32(out[4*i:], 8|15<<8|8<<12)
	}
	return out
}

// params is Par in common.glsl, std430.
type params struct {
	W, H, N, EdgeN, EdgeS, EdgeE, EdgeW, HasUp int32
	HasKF, TalusOn, RandOn, CreepOn            int32
	SeedLo, SeedHi                             uint32
	DepOn, ChannelHold                         int32
	Cell, Diag, NatD, Tan                      float32
	M, N1, ISc2, Cap2                          float32
	Keep, KeepChannel                          float32
	Kdt, Dtd, CellArea, Channel                float64
	InvCell, CreepR, GDt, Relax                float64
	PlainUp                                    float64
}

func (e *Engine) paramBytes() []byte {
	p := e.p
	nat := p.NaturalDist
	if nat <= 0 {
		nat = float64(max(e.w, e.h)) * e.cell
	}
	q := params{W: int32(e.w), H: int32(e.h), N: int32(e.n),
		EdgeN: int32(p.Edges.North), EdgeS: int32(p.Edges.South), EdgeE: int32(p.Edges.East), EdgeW: int32(p.Edges.West),
		Cell: float32(e.cell), Diag: float32(e.cell * math.Sqrt2), NatD: float32(nat),
		M: float32(p.M), N1: float32(p.N), Kdt: p.K * p.Dt, Dtd: p.Dt, CellArea: e.cell * e.cell,
		Keep: float32(1 + flow.Hysteresis), KeepChannel: float32(1 / (1 - flow.ChannelKeep))}
	if e.up != nil {
		q.HasUp = 1
	}
	if e.kn != nil {
		q.HasKF = 1
	}
	if p.CreepSc > 0 {
		// sim/hillslope's Creeper: float32 1/S_c² and cap², float64 r.
		q.ISc2 = float32(1 / (p.CreepSc * p.CreepSc))
		q.Cap2 = float32(hillslope.MaxCreepRatio * hillslope.MaxCreepRatio)
		q.CreepOn = 1
	}
	q.InvCell = 1 / e.cell
	if p.G > 0 {
		q.DepOn, q.GDt, q.Relax, q.PlainUp = 1, p.G/p.Dt, grid.DepositRelax(p.G), p.PlainUplift
	}
	q.CreepR = p.Kappa * p.Dt / (e.cell * e.cell)
	if p.Routing == flow.RoutingRandom {
		// sim/flow's unit(seed, i) hashes seed·φ64 + i + c: the seed's
		// part here, i added on the device.
		z := p.Seed*0x9e3779b97f4a7c15 + 0x632be59bd9b4e019
		q.RandOn, q.SeedLo, q.SeedHi, q.ChannelHold = 1, uint32(z), uint32(z>>32), flow.ChannelHold
		q.Channel = p.ChannelArea
		if q.Channel <= 0 {
			q.Channel = 100 * e.cell * e.cell // grid's channelArea
		}
	}
	if tan, ok := p.Talus.Limiter(3, 3, e.cell).ConstantTan(); ok && p.Talus.Mode == talus.ModeConstant {
		q.TalusOn, q.Tan = 1, float32(tan)
	}
	if p.Talus.Mode == talus.ModeNoise {
		q.TalusOn = 2 // the angle's tangent per cell, in Tf
	}
	buf := make([]byte, 0, binary.Size(q))
	buf, _ = binary.Append(buf, binary.LittleEndian, q)
	return buf
}

// What upload writes.
const (
	upParams = 1 << iota
	upUplift
	upKNoise
	upAll = upParams | upUplift | upKNoise
)

// upload writes the parameters, the uplift and k's factor, as what says.
func (e *Engine) upload(c gpu.Context, what int) error {
	if err := c.Write(e.par, 0, e.paramBytes()); err != nil {
		return err
	}
	if m := e.p.Talus; m.Mode == talus.ModeNoise && (m != e.tfKey || e.tf.Size() < 4*e.n) {
		// sim/talus's noise field, tan θ per cell.
		lim := m.Limiter(e.w, e.h, e.cell)
		field := make([]float32, e.n)
		for i := range field {
			field[i] = lim.Tan(i, 0)
		}
		if err := e.grow(c, &e.tf, 4*e.n); err != nil {
			return err
		}
		if err := c.Write(e.tf, 0, floatBytes(field)); err != nil {
			return err
		}
		e.tfKey = m
	}
	if e.up != nil && what&upUplift != 0 {
		if err := c.Write(e.ub, 0, floatBytes(e.up)); err != nil {
			return err
		}
	}
	if e.kn != nil && what&upKNoise != 0 {
		if e.kf.Size() < 4*e.n {
			b, err := c.NewBuffer(4 * e.n)
			if err != nil {
				return err
			}
			c.Free(e.kf)
			e.kf = b
			if e.bufs != nil {
				e.bufs.kf = b
			}
		}
		return c.Write(e.kf, 0, floatBytes(e.kn))
	}
	return nil
}

// free releases the buffers of an engine New could not finish (on the
// device's thread).
func (e *Engine) free(c gpu.Context) {
	for _, b := range append(e.buffers(), e.kf) {
		if b != nil {
			c.Free(b)
		}
	}
}

// Close releases the engine's device memory (not the device); the
// engine does nothing after it.
func (e *Engine) Close() {
	if e.bufs != nil {
		e.bufs.free()
	}
	e.err = fmt.Errorf("splgpu: engine closed")
}

func checkUplift(u []float32, n, w, h int) error {
	if len(u) != n {
		return fmt.Errorf("splgpu: %d uplift values for a %d×%d grid", len(u), w, h)
	}
	if err := sim.CheckFinite("splgpu: uplift", "cell", u); err != nil {
		return err
	}
	for i, v := range u {
		if math.Abs(float64(v)) > 1 {
			return fmt.Errorf("splgpu: uplift %g m/yr at cell %d: absurd (|u| must be <= 1 m/yr)", v, i)
		}
	}
	return nil
}

func (e *Engine) setUp(u []float32) {
	e.up = append(e.up[:0], u...)
	e.upSum = 0
	for i, v := range u {
		if e.kinds[i] != kindFixed {
			e.upSum += float64(v)
		}
	}
}

// SetUplift replaces the uplift (m/yr, W·H values; nil for none) from the
// next step on.
func (e *Engine) SetUplift(u []float32) error {
	e.creepN, e.creepLast = 0, 0 // as sim/grid: the creep's means start afresh
	if u == nil {
		e.up, e.upSum = nil, 0
		return e.sync(upParams)
	}
	if err := checkUplift(u, e.n, e.w, e.h); err != nil {
		return err
	}
	e.setUp(u)
	return e.sync(upParams | upUplift)
}

// sync uploads the parameters and, as what says, the uplift and k's
// factor.
func (e *Engine) sync(what int) error {
	if e.err != nil {
		return e.err
	}
	if err := e.dev.Do(func(c gpu.Context) error { return e.upload(c, what) }); err != nil {
		e.err = err
		return err
	}
	return nil
}

// SetParams replaces the parameters from the next step on. Parameters
// the GPU engine does not run (Supports) are refused and change nothing.
func (e *Engine) SetParams(p engine.Params) error {
	if err := p.Validate(); err != nil {
		return err
	}
	if err := e.Runs(p); err != nil {
		return err
	}
	if e.err != nil {
		return e.err
	}
	if err := e.fits(p); err != nil {
		return err
	}
	edges := p.Edges != e.p.Edges || p.NaturalDist != e.p.NaturalDist
	e.p = p
	e.creepN, e.creepLast = 0, 0 // as sim/grid: the creep's means start afresh
	key := e.knKey
	e.kn, e.knKey = grid.KNoise(e.kn, e.knKey, e.w, e.h, e.cell, e.p)
	what := upParams
	if e.knKey != key {
		what |= upKNoise
	}
	if edges {
		e.kinds = kinds(e.w, e.h, p.Edges)
		if e.up != nil {
			e.setUp(e.up)
		}
		e.routed = false
		if err := e.dev.Do(func(c gpu.Context) error { return c.Write(e.db, 0, resetCodes(e.n)) }); err != nil {
			e.err = err
			return err
		}
	}
	if err := e.sync(what); err != nil {
		return err
	}
	return e.waterSetParams() // water.go
}

// Params returns the parameters in force.
func (e *Engine) Params() engine.Params { return e.p }

// Size returns the grid size and the cell size in metres.
func (e *Engine) Size() (w, h int, cell float64) { return e.w, e.h, e.cell }

// Stats returns the statistics of the last step.
func (e *Engine) Stats() engine.StepStats { return e.stats }

// Err returns the first device error or non-finite step; once set, Step
// does nothing.
func (e *Engine) Err() error { return e.err }

// Converged reports whether the last step changed no height faster than
// tol m/yr, or the last two together did not and neither moved a height
// by more than grid.TwoStepMax·tol·dt (grid.StepConverged, as
// grid.Engine.Converged).
func (e *Engine) Converged(tol float64) bool {
	if e.step == 0 {
		return false
	}
	return grid.StepConverged(e.stats, e.p.Dt, tol)
}

// Device returns the device the engine runs on.
func (e *Engine) Device() gpu.Device { return e.dev }

// Heights returns the heights read back from the device (cached until the
// next step); the caller must not modify them.
func (e *Engine) Heights() []float32 {
	if e.hcache == nil {
		e.hcache = e.readFloats(e.hb)
	}
	return e.hcache
}

// SetHeights replaces the heights (W·H finite values) from the next step
// on; the routing starts afresh.
func (e *Engine) SetHeights(h []float32) error {
	if len(h) != e.n {
		return fmt.Errorf("splgpu: %d heights for a %d×%d grid", len(h), e.w, e.h)
	}
	if err := sim.CheckFinite("splgpu: heights", "cell", h); err != nil {
		return err
	}
	e.vol = volume(h, e.cell)
	e.hcache = nil
	b := floatBytes(h)
	return e.dev.Do(func(c gpu.Context) error {
		for _, x := range []gpu.Buffer{e.hb, e.qb[0], e.qb[1]} {
			if err := c.Write(x, 0, b); err != nil {
				return err
			}
		}
		return nil
	})
}

func (e *Engine) readFloats(b gpu.Buffer) []float32 {
	out := make([]float32, e.n)
	e.read(b, unsafe.Slice((*byte)(unsafe.Pointer(&out[0])), 4*e.n))
	return out
}

func (e *Engine) readWords(b gpu.Buffer, n int) []uint32 {
	out := make([]uint32, n)
	e.read(b, unsafe.Slice((*byte)(unsafe.Pointer(&out[0])), 4*n))
	return out
}

// read copies the start of b into dst (the host is little-endian, as the
// fields are: amd64, arm64).
func (e *Engine) read(b gpu.Buffer, dst []byte) {
	if e.err != nil {
		return
	}
	if err := e.dev.Do(func(c gpu.Context) error { return c.Read(b, 0, dst) }); err != nil {
		e.err = err
	}
}

// Receivers returns the receiver of every cell after the last step
// (itself for roots), and the drainage area, m².
func (e *Engine) Receivers() (rec []int32, area []float32) {
	rec = make([]int32, e.n)
	area = make([]float32, e.n)
	if !e.routed {
		for i := range rec {
			rec[i] = int32(i)
			area[i] = float32(e.cell * e.cell)
		}
		return rec, area
	}
	codes := e.readWords(e.db, e.n)
	counts := e.readWords(e.cnt, e.n)
	w := int32(e.w)
	off := [8]int32{1, w + 1, w, w - 1, -1, -w - 1, -w, -w + 1}
	ca := e.cell * e.cell
	for i, c := range codes {
		rec[i] = int32(i)
		if k := c & 15; k < 8 {
			rec[i] += off[k]
		}
		area[i] = float32(float64(counts[i]) * ca)
	}
	return rec, area
}

// Snapshot reads the state back: heights, receivers, area and the basins
// of the last routing from the device; the lakes' spills, levels and
// water measured on the heights, as sim/flow's LakesOn and WaterDepth do.
func (e *Engine) Snapshot() *engine.Snapshot {
	hs := append([]float32(nil), e.Heights()...)
	s := &engine.Snapshot{Kind: grid.Kind, W: e.w, H: e.h, Cell: e.cell, Step: e.step, Time: e.time, Stats: e.stats, Param: e.p,
		Height: hs}
	if e.up != nil {
		s.Uplift = append([]float32(nil), e.up...)
	}
	if e.p.G > 0 && e.alluv.Size() >= 4*e.n {
		s.Alluvium = e.readFloats(e.alluv) // the sediment's thickness, as sim/grid's
	}
	e.geoSnapshot(s)
	s.Receivers, s.Area = e.Receivers()
	s.Lakes, s.Water = e.lakesOn(hs)
	e.waterSnapshot(s) // with rain, the water budget's lakes (water.go)
	return s
}

// Summary measures the final terrain on the cells (engine.Summarizer).
func (e *Engine) Summary() engine.Summary {
	var s engine.Summary
	s.MinHeight, s.MaxHeight, s.MeanHeight = engine.HeightFigures(e.Heights())
	if e.step > 0 {
		// As sim/grid's: the lakes under their passes' level, not the
		// water budget's.
		_, area := e.Receivers()
		_, wat := e.lakesOn(e.Heights())
		for _, a := range area {
			s.MaxDrainage = max(s.MaxDrainage, float64(a))
		}
		for _, d := range wat {
			if d > 0 {
				s.LakeCells++
				s.MaxLakeDepth = max(s.MaxLakeDepth, float64(d))
			}
		}
	}
	return s
}

// Deposits reports whether the engine deposits sediment (G > 0): its
// snapshots then carry the alluvium (engine.Depositing).
func (e *Engine) Deposits() bool { return e.p.G > 0 }

// Constrainable: the heights are the grid's cells and the erosion is the
// stream-power law (engine.Constrainable).
func (e *Engine) Constrainable() {}

var (
	_ engine.Constrainable = (*Engine)(nil)
	_ engine.Summarizer    = (*Engine)(nil)
	_ engine.Depositing    = (*Engine)(nil)
)

// Step advances the terrain by one time step and reads back its
// statistics, with each phase's time (Kernel) from timer queries.
func (e *Engine) Step() engine.StepStats {
	if e.err != nil {
		return e.stats
	}
	t0 := time.Now()
	var st engine.StepStats
	var ctl [16]uint32
	var acc [8]float64
	diffuse := e.p.Kappa > 0 && e.p.Dt > 0
	balanced := diffuse && e.rebal
	if !diffuse {
		e.balZero = true // no hillslope term: nothing to balance
	}
	var corr float64 // the volume the balance's sweeps added, m over a cell
	dep := e.p.G > 0
	e.DepRounds = 0
	// The creep's factors: every step up to the 64th since its means
	// started, then every 8th, by ω = (steps since the last)/steps
	// (hillslope.Creeper's schedule).
	creepFac, omega := false, float32(0)
	if diffuse && e.p.CreepSc > 0 {
		e.creepN++
		if e.creepN <= 64 || e.creepN-e.creepLast >= 8 {
			creepFac = true
			omega = float32(float64(e.creepN-e.creepLast) / float64(e.creepN))
			e.creepLast = e.creepN
		}
	}
	var stamps [NumKernels + 1]gpu.Query
	lakes := 0
	e.lakeRounds, e.NewtonSteps = 0, 0
	err := e.dev.Do(func(c gpu.Context) error {
		if err := e.regrow(c); err != nil {
			return err
		}
		hdr := make([]byte, 64)
		binary.LittleEndian.PutUint32(hdr[7*4:], uint32(e.gx*e.gy))
		if e.routed {
			binary.LittleEndian.PutUint32(hdr[10*4:], 1) // Cnt holds the last step's counts
		}
		if creepFac {
			binary.LittleEndian.PutUint32(hdr[11*4:], math.Float32bits(omega))
			if e.creepN == 1 {
				binary.LittleEndian.PutUint32(hdr[12*4:], 1)
			}
		}
		if err := c.Write(e.ctl, 0, hdr); err != nil {
			return err
		}
		prev, prev2 := e.qb[e.qc], e.qb[1-e.qc]
		e.bindCommon(c)
		stamps[KHill] = c.Timestamp()
		if balanced {
			if err := e.growBalance(c); err != nil {
				return err
			}
		}
		if diffuse {
			if err := e.diffuse(c, creepFac, balanced, prev); err != nil {
				return err
			}
			e.bindCommon(c)
		}
		stamps[KRoute] = c.Timestamp()
		// The receivers are the state's, as sim/grid's (routeHeights):
		// with a hillslope term and random routing, routed on the
		// heights the step started from; a rebalanced step routes on
		// the hillslope term's intermediate, as sim/grid's does (on the
		// state its pits grew with r = κ·dt/cell²: issue 35, 4096²).
		e.rh = e.hb
		if diffuse && !balanced && e.p.Routing == flow.RoutingRandom {
			e.rh = prev
		}
		c.Bind(slotH, e.rh)
		c.Bind(slotLab, e.labels())
		c.Bind(slotPs, e.pb[0])
		c.Bind(slotCnt, e.cnt)
		e.cells(c, "route", e.n)
		stamps[KLabel] = c.Timestamp()
		r, err := e.label(c)
		if err != nil {
			return err
		}
		e.Rounds[0] = r
		stamps[KLakes] = c.Timestamp()
		if lakes, err = e.lakes(c); err != nil {
			return err
		}
		if err := e.waterRead(c, lakes); err != nil { // the water budget (water.go)
			return err
		}
		if labelsSeen != nil {
			if err := labelsSeen(c, e); err != nil {
				return err
			}
		}
		stamps[KArea] = c.Timestamp()
		if e.Rounds[1], err = e.area(c); err != nil {
			return err
		}
		stamps[KErode] = c.Timestamp()
		if balanced {
			// The stream power's part takes the sweeps' corrections
			// back before the uplift.
			e.bindCommon(c)
			c.Bind(11, prev)
			c.Bind(13, e.cxy)
			e.cells(c, "balup", e.n)
		}
		fin, rr, err := e.erode(c)
		if err != nil {
			return err
		}
		e.Rounds[2] = rr
		stamps[KTalus] = c.Timestamp()
		fin, rr, err = e.talus(c, fin)
		if err != nil {
			return err
		}
		e.Rounds[3] = rr
		stamps[KDeposit] = c.Timestamp()
		if dep {
			if err := e.deposit(c, fin); err != nil {
				return err
			}
		}
		stamps[KFinish] = c.Timestamp()
		e.bindCommon(c)
		c.Bind(slotAs, e.ab[fin])
		c.Bind(slotQ0, prev)
		c.Bind(slotQ1, prev2)
		c.Bind(5, e.alluv)
		c.Bind(6, e.ub)
		e.cells(c, "finish", e.n)
		if ng := e.gx * e.gy; ng > group {
			c.Bind(13, e.part2)
			e.cells(c, "reducepart", ng)
			c.Dispatch(e.progs["reducetwo"], 1, 1, 1)
		} else {
			c.Dispatch(e.progs["reduce"], 1, 1, 1)
		}
		if balanced {
			e.bindCommon(c)
			c.Bind(11, prev)
			c.Bind(13, e.cxy)
			e.cells(c, "balfin", e.n)
		}
		if e.geo != nil && !dep {
			e.geoFinish(c, prev) // with deposition the finish does it
		}
		stamps[NumKernels] = c.Timestamp()
		buf := make([]byte, ctlHeader)
		if err := c.Read(e.ctl, 0, buf); err != nil {
			return err
		}
		tq := time.Now()
		defer func() { e.QueryMs = float64(time.Since(tq).Nanoseconds()) / 1e6 }()
		for k := range ctl {
			ctl[k] = binary.LittleEndian.Uint32(buf[4*k:])
		}
		for k := range acc {
			acc[k] = math.Float64frombits(binary.LittleEndian.Uint64(buf[64+8*k:]))
		}
		if balanced {
			corr = math.Float64frombits(binary.LittleEndian.Uint64(buf[128:]))
		}
		var ts [NumKernels + 1]int64
		for k, q := range stamps {
			t, err := c.Time(q)
			if err != nil {
				return err
			}
			ts[k] = t
		}
		for k := range NumKernels {
			e.Kernel[k] = float64(ts[k+1]-ts[k]) / 1e6
		}
		e.CarveMs, e.LakeRounds = 0, e.lakeRounds
		if q := e.carveStamps; q[0] != nil {
			t0, err := c.Time(q[0])
			if err != nil {
				return err
			}
			t1, err := c.Time(q[1])
			if err != nil {
				return err
			}
			e.CarveMs = float64(t1-t0) / 1e6
			e.carveStamps = [2]gpu.Query{}
		}
		e.HillMs = [4]float64{}
		if e.hillStamps[3] != nil {
			var t [4]int64
			for k, q := range e.hillStamps {
				if t[k], err = c.Time(q); err != nil {
					return err
				}
			}
			e.HillMs = [4]float64{float64(t[0]-ts[KHill]) / 1e6, float64(t[1]-t[0]) / 1e6, float64(t[2]-t[1]) / 1e6, float64(t[3]-t[2]) / 1e6}
			e.hillStamps = [4]gpu.Query{}
		}
		e.DepMs = [3]float64{}
		if q := e.depStamps; q[0] != nil {
			var t [2]int64
			for k := range q {
				if t[k], err = c.Time(q[k]); err != nil {
					return err
				}
			}
			e.DepMs = [3]float64{float64(t[0]-ts[KDeposit]) / 1e6, float64(t[1]-t[0]) / 1e6, float64(ts[KFinish]-t[1]) / 1e6}
			e.depStamps = [2]gpu.Query{}
		}
		e.PassMs = 0
		for k := 0; k+1 < len(e.passStamps); k += 2 {
			t0, err := c.Time(e.passStamps[k])
			if err != nil {
				return err
			}
			t1, err := c.Time(e.passStamps[k+1])
			if err != nil {
				return err
			}
			e.PassMs += float64(t1-t0) / 1e6
		}
		e.passStamps = e.passStamps[:0]
		return c.Finish()
	})
	if werr := e.waterWait(&st); err == nil {
		err = werr
	}
	if err != nil {
		e.err = err
		return e.stats
	}
	e.qc = 1 - e.qc
	e.hcache = nil
	e.routed = true
	ca := e.cell * e.cell
	v0 := e.vol
	v1 := v0
	if diffuse {
		v1 = acc[3] * ca
	}
	// The balance's corrections: the sweeps added corr, the uplift took
	// it back (as sim/grid's account: Diffused less it, Uplift the
	// uplift alone).
	corr *= ca
	v2 := v1 + e.p.Dt*e.upSum*ca - corr
	v3, v4 := acc[0]*ca, acc[1]*ca
	st.Mass.Uplift = e.p.Dt * e.upSum * ca
	if dep {
		// As sim/grid's: what the stream power and the talus limit took
		// and what the sediment left, gross, against the uplifted
		// heights; the talus limit's cut; what left through the roots.
		vt, lowered, raised := acc[4]*ca, acc[5]*ca, acc[6]*ca
		st.Mass.Talus = v3 - vt
		st.Mass.SedimentOut = acc[7] * ca
		st.Mass.Diffused, st.Mass.Eroded, st.Mass.Deposited, st.Mass.Stored = v0-v1+corr, lowered-st.Mass.Talus, raised, v4-v0
	} else {
		st.Mass.Diffused, st.Mass.Eroded, st.Mass.Talus, st.Mass.Stored = v0-v1+corr, v2-v3, v3-v4, v4-v0
	}
	e.vol = v4
	e.DepList = -1
	if dep && ctl[14] != 0xFFFFFFFF {
		e.DepList = int(ctl[13])
	}
	st.Clamped = int(ctl[2])
	st.RecvChanged = float64(ctl[3]) / float64(e.n)
	st.MaxDh = float64(math.Float32frombits(ctl[4]))
	st.MaxDh2 = float64(math.Float32frombits(ctl[5]))
	if e.step == 0 {
		st.MaxDh2 = math.NaN()
	}
	st.MeanDh = acc[2] / float64(e.n)
	st.Lakes = lakes
	st.Phase[engine.PhaseHillslope] = ms(e.Kernel[KHill])
	st.Phase[engine.PhaseRouting] = ms(e.Kernel[KRoute])
	st.Phase[engine.PhaseStack] = ms(e.Kernel[KLabel])
	st.Phase[engine.PhaseLakes] = ms(e.Kernel[KLakes])
	st.Phase[engine.PhaseArea] = ms(e.Kernel[KArea])
	st.Phase[engine.PhaseErosion] = ms(e.Kernel[KErode])
	st.Phase[engine.PhaseTalus] = ms(e.Kernel[KTalus])
	st.Phase[engine.PhaseDeposit] = ms(e.Kernel[KDeposit])
	st.Phase[engine.PhaseLayout] = ms(e.Kernel[KFinish])
	if math.IsNaN(st.MeanDh) || math.IsInf(st.MeanDh, 0) {
		e.err = fmt.Errorf("splgpu: step %d produced non-finite heights: the parameters (k %g, m %g, dt %g) or the uplift are too extreme", e.step+1, e.p.K, e.p.M, e.p.Dt)
		st.Mass = engine.Mass{}
	}
	e.step++
	e.time += e.p.Dt
	st.Step, st.Time, st.Dt = e.step, e.time, e.p.Dt
	st.Total = time.Since(t0)
	e.stats = st
	return st
}

func ms(v float64) time.Duration { return time.Duration(v * 1e6) }

// bindCommon binds the buffers every kernel may read at fixed slots.
func (e *Engine) bindCommon(c gpu.Context) {
	c.Bind(slotPar, e.par)
	c.Bind(slotCtl, e.ctl)
	c.Bind(slotH, e.hb)
	c.Bind(slotD, e.db)
	c.Bind(slotLab, e.labels())
	c.Bind(slotPart, e.part)
}

// cells dispatches kernel name over count invocations.
func (e *Engine) cells(c gpu.Context, name string, count int) {
	groups := max(1, (count+group-1)/group)
	gx := min(groups, 32768)
	c.Dispatch(e.progs[name], gx, (groups+gx-1)/gx, 1)
}

// setCtl writes ctl[k] = v.
func (e *Engine) setCtl(c gpu.Context, k int, v uint32) error {
	var b [4]byte
	binary.LittleEndian.PutUint32(b[:], v)
	return c.Write(e.ctl, 4*k, b[:])
}

func (e *Engine) getCtl(c gpu.Context, k int) (uint32, error) {
	var b [4]byte
	if err := c.Read(e.ctl, 4*k, b[:]); err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint32(b[:]), nil
}

// maxRounds bounds the pointer-jumping rounds: 2^40 steps is beyond any
// chain of a grid of 2^28 cells.
const maxRounds = 40

// label points every cell at its basin's root by pointer jumping, in
// place; it returns the dispatches.
func (e *Engine) label(c gpu.Context) (int, error) {
	e.roots = e.roots[:0]
	e.rootsOK = false
	skip := SkipLabels
	if skip {
		e.labelArgs(c)
	}
	guess := max(1, e.rounds[0])
	if e.step%16 == 15 {
		guess = max(1, guess-1)
	}
	done := 0
	for done < maxRounds {
		for k := 0; k < guess; k++ {
			if k == guess-1 {
				if err := e.setCtl(c, 0, 0); err != nil {
					return 0, err
				}
			}
			if skip {
				c.DispatchIndirect(e.progs["label"], e.lbA, 0) // none without pits (labelArgs)
			} else {
				e.cells(c, "label", e.n)
			}
		}
		done += guess
		if LabelRoots && e.lastPits <= labelRootsMax/2 {
			// The labels' words and the pits' roots in one read
			// (labelroots.go).
			ok, err := e.labelRoots(c)
			if err != nil {
				return 0, err
			}
			if ok {
				if !skip || e.pits > 0 {
					e.rounds[0] = done
				}
				return done, nil
			}
			guess = 1
			continue
		}
		var b [8]byte
		if err := c.Read(e.ctl, 0, b[:]); err != nil {
			return 0, err
		}
		if binary.LittleEndian.Uint32(b[:]) == 0 {
			e.pits = int(binary.LittleEndian.Uint32(b[4:]))
			e.lastPits = e.pits
			if !skip || e.pits > 0 {
				e.rounds[0] = done // skipped rounds say nothing of the forest's depth
			}
			return done, nil
		}
		guess = 1
	}
	return 0, fmt.Errorf("splgpu: basin labels did not converge in %d rounds", maxRounds)
}

// jump runs rounds of kernel name from the buffers of index s until no
// pointer moves, and returns the index holding the result and the
// rounds. With three the values rotate through three buffers (the
// area's counts, three(r)), the pointers through two.
//
// With fixed > 0 it runs exactly fixed rounds without reading anything
// back: the erosion and the talus limit run on the forest whose depth the
// area's rounds measured (chainRounds).
func (e *Engine) jump(c gpu.Context, name string, s int, phase int, three bool, fixed int) (int, int, error) {
	guess := max(1, e.rounds[phase])
	if e.step%16 == 15 {
		guess = max(1, guess-1) // now and then, try one round fewer: the forest may have become shallower
	}
	if fixed > 0 {
		guess = fixed
	}
	r := 0
	for r < maxRounds {
		for k := 0; k < guess; k++ {
			src, dst := (s+r)%2, (s+r+1)%2
			if k == guess-1 {
				if err := e.setCtl(c, 0, 0); err != nil {
					return 0, 0, err
				}
			}
			c.Bind(slotPs, e.pb[src])
			c.Bind(slotPd, e.pb[dst])
			if three {
				c.Bind(slotAs, e.three(r))
				c.Bind(slotAd, e.three(r+1))
				c.Bind(slotBd, e.three(r+2))
			} else {
				c.Bind(slotAs, e.ab[src])
				c.Bind(slotAd, e.ab[dst])
				c.Bind(slotBs, e.bb[src])
				c.Bind(slotBd, e.bb[dst])
			}
			if e.caps {
				c.Bind(slotUp, e.cp[src])
				c.Bind(slotKF, e.cp[dst])
			}
			e.cells(c, name, e.n)
			r++
		}
		if fixed > 0 {
			return (s + r) % 2, r, nil
		}
		a, err := e.getCtl(c, 0)
		if err != nil {
			return 0, 0, err
		}
		if a == 0 {
			e.rounds[phase] = r
			if three {
				return r, r, nil // the count buffer is three(r)
			}
			return (s + r) % 2, r, nil
		}
		guess = 1
	}
	return 0, 0, fmt.Errorf("splgpu: pointer jumping (%s) did not converge in %d rounds", name, maxRounds)
}

// bindInit binds the destination slots of index s for an init kernel.
func (e *Engine) bindInit(c gpu.Context, s int) {
	c.Bind(slotPd, e.pb[s])
	c.Bind(slotAd, e.ab[s])
	c.Bind(slotBd, e.bb[s])
}

// area accumulates the drainage area (cell counts) over the receivers
// and leaves it in Lab.
func (e *Engine) area(c gpu.Context) (int, error) {
	e.bindInit(c, 0)
	c.Bind(slotBd, e.three(1)) // the first round's destination, cleared
	e.areaSkip = 0
	if AreaFused {
		e.cells(c, "areainit1", e.n)
		e.areaSkip = 1
	} else {
		e.cells(c, "areainit", e.n)
	}
	fin, r, err := e.jump(c, "arearound", 0, 1, true, 0)
	if err != nil {
		return 0, err
	}
	e.areaBuf = e.three(fin)
	return r, nil
}

// AreaFused makes the drainage area start where its first round would
// leave it (areainit1: the donors counted from their codes, the pointers
// two receivers on): a dispatch and a round of atomics fewer a step, the
// same counts. A variable for the tests and benchmarks.
var AreaFused = true

// chainRounds is the pointer-jumping rounds the erosion and the talus
// limit run from their starts, one a receiver: the area's last rounds
// and the round its start did.
func (e *Engine) chainRounds() int { return e.rounds[1] + e.areaSkip }

// three is the count buffer of index k of the area's rotation: ab[0],
// ab[1], bb[0].
func (e *Engine) three(k int) gpu.Buffer {
	return [3]gpu.Buffer{e.ab[0], e.ab[1], e.bb[0]}[k%3]
}

// erode applies the uplift and the implicit erosion; the eroded heights
// end in ab[fin].
func (e *Engine) erode(c gpu.Context) (fin, rounds int, err error) {
	e.bindCommon(c)
	c.Bind(slotAs, e.areaBuf)
	// The maps go to the pair the counts are not in.
	s := 0
	if e.areaBuf != e.ab[1] {
		s = 1
	}
	e.bindInit(c, s)
	c.Bind(slotUp, e.ub)
	c.Bind(slotKF, e.kf)
	if e.p.G > 0 {
		// Deposition: the source term and sim/spl's Hold, maps with a
		// cap composed by affmin (n ≠ 1: in Newton's steps).
		if err := e.growDep(c); err != nil {
			return 0, 0, err
		}
		c.Bind(slotBs, e.cp[s])
		c.Bind(slotCnt, e.dr)
		e.cells(c, "erodedep", e.n)
		c.Bind(slotCnt, e.cnt)
		e.cells(c, "areacopy", e.n)
		e.caps = true
		defer func() { e.caps = false }()
		if e.geo != nil {
			return e.geoErode(c, s) // n = 1: Runs refuses a geology with deposition and n ≠ 1
		}
		if e.p.N != 1 {
			return e.newton(c)
		}
		return e.jump(c, "affmin", s, 2, false, e.chainRounds())
	}
	c.Bind(slotCnt, e.cnt)
	e.cells(c, "erodeinit", e.n)
	if e.p.N == 1 && e.geo != nil {
		return e.geoErode(c, s)
	}
	if e.p.N == 1 {
		return e.jump(c, "affine", s, 2, false, e.chainRounds())
	}
	if e.geo != nil {
		return e.geoNewton(c, s)
	}
	return e.newton(c)
}

// maxNewton bounds the Newton steps of n ≠ 1; each is a solve of the
// forest's affine maps.
const maxNewton = 12

// newton solves the step for n ≠ 1 by Newton's method from the uplifted
// heights (in H): each step linearizes every node's equation at the
// current heights and solves the affine maps; it stops when every node's
// equation holds (the count newton.glsl makes, read back each step). The
// eroded heights end in ab[fin]. With deposition (newtondep) the maps
// have caps (cp, composed by affmin) and read the source term.
func (e *Engine) newton(c gpu.Context) (fin, rounds int, err error) {
	x, xi := e.hb, -1
	kern, compose := "newton", "affine"
	dep := e.p.G > 0
	if dep {
		kern, compose = "newtondep", "affmin"
	}
	for it := 0; it < maxNewton; it++ {
		s := 0
		if xi == 0 {
			s = 1
		}
		if err := e.setCtl(c, 0, 0); err != nil {
			return 0, 0, err
		}
		e.bindCommon(c)
		c.Bind(slotAs, x)
		e.bindInit(c, s)
		c.Bind(slotKF, e.kf)
		c.Bind(slotCnt, e.cnt)
		if dep {
			c.Bind(slotBs, e.cp[s])
			c.Bind(slotUp, e.dr)
		}
		e.cells(c, kern, e.n)
		left, err := e.getCtl(c, 0)
		if err != nil {
			return 0, 0, err
		}
		if left == 0 {
			break
		}
		if xi, rounds, err = e.jump(c, compose, s, 2, false, e.chainRounds()); err != nil {
			return 0, 0, err
		}
		x = e.ab[xi]
		e.NewtonSteps = it + 1
	}
	if xi < 0 { // no erosion: the uplifted heights are the solution
		c.Copy(e.ab[0], 0, e.hb, 0, 4*e.n)
		xi = 0
	}
	return xi, rounds, nil
}

// talus limits the slopes along the receivers from the eroded heights in
// ab[he]; the limited heights end in ab[fin], the eroded ones in H.
func (e *Engine) talus(c gpu.Context, he int) (fin, rounds int, err error) {
	s := 1 - he
	if e.geoTalus() {
		e.geoTalusScale(c)
	}
	e.bindCommon(c)
	c.Bind(slotAs, e.ab[he])
	e.bindInit(c, s)
	c.Bind(slotUp, e.cp[0]) // the eroded heights, with deposition
	c.Bind(slotKF, e.tf)    // the angle per cell, in noise mode
	e.cells(c, "talusinit", e.n)
	if e.geoTalus() {
		e.geoTalusApply(c, s)
	}
	fin, rounds = s, 0
	if e.p.Talus.Mode != talus.ModeOff {
		if fin, rounds, err = e.jump(c, "minplus", s, 3, false, e.chainRounds()); err != nil {
			return 0, 0, err
		}
	}
	return fin, rounds, nil
}

func volume(h []float32, cell float64) float64 {
	var s float64
	for _, v := range h {
		s += float64(v)
	}
	return s * cell * cell
}

func floatBytes(v []float32) []byte {
	out := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(out[4*i:], math.Float32bits(x))
	}
	return out
}

func intBytes(v []int32) []byte {
	out := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(out[4*i:], uint32(x))
	}
	return out
}

// runForest runs the area, erosion and talus phases on the receiver codes
// given (0-7 a neighbour, 8 a root) and heights h, without uplift, and
// returns the drainage counts, the eroded and the limited heights. For
// the tests: any forest of neighbour links, not only D8's.
func (e *Engine) runForest(codes []uint32, h []float32) (area []uint32, he, hl []float32, err error) {
	words := make([]byte, 4*e.n)
	for i, c := range codes {
		binary.LittleEndian.PutUint32(words[4*i:], c|c<<8)
	}
	up := e.up
	e.up = nil
	defer func() { e.up = up }()
	var fin, efin int
	err = e.dev.Do(func(c gpu.Context) error {
		if err := e.regrow(c); err != nil {
			return err
		}
		if err := c.Write(e.par, 0, e.paramBytes()); err != nil {
			return err
		}
		if err := c.Write(e.db, 0, words); err != nil {
			return err
		}
		if err := c.Write(e.hb, 0, floatBytes(h)); err != nil {
			return err
		}
		e.bindCommon(c)
		if _, err := e.area(c); err != nil {
			return err
		}
		var err error
		if efin, _, err = e.erode(c); err != nil {
			return err
		}
		fin, _, err = e.talus(c, efin)
		return err
	})
	if err != nil {
		return nil, nil, nil, err
	}
	area = e.readWords(e.cnt, e.n)
	he = e.readFloats(e.hb) // talusinit keeps the eroded heights in H
	hl = e.readFloats(e.ab[fin])
	return area, he, hl, e.sync(upParams)
}

// diffuse runs the hillslope term on H: the x sweep, the y sweep
// (sim/hillslope's Diffuser, or its Creeper with S_c > 0: the face
// factors first when fac says), fixed edges the Outlet ones, each line
// by a work group scanning the recurrences (diffscan.glsl,
// creepscan.glsl), and Σ h.
//
// Balanced (SetRebalanced), each sweep takes its correction first:
// balx before the sweep along x, baly (from h0, the heights the step
// started from) before the one along y.
func (e *Engine) diffuse(c gpu.Context, fac, balanced bool, h0 gpu.Buffer) error {
	p := e.p
	fix := [4]bool{p.Edges.North == flow.Outlet, p.Edges.South == flow.Outlet, p.Edges.West == flow.Outlet, p.Edges.East == flow.Outlet}
	r := p.Kappa * p.Dt / (e.cell * e.cell)
	creep := p.CreepSc > 0
	key := [6]float64{r, b2f(fix[0]), b2f(fix[1]), b2f(fix[2]), b2f(fix[3]), 1 + b2f(creep)}
	if key != e.difKey {
		fx, fxFirst, fxLast := factor(e.w, r, fix[2], fix[3])
		fy, fyFirst, fyLast := factor(e.h, r, fix[0], fix[1])
		lines := func(lo, hi, n, first, last, along, across int) []byte {
			return intBytes([]int32{int32(lo), int32(hi), int32(n), int32(first), int32(last), int32(along), int32(across), 0})
		}
		ylo, yhi := 0, e.h
		if fix[0] {
			ylo = 1
		}
		if fix[1] {
			yhi = e.h - 1
		}
		xlo, xhi := 0, e.w
		if fix[2] {
			xlo = 1
		}
		if fix[3] {
			xhi = e.w - 1
		}
		ups := []struct {
			b gpu.Buffer
			v []byte
		}{{e.dx, lines(ylo, yhi, e.w, fxFirst, fxLast, 1, e.w)}, {e.dy, lines(xlo, xhi, e.h, fyFirst, fyLast, e.w, 1)}}
		if !creep {
			ups = append(ups, struct {
				b gpu.Buffer
				v []byte
			}{e.fx, fx}, struct {
				b gpu.Buffer
				v []byte
			}{e.fy, fy})
		}
		for _, u := range ups {
			if err := c.Write(u.b, 0, u.v); err != nil {
				return err
			}
		}
		e.difKey = key
		e.difLines = [2]int{yhi - ylo, xhi - xlo}
	}
	c.Bind(slotH, e.hb)
	if creep {
		for _, q := range e.hillStamps { // a diffusion outside a Step's
			if q != nil {
				c.Time(q)
			}
		}
		for _, b := range []*gpu.Buffer{&e.cfx, &e.cfy} {
			if err := e.grow(c, b, 4*e.n); err != nil {
				return err
			}
		}
		if fac {
			c.Bind(slotUp, e.cfx)
			c.Bind(slotKF, e.cfy)
			e.cells(c, "creepfac", e.n)
		}
		if balanced {
			c.Bind(13, e.cxy)
			e.cells(c, "balx", e.n)
		}
		e.hillStamps[0] = c.Timestamp()
		// c' and d' as float64 halves in the pointer-jumping buffers
		// (scratch until the routing).
		c.Bind(slotPs, e.pb[0])
		c.Bind(slotPd, e.pb[1])
		c.Bind(slotAs, e.ab[0])
		c.Bind(slotAd, e.ab[1])
		// Along x a work group a row (creepscanrow) on rows of
		// rowWidth cells or more, else as along y; along y
		// creepLines columns a work group (LINES in creepscan.glsl),
		// 64 from wideCells on (creepscanwide).
		c.Bind(slotUp, e.dx)
		c.Bind(slotKF, e.cfx)
		if e.w >= rowWidth && e.w%group == 0 && interleave {
			e.cells(c, "creepscanrowi", group*e.difLines[0])
		} else if e.w >= rowWidth {
			e.cells(c, "creepscanrow", group*e.difLines[0])
		} else {
			e.cells(c, "creepscan", group*((e.difLines[0]+creepLines-1)/creepLines))
		}
		e.hillStamps[1] = c.Timestamp()
		if balanced {
			c.Bind(11, h0)
			e.cells(c, "baly", e.n)
		}
		c.Bind(slotUp, e.dy)
		c.Bind(slotKF, e.cfy)
		switch {
		case e.n >= wideCells:
			e.sweepY = "creepscanwide"
			e.cells(c, e.sweepY, group*((e.difLines[1]+63)/64))
		case e.n <= NarrowCells && InterleaveColumns && e.h%(group/4) == 0 && e.w%4 == 0:
			e.sweepY = "creepscannarrowi"
			e.cells(c, e.sweepY, group*((e.difLines[1]+3)/4))
		case e.n <= NarrowCells:
			e.sweepY = "creepscannarrow"
			e.cells(c, e.sweepY, group*((e.difLines[1]+3)/4))
		default:
			e.sweepY = "creepscan"
			e.cells(c, e.sweepY, group*((e.difLines[1]+creepLines-1)/creepLines))
		}
		e.hillStamps[2] = c.Timestamp()
		e.cells(c, "sumh", e.n)
		if balanced {
			c.Dispatch(e.progs["reducebal"], 1, 1, 1)
		}
		e.hillStamps[3] = c.Timestamp()
		return nil
	}
	c.Bind(slotPs, e.pb[0]) // scratch
	if balanced {
		c.Bind(13, e.cxy)
		e.cells(c, "balx", e.n)
	}
	// One work group a line.
	c.Bind(slotUp, e.dx)
	c.Bind(slotKF, e.fx)
	e.cells(c, "diffscan", group*e.difLines[0])
	if balanced {
		c.Bind(11, h0)
		e.cells(c, "baly", e.n)
	}
	c.Bind(slotUp, e.dy)
	c.Bind(slotKF, e.fy)
	e.cells(c, "diffscan", group*e.difLines[1])
	e.cells(c, "sumh", e.n)
	if balanced {
		c.Dispatch(e.progs["reducebal"], 1, 1, 1)
	}
	return nil
}

// creepLines is the creep's sweep along y's columns a work group:
// neighbouring columns read neighbouring words (LINES in
// creepscan.glsl); 64 from wideCells on. Along x, a row a work group
// from rowWidth cells a row on: 16 rows a group made each warp read 32
// rows a row's length apart (at 4096², H200, both sweeps 6.2 ms before,
// 3.7 ms after); on shorter rows a row a group would leave most of its
// 256 chunks empty (on llvmpipe a 5×601 grid's sweep took ten times as
// long), so they take 16 rows a group as the columns do.
const creepLines = 16

// rowWidth is the shortest row that the creep's sweep along x takes a
// work group a row for (256 chunks of 4 cells or more).
const rowWidth = 1024

// interleave says whether rows of a multiple of 256 cells keep c' and d'
// chunk-interleaved (creepscanrowi; a variable for the tests).
var interleave = true

// InterleaveColumns says whether the creep's sweep along y keeps c' and
// d' interleaved across a work group's 4 columns and 64 chunks
// (creepscannarrowi) on grids of at most NarrowCells cells whose
// columns hold a multiple of 64 cells, in a multiple of 4 columns: a
// warp then reads and writes 32 neighbouring scratch words a step, not
// 4 in each of 8 rows. A variable for the tests and benchmarks.
var InterleaveColumns = true

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// factor is sim/hillslope's line factorization of (I + r·L)x = d over n
// cells, the start and end fixed or free: per cell m, inv and cp as
// float64 (Fac in diffuse.glsl), and the cells written back.
func factor(n int, r float64, fixStart, fixEnd bool) (out []byte, first, last int) {
	first, last = 0, n-1
	if fixStart {
		first = 1
	}
	if fixEnd {
		last = n - 2
	}
	out = make([]byte, 0, 24*n)
	prevCp := 0.0
	for i := range n {
		a, b, c := 0.0, 1.0, 0.0
		if i >= first && i <= last {
			if i > 0 {
				a = -r
				b += r
			}
			if i < n-1 {
				c = -r
				b += r
			}
		}
		inv := 1 / (b - a*prevCp)
		m, cp := -a*inv, c*inv
		prevCp = cp
		out = binary.LittleEndian.AppendUint64(out, math.Float64bits(m))
		out = binary.LittleEndian.AppendUint64(out, math.Float64bits(inv))
		out = binary.LittleEndian.AppendUint64(out, math.Float64bits(cp))
	}
	return out, first, last
}
