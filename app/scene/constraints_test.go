package scene

import (
	"encoding/json"
	"strings"
	"testing"
)

// Constraints parse strictly, with errors naming the problem, and
// validate against the map; they survive Marshal and Parse.
func TestConstraints(t *testing.T) {
	const head = `{"version": 1, "uplift": {"image": "x.png"}, "domain_m": 50000, "width": 512, "height": 256, "constraints": `
	good := head + `[{"point": [25000, 12000], "height_m": 1500}, {"curve": [[1000, 2000, 300], [4000, 5000, 600], [9000, 9000, 700]]}]}`
	s, err := Parse([]byte(good))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	cs := s.ConstraintList()
	if len(cs) != 2 || len(cs[0].Points) != 1 || cs[0].Points[0].H != 1500 || len(cs[1].Points) != 3 || cs[1].Points[2].X != 9000 {
		t.Fatalf("constraints %+v; want a point at 1500 m and a 3-vertex curve", cs)
	}
	out, err := Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	s2, err := Parse(out)
	if err != nil || len(s2.Constraints) != 2 {
		t.Fatalf("round trip: %v, %d constraints", err, len(s2.Constraints))
	}
	for _, c := range []struct{ list, want string }{
		{`[{"point": [1, 2]}]`, "needs \"height_m\""},
		{`[{"point": [1, 2], "height_m": 3, "curve": [[1, 2, 3], [4, 5, 6]]}]`, "not both"},
		{`[{"curve": [[1, 2, 3]]}]`, "2 vertices or more"},
		{`[{"curve": [[1, 2, 3], [4, 5, 6]], "height_m": 3}]`, "per vertex"},
		{`[{}]`, "needs \"point\""},
		{`[null]`, "needs \"point\""},
		{`[{"point": [1, 2], "height_m": 3, "radius": 4}]`, "radius"},
		{`[{"point": [1, 2, 3], "height_m": 3}]`, "point"},
		{`[{"curve": [[1, 2], [3, 4]]}]`, "curve"},
	} {
		_, err := Parse([]byte(head + c.list + `}`))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v; want one naming %q", c.list, err, c.want)
		}
	}
	for _, c := range []struct{ list, want string }{
		{`[{"point": [60000, 2], "height_m": 3}]`, "constraints[0], vertex 0: (60000, 2) m is outside the map [0, 50000] × [0, 25000]"},
		{`[{"point": [1, 2], "height_m": 3}, {"curve": [[1, 2, 3], [4, 30000, 6]]}]`, "constraints[1], vertex 1"},
		{`[{"point": [1, 2], "height_m": 1e9}]`, "absurd"},
	} {
		s, err := Parse([]byte(head + c.list + `}`))
		if err != nil {
			t.Fatalf("%s: %v", c.list, err)
		}
		if err := s.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Validate %v; want an error containing %q", c.list, err, c.want)
		}
	}
	g, _ := Parse([]byte(`{"version": 1, "engine": "graph", "uplift": {"image": "x.png"}, "constraints": [{"point": [1, 2], "height_m": 3}]}`))
	if err := g.Validate(); err == nil || !strings.Contains(err.Error(), "grid engine") {
		t.Errorf("graph engine with constraints: %v; want an error naming the grid engine", err)
	}
}

// FuzzConstraint: any input either fails with an error or gives a
// constraint that is a point with a height or a curve of 2+ vertices of 3
// numbers, and survives Marshal and a second parse unchanged.
func FuzzConstraint(f *testing.F) {
	for _, s := range []string{`{"point": [1, 2], "height_m": 3}`, `{"curve": [[1, 2, 3], [4, 5, 6]]}`, `{"point": [1]}`, `{}`, `null`, `{"curve": [[1, 2, 3]], "point": [1, 2]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var c Constraint
		if err := json.Unmarshal(b, &c); err != nil {
			return
		}
		switch {
		case c.Point != nil:
			if len(c.Point) != 2 || c.HeightM == nil || c.Curve != nil {
				t.Fatalf("accepted a bad point: %+v", c)
			}
		case len(c.Curve) >= 2:
			for _, v := range c.Curve {
				if len(v) != 3 {
					t.Fatalf("accepted a curve vertex of %d numbers", len(v))
				}
			}
		default:
			t.Fatalf("accepted neither a point nor a curve: %+v", c)
		}
		out, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		var c2 Constraint
		if err := json.Unmarshal(out, &c2); err != nil {
			t.Fatalf("re-parse of %s: %v", out, err)
		}
		if out2, _ := json.Marshal(c2); string(out2) != string(out) {
			t.Fatalf("round trip changed %s into %s", out, out2)
		}
	})
}
