package graph

import (
	"orogen/sim/flow"
	"orogen/sim/parallel"
)

// Random hillslope routing (Params.Routing = flow.RoutingRandom), as the
// grid engine has it (flow.Graph.Randomize): a node whose drainage area in
// the last step was below the channel area takes a seeded choice among its
// downhill neighbours, each with probability proportional to its slope
// (Holmgren 1994's weights with exponent 1), and keeps it while that
// neighbour stays downhill; channels keep the steepest receiver (route),
// and a node stays a channel for flow.ChannelHold routings after its area
// last reached the channel area.
//
// The graph has no D8 imprint to remove, but it needs the rule for the
// same reason the grid's hillslopes do once sediment deposits (Params.G >
// 0): the node a hillslope donor drains into receives its sediment and
// keeps G·Qs/A of it, rising by tens of metres at a step of 2.5·10⁵ yr,
// which turns the donor to another neighbour, which then rises in turn.
// With steepest descent and the 1 % hold of route, the default preset's
// physics at 256² (G 1.5, k noise 0.8, creep, noisy talus) switched about
// 1 % of the receivers every step, moving heights by 30–100 m, and never
// settled in 3 000 steps; a choice kept while downhill does not feed back.

// defaultChannelNodes is the channel area in mean node areas when
// Params.ChannelArea is 0: 25 nodes, the grid engine's 100 cells at the
// default sampling of one node per 4 cells (app/engines.DefaultSamples).
const defaultChannelNodes = 25

// channelArea returns the drainage area from which a node is a channel,
// m².
func (e *Engine) channelArea() float64 {
	if e.p.ChannelArea > 0 {
		return e.p.ChannelArea
	}
	return defaultChannelNodes * e.m.W * e.m.H / float64(e.m.N)
}

// randomScratch is the random routing's state per node.
type randomScratch struct {
	pick []int32 // the receiver drawn for a hillslope node, −1 none
	hold []uint8 // routings left as a channel (flow.ChannelHold after the last)
}

// randomize replaces the receiver route gave every hillslope node (area,
// the last step's drainage area in node order, below the channel area) by
// its random choice, kept while downhill (see the comment above).
func (e *Engine) randomize(area []float64, h []float32) {
	m, rec := e.m, e.rec
	rs := &e.rnd
	if len(rs.pick) != m.N {
		rs.pick = make([]int32, m.N)
		for i := range rs.pick {
			rs.pick[i] = -1
		}
		rs.hold = make([]uint8, m.N)
	}
	channel, seed := e.channelArea(), e.p.Seed
	outlet, nbrOff, nbr, invDist := m.Outlet, m.NbrOff, m.Nbr, m.invDist
	parallel.Blocks(m.N, stackBlock, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			if outlet[i] {
				continue
			}
			if area[i] >= channel {
				rs.pick[i], rs.hold[i] = -1, flow.ChannelHold
				continue
			}
			if rs.hold[i] > 0 {
				rs.hold[i]--
				continue // still a channel: the steepest receiver
			}
			hv := h[i]
			if j := rs.pick[i]; j >= 0 && h[j] < hv {
				rec[i] = j
				continue
			}
			var sum float64
			for k := nbrOff[i]; k < nbrOff[i+1]; k++ {
				if s := float64(hv) - float64(h[nbr[k]]); s > 0 {
					sum += s * invDist[k]
				}
			}
			if sum <= 0 {
				rs.pick[i] = -1
				continue // a pit: route made it its own receiver
			}
			u := unit(seed, uint64(i)) * sum
			pick := int32(-1)
			for k := nbrOff[i]; k < nbrOff[i+1]; k++ {
				s := float64(hv) - float64(h[nbr[k]])
				if s <= 0 {
					continue
				}
				pick = nbr[k]
				w := s * invDist[k]
				if u < w {
					break
				}
				u -= w
			}
			rs.pick[i], rec[i] = pick, pick
		}
	})
}

// unit returns a number in [0, 1) from a hash of seed and i (SplitMix64's
// finalizer), so a node's draw does not depend on the workers.
func unit(seed, i uint64) float64 {
	z := seed ^ (i+1)*0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	z ^= z >> 31
	return float64(z>>11) / (1 << 53)
}
