package scene

import (
	"strings"
	"testing"
)

// TestPhysicsKeys: the creep, deposition (plain uplift too), k noise and routing keys parse,
// survive Marshal, default to the old physics when left out, and bad
// values name the key.
func TestPhysicsKeys(t *testing.T) {
	s, err := Parse([]byte(`{"version": 1, "uplift": {"image": "u.png"}, "params": {"creep_critical_slope": 0.6,
		"deposition_g": 1, "k_noise": 0.4, "k_noise_wavelength_m": 5000, "hillslope_routing": "random", "channel_area_m2": 1e6,
		"plain_uplift_m_per_yr": 1e-6}}`))
	if err != nil {
		t.Fatal(err)
	}
	p := s.Params
	if p.CreepCriticalSlope != 0.6 || p.DepositionG != 1 || p.KNoise != 0.4 || p.KNoiseWavelengthM != 5000 || p.HillslopeRouting != "random" || p.ChannelAreaM2 != 1e6 || p.PlainUpliftMPerYr != 1e-6 {
		t.Fatalf("parsed %+v", p)
	}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	if ep, err := s.EngineParams(); err != nil || ep.PlainUplift != 1e-6 || ep.G != 1 {
		t.Fatalf("engine params %+v, %v; want G 1, plain uplift 1e-6", ep, err)
	}
	b, err := Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse(b)
	if err != nil || back.Params != s.Params {
		t.Fatalf("round trip: %v, %+v; want %+v", err, back.Params, s.Params)
	}
	old, err := Parse([]byte(`{"version": 1, "uplift": {"image": "u.png"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if q := old.Params; q.CreepCriticalSlope != 0 || q.DepositionG != 0 || q.KNoise != 0 || q.HillslopeRouting != "" || q.PlainUpliftMPerYr != 0 {
		t.Errorf("a scene without the keys gets %+v; want the old physics (zeros)", q)
	}
	for _, c := range []struct{ js, want string }{
		{`"deposition_g": -1`, "params.deposition_g"},
		{`"creep_critical_slope": 1000`, "params.creep_critical_slope"},
		{`"k_noise": 5`, "params.k_noise"},
		{`"plain_uplift_m_per_yr": -1e-6`, "params.plain_uplift_m_per_yr"},
		{`"hillslope_routing": "mfd"`, "params.hillslope_routing"},
	} {
		s, err := Parse([]byte(`{"version": 1, "uplift": {"image": "u.png"}, "params": {` + c.js + `}}`))
		if err == nil {
			err = s.Validate()
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v; want an error naming %s", c.js, err, c.want)
		}
	}
}
