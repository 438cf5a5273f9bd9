package uplifttree

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// FuzzUnmarshal feeds the decoder arbitrary bytes, seeded with valid trees
// of every node type. It must never panic; an error must be an *Error; a
// tree it accepts must marshal to JSON that reads back to the same bytes,
// and both trees must evaluate, rasterize and pick without panicking and
// to the same bits.
func FuzzUnmarshal(f *testing.F) {
	r := rand.New(rand.NewPCG(1, 1))
	for _, n := range []int{26, 30, 40} {
		f.Add(mustJSON(f, randTree(f, r, n)))
	}
	// One small tree per node type, so mutations reach every decoder.
	for _, typ := range allTypes {
		t := New()
		d, _ := t.Add(1, -1, &Disc{Center: Point{500, 500}, Radius: 300, Value: 1})
		switch {
		case typ == TypeInstance:
			t.Add(1, -1, &Instance{Ref: d.Node(), Frame: randFrame(r)})
		case IsLeaf(randShape(r, typ)):
			t.Add(1, -1, randShape(r, typ))
		default:
			t.Wrap(d.Node(), randShape(r, typ))
		}
		f.Add(mustJSON(f, t))
	}
	f.Add([]byte(`{"version": 1, "root": 1, "nodes": [{"id": 1, "type": "sum", "children": [2, 3]},
		{"id": 2, "type": "disc", "center": [500, 500], "radius": 300},
		{"id": 3, "type": "instance", "ref": 2, "rotate": 30}]}`))
	f.Add([]byte(`{"version": 1, "root": 1, "nodes": [{"id": 1, "type": "sum"}]}`))
	layers := testLayers()
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := Unmarshal(data)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v is a %T; want *Error", err, err)
			}
			return
		}
		j1 := mustJSON(t, tr)
		u, err := Unmarshal(j1)
		if err != nil {
			t.Fatalf("marshalled tree does not read back: %v\n%s", err, j1)
		}
		if j2 := mustJSON(t, u); !bytes.Equal(j1, j2) {
			t.Fatalf("round trip changed the JSON:\n%s", firstLineDiff(j1, j2))
		}
		tr.SetLayers(layers)
		u.SetLayers(layers)
		pr := rand.New(rand.NewPCG(2, 2))
		for range 8 {
			x, y := rnd(pr, -2000, 12000), rnd(pr, -2000, 12000)
			if a, b := tr.Eval(x, y), u.Eval(x, y); math.Float64bits(a) != math.Float64bits(b) {
				t.Fatalf("Eval(%g, %g): %v before the round trip, %v after", x, y, a, b)
			}
			tr.Pick(x, y)
		}
		if i := firstDiff(raster(tr, 8, nil), raster(u, 8, nil)); i >= 0 {
			t.Fatalf("rasters differ at cell %d after the round trip", i)
		}
	})
}
