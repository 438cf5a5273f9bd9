package uplifttree

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"orogen/sim"
)

// Random trees and edits for the tests. The world of the tests is a
// 10 km square; shapes spill a little beyond it.

const world = 10000.0

func rnd(r *rand.Rand, lo, hi float64) float64 { return lo + (hi-lo)*r.Float64() }

func randPoint(r *rand.Rand) Point {
	return Point{rnd(r, -1000, world+1000), rnd(r, -1000, world+1000)}
}

// randTs returns n strictly increasing parameters in [0, 1].
func randTs(r *rand.Rand, n int) []float64 {
	ts := make([]float64, 0, n)
	for len(ts) < n {
		t := r.Float64()
		if r.IntN(4) == 0 {
			t = float64(r.IntN(2)) // the ends, often
		}
		if !slices.Contains(ts, t) {
			ts = append(ts, t)
		}
	}
	slices.Sort(ts)
	return ts
}

func randCtrls(r *rand.Rand, rlo, rhi, ulo, uhi float64) []Ctrl {
	var cs []Ctrl
	for _, t := range randTs(r, 1+r.IntN(4)) {
		cs = append(cs, Ctrl{T: t, R: rnd(r, rlo, rhi), U: rnd(r, ulo, uhi)})
	}
	return cs
}

func randFrame(r *rand.Rand) Frame {
	f := Frame{
		Translate: Point{rnd(r, -2000, 2000), rnd(r, -2000, 2000)},
		Rotate:    rnd(r, -180, 180),
		Scale:     Point{rnd(r, 0.5, 2), rnd(r, 0.5, 2)},
		Pivot:     randPoint(r),
	}
	if r.IntN(3) == 0 {
		f.Scale.Y = -f.Scale.Y // mirrored
	}
	return f
}

var (
	leafTypes = []string{TypeDisc, TypeSegment, TypeCurve, TypeValley, TypeRegion, TypeNoise, TypeRaster}
	groupOps  = []string{TypeSum, TypeMax, TypeMin, TypeBlend}
	wrapOps   = []string{TypeScale, TypeTransform, TypeFold, TypeFault, TypeNoiseWarp, TypeClamp, TypeMix}
)

// randShape returns a valid shape of type typ with random parameters.
func randShape(r *rand.Rand, typ string) Shape {
	switch typ {
	case TypeDisc:
		return &Disc{Center: randPoint(r), Radius: rnd(r, 200, 2500), Value: rnd(r, -0.3, 1)}
	case TypeSegment:
		return &Segment{A: randPoint(r), B: randPoint(r), Ctrls: randCtrls(r, 100, 1500, -0.2, 1)}
	case TypeCurve:
		n := 2 + r.IntN(5)
		p := randPoint(r)
		var vs []Vertex
		for range n {
			vs = append(vs, Vertex{p.X, p.Y, rnd(r, 150, 1200), rnd(r, 0, 1)})
			p.X += rnd(r, -3000, 3000)
			p.Y += rnd(r, -3000, 3000)
		}
		return &Curve{Vertices: vs, Blend: rnd(r, 0, 0.3)}
	case TypeValley:
		return &Valley{A: randPoint(r), B: randPoint(r), Ctrls: randCtrls(r, 100, 1000, 0, 0.4), Outside: rnd(r, 0.5, 1.2)}
	case TypeRegion:
		c := randPoint(r)
		n := 3 + r.IntN(6)
		var poly []Point
		for i := range n {
			a := (float64(i) + rnd(r, 0, 0.8)) * 2 * math.Pi / float64(n)
			d := rnd(r, 300, 3000)
			poly = append(poly, Point{c.X + d*math.Cos(a), c.Y + d*math.Sin(a)})
		}
		if r.IntN(4) == 0 {
			poly[0], poly[1] = poly[1], poly[0] // sometimes self-intersecting
		}
		return &Region{Polygon: poly, Border: rnd(r, 0, 800) * float64(r.IntN(2)), Value: rnd(r, -0.3, 1)}
	case TypeNoise:
		return &Noise{Seed: r.Uint64(), Frequency: 1 / rnd(r, 500, 4000), Octaves: 1 + r.IntN(3),
			Persistence: rnd(r, 0.3, 0.7), Lacunarity: rnd(r, 1.5, 2.5), Amplitude: rnd(r, 0, 0.3), Offset: rnd(r, -0.1, 0.1)}
	case TypeRaster:
		p := randPoint(r)
		return &Raster{Layer: []string{"a", "b"}[r.IntN(2)],
			Rect: Rect{p.X, p.Y, p.X + rnd(r, 500, 6000), p.Y + rnd(r, 500, 6000)}, Value: rnd(r, -0.5, 1)}
	case TypeSum:
		return &Sum{}
	case TypeMax:
		return &Max{}
	case TypeMin:
		return &Min{}
	case TypeBlend:
		return &Blend{Mode: []string{"max", "min"}[r.IntN(2)], Radius: rnd(r, 0, 0.4)}
	case TypeMix:
		return &Mix{A: randPoint(r), B: randPoint(r)}
	case TypeScale:
		return &Scale{Factor: rnd(r, -1, 2)}
	case TypeTransform:
		return &Transform{Frame: randFrame(r)}
	case TypeFold:
		return &Fold{Angle: rnd(r, -180, 180), Amplitude: rnd(r, -600, 600), Wavelength: rnd(r, 500, 5000), Phase: rnd(r, 0, 360)}
	case TypeFault:
		return &Fault{Point: randPoint(r), Angle: rnd(r, -180, 180), Offset: Point{rnd(r, -1500, 1500), rnd(r, -1500, 1500)},
			Width: rnd(r, 0, 600) * float64(r.IntN(2))}
	case TypeNoiseWarp:
		return &NoiseWarp{Seed: r.Uint64(), Frequency: 1 / rnd(r, 1000, 5000), Octaves: 1 + r.IntN(2),
			Persistence: 0.5, Lacunarity: 2, Amplitude: rnd(r, 0, 500)}
	case TypeClamp:
		lo := rnd(r, -0.2, 0.3)
		return &Clamp{Lo: lo, Hi: lo + rnd(r, 0, 1)}
	}
	panic("randShape: " + typ)
}

// groups returns the nodes that accept any number of children.
func groups(t *Tree) []ID {
	var out []ID
	for _, id := range t.IDs() {
		if _, hi := childRange(t.nodes[id].shape); hi < 0 {
			out = append(out, id)
		}
	}
	return out
}

func pickID(r *rand.Rand, ids []ID) ID { return ids[r.IntN(len(ids))] }

// randLeafType favours the cheap primitives: noise is rare.
func randLeafType(r *rand.Rand) string {
	if r.IntN(25) == 0 {
		return TypeNoise
	}
	if t := leafTypes[r.IntN(len(leafTypes))]; t != TypeNoise {
		return t
	}
	return TypeDisc
}

// randTree builds a tree of about n nodes by random edits, every node type
// included.
func randTree(tb testing.TB, r *rand.Rand, n int) *Tree {
	tb.Helper()
	t := New()
	must := func(e *Edit, err error) *Edit {
		tb.Helper()
		if err != nil {
			tb.Fatal(err)
		}
		return e
	}
	// One of each type first.
	var last ID
	for _, typ := range append(slices.Clone(leafTypes), groupOps...) {
		last = must(t.Add(pickID(r, groups(t)), -1, randShape(r, typ))).Node()
	}
	for _, typ := range wrapOps {
		must(t.Wrap(last, randShape(r, typ)))
	}
	for _, g := range groups(t) {
		if _, err := t.Add(g, -1, &Instance{Ref: last, Frame: randFrame(r)}); err == nil {
			break
		}
	}
	for tries := 0; t.Len() < n && tries < 20*n; tries++ {
		randGrow(r, t)
	}
	return t
}

// randGrow makes one random growing edit; it may fail and do nothing.
func randGrow(r *rand.Rand, t *Tree) (*Edit, error) {
	ids := t.IDs()
	switch x := r.IntN(100); {
	case x < 62:
		return t.Add(pickID(r, groups(t)), r.IntN(3)-1, randShape(r, randLeafType(r)))
	case x < 72:
		return t.Add(pickID(r, groups(t)), -1, randShape(r, groupOps[r.IntN(len(groupOps))]))
	case x < 90:
		id := pickID(r, ids)
		e, err := t.Wrap(id, randShape(r, wrapOps[r.IntN(len(wrapOps))]))
		if err == nil {
			_, scale := t.nodes[e.Node()].shape.(*Scale)
			_, mix := t.nodes[e.Node()].shape.(*Mix)
			if (scale || mix) && r.IntN(2) == 0 {
				return t.Add(e.Node(), r.IntN(2), randShape(r, randLeafType(r)))
			}
		}
		return e, err
	default:
		// Instances of small subtrees keep evaluation cheap.
		var small []ID
		for _, id := range ids {
			if len(t.subtree(id)) <= 8 {
				small = append(small, id)
			}
		}
		return t.Add(pickID(r, groups(t)), -1, &Instance{Ref: pickID(r, small), Frame: randFrame(r)})
	}
}

// perturb returns a new value for parameter p, near its current one.
func perturb(r *rand.Rand, t *Tree, p param) any {
	jit := func(v float64) float64 { return v*(1+0.3*r.NormFloat64()) + 0.05*r.NormFloat64() }
	jp := func(q Point) Point { return Point{q.X + 800*r.NormFloat64(), q.Y + 800*r.NormFloat64()} }
	switch v := p.get().(type) {
	case float64:
		return jit(v)
	case int:
		return 1 + r.IntN(3)
	case uint64:
		return r.Uint64()
	case Point:
		if p.name == "scale" {
			return Point{rnd(r, 0.5, 2), rnd(r, -2, 2)}
		}
		return jp(v)
	case []Point:
		for i := range v {
			v[i] = jp(v[i])
		}
		return v
	case []Ctrl:
		for i := range v {
			v[i].R, v[i].U = math.Abs(jit(v[i].R)), jit(v[i].U)
		}
		return v
	case []Vertex:
		for i := range v {
			v[i].X, v[i].Y = v[i].X+500*r.NormFloat64(), v[i].Y+500*r.NormFloat64()
			v[i].R, v[i].U = math.Abs(jit(v[i].R)), jit(v[i].U)
		}
		return v
	case Rect:
		d := jp(Point{})
		return Rect{v.X0 + d.X, v.Y0 + d.Y, v.X1 + d.X, v.Y1 + d.Y}
	case string:
		if p.name == "mode" {
			return []string{"max", "min"}[r.IntN(2)]
		}
		return []string{"a", "b", "c"}[r.IntN(3)]
	case ID:
		return pickID(r, t.IDs())
	}
	panic("perturb")
}

// randEdit makes one random edit of any kind, retrying until one is valid.
func randEdit(tb testing.TB, r *rand.Rand, t *Tree) (*Edit, string) {
	tb.Helper()
	for range 1000 {
		ids := t.IDs()
		id := pickID(r, ids)
		var (
			e    *Edit
			err  error
			kind string
		)
		switch x := r.IntN(100); {
		case x < 35:
			kind = "setparam"
			ps := t.nodes[id].shape.params()
			if len(ps) == 0 {
				continue
			}
			p := ps[r.IntN(len(ps))]
			e, err = t.SetParam(id, p.name, perturb(r, t, p))
		case x < 50:
			kind = "add/wrap"
			e, err = randGrow(r, t)
		case x < 65:
			kind = "remove"
			e, err = t.Remove(id)
		case x < 85:
			kind = "move"
			gs := groups(t)
			if r.IntN(3) == 0 {
				if p := t.Parent(id); p != 0 {
					gs = []ID{p} // reorder
				}
			}
			e, err = t.Move(id, pickID(r, gs), r.IntN(4)-1)
		default:
			kind = "unwrap"
			e, err = t.Unwrap(id)
		}
		if err == nil {
			return e, kind
		}
	}
	tb.Fatal("no valid random edit in 1000 tries")
	return nil, ""
}

// testLayers returns the layers "a" and "b" the random Raster nodes read
// (layer "c" stays missing).
func testLayers() LayerMap {
	r := rand.New(rand.NewPCG(5, 5))
	a := sim.NewField(16, 16, 1)
	b := sim.NewField(24, 12, 1)
	for _, f := range []*sim.Field{a, b} {
		for i := range f.Data {
			f.Data[i] = float32(r.Float64())
		}
	}
	return LayerMap{"a": a, "b": b}
}

// raster rasterizes t to an n×n field over the test world.
func raster(t *Tree, n int, l Layers) *sim.Field {
	f := sim.NewField(n, n, world/float64(n))
	return t.Rasterize(f, Domain(f), l)
}

// fieldBytes returns the exact bytes of f's data.
func fieldBytes(f *sim.Field) []byte {
	b := make([]byte, 4*len(f.Data))
	for i, v := range f.Data {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(v))
	}
	return b
}

// firstDiff returns the first cell where f and g differ in bits, or −1.
func firstDiff(f, g *sim.Field) int {
	if bytes.Equal(fieldBytes(f), fieldBytes(g)) {
		return -1
	}
	for i := range f.Data {
		if math.Float32bits(f.Data[i]) != math.Float32bits(g.Data[i]) {
			return i
		}
	}
	return -1
}

func mustJSON(tb testing.TB, t *Tree) []byte {
	tb.Helper()
	b, err := Marshal(t)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// TestRandTreeCoversEveryType guards the generator the round-trip, fuzz
// and edit tests rely on: a 300-node random tree holds every node type, so
// those tests exercise them all.
func TestRandTreeCoversEveryType(t *testing.T) {
	tree := randTree(t, rand.New(rand.NewPCG(1, 1)), 300)
	seen := map[string]bool{}
	for _, id := range tree.IDs() {
		n, _ := tree.Node(id)
		seen[n.Shape.Type()] = true
	}
	for _, typ := range AllTypes() {
		if !seen[typ] {
			t.Errorf("a 300-node random tree has no %s node", typ)
		}
	}
}
