package brushes

import "math"

// Coefficients of Smooth's exchange: the 9-point isotropic Laplacian
// (4·Σ side neighbours + Σ diagonal neighbours − 20·centre)/6 scaled by
// smoothRate·strength. Its most negative eigenvalue is −32/6, on the
// checkerboard, so smoothRate = 3/16 makes a full-strength, full-weight
// stamp wipe out the checkerboard in one go. The weights are at most 1, so
// each new value is a convex combination of old ones as long as
// smoothRate·20/6 ≤ 1: Smooth never makes a new extreme.
const (
	smoothRate = 3.0 / 16
	smoothSide = 4.0 / 6
	smoothDiag = 1.0 / 6
)

// smoothTable fills the stroke's table of √w for a Smooth stamp centred on a
// pixel: side×side entries for offsets −R..R with R = ⌊r⌋, 0 beyond the
// radius. It is symmetric bit for bit, since √w depends on i² + j² alone.
func (s *Stroke) smoothTable() {
	rr := int(s.r)
	side := 2*rr + 1
	s.sw = make([]float64, side*side)
	// The weight depends on |i| and |j| only: fill the quadrant i, j ≥ 0
	// (each row up to the radius) and mirror it.
	q := s.sw[rr*side+rr:] // (i, j) ≥ 0 at q[j·side + i]
	for j := 0; j <= rr; j++ {
		for i := 0; i <= rr; i++ {
			d2 := float64(i*i + j*j)
			if d2 > s.r2 {
				break
			}
			q[j*side+i] = math.Sqrt(weight(s.b.Falloff, d2, s.invR2, s.invR))
		}
	}
	for j := 0; j <= rr; j++ {
		row := s.sw[(rr+j)*side : (rr+j+1)*side]
		for i := 1; i <= rr; i++ {
			row[rr-i] = row[rr+i]
		}
		copy(s.sw[(rr-j)*side:(rr-j+1)*side], row)
	}
	pad := (side + 2) * (side + 2)
	s.su = make([]float64, pad)
	s.sv = make([]float64, pad)
	s.sh = make([]float64, pad)
}

// smooth applies a Smooth stamp centred on pixel (cx, cy), whose box of
// pixels in the layer is [x0, x1] × [y0, y1] (unwrapped coordinates, split
// into runs xs). Every pair of neighbouring pixels p, q in the box
// (8-neighbourhood) exchanges
//
//	c·a·√(w_p·w_q)·(h_q − h_p),
//
// c = smoothRate·strength, a = 4/6 for side neighbours and 1/6 for diagonal
// ones, from the values before the stamp: what p gains q loses, so the sum
// over the layer stays as it was, up to rounding. With u = √w and v = u·h
// the update of p is
//
//	h_p + c·u_p·(a_side·(Σ v_q − h_p·Σ u_q) + a_diag·(Σ v_q − h_p·Σ u_q)),
//
// the sums over the side and the diagonal neighbours, each grouped in
// mirror pairs so that a symmetric layer stays symmetric bit for bit.
// Pixels outside the layer (when it is not periodic) take no part.
func (s *Stroke) smooth(cx, cy float64, x0, y0, x1, y1 int, xs []span) {
	f := s.l.Field
	w, h := f.W, f.H
	data := f.Data
	rr := int(s.r)
	side := 2*rr + 1
	ix, iy := int(cx), int(cy)
	bw, bh := x1-x0+1, y1-y0+1
	pw := bw + 2
	n := pw * (bh + 2)
	u, v, hs := s.su[:n], s.sv[:n], s.sh[:n]
	clear(u[:pw])
	clear(v[:pw])
	clear(u[n-pw:])
	clear(v[n-pw:])
	for y := y0; y <= y1; y++ {
		row := (y-y0+1)*pw + 1
		u[row-1], v[row-1] = 0, 0
		u[row+bw], v[row+bw] = 0, 0
		t := (y-iy+rr)*side + x0 - ix + rr
		ur, vr, hr := u[row:row+bw], v[row:row+bw], hs[row:row+bw]
		copy(ur, s.sw[t:t+bw])
		ly := wrapIndex(y, h)
		for _, sp := range xs {
			i := ly*w + sp.a + sp.off
			src := data[i : i+sp.b-sp.a+1]
			dst := hr[sp.a-x0 : sp.b-x0+1]
			for j, x := range src {
				dst[j] = float64(x)
			}
		}
		for j, x := range hr {
			vr[j] = ur[j] * x
		}
	}
	c := smoothRate * s.b.Strength
	ks, kd := c*smoothSide, c*smoothDiag
	for y := y0; y <= y1; y++ {
		ly := wrapIndex(y, h)
		row := (y-y0+1)*pw + 1
		for _, sp := range xs {
			out := data[ly*w+sp.a+sp.off : ly*w+sp.b+sp.off+1]
			p0 := row + sp.a - x0
			for j := range out {
				p := p0 + j
				up := u[p]
				if up == 0 {
					continue
				}
				n, sth := p-pw, p+pw
				vs := (v[p+1] + v[p-1]) + (v[n] + v[sth])
				us := (u[p+1] + u[p-1]) + (u[n] + u[sth])
				vd := (v[n+1] + v[sth-1]) + (v[n-1] + v[sth+1])
				ud := (u[n+1] + u[sth-1]) + (u[n-1] + u[sth+1])
				hp := hs[p]
				out[j] = float32(hp + up*(ks*(vs-hp*us)+kd*(vd-hp*ud)))
			}
		}
	}
}
