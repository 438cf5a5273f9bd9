package scene

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPresetsLoadAndValidate(t *testing.T) {
	names := PresetNames()
	for _, want := range []string{"cone", "default", "gradient", "steps", "collision", "arc", "plateau", "island"} {
		found := false
		for _, n := range names {
			found = found || n == want
		}
		if !found {
			t.Errorf("preset %q missing from %v", want, names)
		}
	}
	for _, n := range names {
		s, err := Load(n)
		if err != nil {
			t.Fatalf("preset %s: %v", n, err)
		}
		if err := s.Validate(); err != nil {
			t.Errorf("preset %s: %v", n, err)
		}
		if !s.Embedded() || s.Name != n {
			t.Errorf("preset %s: embedded %v, name %q", n, s.Embedded(), s.Name)
		}
		if s.Uplift.Tree != nil {
			if s.Uplift.Image != "" || s.Uplift.Tree.Len() < 3 {
				t.Errorf("preset %s: tree of %d nodes and image %q", n, s.Uplift.Tree.Len(), s.Uplift.Image)
			}
			continue
		}
		r, err := s.Open(s.Uplift.Image)
		if err != nil {
			t.Fatalf("preset %s: %v", n, err)
		}
		b, _ := io.ReadAll(r)
		r.Close()
		if len(b) < 8 || string(b[1:4]) != "PNG" {
			t.Errorf("preset %s: uplift %s is not a PNG", n, s.Uplift.Image)
		}
	}
}

func TestRoundTrip(t *testing.T) {
	s, err := Load("default")
	if err != nil {
		t.Fatal(err)
	}
	s.Init = &Init{Image: "start.tif"}
	s.Params.Talus = Talus{Mode: "noise", MinDeg: 6, MaxDeg: 54, WavelengthM: 4000, Octaves: 5}
	s.Params.Edges.West = "natural"
	b, err := Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	s2, err := Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	b2, err := Marshal(s2)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != string(b2) {
		t.Fatalf("round trip changed the scene:\n%s\n%s", b, b2)
	}
}

func TestDefaultsFilled(t *testing.T) {
	s, err := Parse([]byte(`{"version": 1, "uplift": {"image": "u.png"}, "params": {"k": 1e-6}}`))
	if err != nil {
		t.Fatal(err)
	}
	d := Default()
	if s.Params.K != 1e-6 || s.Params.M != d.Params.M || s.Params.DtYr != 2.5e5 || s.DomainM != 50000 ||
		s.Width != 512 || s.Uplift.UmaxMPerYr != 5e-4 || s.Params.Talus.AngleDeg != 30 || s.Params.Edges.North != "outlet" {
		t.Fatalf("defaults not filled: %+v", s)
	}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
}

func TestValidationErrors(t *testing.T) {
	cases := []struct {
		json string
		want string
	}{
		{`"params": {"k": -1}`, "params.k = -1"},
		{`"params": {"k": 0}`, "params.k = 0"},
		{`"params": {"m": 3}`, "params.m"},
		{`"params": {"n": 0}`, "params.n"},
		{`"params": {"dt_yr": 1e9}`, "params.dt_yr"},
		{`"params": {"diffusion_m2_per_yr": -0.1}`, "diffusion"},
		{`"width": 2`, "width = 2"},
		{`"height": 100000`, "height"},
		{`"domain_m": 0`, "domain_m"},
		{`"steps": -4`, "steps"},
		{`"uplift": {"image": "u.png", "umax_m_per_yr": 3}`, "umax"},
		{`"engine": "voxel"`, "engine"},
		{`"params": {"talus": {"mode": "constant", "angle_deg": 95}}`, "angle_deg"},
		{`"params": {"talus": {"mode": "noise", "min_deg": 60, "max_deg": 54, "wavelength_m": 100, "octaves": 3}}`, "min_deg 60 > max_deg 54"},
		{`"params": {"talus": {"mode": "noise", "min_deg": 6, "max_deg": 54, "wavelength_m": 100, "octaves": 0}}`, "octaves"},
		{`"params": {"talus": {"mode": "wobbly"}}`, "talus.mode"},
		{`"params": {"edges": {"north": "open", "south": "outlet", "east": "outlet", "west": "outlet"}}`, "edges.north"},
		{`"params": {"edges": {"north": "closed", "south": "closed", "east": "closed", "west": "closed"}}`, "nowhere to go"},
		{`"uplift": {"umax_m_per_yr": 1e-4}`, "no uplift.image"},
		{`"uplift": {"image": "u.png", "tree": {"version": 1, "root": 1, "nodes": [{"id": 1, "type": "disc", "center": [0, 0], "radius": 10}]}}`, "both an image and a tree"},
		{`"uplift": {"image": "u.png", "layers": {"a": "a.png"}}`, "layers without"},
	}
	for _, tc := range cases {
		doc := `{"version": 1, "uplift": {"image": "u.png"}, ` + tc.json + `}`
		if strings.Contains(tc.json, `"uplift"`) {
			doc = `{"version": 1, ` + tc.json + `}`
		}
		s, err := Parse([]byte(doc))
		if err == nil {
			err = s.Validate()
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v; want one containing %q", tc.json, err, tc.want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	cases := []struct{ doc, want string }{
		{`{"uplift": {}}`, "no \"version\""},
		{`{"version": 7}`, "version 7 is not supported"},
		{`{"version": 1, "colour": "red"}`, "colour"},
		{`{"version": 1, "params": {"kk": 1}}`, "kk"},
		{`{"version": 1, "width": "big"}`, "width"},
		{"{\"version\": 1,\n\"width\": 5,,}", "line 2"},
		{`{"version": 1} {}`, "after the JSON"},
		{`{"version": 1, "params": {"k": 1e400}}`, "k"},
	}
	for _, tc := range cases {
		_, err := Parse([]byte(tc.doc))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Parse(%s): error %v; want one containing %q", tc.doc, err, tc.want)
		}
	}
}

func TestLoadFileResolvesRelativePaths(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "scenes")
	os.Mkdir(sub, 0o755)
	os.WriteFile(filepath.Join(sub, "up.png"), []byte("data"), 0o644)
	p := filepath.Join(sub, "alps.json")
	os.WriteFile(p, []byte(`{"version": 1, "uplift": {"image": "up.png"}}`), 0o644)
	s, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	if s.Name != "alps" || s.Embedded() {
		t.Fatalf("name %q embedded %v; want alps, false", s.Name, s.Embedded())
	}
	if got := s.Path("up.png"); got != filepath.Join(sub, "up.png") {
		t.Fatalf("Path = %s", got)
	}
	r, err := s.Open("up.png")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(r)
	r.Close()
	if string(b) != "data" {
		t.Fatalf("read %q", b)
	}
	if _, err := s.Open("missing.png"); err == nil || !strings.Contains(err.Error(), "missing.png") {
		t.Fatalf("opening a missing file: %v", err)
	}
}

func TestLoadMissing(t *testing.T) {
	_, err := Load("/no/such/scene.json")
	if err == nil || !strings.Contains(err.Error(), "/no/such/scene.json") || !strings.Contains(err.Error(), "default") {
		t.Fatalf("error %v; want one naming the path and listing the presets", err)
	}
}

func FuzzParse(f *testing.F) {
	for _, n := range PresetNames() {
		s, _ := Load(n)
		b, _ := Marshal(s)
		f.Add(b)
	}
	f.Add([]byte(`{"version": 1}`))
	f.Add([]byte(`{"version": 1, "params": {"talus": {"mode": "height", "low_deg": 10, "high_deg": 50, "height_m": 800}}}`))
	f.Add([]byte(`{"version": 2}`))
	f.Add([]byte(`{"version": 1, "init": null, "uplift": {"image": "x"}}`))
	f.Add([]byte(`[1, 2]`))
	f.Add([]byte(`{"version": 1, "uplift": {"image": "x"}, "constraints": [{"point": [25000, 25000], "height_m": 1500}, {"curve": [[1000, 2000, 300], [4000, 5000, 600]]}]}`))
	f.Add([]byte(`{"version": 1, "constraints": [{"point": [1, 2]}, {"curve": [[1, 2, 3]]}, null]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := Parse(b)
		if err != nil {
			return
		}
		valid := s.Validate() == nil
		out, err := Marshal(s)
		if err != nil {
			t.Fatalf("Marshal of a parsed scene: %v", err)
		}
		s2, err := Parse(out)
		if err != nil {
			t.Fatalf("Parse(Marshal(s)): %v\n%s", err, out)
		}
		out2, err := Marshal(s2)
		if err != nil || string(out) != string(out2) {
			t.Fatalf("round trip changed the scene (%v):\n%s\n%s", err, out, out2)
		}
		if (s2.Validate() == nil) != valid {
			t.Fatal("round trip changed validity")
		}
	})
}
