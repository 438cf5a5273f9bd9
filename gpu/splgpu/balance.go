package splgpu

import (
	"orogen/gpu"
	"orogen/sim/engine"
)

// SetRebalanced turns the rebalanced splitting of the hillslope term on
// or off from the next step on (engine.Rebalanced; sim/grid's
// balance.go, Speth et al. 2013): each sweep takes its correction, a
// rate per cell (balx, baly), the stream power's part takes them back
// before the uplift (balup), and each is moved by the step's increments
// (baly, balup, balfin), so that the rest state is the unsplit physics'
// whatever dt. The corrections take 8 bytes a cell from the first
// balanced step on; they are kept while the balance is off, and start
// from zero again after a step without the hillslope term, as on the
// CPU.
func (e *Engine) SetRebalanced(on bool) { e.rebal = on }

// Rebalanced reports whether the rebalanced splitting is on.
func (e *Engine) Rebalanced() bool { return e.rebal }

// growBalance makes the corrections' buffer, zero when new or when the
// balance starts afresh.
func (e *Engine) growBalance(c gpu.Context) error {
	if e.cxy.Size() >= 8*e.n && !e.balZero {
		return nil
	}
	if err := e.grow(c, &e.cxy, 8*e.n); err != nil {
		return err
	}
	if e.bufs != nil {
		e.bufs.set(e.buffers())
	}
	e.balZero = false
	return c.Write(e.cxy, 0, make([]byte, 8*e.n))
}

var _ engine.Rebalanced = (*Engine)(nil)
