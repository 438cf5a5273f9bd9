package worker

import (
	"time"

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

// meterWindow is the span StepsPerSec averages over.
const meterWindow = time.Second

// meter measures the wall-clock step rate of a streak of steps. ends[0]
// is the reference: the start of the streak, or the end of the newest
// step at least meterWindow before the latest.
type meter struct {
	ends []time.Time
	head int // ends[head:] are live
}

// begin marks the start of a streak, unless one is going on.
func (m *meter) begin(t time.Time) {
	if len(m.ends) == m.head {
		m.ends, m.head = append(m.ends[:0], t), 0
	}
}

// add records the end of a step at t.
func (m *meter) add(t time.Time) {
	m.ends = append(m.ends, t)
	for len(m.ends)-m.head >= 2 && !m.ends[m.head+1].After(t.Add(-meterWindow)) {
		m.head++
	}
	if m.head > 64 && m.head > len(m.ends)/2 {
		n := copy(m.ends, m.ends[m.head:])
		m.ends, m.head = m.ends[:n], 0
	}
}

// stop ends the streak.
func (m *meter) stop() { m.ends, m.head = m.ends[:0], 0 }

// perSec returns the steps per second over the window, 0 before the first
// step of a streak.
func (m *meter) perSec() float64 {
	live := m.ends[m.head:]
	if len(live) < 2 {
		return 0
	}
	span := live[len(live)-1].Sub(live[0]).Seconds()
	if span <= 0 {
		return 0
	}
	return float64(len(live)-1) / span
}

// maxHeight finds the highest cell with one partial maximum per block.
type maxHeight struct{ blocks []float32 }

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
