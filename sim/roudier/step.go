package roudier

import (
	"fmt"
	"math"
	"time"

	"orogen/sim/engine"
	"orogen/sim/geology"
	"orogen/sim/parallel"
)

// Budget is a step's (or a run's) account of rock and alluvium, m³, summed
// in float64 over fixed blocks of cells in a fixed order.
//
// RockRemoved is measured on the rock surface (uplift minus the change of
// the rock's volume), AlluviumStored on the alluvium thickness; Detritus,
// CreepOut and Dissolved are the fluxes the laws computed. Roudier et al.
// 1993's processes conserve matter, so RockRemoved = Detritus + CreepOut
// + Dissolved + AlluviumStored up to float64 rounding; Residual returns
// the difference.
type Budget struct {
	Uplift         float64 `json:"uplift_m3"`
	RockRemoved    float64 `json:"rock_removed_m3"`
	Detritus       float64 `json:"detritus_out_m3"` // detritus carried off the map (outlets)
	CreepOut       float64 `json:"creep_out_m3"`    // crept into fixed outlet cells
	Dissolved      float64 `json:"dissolved_m3"`
	AlluviumStored float64 `json:"alluvium_stored_m3"` // change of the alluvium's volume
}

// Residual returns RockRemoved − (Detritus + CreepOut + Dissolved +
// AlluviumStored), m³.
func (b Budget) Residual() float64 {
	return b.RockRemoved - (b.Detritus + b.CreepOut + b.Dissolved + b.AlluviumStored)
}

// Add returns the account of two runs one after the other.
func (b Budget) Add(o Budget) Budget {
	return Budget{Uplift: b.Uplift + o.Uplift, RockRemoved: b.RockRemoved + o.RockRemoved, Detritus: b.Detritus + o.Detritus,
		CreepOut: b.CreepOut + o.CreepOut, Dissolved: b.Dissolved + o.Dissolved, AlluviumStored: b.AlluviumStored + o.AlluviumStored}
}

// Mass is the budget as the engine contract's rock account: detritus out
// is Eroded, creep into the outlets Diffused (creep is the hillslope
// process), Stored the change of the terrain's volume.
func (b Budget) Mass() engine.Mass {
	return engine.Mass{Uplift: b.Uplift, Eroded: b.Detritus, Diffused: b.CreepOut, Dissolved: b.Dissolved,
		Stored: b.Uplift - b.RockRemoved + b.AlluviumStored, Alluvium: b.AlluviumStored}
}

// blockSums are the partial sums of one fixed block of cells.
type blockSums struct {
	dRock, dAlluv, out, cout, diss, up float64
	sumDh, maxDh, maxDh2               float64
	bad                                int // first non-finite cell + 1, or 0
}

const cellBlock = 1 << 14 // cells per block of the fixed-order sums

// Step runs one iteration: uplift, routing, then the laws from upstream
// to downstream (see the package doc).
func (e *Engine) Step() engine.StepStats {
	if e.err != nil {
		return e.stats
	}
	start := time.Now()
	var st engine.StepStats
	e.prev2, e.prev1 = e.prev1, e.prev2
	copy(e.prev1, e.hgt)
	copy(e.prevRock, e.rock)
	copy(e.prevAlluv, e.alluv)
	e.uplift()

	t := time.Now()
	e.g.Route(e.hgt)
	st.Phase[engine.PhaseRouting] = time.Since(t)
	t = time.Now()
	e.g.Order()
	e.g.Assemble()
	e.routed = true
	st.Phase[engine.PhaseStack] = time.Since(t)

	t = time.Now()
	e.prepare()
	if e.badRock != nil {
		e.err = e.badRock
		e.badRock = nil
		// Undo the uplift: the step did not happen.
		copy(e.rock, e.prevRock)
		copy(e.hgt, e.prev1)
		e.prev1, e.prev2 = e.prev2, e.prev1
		return e.stats
	}
	clamped, pits := e.sweep()
	st.Phase[engine.PhaseErosion] = time.Since(t)

	t = time.Now()
	b := e.measure(&st)
	st.Phase[engine.PhaseLayout] = time.Since(t)

	e.step++
	e.time += e.p.Dt
	st.Step, st.Time, st.Dt = e.step, e.time, e.p.Dt
	st.Clamped = clamped
	st.Lakes = pits
	st.Mass = b.Mass()
	st.Total = time.Since(start)
	e.last = b
	e.total = e.total.Add(b)
	e.stats = st
	return st
}

// uplift raises the rock by u·Dt (not the fixed outlets) and refreshes
// the heights.
func (e *Engine) uplift() {
	dt := e.p.Dt
	parallel.Blocks(len(e.rock), cellBlock, func(_, lo, hi int) {
		for i := lo; i < hi; i++ {
			if e.up != nil && !e.g.IsFixed(i) {
				e.rock[i] += float64(e.up[i]) * dt
			}
			e.hgt[i] = float32(e.rock[i] + e.alluv[i])
		}
	})
}

// prepare looks up the exposed rock of every cell (alluvium where there
// is some) and its slope to its receiver, on the heights of the routing.
func (e *Engine) prepare() {
	rec, dist := e.g.Rec, e.g.Dist
	nb := parallel.NumBlocks(e.h, 16)
	bad := make([]error, nb)
	parallel.Blocks(e.h, 16, func(b, y0, y1 int) {
		for y := y0; y < y1; y++ {
			for x := 0; x < e.w; x++ {
				i := y*e.w + x
				e.out[i], e.cout[i], e.diss[i] = 0, 0, 0
				var r geology.Rock
				if e.alluv[i] > 0 {
					r = geology.Alluvium
				} else {
					r = e.lith.RockAt((float64(x)+0.5)*e.cell, (float64(y)+0.5)*e.cell, e.rock[i])
					if !(r.Kd >= 0 && r.Kd <= 1 && r.Kf >= 0 && r.Kf <= 1 && r.Ke >= 0 && r.Ke <= 1) && bad[b] == nil {
						bad[b] = fmt.Errorf("roudier: the lithology gives cell (%d, %d) at %g m a bad rock: %w", x, y, e.rock[i], CheckRock(r))
					}
				}
				e.kd[i], e.kf[i], e.ke[i] = float32(r.Kd), float32(r.Kf), float32(r.Ke)
				tn := 0.0
				if j := rec[i]; int(j) != i && dist[i] > 0 {
					tn = max(0, (e.rock[i]+e.alluv[i]-e.rock[j]-e.alluv[j])/float64(dist[i]))
				}
				e.tan[i] = float32(tn)
			}
		}
	})
	for _, err := range bad {
		if err != nil {
			e.badRock = err
			return
		}
	}
}

// sweep applies the laws tree by tree, every cell after all its donors
// (reverse drainage order). Trees are independent, so chunks of whole
// trees run concurrently; each writes only its own cells. It returns the
// cells whose lowering was clamped and the pits that received detritus.
func (e *Engine) sweep() (clamped, pits int) {
	g := e.g
	ch := g.Chunks(parallel.Workers())
	nc := len(ch) - 1
	if len(e.chunkN) < nc {
		e.chunkN = make([][2]int64, nc)
	}
	p := e.rp
	river := p.RiverCells * p.Rain
	a := e.area
	parallel.Do(nc, func(c int) {
		lo, hi := int(ch[c]), int(ch[c+1])
		sQ, sS, sMin := e.sQ, e.sS, e.sMin
		for k := lo; k < hi; k++ {
			sQ[k], sS[k], sMin[k] = 0, 0, math.Inf(1)
		}
		st, rp := g.Stack, g.RecPos
		rec := g.Rec
		rock, alluv := e.rock, e.alluv
		var nClamp, nPit int64
		for k := hi - 1; k >= lo; k-- {
			i := int(st[k])
			r := int(rec[i])
			qUp, load := sQ[k], sS[k]
			if r == i {
				switch {
				case g.IsFixed(i) || g.Dist[i] > 0:
					// An outlet (fixed, or a natural edge draining off
					// the map): the detritus leaves.
					e.out[i] += load
				case load > 0:
					// A pit: no erosion, all the detritus settles
					// (Roudier et al. 1993: low points get "only
					// alluvial deposition").
					alluv[i] += load / a
					nPit++
				}
				e.runoff[i] = float32(qUp)
				continue
			}
			hi0 := rock[i] + alluv[i]
			tn := float64(e.tan[i])
			kd, kf, ke := float64(e.kd[i]), float64(e.kf[i]), float64(e.ke[i])
			kv := p.vegetation(tn, hi0, qUp, river)
			q := (1 - min(1, kf+kv)) * p.Rain
			Q := qUp + q
			// Gravity creep, at most half the drop so that the cell
			// stays above its receiver.
			fixedR := g.IsFixed(r)
			drop := max(0, hi0-rock[r]-alluv[r])
			zg := min(p.Creep*kd*tn, drop/2)
			// Running water and dissolution, at most the drop left.
			zw := p.Alpha * kd * tn * Q
			zc := p.Gamma * ke * kf * q
			room := drop - 2*zg
			if fixedR {
				room = drop - zg
			}
			if zw+zc > room {
				f := max(0, room) / (zw + zc)
				zw, zc = zw*f, zc*f
				nClamp++
			}
			if zg > 0 {
				fromAlluv := take(rock, alluv, i, zg)
				if fixedR {
					e.cout[r] += zg * a
				} else {
					alluv[r] += fromAlluv
					rock[r] += zg - fromAlluv
				}
			}
			take(rock, alluv, i, zw+zc)
			load += zw * a
			e.diss[i] = zc * a
			// Deposition of what exceeds the capacity r·Q/cos φ, no
			// higher than the lowest donor.
			capacity := p.Transport * math.Sqrt(1+tn*tn) * Q * a
			hNow := rock[i] + alluv[i]
			if load > capacity && !math.IsInf(sMin[k], 1) && sMin[k] > hNow {
				dep := min(load-capacity, (sMin[k]-hNow)*a)
				alluv[i] += dep / a
				load -= dep
				hNow = rock[i] + alluv[i]
			}
			e.runoff[i] = float32(Q)
			rk := rp[k]
			sQ[rk] += Q
			sS[rk] += load
			sMin[rk] = min(sMin[rk], hNow)
		}
		e.chunkN[c] = [2]int64{nClamp, nPit}
	})
	for c := range nc {
		clamped += int(e.chunkN[c][0])
		pits += int(e.chunkN[c][1])
	}
	return clamped, pits
}

// take lowers cell i by d metres, alluvium first, and returns how much of
// it was alluvium.
func take(rock, alluv []float64, i int, d float64) float64 {
	fa := min(alluv[i], d)
	alluv[i] -= fa
	rock[i] -= d - fa
	return fa
}

// measure refreshes the heights and fills the height statistics and the
// step's budget from fixed blocks of cells added in block order, so the
// figures do not depend on the number of workers.
func (e *Engine) measure(st *engine.StepStats) Budget {
	n := len(e.rock)
	nb := parallel.NumBlocks(n, cellBlock)
	if len(e.blocks) < nb {
		e.blocks = make([]blockSums, nb)
	}
	dt := e.p.Dt
	parallel.Blocks(n, cellBlock, func(b, lo, hi int) {
		var s blockSums
		for i := lo; i < hi; i++ {
			s.dRock += e.rock[i] - e.prevRock[i]
			s.dAlluv += e.alluv[i] - e.prevAlluv[i]
			s.out += e.out[i]
			s.cout += e.cout[i]
			s.diss += e.diss[i]
			if e.up != nil && !e.g.IsFixed(i) {
				s.up += float64(e.up[i]) * dt
			}
			h := e.rock[i] + e.alluv[i]
			if math.IsNaN(h) || math.IsInf(h, 0) || math.Abs(h) > math.MaxFloat32 {
				if s.bad == 0 {
					s.bad = i + 1
				}
				continue
			}
			e.hgt[i] = float32(h)
			d := math.Abs(float64(e.hgt[i]) - float64(e.prev1[i]))
			s.sumDh += d
			s.maxDh = max(s.maxDh, d)
			s.maxDh2 = max(s.maxDh2, math.Abs(float64(e.hgt[i])-float64(e.prev2[i])))
		}
		e.blocks[b] = s
	})
	var t blockSums
	for _, s := range e.blocks[:nb] {
		t.dRock += s.dRock
		t.dAlluv += s.dAlluv
		t.out += s.out
		t.cout += s.cout
		t.diss += s.diss
		t.up += s.up
		t.sumDh += s.sumDh
		t.maxDh = max(t.maxDh, s.maxDh)
		t.maxDh2 = max(t.maxDh2, s.maxDh2)
		if t.bad == 0 {
			t.bad = s.bad
		}
	}
	if t.bad != 0 {
		i := t.bad - 1
		e.err = fmt.Errorf("roudier: step %d: height %g at cell (%d, %d) is not finite: lower the coefficients", e.step+1, e.rock[i]+e.alluv[i], i%e.w, i/e.w)
	}
	st.MaxDh, st.MaxDh2, st.MeanDh = t.maxDh, t.maxDh2, t.sumDh/float64(n)
	if e.step == 0 {
		st.MaxDh2 = math.NaN()
	}
	a := e.area
	return Budget{
		Uplift:         t.up * a,
		RockRemoved:    (t.up - t.dRock) * a,
		Detritus:       t.out,
		CreepOut:       t.cout,
		Dissolved:      t.diss,
		AlluviumStored: t.dAlluv * a,
	}
}
