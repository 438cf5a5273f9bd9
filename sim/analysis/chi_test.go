package analysis

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"orogen/sim"
	"orogen/sim/engine"
	"orogen/sim/grid"
	"orogen/sim/talus"
)

// The grid engine's steady state with m/n = 0.45 under two uplift rates,
// ten times apart in the west and east halves. Slope against area over
// every channel at once mixes the halves' steepness, (u/k)^(1/n), into the
// exponent: the big rivers draining the slow west half with their
// headwaters in the fast east half make slope fall faster with area than
// any river does, and θ reads 0.73 (r² 0.34). The χ method fits each basin
// on its own, so a basin's steepness does not move its θ: the basins
// within one half read 0.45 (within ThetaStep), the two that straddle the
// halves lower (0.16–0.17), and the median over the basins reads 0.45.
// The tolerance, ±0.05, is the issue's.
func TestChiConcavityTwoUplifts(t *testing.T) {
	const w, h, cell, slow = 96, 64, 100.0, 2e-4
	p := engine.DefaultParams()
	p.M, p.N, p.K = 0.45, 1, 2e-6
	p.Talus = talus.Model{Mode: talus.ModeOff}
	p.Kappa = 0
	up := make([]float32, w*h)
	for i := range up {
		up[i] = slow
		if i%w >= w/2 {
			up[i] = 10 * slow
		}
	}
	e, err := grid.New(grid.Config{W: w, H: h, Cell: cell, Up: up, InitNoise: 1, Seed: 5, Params: p})
	if err != nil {
		t.Fatal(err)
	}
	steps := 0
	for ; steps < 2000 && !(steps > 10 && e.Converged(slow*1e-4)); steps++ {
		e.Step()
	}
	if !e.Converged(slow * 1e-4) {
		t.Fatalf("not converged after %d steps", steps)
	}
	r, err := Analyze(&sim.Field{W: w, H: h, Cell: cell, Data: e.Snapshot().Height}, Options{Edges: p.Edges, MinArea: 5, ChannelArea: 20})
	if err != nil {
		t.Fatal(err)
	}
	want := p.M / p.N
	if r.Chi == nil || r.Channels == nil {
		t.Fatalf("χ fit %v (%s), slope–area on channels %v (%s)", r.Chi, r.ChiErr, r.Channels, r.ChannelErr)
	}
	c := r.Chi
	if math.Abs(c.Concavity-want) > 0.05 {
		t.Errorf("χ θ %.3f; want %.2f within 0.05", c.Concavity, want)
	}
	if old := r.Channels.Concavity; math.Abs(old-want) <= 0.05 {
		t.Errorf("slope–area on all channels at once reads θ %.3f; want it off %.2f by more than 0.05 (the bias the χ method removes)", old, want)
	}
	if len(c.Basins) < 5 || c.Basins[0].Cells < c.Basins[len(c.Basins)-1].Cells {
		t.Errorf("%d basins; want 5 or more, largest first", len(c.Basins))
	}
	for _, b := range c.Basins {
		if b.Heads < MinHeads || b.Cells < r.MinBasin || b.Misfit < 0 {
			t.Errorf("basin %+v: want %d heads or more, %g cells or more, a misfit ≥ 0", b, MinHeads, r.MinBasin)
		}
	}
	crit := r.Verdict.Criteria[len(r.Verdict.Criteria)-1]
	if crit.Name != "concavity θ" || crit.Value != c.Concavity || !r.Verdict.ConcavityInside {
		t.Errorf("verdict criterion %+v; want the χ θ %g, inside", crit, c.Concavity)
	}
	t.Logf("%d steps: χ θ %.3f [%.3f, %.3f] over %d basins, misfit %.4f; slope–area on channels θ %.3f (r² %.3f)",
		steps, c.Concavity, c.Q1, c.Q3, len(c.Basins), c.Misfit, r.Channels.Concavity, r.Channels.R2)
}

// On the analytic steady state every tributary lies on its trunk in
// χ–elevation space at θ = m/n exactly; the fit finds it to the grid of θ
// (ThetaStep) in every basin, with a misfit of float32 rounding.
func TestChiConcavitySteadyState(t *testing.T) {
	f := steadyState(t, 96, 80, 100, 1e-3, 2e-5, 0.6, 1)
	r, err := Analyze(f, Options{Edges: outlets, MinArea: 5, ChannelArea: 20})
	if err != nil {
		t.Fatal(err)
	}
	c := r.Chi
	if c == nil {
		t.Fatal(r.ChiErr)
	}
	for _, b := range c.Basins {
		if math.Abs(b.Concavity-0.6) > ThetaStep/2+1e-9 || b.Misfit > 1e-5 {
			t.Errorf("basin at %v: θ %.3f, misfit %.2g; want 0.6 and 0", b.Outlet, b.Concavity, b.Misfit)
		}
	}
	if math.Abs(c.Concavity-0.6) > ThetaStep/2+1e-9 {
		t.Errorf("θ %.3f; want 0.6", c.Concavity)
	}
	// The exported fit on Analyze's tree (cut at the base-level plain) is
	// Analyze's.
	base := BaseLevel(f, outlets)
	d, err := ChiConcavityOf(r.Tree, r.Heights, base, 20*r.Tree.CellArea, r.MinBasin*r.Tree.CellArea, f.W)
	if err != nil || d.Concavity != c.Concavity || d.Points != c.Points || len(d.Basins) != len(c.Basins) {
		t.Errorf("ChiConcavityOf: θ %g over %d nodes, %d basins (%v); Analyze: %g, %d, %d", d.Concavity, d.Points, len(d.Basins), err, c.Concavity, c.Points, len(c.Basins))
	}
}

// Without a basin to fit, the χ method says why, and the verdict fails the
// criterion with that reason; a smallest basin below the channel threshold
// is refused.
func TestChiConcavityNoBasin(t *testing.T) {
	f := steadyState(t, 40, 30, 100, 1e-3, 2e-5, 0.5, 1)
	r, err := Analyze(f, Options{Edges: outlets, MinArea: 5, ChannelArea: 20, MinBasin: 5000})
	if err != nil {
		t.Fatal(err)
	}
	if r.Chi != nil || !strings.Contains(r.ChiErr, "no basin drains") || r.Verdict.ConcavityInside || r.Verdict.Natural {
		t.Errorf("χ %+v, error %q, verdict %s; want no fit, its reason and an unnatural verdict", r.Chi, r.ChiErr, r.Verdict.Line)
	}
	if _, err := Analyze(f, Options{Edges: outlets, ChannelArea: 20, MinBasin: 10}); err == nil || !strings.Contains(err.Error(), "smallest basin 10 cells") {
		t.Errorf("smallest basin below the channel threshold: error %v", err)
	}
}

// BenchmarkChiConcavity times the χ fit alone (Analyze runs it after
// routing) on the steady state, 256² to 1024², cells of 30 m with the
// default channel threshold and smallest basin.
func BenchmarkChiConcavity(b *testing.B) {
	for _, n := range []int{256, 512, 1024} {
		f, _ := steadyHeights(n, n, 30, 1e-3, 2e-5, 0.45, 1, 8)
		r, err := Analyze(f, Options{Edges: natural})
		if err != nil {
			b.Fatal(err)
		}
		a := r.Tree.CellArea
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				if _, err := chiConcavity(r.Tree, r.Area, r.Heights, nil, DefaultChannelArea*a, DefaultMinBasin*DefaultChannelArea*a, n); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
