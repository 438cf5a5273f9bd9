package run

import (
	"math"

	"orogen/app/engines"
	"orogen/app/scene"
	"orogen/sim/roudier"
)

// RoudierReport is what a run on Roudier's engine adds to the report: the
// coefficients and the run's account in the paper's terms (roudier.Budget:
// rock removed = detritus out + creep out + dissolved + alluvium stored),
// with its residual, m³.
type RoudierReport struct {
	Params   roudier.Params `json:"params"`
	Budget   roudier.Budget `json:"budget"`
	Residual float64        `json:"residual_m3"`
	// AlluviumMaxM is the thickest alluvium at the end, m.
	AlluviumMaxM float64 `json:"alluvium_max_m"`
}

// applyRoudier applies the command line's overrides of Roudier's
// coefficients to the scene.
func (o *Options) applyRoudier(sc *scene.Scene) {
	if o.Roudier == nil {
		return
	}
	p := engines.RoudierParams(sc)
	o.Roudier(&p)
	sc.Roudier = &p
}

// finishRoudier fills the final figures of a run on Roudier's engine.
func (r *Report) finishRoudier(e *roudier.Engine, j *Job) {
	hs := e.Heights()
	r.Final.MinHeight, r.MaxHeight, r.MeanHeight = heightFigures(hs)
	if s := e.Snapshot(); e.Stats().Step > 0 {
		for _, a := range s.Area {
			r.Final.MaxDrainage = math.Max(r.Final.MaxDrainage, float64(a))
		}
	}
	if !j.Scene.UntilConverged {
		r.Converged = e.Converged(j.Tolerance)
	}
	r.closeBudgets(nil)
	b := e.TotalBudget()
	rr := &RoudierReport{Params: e.Roudier(), Budget: b, Residual: b.Residual()}
	for _, a := range e.Alluvium() {
		rr.AlluviumMaxM = math.Max(rr.AlluviumMaxM, a)
	}
	r.Roudier = rr
}
