package hydrogpu

import (
	"encoding/binary"
	"fmt"
	"math"

	"orogen/gpu"
)

// halo is the rows of the bands beside it that a band's buffers hold
// above and below its own when the grid is split (HALO in common.glsl):
// the kernels read one row away, the semi-Lagrangian trace at most two
// (a trace is at most a cell long, see the package doc).
const halo = 2

// field is one of the model's rasters on the device: one buffer, or, on
// a split grid, one per band holding the band's rows and halo rows of its
// neighbours above and below.
type field struct {
	bufs  []gpu.Buffer
	comps int // float32s a cell
}

// band is a run of whole rows of work groups that one dispatch of each
// kernel covers: the whole grid, or one of the bands of a split grid.
type band struct {
	r0, rows int        // its rows
	g0, gy   int        // its rows of work groups
	par      gpu.Buffer // the parameters, with the band's rows
}

// haloCopy brings one halo row of band dst up to date from the band that
// owns it (buffer rows, counting the halo above).
type haloCopy struct {
	dst, dstRow, src, srcRow int
}

// layout splits the grid into bands whose largest field (the fluxes, 16
// bytes a cell) fits the driver's largest storage buffer, maxBytes (0 for
// no limit). One band needs no halo and the kernels take the plain
// indexing; several are group-aligned, so that every work group sums the
// same cells as on an unsplit grid and the results agree bit for bit.
func (e *Engine) layout(maxBytes int64, renderer string) error {
	rowBytes := int64(16 * e.w)
	if maxBytes <= 0 || int64(e.h)*rowBytes <= maxBytes {
		e.bands = []band{{r0: 0, rows: e.h, g0: 0, gy: e.gy}}
		return nil
	}
	cells := group * rows // rows of one row of work groups
	per := (maxBytes/rowBytes - 2*halo) / int64(cells) * int64(cells)
	if per < int64(cells) {
		return fmt.Errorf("hydrogpu: a grid %d cells wide needs storage buffers of %d KiB (%d rows of fluxes); %s allows %d KiB",
			e.w, (int64(cells+2*halo)*rowBytes+1023)>>10, cells+2*halo, renderer, maxBytes>>10)
	}
	if red := int64(redHeader + e.gx*e.gy*64); red > maxBytes {
		return fmt.Errorf("hydrogpu: a %d×%d grid needs a %d KiB buffer of partial sums; %s allows %d KiB", e.w, e.h, red>>10, renderer, maxBytes>>10)
	}
	e.halo = halo
	for r0 := 0; r0 < e.h; r0 += int(per) {
		n := min(int(per), e.h-r0)
		e.bands = append(e.bands, band{r0: r0, rows: n, g0: r0 / cells, gy: (n + cells - 1) / cells})
	}
	for k, b := range e.bands {
		for j := range 2 * halo {
			at := j // buffer row
			if j >= halo {
				at = b.rows + j
			}
			g := e.gridRow(b, at)
			o := e.owner(g)
			e.copies = append(e.copies, haloCopy{dst: k, dstRow: at, src: o, srcRow: g - e.bands[o].r0 + halo})
		}
	}
	return nil
}

// gridRow returns the grid row that buffer row at of band b holds. Halo
// rows beyond the map's edges hold the rows across them, as if it
// wrapped: only a wrapping map reads them, and so a change of boundary
// (SetParams) finds them ready.
func (e *Engine) gridRow(b band, at int) int {
	return (b.r0 - e.halo + at + e.h) % e.h
}

// owner returns the band that holds grid row g as its own.
func (e *Engine) owner(g int) int {
	for k, b := range e.bands {
		if g >= b.r0 && g < b.r0+b.rows {
			return k
		}
	}
	return len(e.bands) - 1
}

// Bands returns how many bands the grid is split into (1: not split).
func (e *Engine) Bands() int { return len(e.bands) }

// newField allocates a zeroed field of comps floats a cell in every band.
func (e *Engine) newField(c gpu.Context, comps int) (*field, error) {
	fd := &field{comps: comps}
	for _, b := range e.bands {
		buf, err := c.NewBuffer((b.rows + 2*e.halo) * e.w * comps * 4)
		if err != nil {
			e.freeField(c, fd)
			return nil, err
		}
		fd.bufs = append(fd.bufs, buf)
	}
	return fd, nil
}

func (e *Engine) freeField(c gpu.Context, fd *field) {
	if fd == nil {
		return
	}
	for _, b := range fd.bufs {
		c.Free(b)
	}
	fd.bufs = nil
}

// writeField uploads v (comps floats a cell, row-major) into every band's
// buffer, its halo rows included; nil leaves the field as it is.
func (e *Engine) writeField(c gpu.Context, fd *field, v []float32) error {
	if v == nil {
		return nil
	}
	rowFloats := e.w * fd.comps
	return e.writeRows(c, fd, func(g int, out []byte) {
		for i, x := range v[g*rowFloats : (g+1)*rowFloats] {
			binary.LittleEndian.PutUint32(out[4*i:], math.Float32bits(x))
		}
	})
}

// writeRows uploads a field whose grid row g fill writes into out (the
// row's bytes) into every band's buffer, its halo rows included.
func (e *Engine) writeRows(c gpu.Context, fd *field, fill func(g int, out []byte)) error {
	rowBytes := e.w * fd.comps * 4
	for k, b := range e.bands {
		buf := make([]byte, (b.rows+2*e.halo)*rowBytes)
		for at := range b.rows + 2*e.halo {
			fill(e.gridRow(b, at), buf[at*rowBytes:(at+1)*rowBytes])
		}
		if err := c.Write(fd.bufs[k], 0, buf); err != nil {
			return err
		}
	}
	return nil
}

// readField reads a field back from the bands' own rows.
func (e *Engine) readField(c gpu.Context, fd *field, out []float32) error {
	rowFloats := e.w * fd.comps
	for k, b := range e.bands {
		buf := make([]byte, b.rows*rowFloats*4)
		if err := c.Read(fd.bufs[k], e.halo*rowFloats*4, buf); err != nil {
			return err
		}
		dst := out[b.r0*rowFloats:]
		for i := range b.rows * rowFloats {
			dst[i] = math.Float32frombits(binary.LittleEndian.Uint32(buf[4*i:]))
		}
	}
	return nil
}

// sync brings the halo rows of fd up to date after a kernel wrote the
// bands' own rows.
func (e *Engine) sync(c gpu.Context, fd *field) {
	rowBytes := e.w * fd.comps * 4
	for _, h := range e.copies {
		c.Copy(fd.bufs[h.dst], h.dstRow*rowBytes, fd.bufs[h.src], h.srcRow*rowBytes, rowBytes)
	}
}
