package viewer

// rgb is a colour with channels in [0, 1].
type rgb [3]float32

// stop is one colour of a ramp at position t in [0, 1].
type stop struct {
	t float32
	c rgb
}

// lut is a colour ramp sampled at evenly spaced positions: entry i is the
// colour at t = i / (len-1).
type lut []rgb

// newLUT samples the piecewise linear ramp through stops (sorted by t, the
// first at 0 and the last at 1) at n positions.
func newLUT(n int, stops ...stop) lut {
	l := make(lut, n)
	k := 0
	for i := range l {
		t := float32(i) / float32(n-1)
		for k < len(stops)-2 && t > stops[k+1].t {
			k++
		}
		a, b := stops[k], stops[k+1]
		u := (t - a.t) / (b.t - a.t)
		u = min(max(u, 0), 1)
		for c := range 3 {
			l[i][c] = a.c[c] + (b.c[c]-a.c[c])*u
		}
	}
	return l
}

// at returns the colour at t, clamped to [0, 1] (NaN gives the first).
func (l lut) at(t float64) rgb {
	if !(t > 0) {
		return l[0]
	}
	if t >= 1 {
		return l[len(l)-1]
	}
	return l[int(t*float64(len(l)-1)+0.5)]
}

// The ramps. The hypsometric tint runs from lowland green through tan and
// brown to rock grey and snow, as on printed relief maps.
var (
	tintStops = []stop{
		{0, rgb{0.31, 0.53, 0.33}},
		{0.12, rgb{0.49, 0.67, 0.40}},
		{0.32, rgb{0.83, 0.78, 0.54}},
		{0.55, rgb{0.66, 0.50, 0.33}},
		{0.78, rgb{0.56, 0.53, 0.51}},
		{0.92, rgb{0.85, 0.85, 0.85}},
		{1, rgb{0.98, 0.98, 0.99}},
	}
	tintLUT = newLUT(1024, tintStops...)
	// Uplift of one sign: dark violet (none) to pale yellow (most).
	upliftStops = []stop{
		{0, rgb{0.05, 0.03, 0.25}},
		{0.35, rgb{0.55, 0.10, 0.50}},
		{0.7, rgb{0.95, 0.45, 0.10}},
		{1, rgb{1.00, 0.95, 0.55}},
	}
	upliftLUT = newLUT(256, upliftStops...)
	// Uplift of both signs: blue (subsidence), white (0), red (uplift).
	divergingStops = []stop{
		{0, rgb{0.15, 0.30, 0.75}},
		{0.5, rgb{0.97, 0.97, 0.97}},
		{1, rgb{0.75, 0.12, 0.10}},
	}
	divergingLUT = newLUT(256, divergingStops...)
	// Drainage area, log scale: pale (one cell) to navy (the largest basin).
	drainageStops = []stop{
		{0, rgb{1.00, 1.00, 0.90}},
		{0.4, rgb{0.45, 0.80, 0.95}},
		{0.75, rgb{0.05, 0.28, 0.72}},
		{1, rgb{0.02, 0.05, 0.30}},
	}
	drainageLUT = newLUT(256, drainageStops...)
	// Sediment in suspension, 0 to the largest: transparent-looking pale
	// to ochre and dark brown.
	sedimentStops = []stop{
		{0, rgb{0.96, 0.94, 0.86}},
		{0.4, rgb{0.86, 0.66, 0.30}},
		{1, rgb{0.40, 0.20, 0.05}},
	}
	sedimentLUT = newLUT(256, sedimentStops...)
	// Rock hardness, 0 (soft) to 1 (hard): pale green to slate.
	hardnessStops = []stop{
		{0, rgb{0.85, 0.95, 0.75}},
		{0.5, rgb{0.55, 0.62, 0.62}},
		{1, rgb{0.20, 0.22, 0.30}},
	}
	hardnessLUT = newLUT(256, hardnessStops...)
	// Slope, 0° to 60°: green, yellow, orange, dark red.
	slopeStops = []stop{
		{0, rgb{0.20, 0.60, 0.22}},
		{0.35, rgb{0.95, 0.90, 0.25}},
		{0.65, rgb{0.92, 0.42, 0.10}},
		{1, rgb{0.55, 0.04, 0.10}},
	}
	slopeLUT = newLUT(256, slopeStops...)

	// tint8 is tintLUT in bytes, for the integer shading of Relief.
	tint8 = func() [][3]uint32 {
		t := make([][3]uint32, len(tintLUT))
		for i, c := range tintLUT {
			for k := range 3 {
				t[i][k] = uint32(c[k]*255 + 0.5)
			}
		}
		return t
	}()

	// lake8 is the lake colour and opacity (in 1/256) by k = d / (d +
	// lakeDepthM) for a depth d: from shallow to deep blue, and from
	// lakeMinAlpha to opaque.
	lake8 = func() [][4]uint32 {
		t := make([][4]uint32, 256)
		for i := range t {
			k := float32(i) / float32(len(t)-1)
			c := mix(lakeShallow, lakeDeep, k)
			for j := range 3 {
				t[i][j] = uint32(c[j]*255 + 0.5)
			}
			t[i][3] = uint32(256*(lakeMinAlpha+(1-lakeMinAlpha)*k) + 0.5)
		}
		return t
	}()

	riverColour     = rgb{0.16, 0.38, 0.78}
	lakeShallow     = rgb{0.33, 0.60, 0.90}
	lakeDeep        = rgb{0.06, 0.20, 0.52}
	letterboxColour = [4]uint8{24, 24, 28, 255}
)
