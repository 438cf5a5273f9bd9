package ui

import (
	"os"
	"strings"
	"testing"

	"orogen/ui/script"
)

// TestActionTable: every action has a name, a label and a run function;
// names are unique; every key is bound once; every menu item's arguments
// and every key's satisfy the action's script grammar (or are nil: the
// action asks); and every menu the bar shows has items.
func TestActionTable(t *testing.T) {
	names := map[string]bool{}
	keys := map[key]string{}
	menus := map[string]int{}
	for _, ac := range actions {
		if ac.name == "" || ac.label == "" || ac.run == nil {
			t.Errorf("action %q: name, label and run are required (label %q)", ac.name, ac.label)
		}
		if names[ac.name] {
			t.Errorf("action %q twice", ac.name)
		}
		names[ac.name] = true
		for _, it := range ac.items {
			if it.menu == "" && it.key.zero() {
				t.Errorf("action %q: an item with neither menu nor key", ac.name)
			}
			if it.menu != "" {
				menus[it.menu]++
				if it.label == "" && it.labelOf == nil {
					t.Errorf("action %q: a menu item without a label", ac.name)
				}
			}
			if !it.key.zero() {
				if it.key.String() == "" || strings.HasSuffix(it.key.String(), "+") {
					t.Errorf("action %q: key %v has no name", ac.name, it.key)
				}
				if other, ok := keys[it.key]; ok {
					t.Errorf("key %s bound to %q and %q", it.key, other, ac.name)
				}
				keys[it.key] = ac.name
			}
			if it.args == nil {
				continue
			}
			c := script.Command{Name: ac.name, Args: it.args}
			// A menu item may leave out the trailing path its action
			// then asks for; its arguments must otherwise check.
			if len(it.args) > ac.spec.Max && ac.spec.Max >= 0 {
				t.Errorf("action %q: item %q passes %d arguments, more than %d", ac.name, it.label, len(it.args), ac.spec.Max)
			}
			if len(it.args) >= ac.spec.Min && ac.spec.Check != nil {
				if err := ac.spec.Check(c); err != nil {
					t.Errorf("action %q: item %q's arguments %v: %v", ac.name, it.label, it.args, err)
				}
			}
		}
	}
	for _, m := range []string{"File", "Edit", "View", "Simulation", "Help"} {
		if menus[m] == 0 {
			t.Errorf("menu %s has no items", m)
		}
	}
}

// TestScriptCommandsAreActions: every command the script language
// documents (package script's doc) is an action, and every action is
// documented there; the grammar is the table's.
func TestScriptCommandsAreActions(t *testing.T) {
	b, err := os.ReadFile("script/script.go")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b[:strings.Index(string(b), "package script")])
	specs := scriptSpecs()
	documented := map[string]bool{}
	for _, line := range strings.Split(doc, "\n") {
		// Command lines are "//\tNAME ARGS   what it does".
		rest, ok := strings.CutPrefix(line, "//\t")
		if !ok || strings.HasPrefix(rest, " ") {
			continue
		}
		documented[strings.Fields(rest)[0]] = true
	}
	for name := range documented {
		if _, ok := specs[name]; !ok {
			t.Errorf("the script doc lists %q, which is no action", name)
		}
	}
	for _, ac := range actions {
		if !documented[ac.name] {
			t.Errorf("action %q is missing from the script doc (ui/script/script.go)", ac.name)
		}
	}
}

// TestScriptGrammarErrors: the table's grammar refuses bad lines before a
// session starts, naming the problem.
func TestScriptGrammarErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"jump 3", `line 1: unknown command "jump"`},
		{"wait", "wait takes 1 arguments, got 0"},
		{"wait -1", "not a count"},
		{"stroke paint 1 2 3 4", "unknown brush kind"},
		{"stroke raise 1 2 3 NaN", "not a finite number"},
		{"stroke raise 1 2 3", "5 to 7 arguments"},
		{"set speed 3", `unknown slider "speed"`},
		{"set k abc", "not a finite number"},
		{"export picture a.png", "unknown export"},
		{"import nothing a.png", "unknown import"},
		{"engine mesh", `unknown engine "mesh"`},
		{"engine grid 100", "graph engine only"},
		{"view 4d", `unknown view "4d"`},
		{"show rivers maybe", `unknown state "maybe"`},
		{"\n\nsegment 1 2 3 inf", "line 3: segment"},
	} {
		_, err := script.Parse(strings.NewReader(c.in), scriptSpecs())
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse(%q): got %v; want an error containing %q", c.in, err, c.want)
		}
	}
	good := "wait 3\nstroke raise 1 2 3 4 5 0.5\nset k 1e-6\nset threshold 2\nsteps 10\nengine graph 4000\nview split\nshow rivers off\nexport heightmap out.png\nexpect-log opened some file\nquit\n"
	if _, err := script.Parse(strings.NewReader(good), scriptSpecs()); err != nil {
		t.Fatal(err)
	}
}

// TestTitles: dialog titles and the Shortcuts window name actions without
// the script's notes (the "no export profile" error was titled "Build the
// export profile into DIR (default NAME-build beside ..."), and every
// action has a title.
func TestTitles(t *testing.T) {
	for l, want := range map[string]string{
		"Build the export profile into DIR (default NAME-build beside the project; a script waits)": "Build the export profile",
		"Quit (a script skips the unsaved-changes prompt)":                                          "Quit",
		"Save the project":                   "Save the project",
		"Wait until slider NAME reads VALUE": "Wait until slider",
	} {
		if got := plainLabel(l); got != want {
			t.Errorf("plainLabel(%q) = %q; want %q", l, got, want)
		}
	}
	for _, ac := range actions {
		if ti := ac.title(); ti == "" || strings.Contains(ti, "(") {
			t.Errorf("action %q: title %q", ac.name, ti)
		}
	}
	for _, h := range keyHelp() {
		if strings.Contains(h[1], "script") {
			t.Errorf("Shortcuts: %s: %q speaks of scripts", h[0], h[1])
		}
	}
}
