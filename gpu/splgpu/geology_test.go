package splgpu

import (
	"encoding/binary"
	"fmt"
	"math"
	"testing"

	"orogen/gpu"
	"orogen/sim/engine"
	"orogen/sim/flow"
	"orogen/sim/geology"
	"orogen/sim/grid"
	"orogen/sim/talus"
)

// thinStrata is a stack of layers a few metres thick, soft clay and hard
// quartzite, tilted so that every cell sees contacts at its own heights.
func thinStrata(t testing.TB) *geology.Model {
	t.Helper()
	m, err := geology.Spec{Base: -50, Stack: []geology.Group{{Repeat: 60, Layers: []geology.Layer{
		{Thickness: 4, Rock: "Clay"}, {Thickness: 3, Rock: "Quartzite"}}}},
		Deformations: []geology.Deformation{{Kind: "tilt", Azimuth: 30, Dip: 2}}}.Compile()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// pieceCounts are the nodes of the last step by piece (geoerode.glsl):
// ended on another material than they started from, stopped at a
// contact going down or up, held (deposition), started from alluvium.
type pieceCounts struct{ moved, down, up, held, alluvial int }

// pieces reads the geology's pieces back.
func (e *Engine) pieces() (pc pieceCounts) {
	buf := make([]byte, geoCellBytes*e.n)
	err := e.dev.Do(func(c gpu.Context) error { return c.Read(e.geoBuf, geoHeader, buf) })
	if err != nil {
		panic(err)
	}
	na := uint32(e.geo.Model().NumLayers())
	for i := range e.n {
		w := binary.LittleEndian.Uint32(buf[geoCellBytes*i+8:])
		p, s := w&1023, w>>16
		if s == na && e.kinds[i] != kindFixed {
			pc.alluvial++
		}
		switch {
		case p&3 == 1:
			pc.down++
		case p&3 == 2:
			pc.up++
		case p&3 == 3:
			pc.held++
		case p>>2 != s:
			pc.moved++
		}
	}
	return pc
}

// TestGeologyContactsMatchCPU steps a small grid whose step uplifts 10 m
// and erodes tens of metres through strata 3 and 4 m thick, from a
// surface without pits (so that both engines route it alike): a cone
// falling to outlets on every edge, and a slope draining to a Natural
// east edge (its roots drain to the virtual node) between closed ones.
// Nodes' solves cross contacts down and up, walking the stack as
// sim/spl's cross and rise do, and the GPU's heights after each step are
// the CPU engine's cell by cell within float32 rounding (1 mm; 7.6 and
// 15 µm on llvmpipe, 4 to 6 solves a step, until no node changes piece; with
// one solve, k of the starting material throughout, 7.8 m after one
// step and 22 m after three).
func TestGeologyContactsMatchCPU(t *testing.T) {
	const n = 24
	for _, tc := range []struct {
		name  string
		edges flow.Edges
		h     func(x, y int) float64
	}{
		{"outlets", flow.Edges{}, func(x, y int) float64 {
			return 6 * math.Min(math.Min(float64(x), float64(n-1-x)), math.Min(float64(y), float64(n-1-y)))
		}},
		{"natural", flow.Edges{North: flow.Closed, South: flow.Closed, West: flow.Closed, East: flow.Natural},
			func(x, y int) float64 { return 6 * float64(n-1-x) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := engine.DefaultParams()
			p.Edges = tc.edges
			p.Dt = 1e4
			p.K = 4e-5
			p.Kappa = 0
			p.Talus.Mode = talus.ModeOff
			init := make([]float32, n*n)
			for y := range n {
				for x := range n {
					// A wobble that breaks the ties of D8 without
					// making pits.
					init[y*n+x] = float32(tc.h(x, y) + 0.37*float64((x*7+y*13)%5))
				}
			}
			up := make([]float32, n*n)
			for i := range up {
				up[i] = 1e-3
			}
			c := grid.Config{W: n, H: n, Cell: 100, Up: up, Init: init, Params: p}
			ce, ge := pair(t, c)
			m := thinStrata(t)
			ce.SetGeology(m)
			if err := ge.SetGeologyMap(m.Map(n, n, c.Cell)); err != nil {
				t.Fatal(err)
			}
			for s := range 3 {
				cs, gs := ce.Step(), ge.Step()
				if err := ge.Err(); err != nil {
					t.Fatal(err)
				}
				ch, gh := ce.Heights(), ge.Heights()
				var worst float64
				for i := range ch {
					worst = math.Max(worst, math.Abs(float64(ch[i]-gh[i])))
				}
				pc := ge.pieces()
				t.Logf("step %d: %d solves; nodes on another material %d, stopped going down %d, up %d; worst |Δh| %.2g m; lakes %d/%d", s+1, ge.GeoIters, pc.moved, pc.down, pc.up, worst, gs.Lakes, cs.Lakes)
				if worst > 1e-3 {
					t.Errorf("step %d: heights differ from the CPU's by up to %g m", s+1, worst)
				}
				if s == 0 && (pc.moved == 0 || ge.GeoIters < 2) {
					t.Errorf("step 1: %d nodes crossed a contact in %d solves: the test crosses none", pc.moved, ge.GeoIters)
				}
			}
		})
	}
}

// TestGeologyTalusByRockMatchesCPU: with a talus angle by rock the limit
// along each receiver is tan θ times the factor of the rock exposed at
// the cell's uplifted surface (geology.Model.TalusScale), as sim/grid's
// ClampOrderedScaled: on a cone steeper than the clay's limit and
// gentler than the quartzite's the GPU lowers the cells the CPU engine
// lowers, to its heights within float32 rounding.
func TestGeologyTalusByRockMatchesCPU(t *testing.T) {
	const n = 24
	p := engine.DefaultParams()
	p.Edges = flow.Edges{}
	p.Dt = 1e4
	p.K = 4e-6
	p.Kappa = 0
	p.Talus = talus.Model{Mode: talus.ModeConstant, AngleDeg: 4}
	init := make([]float32, n*n)
	for y := range n {
		for x := range n {
			d := math.Min(math.Min(float64(x), float64(n-1-x)), math.Min(float64(y), float64(n-1-y)))
			init[y*n+x] = float32(8*d + 0.37*float64((x*7+y*13)%5))
		}
	}
	c := grid.Config{W: n, H: n, Cell: 100, Init: init, Params: p}
	spec := geology.Spec{Base: -50, TalusByRock: true, Stack: []geology.Group{{Repeat: 20, Layers: []geology.Layer{
		{Thickness: 6, Rock: "Clay"}, {Thickness: 9, Rock: "Quartzite"}}}}}
	m, err := spec.Compile()
	if err != nil {
		t.Fatal(err)
	}
	spec.TalusByRock = false
	plain, err := spec.Compile()
	if err != nil {
		t.Fatal(err)
	}
	clamped := map[bool]int{}
	for _, byRock := range []bool{true, false} {
		ce, ge := pair(t, c)
		g := plain
		if byRock {
			g = m
		}
		ce.SetGeology(g)
		if err := ge.SetGeologyMap(g.Map(n, n, c.Cell)); err != nil {
			t.Fatal(err)
		}
		for s := range 2 {
			cs, gs := ce.Step(), ge.Step()
			if err := ge.Err(); err != nil {
				t.Fatal(err)
			}
			ch, gh := ce.Heights(), ge.Heights()
			var worst float64
			for i := range ch {
				worst = math.Max(worst, math.Abs(float64(ch[i]-gh[i])))
			}
			t.Logf("by rock %v, step %d: clamped %d / %d (GPU/CPU), worst |Δh| %.2g m", byRock, s+1, gs.Clamped, cs.Clamped, worst)
			if gs.Clamped != cs.Clamped || worst > 1e-3 {
				t.Errorf("by rock %v, step %d: %d cells clamped, heights within %g m; want the CPU's %d within 1 mm", byRock, s+1, gs.Clamped, worst, cs.Clamped)
			}
			clamped[byRock] += gs.Clamped
		}
	}
	if clamped[true] == clamped[false] {
		t.Errorf("%d cells clamped with the angle by rock and without it: the test does not tell them apart", clamped[true])
	}
}

// TestGeologyDepositionMatchesCPU: a geology with deposition (G > 0),
// sim/grid's: the step's deposition term raises each node (and covers
// it with alluvium, which then sets its starting material: alluvium
// down to the rock's top), nodes below their receiver are held (sim/spl's
// Hold: maps capped, affmin), and the rest walk the contacts as without
// deposition. On the thin strata of TestGeologyContactsMatchCPU, a slope
// draining to a Natural edge with a bowl in it: 30 m deep, 4 steps (the
// lake filled in the first, nodes starting from alluvium after it), and
// 100 m deep, 1 step (lake nodes held; the filled lake's flat then gives
// both engines pits whose passes tie, which they pick differently). The
// GPU's heights after each step are the CPU engine's cell by cell within
// 1 cm (15 µm on llvmpipe), its alluvium in total within 1 % (equal to
// the printed mm).
func TestGeologyDepositionMatchesCPU(t *testing.T) {
	const n = 24
	for _, tc := range []struct {
		name        string
		depth       float64
		steps       int
		held, alluv bool // the steps must hold nodes, start nodes from alluvium
	}{{"alluvium", 30, 4, false, true}, {"held", 100, 1, true, false}} {
		t.Run(tc.name, func(t *testing.T) {
			p := engine.DefaultParams()
			p.Edges = flow.Edges{North: flow.Closed, South: flow.Closed, West: flow.Closed, East: flow.Natural}
			p.Dt = 1e4
			p.K = 4e-5
			p.Kappa = 0
			p.G = 1
			p.Talus.Mode = talus.ModeOff
			init := make([]float32, n*n)
			for y := range n {
				for x := range n {
					r2 := float64((x-12)*(x-12) + (y-12)*(y-12))
					init[y*n+x] = float32(6*float64(n-1-x) - tc.depth*math.Exp(-r2/12) + 0.001*float64((x*7919+y*104729)%997))
				}
			}
			up := make([]float32, n*n)
			for i := range up {
				up[i] = 1e-3
			}
			c := grid.Config{W: n, H: n, Cell: 100, Up: up, Init: init, Params: p}
			ce, ge := pair(t, c)
			m := thinStrata(t)
			ce.SetGeology(m)
			if err := ge.SetGeologyMap(m.Map(n, n, c.Cell)); err != nil {
				t.Fatal(err)
			}
			var held, alluvial int
			for s := range tc.steps {
				cs, gs := ce.Step(), ge.Step()
				if err := ge.Err(); err != nil {
					t.Fatal(err)
				}
				ch, gh := ce.Heights(), ge.Heights()
				var worst float64
				for i := range ch {
					worst = math.Max(worst, math.Abs(float64(ch[i]-gh[i])))
				}
				var ca, ga float64
				gal := ge.Alluvium()
				for i, v := range ce.Alluvium() {
					ca += float64(v)
					ga += float64(gal[i])
				}
				pc := ge.pieces()
				held += pc.held
				alluvial += pc.alluvial
				t.Logf("step %d: %d solves; another material %d, stopped down %d, up %d, held %d, from alluvium %d; lakes %d/%d; worst |Δh| %.2g m; alluvium %.3f / %.3f m (GPU/CPU); deposited %.4g / %.4g m³",
					s+1, ge.GeoIters, pc.moved, pc.down, pc.up, pc.held, pc.alluvial, gs.Lakes, cs.Lakes, worst, ga, ca, gs.Mass.Deposited, cs.Mass.Deposited)
				if worst > 0.01 {
					t.Errorf("step %d: heights differ from the CPU's by up to %g m", s+1, worst)
				}
				if math.Abs(ga-ca) > 0.01*ca {
					t.Errorf("step %d: alluvium %g m in all; want the CPU's %g m within 1 %%", s+1, ga, ca)
				}
			}
			if tc.held && held == 0 || tc.alluv && alluvial == 0 {
				t.Errorf("%d nodes held, %d started from alluvium: the test does not exercise them", held, alluvial)
			}
		})
	}
}

// TestGeologyNewtonMatchesCPU: a geology with n ≠ 1, sim/grid's (spl's
// cross and rise with solveDelta): on the thin strata of
// TestGeologyContactsMatchCPU, draining to outlets, for n = 1.5 and 0.7,
// Newton's steps with each node's piece, the pieces found again from
// the heights until none changes: the GPU's heights after each of 3
// steps are the CPU engine's cell by cell within 1 cm (Newton's
// tolerance, a few float32 ulps of the height; 11 µm and 0.23 mm on
// llvmpipe, 3 to 5 solves and 9 to 11 Newton steps a step).
func TestGeologyNewtonMatchesCPU(t *testing.T) {
	const n = 24
	for _, slope := range []float64{1.5, 0.7} {
		t.Run(fmt.Sprint(slope), func(t *testing.T) {
			p := engine.DefaultParams()
			p.Edges = flow.Edges{}
			p.N = slope
			p.Dt = 1e4
			p.K = 4e-5 * math.Pow(100, slope-1) // the same erosion at a slope of 1 % as n = 1
			p.Kappa = 0
			p.Talus.Mode = talus.ModeOff
			init := make([]float32, n*n)
			for y := range n {
				for x := range n {
					d := math.Min(math.Min(float64(x), float64(n-1-x)), math.Min(float64(y), float64(n-1-y)))
					init[y*n+x] = float32(6*d + 0.37*float64((x*7+y*13)%5))
				}
			}
			up := make([]float32, n*n)
			for i := range up {
				up[i] = 1e-3
			}
			c := grid.Config{W: n, H: n, Cell: 100, Up: up, Init: init, Params: p}
			ce, ge := pair(t, c)
			m := thinStrata(t)
			ce.SetGeology(m)
			if err := ge.SetGeologyMap(m.Map(n, n, c.Cell)); err != nil {
				t.Fatal(err)
			}
			for s := range 3 {
				ce.Step()
				ge.Step()
				if err := ge.Err(); err != nil {
					t.Fatal(err)
				}
				ch, gh := ce.Heights(), ge.Heights()
				var worst float64
				for i := range ch {
					worst = math.Max(worst, math.Abs(float64(ch[i]-gh[i])))
				}
				pc := ge.pieces()
				t.Logf("step %d: %d solves, %d Newton steps; another material %d, stopped down %d, up %d; worst |Δh| %.2g m", s+1, ge.GeoIters, ge.NewtonSteps, pc.moved, pc.down, pc.up, worst)
				if worst > 0.01 {
					t.Errorf("step %d: heights differ from the CPU's by up to %g m", s+1, worst)
				}
				if s == 0 && pc.moved+pc.down+pc.up == 0 {
					t.Error("step 1: no node left its starting material: the test crosses no contact")
				}
			}
		})
	}
}
