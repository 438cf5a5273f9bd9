package engine

import "fmt"

// Kind names an engine. Its text form ("grid", "graph", "hydro") is what
// scenes, projects, reports and the command line use.
type Kind uint8

// The engines. Grid is the zero value: a scene that names no engine runs
// on the grid.
const (
	Grid  Kind = iota // stream power on a regular grid (sim/grid)
	Graph             // stream power on a stream graph of Poisson nodes (sim/graph)
	Hydro             // hydraulic and thermal erosion by virtual pipes (sim/hydro)
	numKinds
)

var kindInfo = [numKinds]struct {
	name, label string
	scene       bool
}{
	Grid:  {"grid", "grid", true},
	Graph: {"graph", "stream graph", true},
	Hydro: {"hydro", "hydraulic & thermal", false},
}

// SceneKinds are the kinds a scene may run on, in the order the app lists
// them. The hydraulic engine is a detail pass over a terrain instead.
var SceneKinds = []Kind{Grid, Graph}

// String returns the kind's name, as files and flags spell it.
func (k Kind) String() string {
	if k < numKinds {
		return kindInfo[k].name
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Label returns the kind's name as the app shows it.
func (k Kind) Label() string {
	if k < numKinds {
		return kindInfo[k].label
	}
	return k.String()
}

// Scene reports whether a scene may run on k.
func (k Kind) Scene() bool { return k < numKinds && kindInfo[k].scene }

// ParseKind returns the scene engine named s; "" is Grid.
func ParseKind(s string) (Kind, error) {
	if s == "" {
		return Grid, nil
	}
	for _, k := range SceneKinds {
		if kindInfo[k].name == s {
			return k, nil
		}
	}
	return Grid, fmt.Errorf("engine %q: must be grid or graph", s)
}

// MarshalText returns the kind's name.
func (k Kind) MarshalText() ([]byte, error) {
	if !k.Scene() && k != Hydro {
		return nil, fmt.Errorf("engine: unknown kind %d", uint8(k))
	}
	return []byte(k.String()), nil
}

// UnmarshalText reads a scene engine's name (ParseKind).
func (k *Kind) UnmarshalText(b []byte) error {
	v, err := ParseKind(string(b))
	if err != nil {
		return err
	}
	*k = v
	return nil
}
