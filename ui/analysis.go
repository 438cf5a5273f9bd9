package ui

import (
	"fmt"
	"image"
	"math"
	"strings"

	"github.com/AllenDang/cimgui-go/imgui"
	"github.com/AllenDang/cimgui-go/implot"
	"github.com/hajimehoshi/ebiten/v2"

	"orogen/app/analyst"
	"orogen/sim/analysis"
)

const winAnalysis = "Analysis"

// latin1 spells the signs of analysis texts that ImGui's default font
// (Latin-1) lacks.
var latin1 = strings.NewReplacer("θ", "theta", "–", "-", "≥", ">=", "≤", "<=", "−", "-", "·", "*")

// analysisUI is the Analysis window's state: the live analyst (started
// when the window or the basin overlay is first shown), the picked river
// and what is drawn of it. The analyses run on the analyst's goroutine;
// the frame only offers snapshots and reads the newest result.
type analysisUI struct {
	an      *analyst.Analyst
	shown   bool // the Analysis window is open
	basins  bool // the basin overlay is on
	picking bool // the next left click on the map picks a river

	cell    int           // the picked cell, -1 for none
	of      *analyst.Live // the analysis prof and longest come from
	prof    analysis.Profile
	longest analysis.Profile // the longest flow path of the picked cell's basin
	profKm  []float64        // prof's distances (km), heights (m), areas (km²) for ImPlot
	profH   []float64
	profA   []float64

	basinImg *ebiten.Image
	basinOf  *analyst.Live
	plot     plotCache
}

// plotCache holds the fit lines and the band of the newest analysis.
type plotCache struct {
	of                     *analyst.Live
	hackX, hackFit         []float64
	bandLo, bandHi         []float64
	saX, saFit, binA, binS []float64
	// Log axis ranges, whole decades around the points, at most
	// maxDecades wide: ImPlot labels every decade, and a near-flat
	// terrain's slopes could otherwise span hundreds.
	hackXr, hackYr, saXr, saYr [2]float64
}

const maxDecades = 8

// decades returns whole decades around the positive values of v (at most
// maxDecades, keeping the top ones).
func decades(v ...[]float64) [2]float64 {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range v {
		for _, x := range s {
			if x > 0 && !math.IsInf(x, 0) {
				lo, hi = math.Min(lo, x), math.Max(hi, x)
			}
		}
	}
	if lo > hi {
		return [2]float64{0.1, 10}
	}
	l, h := math.Floor(math.Log10(lo)), math.Ceil(math.Log10(hi))
	if h == l {
		h++
	}
	l = math.Max(l, h-maxDecades)
	return [2]float64{math.Pow(10, l), math.Pow(10, h)}
}

// logAxes sets up log x and y axes with fixed ranges.
func logAxes(xlabel, ylabel string, xr, yr [2]float64) {
	implot.SetupAxesV(xlabel, ylabel, 0, 0)
	implot.SetupAxisScalePlotScale(implot.AxisX1, implot.ScaleLog10)
	implot.SetupAxisScalePlotScale(implot.AxisY1, implot.ScaleLog10)
	implot.SetupAxisLimitsV(implot.AxisX1, xr[0], xr[1], implot.CondAlways)
	implot.SetupAxisLimitsV(implot.AxisY1, yr[0], yr[1], implot.CondAlways)
}

// syncAnalysis offers the newest snapshot while the panel or the overlay
// needs it, follows the picked river onto each new analysis, and uploads
// the basin picture. It runs in Update.
func (a *App) syncAnalysis() {
	u := &a.anl
	if !u.shown && !u.basins {
		return // nothing shows an analysis: no work
	}
	if u.an == nil {
		u.an = analyst.New(analyst.DefaultShare)
	}
	u.an.Offer(a.s.Snapshot())
	l := u.an.Latest()
	if l == nil || l.Result == nil {
		return
	}
	if u.cell >= 0 && u.of != l {
		if u.cell < len(l.Result.Tree.Rec) {
			a.setProfile(l)
		} else {
			u.cell = -1 // the grid changed size
		}
	}
	if u.basins && u.basinOf != l {
		b := l.Basins.Bounds()
		if u.basinImg == nil || u.basinImg.Bounds() != b {
			if u.basinImg != nil {
				u.basinImg.Deallocate()
			}
			u.basinImg = ebiten.NewImage(b.Dx(), b.Dy())
		}
		u.basinImg.WritePixels(l.Basins.Pix)
		u.basinOf = l
	}
}

// setProfile computes the picked river's profile on analysis l.
func (a *App) setProfile(l *analyst.Live) {
	u := &a.anl
	r := l.Result
	u.of = l
	u.prof = r.Profile(u.cell)
	u.longest = r.Profile(int(u.prof.Cells[len(u.prof.Cells)-1]))
	n := len(u.prof.Cells)
	u.profKm, u.profH, u.profA = make([]float64, n), make([]float64, n), make([]float64, n)
	for k := range n {
		u.profKm[k] = u.prof.Dist[k] / 1e3
		u.profH[k] = float64(u.prof.Height[k])
		u.profA[k] = u.prof.Area[k] / 1e6
	}
}

// pickRiver picks the river through map point (mx, my), in cells: the
// river cell nearest to it within 3 cells, or the cell itself.
func (a *App) pickRiver(mx, my float64) error {
	s := a.s.Snapshot()
	x, y := int(math.Floor(mx)), int(math.Floor(my))
	if x < 0 || y < 0 || x >= s.W || y >= s.H {
		return fmt.Errorf("cell (%d, %d) is outside the %d×%d map", x, y, s.W, s.H)
	}
	u := &a.anl
	u.cell, u.of, u.shown = y*s.W+x, nil, true
	if u.an == nil {
		return nil
	}
	if l := u.an.Latest(); l != nil && l.Result != nil && l.Snap.W == s.W && l.Snap.H == s.H {
		best, bestD := u.cell, math.Inf(1)
		minArea := l.Result.MinArea * s.Cell * s.Cell
		for dy := -3; dy <= 3; dy++ {
			for dx := -3; dx <= 3; dx++ {
				cx, cy := x+dx, y+dy
				if cx < 0 || cy < 0 || cx >= s.W || cy >= s.H {
					continue
				}
				if d := math.Hypot(float64(dx), float64(dy)); l.Result.Area[cy*s.W+cx] >= minArea && d < bestD {
					best, bestD = cy*s.W+cx, d
				}
			}
		}
		u.cell = best
	}
	return nil
}

// analysisWindow is the Analysis panel: the figures, Hack's scatter with
// its fit and the accepted band, the slope–area plot, and the picked
// river's profile.
func (a *App) analysisWindow() {
	u := &a.anl
	if !u.shown {
		return
	}
	if !imgui.BeginV(winAnalysis, &u.shown, 0) {
		imgui.End()
		return
	}
	imgui.Checkbox("basins", &u.basins)
	if imgui.IsItemHovered() {
		tooltip("Colour the map by the outlet each cell drains to (basins of at least the river threshold).")
	}
	imgui.SameLine()
	label := "Pick a river"
	if u.picking {
		label = "Click a river on the map..."
	}
	if imgui.Button(label + "###pick") {
		u.picking = !u.picking
	}
	var l *analyst.Live
	if u.an != nil {
		l = u.an.Latest()
	}
	switch {
	case l == nil:
		textDisabled("Measuring the terrain...")
		imgui.End()
		return
	case l.Err != nil:
		textWrapped(fmt.Sprintf("Step %d: %v", l.Snap.Step, l.Err))
		imgui.End()
		return
	}
	r := l.Result
	textWrapped(fmt.Sprintf("step %d, measured in %.0f ms; rivers drain >= %g cells", l.Snap.Step, l.Took.Seconds()*1e3, r.MinArea))
	if h := r.Hack; h != nil {
		textWrapped(fmt.Sprintf("Hack       h %.3f   c %.2f   r² %.3f   (%d cells)", h.H, h.C, h.R2, h.Points))
	}
	if s := r.SlopeA; s != nil {
		ks := fmt.Sprintf("k_s %.3g", s.Ks)
		if math.IsNaN(s.Ks) {
			ks = fmt.Sprintf("log10 k_s %.1f", s.Log10Ks)
		}
		textWrapped(fmt.Sprintf("slope-area theta %.3f   %s   r² %.3f", s.Concavity, ks, s.R2))
	}
	if c := r.Chi; c != nil {
		textWrapped(fmt.Sprintf("concavity  theta %.3f by chi, median of %d basins (%.2f-%.2f), misfit %.3f", c.Concavity, len(c.Basins), c.Q1, c.Q3, c.Misfit))
	} else if r.ChiErr != "" {
		textWrapped("concavity  " + r.ChiErr)
	}
	if c := r.Channels; c != nil {
		textWrapped(fmt.Sprintf("channels   slope-area theta %.3f   r² %.3f   (%d cells draining >= %g cells)", c.Concavity, c.R2, c.Points, r.ChannelArea))
	}
	d := r.Drainage
	textWrapped(fmt.Sprintf("%d pits, %.1f %% drains off the map, %d outlets, %d cells of base-level plain", d.Pits, 100*d.ToEdge, d.Outlets, r.Base))
	textWrapped(fmt.Sprintf("relief %.0f m   hypsometric integral %.3f   mean slope %.1f°   density %.2f km/km²", r.Relief, r.Hypsometric, r.MeanSlope, r.Density))
	if re := r.Realism; re != nil {
		textWrapped(fmt.Sprintf("spike %.3g at %.2f°   planar %.2f %%   anisotropy %.3f   hilltops %.0f %% convex",
			re.Spike, re.Talus, 100*re.Planar, re.Anisotropy, 100*re.HilltopConvex))
	}
	good, bad := imgui.Vec4{X: 0.4, Y: 0.9, Z: 0.4, W: 1}, imgui.Vec4{X: 1, Y: 0.6, Z: 0.3, W: 1}
	for _, c := range r.Verdict.Criteria {
		col := good
		if !c.Inside {
			col = bad
		}
		imgui.PushStyleColorVec4(imgui.ColText, col)
		textWrapped(latin1.Replace(c.Describe()))
		imgui.PopStyleColor()
	}
	col := good
	if !r.Verdict.Natural {
		col = bad
	}
	imgui.PushStyleColorVec4(imgui.ColText, col)
	textWrapped(latin1.Replace(strings.SplitN(r.Verdict.Line, ":", 2)[0]))
	imgui.PopStyleColor()
	a.analysisPlots(l)
	imgui.End()
}

func (a *App) analysisPlots(l *analyst.Live) {
	u := &a.anl
	r := l.Result
	c := &u.plot
	if c.of != l {
		*c = plotCache{of: l}
		c.hackX, c.hackFit, c.bandLo, c.bandHi = hackLines(r, l.HackA)
		c.saX, c.saFit = saLine(r, l.SlopeA)
		if s := r.SlopeA; s != nil {
			for _, b := range s.Bins {
				c.binA, c.binS = append(c.binA, b.Area), append(c.binS, b.Slope)
			}
		}
		c.hackXr, c.hackYr = decades(l.HackA), decades(l.HackL, c.hackFit)
		c.saXr, c.saYr = decades(l.SlopeA), decades(l.SlopeS, c.binS)
	}
	h := float32(260)
	if len(l.HackA) > 0 && implot.BeginPlotV("Hack's law##hack", vec2(-1, h), 0) {
		logAxes("area a (km²)", "longest flow length l (km)", c.hackXr, c.hackYr)
		if len(c.hackX) > 0 {
			implot.SetNextFillStyleV(imgui.Vec4{X: 0.35, Y: 0.7, Z: 0.35, W: 1}, 0.25)
			implot.PlotShadeddoublePtrdoublePtrdoublePtr("accepted (h 0.45-0.7, c 1-6)", &c.hackX[0], &c.bandLo[0], &c.bandHi[0], int32(len(c.hackX)))
		}
		dotStyle()
		implot.PlotScatterdoublePtrdoublePtr("river cells", &l.HackA[0], &l.HackL[0], int32(len(l.HackA)))
		if len(c.hackFit) > 0 {
			implot.SetNextLineStyleV(imgui.Vec4{X: 0.9, Y: 0.2, Z: 0.15, W: 1}, 2)
			implot.PlotLinedoublePtrdoublePtr("fit", &c.hackX[0], &c.hackFit[0], int32(len(c.hackX)))
		}
		implot.EndPlot()
	}
	if len(l.SlopeA) > 0 && implot.BeginPlotV("Slope-area##sa", vec2(-1, h), 0) {
		logAxes("area A (m²)", "slope S (m/m)", c.saXr, c.saYr)
		dotStyle()
		implot.PlotScatterdoublePtrdoublePtr("river cells", &l.SlopeA[0], &l.SlopeS[0], int32(len(l.SlopeA)))
		if len(c.binA) > 0 {
			implot.SetNextMarkerStyleV(implot.MarkerCircle, 4, imgui.Vec4{X: 1, Y: 0.6, Z: 0, W: 1}, 0, imgui.Vec4{X: 1, Y: 0.6, Z: 0, W: 1})
			implot.PlotScatterdoublePtrdoublePtr("medians", &c.binA[0], &c.binS[0], int32(len(c.binA)))
		}
		if len(c.saX) > 0 {
			implot.SetNextLineStyleV(imgui.Vec4{X: 0.9, Y: 0.2, Z: 0.15, W: 1}, 2)
			implot.PlotLinedoublePtrdoublePtr("fit", &c.saX[0], &c.saFit[0], int32(len(c.saX)))
		}
		implot.EndPlot()
	}
	imgui.SeparatorText("Longitudinal profile")
	if u.cell < 0 || len(u.profKm) == 0 {
		textDisabled("Pick a river, then click one on the map: its profile from source to outlet shows here.")
		return
	}
	n := len(u.profKm)
	imgui.TextUnformatted(fmt.Sprintf("%.1f km from source to outlet, %d cells, drop %.0f m, draining %.3g km² at the outlet",
		u.profKm[n-1], n, u.profH[0]-u.profH[n-1], u.profA[n-1]))
	if implot.BeginPlotV("##profile", vec2(-1, h), 0) {
		implot.SetupAxesV("distance from the source (km)", "height (m)", implot.AxisFlagsAutoFit, implot.AxisFlagsAutoFit)
		implot.SetupAxisV(implot.AxisY2, "drainage area (km²)", implot.AxisFlagsOpposite)
		implot.SetupAxisScalePlotScale(implot.AxisY2, implot.ScaleLog10)
		ar := decades(u.profA)
		implot.SetupAxisLimitsV(implot.AxisY2, ar[0], ar[1], implot.CondAlways)
		implot.SetAxes(implot.AxisX1, implot.AxisY1)
		implot.PlotLinedoublePtrdoublePtr("height", &u.profKm[0], &u.profH[0], int32(n))
		implot.SetAxes(implot.AxisX1, implot.AxisY2)
		implot.PlotLinedoublePtrdoublePtr("area", &u.profKm[0], &u.profA[0], int32(n))
		implot.EndPlot()
	}
}

// hackLines returns log-spaced areas over the scatter's range (km²), the
// fit there, and the accepted band (c in [1, 6], h in [0.45, 0.7]).
func hackLines(r *analysis.Result, as []float64) (xs, fit, lo, hi []float64) {
	a0, a1, ok := span(as)
	if !ok {
		return
	}
	for k := range 41 {
		x := a0 * math.Pow(a1/a0, float64(k)/40)
		xs = append(xs, x)
		p, q := math.Pow(x, analysis.HackRange[0]), math.Pow(x, analysis.HackRange[1])
		lo = append(lo, analysis.HackCoefRange[0]*math.Min(p, q))
		hi = append(hi, analysis.HackCoefRange[1]*math.Max(p, q))
		if h := r.Hack; h != nil {
			fit = append(fit, h.Length(x))
		}
	}
	return xs, fit, lo, hi
}

// saLine returns the slope–area fit over the scatter's range.
func saLine(r *analysis.Result, as []float64) (xs, fit []float64) {
	a0, a1, ok := span(as)
	s := r.SlopeA
	if !ok || s == nil {
		return nil, nil
	}
	for _, x := range []float64{a0, a1} {
		xs, fit = append(xs, x), append(fit, s.Slope(x))
	}
	return xs, fit
}

// dotStyle is the scatter's marker: a small filled square without an
// outline, 4 vertices a point.
func dotStyle() {
	c := imgui.Vec4{X: 0.3, Y: 0.5, Z: 0.9, W: 0.6}
	implot.SetNextMarkerStyleV(implot.MarkerSquare, 1.5, c, 0, c)
}

func span(v []float64) (lo, hi float64, ok bool) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, x := range v {
		if x > 0 {
			lo, hi = math.Min(lo, x), math.Max(hi, x)
		}
	}
	return lo, hi, lo < hi
}

// drawBasins draws the basin overlay over the map (in Draw).
func (a *App) drawBasins(dst *ebiten.Image) {
	u := &a.anl
	if !u.basins || u.basinImg == nil || u.basinOf == nil {
		return
	}
	op := &ebiten.DrawImageOptions{}
	op.GeoM.Scale(a.view.Zoom, a.view.Zoom)
	ox, oy := a.mapToScreen(0, 0)
	op.GeoM.Translate(ox, oy)
	op.Filter = ebiten.FilterNearest
	dst.DrawImage(u.basinImg, op)
}

// drawProfilePath draws the longest flow path of the picked river's basin
// (magenta) and the picked river from its source to the outlet (cyan).
func (a *App) drawProfilePath(dl *imgui.DrawList) {
	u := &a.anl
	if !u.shown || u.cell < 0 || u.of == nil {
		return
	}
	w := u.of.Snap.W
	line := func(cells []int32, col uint32, width float32) {
		for k := 1; k < len(cells); k++ {
			p, q := int(cells[k-1]), int(cells[k])
			ax, ay := a.mapToScreen(float64(p%w)+0.5, float64(p/w)+0.5)
			bx, by := a.mapToScreen(float64(q%w)+0.5, float64(q/w)+0.5)
			dl.AddLineV(vec2(float32(ax), float32(ay)), vec2(float32(bx), float32(by)), col, width)
		}
	}
	line(u.longest.Cells, rgba(230, 60, 220, 220), 3)
	line(u.prof.Cells, rgba(40, 230, 240, 255), 2)
	c := u.cell
	cx, cy := a.mapToScreen(float64(c%w)+0.5, float64(c/w)+0.5)
	dl.AddCircleV(vec2(float32(cx), float32(cy)), 5, rgba(255, 255, 255, 230), 0, 2)
}

// analysisFigures is the Analysis panel's part of the script report.
type analysisFigures struct {
	Step       int      `json:"step"`
	HackH      float64  `json:"hack_h"`
	HackC      *float64 `json:"hack_c"` // null where c is not finite (analysis.Hack.C)
	HackPoints int      `json:"hack_points"`
	Concavity  float64  `json:"concavity"`
	// The realism check: the concavity by χ (the verdict's) and by
	// slope–area on the channels, threshold spike, planar share, aspect
	// anisotropy, the verdict's criteria and how many are inside.
	ChiConcavity     float64 `json:"chi_concavity"`
	ChannelConcavity float64 `json:"channel_concavity"`
	Spike            float64 `json:"threshold_spike"`
	Planar           float64 `json:"planar_share"`
	Anisotropy       float64 `json:"anisotropy"`
	Criteria         int     `json:"criteria"`
	CriteriaInside   int     `json:"criteria_inside"`
	Natural          bool    `json:"natural"`
	ProfileCells     int     `json:"profile_cells"`
	ProfileKm        float64 `json:"profile_km"`
	ProfileRising    int     `json:"profile_area_decreases"` // steps where the area falls downstream: 0
	BasinPixels      int     `json:"basin_pixels"`
	Error            string  `json:"error,omitempty"`
}

func (a *App) analysisReport() *analysisFigures {
	u := &a.anl
	if u.an == nil {
		return nil
	}
	l := u.an.Latest()
	if l == nil {
		return nil
	}
	f := &analysisFigures{Step: l.Snap.Step}
	if l.Err != nil {
		f.Error = l.Err.Error()
		return f
	}
	r := l.Result
	if h := r.Hack; h != nil {
		f.HackH, f.HackPoints = h.H, h.Points
		if !math.IsNaN(h.C) {
			f.HackC = &h.C
		}
	}
	if s := r.SlopeA; s != nil {
		f.Concavity = s.Concavity
	}
	if c := r.Chi; c != nil {
		f.ChiConcavity = c.Concavity
	}
	if c := r.Channels; c != nil {
		f.ChannelConcavity = c.Concavity
	}
	if re := r.Realism; re != nil {
		f.Spike, f.Planar, f.Anisotropy = re.Spike, re.Planar, re.Anisotropy
	}
	f.Criteria, f.Natural = len(r.Verdict.Criteria), r.Verdict.Natural
	for _, c := range r.Verdict.Criteria {
		if c.Inside {
			f.CriteriaInside++
		}
	}
	if n := len(u.profKm); n > 0 {
		f.ProfileCells, f.ProfileKm = n, u.profKm[n-1]
		for k := 1; k < n; k++ {
			if u.profA[k] < u.profA[k-1] {
				f.ProfileRising++
			}
		}
	}
	if u.basins && u.basinOf != nil {
		f.BasinPixels = countOpaque(u.basinOf.Basins)
	}
	return f
}

func countOpaque(img *image.RGBA) int {
	n := 0
	for k := 3; k < len(img.Pix); k += 4 {
		if img.Pix[k] > 0 {
			n++
		}
	}
	return n
}

// profile is the `profile X Y` action: pick the river through cell (X, Y)
// and, in a script, wait until the terrain shown is analysed and the
// profile drawn from it.
func (a *App) profile(args []string) error {
	a.anl.shown = true
	if a.anl.an == nil {
		a.anl.an = analyst.New(analyst.DefaultShare)
	}
	x, y := num(args, 0)+0.5, num(args, 1)+0.5
	if err := a.pickRiver(x, y); err != nil {
		return err
	}
	a.waitFor("the terrain's analysis", func() bool {
		l := a.anl.an.Latest()
		if l == nil || l.Snap != a.s.Snapshot() {
			return false
		}
		if l.Err != nil || a.anl.of == l {
			if l.Err == nil {
				// The cell was picked before this analysis: pick again on it.
				_ = a.pickRiver(x, y)
				a.setProfile(l)
			}
			return true
		}
		return false
	})
	return nil
}
