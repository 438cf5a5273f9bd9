package uplifttree

import "math"

// TypeFold is the JSON type of a Fold.
const TypeFold = "fold"

var foldKind = kind{TypeFold, func() Shape { return &Fold{} }, 1, 1}

// Fold is a warp: it samples its one child at p − A·sin(2π·s/λ + φ)·e,
// where e is the unit vector at Angle degrees (clockwise from east) and
// s = p·e⊥ the position along the fold axis (e⊥ = e turned 90°). A ridge
// along e⊥ becomes a sine wave of amplitude A and wavelength λ.
type Fold struct {
	Angle      float64 // degrees
	Amplitude  float64 // A, metres
	Wavelength float64 // λ, metres, > 0
	Phase      float64 // φ, degrees
}

func (*Fold) Type() string   { return TypeFold }
func (s *Fold) clone() Shape { c := *s; return &c }

func (s *Fold) params() []param {
	return []param{
		{"angle", ParamNumber, false, &s.Angle},
		{"amplitude", ParamNumber, true, &s.Amplitude},
		{"wavelength", ParamNumber, true, &s.Wavelength},
		{"phase", ParamNumber, false, &s.Phase},
	}
}

func (s *Fold) check() *fieldError {
	return first(finite("angle", s.Angle), finite("amplitude", s.Amplitude),
		positive("wavelength", s.Wavelength), finite("phase", s.Phase))
}

func (s *Fold) compile(h hdr, kids []enode, _ enode) enode {
	sn, cs := math.Sincos(s.Angle * math.Pi / 180)
	d := &foldWarp{ex: cs, ey: sn, px: -sn, py: cs, amp: s.Amplitude,
		omega: 2 * math.Pi / s.Wavelength, phase: s.Phase * math.Pi / 180}
	return compileWarp(h, kids[0], d, 2)
}

// foldWarp is the displacement of a Fold.
type foldWarp struct {
	ex, ey, px, py    float64 // displacement direction e, fold axis e⊥
	amp, omega, phase float64
}

func (d *foldWarp) at(x, y float64) (float64, float64) {
	s := d.amp * math.Sin(d.omega*(x*d.px+y*d.py)+d.phase)
	return x - s*d.ex, y - s*d.ey
}

func (d *foldWarp) displace(_ *work, xs, ys, tx, ty []float64) {
	for i := range tx {
		tx[i], ty[i] = d.at(xs[i], ys[i])
	}
}

func (d *foldWarp) toParent(r Rect) Rect { return r.expand(abs(d.amp*d.ex), abs(d.amp*d.ey)).pad() }
func (d *foldWarp) toChild(r Rect) Rect  { return r.expand(abs(d.amp*d.ex), abs(d.amp*d.ey)).pad() }

// place sets the node up as the app adds it: centred where at(0, 0) is,
// about size metres across (placer).
func (s *Fold) place(_ func(x, y float64) Point, size float64, _ ID) {
	s.Wavelength = size
	s.Amplitude = size / 8
}
