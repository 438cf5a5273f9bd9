package viewer

import (
	"math"

	"orogen/sim/engine"
)

// Shader parameters: what a GPU program needs to draw the relief and the
// 3D surface the way Relief and BuildMesh3D do. The app's shaders
// (ui/shaders) read the snapshot's fields as textures and these figures as
// uniforms; the ramps, colours and constants stay defined here, once.

// Ramp is a colour ramp for a shader: up to 8 stops, each (r, g, b, t)
// with t rising from 0 to 1; N is how many are used.
type Ramp struct {
	Stops [8][4]float32
	N     int
}

func rampOf(stops []stop) Ramp {
	var r Ramp
	r.N = min(len(stops), len(r.Stops))
	for i, s := range stops[:r.N] {
		r.Stops[i] = [4]float32{s.c[0], s.c[1], s.c[2], s.t}
	}
	return r
}

// Bytes appends to dst[:0] the ramp sampled at n evenly spaced positions
// (entry i at t = i / (n-1), as Relief's and BuildMesh3D's lookup tables
// sample it), 4 bytes an entry: the colour rounded to bytes and 255. A
// shader reads these rows instead of evaluating the ramp at every pixel.
func (r Ramp) Bytes(dst []byte, n int) []byte {
	stops := make([]stop, r.N)
	for i, s := range r.Stops[:r.N] {
		stops[i] = stop{t: s[3], c: rgb{s[0], s[1], s[2]}}
	}
	dst = dst[:0]
	if r.N < 2 {
		return append(dst, make([]byte, 4*n)...)
	}
	for _, c := range newLUT(n, stops...) {
		dst = append(dst, byte(c[0]*255+0.5), byte(c[1]*255+0.5), byte(c[2]*255+0.5), 255)
	}
	return dst
}

// Overlay kinds of SurfaceParams.OvKind.
const (
	OvNone     = iota
	OvIndex    // the overlay's ramp index per cell (SurfaceBytes' R)
	OvDrainage // log10 of the drainage area (the river pass)
	OvSlope    // the steepest-descent slope, from the heights
	OvMask     // the ridge mask (SurfaceBytes' B)
	OvStreams  // drainage area at least the river threshold
)

// SurfaceParams are the figures of one relief (Relief) or 3D surface
// (BuildMesh3D) picture of a snapshot.
type SurfaceParams struct {
	Light     [3]float32 // toward the light: x east, y south, z up
	Ambient   float32
	Ex        float32 // 2D: exaggeration / cell; 3D: exaggeration
	Cell      float32
	TintLo    float32
	TintScale float32 // 1 / tint range, 0 when flat
	Base      Ramp    // the height tint, or the slope ramp (3D, ColorSlope)
	Slope3D   bool    // 3D colour by slope

	OvKind   int
	Ov       Ramp
	OvColour [3]float32
	OvAlpha  float32
	OvScale  float32 // slope: 1 / slopeMaxDeg

	Up      Ramp // 3D uplift tint (SurfaceBytes' A)
	UpAlpha float32

	Rivers             bool
	RiverThresholdM2   float64
	RiverMaxPx         float64 // the widest river, cells
	River, RiverLight  [3]float32
	Lakes              bool
	Shallow, Deep      [3]float32
	DrainLo, DrainInv  float32 // the drainage overlay: log10 of a cell's area, 1 / decades
	Rock               bool
	RockPal            [][3]float32 // bytes
	Shadows            bool
	SunStep            [2]float32 // 3D: one shadow step toward the sun, cells
	SunDrop            float32    // 3D: how much the sun ray rises per step, metres
	NeedBytes          bool       // SurfaceBytes carries something this picture reads
	UpliftRamp, OvRamp bool       // SurfaceBytes' A and R are used
}

// The rivers' width rule, which the shaders repeat: 1 pixel wide at the
// threshold, RiverPxPerDecade wider for each decade of drainage area over
// it; the 3D view's river colour reaches the deep one RiverDecadesToDeep
// decades over it.
const (
	RiverPxPerDecade   = riverPxPerDecade
	RiverDecadesToDeep = riverDecadesToDeep
)

// RiverReach returns how far, in cells, a river disc of the widest river
// reaches: the gather radius of the shader.
func RiverReach(maxPx float64) int { return int(math.Ceil(maxPx/2+0.5)) - 1 }

// ReliefParams returns the figures of Relief(s, o).
func ReliefParams(s *engine.Snapshot, o Options) SurfaceParams {
	checkSnapshot(s)
	o = o.sanitized()
	r := newRenderer(s, o)
	defer r.release()
	p := SurfaceParams{
		Light:   [3]float32{float32(r.lx), float32(r.ly), float32(r.lz)},
		Ambient: r.amb, Ex: float32(r.ex), Cell: float32(s.Cell),
		TintLo: float32(r.tintLo), TintScale: float32(r.tintScale),
		Base:   rampOf(tintStops),
		Rivers: r.rad != nil, RiverThresholdM2: o.RiverThresholdM2, RiverMaxPx: o.RiverMaxPx,
		River: riverColour, Lakes: r.water != nil, Shallow: lakeShallow, Deep: lakeDeep,
		OvAlpha: r.alpha, Rock: r.rock8 != nil,
	}
	for _, c := range r.rock8 {
		p.RockPal = append(p.RockPal, [3]float32{float32(c[0]), float32(c[1]), float32(c[2])})
	}
	switch r.ov {
	case OverlayUplift, OverlaySediment, OverlayHardness:
		p.OvKind, p.Ov, p.OvRamp = OvIndex, rampOf(rampStops(r.ov, r.diverging)), true
	case OverlayDrainage:
		p.OvKind, p.Ov = OvDrainage, rampOf(drainageStops)
		p.DrainLo, p.DrainInv = float32(r.ovLo), float32(r.ovScale)
	case OverlaySlope:
		p.OvKind, p.Ov, p.OvScale = OvSlope, rampOf(slopeStops), float32(r.ovScale)
	case OverlayRidges:
		p.OvKind, p.OvColour = OvMask, ridgeColour
	case OverlayStreams:
		p.OvKind, p.OvColour = OvStreams, streamColour
	}
	p.NeedBytes = p.OvRamp || p.OvKind == OvMask || p.Rock
	return p
}

func rampStops(ov Overlay, diverging bool) []stop {
	switch ov {
	case OverlayUplift:
		if diverging {
			return divergingStops
		}
		return upliftStops
	case OverlaySediment:
		return sedimentStops
	case OverlayHardness:
		return hardnessStops
	}
	return tintStops
}

// Surface3DParams returns the figures of the 3D surface of s for options
// o at one vertex per cell: BuildMesh3D's light and colours.
func Surface3DParams(s *engine.Snapshot, o Options3D) SurfaceParams {
	checkSnapshot(s)
	o = o.sanitized()
	az, el := o.SunAzimuthDeg*math.Pi/180, o.SunElevationDeg*math.Pi/180
	p := SurfaceParams{
		Light:   [3]float32{float32(math.Sin(az) * math.Cos(el)), float32(-math.Cos(az) * math.Cos(el)), float32(math.Sin(el))},
		Ambient: float32(o.Ambient), Ex: float32(o.Exaggeration), Cell: float32(s.Cell),
		Base:   rampOf(tintStops),
		Rivers: o.Rivers && s.Area != nil, RiverThresholdM2: o.RiverThresholdM2, RiverMaxPx: o.RiverMaxWidth,
		River: riverColour, RiverLight: riverLight,
		Lakes: o.Lakes && s.Water != nil, Shallow: lakeShallow, Deep: lakeDeep,
	}
	lo, hi := o.TintMinM, o.TintMaxM
	if lo == 0 && hi == 0 {
		lo, hi = minMax(s.Height)
	}
	p.TintLo = float32(lo)
	if hi > lo {
		p.TintScale = float32(1 / (hi - lo))
	}
	if o.Color == ColorSlope {
		p.Base, p.Slope3D = rampOf(slopeStops), true
	}
	if o.Color == ColorRock && s.Geology != nil && len(s.Rock) == s.W*s.H {
		p.Rock = true
		for _, c := range RockPalette(s) {
			p.RockPal = append(p.RockPal, [3]float32{float32(c.R), float32(c.G), float32(c.B)})
		}
	}
	if o.UpliftAlpha > 0 && s.Uplift != nil {
		lo, _ := minMax(s.Uplift)
		p.Up, p.UpAlpha, p.UpliftRamp = rampOf(upliftStops), float32(o.UpliftAlpha), true
		if lo < 0 {
			p.Up = rampOf(divergingStops)
		}
	}
	if o.Shadows && o.SunElevationDeg < 89.9 {
		// One cell along the major axis of the sun's direction per step.
		a, b := math.Sin(az), -math.Cos(az)
		k := max(math.Abs(a), math.Abs(b))
		p.Shadows = true
		p.SunStep = [2]float32{float32(a / k), float32(b / k)}
		p.SunDrop = float32(math.Hypot(a/k, b/k) * s.Cell * math.Tan(el))
	}
	p.NeedBytes = p.Rock || p.UpliftRamp
	return p
}

// SurfaceBytes fills dst (4 bytes a cell, allocated when too short) with
// the per-cell bytes the shaders read: R the 2D overlay's ramp index (as
// lut.at picks it: uplift, sediment, hardness), G the rock layer, B 255 on
// the ridge mask, A the 3D uplift tint's ramp index; o3 nil leaves A 0.
func SurfaceBytes(dst []byte, s *engine.Snapshot, o Options, o3 *Options3D) []byte {
	checkSnapshot(s)
	o = o.sanitized()
	n := s.W * s.H
	if cap(dst) < 4*n {
		dst = make([]byte, 4*n)
	}
	dst = dst[:4*n]
	clear(dst)
	r := newRenderer(s, o)
	defer r.release()
	index := func(t float64) byte {
		if !(t > 0) {
			return 0
		}
		if t >= 1 {
			return 255
		}
		return byte(int(t*255 + 0.5))
	}
	switch r.ov {
	case OverlayUplift, OverlaySediment, OverlayHardness:
		for i := range n {
			dst[4*i] = index(r.overlayT(i))
		}
	case OverlayRidges:
		for i, on := range r.mask {
			if on {
				dst[4*i+2] = 255
			}
		}
	}
	if len(s.Rock) == n {
		for i, k := range s.Rock {
			dst[4*i+1] = byte(min(int(k), 255))
		}
	}
	if o3 != nil && o3.UpliftAlpha > 0 && s.Uplift != nil {
		lo, hi := minMax(s.Uplift)
		var scale, off float64
		if lo < 0 {
			scale, off = 0.5/max(-lo, hi), 0.5
		} else if hi > 0 {
			scale = 1 / hi
		}
		for i, u := range s.Uplift {
			dst[4*i+3] = index(float64(u)*scale + off)
		}
	}
	return dst
}

// overlayT is the overlay's ramp position at cell i, for the overlays of
// one value per cell (uplift, sediment, hardness).
func (r *renderer) overlayT(i int) float64 {
	switch r.ov {
	case OverlayUplift:
		t := float64(r.s.Uplift[i]) * r.ovScale
		if r.diverging {
			t += 0.5
		}
		return t
	case OverlaySediment:
		return float64(r.s.Sediment[i]) * r.ovScale
	case OverlayHardness:
		return float64(r.s.Hardness[i])
	}
	return 0
}

// SkyColours returns FillSky's colours: at the horizon, at the zenith and
// of the haze below the horizon.
func SkyColours() [3][3]float32 {
	return [3][3]float32{skyHorizon, skyZenith, skyBelow}
}

// Disc is one river cell's disc: cell (X, Y), ρ (the radius plus half a
// pixel: it covers the cell at distance d from its centre by ρ - d,
// clamped to [0, 1]) and T, the river colour's ramp position of the 3D
// view (0 at the threshold, 1 riverDecadesToDeep decades above).
type Disc struct {
	X, Y   int32
	Rho, T float32
}

// RiverDiscs appends to dst[:0] the river discs of s as Relief (2D: maxW
// is RiverMaxPx) or BuildMesh3D at one vertex per cell (3D: maxW is
// RiverMaxWidth) draws them: a disc on every cell whose drainage area is
// at least thr and, when lakes are drawn, that holds no water; 1 wide at
// the threshold, 1.5 wider per decade, at most maxW.
func RiverDiscs(dst []Disc, s *engine.Snapshot, thr, maxW float64, lakes bool) []Disc {
	dst = dst[:0]
	if len(s.Area) != s.W*s.H {
		return dst
	}
	var water []float32
	if lakes && len(s.Water) == len(s.Area) {
		water = s.Water
	}
	logThr := math.Log10(thr)
	t32 := float32(thr)
	for i, a := range s.Area {
		if !(a >= t32) || !(float64(a) >= thr) || (water != nil && water[i] > 0) {
			continue
		}
		la := math.Log10(float64(a))
		width := 1 + riverPxPerDecade*float32(la-logThr)
		rad := min(width, float32(maxW)) / 2
		dst = append(dst, Disc{X: int32(i % s.W), Y: int32(i / s.W), Rho: rad + 0.5,
			T: float32(min(max((la-logThr)/riverDecadesToDeep, 0), 1))})
	}
	return dst
}
