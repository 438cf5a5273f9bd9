package hydro

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// team runs the row blocks of one pass on helper goroutines that live as
// long as the Engine, so that a step does not allocate (parallel.Blocks
// starts goroutines and allocates closures on every call). Blocks are
// claimed through an atomic counter; each block's output, and its partial
// sums kept per block, depend only on the block, so results do not depend
// on which goroutine ran it or how many there are.
type team struct {
	start   chan struct{}
	wg      sync.WaitGroup
	next    atomic.Int64
	blocks  int
	fn      func(b int) // the pass being run, set by run
	helpers int
}

// newTeam returns a team whose helpers exit once owner is unreachable.
func newTeam(owner *Engine) *team {
	t := &team{start: make(chan struct{})}
	runtime.AddCleanup(owner, (*team).stop, t)
	return t
}

// run calls fn(b) for every b in [0, blocks) on up to workers goroutines,
// the caller's included, and returns when all are done.
func (t *team) run(workers, blocks int, fn func(b int)) {
	workers = min(workers, blocks)
	if workers <= 1 {
		for b := range blocks {
			fn(b)
		}
		return
	}
	for t.helpers < workers-1 {
		t.helpers++
		go t.serve()
	}
	t.fn, t.blocks = fn, blocks
	t.next.Store(0)
	t.wg.Add(workers - 1)
	for w := 1; w < workers; w++ {
		t.start <- struct{}{}
	}
	t.work()
	t.wg.Wait()
	t.fn = nil // let the Engine be collected
}

func (t *team) work() {
	for {
		b := int(t.next.Add(1) - 1)
		if b >= t.blocks {
			return
		}
		t.fn(b)
	}
}

func (t *team) serve() {
	for range t.start {
		t.work()
		t.wg.Done()
	}
}

func (t *team) stop() { close(t.start) }
