package hillslope

import (
	"fmt"
	"math"
	"sync/atomic"

	"orogen/sim/parallel"
)

// Edges says which grid edges are fixed (Dirichlet): true keeps the cells of
// that edge at their values; false is a zero-flux (Neumann) edge. North is
// row 0, South row H−1, West column 0, East column W−1.
type Edges struct{ North, South, East, West bool }

// Block sizes of the sweeps. They fix the partition of the work, which is
// the same for any number of workers. An x block is rowBlock rows, solved
// four at a time so four independent recurrences overlap in the pipeline. A
// y block is colBlock adjacent columns walked down the rows: each row gives
// a 512-byte contiguous run, so the prefetcher streams it and one page
// (TLB entry) serves 128 cells; narrower blocks measured slower at 2048²
// because every row of a block lies in another page. Its float64 scratch
// (H·colBlock·8 bytes) is read and written sequentially.
//
// A sweep uses one worker per minCells cells at most: waking a helper
// costs tens of microseconds, as much as a whole 256×256 sweep saves.
const (
	rowBlock = 8
	colBlock = 128
	minCells = 1 << 16
)

// Diffuser applies implicit linear diffusion to a w×h grid. It owns scratch
// buffers reused between steps and is not safe for concurrent use.
type Diffuser struct {
	w, h   int
	fx, fy line        // factored systems of the x and y sweeps
	bufs   [][]float64 // scratch per worker
	team   *team

	// State of the sweep in progress, read by the workers.
	data           []float32
	next           atomic.Int64 // next block to claim
	blocks         int
	lo, hi         int // rows (x sweep) or columns (y sweep) to solve
	sweepX, sweepY func(w int)
}

// NewDiffuser returns a Diffuser for w×h grids. It panics unless w, h > 0.
func NewDiffuser(w, h int) *Diffuser {
	if w <= 0 || h <= 0 {
		panic(fmt.Sprintf("hillslope: bad grid size %d×%d", w, h))
	}
	d := &Diffuser{w: w, h: h}
	d.fx.alloc(w)
	d.fy.alloc(h)
	d.sweepX = d.workX
	d.sweepY = d.workY
	return d
}

// Step advances h (w×h heights in metres, row-major) by dt years of
// ∂h/∂t = κ∇²h with κ = kappa m²/yr on cells of cell metres, in place: one
// backward-Euler solve along x over the full dt, then one along y. Cells
// of the edges set in fixed keep their values bit for bit; the other edges
// are zero-flux. Step is stable and free of new extrema for any dt.
//
// kappa == 0 or dt == 0 is a no-op. Step panics if len(h) is not w·h, or if
// cell is not positive and finite, kappa or dt negative or not finite, or
// kappa·dt/cell² not finite.
func (d *Diffuser) Step(h []float32, cell, kappa, dt float64, fixed Edges) {
	d.Sweep(h, cell, kappa, dt, fixed, true)
	d.Sweep(h, cell, kappa, dt, fixed, false)
}

// Sweep is one direction of Step, for a caller that acts between the
// sweeps (sim/grid's rebalanced splitting): the backward-Euler solve
// along x (x true) or along y over the full dt, with Step's checks and
// edges. Step is Sweep along x, then along y.
func (d *Diffuser) Sweep(h []float32, cell, kappa, dt float64, fixed Edges, x bool) {
	if len(h) != d.w*d.h {
		panic(fmt.Sprintf("hillslope: %d heights for a %d×%d diffuser", len(h), d.w, d.h))
	}
	if !(cell > 0) || math.IsInf(cell, 0) {
		panic(fmt.Sprintf("hillslope: cell size %v m must be positive and finite", cell))
	}
	if !(kappa >= 0) || !(dt >= 0) || math.IsInf(kappa, 0) || math.IsInf(dt, 0) {
		panic(fmt.Sprintf("hillslope: kappa %v m²/yr and dt %v yr must be non-negative and finite", kappa, dt))
	}
	if kappa == 0 || dt == 0 {
		return
	}
	r := kappa * dt / (cell * cell)
	if math.IsInf(r, 0) {
		panic(fmt.Sprintf("hillslope: kappa·dt/cell² = %v·%v/%v² overflows", kappa, dt, cell))
	}
	d.data = h
	if x {
		// Every row not on a fixed north or south edge.
		d.fx.factor(r, fixed.West, fixed.East)
		d.lo, d.hi = 0, d.h
		if fixed.North {
			d.lo = 1
		}
		if fixed.South {
			d.hi = d.h - 1
		}
		d.run(rowBlock, d.sweepX)
	} else {
		// Every column not on a fixed west or east edge.
		d.fy.factor(r, fixed.North, fixed.South)
		d.lo, d.hi = 0, d.w
		if fixed.West {
			d.lo = 1
		}
		if fixed.East {
			d.hi = d.w - 1
		}
		d.run(colBlock, d.sweepY)
	}
	d.data = nil
}

// run solves the lines [d.lo, d.hi) in blocks aligned to multiples of size,
// claimed by the workers in any order.
func (d *Diffuser) run(size int, fn func(w int)) {
	if d.lo >= d.hi {
		return
	}
	d.blocks = (d.hi-1)/size - d.lo/size + 1
	d.next.Store(0)
	workers := max(1, min(parallel.Workers(), d.blocks, d.w*d.h/minCells))
	for len(d.bufs) < workers {
		d.bufs = append(d.bufs, make([]float64, max(4*d.w, d.h*colBlock)))
	}
	if workers > 1 && d.team == nil {
		d.team = newTeam(d)
	}
	if workers == 1 {
		fn(0)
		return
	}
	d.team.run(workers, fn)
}

// claim returns the next block's line range, or ok = false when none is left.
func (d *Diffuser) claim(size int) (lo, hi int, ok bool) {
	b := int(d.next.Add(1) - 1)
	if b >= d.blocks {
		return 0, 0, false
	}
	first := d.lo / size
	lo = max(d.lo, (first+b)*size)
	hi = min(d.hi, (first+b+1)*size)
	return lo, hi, true
}

func (d *Diffuser) workX(w int) {
	for {
		y0, y1, ok := d.claim(rowBlock)
		if !ok {
			return
		}
		d.solveRows(d.bufs[w], y0, y1)
	}
}

func (d *Diffuser) workY(w int) {
	for {
		x0, x1, ok := d.claim(colBlock)
		if !ok {
			return
		}
		d.solveColumns(d.bufs[w], x0, x1)
	}
}

// solveRows solves the x systems of rows [y0, y1), four rows at a time so
// that four independent recurrences overlap in the pipeline.
func (d *Diffuser) solveRows(s []float64, y0, y1 int) {
	y := y0
	for ; y+4 <= y1; y += 4 {
		d.solveRows4(s, y)
	}
	for ; y < y1; y++ {
		d.solveRow(s, y)
	}
}

// solveRows4 solves rows y to y+3; s[j*w+i] holds row y+j, column i.
func (d *Diffuser) solveRows4(s []float64, y int) {
	w, f := d.w, &d.fx
	h := d.data[y*w : (y+4)*w]
	r0, r1, r2, r3 := h[:w], h[w:2*w], h[2*w:3*w], h[3*w:4*w]
	s0, s1, s2, s3 := s[:w], s[w:2*w], s[2*w:3*w], s[3*w:4*w]
	inv, m, cp := f.inv[:w], f.m[:w], f.cp[:w]

	// Forward elimination: s_i = d_i·inv_i + m_i·s_{i−1}, in float64.
	p0, p1, p2, p3 := float64(r0[0])*inv[0], float64(r1[0])*inv[0], float64(r2[0])*inv[0], float64(r3[0])*inv[0]
	s0[0], s1[0], s2[0], s3[0] = p0, p1, p2, p3
	for i := 1; i < w; i++ {
		iv, mi := inv[i], m[i]
		p0 = float64(r0[i])*iv + mi*p0
		p1 = float64(r1[i])*iv + mi*p1
		p2 = float64(r2[i])*iv + mi*p2
		p3 = float64(r3[i])*iv + mi*p3
		s0[i], s1[i], s2[i], s3[i] = p0, p1, p2, p3
	}

	// Back substitution: x_i = s_i − cp_i·x_{i+1}, written to the grid
	// except at fixed ends. p0..p3 hold x_{w−1} = s_{w−1} here.
	first, last := f.first, f.last
	for i := w - 1; i >= 0; i-- {
		if i < w-1 {
			c := cp[i]
			p0 = s0[i] - c*p0
			p1 = s1[i] - c*p1
			p2 = s2[i] - c*p2
			p3 = s3[i] - c*p3
		}
		if i >= first && i <= last {
			r0[i], r1[i], r2[i], r3[i] = float32(p0), float32(p1), float32(p2), float32(p3)
		}
	}
}

// solveRow solves row y alone; s[i] holds column i.
func (d *Diffuser) solveRow(s []float64, y int) {
	w, f := d.w, &d.fx
	r := d.data[y*w : (y+1)*w]
	s = s[:w]
	inv, m, cp := f.inv[:w], f.m[:w], f.cp[:w]
	p := float64(r[0]) * inv[0]
	s[0] = p
	for i := 1; i < w; i++ {
		p = float64(r[i])*inv[i] + m[i]*p
		s[i] = p
	}
	for i := w - 1; i >= 0; i-- {
		if i < w-1 {
			p = s[i] - cp[i]*p
		}
		if i >= f.first && i <= f.last {
			r[i] = float32(p)
		}
	}
}

// solveColumns solves the y systems of columns [x0, x1), going down the
// rows: s[y*c + j] belongs to row y, column x0 + j.
func (d *Diffuser) solveColumns(s []float64, x0, x1 int) {
	w, f, h := d.w, &d.fy, d.data
	c := x1 - x0
	s = s[:d.h*c]

	// Forward elimination, as in solveRows4.
	inv0 := f.inv[0]
	for j, v := range h[x0:x1] {
		s[j] = float64(v) * inv0
	}
	for y := 1; y < d.h; y++ {
		m, inv := f.m[y], f.inv[y]
		cur, prev := s[y*c:y*c+c], s[(y-1)*c:y*c]
		src := h[y*w+x0 : y*w+x1]
		for j, v := range src {
			cur[j] = float64(v)*inv + m*prev[j]
		}
	}

	// Back substitution, written to the grid except on fixed edges.
	for y := d.h - 1; y >= 0; y-- {
		cur := s[y*c : y*c+c]
		write := y >= f.first && y <= f.last
		if y < d.h-1 {
			cp, nxt := f.cp[y], s[(y+1)*c:(y+2)*c]
			if write {
				dst := h[y*w+x0 : y*w+x1]
				for j := range cur {
					v := cur[j] - cp*nxt[j]
					cur[j] = v
					dst[j] = float32(v)
				}
				continue
			}
			for j := range cur {
				cur[j] -= cp * nxt[j]
			}
		} else if write {
			dst := h[y*w+x0 : y*w+x1]
			for j, v := range cur {
				dst[j] = float32(v)
			}
		}
	}
}

// line is the LU factorization (Thomas algorithm) of the tridiagonal system
// of one sweep over n cells, (I + r·L)x = d, where L is the negative
// discrete Laplacian in one dimension: row i is −r·x_{i−1} + (1 + r·nb_i)x_i
// − r·x_{i+1} = d_i over the nb_i neighbours inside the grid (zero flux
// across a free edge), and x_i = d_i on a fixed end. Every line of a sweep
// shares it, so it is factored once per step.
type line struct {
	n           int
	m, inv, cp  []float64 // s_i = d_i·inv_i + m_i·s_{i−1};  x_i = s_i − cp_i·x_{i+1}
	first, last int       // cells written back: not the fixed ends
}

func (l *line) alloc(n int) {
	l.n = n
	l.m = make([]float64, n)
	l.inv = make([]float64, n)
	l.cp = make([]float64, n)
}

// factor factors the system for r with the start (index 0) and end (index
// n−1) fixed or free.
func (l *line) factor(r float64, fixStart, fixEnd bool) {
	n := l.n
	l.first, l.last = 0, n-1
	if fixStart {
		l.first = 1
	}
	if fixEnd {
		l.last = n - 2
	}
	prevCp := 0.0
	for i := range n {
		a, b, c := 0.0, 1.0, 0.0 // sub-, main and super-diagonal
		if i >= l.first && i <= l.last {
			if i > 0 {
				a = -r
				b += r
			}
			if i < n-1 {
				c = -r
				b += r
			}
		}
		inv := 1 / (b - a*prevCp)
		l.inv[i] = inv
		l.m[i] = -a * inv
		l.cp[i] = c * inv
		prevCp = l.cp[i]
	}
}
