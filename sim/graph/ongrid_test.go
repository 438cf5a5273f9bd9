package graph

import (
	"math"
	"testing"

	"orogen/sim"
	"orogen/sim/engine"
)

// TestOnGridUplift: a raster uplift is sampled at the nodes (a plane is
// reproduced exactly away from the clamped border cells), and every
// refinement samples the raster again at the new nodes rather than
// interpolating the old ones.
func TestOnGridUplift(t *testing.T) {
	const w, h, cell = 64, 48, 100.0
	m := sampleMesh(t, w*cell, h*cell, 3*cell, 7)
	e, err := New(Config{Mesh: m, Params: engine.Params{K: 2e-6, M: 0.5, N: 1, Dt: 1e4}})
	if err != nil {
		t.Fatal(err)
	}
	g, err := NewOnGrid(e, w, h, cell)
	if err != nil {
		t.Fatal(err)
	}
	// A bump: the refinement's linear interpolation of the old nodes would
	// miss its curvature, sampling the raster does not.
	up := make([]float32, w*h)
	for y := range h {
		for x := range w {
			dx, dy := float64(x)-31.5, float64(y)-23.5
			up[y*w+x] = float32(1e-3 * math.Exp(-(dx*dx+dy*dy)/60))
		}
	}
	if err := g.SetUplift(up); err != nil {
		t.Fatal(err)
	}
	f := &sim.Field{W: w, H: h, Cell: cell, Data: up}
	check := func(stage string) {
		t.Helper()
		m := e.Mesh()
		for i := range m.N {
			want := float32(f.Sample(m.X[i]/cell-0.5, m.Y[i]/cell-0.5))
			if e.up[i] != want {
				t.Fatalf("%s: node %d uplift %g; want the raster's %g", stage, i, e.up[i], want)
			}
		}
	}
	check("start")
	if err := e.SetRefinement(3*cell, 2, 3, 0, 1); err != nil {
		t.Fatal(err)
	}
	n0 := m.N
	for range 7 {
		g.Step()
	}
	if e.Stage() != 2 || e.Mesh().N < 8*n0 {
		t.Fatalf("after 7 steps: stage %d with %d nodes (from %d); want 2 refinements, ~16× the nodes", e.Stage(), e.Mesh().N, n0)
	}
	check("after two refinements")

	s := g.Snapshot()
	if s.W != w || s.H != h || len(s.Height) != w*h || len(s.Uplift) != w*h {
		t.Fatalf("snapshot %d×%d, %d heights, %d uplift", s.W, s.H, len(s.Height), len(s.Uplift))
	}
	// One arc per node that is not a root, from the node to its receiver.
	roots := 0
	for i, r := range e.Receivers() {
		if int(r) == i {
			roots++
		}
	}
	if len(s.Arcs) != e.Mesh().N-roots {
		t.Fatalf("%d arcs; want %d (nodes − roots)", len(s.Arcs), e.Mesh().N-roots)
	}
	if err := g.SetUplift(up[:10]); err == nil {
		t.Fatal("SetUplift accepted 10 values for a 64×48 grid")
	}
	if _, err := NewOnGrid(e, w+1, h, cell); err == nil {
		t.Fatal("NewOnGrid accepted a grid wider than the domain")
	}
}

// TestSteepest checks the D8 receivers on a tilted plane with a pit.
func TestSteepest(t *testing.T) {
	const w, h = 5, 4
	hgt := make([]float32, w*h)
	for y := range h {
		for x := range w {
			hgt[y*w+x] = float32(10*x + y) // falls west, then north
		}
	}
	hgt[2*w+2] = -5 // a pit
	rec := Steepest(nil, hgt, w, h)
	if rec[0] != 0 {
		t.Errorf("corner (0, 0), the lowest border cell: receiver %d; want itself", rec[0])
	}
	if rec[2*w+2] != 2*w+2 {
		t.Errorf("pit: receiver %d; want itself", rec[2*w+2])
	}
	if rec[1*w+3] != 2*w+2 {
		t.Errorf("cell (3, 1) next to the pit: receiver %d; want the pit %d", rec[1*w+3], 2*w+2)
	}
	if rec[3*w+0] != 2*w+0 {
		t.Errorf("cell (0, 3) on the west edge: receiver %d; want (0, 2) = %d", rec[3*w], 2*w)
	}
}

// TestStepReportsDt: the step's statistics carry the dt it stepped with,
// also after SetParams changed it (the adaptive scheme does every step).
func TestStepReportsDt(t *testing.T) {
	const w, h, cell = 32, 32, 100.0
	p := engine.Params{K: 2e-6, M: 0.5, N: 1, Dt: 1e4}
	e, err := New(Config{Mesh: sampleMesh(t, w*cell, h*cell, 3*cell, 7), Params: p})
	if err != nil {
		t.Fatal(err)
	}
	g, err := NewOnGrid(e, w, h, cell)
	if err != nil {
		t.Fatal(err)
	}
	if st := g.Step(); st.Dt != p.Dt {
		t.Fatalf("first step: Dt %g, want %g", st.Dt, p.Dt)
	}
	p.Dt *= 8
	if err := g.SetParams(p); err != nil {
		t.Fatal(err)
	}
	if st := g.Step(); st.Dt != p.Dt || st.Time != p.Dt/8+p.Dt {
		t.Fatalf("after SetParams: Dt %g, Time %g; want %g, %g", st.Dt, st.Time, p.Dt, p.Dt/8+p.Dt)
	}
}
