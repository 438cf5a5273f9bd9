package splgpu

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"orogen/gpu"
	"orogen/sim/engine"
	"orogen/sim/geology"
	"orogen/sim/talus"
)

// The geology on the GPU (engine.MapGeologic; n = 1, with or without
// deposition), sim/grid's: k of each cell is k·Kd/KdRef of the material
// its erosion starts from (alluvium where the cell has MinAlluvium of
// it, or the step's deposition term lays that much, else the layer at
// its height before the step), and a cell whose solve leaves that material walks
// the contacts down or up as sim/spl's cross and rise do, each material
// at its own k, stopping at a contact that the next material cannot
// reach within the step. A node's height is then a piecewise affine map
// of its receiver's, which the affine pointer jumping cannot compose in
// one pass: the erosion solves with every node's starting material
// (geoinit), then each node re-solves given its receiver's new height,
// walking the contacts (geofix), and the contraction runs again with the
// pieces found, until no node changes piece (with deposition the maps
// are capped by sim/spl's Hold, affmin, and a node at or below its
// receiver is held: a piece of its own). A node's piece is exact
// once its receiver's height is, so the iterations end after at most the
// depth of the deepest chain of nodes that change piece (GeoIters), at
// most maxGeoIters, and the heights they end on do not depend on the
// pieces the first solve guessed: each node's from the last step (the
// material it ended in, or the contact it stopped at), which cut the
// solves a step on the geology presets at 128² from 5.6-7.4 (the
// starting material's k everywhere) to about 4.
//
// The alluvium (what the step left beyond the uplift, less what it took)
// is updated after the finish (geofin), as sim/grid's depositRange; with
// deposition the finish does it.

// GeologyBytesPerCell is the device memory a geology adds a cell: the
// displacement undoing the deformations (float64), each node's piece
// and starting material (a word), the height of the contact it stopped
// at, its rock's top and its deposition term (a word each), and the
// alluvium's thickness (4 bytes, shared with deposition's).
const GeologyBytesPerCell = 28

// maxGeoIters bounds the erosion's solves with a geology; each is a
// contraction of the forest.
const maxGeoIters = 64

// geoHeader is the bytes before the cells in the geology's buffer (Geo
// in geoerode.glsl): four ints, 256 tops (float64), 256 factors of k
// and 256 of the talus tangent (float32).
const geoHeader = 16 + 256*8 + 2*256*4

// geoCellBytes is a cell's record in the geology's buffer.
const geoCellBytes = 24

// geoKernels returns the geology's kernels the parameters use; each is
// compiled when a step first needs it (about a second each on llvmpipe,
// cold: the six at once cost every test binary that lays a geology 5 s).
func (e *Engine) geoKernels() []string {
	k := []string{"geoinit", "geofix"}
	if e.p.N != 1 {
		k = append(k, "geonewton")
	}
	if e.p.G == 0 {
		k = append(k, "geofin")
	}
	if e.geoTalus() {
		k = append(k, "geotalscale", "geotalapply")
	}
	return k
}

// geoPrograms compiles the geology's kernels the parameters use that are
// not yet compiled.
func (e *Engine) geoPrograms(c gpu.Context) error {
	for _, name := range e.geoKernels() {
		if _, ok := e.progs[name]; ok {
			continue
		}
		p, err := c.Program("spl-"+name, kernel(name))
		if err != nil {
			return err
		}
		e.progs[name] = p
	}
	return nil
}

func init() {
	variants["geoinit"] = struct{ file, defs string }{"geoerode", "#define FIRST\n"}
	variants["geofix"] = struct{ file, defs string }{"geoerode", ""}
	variants["geotalscale"] = struct{ file, defs string }{"geoerode", "#define TALSCALE\n"}
	variants["geotalapply"] = struct{ file, defs string }{"geoerode", "#define TALAPPLY\n"}
	variants["geonewton"] = struct{ file, defs string }{"geoerode", "#define NEWTON\n"}
}

// SetGeology lays m on the grid from the next step on (nil: uniform
// rock; the alluvium is kept). A geology that does not fit the card
// leaves the engine as it was and sets nothing: callers that must run it
// use SetGeologyMap, which says why.
func (e *Engine) SetGeology(m *geology.Model) {
	if m == nil {
		e.geo = nil
		return
	}
	_ = e.SetGeologyMap(m.Map(e.w, e.h, e.cell))
}

// SetGeologyMap is SetGeology(g.Model()) with the model already laid on
// the engine's grid (engine.MapGeologic). A map of another grid or a
// geology that does not fit the card is an error and changes nothing.
func (e *Engine) SetGeologyMap(g *geology.Map) error {
	if g == nil {
		return errors.New("splgpu: SetGeologyMap: no map")
	}
	if g.W != e.w || g.H != e.h || g.Cell != e.cell {
		return fmt.Errorf("splgpu: a geology map of %d×%d cells of %g m for a grid of %d×%d cells of %g m", g.W, g.H, g.Cell, e.w, e.h, e.cell)
	}
	m := g.Model()
	if e.err != nil {
		return e.err
	}
	if err := geologyRuns(e.p); err != nil {
		return err
	}
	if err := e.fitsGeology(); err != nil {
		return err
	}
	buf := make([]byte, geoHeader+geoCellBytes*e.n)
	nl := m.NumLayers()
	binary.LittleEndian.PutUint32(buf[0:], uint32(nl))
	binary.LittleEndian.PutUint32(buf[4:], uint32(nl)) // alluvium's index
	for l := range nl - 1 {
		_, top := m.Bounds(l)
		binary.LittleEndian.PutUint64(buf[16+8*l:], math.Float64bits(top))
	}
	for l, f := range m.Factors(m.Erodibility) {
		binary.LittleEndian.PutUint32(buf[16+256*8+4*l:], math.Float32bits(float32(f)))
	}
	if m.TalusByRock() {
		for l, f := range m.Factors(m.TalusScale) {
			binary.LittleEndian.PutUint32(buf[16+256*8+256*4+4*l:], math.Float32bits(float32(f)))
		}
	}
	for i := range e.n {
		o := geoHeader + geoCellBytes*i
		binary.LittleEndian.PutUint64(buf[o:], math.Float64bits(g.Displacement(i)))
	}
	err := e.dev.Do(func(c gpu.Context) error {
		if e.geoBuf == nil || e.geoBuf.Size() < len(buf) {
			b, err := c.NewBuffer(len(buf))
			if err != nil {
				return err
			}
			if e.geoBuf != nil {
				c.Free(e.geoBuf)
			}
			e.geoBuf = b
		}
		if err := c.Write(e.geoBuf, 0, buf); err != nil {
			return err
		}
		if e.alluv.Size() < 4*e.n {
			// The alluvium, zero at first, as sim/grid's.
			b, err := c.NewBuffer(4 * e.n)
			if err != nil {
				return err
			}
			if err := c.Write(b, 0, make([]byte, 4*e.n)); err != nil {
				c.Free(b)
				return err
			}
			c.Free(e.alluv)
			e.alluv = b
		}
		if e.bufs != nil {
			e.bufs.set(e.buffers())
		}
		return nil
	})
	if err != nil {
		e.err = err
		return err
	}
	e.geo = g
	return nil
}

// fitsGeology returns nil if the geology's fields fit the card with the
// rest (BytesFor and GeologyBytesPerCell) and its cells' records the
// driver's largest buffer.
func (e *Engine) fitsGeology() error {
	info := e.dev.Info()
	big := func(w, h int) int64 { return int64(geoHeader) + geoCellBytes*int64(w)*int64(h) }
	need := func(w, h int) int64 { return BytesFor(w, h, e.p) + GeologyBytesPerCell*int64(w)*int64(h) }
	bufOK := func(w, h int) bool { return info.MaxBufferBytes <= 0 || big(w, h) <= info.MaxBufferBytes }
	memOK := func(w, h int) bool { return info.MemoryMiB <= 0 || need(w, h)>>20 <= int64(info.MemoryMiB) }
	if !bufOK(e.w, e.h) {
		return fmt.Errorf("splgpu: a geology on a %d×%d grid needs a storage buffer of %d MiB; %s allows %d MiB: %s",
			e.w, e.h, big(e.w, e.h)>>20, info.Renderer, info.MaxBufferBytes>>20, fitting(e.w, e.h, bufOK))
	}
	if !memOK(e.w, e.h) {
		return fmt.Errorf("splgpu: a %d×%d grid with a geology needs %d MiB of GPU memory (%d bytes a cell); %s has %d MiB: %s",
			e.w, e.h, need(e.w, e.h)>>20, BytesPerCell+labelBytes(e.n)+PhysicsBytesPerCell(e.n, e.p)+GeologyBytesPerCell, info.Renderer, info.MemoryMiB,
			fitting(e.w, e.h, func(w, h int) bool { return bufOK(w, h) && memOK(w, h) }))
	}
	return nil
}

// Geology returns the model SetGeology gave, or nil.
func (e *Engine) Geology() *geology.Model {
	if e.geo == nil {
		return nil
	}
	return e.geo.Model()
}

// Alluvium returns the alluvium's thickness per cell, m, read back (nil
// before a geology or deposition made it).
func (e *Engine) Alluvium() []float32 {
	if e.alluv == nil || e.alluv.Size() < 4*e.n {
		return nil
	}
	return e.readFloats(e.alluv)
}

// geoErode solves the erosion with the geology from the maps erodeinit
// wrote in the slot s (the uplifted heights in H, the drainage counts in
// Cnt): the starting materials and the last step's pieces as the first
// guess (geoinit), then contractions and re-solves (geofix) until no
// node changes piece. The eroded heights end
// in ab[fin].
func (e *Engine) geoErode(c gpu.Context, s int) (fin, rounds int, err error) {
	if err := e.geoPrograms(c); err != nil {
		return 0, 0, err
	}
	prev := e.qb[e.qc]
	dep := e.p.G > 0
	jump := "affine"
	if dep {
		jump = "affmin" // maps capped by sim/spl's Hold, the caps erodedep wrote in cp[s]
	}
	e.bindCommon(c)
	c.Bind(4, e.geoBuf)
	c.Bind(5, e.alluv)
	e.bindInit(c, s)
	c.Bind(9, prev)
	c.Bind(11, e.dr) // the deposition term (G > 0)
	c.Bind(slotKF, e.kf)
	c.Bind(slotCnt, e.cnt)
	e.cells(c, "geoinit", e.n)
	e.GeoIters = 0
	for {
		if fin, rounds, err = e.jump(c, jump, s, 2, false, e.chainRounds()); err != nil {
			return 0, 0, err
		}
		e.GeoIters++
		if e.GeoIters >= maxGeoIters {
			return fin, rounds, nil
		}
		s = 1 - fin
		changed, err := e.geoFix(c, s, e.ab[fin], e.cp[s]) // the caps, with deposition
		if err != nil {
			return 0, 0, err
		}
		if !changed {
			return fin, rounds, nil
		}
	}
}

// geoTalus reports whether the talus limit takes the rock's factor
// (geology.Model.TalusByRock with the limit on).
func (e *Engine) geoTalus() bool {
	return e.geo != nil && e.geo.Model().TalusByRock() && e.p.Talus.Mode != talus.ModeOff
}

// geoTalusScale keeps each cell's talus factor of the rock exposed at
// its uplifted surface (in H), before talusinit.
func (e *Engine) geoTalusScale(c gpu.Context) {
	e.bindCommon(c)
	c.Bind(4, e.geoBuf)
	c.Bind(5, e.alluv)
	e.cells(c, "geotalscale", e.n)
}

// geoTalusApply multiplies the talus limits talusinit wrote in slot s by
// the cells' factors.
func (e *Engine) geoTalusApply(c gpu.Context, s int) {
	c.Bind(4, e.geoBuf)
	c.Bind(slotBd, e.bb[s])
	e.cells(c, "geotalapply", e.n)
	c.Bind(slotLab, e.labels())
}

// geoNewton is geoErode for n ≠ 1: the pieces guessed (geoinit, its maps
// unused), then Newton's steps on the forest with each node's piece
// (geonewton: newton.glsl in the piece's material, a stopped node
// constant) until every node's equation holds, and the pieces found
// again from the heights (geofix's walkN), until none changes. The
// eroded heights end in ab[fin].
func (e *Engine) geoNewton(c gpu.Context, s int) (fin, rounds int, err error) {
	if err := e.geoPrograms(c); err != nil {
		return 0, 0, err
	}
	e.bindCommon(c)
	c.Bind(4, e.geoBuf)
	c.Bind(5, e.alluv)
	e.bindInit(c, s)
	c.Bind(9, e.qb[e.qc])
	c.Bind(11, e.dr)
	c.Bind(slotKF, e.kf)
	c.Bind(slotCnt, e.cnt)
	e.cells(c, "geoinit", e.n)
	x, xi := e.hb, -1
	e.GeoIters = 0
	for {
		for it := 0; it < maxNewton; it++ {
			s := 0
			if xi == 0 {
				s = 1
			}
			if err := e.setCtl(c, 0, 0); err != nil {
				return 0, 0, err
			}
			e.bindCommon(c)
			c.Bind(4, e.geoBuf)
			c.Bind(slotAs, x)
			e.bindInit(c, s)
			c.Bind(slotKF, e.kf)
			c.Bind(slotCnt, e.cnt)
			e.cells(c, "geonewton", e.n)
			left, err := e.getCtl(c, 0)
			if err != nil {
				return 0, 0, err
			}
			if left == 0 {
				break
			}
			if xi, rounds, err = e.jump(c, "affine", s, 2, false, e.chainRounds()); err != nil {
				return 0, 0, err
			}
			x = e.ab[xi]
			e.NewtonSteps++
		}
		if xi < 0 { // no erosion: the uplifted heights are the solution
			c.Copy(e.ab[0], 0, e.hb, 0, 4*e.n)
			xi, x = 0, e.ab[0]
		}
		e.GeoIters++
		if e.GeoIters >= maxGeoIters {
			return xi, rounds, nil
		}
		changed, err := e.geoFix(c, 1-xi, x, e.cp[0])
		if err != nil {
			return 0, 0, err
		}
		if !changed {
			return xi, rounds, nil
		}
	}
}

// geoFinish updates the alluvium from the step's change of height less
// the uplift (prev: the heights before the step).
func (e *Engine) geoFinish(c gpu.Context, prev gpu.Buffer) {
	e.bindCommon(c)
	c.Bind(5, e.alluv)
	c.Bind(6, e.ub)
	c.Bind(11, prev)
	e.cells(c, "geofin", e.n)
}

// geoSnapshot adds the geology's fields to a snapshot: the model, the
// layer exposed at each cell and the alluvium.
func (e *Engine) geoSnapshot(s *engine.Snapshot) {
	if e.geo == nil {
		return
	}
	al := s.Alluvium // read already with deposition
	if al == nil {
		al = e.Alluvium()
	}
	s.Geology = e.geo.Model()
	s.Rock = e.geo.Exposed(make([]uint8, e.n), s.Height, al)
	s.Alluvium = al
}

var _ engine.MapGeologic = (*Engine)(nil)

// geologyRuns returns nil if a geology runs on the GPU with p: not with
// deposition and n ≠ 1 together (geoNewton has no caps).
func geologyRuns(p engine.Params) error {
	if p.G > 0 && p.N != 1 {
		return errors.New("splgpu: a geology with deposition and n ≠ 1 runs on the CPU only")
	}
	return nil
}

// Runs returns nil if the engine runs p as it is set up: what Supports
// takes, and with a geology what geologyRuns takes.
func (e *Engine) Runs(p engine.Params) error {
	if err := Supports(p); err != nil {
		return err
	}
	if e.geo != nil {
		return geologyRuns(p)
	}
	return nil
}

// geoFix runs geofix once: every node re-solved from its receiver's new
// height in x (init: the slot of the step's initial maps, caps: the
// maps' caps), and reports whether any node changed piece.
func (e *Engine) geoFix(c gpu.Context, init int, x, caps gpu.Buffer) (bool, error) {
	if err := e.setCtl(c, 0, 0); err != nil {
		return false, err
	}
	e.bindCommon(c)
	c.Bind(4, e.geoBuf)
	e.bindInit(c, init)
	c.Bind(7, x)
	c.Bind(9, caps)
	c.Bind(slotKF, e.kf)
	c.Bind(slotCnt, e.cnt)
	e.cells(c, "geofix", e.n)
	changed, err := e.getCtl(c, 0)
	return changed != 0, err
}
