package viewer

import (
	"image/color"

	"orogen/sim/engine"
)

// Colours of the ridge and stream overlays.
var (
	ridgeColour  = rgb{0.55, 0.08, 0.05}
	streamColour = rgb{0.05, 0.18, 0.62}
)

// RockPalette returns the colour of each index of s.Rock: the layers of
// s.Geology, then the alluvium. nil without a geology.
func RockPalette(s *engine.Snapshot) []color.RGBA {
	if s.Geology == nil {
		return nil
	}
	n := s.Geology.NumLayers()
	out := make([]color.RGBA, n+1)
	for i := range out {
		out[i] = s.Geology.Rock(i).Color
	}
	return out
}

// Ridges sets dst[i] (W·H values, allocated when too short) to whether
// cell i is on a ridge line: no cell has it as its receiver (it has no
// donors, Roudier et al. 1993 §4.1) and it is not itself an outlet.
func Ridges(dst []bool, s *engine.Snapshot) []bool {
	n := s.W * s.H
	if cap(dst) < n {
		dst = make([]bool, n)
	}
	dst = dst[:n]
	for i := range dst {
		dst[i] = true
	}
	for i, r := range s.Receivers {
		if int(r) != i {
			dst[r] = false
		} else {
			dst[i] = false // an outlet or a pit
		}
	}
	return dst
}
