package run

import (
	"orogen/app/export"
	"orogen/sim/engine"
)

var errNoBudget = export.ErrNoBudget

// writeWaterOutputs writes --out-lakes and --out-rivers.
func (j *Job) writeWaterOutputs(s *engine.Snapshot) error {
	if j.Opt.OutLakes != "" {
		if err := export.WriteLakesIn(j.set, j.Opt.OutLakes, s); err != nil {
			return err
		}
	}
	if j.Opt.OutRivers != "" {
		m, err := export.RiverMask(s, export.RiverThreshold(s, j.Scene.Params.RiverThresholdM3PerYr))
		if err != nil {
			return err
		}
		if err := j.writeRaster(j.Opt.OutRivers, s.Field(m)); err != nil {
			return err
		}
	}
	return nil
}
