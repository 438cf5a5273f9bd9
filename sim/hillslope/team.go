package hillslope

import (
	"runtime"
	"sync"
)

// team is a set of helper goroutines that a Diffuser or a Creeper keeps
// between steps, so that a parallel sweep starts without allocating
// (parallel.Do and parallel.Blocks allocate their closures on every call). Work is handed out
// as worker indices; which helper runs which index does not matter, because
// the sweeps hand out fixed blocks and each block's result depends only on
// its data.
//
// The helpers reference only the team, never its owner; a cleanup
// registered on the owner closes start when the owner becomes
// unreachable, and the helpers exit.
type team struct {
	start   chan int
	wg      sync.WaitGroup
	fn      func(w int) // set by run for the duration of one call
	helpers int
}

// newTeam returns a team whose helpers stop once owner (a Diffuser or a
// Creeper) is unreachable.
func newTeam[T any](owner *T) *team {
	t := &team{start: make(chan int)}
	runtime.AddCleanup(owner, (*team).stop, t)
	return t
}

// run calls fn(w) for w in [0, workers), fn(0) on the calling goroutine and
// the others on helpers, and returns when all have returned.
func (t *team) run(workers int, fn func(w int)) {
	if workers <= 1 {
		fn(0)
		return
	}
	for t.helpers < workers-1 {
		t.helpers++
		go t.serve()
	}
	t.fn = fn
	t.wg.Add(workers - 1)
	for w := 1; w < workers; w++ {
		t.start <- w
	}
	fn(0)
	t.wg.Wait()
	t.fn = nil // let the owner be collected
}

func (t *team) serve() {
	for w := range t.start {
		t.fn(w)
		t.wg.Done()
	}
}

func (t *team) stop() { close(t.start) }
