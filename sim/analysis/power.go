package analysis

import (
	"encoding/json"
	"math"
)

// Power-law coefficients. A least-squares fit of log10 y = α + β·log10 x
// gives the law's coefficient as 10^α: the fit extrapolated to x = 1 (A =
// 1 m² for slope–area, a = 1 km² for Hack's law). Where the points lie
// decades from there and the fitted exponent is steep, 10^α leaves float64:
// on a young terrain at 48² (`orogen run --scene cone --size 48 --steps 5
// --k 1e-6 --talus 40`, the soil physics) the channel concavity's fit has 3
// channel cells, exponent −59.8 over areas near 10⁸ m², α = 493.7 and
// 10^α = +Inf, which the JSON encoder refused: the run failed at the end
// and wrote neither its report nor its outputs. So each
// fit keeps α itself (SlopeArea.Log10Ks, Hack.Log10C), finite whenever the
// fit is, and its coefficient is 10^α where that is a normal float64 and
// NaN where it is not; in JSON such a coefficient is null.

// pow10 returns 10^e when that is a normal float64, else NaN.
func pow10(e float64) float64 {
	v := math.Pow(10, e)
	if math.IsInf(v, 0) || v < 0x1p-1022 {
		return math.NaN()
	}
	return v
}

// finite returns &v, or nil (JSON null) when v is NaN or infinite.
func finite(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

// MarshalJSON writes s with Ks null where it is not finite (see pow10).
func (s SlopeArea) MarshalJSON() ([]byte, error) {
	type plain SlopeArea
	return json.Marshal(struct {
		plain
		Ks *float64 `json:"ks"`
	}{plain(s), finite(s.Ks)})
}

// MarshalJSON writes h with C null where it is not finite (see pow10).
func (h Hack) MarshalJSON() ([]byte, error) {
	type plain Hack
	return json.Marshal(struct {
		plain
		C *float64 `json:"c"`
	}{plain(h), finite(h.C)})
}

// Slope returns the fitted slope at drainage area a m²,
// 10^(Log10Ks + Exponent·log10 a): finite over the fitted areas even where
// Ks is not.
func (s SlopeArea) Slope(a float64) float64 {
	return math.Pow(10, s.Log10Ks+s.Exponent*math.Log10(a))
}

// Length returns the fitted longest flow length at drainage area a km²,
// 10^(Log10C + H·log10 a) km: finite over the fitted areas even where C is
// not.
func (h Hack) Length(a float64) float64 {
	return math.Pow(10, h.Log10C+h.H*math.Log10(a))
}
