package viewer

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"orogen/sim/enum"
)

// Overlay selects the field drawn over the relief.
type Overlay uint8

// Overlays.
const (
	OverlayNone Overlay = iota
	// OverlayUplift shows s.Uplift (m/yr) from violet at 0 to pale yellow
	// at the largest, or blue-white-red around 0 when some is negative.
	// A snapshot without uplift shows none.
	OverlayUplift
	// OverlayDrainage shows log10 of the drainage area, from pale at one
	// cell's area to navy at the largest.
	OverlayDrainage
	// OverlaySlope shows the steepest-descent slope, from green at 0° to
	// dark red at 60° and more.
	OverlaySlope
	// OverlaySediment shows s.Sediment (suspended sediment of the
	// hydraulic engine, m) from pale at 0 to dark brown at the largest;
	// OverlayHardness shows s.Hardness from pale green (0, soft) to slate
	// (1, hard). Snapshots without them show none.
	OverlaySediment
	OverlayHardness
	// OverlayRidges marks the ridge lines: cells that no other cell drains
	// into (no donors, Roudier et al. 1993 §4.1), from s.Receivers.
	// OverlayStreams marks the stream network, the cells whose drainage
	// area reaches RiverThresholdM2, as lines one cell wide (Roudier et al.
	// 1993 draw it so). Only the marked cells are tinted.
	OverlayRidges
	OverlayStreams
	numOverlays
)

var overlayNames = [numOverlays]string{"none", "uplift", "drainage", "slope", "sediment", "hardness", "ridges", "streams"}

// OverlayNames lists the names ParseOverlay accepts, in Overlay order.
func OverlayNames() []string { return slices.Clone(overlayNames[:]) }

// String returns the overlay's name: "none", "uplift", "drainage", "slope".
func (v Overlay) String() string { return enum.Name(overlayNames[:], v) }

// ParseOverlay returns the overlay named name (case-insensitive; "" is none).
func ParseOverlay(name string) (Overlay, error) {
	if strings.TrimSpace(name) == "" {
		return OverlayNone, nil
	}
	v, err := enum.ParseFold[Overlay]("overlay", overlayNames[:], name)
	if err != nil {
		return OverlayNone, fmt.Errorf("viewer: %w", err)
	}
	return v, nil
}

// Options are everything that changes the picture Relief draws. Start from
// DefaultOptions: the zero value has no light and no exaggeration and does
// not validate.
type Options struct {
	// Light direction: azimuth clockwise from north (up the map), altitude
	// above the horizon. Default 315°, 45°: light from the north-west.
	LightAzimuthDeg, LightAltitudeDeg float64
	// Ambient is the light a cell facing away from the sun still gets, in
	// [0, 1], so shadows never go black. Default 0.3.
	Ambient float64
	// Exaggeration multiplies heights for the hillshade only. Default 1.
	Exaggeration float64
	// TintMinM and TintMaxM are the heights at the two ends of the
	// hypsometric tint; both 0 means the snapshot's own range.
	TintMinM, TintMaxM float64

	Rivers bool
	// Cells whose drainage area is at least RiverThresholdM2 are rivers,
	// drawn as discs 1 px wide at the threshold, widening with
	// log10(area / threshold) up to RiverMaxPx. Defaults 1e7 m², 4 px.
	RiverThresholdM2 float64
	RiverMaxPx       float64

	// Lakes fills cells with water (s.Water > 0) in blue, darker where deeper.
	Lakes bool

	Overlay      Overlay
	OverlayAlpha float64 // opacity of the overlay, [0, 1]; default 0.5

	// Rock colours the relief by the exposed rock (s.Rock, the layer
	// colours of s.Geology, shaded) instead of the hypsometric tint, when
	// the snapshot has a geology.
	Rock bool
}

// DefaultOptions returns the options of the app's 2D view and of the CLI's
// previews: NW light at 45°, no exaggeration, the snapshot's height range,
// rivers from 10 km² and lakes on, no overlay.
func DefaultOptions() Options {
	return Options{
		LightAzimuthDeg: 315, LightAltitudeDeg: 45, Ambient: 0.3,
		Exaggeration: 1,
		Rivers:       true, RiverThresholdM2: 1e7, RiverMaxPx: 4,
		Lakes:        true,
		OverlayAlpha: 0.5,
	}
}

// Limits of Validate.
const (
	maxExaggeration = 1000
	maxRiverPx      = 16
	maxAbsHeightM   = 1e7 // tint range: far beyond any planet's relief
)

// Validate returns an error naming the first field that is NaN, infinite or
// out of range.
func (o Options) Validate() error {
	bad := func(field string, v float64, want string) error {
		return fmt.Errorf("viewer: %s = %g: must be %s", field, v, want)
	}
	finite := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
	switch {
	case !finite(o.LightAzimuthDeg) || math.Abs(o.LightAzimuthDeg) > 360:
		return bad("LightAzimuthDeg", o.LightAzimuthDeg, "an angle in [-360, 360] degrees")
	case !(o.LightAltitudeDeg > 0 && o.LightAltitudeDeg <= 90):
		return bad("LightAltitudeDeg", o.LightAltitudeDeg, "an angle in (0, 90] degrees")
	case !(o.Ambient >= 0 && o.Ambient <= 1):
		return bad("Ambient", o.Ambient, "in [0, 1]")
	case !(o.Exaggeration > 0 && o.Exaggeration <= maxExaggeration):
		return bad("Exaggeration", o.Exaggeration, "in (0, 1000]")
	case !finite(o.TintMinM) || math.Abs(o.TintMinM) > maxAbsHeightM:
		return bad("TintMinM", o.TintMinM, "a finite height within ±1e7 m")
	case !finite(o.TintMaxM) || math.Abs(o.TintMaxM) > maxAbsHeightM:
		return bad("TintMaxM", o.TintMaxM, "a finite height within ±1e7 m")
	case !(o.TintMinM == 0 && o.TintMaxM == 0) && !(o.TintMinM < o.TintMaxM):
		return fmt.Errorf("viewer: TintMinM = %g, TintMaxM = %g: the minimum must be below the maximum (both 0 = the snapshot's range)", o.TintMinM, o.TintMaxM)
	case !(o.RiverThresholdM2 > 0) || math.IsInf(o.RiverThresholdM2, 0):
		return bad("RiverThresholdM2", o.RiverThresholdM2, "a positive finite area in m²")
	case !(o.RiverMaxPx >= 1 && o.RiverMaxPx <= maxRiverPx):
		return bad("RiverMaxPx", o.RiverMaxPx, "a width in [1, 16] pixels")
	case o.Overlay >= numOverlays:
		return fmt.Errorf("viewer: Overlay = %d: unknown overlay", uint8(o.Overlay))
	case !(o.OverlayAlpha >= 0 && o.OverlayAlpha <= 1):
		return bad("OverlayAlpha", o.OverlayAlpha, "an opacity in [0, 1]")
	}
	return nil
}

// keepValid applies to out, one at a time, each of sets that leaves it
// valid, so that Validate judges every field alone.
func keepValid[T interface{ Validate() error }](out T, sets []func(*T)) T {
	for _, set := range sets {
		p := out
		set(&p)
		if p.Validate() == nil {
			out = p
		}
	}
	return out
}

// sanitized returns o with every field that fails validation replaced by
// its default, so a slider gone wrong shows a picture instead of a crash.
func (o Options) sanitized() Options {
	if o.Validate() == nil {
		return o
	}
	out := DefaultOptions()
	out.Rivers, out.Lakes, out.Rock = o.Rivers, o.Lakes, o.Rock
	// Each field is tried alone on valid defaults, so Validate judges it
	// alone (the tint range is one field of two numbers).
	return keepValid(out, []func(*Options){
		func(p *Options) { p.LightAzimuthDeg = o.LightAzimuthDeg },
		func(p *Options) { p.LightAltitudeDeg = o.LightAltitudeDeg },
		func(p *Options) { p.Ambient = o.Ambient },
		func(p *Options) { p.Exaggeration = o.Exaggeration },
		func(p *Options) { p.TintMinM, p.TintMaxM = o.TintMinM, o.TintMaxM },
		func(p *Options) { p.RiverThresholdM2 = o.RiverThresholdM2 },
		func(p *Options) { p.RiverMaxPx = o.RiverMaxPx },
		func(p *Options) { p.Overlay = o.Overlay },
		func(p *Options) { p.OverlayAlpha = o.OverlayAlpha },
	})
}
