package script

import (
	"strings"
	"testing"
)

// testSliders are the names the app's sliders have.
var testSliders = []string{"k", "m", "n", "dt", "talus", "diffusion", "umax", "threshold"}

func TestParseScript(t *testing.T) {
	cmds, err := Parse(strings.NewReader(`
# comment
wait 3
stroke raise 1 2 3 4 5 0.5
set k 1e-6
steps 10
export heightmap out.png
expect-log opened some file
quit
`), testSliders)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range cmds {
		names = append(names, c.Name)
	}
	if got, want := strings.Join(names, " "), "wait stroke set steps export expect-log quit"; got != want {
		t.Errorf("commands: got %q; want %q", got, want)
	}
	if cmds[0].Line != 3 {
		t.Errorf("line of the first command: got %d; want 3", cmds[0].Line)
	}
}

func TestParseScriptErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"jump 3", `line 1: unknown command "jump"`},
		{"wait", "wait takes 1 arguments, got 0"},
		{"wait -1", "not a count"},
		{"wait 1e3", "not a count"},
		{"stroke paint 1 2 3 4", "unknown brush kind"},
		{"stroke raise 1 2 3 NaN", "not a finite number"},
		{"stroke raise 1 2 3", "5 to 7 arguments"},
		{"set speed 3", `unknown slider "speed"`},
		{"set k abc", "not a finite number"},
		{"export picture a.png", "unknown export"},
		{"import nothing a.png", "unknown import"},
		{"\n\nsegment 1 2 3 inf", "line 3: segment"},
	} {
		_, err := Parse(strings.NewReader(c.in), testSliders)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("parseScript(%q): got %v; want an error containing %q", c.in, err, c.want)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add("wait 3\nstroke raise 1 2 3 4\nset k 1e-6\nquit\n")
	f.Add("# only a comment\n\n")
	f.Add("steps 99999999999999999999")
	f.Fuzz(func(t *testing.T, s string) {
		cmds, err := Parse(strings.NewReader(s), testSliders)
		if err != nil {
			return
		}
		// Whatever parses has a known name, an accepted argument count,
		// and arguments that check.
		for _, c := range cmds {
			lim, ok := ArgCount[c.Name]
			if !ok || len(c.Args) < lim[0] || len(c.Args) > lim[1] {
				t.Fatalf("accepted %+v", c)
			}
			if err := c.Check(testSliders); err != nil {
				t.Fatalf("accepted %+v whose check fails: %v", c, err)
			}
		}
	})
}
