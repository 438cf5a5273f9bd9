package doc_test

import (
	"reflect"
	"testing"

	"orogen/app/export"
)

func TestSetExport(t *testing.T) {
	// The profile is an undoable edit that makes the document dirty,
	// reaches Project, and refuses a bad profile.
	d := testDoc(t, 2, 40, 30)
	p, err := export.Preset("godot", 40)
	if err != nil {
		t.Fatal(err)
	}
	if err := d.SetExport(p); err != nil {
		t.Fatal(err)
	}
	if !d.Dirty() || !reflect.DeepEqual(d.Project().Export, p) {
		t.Fatalf("after SetExport: dirty %v, profile %+v", d.Dirty(), d.Project().Export)
	}
	p.Outputs[0].Size = 4097 // the document holds its own copy
	if d.Export().Outputs[0].Size == 4097 {
		t.Error("the document shares the caller's profile")
	}
	if label, ok, err := d.Undo(); !ok || err != nil || label != "Export profile" || d.Export() != nil || d.Dirty() {
		t.Errorf("undo: %q %v %v; profile %+v, dirty %v", label, ok, err, d.Export(), d.Dirty())
	}
	bad := &export.Profile{Outputs: []export.Output{{Kind: "heightmap", Format: "png", Target: "unreal", Size: 600, Path: "h"}}}
	if err := d.SetExport(bad); err == nil {
		t.Error("a bad profile was accepted")
	}
}
