package export

import (
	"fmt"
	"math"
	"runtime"
	"sync"

	"orogen/sim"
)

// Resampling. An export of w×h pixels from a W×H simulation samples the
// terrain corner to corner: output pixel i sits at simulation cell
// coordinate i·(W-1)/(w-1) (cell centres at integers), so the first and
// last pixels are the first and last cells and the exported extent is the
// simulation's, (W-1)·cell wide; the exported cell size is
// cell·(W-1)/(w-1). That is what game engines' vertex grids (Unreal's
// 4033, Unity's 2ⁿ+1) expect, and what lets tiles share their edge pixels.
//
// The filter is the Catmull-Rom cubic (Keys 1981, a = -1/2), separable,
// widened by the ratio when shrinking (so a 4× reduction averages over 16
// cells, not 4, and does not alias), with the border cells repeated past
// the edges. Every output value is clamped to the range of the source
// values its weights touch, so the cubic's overshoot never rings past the
// data: water depths stay ≥ 0, masks stay in [0, 1], and the export's
// range is within the simulation's (the 16-bit range of every tile of an
// export is the simulation's, shared). The price: a peak or pit that
// falls between cells is cut at the highest or lowest of its 4×4
// neighbours instead of rising above them. At the simulation's own size the
// weights are exactly (0, 1, 0, 0): the export is the field bit for bit.
// Nearest-neighbour is never used.

// catmullRom is the Keys cubic convolution kernel with a = -1/2.
func catmullRom(x float64) float64 {
	x = math.Abs(x)
	switch {
	case x < 1:
		return (1.5*x-2.5)*x*x + 1
	case x < 2:
		return ((-0.5*x+2.5)*x-4)*x + 2
	}
	return 0
}

// taps are the filter weights of one axis: output o reads source indices
// idx[off[o]:off[o+1]] with weights wt[off[o]:off[o+1]].
type taps struct {
	off []int
	idx []int32
	wt  []float64
}

// newTaps returns the weights mapping n source samples to m output ones.
func newTaps(n, m int) taps {
	t := taps{off: make([]int, 0, m+1)}
	t.off = append(t.off, 0)
	scale := 1.0
	if m > 1 {
		scale = float64(n-1) / float64(m-1)
	}
	widen := max(1, scale)
	for o := range m {
		c := float64(n-1) / 2 // a single output pixel sits at the centre
		if m > 1 {
			c = float64(o*(n-1)) / float64(m-1)
		}
		lo := int(math.Ceil(c - 2*widen))
		hi := int(math.Floor(c + 2*widen))
		start := len(t.wt)
		sum := 0.0
		for j := lo; j <= hi; j++ {
			w := catmullRom((float64(j) - c) / widen)
			if w == 0 {
				continue
			}
			t.idx = append(t.idx, int32(min(max(j, 0), n-1)))
			t.wt = append(t.wt, w)
			sum += w
		}
		if sum != 1 {
			for k := start; k < len(t.wt); k++ {
				t.wt[k] /= sum
			}
		}
		t.off = append(t.off, len(t.wt))
	}
	return t
}

// span returns the lowest and highest source index outputs [a, b) read.
func (t *taps) span(a, b int) (lo, hi int) {
	lo, hi = math.MaxInt, -1
	for _, i := range t.idx[t.off[a]:t.off[b]] {
		lo, hi = min(lo, int(i)), max(hi, int(i))
	}
	return lo, hi
}

// Resampler computes windows of the w×h resampling of a field, each on
// its own, so an export can be written one tile at a time. It only reads
// the source, which must not change while it is in use; several
// goroutines may call Window at once.
type Resampler struct {
	src    *sim.Field
	W, H   int
	tx, ty taps
	// CellX and CellY are the exported cell size, metres.
	CellX, CellY float64
}

// NewResampler prepares the resampling of src to w×h (see the comment on
// resampling). w and h must be at least 1; a side of 1 samples the middle.
func NewResampler(src *sim.Field, w, h int) *Resampler {
	if w < 1 || h < 1 {
		panic(fmt.Sprintf("export: resample to %d×%d", w, h))
	}
	r := &Resampler{src: src, W: w, H: h, tx: newTaps(src.W, w), ty: newTaps(src.H, h), CellX: src.Cell, CellY: src.Cell}
	if w > 1 {
		r.CellX = src.Cell * float64(src.W-1) / float64(w-1)
	}
	if h > 1 {
		r.CellY = src.Cell * float64(src.H-1) / float64(h-1)
	}
	return r
}

// Resample returns src resampled to w×h (NewResampler(...).Window over the
// whole output). The result's Cell is the exported X cell size.
func Resample(src *sim.Field, w, h int) *sim.Field {
	r := NewResampler(src, w, h)
	return r.Window(0, 0, w, h)
}

// Window returns the output pixels [x0, x0+w) × [y0, y0+h) as a field of
// cell size CellX. The result does not depend on the window: a pixel has
// the same value in every window that holds it.
func (r *Resampler) Window(x0, y0, w, h int) *sim.Field {
	if x0 < 0 || y0 < 0 || w < 1 || h < 1 || x0+w > r.W || y0+h > r.H {
		panic(fmt.Sprintf("export: window %d,%d %d×%d outside %d×%d", x0, y0, w, h, r.W, r.H))
	}
	sw := r.src.W
	rlo, rhi := r.ty.span(y0, y0+h)
	rows := rhi - rlo + 1
	// Horizontal pass over the source rows the window needs: values, and
	// the range of the source values each output column touches.
	tmp := make([]float64, rows*w)
	tlo := make([]float32, rows*w)
	thi := make([]float32, rows*w)
	parallelRows(rows, func(a, b int) {
		for ry := a; ry < b; ry++ {
			row := r.src.Data[(rlo+ry)*sw : (rlo+ry+1)*sw]
			for x := range w {
				k0, k1 := r.tx.off[x0+x], r.tx.off[x0+x+1]
				s := 0.0
				lo, hi := float32(math.Inf(1)), float32(math.Inf(-1))
				for k := k0; k < k1; k++ {
					v := row[r.tx.idx[k]]
					s += r.tx.wt[k] * float64(v)
					lo, hi = min(lo, v), max(hi, v)
				}
				tmp[ry*w+x], tlo[ry*w+x], thi[ry*w+x] = s, lo, hi
			}
		}
	})
	out := sim.NewField(w, h, r.CellX)
	parallelRows(h, func(a, b int) {
		// Row by row, tap by tap over whole rows (the same sums, in the
		// same order, as pixel by pixel: tap order).
		acc := make([]float64, w)
		lo := make([]float32, w)
		hi := make([]float32, w)
		for y := a; y < b; y++ {
			k0, k1 := r.ty.off[y0+y], r.ty.off[y0+y+1]
			for k := k0; k < k1; k++ {
				wt := r.ty.wt[k]
				o := (int(r.ty.idx[k]) - rlo) * w
				t, tl, th := tmp[o:o+w], tlo[o:o+w], thi[o:o+w]
				if k == k0 {
					for x := range acc {
						acc[x] = wt * t[x]
					}
					copy(lo, tl)
					copy(hi, th)
					continue
				}
				for x := range acc {
					acc[x] += wt * t[x]
					lo[x] = min(lo[x], tl[x])
					hi[x] = max(hi[x], th[x])
				}
			}
			dst := out.Data[y*w : (y+1)*w]
			for x := range dst {
				dst[x] = min(max(float32(acc[x]), lo[x]), hi[x])
			}
		}
	})
	return out
}

// parallelRows calls fn on consecutive blocks of [0, n) rows on up to
// GOMAXPROCS goroutines. fn must write only its own rows, so the result
// does not depend on the split.
func parallelRows(n int, fn func(a, b int)) {
	const minBlock = 16
	workers := min(runtime.GOMAXPROCS(0), (n+minBlock-1)/minBlock)
	if workers <= 1 {
		fn(0, n)
		return
	}
	var wg sync.WaitGroup
	block := (n + workers - 1) / workers
	for a := 0; a < n; a += block {
		wg.Add(1)
		go func(a, b int) {
			defer wg.Done()
			fn(a, b)
		}(a, min(a+block, n))
	}
	wg.Wait()
}
