package splgpu

import (
	"fmt"
	"unsafe"

	"orogen/gpu"
)

// The basin labels (the root of every cell's basin on the routing's
// receivers, before the lakes' carve) have a buffer of their own (lab)
// only below LabelCells cells. From there they live in bb[1], which no
// kernel uses from the step's start to the area phase (the creep's
// scratch is pb and ab, the lakes' pb, ab and Cnt). The routing and the
// label phase make them there for the lakes phase; the deposition,
// which reads them again before and after its contraction (when bb[1]
// holds the erosion's and the contraction's maps), and a snapshot's
// lakes make them again from the codes (relabel): the carved paths are
// marked (bit 4) and their pass cells too (EXIT), so each cell's
// receiver before the carve can be read off the codes.
func init() { kernelNames = append(kernelNames, "labelold") }

// LabelCells is the grid from which the basin labels share bb[1] (4
// bytes a cell less) and are made again where the maps took it, as the
// contraction runs in the erosion's buffers from ListCells: there the
// card's memory limits the grid. Each time costs about a label phase:
// on an H200 about 1 ms at 4096² and 3.9 ms at 8192² (docs/GPU.md),
// which the smaller grids' steps, a few ms, keep. A variable for the
// tests and benchmarks, read by New and BytesFor.
var LabelCells = 1 << 22

// labelBytes is what the basin labels take a cell on a grid of n cells:
// 4 below LabelCells, else 0 (they share bb[1]).
func labelBytes(n int) int64 {
	if n < LabelCells {
		return 4
	}
	return 0
}

// labelsSeen, when set (by tests), is called in Step after the lakes
// phase, when labels() holds the label phase's labels.
var labelsSeen func(c gpu.Context, e *Engine) error

// labels is the basin labels' buffer.
func (e *Engine) labels() gpu.Buffer {
	if e.ownLab {
		return e.lab
	}
	return e.bb[1]
}

// relabel makes the basin labels again in labels() from the codes
// (labelold.glsl, then the label phase's rounds until no pointer moves),
// where they share bb[1]. Par, Ctl and Db are bound by it.
func (e *Engine) relabel(c gpu.Context) error {
	if e.ownLab {
		return nil // never taken
	}
	e.bindCommon(c)
	e.cells(c, "labelold", e.n)
	guess := max(1, e.Rounds[0])
	for done := 0; done < maxRounds; done += guess {
		for k := range guess {
			if k == guess-1 {
				if err := e.setCtl(c, 0, 0); err != nil {
					return err
				}
			}
			e.cells(c, "label", e.n)
		}
		a, err := e.getCtl(c, 0)
		if err != nil {
			return err
		}
		if a == 0 {
			return nil
		}
		guess = 1
	}
	return fmt.Errorf("splgpu: basin labels did not converge in %d rounds", maxRounds)
}

// readLabels returns the last routing's basin labels, made again on the
// device (relabel); after a Release the buffer is grown for it and given
// back after.
func (e *Engine) readLabels() []uint32 {
	out := make([]uint32, e.n)
	if e.err != nil {
		return out
	}
	err := e.dev.Do(func(c gpu.Context) error {
		if e.ownLab {
			return c.Read(e.lab, 0, unsafe.Slice((*byte)(unsafe.Pointer(&out[0])), 4*e.n))
		}
		released := e.bb[1].Size() < 4*e.n
		if err := e.grow(c, &e.bb[1], 4*e.n); err != nil {
			return err
		}
		if err := e.relabel(c); err != nil {
			return err
		}
		if err := c.Read(e.bb[1], 0, unsafe.Slice((*byte)(unsafe.Pointer(&out[0])), 4*e.n)); err != nil {
			return err
		}
		if released {
			return e.replace(c, &e.bb[1], 4)
		}
		return nil
	})
	if err != nil {
		e.err = err
	}
	return out
}
