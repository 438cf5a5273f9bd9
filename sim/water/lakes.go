package water

import (
	"math"
	"slices"

	"orogen/sim"
	"orogen/sim/parallel"
)

// solver holds the lake computation of one step (Algorithms 2-4) and its
// buffers. Basins are 0..nb-1 and the outside of the domain is lake nb;
// a lake is named by its representative basin in a union-find forest, and
// the per-lake arrays are valid at representatives only.
type solver struct {
	in *Input
	nb int
	o  int32 // the outside

	bOff, bNode []int32 // node lists built from the labels when in.Nodes is nil

	// Per basin.
	water, rain []float64 // water moved to the pit; rain of this step, m³
	initB       []float64 // covered height: its nodes below it are summed in bA, bS
	bA, bS      []float64 // Σa and Σa·h over its nodes below its lake's bound
	minUp       []float64 // lowest height at or above initB, +Inf for none
	upOff       []int32   // its nodes at or above initB, sorted, are up[upOff:upOff+upLen]; -1 until built
	upLen       []int32
	upPos       []int32 // rescans done before upOff is set; then how many of those are summed
	up          []int32
	next, last  []int32 // member lists: next basin, and the last one at representatives
	share       []float64
	par         []int32

	// Per lake.
	rem, acc, miss, spill []float64
	A, S, bound           []float64 // Σa, Σa·h over the nodes below bound; bound is the lowest pass height
	full                  []bool
	passE                 []int32 // the entry of the lowest pass, -1 for none
	passRoot, memRoot     []int32
	ph, mh                pairing // pass entries keyed by height; basins keyed by their next node height
	edest                 []int32 // per entry: the basin beyond, or o

	// Algorithm 2's rounds.
	mark             []int32
	stamp            int32
	loc              []int32
	work, C          []int32
	off, adj, comp   []int32
	size             []int32
	grp              []int32
	tj               tarjan
	net              network
	sArc, tArc, oArc []int32
	walk             []nodeH

	outflow, rainAll, rainPits float64
	iters, merged              int
	lakeIdx                    []int32
	basins                     []int32
}

// nodeH is a node and its height, for sorting.
type nodeH struct {
	h    float32
	i, b int32 // node, basin
}

func cmpNodeH(a, b nodeH) int {
	switch {
	case a.h < b.h:
		return -1
	case a.h > b.h:
		return 1
	}
	return int(a.i) - int(b.i)
}

// nodesOf returns the nodes of basin b.
func (s *solver) nodesOf(b int32) []int32 {
	if s.in.Nodes != nil {
		return s.in.Nodes[b]
	}
	return s.bNode[s.bOff[b]:s.bOff[b+1]]
}

func (s *solver) find(x int32) int32 {
	r := x
	for s.par[r] != r {
		r = s.par[r]
	}
	for s.par[x] != r {
		s.par[x], x = r, s.par[x]
	}
	return r
}

// volTol is the volume below which a lake counts as full, m³: rounding of
// A·p − S, whose terms are ~A·|p|, at about 1e-11 relative.
func (s *solver) volTol(r int32) float64 {
	if s.passE[r] < 0 {
		return 0 // no pass: the lake can never be full
	}
	return 1e-11 * s.A[r] * (math.Abs(s.bound[r]) + 1)
}

// setup sizes the buffers for in, applies the first optimization of
// §III.B.2.d (basins whose roots lie at the height of the pass between
// them are one lake), finds every lake's lowest pass and scans the basins:
// rain, and the area and Σa·h of the nodes below the pass (Algorithm 3).
func (s *solver) setup(in *Input, p Params, dt float64) {
	s.in = in
	nb := len(in.Root)
	s.nb, s.o = nb, int32(nb)
	s.outflow, s.iters, s.merged = 0, 0, 0
	if in.Nodes == nil && nb > 0 {
		s.buildNodes()
	}
	s.water = sim.ResizeSpare(s.water, nb)
	clear(s.water)
	s.rain = sim.ResizeSpare(s.rain, nb)
	s.initB = sim.ResizeSpare(s.initB, nb)
	s.bA = sim.ResizeSpare(s.bA, nb)
	s.bS = sim.ResizeSpare(s.bS, nb)
	s.minUp = sim.ResizeSpare(s.minUp, nb)
	s.upOff = sim.ResizeSpare(s.upOff, nb)
	s.upLen = sim.ResizeSpare(s.upLen, nb)
	s.upPos = sim.ResizeSpare(s.upPos, nb)
	s.next = sim.ResizeSpare(s.next, nb)
	s.last = sim.ResizeSpare(s.last, nb)
	s.share = sim.ResizeSpare(s.share, nb)
	s.up = s.up[:0]
	nl := nb + 1
	s.par = sim.ResizeSpare(s.par, nl)
	s.rem = sim.ResizeSpare(s.rem, nl)
	s.acc = sim.ResizeSpare(s.acc, nl)
	s.miss = sim.ResizeSpare(s.miss, nl)
	s.spill = sim.ResizeSpare(s.spill, nl)
	s.A = sim.ResizeSpare(s.A, nl)
	s.S = sim.ResizeSpare(s.S, nl)
	s.bound = sim.ResizeSpare(s.bound, nl)
	s.full = sim.ResizeSpare(s.full, nl)
	s.passE = sim.ResizeSpare(s.passE, nl)
	s.passRoot = sim.ResizeSpare(s.passRoot, nl)
	s.memRoot = sim.ResizeSpare(s.memRoot, nl)
	s.mark = sim.ResizeSpare(s.mark, nl)
	s.loc = sim.ResizeSpare(s.loc, nl)
	for l := range nl {
		s.par[l] = int32(l)
		s.rem[l], s.acc[l], s.spill[l] = 0, 0, 0
		s.full[l] = false
		s.passRoot[l], s.memRoot[l], s.mark[l] = -1, -1, 0
	}
	s.stamp = 0
	for b := range nb {
		s.next[b], s.last[b] = -1, int32(b)
		s.upOff[b], s.upPos[b] = -1, 0
	}
	// Pass entries: 2k leaves A over pass k, 2k+1 leaves B.
	ne := 2 * len(in.Passes)
	s.ph.reset(ne)
	s.edest = sim.ResizeSpare(s.edest, ne)
	for k, ps := range in.Passes {
		a, b := ps.A, ps.B
		if a < 0 {
			a, b = b, a
		}
		if a < 0 || a == b {
			continue
		}
		e := int32(2 * k)
		s.ph.key[e] = float64(ps.H)
		if b < 0 {
			s.edest[e] = s.o
		} else {
			s.edest[e] = b
			s.ph.key[e+1] = float64(ps.H)
			s.edest[e+1] = a
			s.passRoot[b] = s.ph.meld(s.passRoot[b], e+1)
		}
		s.passRoot[a] = s.ph.meld(s.passRoot[a], e)
	}
	// Optimization 1: join pits level with the pass between them.
	for _, ps := range in.Passes {
		if ps.A >= 0 && ps.B >= 0 && ps.A != ps.B && ps.H == in.H[in.Root[ps.A]] && ps.H == in.H[in.Root[ps.B]] {
			if ra, rb := s.find(ps.A), s.find(ps.B); ra != rb {
				s.union(ra, rb)
				s.merged++
			}
		}
	}
	for b := range nb {
		if r := int32(b); s.par[r] == r {
			s.lowestPass(r)
		}
	}
	// Scan the basins.
	parallel.Blocks(nb, 64, func(_, lo, hi int) {
		for b := lo; b < hi; b++ {
			s.scan(int32(b), p, dt)
		}
	})
	s.rainPits = 0
	for b := range nb {
		s.rainPits += s.rain[b]
	}
	s.rainAll = s.totalRain(p, dt)
	s.mh.reset(nb)
	for b := range nb {
		r := s.find(int32(b))
		if r == int32(b) {
			s.A[r], s.S[r] = 0, 0
		}
	}
	for b := range nb {
		r := s.find(int32(b))
		s.A[r] += s.bA[b]
		s.S[r] += s.bS[b]
		if k := s.minUp[b]; !math.IsInf(k, 1) {
			s.mh.key[b] = k
			s.memRoot[r] = s.mh.meld(s.memRoot[r], int32(b))
		}
	}
	for b := range nb {
		if r := int32(b); s.par[r] == r {
			s.setMiss(r)
		}
	}
	o := s.o
	s.miss[o], s.bound[o], s.passE[o], s.A[o], s.S[o] = math.Inf(1), math.Inf(1), -1, 0, 0
}

// totalRain returns the rain on the whole domain this step, m³.
func (s *solver) totalRain(p Params, dt float64) float64 {
	in := s.in
	n := len(in.H)
	if p.RainMap == nil {
		if in.Area == nil {
			return dt * p.Rain * in.CellArea * float64(n)
		}
		var a float64
		for _, v := range in.Area {
			a += v
		}
		return dt * p.Rain * a
	}
	var q float64
	for i, r := range p.RainMap {
		q += float64(r) * in.area(int32(i))
	}
	return dt * q
}

// buildNodes lists the nodes of every basin from the labels, ascending.
func (s *solver) buildNodes() {
	in := s.in
	nb := len(in.Root)
	s.bOff = sim.ResizeSpare(s.bOff, nb+1)
	clear(s.bOff)
	for i := range in.H {
		if b := in.basinOf(int32(i)); b >= 0 {
			s.bOff[b+1]++
		}
	}
	for b := 1; b <= nb; b++ {
		s.bOff[b] += s.bOff[b-1]
	}
	s.bNode = sim.ResizeSpare(s.bNode, int(s.bOff[nb]))
	cur := sim.ResizeSpare(s.upLen, nb) // borrowed; setup resets it
	s.upLen = cur
	copy(cur, s.bOff[:nb])
	for i := range in.H {
		if b := in.basinOf(int32(i)); b >= 0 {
			s.bNode[cur[b]] = int32(i)
			cur[b]++
		}
	}
}

// scan sums basin b's rain and its nodes below its lake's bound.
func (s *solver) scan(b int32, p Params, dt float64) {
	in := s.in
	bound := s.bound[s.root(b)]
	s.initB[b] = bound
	var a, sh, rain float64
	lo := math.Inf(1)
	rm := p.RainMap
	for _, i := range s.nodesOf(b) {
		ai := in.area(i)
		if rm != nil {
			rain += float64(rm[i]) * ai
		} else {
			rain += ai
		}
		h := float64(in.H[i])
		if h < bound {
			a += ai
			sh += ai * h
		} else if h < lo {
			lo = h
		}
	}
	if rm == nil {
		rain *= p.Rain
	}
	s.rain[b] = dt * rain
	s.bA[b], s.bS[b], s.minUp[b] = a, sh, lo
}

// root is find without path compression, safe in parallel.
func (s *solver) root(x int32) int32 {
	for s.par[x] != x {
		x = s.par[x]
	}
	return x
}

// union joins lakes a and b (representatives) and returns the new
// representative, the lower of the two: members, pass and basin heaps,
// water and sums.
func (s *solver) union(a, b int32) int32 {
	if b < a {
		a, b = b, a
	}
	s.par[b] = a
	s.next[s.last[a]] = b
	s.last[a] = s.last[b]
	s.passRoot[a] = s.ph.meld(s.passRoot[a], s.passRoot[b])
	s.memRoot[a] = s.mh.meld(s.memRoot[a], s.memRoot[b])
	s.rem[a] += s.rem[b]
	s.acc[a] += s.acc[b]
	s.A[a] += s.A[b]
	s.S[a] += s.S[b]
	return a
}

// lowestPass sets lake r's lowest pass to another lake (or out of the
// domain) and its bound to the pass height, +Inf when it has none.
func (s *solver) lowestPass(r int32) {
	for {
		e := s.passRoot[r]
		if e < 0 {
			s.passE[r], s.bound[r] = -1, math.Inf(1)
			return
		}
		if s.find(s.edest[e]) != r {
			s.passE[r], s.bound[r] = e, s.ph.key[e]
			return
		}
		s.passRoot[r] = s.ph.pop(e) // a pass inside the lake
	}
}

// setMiss sets the volume lake r misses to its pass, and whether it is
// full.
func (s *solver) setMiss(r int32) {
	if s.passE[r] < 0 {
		s.miss[r], s.full[r] = math.Inf(1), false
		return
	}
	m := s.A[r]*s.bound[r] - s.S[r] - s.acc[r]
	if m <= s.volTol(r) {
		s.miss[r], s.full[r] = 0, true
		return
	}
	s.miss[r], s.full[r] = m, false
}

// upper returns basin b's nodes at or above its covered height, sorted by
// height, building the list on first use.
func (s *solver) upper(b int32) []int32 {
	if s.upOff[b] < 0 {
		in := s.in
		w := s.walk[:0]
		for _, i := range s.nodesOf(b) {
			if float64(in.H[i]) >= s.initB[b] {
				w = append(w, nodeH{h: in.H[i], i: i})
			}
		}
		slices.SortFunc(w, cmpNodeH)
		s.upOff[b], s.upLen[b] = int32(len(s.up)), int32(len(w))
		for _, x := range w {
			s.up = append(s.up, x.i)
		}
		s.walk = w
	}
	return s.up[s.upOff[b] : s.upOff[b]+s.upLen[b]]
}

// rescans is how many times a basin's nodes are rescanned to raise its
// lake's level before they are sorted once: most basins are raised once or
// twice, and a rescan costs less than a sort of the whole basin.
const rescans = 2

// advance adds to lake r's sums the nodes of its basins below height L
// (Algorithm 3, incrementally: the bound only rises).
func (s *solver) advance(r int32, L float64) {
	in := s.in
	for {
		b := s.memRoot[r]
		if b < 0 || !(s.mh.key[b] < L) {
			return
		}
		s.memRoot[r] = s.mh.pop(b)
		var a0, s0 float64
		next := math.Inf(1)
		if s.upOff[b] < 0 && s.upPos[b] < rescans {
			// Rescan: add the nodes in [covered, L), find the next above.
			c := s.initB[b]
			for _, i := range s.nodesOf(b) {
				h := float64(in.H[i])
				switch {
				case h >= L:
					next = min(next, h)
				case h >= c:
					a := in.area(i)
					a0 += a
					s0 += a * h
				}
			}
			s.initB[b] = L
			s.upPos[b]++
		} else {
			if s.upOff[b] < 0 {
				s.upPos[b] = 0 // now a cursor into the sorted list
			}
			u := s.upper(b)
			k := s.upPos[b]
			for ; int(k) < len(u); k++ {
				i := u[k]
				h := float64(in.H[i])
				if !(h < L) {
					next = h
					break
				}
				a := in.area(i)
				a0 += a
				s0 += a * h
			}
			s.upPos[b] = k
		}
		s.bA[b] += a0
		s.bS[b] += s0
		s.A[r] += a0
		s.S[r] += s0
		if !math.IsInf(next, 1) {
			s.mh.key[b] = next
			s.memRoot[r] = s.mh.meld(s.memRoot[r], b)
		}
	}
}

// mergeLakes collapses the lakes of a strongly connected component into
// one (Algorithm 2 lines 24-27) and returns it: its lowest pass and the
// volume it misses to it.
func (s *solver) mergeLakes(ls []int32) int32 {
	top := math.Inf(-1)
	for _, x := range ls {
		top = max(top, s.bound[x])
	}
	for _, x := range ls {
		if s.bound[x] < top {
			s.advance(x, top) // members share their pass height; rounding aside
		}
	}
	r := ls[0]
	for _, x := range ls[1:] {
		r = s.union(r, x)
	}
	s.merged += len(ls) - 1
	s.spill[r] = 0
	s.lowestPass(r)
	s.advance(r, s.bound[r])
	s.setMiss(r)
	return r
}

// target is the lake a full lake r spills into.
func (s *solver) target(r int32) int32 { return s.find(s.edest[s.passE[r]]) }

// addC adds lake x and the chain of full lakes it spills through to this
// round's network.
func (s *solver) addC(x int32) {
	for {
		r := s.find(x)
		if s.mark[r] == s.stamp {
			return
		}
		s.mark[r] = s.stamp
		s.loc[r] = int32(len(s.C))
		s.C = append(s.C, r)
		if r == s.o || !s.full[r] {
			return
		}
		x = s.edest[s.passE[r]]
	}
}

// closure rebuilds C from the lakes in from (which may alias C).
func (s *solver) closure(from []int32) {
	s.stamp++
	s.work = append(s.work[:0], from...)
	s.C = s.C[:0]
	for _, x := range s.work {
		s.addC(x)
	}
}

// settle moves the water a round's preflow left in full lakes down their
// chains (arcs of infinite capacity, so the preflow stays maximal) to the
// lakes that just filled, where the next round takes it on: otherwise it
// would stay spread over every lake upstream, and each round would carry
// all of them again. Chains are walked in topological order (Kahn); lakes
// on a cycle, which the next round merges, keep theirs.
func (s *solver) settle() {
	nc := len(s.C)
	deg := sim.ResizeSpare(s.size, nc)
	s.size = deg
	clear(deg)
	for k := range nc {
		if a := s.oArc[k]; a >= 0 {
			deg[s.net.head[a]-2]++
		}
	}
	q := s.grp[:0]
	for k := range nc {
		if deg[k] == 0 {
			q = append(q, int32(k))
		}
	}
	for j := 0; j < len(q); j++ {
		k := q[j]
		a := s.oArc[k]
		if a < 0 {
			continue
		}
		d := s.net.head[a] - 2
		if r := s.C[k]; s.rem[r] > 0 {
			s.rem[s.C[d]] += s.rem[r]
			s.spill[r] += s.rem[r]
			s.rem[r] = 0
		}
		if deg[d]--; deg[d] == 0 {
			q = append(q, d)
		}
	}
	s.grp = q
}

// solve is Algorithm 2 with both optimizations of §III.B.2.d: each lake
// first keeps what it can hold of its own water; then rounds of a network
// (source → lakes with water left, lakes → sink with the volume they miss,
// full lakes → the lake beyond their lowest pass) in which strongly
// connected components merge and a maximum flow moves the water, until a
// round neither moves water nor merges. Only lakes with water left or just
// filled, and the full lakes downstream of them, enter a round: the others
// would carry no flow and form no new component.
func (s *solver) solve() {
	var next []int32
	for b := range s.nb {
		r := int32(b)
		if s.par[r] != r {
			continue
		}
		f := min(s.rem[r], s.miss[r])
		s.acc[r] += f
		s.rem[r] -= f
		s.miss[r] -= f
		if !s.full[r] && s.miss[r] <= s.volTol(r) {
			s.miss[r], s.full[r] = 0, true
		}
		if s.rem[r] > 0 || s.full[r] {
			next = append(next, r)
		}
	}
	inf := math.Inf(1)
	for len(next) > 0 {
		s.iters++
		s.closure(next)
		next = next[:0]
		// Strongly connected components of the full lakes' arcs.
		nc := len(s.C)
		s.off = sim.ResizeSpare(s.off, nc+1)
		s.adj = s.adj[:0]
		s.off[0] = 0
		for k, r := range s.C {
			if r != s.o && s.full[r] {
				s.adj = append(s.adj, s.loc[s.target(r)])
			}
			s.off[k+1] = int32(len(s.adj))
		}
		s.comp = sim.ResizeSpare(s.comp, nc)
		ncomp := s.tj.run(nc, s.off, s.adj, s.comp)
		merged := false
		if ncomp < nc {
			s.size = sim.ResizeSpare(s.size, ncomp+1)
			clear(s.size)
			for _, c := range s.comp {
				s.size[c+1]++
			}
			for c := 1; c <= ncomp; c++ {
				s.size[c] += s.size[c-1]
			}
			s.grp = sim.ResizeSpare(s.grp, nc)
			for k, c := range s.comp {
				s.grp[s.size[c]] = s.C[k]
				s.size[c]++
			}
			lo := int32(0)
			for c := 0; c < ncomp; c++ {
				hi := s.size[c]
				if hi-lo > 1 {
					r := s.mergeLakes(s.grp[lo:hi])
					merged = true
					if s.full[r] {
						next = append(next, r)
					}
				}
				lo = hi
			}
			s.closure(s.C)
			nc = len(s.C)
		}
		// The flow network: s = 0, t = 1, lake C[k] = k+2.
		s.net.reset(nc + 2)
		s.sArc = sim.ResizeSpare(s.sArc, nc)
		s.tArc = sim.ResizeSpare(s.tArc, nc)
		s.oArc = sim.ResizeSpare(s.oArc, nc)
		for k, r := range s.C {
			v := int32(k + 2)
			s.sArc[k], s.tArc[k], s.oArc[k] = -1, -1, -1
			if s.rem[r] > 0 {
				s.sArc[k] = s.net.addArc(0, v, s.rem[r])
			}
			switch {
			case r == s.o:
				s.tArc[k] = s.net.addArc(v, 1, inf)
			case !s.full[r]:
				s.tArc[k] = s.net.addArc(v, 1, s.miss[r])
			default:
				s.oArc[k] = s.net.addArc(v, s.loc[s.target(r)]+2, inf)
			}
		}
		f := s.net.maxFlow(0, 1, true)
		for k, r := range s.C {
			// Water that could not reach a lake with room stays where the
			// preflow left it.
			s.rem[r] = s.net.excess[k+2]
			if a := s.sArc[k]; a >= 0 {
				s.rem[r] += s.net.res[a]
			}
			if a := s.oArc[k]; a >= 0 {
				s.spill[r] += s.net.flow(a)
			}
			if a := s.tArc[k]; a >= 0 {
				if r == s.o {
					s.outflow += s.net.flow(a)
				} else if fl := s.net.flow(a); fl > 0 {
					s.acc[r] += fl
					s.miss[r] = s.net.res[a]
					if s.miss[r] <= s.volTol(r) {
						s.miss[r], s.full[r] = 0, true
						next = append(next, r)
					}
				}
			}
		}
		s.settle()
		for _, r := range s.C {
			if s.rem[r] > 0 {
				next = append(next, r)
			}
		}
		if f == 0 && !merged {
			break
		}
	}
	// Water a round left behind (rounding) stays in its lake.
	for b := range s.nb {
		if r := int32(b); s.par[r] == r && s.rem[r] > 0 {
			s.acc[r] += s.rem[r]
			s.rem[r] = 0
		}
	}
}
