package figure

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"math"

	"strings"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"

	"orogen/sim/analysis"
)

// Size of the analysis figure: three square-ish panels side by side.
const (
	Width  = 1500
	Height = 560
)

var (
	white  = color.RGBA{255, 255, 255, 255}
	ink    = color.RGBA{30, 30, 30, 255}
	grid   = color.RGBA{225, 225, 225, 255}
	dots   = color.RGBA{40, 90, 170, 255}
	fitCol = color.RGBA{200, 40, 30, 255}
	band   = color.RGBA{90, 170, 90, 255}
	median = color.RGBA{240, 140, 0, 255}
)

// Analysis returns the figure of r, titled title (the file name).
func Analysis(r *analysis.Result, title string) *image.RGBA {
	big := *basicfont.Face7x13 // the same font, drawn twice as large (scale)
	face, small := font.Face(&big), font.Face(basicfont.Face7x13)
	img := image.NewRGBA(image.Rect(0, 0, Width, Height))
	draw.Draw(img, img.Bounds(), image.NewUniform(white), image.Point{}, draw.Src)
	c := &canvas{img: img, face: face, small: small}
	c.text(20, 26, ink, face, fmt.Sprintf("%s: %d×%d cells of %g m, rivers drain ≥ %g cells", title, r.Width, r.Height, r.Cell, r.MinArea))
	c.text(20, Height-12, ink, small, r.Verdict.Line)
	w := Width / 3
	c.hack(r, image.Rect(70, 95, w-20, Height-90))
	c.slopeArea(r, image.Rect(w+70, 95, 2*w-20, Height-90))
	c.hypsometry(r, image.Rect(2*w+70, 95, 3*w-30, Height-90))
	return img
}

// ascii spells the few non-ASCII signs of the labels in the ASCII the
// bitmap font has.
var ascii = strings.NewReplacer("²", "^2", "θ", "theta", "≥", ">=", "–", "-", "−", "-", "·", "*", "×", "x", "↑ ", "")

type canvas struct {
	img         *image.RGBA
	face, small font.Face
}

// axes map data (log10 when logX/logY) into a rectangle of the picture.
type axes struct {
	r              image.Rectangle
	x0, x1, y0, y1 float64 // ranges, in log10 on log axes
	logX, logY     bool
}

func (a axes) px(x, y float64) (float64, float64, bool) {
	if a.logX {
		if !(x > 0) {
			return 0, 0, false
		}
		x = math.Log10(x)
	}
	if a.logY {
		if !(y > 0) {
			return 0, 0, false
		}
		y = math.Log10(y)
	}
	if x < a.x0 || x > a.x1 || y < a.y0 || y > a.y1 || math.IsNaN(x) || math.IsNaN(y) {
		return 0, 0, false
	}
	fx := float64(a.r.Min.X) + (x-a.x0)/(a.x1-a.x0)*float64(a.r.Dx())
	fy := float64(a.r.Max.Y) - (y-a.y0)/(a.y1-a.y0)*float64(a.r.Dy())
	return fx, fy, true
}

// logRange returns whole decades around the positive values of v.
func logRange(v ...[]float64) (lo, hi float64, ok bool) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, s := range v {
		for _, x := range s {
			if x > 0 && !math.IsInf(x, 0) {
				l := math.Log10(x)
				lo, hi = math.Min(lo, l), math.Max(hi, l)
			}
		}
	}
	if lo > hi {
		return 0, 1, false
	}
	lo, hi = math.Floor(lo), math.Ceil(hi)
	if hi == lo {
		hi++
	}
	return lo, hi, true
}

func (c *canvas) hack(r *analysis.Result, rect image.Rectangle) {
	riv := r.Rivers
	x0, x1, _ := logRange(riv.AreaKm)
	y0, y1, _ := logRange(riv.LenKm)
	a := axes{r: rect, x0: x0, x1: x1, y0: y0, y1: y1, logX: true, logY: true}
	c.frame(a, "drainage area a, km²", "longest flow length l, km", "Hack's law l = c·a^h")
	// The accepted band: c in [1, 6], h in [0.45, 0.7] (Schott et al. 2022).
	for px := rect.Min.X; px <= rect.Max.X; px++ {
		la := x0 + float64(px-rect.Min.X)/float64(rect.Dx())*(x1-x0)
		ar := math.Pow(10, la)
		lo := analysis.HackCoefRange[0] * math.Min(math.Pow(ar, analysis.HackRange[0]), math.Pow(ar, analysis.HackRange[1]))
		hi := analysis.HackCoefRange[1] * math.Max(math.Pow(ar, analysis.HackRange[0]), math.Pow(ar, analysis.HackRange[1]))
		_, ylo := a.clampY(lo)
		_, yhi := a.clampY(hi)
		for py := int(yhi); py <= int(ylo); py++ {
			c.blend(px, py, band, 50)
		}
	}
	for i := range riv.AreaKm {
		if x, y, ok := a.px(riv.AreaKm[i], riv.LenKm[i]); ok {
			c.dot(x, y, dots, 90)
		}
	}
	if h := r.Hack; h != nil {
		c.curve(a, h.Length, fitCol)
		c.legend(rect, []string{fmt.Sprintf("fit: h = %.3f, c = %.2f, r² = %.3f", h.H, h.C, h.R2),
			fmt.Sprintf("%d river cells", h.Points), "band: h 0.45–0.7, c 1–6"}, []color.RGBA{fitCol, dots, band})
	} else {
		c.legend(rect, []string{r.HackErr}, []color.RGBA{fitCol})
	}
}

// clampY returns the pixel row of data value y on a log y axis, clamped to
// the rectangle.
func (a axes) clampY(y float64) (float64, float64) {
	ly := math.Log10(y)
	ly = math.Max(a.y0, math.Min(a.y1, ly))
	return 0, float64(a.r.Max.Y) - (ly-a.y0)/(a.y1-a.y0)*float64(a.r.Dy())
}

func (c *canvas) slopeArea(r *analysis.Result, rect image.Rectangle) {
	riv := r.Rivers
	area := make([]float64, len(riv.AreaKm))
	for i, v := range riv.AreaKm {
		area[i] = v * 1e6
	}
	x0, x1, _ := logRange(area)
	y0, y1, _ := logRange(riv.Slope)
	a := axes{r: rect, x0: x0, x1: x1, y0: y0, y1: y1, logX: true, logY: true}
	c.frame(a, "drainage area A, m²", "slope S, m/m", "slope–area S = k_s·A^(−θ)")
	for i := range area {
		if x, y, ok := a.px(area[i], riv.Slope[i]); ok {
			c.dot(x, y, dots, 70)
		}
	}
	if s := r.SlopeA; s != nil {
		for _, b := range s.Bins {
			if x, y, ok := a.px(b.Area, b.Slope); ok {
				c.disc(x, y, 4, median)
			}
		}
		c.curve(a, s.Slope, fitCol)
		ks := fmt.Sprintf("k_s = %.3g", s.Ks)
		if math.IsNaN(s.Ks) {
			ks = fmt.Sprintf("log10 k_s = %.1f", s.Log10Ks)
		}
		c.legend(rect, []string{fmt.Sprintf("fit: θ = %.3f, %s, r² = %.3f", s.Concavity, ks, s.R2),
			fmt.Sprintf("%d river cells", s.Points), "medians, 10 bins a decade"}, []color.RGBA{fitCol, dots, median})
	} else {
		c.legend(rect, []string{r.SlopeErr}, []color.RGBA{fitCol})
	}
}

func (c *canvas) hypsometry(r *analysis.Result, rect image.Rectangle) {
	a := axes{r: rect, x0: 0, x1: 1, y0: 0, y1: 1}
	c.frame(a, "fraction of the area above, a/A", "relative height, (h − min)/relief", "hypsometric curve")
	n := len(r.HypsoCurve) - 1
	var px, py float64
	for k, frac := range r.HypsoCurve {
		x, y, _ := a.px(frac, float64(k)/float64(n))
		if k > 0 {
			c.line(px, py, x, y, fitCol)
		}
		px, py = x, y
	}
	c.legend(rect, []string{fmt.Sprintf("integral %.3f", r.Hypsometric), fmt.Sprintf("relief %.0f m", r.Relief)}, []color.RGBA{fitCol, ink})
}

// frame draws the grid, ticks, labels and title of a.
func (c *canvas) frame(a axes, xlabel, ylabel, title string) {
	r := a.r
	step := func(lo, hi float64, log bool) float64 {
		if log {
			return 1
		}
		return 0.2
	}
	label := func(v float64, log bool) string {
		if log {
			if e := int(math.Round(v)); e >= 4 || e <= -4 {
				return fmt.Sprintf("1e%d", e)
			}
			return fmt.Sprintf("%g", math.Pow(10, v))
		}
		return fmt.Sprintf("%.1f", v)
	}
	for v := a.x0; v <= a.x1+1e-9; v += step(a.x0, a.x1, a.logX) {
		x := float64(r.Min.X) + (v-a.x0)/(a.x1-a.x0)*float64(r.Dx())
		c.line(x, float64(r.Min.Y), x, float64(r.Max.Y), grid)
		s := label(v, a.logX)
		c.text(int(x)-c.width(c.small, s)/2, r.Max.Y+18, ink, c.small, s)
	}
	for v := a.y0; v <= a.y1+1e-9; v += step(a.y0, a.y1, a.logY) {
		y := float64(r.Max.Y) - (v-a.y0)/(a.y1-a.y0)*float64(r.Dy())
		c.line(float64(r.Min.X), y, float64(r.Max.X), y, grid)
		s := label(v, a.logY)
		c.text(r.Min.X-6-c.width(c.small, s), int(y)+5, ink, c.small, s)
	}
	x0, y0, x1, y1 := float64(r.Min.X), float64(r.Min.Y), float64(r.Max.X), float64(r.Max.Y)
	c.line(x0, y0, x1, y0, ink)
	c.line(x0, y1, x1, y1, ink)
	c.line(x0, y0, x0, y1, ink)
	c.line(x1, y0, x1, y1, ink)
	c.text(r.Min.X+(r.Dx()-c.width(c.face, title))/2, r.Min.Y-26, ink, c.face, title)
	c.text(r.Min.X+(r.Dx()-c.width(c.small, xlabel))/2, r.Max.Y+38, ink, c.small, xlabel)
	// The y label runs along the top left, above the tick labels.
	c.text(r.Min.X-60, r.Min.Y-6, ink, c.small, "↑ "+ylabel)
}

func (c *canvas) legend(r image.Rectangle, lines []string, cols []color.RGBA) {
	for i, s := range lines {
		y := r.Max.Y - 12 - 18*(len(lines)-1-i)
		x := r.Max.X - 10 - c.width(c.small, s)
		for yy := y - 12; yy < y+4; yy++ {
			for xx := x - 22; xx < r.Max.X-4; xx++ {
				c.blend(xx, yy, white, 200)
			}
		}
		c.disc(float64(x-12), float64(y-4), 4, cols[i])
		c.text(x, y, ink, c.small, s)
	}
}

func (c *canvas) width(f font.Face, s string) int {
	return font.MeasureString(f, ascii.Replace(s)).Ceil() * c.scale(f)
}

// scale is 2 for the title face (the bitmap font drawn twice as large), 1
// otherwise.
func (c *canvas) scale(f font.Face) int {
	if f == c.face {
		return 2
	}
	return 1
}

func (c *canvas) text(x, y int, col color.RGBA, f font.Face, s string) {
	s = ascii.Replace(s)
	k := c.scale(f)
	if k == 1 {
		d := font.Drawer{Dst: c.img, Src: image.NewUniform(col), Face: f, Dot: fixed.P(x, y)}
		d.DrawString(s)
		return
	}
	// Draw at 1× into a mask and copy it k× larger.
	w := font.MeasureString(f, s).Ceil()
	m := image.NewAlpha(image.Rect(0, 0, w, 16))
	d := font.Drawer{Dst: m, Src: image.Opaque, Face: f, Dot: fixed.P(0, 12)}
	d.DrawString(s)
	for yy := range 16 {
		for xx := range w {
			if a := m.AlphaAt(xx, yy).A; a > 0 {
				for dy := range k {
					for dx := range k {
						c.blend(x+xx*k+dx, y-12*k+yy*k+dy, col, uint32(a))
					}
				}
			}
		}
	}
}

// blend mixes col over the pixel at (x, y) with opacity alpha/255.
func (c *canvas) blend(x, y int, col color.RGBA, alpha uint32) {
	if !(image.Point{x, y}.In(c.img.Rect)) {
		return
	}
	i := c.img.PixOffset(x, y)
	p := c.img.Pix[i : i+4 : i+4]
	p[0] = uint8((uint32(p[0])*(255-alpha) + uint32(col.R)*alpha) / 255)
	p[1] = uint8((uint32(p[1])*(255-alpha) + uint32(col.G)*alpha) / 255)
	p[2] = uint8((uint32(p[2])*(255-alpha) + uint32(col.B)*alpha) / 255)
	p[3] = 255
}

// dot is a 2×2 translucent point.
func (c *canvas) dot(x, y float64, col color.RGBA, alpha uint32) {
	ix, iy := int(x), int(y)
	for _, d := range [4][2]int{{0, 0}, {1, 0}, {0, 1}, {1, 1}} {
		c.blend(ix+d[0], iy+d[1], col, alpha)
	}
}

func (c *canvas) disc(x, y, rad float64, col color.RGBA) {
	for yy := int(y - rad); yy <= int(y+rad); yy++ {
		for xx := int(x - rad); xx <= int(x+rad); xx++ {
			if math.Hypot(float64(xx)-x, float64(yy)-y) <= rad {
				c.blend(xx, yy, col, 255)
			}
		}
	}
}

// line draws a 2-pixel line from (x0, y0) to (x1, y1).
func (c *canvas) line(x0, y0, x1, y1 float64, col color.RGBA) {
	n := int(math.Max(math.Abs(x1-x0), math.Abs(y1-y0))) + 1
	for k := 0; k <= n; k++ {
		t := float64(k) / float64(n)
		x, y := x0+t*(x1-x0), y0+t*(y1-y0)
		c.blend(int(x), int(y), col, 255)
		if col != grid {
			c.blend(int(x)+1, int(y), col, 160)
		}
	}
}

// curve draws y = f(x) across a's log x range.
func (c *canvas) curve(a axes, f func(float64) float64, col color.RGBA) {
	var px, py float64
	have := false
	for k := 0; k <= a.r.Dx(); k += 2 {
		lx := a.x0 + float64(k)/float64(a.r.Dx())*(a.x1-a.x0)
		x, y, ok := a.px(math.Pow(10, lx), f(math.Pow(10, lx)))
		if ok && have {
			c.line(px, py, x, y, col)
		}
		px, py, have = x, y, ok
	}
}
