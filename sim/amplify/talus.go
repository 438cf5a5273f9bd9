package amplify

import "context"

// maxTalusSweeps caps the talus pass's pairs of raster sweeps. Each pair
// settles every chain of lowerings that turns at most once; the test
// terrains need 2 to 4.
const maxTalusSweeps = 64

// clampTalus lowers the dry hillslope cells of the RW×RH region (fine
// cell (gx0, gy0) at its corner) until no fine cell is steeper than its
// coarse cell's talus angle towards any neighbour: h_i ≤ h_j + tan θ_i·d_ij
// for all eight neighbours j, where h_j is a lake's level on lake cells.
// Bed and lake cells stay (beds keep their fall, lakes their level) but
// bound their neighbours. It only lowers, and a lowered cell ends exactly
// tan θ·d above a neighbour, so it makes no pit: a cell that had a lower
// neighbour keeps one. The result is the greatest heights under the
// limit, the same whatever the order of the sweeps (the fixed point of a
// monotone map), computed by alternating forward and backward raster
// sweeps (a chamfer distance transform).
//
// It runs after the drainage pass, and costs the cell means what the
// limit takes from crests: a talus-limited Λ whose fine cells kept its
// coarse cell's mean rose above the limit by up to tan θ·Cell/4.
func (p *prep) clampTalus(ctx context.Context, hgt, riv, wat []float32, RW, RH, gx0, gy0 int) error {
	F := p.F
	fc := float32(p.fcell)
	diag := float32(p.fcell * 1.4142135623730951)
	// tan θ·d per fine column of a row, by coarse cell.
	rowTan := make([]float32, RW)
	relax := func(i, j int, d float32, t float32) bool {
		src := hgt[j] + wat[j]
		if c := src + t*d; c < hgt[i] {
			hgt[i] = c
			return true
		}
		return false
	}
	fixed := func(i int) bool { return riv[i] > 0 || wat[i] > 0 }
	setRow := func(y int) {
		cy := (gy0 + y) / F
		for x := range RW {
			rowTan[x] = p.tanT[cy*p.W+(gx0+x)/F]
		}
	}
	for range maxTalusSweeps {
		if err := ctx.Err(); err != nil {
			return err
		}
		changed := false
		// Forward: west, north-west, north, north-east.
		for y := range RH {
			setRow(y)
			for x := range RW {
				i := y*RW + x
				if fixed(i) {
					continue
				}
				t := rowTan[x]
				if x > 0 {
					changed = relax(i, i-1, fc, t) || changed
				}
				if y > 0 {
					if x > 0 {
						changed = relax(i, i-RW-1, diag, t) || changed
					}
					changed = relax(i, i-RW, fc, t) || changed
					if x < RW-1 {
						changed = relax(i, i-RW+1, diag, t) || changed
					}
				}
			}
		}
		// Backward: east, south-east, south, south-west.
		for y := RH - 1; y >= 0; y-- {
			setRow(y)
			for x := RW - 1; x >= 0; x-- {
				i := y*RW + x
				if fixed(i) {
					continue
				}
				t := rowTan[x]
				if x < RW-1 {
					changed = relax(i, i+1, fc, t) || changed
				}
				if y < RH-1 {
					if x < RW-1 {
						changed = relax(i, i+RW+1, diag, t) || changed
					}
					changed = relax(i, i+RW, fc, t) || changed
					if x > 0 {
						changed = relax(i, i+RW-1, diag, t) || changed
					}
				}
			}
		}
		if !changed {
			return nil
		}
	}
	return nil
}
