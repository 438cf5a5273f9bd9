package water

import (
	"math"
	"slices"

	"orogen/sim"
)

// output lists the lakes after solve, ordered by their lowest basin, with
// their levels (Algorithm 4), and sets every basin's share of its lake's
// water.
func (s *solver) output(dst []Lake, in *Input) []Lake {
	nb := s.nb
	s.lakeIdx = sim.ResizeSpare(s.lakeIdx, nb+1)
	s.basins = sim.ResizeSpare(s.basins, nb)
	dst = dst[:0]
	// Count members per lake, in order of the lowest basin.
	for b := range nb {
		r := s.find(int32(b))
		if r == int32(b) {
			s.lakeIdx[r] = int32(len(dst))
			dst = append(dst, Lake{})
		}
	}
	cnt := sim.ResizeSpare(s.upPos, len(dst)+1) // borrowed: upPos is done with
	s.upPos = cnt
	clear(cnt)
	for b := range nb {
		cnt[s.lakeIdx[s.find(int32(b))]+1]++
	}
	for k := 1; k <= len(dst); k++ {
		cnt[k] += cnt[k-1]
	}
	for b := range nb {
		k := s.lakeIdx[s.find(int32(b))]
		s.basins[cnt[k]] = int32(b)
		cnt[k]++
	}
	lo := int32(0)
	for k := range dst {
		hi := cnt[k]
		dst[k].Basins = s.basins[lo:hi:hi]
		lo = hi
	}
	for k := range dst {
		lk := &dst[k]
		r := lk.Basins[0]
		lk.Root = in.Root[r]
		for _, b := range lk.Basins[1:] {
			if in.H[in.Root[b]] < in.H[lk.Root] {
				lk.Root = in.Root[b]
			}
		}
		lk.Volume = s.acc[r]
		lk.PassH = s.bound[r]
		lk.Pass = -1
		if e := s.passE[r]; e >= 0 {
			lk.Pass = in.Passes[e>>1].Node
		}
		lk.Full = s.full[r]
		lk.Spill = s.spill[r]
		lk.Into = NoSpill
		if lk.Full && lk.Volume > 0 && s.passE[r] >= 0 {
			if d := s.target(r); d == s.o {
				lk.Into = Outside
			} else {
				lk.Into = s.lakeIdx[d]
			}
		}
		for _, b := range lk.Basins {
			s.share[b] = 0
		}
		switch {
		case lk.Volume <= 0:
			lk.Level = float64(in.H[lk.Root])
		case lk.Full:
			lk.Level, lk.Area = s.bound[r], s.A[r]
			for _, b := range lk.Basins {
				s.share[b] = s.bA[b]*lk.Level - s.bS[b]
			}
		default:
			s.level(lk)
		}
		s.normalize(lk)
	}
	return dst
}

// level sets the surface and flooded area of a lake below its pass
// (Algorithm 4): flood its nodes lowest first until the next one lies above
// the surface (V + Σa·h)/Σa, and sets its basins' shares of the water.
func (s *solver) level(lk *Lake) {
	in := s.in
	w := s.walk[:0]
	for _, b := range lk.Basins {
		for _, i := range s.nodesOf(b) {
			if float64(in.H[i]) < lk.PassH {
				w = append(w, nodeH{h: in.H[i], i: i, b: b})
			}
		}
	}
	slices.SortFunc(w, cmpNodeH)
	s.walk = w
	var a, sh float64
	level := math.Inf(1)
	n := 0
	for _, x := range w {
		h := float64(x.h)
		if !(h < level) {
			break
		}
		ai := in.area(x.i)
		a += ai
		sh += ai * h
		level = (lk.Volume + sh) / a
		n++
	}
	lk.Level, lk.Area = min(level, lk.PassH), a
	if len(lk.Basins) > 1 {
		for _, x := range w[:n] {
			s.share[x.b] += in.area(x.i) * (lk.Level - float64(x.h))
		}
	}
}

// normalize scales the shares of lk's basins to sum to its volume exactly
// (a single basin holds it all).
func (s *solver) normalize(lk *Lake) {
	bs := lk.Basins
	if len(bs) == 1 {
		s.share[bs[0]] = lk.Volume
		return
	}
	var tot float64
	for _, b := range bs {
		tot += max(0, s.share[b])
	}
	if !(tot > 0) {
		for _, b := range bs {
			s.share[b] = 0
		}
		s.share[bs[0]] = lk.Volume
		return
	}
	f := lk.Volume / tot
	rest := lk.Volume
	last := -1
	for k, b := range bs {
		s.share[b] = max(0, s.share[b]) * f
		if s.share[b] > 0 {
			last = k
		}
	}
	for k, b := range bs {
		if k != last {
			rest -= s.share[b]
		}
	}
	s.share[bs[last]] = max(0, rest)
}

// store appends the new stored water, at the pits, nodes ascending.
func (s *solver) store(node []int32, vol []float64) ([]int32, []float64) {
	in := s.in
	w := s.walk[:0]
	for b := range s.nb {
		if s.share[b] > 0 {
			w = append(w, nodeH{i: int32(b)})
		}
	}
	slices.SortFunc(w, func(x, y nodeH) int { return int(in.Root[x.i]) - int(in.Root[y.i]) })
	for _, x := range w {
		node = append(node, in.Root[x.i])
		vol = append(vol, s.share[x.i])
	}
	s.walk = w
	return node, vol
}
