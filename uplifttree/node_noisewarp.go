package uplifttree

import "orogen/sim/noise"

// TypeNoiseWarp is the JSON type of a NoiseWarp.
const TypeNoiseWarp = "noisewarp"

var noiseWarpKind = kind{TypeNoiseWarp, func() Shape {
	return &NoiseWarp{Octaves: 3, Persistence: 0.5, Lacunarity: 2}
}, 1, 1}

// NoiseWarp samples its one child at p + Amplitude·(f₁(p), f₂(p)) where f₁
// and f₂ are two fBm fields in [−1, 1] of the seeded noise (as for Noise;
// f₂'s octaves are shifted by half a step so the two are independent).
type NoiseWarp struct {
	Seed        uint64
	Frequency   float64 // cycles per metre, > 0
	Octaves     int     // 1 … 16
	Persistence float64 // 0 … 1
	Lacunarity  float64 // 1 … 8
	Amplitude   float64 // metres
}

func (*NoiseWarp) Type() string   { return TypeNoiseWarp }
func (s *NoiseWarp) clone() Shape { c := *s; return &c }

func (s *NoiseWarp) params() []param {
	return []param{
		{"seed", ParamSeed, false, &s.Seed},
		{"frequency", ParamNumber, true, &s.Frequency},
		{"octaves", ParamInt, false, &s.Octaves},
		{"persistence", ParamNumber, false, &s.Persistence},
		{"lacunarity", ParamNumber, false, &s.Lacunarity},
		{"amplitude", ParamNumber, true, &s.Amplitude},
	}
}

func (s *NoiseWarp) check() *fieldError {
	return first(checkNoise(s.Frequency, s.Octaves, s.Persistence, s.Lacunarity),
		finite("amplitude", s.Amplitude))
}

func (s *NoiseWarp) compile(h hdr, kids []enode, _ enode) enode {
	d := &noiseWarp{amp: s.Amplitude,
		fx: newFractal(s.Seed, s.Frequency, s.Octaves, s.Persistence, s.Lacunarity, 0),
		fy: newFractal(s.Seed, s.Frequency, s.Octaves, s.Persistence, s.Lacunarity, 0.5)}
	return compileWarp(h, kids[0], d, int64(6*s.Octaves))
}

// noiseWarp is the displacement of a NoiseWarp.
type noiseWarp struct {
	fx, fy *noise.Fractal
	amp    float64
}

func (d *noiseWarp) at(x, y float64) (float64, float64) {
	return x + d.amp*d.fx.At(x, y), y + d.amp*d.fy.At(x, y)
}

// displace evaluates the two fields through span, which is faster than
// point by point on a grid and gives the same bits.
func (d *noiseWarp) displace(w *work, xs, ys, tx, ty []float64) {
	span(d.fx, w, xs, ys, tx)
	span(d.fy, w, xs, ys, ty)
	for i := range tx {
		tx[i], ty[i] = xs[i]+d.amp*tx[i], ys[i]+d.amp*ty[i]
	}
}

func (d *noiseWarp) toParent(r Rect) Rect { return r.expand(abs(d.amp), abs(d.amp)).pad() }
func (d *noiseWarp) toChild(r Rect) Rect  { return r.expand(abs(d.amp), abs(d.amp)).pad() }

// place sets the node up as the app adds it: centred where at(0, 0) is,
// about size metres across (placer).
func (s *NoiseWarp) place(_ func(x, y float64) Point, size float64, _ ID) {
	s.Frequency = 1 / size
	s.Amplitude = size / 4
}
