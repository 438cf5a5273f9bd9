package viewer

import (
	"math"
	"strconv"
)

// Zoom limits of a View, screen pixels per cell.
const (
	MinZoom = 1.0 / 64
	MaxZoom = 256
)

// View maps map coordinates (cells, see the package doc) to screen pixels:
// screen = (map - Center)·Zoom + screen centre. Zoom is screen pixels per
// cell. Views are values: every method returns a new one. The zero View
// (zoom 0) maps nothing: start from Fit.
type View struct{ CenterX, CenterY, Zoom float64 }

// Fit returns the view that shows a whole mapW × mapH map centred on a
// screenW × screenH screen, as large as fits (clamped to the zoom limits).
func Fit(mapW, mapH int, screenW, screenH float64) View {
	v := View{CenterX: float64(mapW) / 2, CenterY: float64(mapH) / 2, Zoom: 1}
	if mapW > 0 && mapH > 0 && screenW > 0 && screenH > 0 {
		v.Zoom = clampZoom(min(screenW/float64(mapW), screenH/float64(mapH)))
	}
	return v
}

// ToScreen returns the screen position of map point (mx, my).
func (v View) ToScreen(mx, my, screenW, screenH float64) (sx, sy float64) {
	return (mx-v.CenterX)*v.Zoom + screenW/2, (my-v.CenterY)*v.Zoom + screenH/2
}

// ToMap returns the map point at screen position (sx, sy).
func (v View) ToMap(sx, sy, screenW, screenH float64) (mx, my float64) {
	return (sx-screenW/2)/v.Zoom + v.CenterX, (sy-screenH/2)/v.Zoom + v.CenterY
}

// ZoomAt multiplies the zoom by factor (clamped to [MinZoom, MaxZoom]),
// keeping the map point under screen position (sx, sy) where it is: the
// wheel zooms around the cursor. A factor that is not positive and finite
// leaves the view unchanged.
func (v View) ZoomAt(sx, sy, factor, screenW, screenH float64) View {
	if !(factor > 0) || math.IsInf(factor, 0) {
		return v
	}
	mx, my := v.ToMap(sx, sy, screenW, screenH)
	z := clampZoom(v.Zoom * factor)
	return View{
		CenterX: mx - (sx-screenW/2)/z,
		CenterY: my - (sy-screenH/2)/z,
		Zoom:    z,
	}
}

// Pan moves the map by (dxScreen, dyScreen) screen pixels, as a drag does:
// the map point under the cursor follows it.
func (v View) Pan(dxScreen, dyScreen float64) View {
	v.CenterX -= dxScreen / v.Zoom
	v.CenterY -= dyScreen / v.Zoom
	return v
}

func clampZoom(z float64) float64 { return min(max(z, MinZoom), MaxZoom) }

// ScaleBar returns the longest scale bar of a 1, 2 or 5 × 10^k metres
// length that is at most maxPx screen pixels long, as its length in pixels
// and its label ("500 m", "2 km", "0.5 m"). metresPerScreenPx is the cell
// size divided by the zoom. It returns (0, "") when the arguments are not
// positive and finite.
func ScaleBar(metresPerScreenPx, maxPx float64) (px float64, label string) {
	if !(metresPerScreenPx > 0) || !(maxPx > 0) || math.IsInf(metresPerScreenPx, 0) || math.IsInf(maxPx, 0) {
		return 0, ""
	}
	limit := metresPerScreenPx * maxPx
	k := int(math.Floor(math.Log10(limit)))
	var m float64
	// Log10 may round across a power of ten: try the decade above too.
	for _, e := range []int{k + 1, k, k - 1} {
		for _, f := range []float64{5, 2, 1} {
			if l := f * math.Pow10(e); l <= limit && l > m {
				m = l
			}
		}
	}
	if m == 0 || math.IsInf(m, 0) {
		return 0, ""
	}
	px = m / metresPerScreenPx
	if px > maxPx { // rounding of the division
		px = maxPx
	}
	if m >= 1000 {
		return px, strconv.FormatFloat(m/1000, 'g', -1, 64) + " km"
	}
	return px, strconv.FormatFloat(m, 'g', -1, 64) + " m"
}
