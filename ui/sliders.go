package ui

import (
	"slices"
	"sort"

	"orogen/app/session"
)

// thresholdSlider is the view's one live setting among the Simulation
// panel's sliders: it changes the picture, not the simulation.
var thresholdSlider = session.Param{Name: "threshold", Label: "river threshold", Unit: "km²",
	Help: "Drainage area above which the preview draws a river; rivers widen as log A grows. " +
		"A display setting, it does not change the simulation.",
	Min: 0.01, Max: 1e4, Log: true, Format: "%.3g"}

// sliders are the Simulation panel's sliders, in panel order: the
// document's live parameters (session.Params), then the river threshold.
var sliders = append(slices.Clone(session.Params), thresholdSlider)

// sliderNames are the names `set` accepts, sorted.
func sliderNames() []string {
	var n []string
	for _, s := range sliders {
		n = append(n, s.Name)
	}
	sort.Strings(n)
	return n
}
