package uplifttree

import "orogen/sim/noise"

// TypeNoise is the JSON type of a Noise.
const TypeNoise = "noise"

var noiseKind = kind{TypeNoise, func() Shape {
	return &Noise{Octaves: 4, Persistence: 0.5, Lacunarity: 2, Amplitude: 1}
}, 0, 0}

// Noise is seeded fractal noise: Offset + Amplitude·F(x, y), where F is
// the fBm of Perlin gradient noise with the frequency, octaves,
// persistence and lacunarity given (F lies in [−1, 1]; it is
// orogen/sim/noise's Fractal, whose documentation gives the formula). It
// covers the plane.
type Noise struct {
	Seed        uint64
	Frequency   float64 // cycles per metre, > 0
	Octaves     int     // 1 … 16
	Persistence float64 // amplitude ratio of successive octaves, 0 … 1
	Lacunarity  float64 // frequency ratio of successive octaves, 1 … 8
	Amplitude   float64
	Offset      float64
}

func (*Noise) Type() string   { return TypeNoise }
func (s *Noise) clone() Shape { c := *s; return &c }

func (s *Noise) params() []param {
	return []param{
		{"seed", ParamSeed, false, &s.Seed},
		{"frequency", ParamNumber, true, &s.Frequency},
		{"octaves", ParamInt, false, &s.Octaves},
		{"persistence", ParamNumber, false, &s.Persistence},
		{"lacunarity", ParamNumber, false, &s.Lacunarity},
		{"amplitude", ParamNumber, false, &s.Amplitude},
		{"offset", ParamNumber, false, &s.Offset},
	}
}

func (s *Noise) check() *fieldError {
	return first(checkNoise(s.Frequency, s.Octaves, s.Persistence, s.Lacunarity),
		finite("amplitude", s.Amplitude), finite("offset", s.Offset))
}

func (s *Noise) compile(h hdr, _ []enode, _ enode) enode {
	h.box = Everywhere
	h.out = s.Offset
	h.lo, h.hi = s.Offset-abs(s.Amplitude), s.Offset+abs(s.Amplitude)
	h.cost = int64(3 * s.Octaves)
	return &eNoise{hdr: h, f: newFractal(s.Seed, s.Frequency, s.Octaves, s.Persistence, s.Lacunarity, 0),
		amp: s.Amplitude, off: s.Offset}
}

type eNoise struct {
	hdr
	f        *noise.Fractal
	amp, off float64
}

func (n *eNoise) eval(w *work, xs, ys []float64, _ Rect, dst []float64) {
	span(n.f, w, xs, ys, dst)
	for i, v := range dst {
		dst[i] = n.off + n.amp*v
	}
}

// place sets the node up as the app adds it: centred where at(0, 0) is,
// about size metres across (placer).
func (s *Noise) place(_ func(x, y float64) Point, size float64, _ ID) {
	s.Frequency = 1 / size
	s.Amplitude = 0.3
}
