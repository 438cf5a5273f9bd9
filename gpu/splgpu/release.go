package splgpu

import (
	"orogen/gpu"
	"orogen/sim/engine"
)

// Release gives back the device memory a step uses only while it runs
// (engine.Releaser): the three pairs of pointer-jumping buffers, and
// with deposition the erosion's caps and the deposition's maps (24 to 48
// bytes a cell), and the heights read back and the lakes' arrays on the
// host. What a Snapshot reads stays: the heights, codes, drainage
// counts and alluvium on the device, the lakes on the host; the basin
// labels, which live in a pointer-jumping buffer, a snapshot makes again
// in it for the while (readLabels). The next Step grows the buffers
// again and gives the results it would have given without the Release.
func (e *Engine) Release() {
	e.hcache, e.lk = nil, lakeScratch{}
	e.releaseWater()
	if e.err != nil || e.bufs == nil {
		return
	}
	err := e.dev.Do(func(c gpu.Context) error {
		for _, b := range e.scratch() {
			if (*b).Size() <= 8 {
				continue
			}
			nb, err := c.NewBuffer(4)
			if err != nil {
				return err
			}
			c.Free(*b)
			*b = nb
		}
		e.bufs.set(e.buffers())
		return nil
	})
	if err != nil {
		e.err = err
	}
}

// scratch lists the buffers Release gives back.
func (e *Engine) scratch() []*gpu.Buffer {
	return []*gpu.Buffer{&e.pb[0], &e.pb[1], &e.ab[0], &e.ab[1], &e.bb[0], &e.bb[1], &e.cp[0], &e.cp[1], &e.s1}
}

// regrow makes the pointer-jumping buffers whole again after a Release
// (the deposition's grow with growDep).
func (e *Engine) regrow(c gpu.Context) error {
	for _, b := range []*gpu.Buffer{&e.pb[0], &e.pb[1], &e.ab[0], &e.ab[1], &e.bb[0], &e.bb[1]} {
		if err := e.grow(c, b, 4*e.n); err != nil {
			return err
		}
	}
	return nil
}

var _ engine.Releaser = (*Engine)(nil)
