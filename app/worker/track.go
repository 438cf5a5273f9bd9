package worker

import (
	"orogen/sim"
	"orogen/sim/parallel"
)

// history is the bounded, append-only record of steps behind
// Frame.History. Published views are s[:len:len]: the worker only ever
// writes past the end of a view (append) or into a new array (when it
// thins), so views are never modified.
type history struct{ s []Sample }

func (h *history) reset() { h.s = nil }

func (h *history) add(x Sample) {
	if len(h.s) == MaxHistory {
		// Keep every other sample, counting back from the newest, in a
		// new array: published views still use the old one.
		kept := make([]Sample, 0, MaxHistory)
		for i := (len(h.s) - 1) % 2; i < len(h.s); i += 2 {
			kept = append(kept, h.s[i])
		}
		h.s = kept
	}
	if h.s == nil {
		h.s = make([]Sample, 0, 256)
	}
	h.s = append(h.s, x)
}

func (h *history) view() []Sample { return h.s[:len(h.s):len(h.s)] }

// setTop sets the highest point of the newest sample, when it is step's.
// Views published before hold fewer samples (a view's capacity is its
// length), so none sees the change.
func (h *history) setTop(step int, top float64) {
	if n := len(h.s); n > 0 && h.s[n-1].Step == step {
		h.s[n-1].MaxHeightM = top
	}
}

// maxHeight finds the highest cell with one partial maximum per block
// (and, in stats, the mean with one partial sum per block).
type maxHeight struct {
	blocks []float32
	sums   []float64
}

const maxBlock = 1 << 15

func (m *maxHeight) of(h []float32) float64 {
	nb := parallel.NumBlocks(len(h), maxBlock)
	if nb == 0 {
		return 0
	}
	m.blocks = sim.Resize(m.blocks, nb)
	parallel.Blocks(len(h), maxBlock, func(b, lo, hi int) {
		// Plain comparisons (the heights are finite): the builtin max
		// orders NaNs and signed zeros and costs three times as much.
		// Four running maxima break the dependency chain.
		s := h[lo:hi]
		m0, m1, m2, m3 := s[0], s[0], s[0], s[0]
		k := 0
		for ; k+4 <= len(s); k += 4 {
			if s[k] > m0 {
				m0 = s[k]
			}
			if s[k+1] > m1 {
				m1 = s[k+1]
			}
			if s[k+2] > m2 {
				m2 = s[k+2]
			}
			if s[k+3] > m3 {
				m3 = s[k+3]
			}
		}
		for ; k < len(s); k++ {
			if s[k] > m0 {
				m0 = s[k]
			}
		}
		m.blocks[b] = max(m0, m1, m2, m3)
	})
	mx := m.blocks[0]
	for _, v := range m.blocks[1:] {
		mx = max(mx, v)
	}
	return float64(mx)
}

// stats returns the highest cell and the mean height: partial maxima and
// float64 sums over fixed blocks, merged in block order, so the figures
// are the same for any GOMAXPROCS. The worker computes them once per
// snapshot, off the UI's frame (the Simulation panel shows them).
func (m *maxHeight) stats(h []float32) (maxH, mean float64) {
	nb := parallel.NumBlocks(len(h), maxBlock)
	if nb == 0 {
		return 0, 0
	}
	m.sums = sim.Resize(m.sums, nb)
	parallel.Blocks(len(h), maxBlock, func(b, lo, hi int) {
		var s float64
		for _, v := range h[lo:hi] {
			s += float64(v)
		}
		m.sums[b] = s
	})
	var sum float64
	for _, s := range m.sums {
		sum += s
	}
	return m.of(h), sum / float64(len(h))
}
