package uplifttree

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// graft copies all of src into dst as a new child of parent (a group, or
// a scale with one child) and returns the copy's ID.
func graft(tb testing.TB, dst *Tree, parent ID, src *Tree) ID {
	tb.Helper()
	remap := map[ID]ID{}
	for _, id := range src.IDs() {
		remap[id] = dst.next
		dst.next++
	}
	for id, n := range src.nodes {
		s := n.shape.clone()
		if in, ok := s.(*Instance); ok {
			in.Ref = remap[in.Ref]
		}
		kids := make([]ID, len(n.children))
		for i, c := range n.children {
			kids[i] = remap[c]
		}
		dst.nodes[remap[id]] = &node{shape: s, children: kids}
	}
	p := dst.nodes[parent]
	dst.nodes[parent] = &node{shape: p.shape, children: append(slices.Clone(p.children), remap[src.root])}
	dst.an = nil
	if _, err := analyze(dst.nodes, dst.root, nil); err != nil {
		tb.Fatal(err)
	}
	return remap[src.root]
}

// withRoot returns a tree whose root is s over copies of the given trees.
func withRoot(tb testing.TB, s Shape, kids ...*Tree) *Tree {
	tb.Helper()
	t := &Tree{nodes: map[ID]*node{1: {shape: s}}, root: 1, next: 2}
	for _, k := range kids {
		graft(tb, t, 1, k)
	}
	return t
}

// sameAt evaluates trees at n random points of the test world (and a
// margin around it) and reports the first point where they differ by more
// than tol (bits, for tol 0).
func sameAt(t *testing.T, what string, r *rand.Rand, n int, tol float64, a, b *Tree) {
	t.Helper()
	for range n {
		x, y := rnd(r, -2000, world+2000), rnd(r, -2000, world+2000)
		va, vb := a.Eval(x, y), b.Eval(x, y)
		if tol == 0 && math.Float64bits(va) != math.Float64bits(vb) || math.Abs(va-vb) > tol {
			t.Fatalf("%s at (%g, %g): got %.17g; want %.17g (tolerance %g)", what, x, y, vb, va, tol)
		}
	}
}

// TestMaxMinLaws checks that max and min are commutative and associative.
// Both are exact operations on floats, so the values must agree to the
// bit.
func TestMaxMinLaws(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	for range 4 {
		a, b, c := randTree(t, r, 25), randTree(t, r, 25), randTree(t, r, 25)
		for _, op := range []func() Shape{func() Shape { return &Max{} }, func() Shape { return &Min{} }} {
			name := op().Type()
			sameAt(t, name+" commutes", r, 300, 0, withRoot(t, op(), a, b), withRoot(t, op(), b, a))
			left := withRoot(t, op(), withRoot(t, op(), a, b), c)
			right := withRoot(t, op(), a, withRoot(t, op(), b, c))
			flat := withRoot(t, op(), a, b, c)
			sameAt(t, name+" associates", r, 300, 0, left, right)
			sameAt(t, name+" flattens", r, 300, 0, left, flat)
		}
	}
}

// TestBlendLaws checks the smooth maximum and minimum.
func TestBlendLaws(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	// Blending identical inputs returns them exactly: smax(a, a) =
	// (a + a)·0.5 + 0, and doubling and halving are exact in binary
	// floating point.
	for range 4 {
		a := randTree(t, r, 30)
		for _, mode := range []string{"max", "min"} {
			b := &Blend{Mode: mode, Radius: rnd(r, 0, 0.5)}
			sameAt(t, "blend of copies ("+mode+")", r, 300, 0, a, withRoot(t, b, a, a))
			sameAt(t, "blend of three copies ("+mode+")", r, 100, 0, a, withRoot(t, b, a, a, a))
		}
	}
	for range 100000 {
		a, b, k := rnd(r, -2, 2), rnd(r, -2, 2), rnd(r, 0, 1)
		if r.IntN(10) == 0 {
			b = a + rnd(r, -1e-9, 1e-9)
		}
		s := smax(a, b, k)
		m := max(a, b)
		// The bound max − 2k/27 is attained at |a − b| = k/3; a few ulps
		// of rounding are allowed below it.
		if s > m || s < m-2*k/27-1e-15 {
			t.Fatalf("smax(%v, %v, %v) = %v outside [max − 2k/27, max]", a, b, k, s)
		}
		if math.Abs(a-b) >= k && s != m {
			t.Fatalf("smax(%v, %v, %v) = %v; want the exact max %v beyond the radius", a, b, k, s, m)
		}
		if s != smax(b, a, k) || smin(a, b, k) != smin(b, a, k) {
			t.Fatalf("blend of %v and %v does not commute", a, b)
		}
		if got := smin(a, b, k); got != -smax(-a, -b, k) {
			t.Fatalf("smin(%v, %v) = %v; want −smax(−a, −b)", a, b, got)
		}
	}
	// Slope continuity where the cubic meets max (|a − b| = k): the
	// derivative along b from either side agrees to O(h).
	k, a := 0.3, 1.0
	for _, d := range []float64{k, -k} {
		b := a - d
		const h = 1e-7
		left := (smax(a, b, k) - smax(a, b-h, k)) / h
		right := (smax(a, b+h, k) - smax(a, b, k)) / h
		if math.Abs(left-right) > 1e-5 {
			t.Errorf("smax slope at a − b = %v: %v from below, %v from above", d, left, right)
		}
	}
}

// smoothTree builds a random tree of primitives and operators that are
// smooth in space (no fault, hard region edge or raster), so that a tiny
// change of the sample point changes the value by a tiny amount.
func smoothTree(tb testing.TB, r *rand.Rand, n int) *Tree {
	tb.Helper()
	t := New()
	types := []string{TypeDisc, TypeSegment, TypeCurve, TypeValley, TypeRegion}
	for t.Len() < n {
		s := randShape(r, types[r.IntN(len(types))])
		if g, ok := s.(*Region); ok && g.Border == 0 {
			g.Border = 500
		}
		if _, err := t.Add(pickID(r, groups(t)), -1, s); err != nil {
			tb.Fatal(err)
		}
		if r.IntN(5) == 0 {
			ops := []string{TypeTransform, TypeFold, TypeNoiseWarp, TypeScale, TypeMax}
			if _, err := t.Wrap(pickID(r, t.IDs()), randShape(r, ops[r.IntN(len(ops))])); err != nil {
				tb.Fatal(err)
			}
		}
	}
	return t
}

// TestTransformInverse checks that a transform followed by its inverse is
// the identity. The two maps move the sample point by a few ulps of the
// coordinates (|p| ≤ 2·10⁴ m, scales 0.5 … 2: about 1e-11 m); the smooth
// test trees change by at most about 0.02 per metre (a falloff of radius
// ≥ 100 m, value ≤ 1, has slope ≤ 2.3/r; warps can double it), so values
// agree to 1e-12; the tolerance 1e-9 leaves a wide margin.
func TestTransformInverse(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	for range 6 {
		a := smoothTree(t, r, 30)
		f := randFrame(r)
		f.Scale.Y = f.Scale.X // Inverse needs a uniform scale
		if r.IntN(2) == 0 {
			f.Scale = Point{-f.Scale.X, -f.Scale.X}
		}
		inv, ok := f.Inverse()
		if !ok {
			t.Fatal("Inverse of a uniform frame failed")
		}
		there := withRoot(t, &Transform{Frame: f}, a)
		back := withRoot(t, &Transform{Frame: inv}, there)
		sameAt(t, "transform then inverse", r, 500, 1e-9, a, back)
		// An instance with the frame is the transform of a copy, to the bit.
		inst := withRoot(t, &Sum{}, a)
		if _, err := inst.Add(1, -1, &Instance{Ref: inst.nodes[1].children[0], Frame: f}); err != nil {
			t.Fatal(err)
		}
		sameAt(t, "instance", r, 300, 0, withRoot(t, &Sum{}, a, there), inst)
	}
	if _, ok := (Frame{Scale: Point{1, 2}}).Inverse(); ok {
		t.Error("Inverse of a non-uniform scale: got ok")
	}
}

// TestWarpConstant checks that every warp and transform of a constant is
// that constant, exactly (the child's value does not depend on where it is
// sampled).
func TestWarpConstant(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	c := one(t, &Noise{Frequency: 1e-3, Octaves: 3, Persistence: 0.5, Lacunarity: 2, Amplitude: 0, Offset: 0.37})
	want := one(t, &Noise{Frequency: 1, Octaves: 1, Persistence: 0.5, Lacunarity: 2, Offset: 0.37})
	for _, typ := range []string{TypeFold, TypeFault, TypeNoiseWarp, TypeTransform, TypeClamp} {
		w := randShape(r, typ)
		if cl, ok := w.(*Clamp); ok {
			cl.Lo, cl.Hi = 0, 1
		}
		sameAt(t, typ+" of a constant", r, 300, 0, want, withRoot(t, w, c))
	}
}

// TestWarps checks the displacement of Fold and Fault on a known shape.
func TestWarps(t *testing.T) {
	ridge := &Segment{A: Point{-5000, 5000}, B: Point{15000, 5000}, Ctrls: []Ctrl{{0, 500, 1}}}
	// Fold displacing south (angle 90°) along the axis e⊥ = (−1, 0):
	// the ridge is sampled at p − A·sin(2π(−x)/λ)·(0, 1). At x = 3000 the
	// sine is 1, so the crest moves to y = 5300.
	fold := withRoot(t, &Fold{Angle: 90, Amplitude: 300, Wavelength: 4000}, one(t, ridge))
	checkProbes(t, fold, []probe{
		{"fold crest displaced", 3000, 5300, 1, ulp2},
		{"fold crest at a node", 0, 5000, 1, ulp2},
		{"fold trough", 1000, 4700, 1, ulp2},
	})
	disc := one(t, &Disc{Center: Point{5000, 5000}, Radius: 1000, Value: 1})
	// Fault along x = 5000 heading south: its left (the normal (1, 0))
	// is the east side, sampled 1000 m north, so the disc's east half
	// appears 1000 m further south.
	fault := withRoot(t, &Fault{Point: Point{5000, 0}, Angle: 90, Offset: Point{0, 1000}}, disc)
	checkProbes(t, fault, []probe{
		{"west side unchanged", 4900, 5000, disc.Eval(4900, 5000), 0},
		{"east side moved", 5100, 6000, disc.Eval(5100, 5000), 0},
		{"east side, old place", 5100, 5000, disc.Eval(5100, 4000), 0},
	})
	// With a width, the offset ramps by smoothstep across the band: on the
	// line it is half the offset.
	soft := withRoot(t, &Fault{Point: Point{5000, 0}, Angle: 90, Offset: Point{0, 1000}, Width: 400}, disc)
	checkProbes(t, soft, []probe{{"fault band middle", 5000, 5500, disc.Eval(5000, 5000), ulp2}})
}

// TestScaleClampSum checks the remaining operators against their formulas.
func TestScaleClampSum(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	a, b := randTree(t, r, 20), randTree(t, r, 20)
	a.SetLayers(testLayers())
	b.SetLayers(testLayers())
	sc := withRoot(t, &Scale{Factor: -1.5}, a)
	prod := withRoot(t, &Scale{Factor: 2}, a, b)
	cl := withRoot(t, &Clamp{Lo: 0.1, Hi: 0.4}, a)
	sum := withRoot(t, &Sum{}, a)
	for _, tr := range []*Tree{sc, prod, cl, sum} {
		tr.SetLayers(testLayers())
	}
	for range 500 {
		x, y := rnd(r, -2000, world+2000), rnd(r, -2000, world+2000)
		va, vb := a.Eval(x, y), b.Eval(x, y)
		for _, c := range []struct {
			name      string
			got, want float64
		}{
			{"scale", sc.Eval(x, y), va*-1.5 + 0},
			{"product", prod.Eval(x, y), va*vb*2 + 0},
			{"clamp", cl.Eval(x, y), min(max(va, 0.1), 0.4)},
			{"sum of one", sum.Eval(x, y), va},
		} {
			if c.got != c.want {
				t.Fatalf("%s at (%g, %g): got %v; want %v", c.name, x, y, c.got, c.want)
			}
		}
	}
}
