package runner

import "time"

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
