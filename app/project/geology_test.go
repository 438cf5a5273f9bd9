package project_test

import (
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"orogen/app/project"
	"orogen/app/project/projecttest"
	"orogen/sim/geology"
)

func geoSpec() *geology.Spec {
	return &geology.Spec{Base: -50, Rocks: []geology.RockSpec{{Name: "Chalk", Kd: 0.6, Kf: 0.4, Ke: 0.9, Color: "#f0f0e8"}},
		Stack: []geology.Group{{Repeat: 3, Layers: []geology.Layer{{Name: "a", Thickness: 12, Rock: "Chalk"}, {Thickness: 7, Rock: "Granite"}}}},
		Deformations: []geology.Deformation{{Kind: geology.Fold, Wavelength: 900, Amplitude: 20, Lean: 5},
			{Kind: geology.Profile, Points: [][2]float64{{0, 0}, {100, 30}}}}}
}

// TestGeologyRoundTrip: a project's scene keeps its geology through
// Marshal and Parse, clones deeply, and the file format version is
// unchanged (a project without geology reads as before).
func TestGeologyRoundTrip(t *testing.T) {
	p := projecttest.Project(rand.New(rand.NewPCG(9, 9)), 12, 10, 10)
	p.Scene.Geology = geoSpec()
	b, err := p.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"version": 1`) && !strings.Contains(string(b), `"version":1`) {
		t.Fatalf("project file lost version 1:\n%.200s", b)
	}
	q, err := project.Parse(b, "")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(q.Scene.Geology, p.Scene.Geology) {
		t.Fatalf("geology after round trip %+v; want %+v", q.Scene.Geology, p.Scene.Geology)
	}
	c := p.Clone()
	c.Scene.Geology.Stack[0].Layers[0].Thickness = 99
	c.Scene.Geology.Deformations[1].Points[0][1] = 5
	if p.Scene.Geology.Stack[0].Layers[0].Thickness == 99 || p.Scene.Geology.Deformations[1].Points[0][1] == 5 {
		t.Fatal("changing a clone's geology changed the original")
	}
	p.Scene.Geology.Stack[0].Layers[0].Thickness = -1
	b, err = p.Marshal()
	if err == nil {
		_, err = project.Parse(b, "")
	}
	if err == nil || !strings.Contains(err.Error(), "thickness -1") {
		t.Fatalf("a negative thickness: got %v; want an error naming it", err)
	}
}
