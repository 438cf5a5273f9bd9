package export

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"testing"
)

func TestPresets(t *testing.T) {
	// Every preset validates and picks the target's size nearest the grid.
	for _, c := range []struct {
		target string
		grid   int
		size   int
	}{{"unreal", 1024, 1009}, {"unreal", 3000, 2017}, {"unity", 1024, 1025}, {"godot", 300, 257}, {"generic", 700, 0}} {
		p, err := Preset(c.target, c.grid)
		if err != nil {
			t.Fatalf("%s: %v", c.target, err)
		}
		if p.Outputs[0].Size != c.size {
			t.Errorf("%s for %d: heightmap size %d; want %d", c.target, c.grid, p.Outputs[0].Size, c.size)
		}
		b, _ := json.Marshal(p)
		q, err := ParseProfile(b)
		if err != nil || !reflect.DeepEqual(p, q) {
			t.Errorf("%s: round trip: %v", c.target, err)
		}
	}
}

func TestGenericTilesAtGridSize(t *testing.T) {
	// Size 0 (the grid's) with tiles validates; Build checks the split
	// against the real grid.
	p := &Profile{Outputs: []Output{{Kind: "heightmap", Format: "tif", Tiles: "2x2", Path: "h"}}}
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Outputs[0].Plan(filepath.Join(t.TempDir(), "h.tif"), 64, 64); err == nil {
		t.Error("a 64² grid split in 2x2 tiles sharing edges: no error")
	}
}

func FuzzParseProfile(f *testing.F) {
	for _, name := range Presets {
		p, _ := Preset(name, 512)
		b, _ := json.Marshal(p)
		f.Add(b)
	}
	f.Add([]byte(`{"outputs":[{"kind":"splat","format":"png","path":"s","tiles":"2x2","size":9,"rules":{"layers":[{"name":"a","weight":1}]}}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		p, err := ParseProfile(b)
		if err != nil {
			return
		}
		// What parses validates, and survives a round trip unchanged.
		if err := p.Validate(); err != nil {
			t.Fatalf("parsed profile fails Validate: %v", err)
		}
		b2, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		q, err := ParseProfile(b2)
		if err != nil {
			t.Fatalf("re-parse: %v\n%s", err, b2)
		}
		if !reflect.DeepEqual(p, q) {
			t.Fatalf("round trip changed the profile:\n%+v\n%+v", p, q)
		}
		for _, o := range p.Outputs {
			if o.Kind == "preview" || o.Kind == "mesh" {
				continue
			}
			if err := o.checkPlan(); err != nil {
				t.Fatalf("valid output refuses its plan: %v", err)
			}
		}
	})
}
