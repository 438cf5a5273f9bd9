package export

import (
	"errors"
	"fmt"
	"math"

	"orogen/app/safefile"
	"orogen/sim/engine"
	"orogen/sim/water"
)

// LakesFile is the JSON of --out-lakes: the lakes of the water budget
// (Błaszczuk et al. 2023), as the last step left them.
type LakesFile struct {
	Lakes []LakeEntry `json:"lakes"`
}

// LakeEntry is one lake. A lake whose water was split over several pit
// basins that merged lists all their pits in Members.
type LakeEntry struct {
	ID       int     `json:"id"`
	SurfaceM float64 `json:"surface_m"` // water surface; the pit's height when dry
	VolumeM3 float64 `json:"volume_m3"`
	AreaM2   float64 `json:"area_m2"` // flooded area
	// Outlet is the id of the lake this one spills into, -1 when it
	// spills out of the domain, null when it does not overflow.
	Outlet *int `json:"outlet"`
	Full   bool `json:"full"` // filled to its lowest pass
	// PassM is the height of its lowest pass; null when it has none.
	PassM *float64 `json:"pass_m"`
	// Members are the pits of the basins the lake covers, (x, y) in
	// metres from the north-west corner: one for a lake on its own.
	Members [][2]float64 `json:"members"`
}

// ErrNoBudget is the error of the lakes list or the river mask of a
// snapshot taken with the water budget off.
var ErrNoBudget = errors.New("the lakes' water budget is off: give --rain > 0 (m/yr) for --out-lakes and --out-rivers")

// Lakes returns the lakes list of a snapshot taken with the water budget on.
func Lakes(s *engine.Snapshot) (*LakesFile, error) {
	if s.WaterLakes == nil {
		return nil, ErrNoBudget
	}
	f := &LakesFile{Lakes: make([]LakeEntry, 0, len(s.WaterLakes))}
	for i, l := range s.WaterLakes {
		e := LakeEntry{ID: i, SurfaceM: l.Level, VolumeM3: l.Volume, AreaM2: l.Area, Full: l.Full, Members: [][2]float64{}}
		switch l.Into {
		case water.NoSpill:
		case water.Outside:
			o := -1
			e.Outlet = &o
		default:
			o := int(l.Into)
			e.Outlet = &o
		}
		if !math.IsInf(l.PassH, 0) && !math.IsNaN(l.PassH) {
			p := l.PassH
			e.PassM = &p
		}
		for _, b := range l.Basins {
			if int(b) < len(s.WaterPits) {
				q := s.WaterPits[b]
				e.Members = append(e.Members, [2]float64{float64(q[0]) * s.Cell, float64(q[1]) * s.Cell})
			}
		}
		f.Lakes = append(f.Lakes, e)
	}
	return f, nil
}

// WriteLakes writes the lakes list of s as JSON at path, atomically.
func WriteLakes(path string, s *engine.Snapshot) error { return WriteLakesIn(nil, path, s) }

// WriteLakesIn is WriteLakes staged in set (nil: written at once).
func WriteLakesIn(set *safefile.Set, path string, s *engine.Snapshot) error {
	f, err := Lakes(s)
	if err != nil {
		return err
	}
	if err := safefile.WriteJSONIn(set, path, f); err != nil {
		return fmt.Errorf("lakes: %w", err)
	}
	return nil
}

// RiverThreshold is the discharge, m³/yr, from which a channel counts as a
// river: the scene's, or the rain on 10 km² (the 2D view's drainage
// threshold) when it gives none.
func RiverThreshold(s *engine.Snapshot, sceneThreshold float64) float64 {
	if sceneThreshold > 0 {
		return sceneThreshold
	}
	return s.Param.Rain * 1e7
}

// RiverMask returns 1 where the discharge reaches threshold m³/yr outside
// the lakes, 0 elsewhere (Błaszczuk et al. 2023, Fig. 6).
func RiverMask(s *engine.Snapshot, threshold float64) ([]float32, error) {
	if s.Discharge == nil {
		return nil, ErrNoBudget
	}
	q := make([]float64, len(s.Discharge))
	for i, v := range s.Discharge {
		q[i] = float64(v)
	}
	m := water.Rivers(nil, q, threshold, s.Water)
	out := make([]float32, len(m))
	for i, v := range m {
		out[i] = float32(v)
	}
	return out, nil
}
