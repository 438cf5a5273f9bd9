package hydro

import (
	"fmt"
	"math"
	"slices"

	"orogen/sim/enum"
)

// Boundary says what happens at the four edges of the map.
type Boundary uint8

const (
	// Walls are closed: no water, sediment or soil crosses an edge.
	Walls Boundary = iota
	// Open edges drain: water flows out of an edge cell as if the cell
	// beyond it were dry ground at the edge cell's own height, and is
	// counted as outflow; sediment traced back from outside the map is
	// clear water. Soil (thermal erosion) stays in, as with walls.
	Open
	// Wrap joins opposite edges (a torus), as the paper's GPU textures do.
	Wrap
	numBoundaries
)

var boundaryNames = [numBoundaries]string{"walls", "open", "wrap"}

// MarshalText returns the boundary's name.
func (b Boundary) MarshalText() ([]byte, error) { return []byte(b.String()), nil }

// UnmarshalText parses a boundary name (ParseBoundary).
func (b *Boundary) UnmarshalText(t []byte) error {
	v, err := ParseBoundary(string(t))
	*b = v
	return err
}

func (b Boundary) String() string { return enum.Name(boundaryNames[:], b) }

// BoundaryNames lists the names ParseBoundary reads, in Boundary order.
func BoundaryNames() []string { return slices.Clone(boundaryNames[:]) }

// ParseBoundary returns the boundary named s: walls, open or wrap (in any
// case).
func ParseBoundary(s string) (Boundary, error) {
	b, err := enum.ParseFold[Boundary]("boundary", boundaryNames[:], s)
	if err != nil {
		return 0, fmt.Errorf("hydro: %w", err)
	}
	return b, nil
}

// Params are the simulation parameters. Time is in seconds, lengths in
// metres. They may change between steps (SetParams).
type Params struct {
	Dt float64 `json:"dt_s"` // time step Δt, s
	// Kr is the rain rate K_r, m/s of water over every cell, multiplied by
	// the rain map where there is one (eq. 1).
	Kr float64 `json:"kr_m_per_s"`
	A  float64 `json:"a_m2"`       // cross-section of a virtual pipe, m² (eq. 2)
	G  float64 `json:"g_m_per_s2"` // gravity g, m/s² (eq. 2)
	L  float64 `json:"l_m"`        // length of a virtual pipe l, m (eq. 2)
	// Kc is the sediment capacity constant K_c, s: capacity in metres of
	// sediment per m/s of speed on a slope of sine 1 (eq. 8).
	Kc float64 `json:"kc_s"`
	// LMax is the depth limiter l_max, m: the capacity falls linearly from
	// full at depth 0 to none at depth LMax and beyond (eq. 8).
	LMax float64 `json:"lmax_m"`
	// CMax caps the capacity at CMax times the water depth: the largest
	// volume fraction of sediment that water carries. Not in the paper
	// (see the package doc).
	CMax     float64  `json:"cmax"`
	Ks       float64  `json:"ks_per_s"`  // dissolving rate K_s, 1/s (eq. 9)
	Kd       float64  `json:"kd_per_s"`  // deposition rate K_d, 1/s (eq. 10)
	Kh       float64  `json:"kh_per_m"`  // softening of deposits K_h, 1/m (eq. 11)
	RMin     float64  `json:"rmin"`      // lower limit of hardness R_min, in [0, 1] (eq. 11)
	Ke       float64  `json:"ke_per_s"`  // evaporation rate K_e, 1/s (eq. 13)
	Kt       float64  `json:"kt_per_s"`  // thermal erosion rate K_t, 1/s; 0 turns it off (eq. 14)
	TalusDeg float64  `json:"talus_deg"` // talus angle α, degrees (eq. 15)
	Boundary Boundary `json:"boundary"`
}

// DefaultParams returns parameters for cells of cell metres: pipes one cell
// long (L = cell) with a cross-section of a cell squared (A = cell²),
// g = 9.81 m/s², and Δt half the largest stable step, sqrt(cell/2g)/2,
// rounded down to two significant digits (0.6 s for 30 m cells, 1.1 s for
// 100 m). Water then moves about a third of a cell per step whatever the
// cell size. The rates are chosen so that a few hundred steps carve visible
// gullies into terrains of some hundred metres of relief at 10 to 100 m
// cells, and ten thousand steps do not blow up: rain 2 mm/s, evaporation
// 0.5 %/s, K_c = 0.05 s, l_max = 10 m, K_s = 0.3/s, K_d = 0.3/s,
// K_h = 1/m, R_min = 0.3, K_t = 0.1/s, talus 35°, open edges.
func DefaultParams(cell float64) Params {
	const g = 9.81
	if !(cell > 0) || math.IsInf(cell, 0) {
		cell = 1
	}
	return Params{
		Dt: roundDown2(0.5 * math.Sqrt(cell/(2*g))),
		Kr: 2e-3, A: cell * cell, G: g, L: cell,
		Kc: 0.05, LMax: 10, CMax: 0.1, Ks: 0.3, Kd: 0.3, Kh: 1, RMin: 0.3,
		Ke: 5e-3, Kt: 0.1, TalusDeg: 35,
		Boundary: Open,
	}
}

// roundDown2 rounds v > 0 down to two significant digits.
func roundDown2(v float64) float64 {
	e := math.Pow(10, math.Floor(math.Log10(v))-1)
	return math.Floor(v/e) * e
}

// limit is the allowed range of one parameter.
type limit struct {
	name   string
	v      float64
	lo, hi float64
	loOpen bool // v must be > lo
	unit   string
}

func (p Params) limits() []limit {
	return []limit{
		{"dt", p.Dt, 0, 3600, true, "s"},
		{"Kr (rain)", p.Kr, 0, 1, false, "m/s"},
		{"A (pipe cross-section)", p.A, 0, 1e10, true, "m²"},
		{"g", p.G, 0, 1000, true, "m/s²"},
		{"l (pipe length)", p.L, 0, 1e6, true, "m"},
		{"Kc (capacity)", p.Kc, 0, 1e4, false, "s"},
		{"lmax (depth limiter)", p.LMax, 0, 1e5, true, "m"},
		{"Cmax (sediment concentration)", p.CMax, 0, 1, false, ""},
		{"Ks (dissolving)", p.Ks, 0, 1e4, false, "1/s"},
		{"Kd (deposition)", p.Kd, 0, 1e4, false, "1/s"},
		{"Kh (softening)", p.Kh, 0, 1e4, false, "1/m"},
		{"Rmin (hardness floor)", p.RMin, 0, 1, false, ""},
		{"Ke (evaporation)", p.Ke, 0, 1e4, false, "1/s"},
		{"Kt (thermal)", p.Kt, 0, 1e4, false, "1/s"},
		{"talus angle", p.TalusDeg, 0, 89, false, "degrees"},
	}
}

// Validate returns an error naming the first parameter that is NaN,
// infinite, negative or beyond any sensible value.
func (p Params) Validate() error {
	for _, l := range p.limits() {
		ok := l.v >= l.lo && l.v <= l.hi && (!l.loOpen || l.v > l.lo)
		if ok {
			continue
		}
		op := ">="
		if l.loOpen {
			op = ">"
		}
		unit := ""
		if l.unit != "" {
			unit = " " + l.unit
		}
		return fmt.Errorf("hydro: %s = %g: must be finite, %s %g and <= %g%s", l.name, l.v, op, l.lo, l.hi, unit)
	}
	if p.Boundary >= numBoundaries {
		return fmt.Errorf("hydro: unknown boundary %d: use Walls, Open or Wrap", p.Boundary)
	}
	return nil
}

// StableDt returns the largest Δt, s, for which a step on cells of cell
// metres is stable, and the limit that sets it:
//
//   - "pipes": the virtual pipes are a spring–mass system integrated
//     semi-implicitly (fluxes first, then depths); the fastest mode, a
//     checkerboard, stays bounded while Δt²·A·g/(l·cell²)·8 <= 4, that is
//     Δt <= sqrt(l·cell²/(2·A·g)) (a wave speed sqrt(g·A/cell) crossing
//     cell/√2 per step). This is the CFL limit.
//   - "dissolving", "deposition", "evaporation": Ks·Δt, Kd·Δt and Ke·Δt
//     must not exceed 1, or a cell overshoots its capacity or evaporates
//     more water than it holds (clamped, but no longer the model).
//   - "thermal": Kt·Δt <= 2/9, so that a pit whose eight neighbours all
//     pour into it does not rise above them (8 · Kt·Δt·H/2 <= H·(1-Kt·Δt/2)).
//
// Parameters that are zero impose no limit.
func (p Params) StableDt(cell float64) (dt float64, limit string) {
	dt, limit = math.Sqrt(p.L*cell*cell/(2*p.A*p.G)), "pipes"
	for _, c := range []struct {
		name string
		k    float64
	}{{"dissolving", p.Ks}, {"deposition", p.Kd}, {"evaporation", p.Ke}, {"thermal", p.Kt * 4.5}} {
		if c.k > 0 && 1/c.k < dt {
			dt, limit = 1/c.k, c.name
		}
	}
	return dt, limit
}

// maxKtDt caps Kt·Δt in the thermal step: beyond the stable 2/9 (see
// StableDt) a pit filled by its eight neighbours would overshoot them, and
// the overshoot grows step after step.
const maxKtDt = 2.0 / 9

// Warning returns a message if Δt exceeds StableDt(cell), or "".
func (p Params) Warning(cell float64) string {
	max, limit := p.StableDt(cell)
	if p.Dt <= max {
		return ""
	}
	return fmt.Sprintf("hydro: dt = %g s exceeds the stable %.3g s (%s limit): expect oscillations; lower dt", p.Dt, max, limit)
}
