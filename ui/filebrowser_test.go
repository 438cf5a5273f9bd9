package ui

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestListDir(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"b.PNG", "a.orogen.json", "c.txt", ".hidden.png", "z.tif"} {
		if err := os.WriteFile(filepath.Join(dir, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []string{"Zeta", "alpha", ".git"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	got, err := listDir(dir, []string{".png", ".orogen.json"})
	if err != nil {
		t.Fatal(err)
	}
	want := []entry{{"alpha", true}, {"Zeta", true}, {"a.orogen.json", false}, {"b.PNG", false}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("listDir: got %v; want %v", got, want)
	}
	all, _ := listDir(dir, nil)
	if len(all) != 6 {
		t.Errorf("listDir with no filter: got %d entries; want 6 (hidden ones left out)", len(all))
	}
	if _, err := listDir(filepath.Join(dir, "missing"), nil); err == nil {
		t.Error("listDir of a missing folder: got no error")
	}
}
