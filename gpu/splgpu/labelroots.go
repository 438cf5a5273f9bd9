package splgpu

import (
	"encoding/binary"

	"orogen/gpu"
)

// LabelRoots makes the basin labels' last read bring the pits' roots
// with it (labelpits.glsl) when the last step had few pits, so that the
// lakes phase does not read them apart: one read a step less wherever
// there are lakes (every read waits for the device). A variable for the
// benchmarks.
var LabelRoots = true

// labelRootsMax is the most roots the labels' read brings: 4 096 words
// and the two control words fit the lakes' read-back buffer at its
// smallest (lakeFloor).
const labelRootsMax = 4094

func init() { kernelNames = append(kernelNames, "labelpits", "labelargs") }

// SkipLabels makes the basin labels' dispatches indirect, with no work
// group when the routing found no pit (labelargs.glsl): without pits
// nothing reads the labels. At 1024² and 2048² most steps of a run to
// steady state have none. A variable for the benchmarks.
var SkipLabels = true

// labelArgs writes the label dispatches' work groups into lbA: none
// without pits, else as cells splits the grid.
func (e *Engine) labelArgs(c gpu.Context) {
	c.Bind(6, e.lbA)
	c.Dispatch(e.progs["labelargs"], 1, 1, 1)
}

// labelRoots copies the labels' control words and up to twice the last
// step's pits' roots (at least 64) into lkX, reads them, and reports
// whether the labels are done; if they are it sets e.pits, and e.roots
// when they all came (e.rootsOK), in the order the routing listed them.
func (e *Engine) labelRoots(c gpu.Context) (bool, error) {
	if err := e.fit(c, &e.lkX, lakeFloor); err != nil {
		return false, err
	}
	k := min(2*e.lastPits+64, labelRootsMax, e.lkX.Size()/4-2)
	c.Bind(5, e.pb[0]) // the routing's pit list
	c.Bind(11, e.lkX)
	e.cells(c, "labelpits", k)
	buf := make([]byte, 4*(k+2))
	if err := c.Read(e.lkX, 0, buf); err != nil {
		return false, err
	}
	if binary.LittleEndian.Uint32(buf) != 0 {
		return false, nil
	}
	e.pits = int(binary.LittleEndian.Uint32(buf[4:]))
	e.lastPits = e.pits
	if e.pits <= k {
		e.roots = e.roots[:0]
		for i := range e.pits {
			e.roots = append(e.roots, int32(binary.LittleEndian.Uint32(buf[4*(i+2):])))
		}
		e.rootsOK = true
	}
	return true, nil
}
