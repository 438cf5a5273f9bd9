package splgpu

import (
	"encoding/binary"

	"orogen/gpu"
)

// pitBytes is the bytes of a Pit (common.glsl) a pit.
const pitBytes = 32

// maxDepIters bounds the deposition's iterations (see deposit): a cost
// guard, reached only from flat starts with lakes nested deeper than it.
const maxDepIters = 256

// growDep makes the deposition's fields: G·Qs/A and the alluvium (zero
// at first, as sim/grid's) and the erosion's caps.
func (e *Engine) growDep(c gpu.Context) error {
	for _, f := range []*gpu.Buffer{&e.dr, &e.alluv} {
		if (*f).Size() >= 4*e.n {
			continue
		}
		b, err := c.NewBuffer(4 * e.n)
		if err != nil {
			return err
		}
		if err := c.Write(b, 0, make([]byte, 4*e.n)); err != nil {
			c.Free(b)
			return err
		}
		c.Free(*f)
		*f = b
	}
	for _, b := range []*gpu.Buffer{&e.cp[0], &e.cp[1]} {
		if err := e.grow(c, b, 4*e.n); err != nil {
			return err
		}
	}
	if e.bufs != nil {
		e.bufs.set(e.buffers())
	}
	return nil
}

// deposit carries the step's sediment down the receivers (sim/spl's
// Deposit and FillLakes, Yuan et al. 2019) from the limited heights in
// ab[hl] and the uplifted ones in H: what leaves a cell is V = max(0, y +
// Σ V of its donors), y its yield (uplifted less limited height), less
// its lake's volume at a lake's exit, which keeps φ = min(1, V/vol) of
// the lake; a root passes all. The clamps at 0 make V a tree of max-plus
// maps, not a sum: solved by iterations of exact sums (pointer jumping
// over the receivers with the clamped cells cut off, 64-bit fixed point),
// each iteration's clamps from the last's sums, until no clamp and no
// lake's volume changes. The clamps can only shrink from the first
// iteration's (every cell whose plain sum is negative) to the solution,
// the sums only grow (a cut cell passes 0 where the solution passes V ≥
// 0): the iterations end, in one more than the nesting of clamps along
// the rivers (2 to 6 in the tests). Then the heights (clamped cells
// lowered by what they lacked, lakes filled), the next step's G·Qs/A and
// the sums of the account.
func (e *Engine) deposit(c gpu.Context, hl int) error {
	m := e.pits
	hlb := e.ab[hl]
	// The sums' two pairs of (low, high) words, in the pointer-jumping
	// buffers free now.
	pairs := [2][2]gpu.Buffer{{e.ab[1-hl], e.bb[0]}, {e.bb[1], e.cp[1]}}
	if m > 0 {
		if err := e.grow(c, &e.lkP, pitBytes*m); err != nil {
			return err
		}
		if err := e.grow(c, &e.lkO, 8*m); err != nil {
			return err
		}
		if e.bufs != nil {
			e.bufs.set(e.buffers())
		}
		if err := c.Write(e.lkO, 0, intBytes(e.lakeOrder)); err != nil {
			return err
		}
		e.bindCommon(c)
		c.Bind(5, e.lkR)
		c.Bind(7, e.lkA)
		c.Bind(10, e.lkB)
		c.Bind(11, hlb)
		c.Bind(12, e.lkP)
		e.cells(c, "deppits", m)
		c.Bind(13, e.lkO)
		e.cells(c, "deplevels", 1)
	}
	e.bindCommon(c)
	c.Bind(11, hlb)
	c.Bind(12, e.lkP)
	cur := 0 // the pair holding the last sums
	it := 0
	for ; ; it++ {
		if err := e.setCtl(c, CtlDepIter, uint32(it)); err != nil {
			return err
		}
		if err := e.setCtl(c, CtlDepChanged, 0); err != nil {
			return err
		}
		c.Bind(7, pairs[cur][0])
		c.Bind(8, pairs[cur][1])
		e.cells(c, "depvol", e.n)
		if it == 0 && m > 0 {
			e.cells(c, "depvolcmp", m) // the lakes' volumes, for all iterations
		}
		if it > 0 {
			ch, err := e.getCtl(c, CtlDepChanged)
			if err != nil {
				return err
			}
			if ch == 0 || it == maxDepIters {
				break
			}
		}
		c.Bind(slotPd, e.pb[0])
		c.Bind(9, pairs[0][0])
		c.Bind(10, pairs[0][1])
		e.cells(c, "depinit", e.n)
		cur = 0
		for r := 0; r < e.rounds[1]; r++ {
			src, dst := r%2, (r+1)%2
			c.Bind(slotPs, e.pb[src])
			c.Bind(slotPd, e.pb[dst])
			c.Bind(7, pairs[src][0])
			c.Bind(8, pairs[src][1])
			c.Bind(9, pairs[dst][0])
			c.Bind(10, pairs[dst][1])
			e.cells(c, "depclear", e.n)
			e.cells(c, "depround", e.n)
			cur = dst
		}
	}
	e.DepIters = it
	c.Bind(7, pairs[cur][0])
	c.Bind(8, pairs[cur][1])
	c.Bind(9, e.dr)
	c.Bind(13, e.cnt)
	c.Bind(6, e.ub) // the uplift: the base-level plain keeps no rate
	if m > 0 {
		e.cells(c, "depphi", m)
	}
	e.cells(c, "depdr", e.n)
	c.Bind(13, e.cp[0]) // the eroded heights (talusinit)
	e.cells(c, "depfin", e.n)
	return nil
}

// Control words of the deposition (common.glsl).
const (
	CtlDepChanged = 13
	CtlDepIter    = 14
)

// setLakeOrder records the lakes from the outlets as (pit, downstream
// pit) pairs for deplevels: pit numbers index the sorted roots.
func (e *Engine) setLakeOrder(pitOf func(root int32) int32) {
	e.lakeOrder = e.lakeOrder[:0]
	for _, lk := range e.lakeList {
		down := int32(-1)
		if lk.Down >= 0 {
			down = pitOf(e.lakeList[lk.Down].Root)
		}
		e.lakeOrder = append(e.lakeOrder, pitOf(lk.Root), down)
	}
	for len(e.lakeOrder) < 2*e.pits {
		e.lakeOrder = append(e.lakeOrder, -1, -1)
	}
}

var _ = binary.LittleEndian
