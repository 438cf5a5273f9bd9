package project_test

import (
	"encoding/json"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"orogen/app/export"
	"orogen/app/project"
	"orogen/app/project/projecttest"
)

func TestExportProfileRoundTrip(t *testing.T) {
	// A project with an export profile saves and loads it unchanged, at
	// format version 1; one without writes no "export" key.
	p := projecttest.Project(rand.New(rand.NewPCG(5, 5)), 16, 16, 3)
	b, err := p.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), `"export"`) {
		t.Error("a project without a profile writes an export key")
	}
	prof, err := export.Preset("unreal", 16)
	if err != nil {
		t.Fatal(err)
	}
	prof.Outputs[5].Rules = export.DefaultRules()
	p.Export = prof
	path := filepath.Join(t.TempDir(), "p"+project.Ext)
	if err := p.Save(path); err != nil {
		t.Fatal(err)
	}
	q, err := project.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(q.Export, prof) {
		t.Errorf("profile: got %+v; want %+v", q.Export, prof)
	}
	var top struct{ Version int }
	b, _ = q.Marshal()
	json.Unmarshal(b, &top)
	if top.Version != 1 {
		t.Errorf("version %d; want 1 (the profile needs no new version)", top.Version)
	}
	c := q.Clone()
	c.Export.Outputs[0].Size = 4033
	c.Export.Outputs[5].Rules.Layers[0].Weight = 9
	if q.Export.Outputs[0].Size == 4033 || q.Export.Outputs[5].Rules.Layers[0].Weight == 9 {
		t.Error("Clone shares the profile")
	}
}

func TestBadExportProfile(t *testing.T) {
	p := projecttest.Project(rand.New(rand.NewPCG(6, 6)), 16, 16, 2)
	b, err := p.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ profile, want string }{
		{`{"outputs":[{"kind":"heightmap","format":"png","target":"cryengine","size":505,"path":"h"}]}`, `output 1 (h): export: unknown target "cryengine"`},
		{`{"outputs":[{"kind":"heightmap","format":"png","target":"unreal","size":500,"path":"h"}]}`, "unreal does not take a size of 500"},
		{`{"outputs":[{"kind":"heightmap","format":"tif","target":"unity","size":513,"path":"h"}]}`, `unity does not read ".tif"`},
		{`{"outputs":[{"kind":"mask","mask":"snow","format":"png","path":"m"}]}`, `mask "snow"`},
		{`{"outputs":[{"kind":"splat","format":"tif","path":"s"}]}`, "a splat is written as png"},
		{`{"outputs":[{"kind":"heightmap","format":"png","path":"../h"}]}`, "leaves the output folder"},
		{`{"outputs":[{"kind":"heightmap","format":"png","path":"/tmp/h"}]}`, "absolute"},
		{`{"outputs":[{"kind":"heightmap","format":"png","path":"h"},{"kind":"mask","mask":"slope","format":"png","path":"h.png"}]}`, "outputs 1 and 2 both write h.png"},
		{`{"outputs":[{"kind":"heightmap","format":"png","path":"h","colour":1}]}`, "colour"},
		{`{"outputs":[]}`, "no outputs"},
	} {
		bad := strings.Replace(string(b), `"version": 1,`, `"version": 1, "export": `+c.profile+`,`, 1)
		_, err := project.Parse([]byte(bad), "")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v; want an error containing %q", c.profile, err, c.want)
		}
	}
}
