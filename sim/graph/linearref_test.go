package graph

import (
	"bytes"
	"encoding/binary"
	"math"
	"testing"

	"orogen/sim"
	"orogen/sim/parallel"
)

// linearRef is Linear before its fast path (every cell through the
// lowest-index owner rule): the reference the fast path must match to the
// bit.
func (m *Mesh) linearRef(dst *sim.Field, values []float32) *sim.Field {
	m.checkRaster(dst, values)
	w, h, c := dst.W, dst.H, dst.Cell
	owner := make([]int32, w*h)
	rows := max(1, rowPixels/w)
	parallel.Blocks(h, rows, func(_, y0, y1 int) {
		o := owner[y0*w : y1*w]
		for i := range o {
			o[i] = noOwner
		}
	})
	nt := len(m.Tri) / 3
	// Pass 1: each cell's owner is the lowest covering triangle (atomic
	// minimum, so the result is the same in any order).
	parallel.Blocks(nt, triBlock, func(_, lo, hi int) {
		for t := lo; t < hi; t++ {
			a, b, cc := m.Tri[3*t], m.Tri[3*t+1], m.Tri[3*t+2]
			ax, ay, bx, by, cx, cy := m.X[a], m.Y[a], m.X[b], m.Y[b], m.X[cc], m.Y[cc]
			area := (bx-ax)*(cy-ay) - (by-ay)*(cx-ax)
			if area == 0 {
				continue
			}
			if area < 0 {
				bx, by, cx, cy, area = cx, cy, bx, by, -area
			}
			eps := -1e-9 * area
			i0 := max(0, int(math.Ceil(math.Min(ax, math.Min(bx, cx))/c-0.5)))
			i1 := min(w-1, int(math.Floor(math.Max(ax, math.Max(bx, cx))/c-0.5)))
			j0 := max(0, int(math.Ceil(math.Min(ay, math.Min(by, cy))/c-0.5)))
			j1 := min(h-1, int(math.Floor(math.Max(ay, math.Max(by, cy))/c-0.5)))
			for j := j0; j <= j1; j++ {
				py := (float64(j) + 0.5) * c
				for i := i0; i <= i1; i++ {
					px := (float64(i) + 0.5) * c
					if (cx-bx)*(py-by)-(cy-by)*(px-bx) < eps ||
						(ax-cx)*(py-cy)-(ay-cy)*(px-cx) < eps ||
						(bx-ax)*(py-ay)-(by-ay)*(px-ax) < eps {
						continue
					}
					atomicMin(&owner[j*w+i], int32(t))
				}
			}
		}
	})
	// Pass 2: interpolate in the owner, by rows.
	missing := make([]bool, parallel.NumBlocks(h, rows))
	parallel.Blocks(h, rows, func(blk, y0, y1 int) {
		for j := y0; j < y1; j++ {
			py := (float64(j) + 0.5) * c
			for i := 0; i < w; i++ {
				t := owner[j*w+i]
				if t == noOwner {
					missing[blk] = true
					continue
				}
				px := (float64(i) + 0.5) * c
				dst.Data[j*w+i] = m.barycentricRef(int(t), px, py, values)
			}
		}
	})
	gap := false
	for _, b := range missing {
		gap = gap || b
	}
	if gap {
		g := m.newBuckets(m.spacing())
		parallel.Blocks(h, rows, func(_, y0, y1 int) {
			for j := y0; j < y1; j++ {
				py := (float64(j) + 0.5) * c
				for i := 0; i < w; i++ {
					if owner[j*w+i] == noOwner {
						dst.Data[j*w+i] = values[g.nearest(m, (float64(i)+0.5)*c, py)]
					}
				}
			}
		})
	}
	return dst
}
func (m *Mesh) barycentricRef(t int, px, py float64, values []float32) float32 {
	a, b, c := m.Tri[3*t], m.Tri[3*t+1], m.Tri[3*t+2]
	ax, ay, bx, by, cx, cy := m.X[a], m.Y[a], m.X[b], m.Y[b], m.X[c], m.Y[c]
	area := (bx-ax)*(cy-ay) - (by-ay)*(cx-ax)
	la := ((cx-bx)*(py-by) - (cy-by)*(px-bx)) / area
	lb := ((ax-cx)*(py-cy) - (ay-cy)*(px-cx)) / area
	lc := 1 - la - lb
	return float32(la*float64(values[a]) + lb*float64(values[b]) + lc*float64(values[c]))
}

// TestLinearMatchesReference compares Linear with linearRef byte for byte
// on meshes at several cell sizes (cells smaller and larger than the
// triangles, centres on shared edges when the grid and the samples align),
// with the triangles as given (counter-clockwise) and reversed.
func TestLinearMatchesReference(t *testing.T) {
	skipNumericsUnderRace(t)
	m := sampleMesh(t, 4000, 3000, 40, 3)
	v := make([]float32, m.N)
	for i := range v {
		v[i] = float32(math.Sin(m.X[i]/300)*math.Cos(m.Y[i]/170)*1000 + 0.1*float64(i%7))
	}
	cw := *m
	cw.Tri = append([]int32(nil), m.Tri...)
	for k := 0; k < len(cw.Tri); k += 3 {
		cw.Tri[k+1], cw.Tri[k+2] = cw.Tri[k+2], cw.Tri[k+1]
	}
	bits := func(f *sim.Field) []byte {
		var b bytes.Buffer
		binary.Write(&b, binary.LittleEndian, f.Data)
		return b.Bytes()
	}
	for _, mesh := range []*Mesh{m, &cw} {
		for _, c := range []struct{ w, h int }{{400, 300}, {97, 71}, {1000, 750}, {20, 15}} {
			cell := 4000.0 / float64(c.w)
			got := mesh.Linear(sim.NewField(c.w, c.h, cell), v)
			want := mesh.linearRef(sim.NewField(c.w, c.h, cell), v)
			if !bytes.Equal(bits(got), bits(want)) {
				for i := range got.Data {
					if got.Data[i] != want.Data[i] {
						t.Fatalf("%d×%d: cell %d: got %g; want %g (the owner rule's value)", c.w, c.h, i, got.Data[i], want.Data[i])
					}
				}
			}
		}
	}
}
