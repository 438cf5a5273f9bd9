package cli

import (
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A young terrain's channel fit can have a coefficient beyond float64:
// 5 steps of the soil physics on the cone at 48² fit slope against area
// on 3 channel cells with an exponent of −59.8, so k_s = 10^493.7. The
// report wrote it as +Inf, which the JSON encoder refused: orogen run
// exited 1 and wrote neither the report nor its outputs. Through the real
// binary: the run succeeds, writes everything, and the report holds the
// fit's intercept, with k_s null (sim/analysis, power.go).
func TestRunReportPowerLawBeyondFloat64(t *testing.T) {
	dir := t.TempDir()
	img, err := os.ReadFile("../../assets/presets/cone-uplift.png")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "cone-uplift.png"), img, 0o644); err != nil {
		t.Fatal(err)
	}
	// `orogen run --scene cone --size 48 --steps 5 --k 1e-6 --talus 40
	// --diffusion 0 --seed 3` with the soil physics `cone` took (issue 34),
	// written out so that the case stays whatever the preset becomes.
	scene := `{"version": 1, "name": "soil-cone", "width": 48, "height": 48, "domain_m": 50000, "seed": 3, "steps": 5,
	  "uplift": {"image": "cone-uplift.png", "umax_m_per_yr": 5e-4},
	  "params": {"k": 1e-6, "m": 0.5, "n": 1, "dt_yr": 250000, "diffusion_m2_per_yr": 0, "creep_critical_slope": 0.6,
	    "talus": {"mode": "constant", "angle_deg": 40}, "deposition_g": 1.5, "plain_uplift_m_per_yr": 5e-5,
	    "k_noise": 0.8, "k_noise_wavelength_m": 3000, "hillslope_routing": "random", "init_noise_m": 1}}`
	sp := filepath.Join(dir, "soil-cone.json")
	if err := os.WriteFile(sp, []byte(scene), 0o644); err != nil {
		t.Fatal(err)
	}
	out, rep := filepath.Join(dir, "h.tif"), filepath.Join(dir, "r.json")
	cmd := exec.Command(orogenBinary(t), "run", "-q", "--scene", sp, "--out", out, "--report", rep)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("orogen run: %v\n%s", err, b)
	}
	if _, err := os.Stat(out); err != nil {
		t.Errorf("heightmap not written: %v", err)
	}
	b, err := os.ReadFile(rep)
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		Final struct {
			Analysis struct {
				Channels map[string]any `json:"channel_concavity"`
			} `json:"analysis"`
		} `json:"final"`
	}
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	ch := r.Final.Analysis.Channels
	lk, ok := ch["log10_ks"].(float64)
	if ks, present := ch["ks"]; !ok || !present || ks != nil || !(lk > 308) || math.IsInf(lk, 0) {
		t.Errorf("channel_concavity ks %v (present %v), log10_ks %v; want null and a finite intercept above 308 (the case of the +Inf)", ch["ks"], present, ch["log10_ks"])
	}
	if !strings.Contains(string(b), `"log10_c"`) {
		t.Errorf("report without Hack's log10_c")
	}
}
