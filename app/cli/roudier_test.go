package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRoudierFlags: `orogen run --engine roudier` with --roudier-* flags
// runs Roudier's engine with those coefficients, and a bad one exits
// non-zero naming it.
func TestRoudierFlags(t *testing.T) {
	rep := filepath.Join(t.TempDir(), "r.json")
	code, _, stderr := runCLI("run", "--engine", "roudier", "--size", "24", "--steps", "5", "--dt", "1000",
		"--roudier-gamma", "0.05", "--roudier-snow-line", "-10", "--report", rep, "-q")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var r struct {
		Engine  string `json:"engine"`
		Roudier struct {
			Params map[string]float64 `json:"params"`
		} `json:"account"`
	}
	b, _ := os.ReadFile(rep)
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	if p := r.Roudier.Params; r.Engine != "roudier" || p["gamma"] != 0.05 || p["snow_line_m"] != -10 || p["alpha"] != 0.01 {
		t.Errorf("report engine %q, params %v; want roudier, gamma 0.05, snow line -10, alpha the default 0.01", r.Engine, p)
	}
	for _, c := range [][]string{{"--roudier-alpha", "-1", "alpha"}, {"--roudier-veg", "NaN", "vegetation"}, {"--roudier-rain", "1e9", "rain"}} {
		code, _, stderr := runCLI("run", "--engine", "roudier", "--size", "16", "--steps", "1", c[0], c[1])
		if code == 0 || !strings.Contains(stderr, c[2]) {
			t.Errorf("%s %s: exit %d, stderr %q; want non-zero naming %s", c[0], c[1], code, stderr, c[2])
		}
	}
}
