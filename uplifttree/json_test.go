package uplifttree

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestRoundTrip marshals a large random tree holding every node type,
// reads it back and demands identical JSON bytes and identical rasters.
func TestRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	tr := randTree(t, r, 320)
	if tr.Len() < 300 {
		t.Fatalf("random tree has %d nodes; want ≥ 300", tr.Len())
	}
	seen := map[string]int{}
	for _, n := range tr.nodes {
		seen[n.shape.Type()]++
	}
	for _, typ := range allTypes {
		if seen[typ] == 0 {
			t.Errorf("random tree has no %s node", typ)
		}
	}
	j1 := mustJSON(t, tr)
	u, err := Unmarshal(j1)
	if err != nil {
		t.Fatal(err)
	}
	if j2 := mustJSON(t, u); !bytes.Equal(j1, j2) {
		t.Fatalf("JSON changed in a round trip:\n%s", firstLineDiff(j1, j2))
	}
	layers := testLayers()
	if i := firstDiff(raster(tr, 96, layers), raster(u, 96, layers)); i >= 0 {
		t.Fatalf("rasters differ at cell %d after a round trip", i)
	}
	// Through encoding/json, as a field of a larger document.
	doc := struct {
		Uplift *Tree `json:"uplift"`
	}{tr}
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	var back struct {
		Uplift *Tree `json:"uplift"`
	}
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(mustJSON(t, back.Uplift), j1) {
		t.Error("round trip through encoding/json changed the tree")
	}
	// New IDs continue after the largest.
	e, err := u.Add(u.Root(), -1, &Sum{})
	if err != nil {
		t.Fatal(err)
	}
	if e.Node() <= tr.IDs()[tr.Len()-1] {
		t.Errorf("new ID %d after a round trip reuses the ID range", e.Node())
	}
}

func firstLineDiff(a, b []byte) string {
	la, lb := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := range min(len(la), len(lb)) {
		if la[i] != lb[i] {
			return "got  " + lb[i] + "\nwant " + la[i]
		}
	}
	return "different lengths"
}

// TestDefaults reads nodes with only their required keys.
func TestDefaults(t *testing.T) {
	tr, err := Unmarshal([]byte(`{"version": 1, "root": 1, "nodes": [
		{"id": 1, "type": "sum", "children": [2, 3]},
		{"id": 2, "type": "disc", "center": [0, 0], "radius": 10},
		{"id": 3, "type": "transform", "children": [4]},
		{"id": 4, "type": "noise", "frequency": 0.001}
	]}`))
	if err != nil {
		t.Fatal(err)
	}
	n, _ := tr.Node(4)
	want, _ := NewShape(TypeNoise)
	want.(*Noise).Frequency = 0.001
	if *n.Shape.(*Noise) != *want.(*Noise) {
		t.Errorf("noise defaults: got %+v; want %+v", n.Shape, want)
	}
	if f := tr.nodes[3].shape.(*Transform).Frame; f != Identity {
		t.Errorf("transform defaults: got %+v; want the identity", f)
	}
	if v := tr.Eval(0, 0); v < 0 || v > 2 {
		t.Errorf("disc of default value 1 plus noise within ±1 at its centre: got %v", v)
	}
}

// TestUnmarshalErrors feeds bad documents and checks that each error names
// the node and the field.
func TestUnmarshalErrors(t *testing.T) {
	doc := func(nodes string) string {
		return `{"version": 1, "root": 1, "nodes": [` + nodes + `]}`
	}
	sum := `{"id": 1, "type": "sum", "children": [2]}`
	disc := func(extra string) string {
		return doc(sum + `, {"id": 2, "type": "disc", "center": [0, 0], "radius": 10` + extra + `}`)
	}
	cases := []struct {
		name, src, want string
	}{
		{"not JSON", `{"version": 1,`, "not valid JSON"},
		{"trailing data", `{"version": 1, "root": 1, "nodes": []} x`, "after the object"},
		{"not an object", `[1, 2]`, "want an object"},
		{"version", `{"version": 2, "root": 1, "nodes": []}`, "version: is 2; this build reads version 1"},
		{"missing version", `{"root": 1, "nodes": [{"id": 1, "type": "sum"}]}`, "version: is required"},
		{"unknown top key", `{"version": 1, "root": 1, "nodes": [], "colour": 1}`, "colour: unknown key"},
		{"missing root", doc(`{"id": 2, "type": "sum"}`), "root: names node 1, which does not exist"},
		{"unknown type", doc(`{"id": 1, "type": "volcano"}`), `node 1: type: unknown node type "volcano"`},
		{"unknown key", disc(`, "colour": 3`), `node 2 (disc): colour: unknown key`},
		{"duplicate key", disc(`, "radius": 3`), `key "radius" appears twice`},
		{"negative radius", doc(sum + `, {"id": 2, "type": "disc", "center": [0, 0], "radius": -1}`), "node 2 (disc): radius: must be > 0, got -1"},
		{"infinite", disc(`, "value": 1e999`), "node 2 (disc): value: must be a finite number"},
		{"NaN", disc(`, "value": NaN`), "not valid JSON"},
		{"too large", disc(`, "value": 1e300`), "node 2 (disc): value: magnitude must be at most"},
		{"string number", disc(`, "value": "1"`), `node 2 (disc): value: want a number, got "1"`},
		{"null", disc(`, "value": null`), "node 2 (disc): value: want a number, got null"},
		{"short point", doc(sum + `, {"id": 2, "type": "disc", "center": [0], "radius": 10}`), "node 2 (disc): center: want an array of 2 numbers"},
		{"missing param", doc(sum + `, {"id": 2, "type": "disc", "radius": 10}`), "node 2 (disc): center: is required"},
		{"missing id", doc(`{"type": "sum"}`), "nodes[0].id: is required"},
		{"bad id", doc(`{"id": 1.5, "type": "sum"}`), "nodes[0].id: want an integer"},
		{"zero id", doc(`{"id": 0, "type": "sum"}`), "nodes[0].id: must be positive"},
		{"duplicate id", doc(`{"id": 1, "type": "sum"}, {"id": 1, "type": "max"}`), "node 1 (max): id: appears twice"},
		{"dangling child", doc(`{"id": 1, "type": "sum", "children": [7]}`), "node 1 (sum): children: names node 7, which does not exist"},
		{"two parents", doc(`{"id": 1, "type": "sum", "children": [2, 3]}, {"id": 2, "type": "max", "children": [3]}, {"id": 3, "type": "sum"}`),
			"node 2 (max): children: node 3 is already a child of node 1"},
		{"root as child", doc(`{"id": 1, "type": "sum", "children": [1]}`), "children: names the root 1"},
		{"leaf with children", doc(sum + `, {"id": 2, "type": "disc", "center": [0, 0], "radius": 10, "children": [1]}`), "node 2 (disc): children"},
		{"unary without child", doc(`{"id": 1, "type": "sum", "children": [2]}, {"id": 2, "type": "clamp"}`), "node 2 (clamp): children: a clamp takes exactly 1 child, got 0"},
		{"scale with three", doc(`{"id": 1, "type": "scale", "children": [2, 3, 4]}, {"id": 2, "type": "sum"}, {"id": 3, "type": "sum"}, {"id": 4, "type": "sum"}`),
			"node 1 (scale): children: a scale takes 1 to 2 children, got 3"},
		{"unreachable", doc(`{"id": 1, "type": "sum"}, {"id": 2, "type": "sum"}`), "node 2 (sum): is not reachable from the root"},
		{"parent cycle", doc(`{"id": 1, "type": "sum"}, {"id": 2, "type": "sum", "children": [3]}, {"id": 3, "type": "sum", "children": [2]}`),
			"is not reachable from the root"},
		{"instance of itself", doc(`{"id": 1, "type": "sum", "children": [2]}, {"id": 2, "type": "instance", "ref": 2}`), "node 2 (instance): ref: instance of node 2 leads back to itself"},
		{"instance of ancestor", doc(`{"id": 1, "type": "sum", "children": [2]}, {"id": 2, "type": "instance", "ref": 1}`), "node 2 (instance): ref: instance of node 1 leads back"},
		{"instances in a loop", doc(`{"id": 1, "type": "sum", "children": [2, 3]}, {"id": 2, "type": "instance", "ref": 3}, {"id": 3, "type": "instance", "ref": 2}`), "leads back to itself"},
		{"dangling ref", doc(`{"id": 1, "type": "sum", "children": [2]}, {"id": 2, "type": "instance", "ref": 9}`), "node 2 (instance): ref: names node 9, which does not exist"},
		{"ctrl order", doc(sum + `, {"id": 2, "type": "segment", "a": [0, 0], "b": [1, 1], "ctrl": [{"t": 0.5, "r": 1, "u": 1}, {"t": 0.2, "r": 1, "u": 1}]}`),
			"node 2 (segment): ctrl[1].t: must be greater"},
		{"ctrl key", doc(sum + `, {"id": 2, "type": "segment", "a": [0, 0], "b": [1, 1], "ctrl": [{"t": 0.5, "r": 1}]}`), "node 2 (segment): ctrl: [0]: u: is required"},
		{"ctrl radius", doc(sum + `, {"id": 2, "type": "valley", "a": [0, 0], "b": [1, 1], "ctrl": [{"t": 0.5, "r": -1, "u": 0}]}`), "node 2 (valley): ctrl[0].r: half-width must be > 0"},
		{"no ctrl", doc(sum + `, {"id": 2, "type": "segment", "a": [0, 0], "b": [1, 1], "ctrl": []}`), "needs 1 to 256 control points, got 0"},
		{"curve repeat", doc(sum + `, {"id": 2, "type": "curve", "vertices": [{"x": 0, "y": 0, "r": 1, "u": 1}, {"x": 0, "y": 0, "r": 1, "u": 1}]}`), "node 2 (curve): vertices[1]: coincides with vertex 0"},
		{"polygon", doc(sum + `, {"id": 2, "type": "region", "polygon": [[0, 0], [1, 1]]}`), "node 2 (region): polygon: needs 3 to"},
		{"octaves", doc(sum + `, {"id": 2, "type": "noise", "frequency": 1, "octaves": 40}`), "node 2 (noise): octaves: must lie in [1, 16], got 40"},
		{"seed", doc(sum + `, {"id": 2, "type": "noise", "frequency": 1, "seed": -3}`), "node 2 (noise): seed: want an integer from 0"},
		{"raster rect", doc(sum + `, {"id": 2, "type": "raster", "layer": "a", "rect": [0, 0, 0, 10]}`), "node 2 (raster): rect: must have x0 < x1"},
		{"layer name", doc(sum + `, {"id": 2, "type": "raster", "layer": "", "rect": [0, 0, 1, 1]}`), "node 2 (raster): layer: must be 1 to 128 bytes"},
		{"blend mode", doc(`{"id": 1, "type": "blend", "mode": "mean", "radius": 1}`), `node 1 (blend): mode: must be "max" or "min", got "mean"`},
		{"clamp order", doc(`{"id": 1, "type": "clamp", "lo": 1, "hi": 0, "children": [2]}, {"id": 2, "type": "sum"}`), "node 1 (clamp): hi: must be ≥ lo"},
		{"zero scale", doc(`{"id": 1, "type": "transform", "scale": [0, 1], "children": [2]}, {"id": 2, "type": "sum"}`), "node 1 (transform): scale: components must have magnitude"},
		{"wavelength", doc(`{"id": 1, "type": "fold", "amplitude": 1, "wavelength": 0, "children": [2]}, {"id": 2, "type": "sum"}`), "node 1 (fold): wavelength: must be > 0"},
		{"fault width", doc(`{"id": 1, "type": "fault", "point": [0, 0], "offset": [1, 0], "width": -2, "children": [2]}, {"id": 2, "type": "sum"}`), "node 1 (fault): width: must be ≥ 0"},
	}
	for _, c := range cases {
		_, err := Unmarshal([]byte(c.src))
		if err == nil {
			t.Errorf("%s: got no error; want one containing %q", c.name, c.want)
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %q; want it to contain %q", c.name, err, c.want)
		}
		if !strings.HasPrefix(err.Error(), "uplifttree: ") {
			t.Errorf("%s: %q lacks the package prefix", c.name, err)
		}
	}
}

// TestLimits checks that trees too deep or too costly to evaluate are
// refused instead of hanging the app.
func TestLimits(t *testing.T) {
	// 70 nested clamps exceed the depth limit.
	var b strings.Builder
	b.WriteString(`{"version": 1, "root": 1, "nodes": [`)
	for i := 1; i <= 70; i++ {
		b.WriteString(`{"id": ` + itoa(i) + `, "type": "clamp", "children": [` + itoa(i+1) + `]}, `)
	}
	b.WriteString(`{"id": 71, "type": "sum"}]}`)
	if _, err := Unmarshal([]byte(b.String())); err == nil || !strings.Contains(err.Error(), "levels deep") {
		t.Errorf("70 nested nodes: got %v; want the depth limit", err)
	}
	// Level k is a sum of two instances of level k−1, level 0 a disc:
	// level 30 expands to 2³⁰ discs.
	b.Reset()
	b.WriteString(`{"version": 1, "root": 1, "nodes": [{"id": 1, "type": "sum", "children": [`)
	for k := 0; k <= 30; k++ {
		if k > 0 {
			b.WriteString(", ")
		}
		b.WriteString(itoa(100 + k))
	}
	b.WriteString(`]}, {"id": 100, "type": "disc", "center": [0, 0], "radius": 1}`)
	for k := 1; k <= 30; k++ {
		b.WriteString(`, {"id": ` + itoa(100+k) + `, "type": "sum", "children": [` + itoa(1000+2*k) + `, ` + itoa(1001+2*k) + `]}`)
		for j := range 2 {
			b.WriteString(`, {"id": ` + itoa(1000+2*k+j) + `, "type": "instance", "ref": ` + itoa(99+k) + `}`)
		}
	}
	b.WriteString(`]}`)
	if _, err := Unmarshal([]byte(b.String())); err == nil || !strings.Contains(err.Error(), "units per point") {
		t.Errorf("doubling instances: got %v; want the cost limit", err)
	}
}

func itoa(i int) string {
	b, _ := json.Marshal(i)
	return string(b)
}
