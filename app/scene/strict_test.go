package scene

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStrictParse covers inputs that a lenient reader would take and then
// lose or misread: text after the document, talus keys of another mode, and
// an explicit zero angle that Marshal would drop.
func TestStrictParse(t *testing.T) {
	cases := []struct{ doc, want string }{
		{`{"version": 1, "uplift": {"image": "u.png"}} }`, "after the JSON"},
		{`{"version": 1, "uplift": {"image": "u.png"}}]`, "after the JSON"},
		{`{"version": 1, "uplift": {"image": "u.png"}, "params": {"talus": {"mode": "constant", "angle_deg": 0}}}`, "params.talus.angle_deg = 0"},
		{`{"version": 1, "uplift": {"image": "u.png"}, "params": {"talus": {"mode": "off", "angle_deg": 12}}}`, "params.talus.angle_deg"},
		{`{"version": 1, "uplift": {"image": "u.png"}, "params": {"talus": {"mode": "height", "low_deg": 10, "high_deg": 40, "octaves": 2}}}`, "params.talus.octaves"},
		{`{"version": 1, "uplift": {"image": "u.png"}, "params": {"talus": {"low_deg": 10}}}`, "params.talus.low_deg"},
	}
	for _, tc := range cases {
		_, err := Parse([]byte(tc.doc))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%s): error %v; want one containing %q", tc.doc, err, tc.want)
		}
	}
}

func TestTalusDefaults(t *testing.T) {
	cases := []struct {
		talus string
		want  Talus
	}{
		{`null`, Talus{Mode: "constant", AngleDeg: 30}},
		{`{}`, Talus{Mode: "constant", AngleDeg: 30}},
		{`{"angle_deg": 35}`, Talus{Mode: "constant", AngleDeg: 35}},
		{`{"mode": "off"}`, Talus{Mode: "off"}},
		{`{"mode": "height", "low_deg": 20, "high_deg": 50, "height_m": 0, "blend_m": 0}`, Talus{Mode: "height", LowDeg: 20, HighDeg: 50}},
	}
	for _, tc := range cases {
		s, err := Parse([]byte(`{"version": 1, "uplift": {"image": "u.png"}, "params": {"talus": ` + tc.talus + `}}`))
		if err != nil {
			t.Errorf("talus %s: %v", tc.talus, err)
			continue
		}
		if s.Params.Talus != tc.want {
			t.Errorf("talus %s: got %+v; want %+v", tc.talus, s.Params.Talus, tc.want)
		}
		if err := s.Validate(); err != nil {
			t.Errorf("talus %s: %v", tc.talus, err)
		}
	}
}

// TestValidateTalusKeys: a scene built in code with a field its talus mode
// ignores is refused, because Marshal would write it and Parse refuse it.
func TestValidateTalusKeys(t *testing.T) {
	s := Default()
	s.Uplift.Image = "u.png"
	s.Params.Talus = Talus{Mode: "off", AngleDeg: 30}
	if err := s.Validate(); err == nil || !strings.Contains(err.Error(), "params.talus.angle_deg") {
		t.Fatalf("Validate: %v; want an error naming params.talus.angle_deg", err)
	}
}

func TestFilesOfAScene(t *testing.T) {
	s, err := Load("cone")
	if err != nil {
		t.Fatal(err)
	}
	if p := s.Path(s.Uplift.Image); p != "" {
		t.Errorf("Path of an embedded file = %q; want \"\"", p)
	}
	b, err := s.ReadFile(s.Uplift.Image)
	if err != nil || len(b) < 8 || string(b[1:4]) != "PNG" {
		t.Errorf("ReadFile(%s) = %d bytes, %v; want a PNG", s.Uplift.Image, len(b), err)
	}
	if _, err := s.ReadFile("nope.png"); err == nil || !strings.Contains(err.Error(), "nope.png") {
		t.Errorf("ReadFile of a missing embedded file: %v; want an error naming it", err)
	}

	// An absolute path is used as is, by presets and scene files alike.
	abs := filepath.Join(t.TempDir(), "heights.r16")
	if err := os.WriteFile(abs, []byte("abs"), 0o644); err != nil {
		t.Fatal(err)
	}
	if p := s.Path(abs); p != abs {
		t.Errorf("Path(%s) = %q; want it unchanged", abs, p)
	}
	if b, err := s.ReadFile(abs); err != nil || string(b) != "abs" {
		t.Errorf("ReadFile(%s) = %q, %v; want \"abs\"", abs, b, err)
	}
}
