package rasterio

import (
	"fmt"
	"io"
	"strconv"

	"orogen/sim"
)

// encodeOBJ writes f as a Wavefront OBJ triangle mesh: one vertex per cell
// at (col·Cell, height, row·Cell), y up, a texture coordinate per vertex,
// and two triangles per quad wound counter-clockwise seen from +y. lo and
// hi are unused.
func encodeOBJ(w io.Writer, f *sim.Field, _, _ float32) error {
	buf := fmt.Appendf(nil, "# orogen heightmap mesh: %dx%d vertices, cell size %g m, heights in metres, y up\n"+
		"# x = column*cell (east), z = row*cell (south), %d vertices, %d triangles\n",
		f.W, f.H, f.Cell, f.W*f.H, 2*max(0, f.W-1)*max(0, f.H-1))
	flush := func(force bool) error {
		if len(buf) < 1<<16 && !force {
			return nil
		}
		_, err := w.Write(buf)
		buf = buf[:0]
		return err
	}
	num := func(v float64) {
		buf = append(buf, ' ')
		buf = strconv.AppendFloat(buf, v, 'f', -1, 32)
	}
	for y := 0; y < f.H; y++ {
		for x := 0; x < f.W; x++ {
			buf = append(buf, 'v')
			num(float64(x) * f.Cell)
			num(float64(sim.Flush(f.Data[y*f.W+x])))
			num(float64(y) * f.Cell)
			buf = append(buf, '\n')
			if err := flush(false); err != nil {
				return err
			}
		}
	}
	// u runs west to east, v from 0 on the south row to 1 on the north row,
	// so an image of the field drapes the right way up.
	for y := 0; y < f.H; y++ {
		v := 1.0
		if f.H > 1 {
			v = 1 - float64(y)/float64(f.H-1)
		}
		for x := 0; x < f.W; x++ {
			u := 0.0
			if f.W > 1 {
				u = float64(x) / float64(f.W-1)
			}
			buf = append(buf, 'v', 't')
			num(u)
			num(v)
			buf = append(buf, '\n')
			if err := flush(false); err != nil {
				return err
			}
		}
	}
	// With x east and z south, (x,z) → (x,z+1) → (x+1,z) turns
	// counter-clockwise seen from +y: the cross product of its edges is
	// (0, cell², 0).
	face := func(a, b, c int) {
		buf = append(buf, 'f')
		for _, i := range [3]int{a, b, c} {
			buf = append(buf, ' ')
			buf = strconv.AppendInt(buf, int64(i), 10)
			buf = append(buf, '/')
			buf = strconv.AppendInt(buf, int64(i), 10)
		}
		buf = append(buf, '\n')
	}
	for y := 0; y+1 < f.H; y++ {
		for x := 0; x+1 < f.W; x++ {
			nw := y*f.W + x + 1 // OBJ indices are 1-based
			ne, sw, se := nw+1, nw+f.W, nw+f.W+1
			face(nw, sw, ne)
			face(ne, sw, se)
			if err := flush(false); err != nil {
				return err
			}
		}
	}
	return flush(true)
}
