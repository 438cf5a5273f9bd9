package ui

import "sort"

// A slider is one live parameter of the Simulation panel. Values are shown
// and typed in the units given; log sliders move by ratios.
type slider struct {
	name     string // script and report name
	label    string
	unit     string
	help     string // tooltip: meaning and units, after the papers
	min, max float64
	log      bool
	format   string
}

// sliders lists the live parameters in panel order.
var sliders = []slider{
	{"k", "k (erodibility)", "1/yr", "Stream power erodibility k in E = k·A^m·S^n (Cordonnier et al. 2016, §3.1). " +
		"Higher k cuts deeper valleys and lowers the steady-state relief: " +
		"h_max ~ 2.244·u/k for the paper's defaults. Cordonnier et al. 2016 uses 5.61e-7 /yr.",
		1e-9, 1e-3, true, "%.3g"},
	{"m", "m (area exponent)", "", "Drainage-area exponent m of the stream power law. " +
		"m/n ~ 0.4-0.6 in nature (the concavity of river profiles); Cordonnier et al. 2016 uses 0.5.",
		0.1, 1.5, false, "%.3f"},
	{"n", "n (slope exponent)", "", "Slope exponent n of the stream power law; n = 1 is solved in closed form, " +
		"other values by Newton iterations. Cordonnier et al. 2016 uses 1.",
		0.5, 3, false, "%.3f"},
	{"dt", "dt (time step)", "yr", "Length of one engine step in years. The implicit scheme is stable for any dt; " +
		"Cordonnier et al. 2016 uses 2.5e5 yr. Smaller steps show the transient in more detail.",
		1e2, 1e7, true, "%.3g"},
	{"talus", "talus angle", "°", "Largest slope that the terrain holds before it slides (thermal erosion, Cordonnier et al. 2016, §6.4): " +
		"30° is the usual talus angle; higher values keep cliffs.",
		5, 85, false, "%.1f"},
	{"diffusion", "hillslope diffusivity", "m²/yr", "Linear hillslope diffusion kappa in dh/dt = kappa·lap(h): soil creep that rounds " +
		"crests and valley floors. 0 turns it off (the paper's setting); 0.01-1 m²/yr is typical of soil-mantled hills.",
		0, 10, false, "%.3g"},
	{"rain", "rain", "m/yr", "Rain r of the lakes' water budget (Błaszczuk et al. 2023): every step adds dt·r·A to the basins, " +
		"lakes fill, overflow into their neighbours and merge. 0 turns the budget off and fills every lake to its pass. " +
		"With the geological dt of 1e5 yr, 1e-5 to 1e-3 m/yr keeps lakes partly full. It never changes the terrain. " +
		"The left end (1e-7) is 0: off.",
		1e-7, 10, true, "%.3g"},
	{"evaporation", "evaporation", "m^½/yr", "Evaporation e of the water budget: a lake of V m³ loses e·V^(5/6) m³/yr, " +
		"so large lakes lose less per m³. Raise it to dry lakes out. The left end (1e-7) is 0.",
		1e-7, 1e3, true, "%.3g"},
	{"umax", "uplift scale", "m/yr", "Uplift rate of a normalized uplift value of 1 (white in the uplift map). " +
		"Cordonnier et al. 2016 §6 uses 5e-4 m/yr (0.5 mm/yr); relief grows in proportion.",
		1e-6, 1e-2, true, "%.3g"},
	{"threshold", "river threshold", "km²", "Drainage area above which the preview draws a river; rivers widen as log A grows. " +
		"A display setting, it does not change the simulation.",
		0.01, 1e4, true, "%.3g"},
}

func sliderByName(name string) (slider, bool) {
	for _, s := range sliders {
		if s.name == name {
			return s, true
		}
	}
	return slider{}, false
}

func sliderNames() []string {
	var n []string
	for _, s := range sliders {
		n = append(n, s.name)
	}
	sort.Strings(n)
	return n
}
