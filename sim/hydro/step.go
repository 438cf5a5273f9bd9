package hydro

import (
	"math"
	"time"

	"orogen/sim/parallel"
)

// dEps is the mean depth, metres, below which a cell has no velocity: a
// film of water a micrometre thick carries nothing.
const dEps = 1e-6

// Step advances the simulation by Params().Dt seconds and returns its
// statistics.
func (e *Engine) Step() StepStats {
	start := time.Now()
	e.prepare()
	if e.rs.geo != nil {
		e.rockHardness()
	}
	workers := parallel.Workers()
	var st StepStats

	t := time.Now()
	e.team.run(workers, e.nb, e.fnFlux)
	st.Phase[PhaseFlux] = time.Since(t)

	t = time.Now()
	e.team.run(workers, e.nb, e.fnErode)
	st.Phase[PhaseErosion] = time.Since(t)

	t = time.Now()
	e.team.run(workers, e.nb, e.fnMove)
	var outflow, evap, dissolved, s1, stored, snew float64
	var maxDepth, maxSpeed, maxDh float32
	for k := range e.part {
		p := &e.part[k]
		outflow += p.outflow
		evap += p.evap
		dissolved += p.dissolved
		s1 += p.s1
		stored += p.stored
		snew += p.snew
		maxDepth = max(maxDepth, p.maxDepth)
		maxSpeed = max(maxSpeed, p.maxSpeed)
		maxDh = max(maxDh, p.maxDh)
		st.Scaled += p.scaled
	}
	st.SedimentFix = 1
	if e.c.open {
		// s1 and snew are sums of heights, metres: the volume is their
		// difference times the cell area.
		e.budget.SedimentOut += (s1 - snew) * e.cell * e.cell
	} else if snew > 0 && s1 != snew {
		// Semi-Lagrangian transport does not conserve mass; scale the
		// sediment back to the total it had before moving.
		st.SedimentFix = s1 / snew
		e.fix = float32(st.SedimentFix)
		e.team.run(workers, e.nb, e.fnFix)
	}
	st.Phase[PhaseTransport] = time.Since(t)

	e.cur = 1 - e.cur
	if e.rs.geo != nil {
		e.deposit()
	}
	e.step++
	e.time += e.p.Dt
	area := e.cell * e.cell
	e.budget.RainIn += e.p.Dt * e.inVol
	e.budget.Outflow += outflow * area
	e.budget.Evaporated += evap * area
	e.budget.Dissolved += dissolved * area
	e.budget.Stored = stored * area

	st.Step, st.Time = e.step, e.time
	st.MaxDh, st.MaxDepth, st.MaxSpeed = float64(maxDh), float64(maxDepth), float64(maxSpeed)
	st.Budget = e.budget
	st.Total = time.Since(start)
	e.stats = st
	return st
}

// prepare computes the per-step constants.
func (e *Engine) prepare() {
	p := e.p
	cell := e.cell
	tan := math.Tan(p.TalusDeg * math.Pi / 180)
	e.c = consts{
		dt:          float32(p.Dt),
		kf:          float32(p.Dt * p.A * p.G / p.L),
		vol:         float32(cell * cell / p.Dt),
		invArea:     float32(1 / (cell * cell)),
		invCell:     float32(1 / cell),
		halfInvCell: float32(0.5 / cell),
		kc:          float32(p.Kc),
		cmax:        float32(p.CMax),
		invLMax:     float32(1 / p.LMax),
		ks:          float32(p.Ks),
		kd:          float32(p.Kd),
		khks:        float32(p.Kh * p.Ks),
		rmin:        float32(p.RMin),
		evapKeep:    float32(max(0, 1-p.Ke*p.Dt)),
		dtCell:      float32(p.Dt / cell),
		dtKt2:       float32(min(p.Dt*p.Kt, maxKtDt) / 2),
		tanO:        float32(tan * cell),
		tanD:        float32(tan * cell * math.Sqrt2),
		open:        p.Boundary == Open,
		wrap:        p.Boundary == Wrap,
		thermal:     p.Kt > 0,
		area:        cell * cell,
	}
}

func (e *Engine) blockRows(blk int) (y0, y1 int) {
	return blk * e.rows, min(e.h, (blk+1)*e.rows)
}

// rowOf returns the first index of row r, or -1 for no row.
func (e *Engine) rowOf(r int32) int {
	if r < 0 {
		return -1
	}
	return int(r) * e.w
}

// fluxBlock is PhaseFlux on one row block: d1 = d + Δt·r·K_r (eq. 1), the
// new outflow fluxes (eqs. 2-4) and the thermal outflow q (eqs. 14-15).
// It reads b, d and in of the block's rows and their neighbours, and
// writes d1, the fluxes and q of its own cells.
//
// The water surface b + d1 of each row is computed once into a rolling
// window of three rows (the block's part of Engine.surf), so that every
// pipe reads two surfaces instead of recomputing d1 for both ends.
// Interior cells take a loop without edge cases; edge cells go through
// fluxEdge, which has the boundary rules.
func (e *Engine) fluxBlock(blk int) {
	y0, y1 := e.blockRows(blk)
	w := e.w
	c := &e.c
	vol := c.vol
	sw := e.srow
	win := e.surf[blk*3*sw : (blk+1)*3*sw]
	hT, hC, hB := win[:w:w], win[sw:sw+w:sw+w], win[2*sw:2*sw+w:2*sw+w]
	e.surface(y0, hC, true)
	if rt := e.yt[y0]; rt >= 0 {
		e.surface(int(rt), hT, false)
	}
	var out float64
	scaled := 0
	for y := y0; y < y1; y++ {
		row := y * w
		rb := e.yb[y]
		if rb >= 0 {
			e.surface(int(rb), hB, int(rb) > y && int(rb) < y1)
		}
		edgeT, edgeB := e.yt[y] < 0, rb < 0
		d1r := e.d1[row : row+w : row+w]
		fL, fR, fT, fB := e.fL[row:row+w:row+w], e.fR[row:row+w:row+w], e.fT[row:row+w:row+w], e.fB[row:row+w:row+w]
		if edgeT || edgeB {
			for x := range w {
				o, k := e.fluxEdge(y, x, hT, hC, hB, edgeT, edgeB)
				out += o
				scaled += k
			}
		} else {
			for _, x := range [2]int{0, w - 1} {
				o, k := e.fluxEdge(y, x, hT, hC, hB, false, false)
				out += o
				scaled += k
			}
			hT, hB := hT[:w], hB[:w]
			for x := 1; x < w-1; x++ {
				hi := hC[x]
				fl := max(0, fL[x]+(hi-hC[x-1]))
				fr := max(0, fR[x]+(hi-hC[x+1]))
				ft := max(0, fT[x]+(hi-hT[x]))
				fb := max(0, fB[x]+(hi-hB[x]))
				// K = min(1, d1·lx·ly / (Σf·Δt)), eq. 3 (the paper's max
				// is a misprint: the flux may only shrink). Without
				// branches: the least positive float32 is added to the
				// sum, which changes nothing where it is a normal float
				// and keeps the quotient a number where every flux is 0
				// (then k is +Inf or 0, min(k, 1) is finite, and the
				// fluxes stay 0).
				sum := fl + fr + ft + fb
				k := d1r[x] * vol / (sum + math.SmallestNonzeroFloat32)
				// Two b2i and an and: k < 1 && sum > 0 compiles to a
				// branch on k, which goes either way.
				scaled += b2i(k < 1) & b2i(sum > 0)
				k = min(k, 1)
				fL[x], fR[x], fT[x], fB[x] = fl*k, fr*k, ft*k, fb*k
			}
		}
		if c.thermal {
			e.thermalRow(y)
		}
		hT, hC, hB = hC, hB, hT
	}
	p := &e.part[blk]
	p.outflow = out * float64(c.dt) / c.area
	p.scaled = scaled
}

// surface writes the water surface b + d1 of row y, multiplied by
// Δt·A·g/l, into h, and d1 into the d1 field too if own (the row is the
// block's own). Eq. 2 is rearranged: Δt·A·g·Δh/l is the difference of
// two such scaled surfaces, so the pipes need no multiplication.
func (e *Engine) surface(y int, h []float32, own bool) {
	w, dt, kf := e.w, e.c.dt, e.c.kf
	row := y * w
	b, d, in := e.b[e.cur][row:row+w:row+w], e.d[row:row+w:row+w], e.in[row:row+w:row+w]
	h = h[:w]
	if own {
		d1 := e.d1[row : row+w : row+w]
		for x := range d1 {
			di := d[x] + dt*in[x]
			d1[x] = di
			h[x] = kf * (b[x] + di)
		}
		return
	}
	for x := range h {
		h[x] = kf * (b[x] + (d[x] + dt*in[x]))
	}
}

// fluxEdge is fluxBlock on cell (x, y) with the boundary rules: hT, hC
// and hB are the surfaces of the rows above, at and below y, edgeT and
// edgeB say that there is no row above or below. It returns the outflow
// through open edges, m³/s, and 1 if the flux was scaled.
func (e *Engine) fluxEdge(y, x int, hT, hC, hB []float32, edgeT, edgeB bool) (out float64, scaled int) {
	w, row := e.w, y*e.w
	c := &e.c
	kf, vol, open, wrap := c.kf, c.vol, c.open, c.wrap
	// The surfaces are scaled by kf (see surface), and so must be the
	// drop d1 to the dry ground beyond an open edge.
	di, hi := e.d1[row+x], hC[x]
	var dl, dr, dtp, db float32
	switch {
	case x > 0:
		dl = hi - hC[x-1]
	case wrap:
		dl = hi - hC[w-1]
	case open:
		dl = kf * di
	}
	switch {
	case x < w-1:
		dr = hi - hC[x+1]
	case wrap:
		dr = hi - hC[0]
	case open:
		dr = kf * di
	}
	switch {
	case !edgeT:
		dtp = hi - hT[x]
	case open:
		dtp = kf * di
	}
	switch {
	case !edgeB:
		db = hi - hB[x]
	case open:
		db = kf * di
	}
	i := row + x
	fl := max(0, e.fL[i]+dl)
	fr := max(0, e.fR[i]+dr)
	ft := max(0, e.fT[i]+dtp)
	fb := max(0, e.fB[i]+db)
	if sum := fl + fr + ft + fb; sum > 0 {
		if k := di * vol / sum; k < 1 {
			fl, fr, ft, fb = fl*k, fr*k, ft*k, fb*k
			scaled = 1
		}
	}
	e.fL[i], e.fR[i], e.fT[i], e.fB[i] = fl, fr, ft, fb
	if open {
		if x == 0 {
			out += float64(fl)
		}
		if x == w-1 {
			out += float64(fr)
		}
		if edgeT {
			out += float64(ft)
		}
		if edgeB {
			out += float64(fb)
		}
	}
	return out, scaled
}

// b2i returns 1 for true and 0 for false (compiled without a branch).
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// pos returns max(v, 0) (v is never NaN here). A compare and branch:
// the builtin max, which handles NaN and signed zeros, is several times
// dearer where the branch is well predicted.
func pos(v float32) float32 {
	if v > 0 {
		return v
	}
	return 0
}

// excess returns the drop from a to b beyond td, or 0.
// addExact returns b + d rounded to float32 and what the rounding left
// out: the thermal pipes move amounts far below ulp(b)/2 on high terrain,
// and a cell that cannot take them carries them in trem to its next
// thermal step instead of losing or making rock.
func addExact(b float32, d float64) (sum, rem float32) {
	t := float64(b) + d
	sum = float32(t)
	return sum, float32(t - float64(sum))
}

// pipe is the soil, in metres, that cell o (height bo, thermal factor
// qo) gains through its pipe to neighbour n in a step: q_n·excess when n
// stands higher than the talus drop td, −q_o·excess when o does (eq. 15).
// Both cells of a pipe form the same float32 product.
func pipe(qn, bn, qo, bo, td float32) float64 {
	if ex := bn - bo - td; ex > 0 {
		return float64(qn * ex)
	}
	if ex := bo - bn - td; ex > 0 {
		return -float64(qo * ex)
	}
	return 0
}

// neighbourRows returns the rows above and below y for the thermal pipes,
// the row itself standing in where there is none (its flags say so).
func (e *Engine) neighbourRows(y int) (rt, rb int, hasT, hasB bool) {
	row := y * e.w
	rt, rb = e.rowOf(e.yt[y]), e.rowOf(e.yb[y])
	hasT, hasB = rt >= 0, rb >= 0
	if !hasT {
		rt = row
	}
	if !hasB {
		rb = row
	}
	return
}

// thermalRow computes q for row y: the cell's thermal outflow ΔS =
// Δt·K_t·R·H/2 (eq. 14), H its largest excess drop over the talus drop,
// divided by the sum of its excess drops, so that the pipe to neighbour i
// carries q·excess_i (eq. 15): moveBlock takes q·excess_i from the cell
// for each lower neighbour i and adds q_j·excess_j from each higher
// neighbour j (pipe), so each pipe's soil leaves one cell and reaches the
// other to the bit.
func (e *Engine) thermalRow(y int) {
	w := e.w
	row := y * w
	rt, rb, hasT, hasB := e.neighbourRows(y)
	b := e.b[e.cur]
	bC, bT, bB := b[row:row+w:row+w], b[rt:rt+w:rt+w], b[rb:rb+w:rb+w]
	q, hard := e.q[row:row+w:row+w], e.hard[row:row+w:row+w]
	c := &e.c
	tanO, tanD, k := c.tanO, c.tanD, c.dtKt2
	// active says whether any cell of the row has an outflow.
	var active bool
	if hasT && hasB {
		for _, x := range [2]int{0, w - 1} {
			q[x] = e.thermalEdge(bC, bT, bB, hard[x], x, true, true)
			active = active || q[x] > 0
		}
		for x := 1; x < w-1; x++ {
			bi := bC[x]
			// Most cells are not steeper than the talus angle, so the
			// branches in add are well predicted (and cheaper than max).
			var sum, hmax float32
			add := func(ex float32) {
				if ex > 0 {
					sum += ex
					if ex > hmax {
						hmax = ex
					}
				}
			}
			add(bi - bT[x] - tanO)
			add(bi - bB[x] - tanO)
			add(bi - bC[x-1] - tanO)
			add(bi - bT[x-1] - tanD)
			add(bi - bB[x-1] - tanD)
			add(bi - bC[x+1] - tanO)
			add(bi - bT[x+1] - tanD)
			add(bi - bB[x+1] - tanD)
			var qi float32
			if sum > 0 {
				qi = k * hard[x] * hmax / sum
				active = active || qi > 0
			}
			q[x] = qi
		}
		e.tact[y] = active
		return
	}
	for x := range w {
		q[x] = e.thermalEdge(bC, bT, bB, hard[x], x, hasT, hasB)
		active = active || q[x] > 0
	}
	e.tact[y] = active
}

// thermalEdge is thermalRow on one cell at x with the boundary rules:
// neighbours exist per hasT, hasB and the boundary. It returns q.
func (e *Engine) thermalEdge(bC, bT, bB []float32, hard float32, x int, hasT, hasB bool) float32 {
	w := e.w
	c := &e.c
	tanO, tanD := c.tanO, c.tanD
	bi := bC[x]
	var sum, hmax float32
	add := func(ex float32) {
		if ex > 0 {
			sum += ex
			hmax = max(hmax, ex)
		}
	}
	xl, xr := x-1, x+1
	hasL, hasR := x > 0, x < w-1
	if c.wrap {
		hasL, hasR = true, true
		if xl < 0 {
			xl = w - 1
		}
		if xr == w {
			xr = 0
		}
	}
	if hasT {
		add(bi - bT[x] - tanO)
	}
	if hasB {
		add(bi - bB[x] - tanO)
	}
	if hasL {
		add(bi - bC[xl] - tanO)
		if hasT {
			add(bi - bT[xl] - tanD)
		}
		if hasB {
			add(bi - bB[xl] - tanD)
		}
	}
	if hasR {
		add(bi - bC[xr] - tanO)
		if hasT {
			add(bi - bT[xr] - tanD)
		}
		if hasB {
			add(bi - bB[xr] - tanD)
		}
	}
	if sum > 0 {
		return c.dtKt2 * hard * hmax / sum
	}
	return 0
}

// erodeBlock is PhaseErosion on one row block. It reads the fluxes of the
// block's cells and their neighbours, the terrain of the neighbours (for
// the slope) and d1, s and R of its own cells; it writes the new terrain
// into the other buffer, d (final depth), s1, v and R of its own cells.
//
// Interior cells of interior rows take a loop without edge cases, in
// which the data-dependent choices (downhill or not, capacity capped or
// not, dissolving or depositing) are made without branches: on a
// rough terrain they go either way from cell to cell and a mispredicted
// branch costs more than computing both sides. Edge cells go through
// erodeSpan, the same computation with the boundary rules.
func (e *Engine) erodeBlock(blk int) {
	y0, y1 := e.blockRows(blk)
	w := e.w
	c := &e.c
	dt, invArea, invCell, halfInvCell := c.dt, c.invArea, c.invCell, c.halfInvCell
	kc, invLMax, khks, rmin, keep := c.kc, c.invLMax, c.khks, c.rmin, c.evapKeep
	cmax := c.cmax
	dtkd, dtks, dtkhks := dt*c.kd, dt*c.ks, dt*khks
	dtkdc := min(dtkd, 1) // the deposition rate, capped at 1
	dtInvArea := dt * invArea
	var a erodeSums
	for y := y0; y < y1; y++ {
		r := e.erodeRowOf(y)
		if r.edgeRow || w < 3 {
			e.erodeSpan(&r, &a, 0, w)
			continue
		}
		e.erodeSpan(&r, &a, 0, 1)
		e.erodeSpan(&r, &a, w-1, w)
		fL, fR, fT, fB := r.fL, r.fR[:w], r.fT[:w], r.fB[:w]
		inTs, inBs, bC, bT, bB := r.inT[:w], r.inB[:w], r.bC[:w], r.bT[:w], r.bB[:w]
		bnr, d1r, dr, sr, s1r, hr := r.bn[:w], r.d1[:w], r.d[:w], r.s[:w], r.s1[:w], r.hard[:w]
		vxr, vyr, gys := r.vx[:w], r.vy[:w], r.gys
		// The row goes through three loops, each short enough for the
		// processor to overlap several cells: every cell's work is one
		// long chain of divisions and square roots (depth, velocity,
		// slope, capacity, exchange), which in a single loop leaves
		// most of the time waiting on latency. d2, |v|² and C pass
		// through rows of scratch.
		//
		// Rearranged (float rounding differs from the plain formulas of
		// erodeSpan): v = ΔW · (1/(2·l_y·d̄)), one division; |v| is not
		// taken per cell (the speed enters C only as |v|·sin α, and the
		// largest speed is the root of the largest |v|²); sin α·|v| =
		// p·sqrt(|v|²/(|v|²+p²)) with p = −∇b·v, since sin α = tan/
		// sqrt(1+tan²) and tan α = p/|v|: one division and one root for
		// the three divisions and two roots of the plain form. (Where
		// p² overflows, p > 1.8e19, C is 0, as where the plain form's
		// tan² overflows.)
		sw := e.srow
		scr := e.escr[blk*3*sw : (blk+1)*3*sw]
		d2s, sps, caps := scr[:w:w], scr[sw:sw+w:sw+w], scr[2*sw:2*sw+w:2*sw+w]
		for x := 1; x < w-1; x++ {
			fl, fr, ft, fb := fL[x], fR[x], fT[x], fB[x]
			inL, inR, inT, inB := fR[x-1], fL[x+1], inTs[x], inBs[x]
			// Eqs. 5-6, with Δt/(lx·ly) folded into one factor.
			da := d1r[x]
			d2 := pos(da + ((inL+inR+inT+inB)-(fl+fr+ft+fb))*dtInvArea)
			// Eq. 7: u = ΔW_x / (l_y · d̄), d̄ the mean of d1 and d2.
			var vx, vy, ss float32
			if dbar := da + d2; dbar > 2*dEps {
				inv := invCell / dbar // 1/(2·l·d̄) with dbar = 2·d̄
				vx = (inL - fl + fr - inR) * inv
				vy = (inT - ft + fb - inB) * inv
				ss = vx*vx + vy*vy
			}
			vxr[x], vyr[x] = vx, vy
			d2s[x], sps[x] = d2, ss
		}
		for x := 1; x < w-1; x++ {
			// Eq. 8, as in erodeSpan: p <= 0 (uphill) gives C = 0, as
			// does lim <= 0 (deep water).
			var capa float32
			if ss := sps[x]; ss > 0 {
				vx, vy := vxr[x], vyr[x]
				gx := (bC[x+1] - bC[x-1]) * halfInvCell
				gy := (bB[x] - bT[x]) * gys
				p := max(-(gx*vx + gy*vy), 0) // no branch: goes either way
				lim := pos(1 - d1r[x]*invLMax)
				sinSpeed := p * float32(math.Sqrt(float64(ss/(ss+p*p))))
				capa = min(kc*lim*sinSpeed, cmax*d2s[x])
			}
			caps[x] = capa
		}
		evap, dissolved, sum1, stored := a.evap, a.dissolved, a.s1, a.stored
		maxDepth := a.maxDepth
		var maxSS float32
		for x := 1; x < w-1; x++ {
			d2, capa := d2s[x], caps[x]
			// Eqs. 9-11: ex > 0 dissolves at Δt·K_s·R, ex < 0 deposits
			// at Δt·K_d, the rate capped at 1.
			// Without branches on the sign of ex: exn = min(ex, 0) and
			// exp = ex − exn = max(ex, 0) (exactly), one of them 0, so
			// amt is exactly rate·ex with the rate of the side taken.
			bi, si, ri := bC[x], sr[x], hr[x]
			ex := capa - si
			exn := min(ex, 0)
			exp := ex - exn
			rs := dtks * ri
			if rs > 1 {
				rs = 1
			}
			amt := rs*exp + dtkdc*exn
			// The sediment gains what the float32 terrain actually lost
			// (b − amt rounds to b when amt < ulp(b)/2: at 100 m,
			// 4e-6 m): rock moves between terrain and water exactly,
			// never made from rounding (see Mass). bo − bi is exact
			// (Sterbenz) wherever amt is small beside b.
			bo := bi
			bi = float32(bi - amt)
			amt = bo - bi
			si += amt
			d3 := pos(d2 + amt)
			// Softening on deposition only (exn is 0 when dissolving,
			// and adding 0 leaves R as it was), never below R_min and
			// never raised: max(R', min(R, R_min)) is R where R is
			// already at or below R_min (a branch on R > R_min goes
			// either way as the deposits spread).
			hr[x] = max(ri+dtkhks*exn, min(ri, rmin))
			// Eq. 13.
			df := d3 * keep
			bnr[x], s1r[x], dr[x] = bi, si, df
			evap += float64(d3 - df)
			dissolved += float64(d3 - d2)
			sum1 += float64(si)
			stored += float64(df)
			// The maxima by compare and branch (rarely taken): the
			// builtin max would be a chain through every cell.
			if df > maxDepth {
				maxDepth = df
			}
			if ss := sps[x]; ss > maxSS {
				maxSS = ss
			}
		}
		a.maxSpeed = max(a.maxSpeed, float32(math.Sqrt(float64(maxSS))))
		a.evap, a.dissolved, a.s1, a.stored = evap, dissolved, sum1, stored
		a.maxDepth = maxDepth
	}
	p := &e.part[blk]
	p.evap, p.dissolved, p.s1, p.stored = a.evap, a.dissolved, a.s1, a.stored
	p.maxDepth, p.maxSpeed = a.maxDepth, a.maxSpeed
}

// erodeSums are a block's running sums of PhaseErosion.
type erodeSums struct {
	evap, dissolved, s1, stored float64
	maxDepth, maxSpeed          float32
}

// erodeRow holds the slices of one row that erodeBlock reads and writes.
type erodeRow struct {
	y                              int
	fL, fR, fT, fB                 []float32 // outflows of the row
	inT, inB                       []float32 // inflows from the rows above and below
	bC, bT, bB                     []float32 // terrain: the row, and the rows the slope reads
	bn, d1, d, s, s1, hard, vx, vy []float32
	gys                            float32
	edgeRow                        bool // an open edge row: no erosion
}

func (e *Engine) erodeRowOf(y int) erodeRow {
	w, row := e.w, y*e.w
	b, bn := e.b[e.cur], e.b[1-e.cur]
	r := erodeRow{y: y, inT: e.zero, inB: e.zero}
	r.fL, r.fR, r.fT, r.fB = e.fL[row:row+w], e.fR[row:row+w], e.fT[row:row+w], e.fB[row:row+w]
	// Inflows from the rows above and below: none off the map.
	if rt := e.rowOf(e.yt[y]); rt >= 0 {
		r.inT = e.fB[rt : rt+w]
	}
	if rb := e.rowOf(e.yb[y]); rb >= 0 {
		r.inB = e.fT[rb : rb+w]
	}
	gt, gb := int(e.gyt[y])*w, int(e.gyb[y])*w
	r.bC, r.bT, r.bB, r.gys = b[row:row+w], b[gt:gt+w], b[gb:gb+w], e.gys[y]
	r.bn, r.d1, r.d, r.s, r.s1, r.hard = bn[row:row+w], e.d1[row:row+w], e.d[row:row+w], e.s[row:row+w], e.s1[row:row+w], e.hard[row:row+w]
	r.vx, r.vy = e.vx[row:row+w], e.vy[row:row+w]
	r.edgeRow = e.c.open && (y == 0 || y == e.h-1)
	return r
}

// erodeSpan is erodeBlock on the cells [x0, x1) of row r with the
// boundary rules, adding to the sums a.
func (e *Engine) erodeSpan(r *erodeRow, a *erodeSums, x0, x1 int) {
	w := e.w
	c := &e.c
	dt, invArea, invCell, halfInvCell := c.dt, c.invArea, c.invCell, c.halfInvCell
	kc, invLMax, ks, kd, khks, rmin, keep := c.kc, c.invLMax, c.ks, c.kd, c.khks, c.rmin, c.evapKeep
	open, wrap, cmax := c.open, c.wrap, c.cmax
	dtkd, dtks, dtkhks := dt*kd, dt*ks, dt*khks
	fL, fR, fT, fB := r.fL, r.fR, r.fT, r.fB
	bC, bT, bB := r.bC, r.bT, r.bB
	hr := r.hard
	for x := x0; x < x1; x++ {
		fl, fr, ft, fb := fL[x], fR[x], fT[x], fB[x]
		var inL, inR float32
		switch {
		case x > 0:
			inL = fR[x-1]
		case wrap:
			inL = fR[w-1]
		}
		switch {
		case x < w-1:
			inR = fL[x+1]
		case wrap:
			inR = fL[0]
		}
		inT, inB := r.inT[x], r.inB[x]
		// Eqs. 5-6.
		dV := dt * ((inL + inR + inT + inB) - (fl + fr + ft + fb))
		da := r.d1[x]
		d2 := pos(da + dV*invArea)
		// Eq. 7: u = ΔW_x / (l_y · d̄), d̄ the mean of d1 and d2.
		var vx, vy, speed float32
		if dbar := 0.5 * (da + d2); dbar > dEps {
			inv := invCell / dbar
			vx = 0.5 * (inL - fl + fr - inR) * inv
			vy = 0.5 * (inT - ft + fb - inB) * inv
			speed = float32(math.Sqrt(float64(vx*vx + vy*vy)))
		}
		r.vx[x], r.vy[x] = vx, vy
		// Eq. 8: C = K_c · sin α · |v| · l_max(d1), α the downhill slope
		// of the terrain along the flow, capped by the water depth.
		var capa float32
		if speed > 0 {
			var gx float32
			if x > 0 && x < w-1 {
				gx = (bC[x+1] - bC[x-1]) * halfInvCell
			} else {
				gx = (bC[e.gxr[x]] - bC[e.gxl[x]]) * e.gxs[x]
			}
			gy := (bB[x] - bT[x]) * r.gys
			if sd := -(gx*vx + gy*vy) / speed; sd > 0 {
				if lim := 1 - da*invLMax; lim > 0 {
					sin := sd / float32(math.Sqrt(float64(1+sd*sd)))
					capa = kc * sin * speed * lim
					if cm := cmax * d2; capa > cm {
						capa = cm
					}
				}
			}
		}
		// Eqs. 9-11.
		bi, si := bC[x], r.s[x]
		d3 := d2
		if r.edgeRow || (open && (x == 0 || x == w-1)) {
			// Open edges are base level: sediment passes through.
		} else {
			// ex > 0 dissolves (eq. 9), ex < 0 deposits (eq. 10); the
			// rate is capped at 1 so that s never passes C.
			ex := capa - si
			rate := dtkd
			if ex > 0 {
				rate = dtks * hr[x]
			}
			if rate > 1 {
				rate = 1
			}
			amt := rate * ex
			// As in erodeBlock: the sediment gains what the terrain lost.
			bo := bi
			bi = float32(bi - amt)
			amt = bo - bi
			si += amt
			d3 = pos(d3 + amt)
			if h := hr[x]; h > rmin && ex < 0 {
				h += dtkhks * ex
				if h < rmin {
					h = rmin
				}
				hr[x] = h
			}
		}
		// Eq. 13.
		df := d3 * keep
		r.bn[x], r.s1[x], r.d[x] = bi, si, df
		a.evap += float64(d3 - df)
		a.dissolved += float64(d3 - d2)
		a.s1 += float64(si)
		a.stored += float64(df)
		a.maxDepth = max(a.maxDepth, df)
		a.maxSpeed = max(a.maxSpeed, speed)
	}
}

// moveBlock is PhaseTransport on one row block: s = s1 traced back along
// v (eq. 12), and the thermal pipes applied to the new terrain. It reads
// s1 anywhere, b (old) and q of the block's cells and their neighbours,
// and writes s and the new terrain of its own cells.
func (e *Engine) moveBlock(blk int) {
	y0, y1 := e.blockRows(blk)
	w := e.w
	b, bn, q, s1 := e.b[e.cur], e.b[1-e.cur], e.q, e.s1
	c := &e.c
	dtCell, thermal, wrap := c.dtCell, c.thermal, c.wrap
	tanO, tanD := c.tanO, c.tanD
	var snew float64
	var maxDh float32
	fw, fh := float32(w-1), float32(e.h-1)
	for y := y0; y < y1; y++ {
		row := y * w
		rt, rb, hasT, hasB := e.neighbourRows(y)
		bC, bT, bB := b[row:row+w], b[rt:rt+w], b[rb:rb+w]
		qC, qT, qB := q[row:row+w], q[rt:rt+w], q[rb:rb+w]
		bnr, sr, vxr, vyr := bn[row:row+w], e.s[row:row+w], e.vx[row:row+w], e.vy[row:row+w]
		fy := float32(y)
		// Two loops, the sampling and then the thermal pipes: each is
		// short enough for the processor to overlap several cells.
		for x := 0; x < w; x++ {
			px := float32(x) - vxr[x]*dtCell
			py := fy - vyr[x]*dtCell
			var v float32
			if px >= 0 && py >= 0 && px < fw && py < fh {
				x0, y0 := int(px), int(py)
				tx, ty := px-float32(x0), py-float32(y0)
				j := y0*w + x0
				s00, s01, s10, s11 := s1[j], s1[j+1], s1[j+w], s1[j+w+1]
				a := s00 + tx*(s01-s00)
				bb := s10 + tx*(s11-s10)
				v = a + ty*(bb-a)
			} else {
				v = e.sampleEdge(px, py, float32(x), fy)
			}
			sr[x] = v
			snew += float64(v)
		}
		// The largest rise and fall of the row by compare and branch
		// (rarely taken), |Δb| = max(hi, −lo) after the loop.
		var hi, lo float32
		if !thermal || !e.tact[y] && !e.tact[rt/w] && !e.tact[rb/w] {
			// The terrain moved only by erosion: no thermal pipe ends
			// in this row (none leaves it or the rows beside it).
			for x := 0; x < w; x++ {
				if dh := bnr[x] - bC[x]; dh > hi {
					hi = dh
				} else if dh < lo {
					lo = dh
				}
			}
			maxDh = max(maxDh, hi, -lo)
			continue
		}
		remr := e.trem[row : row+w : row+w]
		for x := 0; x < w; x++ {
			bo, qo := bC[x], qC[x]
			// net is the soil the cell gains through its pipes: q_j·excess_j
			// from each higher neighbour j, less q·excess_i to each lower
			// one i, every product the float32 one both cells of the pipe
			// form, summed in float64 so that what one cell loses the
			// other gains.
			var net float64
			if hasT && hasB && x > 0 && x < w-1 {
				// Interior cell. Most pipes carry nothing, so the branches
				// in pipe are well predicted.
				net = pipe(qT[x], bT[x], qo, bo, tanO) + pipe(qB[x], bB[x], qo, bo, tanO) +
					pipe(qC[x-1], bC[x-1], qo, bo, tanO) + pipe(qT[x-1], bT[x-1], qo, bo, tanD) +
					pipe(qB[x-1], bB[x-1], qo, bo, tanD) + pipe(qC[x+1], bC[x+1], qo, bo, tanO) +
					pipe(qT[x+1], bT[x+1], qo, bo, tanD) + pipe(qB[x+1], bB[x+1], qo, bo, tanD)
			} else {
				// The pipes of thermalEdge.
				xl, xr := x-1, x+1
				hasL, hasR := x > 0, x < w-1
				if wrap {
					hasL, hasR = true, true
					if xl < 0 {
						xl = w - 1
					}
					if xr == w {
						xr = 0
					}
				}
				if hasT {
					net += pipe(qT[x], bT[x], qo, bo, tanO)
				}
				if hasB {
					net += pipe(qB[x], bB[x], qo, bo, tanO)
				}
				if hasL {
					net += pipe(qC[xl], bC[xl], qo, bo, tanO)
					if hasT {
						net += pipe(qT[xl], bT[xl], qo, bo, tanD)
					}
					if hasB {
						net += pipe(qB[xl], bB[xl], qo, bo, tanD)
					}
				}
				if hasR {
					net += pipe(qC[xr], bC[xr], qo, bo, tanO)
					if hasT {
						net += pipe(qT[xr], bT[xr], qo, bo, tanD)
					}
					if hasB {
						net += pipe(qB[xr], bB[xr], qo, bo, tanD)
					}
				}
			}
			var bf float32
			bf, remr[x] = addExact(bnr[x], net+float64(remr[x]))
			bnr[x] = bf
			if dh := bf - bo; dh > hi {
				hi = dh
			} else if dh < lo {
				lo = dh
			}
		}
		maxDh = max(maxDh, hi, -lo)
	}
	p := &e.part[blk]
	p.snew, p.maxDh = snew, maxDh
}

// sampleEdge is the bilinear sample of s1 at (px, py) near or beyond the
// edges: walls clamp the point into the map, open edges read clear water
// outside it, wrap wraps it. A point that is not finite (or absurdly far)
// is replaced by the cell's own centre (x, y).
func (e *Engine) sampleEdge(px, py, x, y float32) float32 {
	const far = 1 << 20
	if !(px > -far && px < far) {
		px = x
	}
	if !(py > -far && py < far) {
		py = y
	}
	w, h := e.w, e.h
	switch e.p.Boundary {
	case Walls:
		px = min(max(px, 0), float32(w-1))
		py = min(max(py, 0), float32(h-1))
	}
	fx, fy := float32(math.Floor(float64(px))), float32(math.Floor(float64(py)))
	tx, ty := px-fx, py-fy
	x0, y0 := int(fx), int(fy)
	at := func(xx, yy int) float32 {
		switch e.p.Boundary {
		case Wrap:
			xx, yy = ((xx%w)+w)%w, ((yy%h)+h)%h
		case Walls:
			xx, yy = min(max(xx, 0), w-1), min(max(yy, 0), h-1)
		default:
			if xx < 0 || yy < 0 || xx >= w || yy >= h {
				return 0
			}
		}
		return e.s1[yy*w+xx]
	}
	a := at(x0, y0) + tx*(at(x0+1, y0)-at(x0, y0))
	b := at(x0, y0+1) + tx*(at(x0+1, y0+1)-at(x0, y0+1))
	return a + ty*(b-a)
}

// fixBlock multiplies the block's sediment by the mass correction.
func (e *Engine) fixBlock(blk int) {
	y0, y1 := e.blockRows(blk)
	f := e.fix
	s := e.s[y0*e.w : y1*e.w]
	for i := range s {
		s[i] *= f
	}
}
