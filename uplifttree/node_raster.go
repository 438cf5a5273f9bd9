package uplifttree

import (
	"math"
	"unicode"
	"unicode/utf8"

	"orogen/sim"
)

// TypeRaster is the JSON type of a Raster.
const TypeRaster = "raster"

var rasterKind = kind{TypeRaster, func() Shape { return &Raster{Value: 1} }, 0, 0}

// Raster samples a named layer bilinearly over the world rectangle Rect
// (the layer's W×H cells tile Rect; cell centres interpolate, the border
// half-cells take the nearest edge value) and multiplies by Value. Outside
// Rect, or when the layer is missing, the value is 0. Layers are supplied
// at evaluation time (see Layers).
type Raster struct {
	Layer string
	Rect  Rect // X0 < X1, Y0 < Y1
	Value float64
}

// Layers supplies the raster layers that Raster nodes sample, by name.
// Layer returns nil for a name it does not know; such nodes evaluate to 0.
// Rasterize may call Layer from several goroutines at once.
type Layers interface {
	Layer(name string) *sim.Field
}

// LayerMap is the simplest Layers.
type LayerMap map[string]*sim.Field

// Layer returns m[name].
func (m LayerMap) Layer(name string) *sim.Field { return m[name] }

// lookupLayer returns the named layer, or nil when it is missing or not a
// usable field.
func lookupLayer(l Layers, name string) *sim.Field {
	if l == nil {
		return nil
	}
	f := l.Layer(name)
	if f == nil || f.W <= 0 || f.H <= 0 || len(f.Data) < f.W*f.H {
		return nil
	}
	return f
}

func (*Raster) Type() string   { return TypeRaster }
func (s *Raster) clone() Shape { c := *s; return &c }

func (s *Raster) params() []param {
	return []param{
		{"layer", ParamString, true, &s.Layer},
		{"rect", ParamRect, true, &s.Rect},
		{"value", ParamNumber, false, &s.Value},
	}
}

func (s *Raster) check() *fieldError {
	if e := checkLayerName(s.Layer); e != nil {
		return e
	}
	r := s.Rect
	if e := first(finite("rect", r.X0), finite("rect", r.Y0), finite("rect", r.X1), finite("rect", r.Y1)); e != nil {
		return e
	}
	if !(r.X0 < r.X1 && r.Y0 < r.Y1) {
		return ferr("rect", "must have x0 < x1 and y0 < y1, got [%g, %g, %g, %g]", r.X0, r.Y0, r.X1, r.Y1)
	}
	return finite("value", s.Value)
}

func checkLayerName(name string) *fieldError {
	if name == "" || len(name) > maxLayerLen || !utf8.ValidString(name) {
		return ferr("layer", "must be 1 to %d bytes of UTF-8, got %q", maxLayerLen, name)
	}
	for _, r := range name {
		if !unicode.IsPrint(r) {
			return ferr("layer", "must hold printable characters only, got %q", name)
		}
	}
	return nil
}

func (s *Raster) compile(h hdr, _ []enode, _ enode) enode {
	h.box = s.Rect.pad()
	h.lo, h.hi = math.Inf(-1), math.Inf(1)
	if s.Value == 0 {
		h.lo, h.hi = 0, 0
	}
	h.cost = 4
	return &eRaster{hdr: h, layer: s.Layer, rect: s.Rect, value: s.Value}
}

type eRaster struct {
	hdr
	layer string
	rect  Rect
	value float64
}

func (n *eRaster) eval(w *work, xs, ys []float64, _ Rect, dst []float64) {
	var f = lookupLayer(w.layers, n.layer)
	if f == nil {
		fill(dst, 0)
		return
	}
	r := n.rect
	sx := float64(f.W) / (r.X1 - r.X0)
	sy := float64(f.H) / (r.Y1 - r.Y0)
	for i := range dst {
		x, y := xs[i], ys[i]
		if !(x >= r.X0 && x <= r.X1 && y >= r.Y0 && y <= r.Y1) {
			dst[i] = 0
			continue
		}
		dst[i] = n.value * f.Sample((x-r.X0)*sx-0.5, (y-r.Y0)*sy-0.5)
	}
}

// place sets the node up as the app adds it: centred where at(0, 0) is,
// about size metres across (placer).
func (s *Raster) place(at func(x, y float64) Point, size float64, _ ID) {
	c := at(0, 0)
	s.Layer = "paint"
	s.Rect = Rect{X0: c.X - size, Y0: c.Y - size, X1: c.X + size, Y1: c.Y + size}
}
