// Package projecttest makes random trees, layers and projects for the tests
// of package project and of the packages that use it (app/doc, app/prefs).
// Everything is drawn from the *rand.Rand given, so a fixed seed gives a
// fixed project.
package projecttest

import (
	"fmt"
	"math"
	"math/rand/v2"

	"orogen/app/engines"
	"orogen/app/project"
	"orogen/app/scene"
	"orogen/brushes"
	"orogen/sim"
	"orogen/sim/flow"
	"orogen/uplifttree"
)

func rnd(r *rand.Rand, lo, hi float64) float64 { return lo + (hi-lo)*r.Float64() }

// Tree returns a random tree of about n edits over the world rectangle w:
// every primitive and operator type, nested sums, maxima, minima and
// blends, warps and transforms wrapped around subtrees, instances, and
// Raster nodes reading the given layers over w. Edits the tree refuses
// (cycles, cost limits) are skipped.
func Tree(r *rand.Rand, w uplifttree.Rect, n int, layers []string) *uplifttree.Tree {
	t := uplifttree.New()
	containers := []uplifttree.ID{t.Root()}
	sx, sy := w.X1-w.X0, w.Y1-w.Y0
	pt := func() uplifttree.Point {
		return uplifttree.Point{X: w.X0 + rnd(r, -0.1, 1.1)*sx, Y: w.Y0 + rnd(r, -0.1, 1.1)*sy}
	}
	size := func() float64 { return rnd(r, 0.02, 0.3) * max(sx, sy) }
	ctrls := func(rmin float64) []uplifttree.Ctrl {
		k := 1 + r.IntN(3)
		cs := make([]uplifttree.Ctrl, k)
		for i := range cs {
			cs[i] = uplifttree.Ctrl{T: float64(i) / float64(max(1, k-1)), R: rmin + size(), U: rnd(r, 0, 1)}
		}
		if k == 1 {
			cs[0].T = rnd(r, 0, 1)
		}
		return cs
	}
	frame := func() uplifttree.Frame {
		return uplifttree.Frame{
			Translate: uplifttree.Point{X: rnd(r, -0.1, 0.1) * sx, Y: rnd(r, -0.1, 0.1) * sy},
			Rotate:    rnd(r, -180, 180), Scale: uplifttree.Point{X: rnd(r, 0.5, 2), Y: rnd(r, 0.5, 2)},
			Pivot: pt(),
		}
	}
	leaf := func() uplifttree.Shape {
		switch r.IntN(8) {
		case 0:
			return &uplifttree.Disc{Center: pt(), Radius: size(), Value: rnd(r, -0.5, 1)}
		case 1:
			return &uplifttree.Segment{A: pt(), B: pt(), Ctrls: ctrls(0)}
		case 2:
			vs := make([]uplifttree.Vertex, 2+r.IntN(4))
			for i := range vs {
				p := pt()
				vs[i] = uplifttree.Vertex{X: p.X + float64(i), Y: p.Y, R: size(), U: rnd(r, 0, 1)}
			}
			return &uplifttree.Curve{Vertices: vs, Blend: rnd(r, 0, 0.2)}
		case 3:
			return &uplifttree.Valley{A: pt(), B: pt(), Ctrls: ctrls(0), Outside: rnd(r, 0.5, 1)}
		case 4:
			c := pt()
			poly := make([]uplifttree.Point, 3+r.IntN(5))
			for i := range poly {
				a := 2 * math.Pi * float64(i) / float64(len(poly))
				d := size()
				poly[i] = uplifttree.Point{X: c.X + d*math.Cos(a), Y: c.Y + d*math.Sin(a)}
			}
			return &uplifttree.Region{Polygon: poly, Border: rnd(r, 0, 0.05) * sx, Value: rnd(r, 0, 1)}
		case 5:
			return &uplifttree.Noise{Seed: r.Uint64(), Frequency: rnd(r, 1, 8) / max(sx, sy), Octaves: 1 + r.IntN(4),
				Persistence: rnd(r, 0.3, 0.7), Lacunarity: rnd(r, 1.5, 2.5), Amplitude: rnd(r, 0, 0.3), Offset: rnd(r, -0.1, 0.1)}
		default:
			if len(layers) == 0 {
				return &uplifttree.Disc{Center: pt(), Radius: size(), Value: 1}
			}
			rect := w
			if r.IntN(3) == 0 {
				a, b := pt(), pt()
				rect = uplifttree.Rect{X0: min(a.X, b.X), Y0: min(a.Y, b.Y), X1: max(a.X, b.X) + 1, Y1: max(a.Y, b.Y) + 1}
			}
			return &uplifttree.Raster{Layer: layers[r.IntN(len(layers))], Rect: rect, Value: rnd(r, 0.2, 1.5)}
		}
	}
	container := func() uplifttree.Shape {
		switch r.IntN(4) {
		case 0:
			return &uplifttree.Sum{}
		case 1:
			return &uplifttree.Max{}
		case 2:
			return &uplifttree.Min{}
		}
		mode := "max"
		if r.IntN(2) == 0 {
			mode = "min"
		}
		return &uplifttree.Blend{Mode: mode, Radius: rnd(r, 0, 0.2)}
	}
	wrapper := func() uplifttree.Shape {
		switch r.IntN(6) {
		case 0:
			return &uplifttree.Transform{Frame: frame()}
		case 1:
			return &uplifttree.Fold{Angle: rnd(r, 0, 180), Amplitude: rnd(r, 0, 0.05) * sx, Wavelength: rnd(r, 0.1, 1) * sx, Phase: rnd(r, 0, 360)}
		case 2:
			return &uplifttree.Fault{Point: pt(), Angle: rnd(r, 0, 360), Offset: uplifttree.Point{X: rnd(r, -0.05, 0.05) * sx, Y: rnd(r, -0.05, 0.05) * sy}, Width: rnd(r, 0, 0.02) * sx}
		case 3:
			return &uplifttree.NoiseWarp{Seed: r.Uint64(), Frequency: rnd(r, 1, 4) / sx, Octaves: 1 + r.IntN(3), Persistence: 0.5, Lacunarity: 2, Amplitude: rnd(r, 0, 0.03) * sx}
		case 4:
			return &uplifttree.Clamp{Lo: rnd(r, -0.2, 0.1), Hi: rnd(r, 0.5, 1.2)}
		}
		return &uplifttree.Scale{Factor: rnd(r, 0.3, 1.5)}
	}
	for range n {
		parent := containers[r.IntN(len(containers))]
		switch k := r.IntN(10); {
		case k < 5:
			t.Add(parent, -1, leaf()) // a refusal changes nothing
		case k < 7:
			if e, err := t.Add(parent, -1, container()); err == nil {
				containers = append(containers, e.Node())
			}
		case k < 9:
			ids := t.IDs()
			t.Wrap(ids[r.IntN(len(ids))], wrapper())
		default:
			ids := t.IDs()
			t.Add(parent, -1, &uplifttree.Instance{Ref: ids[r.IntN(len(ids))], Frame: frame()})
		}
	}
	return t
}

// Field returns a w×h layer of random finite values, with a few of the
// awkward ones among them: −0, subnormals, the largest float32s.
func Field(r *rand.Rand, w, h int, cell float64) *sim.Field {
	f := sim.NewField(w, h, cell)
	odd := []float32{float32(math.Copysign(0, -1)), math.SmallestNonzeroFloat32, -math.SmallestNonzeroFloat32, math.MaxFloat32, -math.MaxFloat32, 1, 0}
	for i := range f.Data {
		if r.IntN(50) == 0 {
			f.Data[i] = odd[r.IntN(len(odd))]
		} else {
			f.Data[i] = float32(r.NormFloat64())
		}
	}
	return f
}

// Scene returns a valid random scene of a w×h grid with a random tree of
// about n edits reading the given layers.
func Scene(r *rand.Rand, w, h, n int, layers []string) *scene.Scene {
	sc := scene.Default()
	sc.Name = fmt.Sprintf("random %d", r.IntN(1000))
	sc.Description = "a random project « with » unicode"
	sc.Width, sc.Height = w, h
	sc.DomainM = rnd(r, 1000, 100000)
	kinds := engines.Kinds()
	sc.Engine = kinds[r.IntN(len(kinds))]
	sc.Seed = r.Uint64()
	sc.Steps = r.IntN(1000)
	sc.UntilConverged = r.IntN(2) == 0
	sc.ToleranceMPerYr = rnd(r, 1e-9, 1e-3)
	sc.Uplift.UmaxMPerYr = rnd(r, 1e-5, 1e-2)
	p := &sc.Params
	p.K = rnd(r, 1e-7, 1e-5)
	p.M = rnd(r, 0.3, 0.7)
	p.N = rnd(r, 0.5, 2)
	p.DtYr = rnd(r, 1e3, 1e6)
	p.DiffusionM2PerYr = rnd(r, 0, 1)
	switch r.IntN(4) {
	case 0:
		p.Talus = scene.Talus{Mode: "off"}
	case 1:
		p.Talus = scene.Talus{Mode: "constant", AngleDeg: rnd(r, 5, 60)}
	case 2:
		p.Talus = scene.Talus{Mode: "height", LowDeg: rnd(r, 10, 40), HighDeg: rnd(r, 20, 60), HeightM: rnd(r, 0, 3000), BlendM: rnd(r, 0, 500)}
	default:
		p.Talus = scene.Talus{Mode: "noise", MinDeg: rnd(r, 10, 20), MaxDeg: rnd(r, 30, 50), WavelengthM: rnd(r, 100, 5000), Octaves: 1 + r.IntN(6)}
	}
	sides := flow.BoundaryNames()
	ns := len(sides)
	p.Edges = scene.Edges{North: "outlet", South: sides[r.IntN(ns)], East: sides[r.IntN(ns)], West: sides[r.IntN(ns)]}
	p.NaturalDistanceM = rnd(r, 0, 1e4)
	p.InitNoiseM = rnd(r, 0, 5)
	sc.Uplift.Tree = Tree(r, project.World(sc), n, layers)
	return sc
}

// View returns random valid view settings.
func View(r *rand.Rand) project.View {
	v := project.DefaultView()
	v.Mode = []string{"2d", "3d"}[r.IntN(2)]
	v.CenterX, v.CenterY, v.Zoom = rnd(r, -10, 600), rnd(r, -10, 600), rnd(r, 0.1, 16)
	v.Overlay = []string{"none", "drainage", "water", "uplift"}[r.IntN(4)]
	v.RiverThresholdM2 = rnd(r, 0, 1e8)
	v.Rivers, v.Lakes = r.IntN(2) == 0, r.IntN(2) == 0
	v.TintMinM = rnd(r, -100, 0)
	v.TintMaxM = rnd(r, 0, 5000)
	v.Camera = project.Camera{Yaw: rnd(r, 0, 360), Pitch: rnd(r, 5, 89), Distance: rnd(r, 0.5, 3), Exaggeration: rnd(r, 0.5, 5)}
	b := brushes.Default(brushes.Kind(r.IntN(7)))
	b.Falloff = brushes.Falloff(r.IntN(3))
	b.Radius, b.Strength, b.Spacing = rnd(r, 1, 100), r.Float64(), rnd(r, 0.05, 1)
	b.Seed, b.NoiseScale, b.Octaves = r.Uint64(), rnd(r, 0, 50), r.IntN(8)
	v.Brush = project.SettingsOf(b)
	v.Extra = map[string]string{"panel.tree": "open", "last export": "/tmp/x.png"}
	return v
}

// Project returns a random self-contained project of a w×h grid: a random
// scene, a tree of about n edits, every layer it reads (and one it does
// not) filled with random values, and a random view.
func Project(r *rand.Rand, w, h, n int) *project.Project {
	names := []string{"paint", "base", "ridge 2"}
	sc := Scene(r, w, h, n, names)
	p := &project.Project{Scene: sc, Layers: map[string]*sim.Field{}, View: View(r)}
	for _, name := range append(names, "unused") {
		p.Layers[name] = Field(r, w, h, project.Cell(sc))
	}
	return p
}
