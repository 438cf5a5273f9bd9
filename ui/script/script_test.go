package script

import (
	"strings"
	"testing"
)

// testSpecs is a grammar like the app's (whose action table is in package
// ui and is tested there).
var testSpecs = map[string]Spec{
	"wait":  {Min: 1, Max: 1, Check: func(c Command) error { _, err := c.Count(0); return err }},
	"steps": {Min: 1, Max: 1, Check: func(c Command) error { _, err := c.Count(0); return err }},
	"stroke": {Min: 5, Max: 7, Check: func(c Command) error {
		if err := c.Choice(0, "brush kind", "raise", "lower"); err != nil {
			return err
		}
		return c.Nums(1)
	}},
	"segment": {Min: 4, Max: 4, Check: func(c Command) error { return c.Nums(0) }},
	"set": {Min: 2, Max: 2, Check: func(c Command) error {
		if err := c.Choice(0, "slider", "k", "m"); err != nil {
			return err
		}
		return c.Nums(1)
	}},
	"export":     {Min: 2, Max: 2, Check: func(c Command) error { return c.Choice(0, "export", "heightmap", "masks") }},
	"expect-log": {Min: 1, Max: -1},
	"quit":       {},
}

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
`), testSpecs)
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
		{"stroke paint 1 2 3 4", `unknown brush kind "paint": want raise or lower`},
		{"stroke raise 1 2 3 NaN", "not a finite number"},
		{"stroke raise 1 2 3", "5 to 7 arguments"},
		{"set speed 3", `unknown slider "speed"`},
		{"set k abc", "not a finite number"},
		{"export picture a.png", "unknown export"},
		{"quit now", "quit takes 0 arguments, got 1"},
		{"\n\nsegment 1 2 3 inf", "line 3: segment"},
	} {
		_, err := Parse(strings.NewReader(c.in), testSpecs)
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
		cmds, err := Parse(strings.NewReader(s), testSpecs)
		if err != nil {
			return
		}
		// Whatever parses has a known name, an accepted argument count,
		// and arguments that check.
		for _, c := range cmds {
			spec, ok := testSpecs[c.Name]
			if !ok || len(c.Args) < spec.Min || spec.Max >= 0 && len(c.Args) > spec.Max {
				t.Fatalf("accepted %+v", c)
			}
			if spec.Check != nil {
				if err := spec.Check(c); err != nil {
					t.Fatalf("accepted %+v whose check fails: %v", c, err)
				}
			}
		}
	})
}
