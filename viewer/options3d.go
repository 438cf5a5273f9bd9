package viewer

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"orogen/sim/enum"
)

// ColorMode selects what colours the 3D surface.
type ColorMode uint8

// Colour modes.
const (
	// ColorHeight colours by height with the 2D view's hypsometric tint.
	ColorHeight ColorMode = iota
	// ColorSlope colours by slope, green at 0° to dark red at 60° and more
	// (the 2D slope overlay's ramp), from the gradient of the mesh.
	ColorSlope
	// ColorRock colours by the exposed rock (s.Rock, the layer colours of
	// s.Geology) at each vertex's centre cell; by height without a
	// geology.
	ColorRock
	numColorModes
)

var colorModeNames = [numColorModes]string{"height", "slope", "rock"}

// ColorModeNames lists the names ParseColorMode accepts, in ColorMode order.
func ColorModeNames() []string { return slices.Clone(colorModeNames[:]) }

// String returns the mode's name: "height", "slope" or "rock".
func (m ColorMode) String() string { return enum.Name(colorModeNames[:], m) }

// ParseColorMode returns the mode named name (case-insensitive; "" is
// height).
func ParseColorMode(name string) (ColorMode, error) {
	if strings.TrimSpace(name) == "" {
		return ColorHeight, nil
	}
	m, err := enum.ParseFold[ColorMode]("colour mode", colorModeNames[:], name)
	if err != nil {
		return ColorHeight, fmt.Errorf("viewer: %w", err)
	}
	return m, nil
}

// Limits of Options3D.
const (
	MinMesh3D     = 2    // smallest MaxMesh: one quad
	MaxMesh3D     = 2048 // largest MaxMesh
	maxRiverWidth = 16
)

// Options3D are everything that changes the 3D picture apart from the
// camera. Start from DefaultOptions3D: the zero value does not validate.
type Options3D struct {
	// Sun: azimuth clockwise from north, elevation above the horizon.
	// Default 315°, 35°: from the north-west, lower than the 2D view's
	// light so the relief reads at an angle.
	SunAzimuthDeg, SunElevationDeg float64
	// Ambient is the light a surface facing away from the sun (or in a
	// cast shadow) still gets, in [0, 1]. Default 0.3.
	Ambient float64
	// Shadows casts shadows along the sun direction (see BuildMesh3D).
	Shadows bool
	// Color selects the colouring: by height (default) or slope.
	Color ColorMode
	// Exaggeration multiplies heights (geometry, light and shadows; the
	// slope colours are of the true slope). Default 1.
	Exaggeration float64
	// TintMinM and TintMaxM are the heights at the two ends of the height
	// colours; both 0 means the snapshot's own range. A fixed range keeps
	// the colours still while the engine runs.
	TintMinM, TintMaxM float64
	// Wireframe draws every mesh edge as a dark line 1 pixel wide over the
	// surface (extra thin triangles in the draw list, after the quads they
	// border, so nearer quads still hide them). On a large mesh seen whole
	// the lines cover the picture: lower MaxMesh for a readable grid.
	Wireframe bool
	// UpliftAlpha is the opacity in [0, 1] of the uplift (s.Uplift) blended
	// over the surface colour, with the 2D uplift overlay's ramp; 0 is off.
	UpliftAlpha float64

	// Rivers tints the vertices whose footprint's largest drainage area is
	// at least RiverThresholdM2, as discs one mesh cell wide at the
	// threshold, widening by 1.5 cells per decade of area up to
	// RiverMaxWidth mesh cells, from light to deep blue as the area grows.
	// Defaults on, 1e7 m², 4.
	Rivers           bool
	RiverThresholdM2 float64
	RiverMaxWidth    float64

	// Lakes draws the cells with water (s.Water > 0) as flat water at their
	// spill level (height + water depth), blue, darker where deeper.
	Lakes bool

	// MaxMesh is the largest number of mesh vertices per side; larger
	// grids are decimated. Default 512, range [2, 2048].
	MaxMesh int
}

// DefaultOptions3D returns the options of the app's 3D view: sun from the
// north-west at 35°, ambient 0.3, no cast shadows, height colours, no
// exaggeration, rivers from 10 km² and lakes on, a mesh of up to 512².
func DefaultOptions3D() Options3D {
	return Options3D{
		SunAzimuthDeg: 315, SunElevationDeg: 35, Ambient: 0.3,
		Exaggeration: 1,
		Rivers:       true, RiverThresholdM2: 1e7, RiverMaxWidth: 4,
		Lakes:   true,
		MaxMesh: 512,
	}
}

// Validate returns an error naming the first field that is NaN, infinite or
// out of range.
func (o Options3D) Validate() error {
	bad := func(field string, v float64, want string) error {
		return fmt.Errorf("viewer: %s = %g: must be %s", field, v, want)
	}
	finite := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
	switch {
	case !finite(o.SunAzimuthDeg) || math.Abs(o.SunAzimuthDeg) > 360:
		return bad("SunAzimuthDeg", o.SunAzimuthDeg, "an angle in [-360, 360] degrees")
	case !(o.SunElevationDeg > 0 && o.SunElevationDeg <= 90):
		return bad("SunElevationDeg", o.SunElevationDeg, "an angle in (0, 90] degrees")
	case !(o.Ambient >= 0 && o.Ambient <= 1):
		return bad("Ambient", o.Ambient, "in [0, 1]")
	case o.Color >= numColorModes:
		return fmt.Errorf("viewer: Color = %d: unknown colour mode", uint8(o.Color))
	case !(o.Exaggeration > 0 && o.Exaggeration <= maxExaggeration):
		return bad("Exaggeration", o.Exaggeration, "in (0, 1000]")
	case !finite(o.TintMinM) || math.Abs(o.TintMinM) > maxAbsHeightM:
		return bad("TintMinM", o.TintMinM, "a finite height within ±1e7 m")
	case !finite(o.TintMaxM) || math.Abs(o.TintMaxM) > maxAbsHeightM:
		return bad("TintMaxM", o.TintMaxM, "a finite height within ±1e7 m")
	case !(o.TintMinM == 0 && o.TintMaxM == 0) && !(o.TintMinM < o.TintMaxM):
		return fmt.Errorf("viewer: TintMinM = %g, TintMaxM = %g: the minimum must be below the maximum (both 0 = the snapshot's range)", o.TintMinM, o.TintMaxM)
	case !(o.UpliftAlpha >= 0 && o.UpliftAlpha <= 1):
		return bad("UpliftAlpha", o.UpliftAlpha, "an opacity in [0, 1]")
	case !(o.RiverThresholdM2 > 0) || math.IsInf(o.RiverThresholdM2, 0):
		return bad("RiverThresholdM2", o.RiverThresholdM2, "a positive finite area in m²")
	case !(o.RiverMaxWidth >= 1 && o.RiverMaxWidth <= maxRiverWidth):
		return bad("RiverMaxWidth", o.RiverMaxWidth, "a width in [1, 16] mesh cells")
	case o.MaxMesh < MinMesh3D || o.MaxMesh > MaxMesh3D:
		return fmt.Errorf("viewer: MaxMesh = %d: must be in [%d, %d] vertices per side", o.MaxMesh, MinMesh3D, MaxMesh3D)
	}
	return nil
}

// sanitized returns o with every field that fails validation replaced by
// its default.
func (o Options3D) sanitized() Options3D {
	if o.Validate() == nil {
		return o
	}
	out := DefaultOptions3D()
	out.Shadows, out.Wireframe, out.Rivers, out.Lakes = o.Shadows, o.Wireframe, o.Rivers, o.Lakes
	return keepValid(out, []func(*Options3D){
		func(p *Options3D) { p.SunAzimuthDeg = o.SunAzimuthDeg },
		func(p *Options3D) { p.SunElevationDeg = o.SunElevationDeg },
		func(p *Options3D) { p.Ambient = o.Ambient },
		func(p *Options3D) { p.Color = o.Color },
		func(p *Options3D) { p.Exaggeration = o.Exaggeration },
		func(p *Options3D) { p.TintMinM, p.TintMaxM = o.TintMinM, o.TintMaxM },
		func(p *Options3D) { p.UpliftAlpha = o.UpliftAlpha },
		func(p *Options3D) { p.RiverThresholdM2 = o.RiverThresholdM2 },
		func(p *Options3D) { p.RiverMaxWidth = o.RiverMaxWidth },
		func(p *Options3D) { p.MaxMesh = o.MaxMesh },
	})
}
