package water

// ReleaseScratch lets go of the solver's per-basin and per-lake scratch
// of the last Step (about 10 bytes a cell of a grid early in a run, when
// every ninth cell is a pit; docs/MEMORY.md). The lakes, the stored water
// and the basins' nodes that WaterDepth reads stay; the next Step grows
// the scratch again and gives the results it would have given without
// the release.
func (m *Model) ReleaseScratch() {
	s := &m.s
	m.s = solver{in: s.in, bOff: s.bOff, bNode: s.bNode}
}
