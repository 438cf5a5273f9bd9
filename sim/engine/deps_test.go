package engine_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// enginePkgs are the packages that implement the contract.
var enginePkgs = []string{"orogen/sim/grid", "orogen/sim/graph", "orogen/sim/hydro", "orogen/sim/roudier"}

// deps lists what pkg imports, directly or not (go list -deps).
func deps(t *testing.T, pkg string) []string {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", pkg).Output()
	if err != nil {
		t.Fatalf("go list -deps %s: %v", pkg, err)
	}
	return strings.Fields(string(out))
}

// TestEnginesStandAlone: no engine package imports another one, and the
// views and the contract import none (the layering of docs/ARCHITECTURE.md).
func TestEnginesStandAlone(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	for _, e := range enginePkgs {
		for _, d := range deps(t, e) {
			if d != e && slices.Contains(enginePkgs, d) {
				t.Errorf("%s imports the engine %s", e, d)
			}
		}
	}
	for _, p := range []string{"orogen/viewer", "orogen/sim/engine"} {
		for _, d := range deps(t, p) {
			if slices.Contains(enginePkgs, d) {
				t.Errorf("%s imports the engine %s; it may read only the contract (sim/engine)", p, d)
			}
		}
	}
}
