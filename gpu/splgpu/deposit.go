package splgpu

import (
	"encoding/binary"
	"fmt"
	"math/bits"

	"orogen/gpu"
)

// pitBytes is the bytes of a Pit (common.glsl) a pit.
const pitBytes = 32

// maxDepRounds bounds the deposition's rounds (see deposit): a tree of
// 2^28 nodes needs fewer than (log₂ n + 2)² of them.
const maxDepRounds = 1024

// DepTile is the side of the tiles on which the deposition's tree
// contraction first solves in shared memory (dslocal.glsl) the nodes
// whose donors all lie in their tile: 16 or 32, 0 for none (every node
// left to the global rounds). A variable for the tests and benchmarks.
var DepTile = 16

// DepList is the global rounds of the deposition's tree contraction
// after which the rounds visit a list of the nodes left (dslist)
// instead of every cell, -1 for never; DepRelist the rounds after which
// a shorter list is made from the last, 0 for never. The lists hold at
// most n/listDiv nodes: while the nodes left do not fit, the rounds go
// on over every cell. Variables for the tests and benchmarks. From
// round 1, again every 8, since session 19 (2 and 4 before): on an H200
// with the default preset the contraction took 6.06 ms at 4096² against
// 7.18 (1.62 against 1.70 at 2048²), the same engine in turn
// (docs/GPU.md).
var DepList, DepRelist = 1, 8

// DepTail is the round of the contraction from which the rest run in
// one work group (dstail), -1 for never (the default); the engine moves
// it by a round a step so that the list it starts on holds about
// tailMax nodes or fewer. On an H200 (session 16) the lists stayed
// longer than that until the last 1 to 4 rounds (linked chains stay
// unsolved until their head is) and the contraction took as long with
// the tail as without (0.73 / 1.94 / 11.2 ms at 1024² / 2048² / 4096²).
// ListCells is the grid from which the rounds run over lists (DepList):
// there the contraction took 1.91 against 2.24 ms at 2048², 11.2
// against 11.8 at 4096²; at 1024² the lists' dispatches cost more than
// they saved (0.75 against 0.66 ms). Variables for the tests and
// benchmarks.
var (
	DepTail   = -1
	ListCells = 1 << 22
)

// tailMax is the longest list dstail's 1024 invocations take on well
// (four nodes each a half round).
const tailMax = 4096

// leanDep tells whether the contraction of a grid of n cells runs on the
// lean layout: its rounds over lists of the nodes left (DepList, from
// ListCells cells), slot 1 (dsbuf.glsl) with room for n/4 nodes in the
// erosion's second cap buffer, the lists, claims and slot 1's pointers
// in the second pointer buffer: no buffer of its own. Else slot 1 has a
// place a cell (a and b's low word in s1, 12 bytes a cell of its own,
// b's high word in the second cap buffer).
func leanDep(n int) bool { return DepList >= 0 && n >= ListCells }

// Test hooks that make a software device behave more like a card:
// depDefs are definitions the contraction's kernels (dsinit, dslist and
// the rounds') are compiled with (dsbuf.glsl's CHECK, common.glsl's
// REVERSE and SCRAMBLE), set before New; depGarbage fills the buffers
// the contraction takes over with a pattern before it starts (a card's
// memory is not zeroed); with CHECK, an index out of bounds is recorded
// in the engine's chk buffer (bound in slot 15 where it is set: llvmpipe
// drops such accesses, a card may not).
var (
	depDefs    string
	depGarbage bool
)

// growDep makes the deposition's fields: G·Qs/A and the alluvium (zero
// at first, as sim/grid's), the erosion's caps and, unless the layout
// is lean, the contraction's slot 1 (s1).
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
	if !leanDep(e.n) {
		if err := e.grow(c, &e.s1, 12*e.n); err != nil {
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
// ab[hl] and the uplifted ones in H: what leaves a node is V = max(0, S),
// S = y + Σ V of its donors, y its yield (uplifted less limited height;
// at a lake's exit less the lake's volume, which keeps φ = min(1,
// V/vol) of the lake); a root passes all. The clamps at 0 make S a tree
// of max-plus maps, not a sum; it is solved exactly by tree contraction
// (Miller and Reif 1985) in 64-bit fixed point: each round, the nodes
// solved in the last one add max(0, S) to their receiver's sum (rake,
// integer atomics: exact in any order), a node with no donor left is
// solved, one with one donor left links to it with the map x ↦ max(a, x
// + b) (a = b = its sum), and linked nodes compose their target's map
// into theirs and point where it points (pointer jumping on the chains;
// maps of the form max(a, x + b) compose into the same form), or are
// solved when their target is. A chain of L nodes takes about log₂ L
// rounds and the rounds of a tree grow with its depth's logarithm and
// its branching (Horton–Strahler order, at most log₂ n), not with how
// the clamps nest. Then the heights (clamped nodes lowered by what they
// lacked, lakes filled), the next step's G·Qs/A and the sums of the
// account.
func (e *Engine) deposit(c gpu.Context, hl int) error {
	m := e.pits
	hlb := e.ab[hl]
	if m > 0 {
		if err := e.fit(c, &e.lkP, pitBytes*m); err != nil {
			return err
		}
		if err := e.fit(c, &e.lkO, 8*m); err != nil {
			return err
		}
		if e.bufs != nil {
			e.bufs.set(e.buffers())
		}
		e.bindCommon(c)
		c.Bind(5, e.lkR)
		c.Bind(7, e.lkA)
		c.Bind(10, e.lkB)
		c.Bind(11, hlb)
		c.Bind(12, e.lkP)
		e.cells(c, "deppits", m)
		if err := e.levels(c, m); err != nil {
			return err
		}
		// The labels, which the erosion's maps took the place of
		// (labels.go), for depvol and dsinit.
		if err := e.relabel(c); err != nil {
			return err
		}
	}
	e.bindCommon(c)
	c.Bind(11, hlb)
	c.Bind(12, e.lkP)
	c.Bind(13, e.cp[0])       // the eroded heights (talusinit)
	e.cells(c, "depvol", e.n) // the lakes' volumes, the clamps and Σ he; the contraction's bits cleared
	if m > 0 {
		e.cells(c, "depvolcmp", m)
	}
	e.depStamps[0] = c.Timestamp()
	s0l, s0h, err := e.contract(c, hlb)
	if err != nil {
		return err
	}
	e.depStamps[1] = c.Timestamp()
	e.bindCommon(c)
	c.Bind(7, s0l)
	c.Bind(8, s0h)
	c.Bind(9, e.dr)
	c.Bind(11, hlb)
	c.Bind(12, e.lkP)
	c.Bind(13, e.cnt)
	c.Bind(6, e.ub) // the uplift: the base-level plain keeps no rate
	if m > 0 {
		e.cells(c, "depphi", m)
	}
	e.cells(c, "depdr", e.n)
	if m > 0 {
		// Again for depfin: the contraction's maps took their place.
		if err := e.relabel(c); err != nil {
			return err
		}
		c.Bind(7, s0l)
		c.Bind(8, s0h)
		c.Bind(11, hlb)
		c.Bind(12, e.lkP)
	}
	e.cells(c, "depfin", e.n)
	return nil
}

// levels raises each of the m pits' levels (in lkP) to the highest
// spill on its way to the outlets, by pointer jumping over the lakes'
// tree (deplevels.glsl) from the downstream pits of lakeOrder; Pits and
// Par bound.
func (e *Engine) levels(c gpu.Context, m int) error {
	// Each pit's downstream pit (-1 at the outlets) in the first half
	// of lkO, the second half the pointers' other slot.
	down := make([]int32, m)
	for k := range down {
		down[k] = -1
	}
	for k := 0; k+1 < len(e.lakeOrder); k += 2 {
		if p := e.lakeOrder[k]; p >= 0 && int(p) < m {
			down[p] = e.lakeOrder[k+1]
		}
	}
	if err := c.Write(e.lkO, 0, intBytes(down)); err != nil {
		return err
	}
	c.Bind(13, e.lkO)
	// An even number of rounds, at least ⌈log₂ m⌉: the levels end in
	// slot 0 (lvl).
	rounds := bits.Len(uint(m))
	rounds += rounds % 2
	for r := range rounds {
		e.cells(c, fmt.Sprintf("deplevels%d", r%2), m)
	}
	return nil
}

// contract solves the deposition's sums S of every node by tree
// contraction (see deposit) from the yields of the uplifted heights in H
// and the limited ones in hlb, the lakes' volumes and the exits marked
// (depvol has run), and returns the pair of buffers (low, high words)
// holding S.
func (e *Engine) contract(c gpu.Context, hlb gpu.Buffer) (s0l, s0h gpu.Buffer, err error) {
	// Slot 0 (dsbuf.glsl) in the pointer-jumping buffers free now: the
	// pointers in pb[0], the sums in the ab not holding the limited
	// heights and bb[0], the maps' a in bb[1] and cp[0] (free since
	// depvol). Slot 1 in cp[1] on the lean layout, else in s1; its
	// pointers (and the lists, on the lean layout) in pb[1].
	s0l, s0h = e.ab[0], e.bb[0]
	if hlb == e.ab[0] {
		s0l = e.ab[1]
	}
	lean := leanDep(e.n)
	// What a card's memory may hold where no kernel wrote (depGarbage):
	// bb[1] holds the labels until dsinit has read them (labels.go).
	garbage := func(bs ...gpu.Buffer) error {
		for _, b := range bs {
			g := make([]byte, b.Size())
			for k := range g {
				g[k] = byte(k*131 + 7)
			}
			if err := c.Write(b, 0, g); err != nil {
				return err
			}
		}
		return nil
	}
	if depGarbage {
		if err := garbage(e.pb[0], e.pb[1], e.cp[0], e.cp[1], s0h, s0l, e.s1); err != nil {
			return nil, nil, err
		}
	}
	s1 := e.s1
	if lean {
		s1 = e.cp[1]
	}
	c.Bind(6, e.pb[1])
	c.Bind(11, s1)
	c.Bind(7, s0l)
	c.Bind(8, s0h)
	c.Bind(13, hlb)
	suffix := ""
	if lean {
		suffix = "lean"
	}
	e.cells(c, "dsinit"+suffix, e.n)
	if depGarbage {
		if err := garbage(e.bb[1]); err != nil {
			return nil, nil, err
		}
	}
	if DepTile > 0 {
		// The rounds in shared memory: the nodes whose donors all lie
		// in their tile solved before the global rounds.
		tiles := ((e.w + DepTile - 1) / DepTile) * ((e.h + DepTile - 1) / DepTile)
		e.cells(c, fmt.Sprintf("dslocal%d", DepTile), tiles*group)
	}
	if e.chk != nil {
		c.Bind(15, e.chk)
	}
	if !lean {
		c.Bind(12, e.cp[1]) // slot 1's b's high words (dsinit has read the pits)
	}
	c.Bind(5, e.pb[0])
	c.Bind(9, e.bb[1])
	c.Bind(10, e.cp[0])
	guess := max(1, e.depRounds)
	if e.step%16 == 15 {
		guess = max(1, guess-1)
	}
	// On the lean layout the rounds visit a list of the nodes left from
	// round DepList on (made after the round's dsrake, when slot 1 is
	// empty), and the last ones run in one work group from round
	// e.tailAt on (DepTail); the indirect dispatch's arguments in slot 4
	// (the labels are bound again after).
	tailOn := DepTail >= 0 && lean
	if tailOn && e.tailAt <= 0 {
		e.tailAt = max(1, DepTail)
	}
	if lean {
		c.Bind(4, e.lsA)
	}
	if tailOn {
		guess = max(guess, e.tailAt+1) // to the tail without a read
	}
	listed, tailed, refused := false, false, false
	list := func() {
		if listed {
			c.DispatchIndirect(e.progs["dslist"], e.lsA, 0)
		} else {
			e.cells(c, "dslist", e.n)
		}
		c.Dispatch(e.progs["dslistargs"], 1, 1, 1)
		listed = true
	}
	rake := func() {
		if listed {
			c.DispatchIndirect(e.progs["dsrakelist"], e.lsA, 0)
		} else {
			e.cells(c, "dsrake"+suffix, e.n)
		}
	}
	var ctl [16]uint32
	r := 0
	for {
		for k := 0; k < guess; k++ {
			if k == guess-1 {
				if err := e.setCtl(c, 0, 0); err != nil {
					return nil, nil, err
				}
			}
			rake()
			relist := lean && (r == DepList || listed && DepRelist > 0 && (r-DepList)%DepRelist == 0)
			if relist || tailOn && r == e.tailAt {
				list()
			}
			if tailOn && r == e.tailAt {
				c.Dispatch(e.progs["dstail"], 1, 1, 1)
				tailed = true
				break
			}
			if listed {
				c.DispatchIndirect(e.progs["dsjumplist"], e.lsA, 0)
			} else {
				e.cells(c, "dsjump"+suffix, e.n)
			}
			r++
		}
		var b [64]byte
		if err := c.Read(e.ctl, 0, b[:]); err != nil {
			return nil, nil, err
		}
		for k := range ctl {
			ctl[k] = binary.LittleEndian.Uint32(b[4*k:])
		}
		if tailed && ctl[15] == 0 {
			// The list was too long for the tail: the rounds go on
			// without it, as many as the last step took in all
			// before the next read.
			tailed, tailOn, refused = false, false, true
			guess = max(1, e.depRounds-r)
			continue
		}
		if tailed {
			r += int(ctl[15])
			if ctl[0] != 0 {
				return nil, nil, fmt.Errorf("splgpu: the deposition's tree contraction did not end in %d rounds", r)
			}
			break
		}
		if ctl[0] == 0 {
			break
		}
		if r >= maxDepRounds {
			return nil, nil, fmt.Errorf("splgpu: the deposition's tree contraction did not end in %d rounds", maxDepRounds)
		}
		guess = 1
	}
	// The tail's start: later when its list was long, earlier when it
	// was short or the rounds ended before it.
	switch {
	case refused:
		e.tailAt += 2
	case tailed && (ctl[14] == 0xFFFFFFFF || ctl[13] > tailMax):
		e.tailAt++
	case tailed && ctl[13] < tailMax/4:
		e.tailAt = max(1, e.tailAt-1)
	case tailOn && !tailed:
		e.tailAt = max(1, r-2)
	}
	e.TailAt = -1
	if tailed {
		e.TailAt = r - int(ctl[15])
	}
	e.depRounds = r
	e.DepRounds = r
	rake() // the last round's S from slot 1 into slot 0
	return s0l, s0h, nil
}
