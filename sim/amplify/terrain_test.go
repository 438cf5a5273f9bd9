package amplify

import (
	"math"
	"sync"
	"testing"

	"orogen/sim/engine"
	"orogen/sim/grid"
	"orogen/sim/settle"
)

// settled returns a grid-engine terrain of n×n cells of 200 m grown under
// a dome of uplift (strongest in the middle, a tenth at the edges) to its
// steady state: dendritic valleys, ridges and, with lakes, the snapshot of
// a real run. Cached per size.
func settled(t testing.TB, n int) *engine.Snapshot {
	t.Helper()
	terrainMu.Lock()
	defer terrainMu.Unlock()
	if s, ok := terrains[n]; ok {
		return s
	}
	const cell, u = 200.0, 1e-4
	up := make([]float32, n*n)
	for y := range n {
		for x := range n {
			dx, dy := (float64(x)+0.5)/float64(n)-0.5, (float64(y)+0.5)/float64(n)-0.5
			up[y*n+x] = float32(u * (0.1 + 0.9*math.Exp(-8*(dx*dx+dy*dy))))
		}
	}
	p := engine.DefaultParams()
	e, err := grid.New(grid.Config{W: n, H: n, Cell: cell, Up: up, InitNoise: 1, Seed: 7, Params: p})
	if err != nil {
		t.Fatal(err)
	}
	sc, err := settle.New(e, settle.Options{Tol: u * 1e-3})
	if err != nil {
		t.Fatal(err)
	}
	for sc.Steps() < 5000 && !sc.Settled() {
		sc.Step()
	}
	if !sc.Settled() {
		t.Fatalf("test terrain not settled after %d steps", sc.Steps())
	}
	s := e.Snapshot()
	terrains[n] = s
	return s
}

var (
	terrainMu sync.Mutex
	terrains  = map[int]*engine.Snapshot{}
)

// benchTerrain is settled at n×n.
func benchTerrain(b *testing.B, n int) *engine.Snapshot { return settled(b, n) }
