package viewer

import (
	"fmt"
	"sync"
	"testing"

	"orogen/sim/engine"
	"orogen/sim/grid"
	"orogen/sim/simtest"
)

var (
	terrainMu sync.Mutex
	terrains  = map[int]*engine.Snapshot{}
)

// terrain returns the snapshot of a seeded n×n grid engine after a few
// steps on a rough initial terrain (depressions at all scales, so lakes)
// under a cone of uplift (so rivers), 50 km across. Shared between tests
// and benchmarks.
func terrain(tb testing.TB, n int) *engine.Snapshot {
	terrainMu.Lock()
	defer terrainMu.Unlock()
	if s, ok := terrains[n]; ok {
		return s
	}
	cell := 50000.0 / float64(n)
	up := simtest.Cone(n, n, cell, 5e-4, 5e-4/25000)
	for i := range up {
		up[i] = max(up[i], 0)
	}
	e, err := grid.New(grid.Config{
		W: n, H: n, Cell: cell, Up: up, Init: simtest.Rough(n, n, 800, 1),
		Seed: 1, Params: engine.DefaultParams(),
	})
	if err != nil {
		tb.Fatal(err)
	}
	for range 3 {
		e.Step()
	}
	if err := e.Err(); err != nil {
		tb.Fatal(fmt.Errorf("terrain %d: %w", n, err))
	}
	s := e.Snapshot()
	terrains[n] = s
	return s
}
