package splgpu

import (
	"fmt"
	"math"
	"math/bits"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"orogen/gpu"
	"orogen/sim/flow"
)

// lakes routes every pit's basin out through its pass (Cordonnier et al.
// 2016, §4.3). The pits' basins and the outlets' (one node, 0) are the
// nodes of the pass graph; its minimum spanning tree, the tree Prim's
// algorithm grows from the outlets on the CPU engine, is built here by
// Borůvka's algorithm: each round, every component but the outlets'
// takes its lowest pass to another component, found on the device over
// the boundary cells (passmin, passarg, passout); the small graph of
// components is merged on the CPU (union-find). The tree, oriented from
// the outlets, gives each basin its pass cell and the cell across; the
// carve kernel reverses the path from the pass to the pit. It returns
// the number of pits.
func (e *Engine) lakes(c gpu.Context) (int, error) {
	m := e.pits
	e.lakeList = e.lakeList[:0]
	e.LakeHost, e.LakeSplit = [4]float64{}, [4]float64{}
	if m == 0 {
		return 0, nil
	}
	t0 := time.Now()
	defer func() { e.LakeHost[0] = float64(time.Since(t0).Nanoseconds()) / 1e6 }()
	// The host's time in the calls that read from or write to the
	// device (LakeHost).
	rd := func(f func() error) error {
		t := time.Now()
		err := f()
		e.LakeHost[1] += float64(time.Since(t).Nanoseconds()) / 1e6
		e.LakeHost[3]++
		return err
	}
	wr := func(f func() error) error {
		t := time.Now()
		err := f()
		e.LakeHost[2] += float64(time.Since(t).Nanoseconds()) / 1e6
		return err
	}
	for _, b := range []*gpu.Buffer{&e.lkR, &e.lkA, &e.lkB} {
		if err := e.fit(c, b, 4*(m+1)); err != nil {
			return 0, err
		}
	}
	// Every array the host reads back is a small one: reading the
	// first words of a grid-sized buffer took time in proportion to the
	// grid (2.7 ms a read at 4096², H200), most of the phase.
	c.Bind(slotCtl, e.ctl)
	roots := e.roots
	if !e.rootsOK || len(roots) != m {
		// Not brought by the labels' read (labelRoots).
		c.Bind(5, e.pb[0])
		c.Bind(7, e.lkA)
		e.cells(c, "pitcopy", m)
		roots = grab(&e.lk.roots, m)
		if err := rd(func() error { return readInts(c, e.lkA, roots) }); err != nil {
			return 0, err
		}
	}
	e.LakeSplit[0] = e.LakeHost[1]
	tSort := time.Now()
	sortRoots(roots, e.n) // the kernel lists them in any order
	if err := wr(func() error { return c.Write(e.lkR, 0, words(roots)) }); err != nil {
		return 0, err
	}
	// Basins 1..m are the pits in cell order; 0 is the outlets. Each
	// pit's basin at its root cell, in pb[0] (free since pitcopy), for
	// passout: the host looked each pass's two roots up in an index a
	// cell (4 bytes a cell of host memory, cache misses on a young
	// terrain's hundreds of thousands of passes).
	c.Bind(5, e.lkR)
	c.Bind(12, e.pb[0])
	e.cells(c, "pitindex", m)
	e.LakeSplit[1] = float64(time.Since(tSort).Nanoseconds()) / 1e6
	tree := e.lk.tree[:0]
	defer func() { e.lk.tree = tree[:0] }()
	bind := func() {
		c.Bind(slotPar, e.par)
		c.Bind(slotCtl, e.ctl)
		c.Bind(slotH, e.rh) // the routing's heights (Step)
		c.Bind(slotD, e.db)
		c.Bind(slotLab, e.labels())
		c.Bind(5, e.lkR)       // the pits' roots, sorted
		c.Bind(6, e.pb[1])     // component of each root cell
		c.Bind(7, e.lkA)       // each pit's component (compmap), then pass cells in
		c.Bind(8, e.ab[0])     // lowest pass key (the pointer jumping's, free till the area)
		c.Bind(9, e.ab[1])     // lowest pass edge
		c.Bind(10, e.lkB)      // the components' new numbers (compmap), then cells across in
		c.Bind(11, e.lkX)      // each component's lowest pass and its basins out, for the host
		c.Bind(12, e.pb[0])    // each pit's basin at its root cell (pitindex)
		c.Bind(slotCnt, e.cnt) // the boundary cells (the counts come later in the step)
	}
	bind()
	e.cells(c, "cmapclear", e.n)
	// The components are numbered 1 … nc in the order of their lowest
	// basin, 0 the outlets'; each pit's number stays on the device
	// (compmap), and the host merges components, not basins: the rounds'
	// host work and writes follow the components left, not the pits (a
	// union-find over basins took most of a step with millions of pits).
	// Merging components in their order is merging their basins in the
	// same order, and numbering the new components by their lowest old
	// one numbers them by their lowest basin, so the tree, its edges'
	// order and the numbers are those of a union-find over the basins.
	nc := int32(m) // every pit its own component: compmap's first pass
	uf := grab(&e.lk.uf, m+1)
	find := func(x int32) int32 {
		for uf[x] != x {
			uf[x] = uf[uf[x]]
			x = uf[x]
		}
		return x
	}
	renum := grab(&e.lk.renum, m+1)
	list := 0 // boundary cells listed by the first round
	for round := 0; ; round++ {
		if round > 64 {
			return 0, fmt.Errorf("splgpu: the pass graph did not connect in %d rounds", round)
		}
		// The first round visits every cell and lists the basins'
		// boundary cells; the later ones visit the list. ctl[6..9] in
		// one write: the components, the work groups (as the step's
		// header), the cells listed (0 before the first round lists
		// them) and the mode.
		mode, visit := uint32(2), list
		if round == 0 {
			mode, visit = 1, e.n
		}
		ctlw := intBytes([]int32{nc, int32(e.gx * e.gy), int32(list), int32(mode)})
		if err := wr(func() error { return c.Write(e.ctl, 4*6, ctlw) }); err != nil {
			return 0, err
		}
		// The read-back for this round's components: a read takes time
		// in proportion to the buffer read, not to the words (about
		// 0.11 ms a MB on an H200), and the components fall by a
		// factor of 2 to 4 a round.
		if err := e.fit(c, &e.lkX, 4*(4*(int(nc)+1)+1)); err != nil {
			return 0, err
		}
		c.Bind(11, e.lkX)
		q := c.Timestamp()
		e.cells(c, "compmap", m)
		e.cells(c, "cmap", m)
		e.cells(c, "passreset", int(nc)+1)
		e.cells(c, "passmin", visit)
		e.cells(c, "passarg", visit)
		e.cells(c, "passout", int(nc)+1)
		e.passStamps = append(e.passStamps, q, c.Timestamp())
		// One read a round: the edges, the basins on either side, the
		// components across and the boundary cells listed.
		M := nc + 1
		res := grab(&e.lk.res, int(4*M+1))
		if err := rd(func() error { return readInts(c, e.lkX, res) }); err != nil {
			return 0, err
		}
		arg, from, to, across := res[:M], res[M:2*M], res[2*M:3*M], res[3*M:4*M]
		if round == 0 {
			list = int(res[4*M])
		}
		for k := range M {
			uf[k] = k
		}
		merged := false
		for k := int32(1); k <= nc; k++ {
			if arg[k] == -1 {
				continue
			}
			idx := uint32(arg[k])
			ca := int32(idx >> 4)
			cb := int32(-1)
			if d := idx & 15; d < 8 {
				cb = ca + int32(dxs[d]) + int32(dys[d])*int32(e.w)
			}
			if ra, rb := find(k), find(across[k]); ra != rb {
				// The outlets' component stays the root of the union.
				if rb == find(0) {
					uf[ra] = rb
				} else {
					uf[rb] = ra
				}
				tree = append(tree, lakeEdge{from[k], to[k], ca, cb}) // basins (passout): to 0 for the outlets'
				merged = true
			}
		}
		if !merged {
			return 0, fmt.Errorf("splgpu: %d basins have no pass to the outlets", nc)
		}
		// The new numbers, 0 for the outlets'.
		for k := range M {
			renum[k] = -1
		}
		renum[find(0)] = 0
		next := int32(0)
		for k := int32(1); k <= nc; k++ {
			r := find(k)
			if renum[r] < 0 {
				next++
				renum[r] = next
			}
			renum[k] = renum[r]
		}
		renum[0] = 0
		if next == 0 {
			e.lakeRounds = round + 1
			break
		}
		if err := wr(func() error { return c.Write(e.lkB, 0, words(renum[:M])) }); err != nil {
			return 0, err
		}
		nc = next
	}
	e.LakeSplit[2] = e.LakeHost[1] - e.LakeSplit[0]
	tTree := time.Now()
	pass, out := e.orient(tree, roots, m)
	e.LakeSplit[3] = float64(time.Since(tTree).Nanoseconds()) / 1e6
	if err := wr(func() error { return c.Write(e.lkA, 0, words(pass)) }); err != nil {
		return 0, err
	}
	if err := wr(func() error { return c.Write(e.lkB, 0, words(out)) }); err != nil {
		return 0, err
	}
	q := c.Timestamp()
	e.cells(c, "carve", m)
	e.carveStamps = [2]gpu.Query{q, c.Timestamp()}
	return m, nil
}

// orient roots the basins' tree at the outlets' basin (0): each basin's
// pass (the cell of its edge to the basin it was reached from on its
// side, and the cell across, -1 out of the grid), breadth first, each
// basin's edges in the order of the tree; and the lakes in that order
// (lakeList, lakeOrder). roots are the pits' roots, basin b's at b-1.
func (e *Engine) orient(tree []lakeEdge, roots []int32, m int) (pass, out []int32) {
	// Orient the tree from the outlets: each basin's pass is its edge to
	// the basin it was reached from, breadth first, each basin's edges in
	// the order of the tree. Each basin's edges as seen from it (the
	// basin across, the pass cell and the cell across on its side) in
	// one array, adj[start[x]:start[x+1]]; a basin's lake is its place
	// in the queue less one, and the only basin already seen among its
	// neighbours is the one it was reached from: with millions of pits
	// (4096², long steps) the walk's scattered reads were most of the
	// step (0.3 s).
	start := grab(&e.lk.start, m+2)
	clear(start)
	adj := grab(&e.lk.adj, 2*len(tree))
	workers := runtime.GOMAXPROCS(0)
	if len(tree) < wideLevel || workers < 2 {
		for _, t := range tree {
			start[t.a+1]++
			start[t.b+1]++
		}
		for x := 1; x <= m+1; x++ {
			start[x] += start[x-1]
		}
		fill := append(grab(&e.lk.fill, 0), start[:m+1]...)
		e.lk.fill = fill[:0]
		for k, t := range tree {
			adj[fill[t.a]] = lakeHalf{t.b, t.cb, t.ca, int32(k)}
			fill[t.a]++
			adj[fill[t.b]] = lakeHalf{t.a, t.ca, t.cb, int32(k)}
			fill[t.b]++
		}
	} else {
		// Over the cores: each basin's edges counted and placed with
		// atomic counters, then put back in the tree's order.
		split := func(n int, f func(a, b int)) {
			var wg sync.WaitGroup
			chunk := (n + workers - 1) / workers
			for a := 0; a < n; a += chunk {
				wg.Add(1)
				go func(a, b int) {
					defer wg.Done()
					f(a, b)
				}(a, min(a+chunk, n))
			}
			wg.Wait()
		}
		split(len(tree), func(a, b int) {
			for _, t := range tree[a:b] {
				atomic.AddInt32(&start[t.a+1], 1)
				atomic.AddInt32(&start[t.b+1], 1)
			}
		})
		for x := 1; x <= m+1; x++ {
			start[x] += start[x-1]
		}
		fill := append(grab(&e.lk.fill, 0), start[:m+1]...)
		e.lk.fill = fill[:0]
		split(len(tree), func(a, b int) {
			for k := a; k < b; k++ {
				t := tree[k]
				adj[atomic.AddInt32(&fill[t.a], 1)-1] = lakeHalf{t.b, t.cb, t.ca, int32(k)}
				adj[atomic.AddInt32(&fill[t.b], 1)-1] = lakeHalf{t.a, t.ca, t.cb, int32(k)}
			}
		})
		split(m+1, func(a, b int) {
			for x := a; x < b; x++ {
				seg := adj[start[x]:start[x+1]]
				if len(seg) > 16 { // the outlets' basin may have a million
					slices.SortFunc(seg, func(a, b lakeHalf) int { return int(a.k - b.k) })
					continue
				}
				for i := 1; i < len(seg); i++ { // a few edges a basin
					for j := i; j > 0 && seg[j].k < seg[j-1].k; j-- {
						seg[j], seg[j-1] = seg[j-1], seg[j]
					}
				}
			}
		})
	}
	pass, out = grab(&e.lk.pass, m), grab(&e.lk.out, m)
	for i := range pass {
		pass[i] = -1
	}
	// The walk level by level: a level's children in the order of their
	// parents, so the queue is the breadth-first walk's; a wide level's
	// basins split over the host's cores, each writing its children at
	// the places the counts before them give.
	queue := append(grab(&e.lk.queue, m+1)[:0], 0)
	from := append(grab(&e.lk.from, m+1)[:0], -1) // the basin each was reached from (-1 for the outlets')
	defer func() { e.lk.queue, e.lk.from = queue[:0], from[:0] }()
	e.lakeList = slices.Grow(e.lakeList, m)
	// The lakes from the outlets as pairs (pit, the pit of the lake
	// downstream or -1), padded to the pits (deposit's levels).
	e.lakeOrder = slices.Grow(e.lakeOrder[:0], 2*m)
	visit := func(head, pos int) int {
		x, up := queue[head], from[head]
		for _, h := range adj[start[x]:start[x+1]] {
			if h.y == up {
				continue
			}
			pass[h.y-1], out[h.y-1] = h.p, h.o
			queue[pos], from[pos] = h.y, x
			e.lakeList[pos-1] = flow.Lake{Root: roots[h.y-1], Pass: h.p, Outflow: h.o, Down: int32(head - 1)}
			e.lakeOrder[2*pos-2], e.lakeOrder[2*pos-1] = h.y-1, x-1
			pos++
		}
		return pos
	}
	for lo := 0; lo < len(queue); {
		hi := len(queue)
		// The next level's size: each basin's edges but the one it was
		// reached by (all of the outlets').
		size := 0
		for _, x := range queue[lo:hi] {
			size += int(start[x+1] - start[x])
		}
		size -= hi - lo
		if lo == 0 {
			size++ // the outlets were reached by none
		}
		queue, from = queue[:hi+size], from[:hi+size]
		e.lakeList, e.lakeOrder = e.lakeList[:hi+size-1], e.lakeOrder[:2*(hi+size-1)]
		if hi-lo < wideLevel || workers < 2 {
			pos := hi
			for head := lo; head < hi; head++ {
				pos = visit(head, pos)
			}
		} else {
			// Each worker's basins and where its children start.
			chunk := (hi - lo + workers - 1) / workers
			var wg sync.WaitGroup
			pos := hi
			for a := lo; a < hi; a += chunk {
				b := min(a+chunk, hi)
				wg.Add(1)
				go func(a, b, pos int) {
					defer wg.Done()
					for head := a; head < b; head++ {
						pos = visit(head, pos)
					}
				}(a, b, pos)
				for _, x := range queue[a:b] {
					pos += int(start[x+1]-start[x]) - 1
				}
			}
			wg.Wait()
		}
		lo = hi
	}
	for len(e.lakeOrder) < 2*m {
		e.lakeOrder = append(e.lakeOrder, -1, -1)
	}
	return pass, out
}

// LakeBytes is the size of the lakes' small buffers now (the pits'
// roots, the components' arrays and the rounds' read-back), bytes.
func (e *Engine) LakeBytes() int {
	n := 0
	for _, b := range []gpu.Buffer{e.lkR, e.lkA, e.lkB, e.lkX} {
		if b != nil {
			n += b.Size()
		}
	}
	return n
}

// sortRoots sorts the pits' roots, distinct cells of a grid of n: by a
// bitmap of the cells when they are many (a young terrain's pit in nine
// cells), else by comparisons.
func sortRoots(roots []int32, n int) {
	if len(roots) < n/64 {
		slices.Sort(roots)
		return
	}
	bm := make([]uint64, (n+63)/64)
	for _, r := range roots {
		bm[r>>6] |= 1 << (r & 63)
	}
	k := 0
	for w, b := range bm {
		for b != 0 {
			roots[k] = int32(w<<6 + bits.TrailingZeros64(b))
			k++
			b &= b - 1
		}
	}
}

func init() { kernelNames = append(kernelNames, "pitindex", "compmap") }

// Neighbour offsets in sim/flow's order E, SE, S, SW, W, NW, N, NE.
var (
	dxs = [8]int{1, 1, 0, -1, -1, -1, 0, 1}
	dys = [8]int{0, 1, 1, 1, 0, -1, -1, -1}
)

// readInts reads the first len(dst) words of b into dst (the host is
// little-endian, as the device's words are: amd64, arm64).
func readInts(c gpu.Context, b gpu.Buffer, dst []int32) error {
	return c.Read(b, 0, words(dst))
}

// words is v's memory as bytes, little-endian on the hosts the engine
// runs on: no copy of a young terrain's millions of words.
func words(v []int32) []byte {
	if len(v) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&v[0])), 4*len(v))
}

// wideLevel is the size of the tree (and of the breadth-first walk's
// level) from which orient splits its work over the host's cores; off
// by default (a variable for the tests and BenchmarkOrient). On this
// project's 2-core machine the split took as long as one core's walk (a
// million basins: 0.35 s either way); its one run on the card's
// 16-core host (session 17) sorted the outlets' basin's edges, often
// tens of thousands, by insertion (1.7 to 3.2 s a step at 4096² with
// 100 000 to 500 000 pits; a sort since) and was not timed after.
var wideLevel = math.MaxInt

// lakeScratch is the lakes phase's host arrays, kept from step to step
// (millions of words with a young terrain's pits; Release drops them).
type lakeScratch struct {
	roots, uf, renum, res, start, fill, pass, out, queue, from []int32
	tree                                                       []lakeEdge
	adj                                                        []lakeHalf
}

// lakeHalf is a pass of the basins' tree as one of its basins sees it:
// the basin across, the pass cell and the cell across on the side of
// y, and the pass's place in the tree.
type lakeHalf struct{ y, p, o, k int32 }

// lakeEdge is a pass of the basins' tree: basins a, b; cells ca in a, cb
// in b (-1 out of the grid).
type lakeEdge struct{ a, b, ca, cb int32 }

// grab returns (*s)[:n], grown (kept in *s) when it holds fewer; what it
// holds is left over from before.
func grab[T any](s *[]T, n int) []T {
	if cap(*s) < n {
		*s = make([]T, n, n+n/4)
	}
	return (*s)[:n]
}

// lakesOn returns the last routing's lakes with their spills and levels
// measured on heights hs, and the depth of their water over each cell
// (0 where dry): sim/flow's LakesOn and WaterDepth, the basins' cells
// read from the labels of the routing.
func (e *Engine) lakesOn(hs []float32) ([]flow.Lake, []float32) {
	water := make([]float32, e.n)
	if len(e.lakeList) == 0 || !e.routed {
		return nil, water
	}
	lakes := append([]flow.Lake(nil), e.lakeList...)
	for k := range lakes {
		lk := &lakes[k]
		lk.Spill = hs[lk.Pass]
		if lk.Outflow >= 0 {
			lk.Spill = max(lk.Spill, hs[lk.Outflow])
		}
		lk.Level = lk.Spill
		if lk.Down >= 0 {
			lk.Level = max(lk.Level, lakes[lk.Down].Level)
		}
	}
	// The lakes' levels by basin root, in water itself (a root's own depth
	// is written last, from the level kept aside): a map looked up for
	// every cell took most of a 2048² snapshot.
	lab := e.readLabels()
	isLake := make([]bool, e.n)
	for _, lk := range lakes {
		isLake[lk.Root] = true
		water[lk.Root] = lk.Level
	}
	levels := make([]float32, len(lakes))
	for k, lk := range lakes {
		levels[k] = water[lk.Root]
	}
	for i, r := range lab {
		if r != uint32(i) && isLake[r] {
			if d := water[r] - hs[i]; d > 0 {
				water[i] = d
			}
		}
	}
	for k, lk := range lakes {
		water[lk.Root] = max(levels[k]-hs[lk.Root], 0)
	}
	return lakes, water
}

// LakeShrink makes the lakes' small buffers (and the deposition's pit
// records) shrink again when the pits fall: a young terrain's first
// steps (a pit in nine cells from the flat start) grow them to a few
// bytes a cell, and they stayed that size for good. A variable for the
// benchmarks.
var LakeShrink = true

// lakeFloor is the size below which fit does not shrink a buffer:
// 16 384 words, about 5 000 lakes' Borůvka read-back.
const lakeFloor = 64 << 10

// fit is grow, and with LakeShrink it also makes *b smaller when it is
// more than four times size and larger than lakeFloor (a new buffer of
// twice size, lakeFloor at least; the old one freed).
func (e *Engine) fit(c gpu.Context, b *gpu.Buffer, size int) error {
	if !LakeShrink || (*b).Size() <= max(4*size, lakeFloor) {
		return e.grow(c, b, size)
	}
	return e.replace(c, b, max(2*size, lakeFloor))
}

// grow makes *b at least size bytes (a new buffer, a quarter more than
// asked but no more than a grid's worth of ints, when it is smaller; the
// old one freed): with every cell a pit the four arrays take 28 bytes a
// cell, 32 at most (the components' pass keys and edges are in ab).
func (e *Engine) grow(c gpu.Context, b *gpu.Buffer, size int) error {
	if (*b).Size() >= size {
		return nil
	}
	return e.replace(c, b, min(size+size/4, max(size, 4*(e.n+1))))
}

// replace frees *b for a new buffer of size bytes (its contents are not
// kept) and rebinds the engine's buffers.
func (e *Engine) replace(c gpu.Context, b *gpu.Buffer, size int) error {
	nb, err := c.NewBuffer(size)
	if err != nil {
		return err
	}
	c.Free(*b)
	*b = nb
	if e.bufs != nil {
		e.bufs.set(e.buffers())
	}
	return nil
}
