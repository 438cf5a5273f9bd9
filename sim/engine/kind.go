package engine

import (
	"fmt"
	"regexp"
)

// Kind names an engine: "grid", "graph", "roudier", "hydro", or any other
// engine's name. Its text is what scenes, projects, reports and the command
// line use. Each engine package declares its own (grid.Kind, graph.Kind,
// ...); the registry of the engines a scene may run on is app/engines,
// which alone lists them, gives their labels and resolves the zero Kind
// (a scene that names no engine) to its default.
type Kind string

// kindSyntax is what a kind's name may be: a lower-case identifier.
var kindSyntax = regexp.MustCompile(`^[a-z][a-z0-9_-]{0,31}$`)

// String returns the kind's name, as files and flags spell it.
func (k Kind) String() string { return string(k) }

// MarshalText returns the kind's name.
func (k Kind) MarshalText() ([]byte, error) {
	if k != "" && !kindSyntax.MatchString(string(k)) {
		return nil, fmt.Errorf("engine: malformed kind %q", string(k))
	}
	return []byte(k), nil
}

// UnmarshalText reads an engine's name. Whether an engine of that name
// exists is the registry's to say (app/engines.Lookup); here only its
// spelling is checked.
func (k *Kind) UnmarshalText(b []byte) error {
	if len(b) > 0 && !kindSyntax.Match(b) {
		return fmt.Errorf("engine %q: not an engine's name (lower-case letters, digits, - and _)", b)
	}
	*k = Kind(b)
	return nil
}
