package analysis

import "fmt"

// Profile is a river's longitudinal profile, from its source to its outlet.
type Profile struct {
	Cells  []int32   // source first, outlet last
	Dist   []float64 // distance from the source along the river, m
	Height []float32 // m
	Area   []float64 // drainage area, m²
}

// Profile returns the profile through cell: up the longest flow path above
// it to its source (at each step the donor whose own longest path is the
// longest, the lowest index on a tie), then down its receivers to the
// outlet. The distance at cell is its longest flow length less the
// source's (Tree.Source). It only reads r and may run on any goroutine.
func (r *Result) Profile(cell int) Profile {
	n := len(r.Tree.Rec)
	if cell < 0 || cell >= n {
		panic(fmt.Sprintf("analysis: Profile of cell %d of %d", cell, n))
	}
	r.donorsOnce.Do(r.buildDonors)
	t := r.Tree
	var up []int32
	for i := int32(cell); ; {
		best, bestL := int32(-1), -1.0
		for _, d := range r.donors[r.donorOff[i]:r.donorOff[i+1]] {
			if l := r.Length[d] + float64(t.Dist[d]); l > bestL || (l == bestL && d < best) {
				best, bestL = d, l
			}
		}
		if best < 0 {
			break
		}
		up = append(up, best)
		i = best
	}
	var p Profile
	add := func(i int32) {
		d := 0.0
		if k := len(p.Cells); k > 0 {
			d = p.Dist[k-1] + float64(t.Dist[p.Cells[k-1]])
		}
		p.Cells = append(p.Cells, i)
		p.Dist = append(p.Dist, d)
		p.Height = append(p.Height, r.Heights[i])
		p.Area = append(p.Area, r.Area[i])
	}
	for k := len(up) - 1; k >= 0; k-- {
		add(up[k])
	}
	for i := int32(cell); ; i = t.Rec[i] {
		add(i)
		if t.Rec[i] == i {
			break
		}
	}
	return p
}

// PrepareProfiles builds what Profile needs (every cell's donors, O(n)),
// so that a caller can pay for it on a goroutine of its choosing; Profile
// builds it on first use otherwise.
func (r *Result) PrepareProfiles() { r.donorsOnce.Do(r.buildDonors) }

// buildDonors lists every cell's donors (its upstream neighbours), in
// index order.
func (r *Result) buildDonors() {
	rec := r.Tree.Rec
	n := len(rec)
	r.donorOff = make([]int32, n+1)
	for i, d := range rec {
		if d != int32(i) {
			r.donorOff[d+1]++
		}
	}
	for i := range n {
		r.donorOff[i+1] += r.donorOff[i]
	}
	r.donors = make([]int32, r.donorOff[n])
	fill := make([]int32, n)
	for i, d := range rec {
		if d != int32(i) {
			r.donors[r.donorOff[d]+fill[d]] = int32(i)
			fill[d]++
		}
	}
}

// Outlets returns, for every cell, the outlet (root) its water reaches:
// the cells sharing an outlet form one basin.
func (r *Result) Outlets() []int32 {
	t := r.Tree
	out := make([]int32, len(t.Rec))
	for _, i := range t.Stack { // receivers first
		if rc := t.Rec[i]; rc == i {
			out[i] = i
		} else {
			out[i] = out[rc]
		}
	}
	return out
}
