package analysis

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// A fit whose intercept 10^α leaves float64 keeps α, writes the
// coefficient as null and still draws the fitted law over its points: the
// three channel cells of `orogen run --scene cone --size 48 --steps 5` with
// the soil physics fitted an exponent of −59.8 near A = 10⁸ m², α = 493.7.
func TestSlopeAreaBeyondFloat64(t *testing.T) {
	xs := []float64{8, 8.02, 8.05}
	ys := []float64{-1.5, -2.7, -4.5} // S = 10^(α − 60·log10 A)
	sa, err := slopeAreaFromLogs(xs, ys, 1e8)
	if err != nil {
		t.Fatal(err)
	}
	if !math.IsNaN(sa.Ks) || !(sa.Log10Ks > 308) || math.IsInf(sa.Log10Ks, 0) {
		t.Fatalf("Ks %g, Log10Ks %g; want NaN and a finite intercept above 308", sa.Ks, sa.Log10Ks)
	}
	for i, x := range xs {
		if got := math.Log10(sa.Slope(math.Pow(10, x))); math.Abs(got-ys[i]) > 0.05 {
			t.Errorf("Slope at 10^%g: 10^%g, want about 10^%g", x, got, ys[i])
		}
	}
	b, err := json.Marshal(sa)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	var back map[string]any
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if v, ok := back["ks"]; !ok || v != nil {
		t.Errorf("ks = %v (present %v); want null: %s", v, ok, b)
	}
	if v, _ := back["log10_ks"].(float64); v != sa.Log10Ks {
		t.Errorf("log10_ks = %v, want %g", back["log10_ks"], sa.Log10Ks)
	}

	// The same fit moved down 400 decades underflows: NaN and null too,
	// not a zero steepness.
	for i := range ys {
		ys[i] -= 800
	}
	if sa, _ = slopeAreaFromLogs(xs, ys, 1e8); !math.IsNaN(sa.Ks) {
		t.Errorf("Ks %g at α = %g; want NaN", sa.Ks, sa.Log10Ks)
	}
}

// A coefficient inside float64 is 10^α, written as a number.
func TestPowerLawCoefficients(t *testing.T) {
	xs, ys := []float64{6, 7, 8, 9}, []float64{-1, -1.5, -2, -2.5}
	sa, err := slopeAreaFromLogs(xs, ys, 1e6)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(sa.Log10Ks-2) > 1e-9 || math.Abs(sa.Ks-100) > 1e-6 || math.Abs(sa.Slope(1e8)-0.01) > 1e-9 {
		t.Errorf("Ks %g, Log10Ks %g, Slope(1e8) %g; want 100, 2, 0.01", sa.Ks, sa.Log10Ks, sa.Slope(1e8))
	}
	hk, err := hackFromLogs([]float64{-1, 0, 1, 2}, []float64{-0.3 + 0.25, 0.25, 0.55, 1.15 - 0.05}, 0.1)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(hk.C-math.Pow(10, hk.Log10C)) > 1e-12 || math.Abs(hk.Length(10)-math.Pow(10, hk.Log10C+hk.H)) > 1e-12 {
		t.Errorf("C %g, Log10C %g, Length(10) %g", hk.C, hk.Log10C, hk.Length(10))
	}
	b, err := json.Marshal(hk)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"c":`) || strings.Contains(string(b), `"c":null`) {
		t.Errorf("Hack JSON %s: want c as a number", b)
	}
	hk.C = pow10(400)
	if b, err = json.Marshal(hk); err != nil || !strings.Contains(string(b), `"c":null`) {
		t.Errorf("Hack with c beyond float64: %s, %v; want c null", b, err)
	}
}

// The verdict counts a Hack's c beyond float64 as not measured, and its
// criteria stay finite for JSON.
func TestVerdictHackBeyondFloat64(t *testing.T) {
	r := &Result{Width: 4, Height: 4, Realism: &Realism{}, Hack: &Hack{H: 0.5, C: pow10(400), Log10C: 400}}
	v := verdict(r)
	if v.CoefInside || v.Natural {
		t.Errorf("CoefInside %v, Natural %v; want false", v.CoefInside, v.Natural)
	}
	if _, err := json.Marshal(v); err != nil {
		t.Fatalf("marshal: %v", err)
	}
	if !strings.Contains(v.Line, "Hack c not measured") {
		t.Errorf("verdict %q; want Hack c not measured", v.Line)
	}
}
