package engine

import (
	"fmt"

	"orogen/sim/enum"
)

// Kind names an engine. Its text form ("grid", "graph", "roudier",
// "hydro") is what scenes, projects, reports and the command line use.
type Kind uint8

// The engines. Grid is the zero value: a scene that names no engine runs
// on the grid.
const (
	Grid    Kind = iota // stream power on a regular grid (sim/grid)
	Graph               // stream power on a stream graph of Poisson nodes (sim/graph)
	Roudier             // Roudier et al. 1993's erosion and deposition processes on the grid (sim/roudier)
	Hydro               // hydraulic and thermal erosion by virtual pipes (sim/hydro)
	numKinds
)

// kindNames is the kinds' one name table. The scene kinds come first, so
// that sceneNames, the names ParseKind reads, is a prefix of it.
var kindNames = [numKinds]string{Grid: "grid", Graph: "graph", Roudier: "roudier", Hydro: "hydro"}

var sceneNames = kindNames[:Hydro]

// kindLabels are the kinds' names as the app shows them.
var kindLabels = [numKinds]string{Grid: "grid", Graph: "stream graph", Roudier: "Roudier's processes", Hydro: "hydraulic & thermal"}

// SceneKinds are the kinds a scene may run on, in the order the app lists
// them. The hydraulic engine is a detail pass over a terrain instead.
var SceneKinds = []Kind{Grid, Graph, Roudier}

// String returns the kind's name, as files and flags spell it.
func (k Kind) String() string { return enum.Name(kindNames[:], k) }

// Label returns the kind's name as the app shows it.
func (k Kind) Label() string {
	if k < numKinds {
		return kindLabels[k]
	}
	return k.String()
}

// Scene reports whether a scene may run on k.
func (k Kind) Scene() bool { return int(k) < len(sceneNames) }

// ParseKind returns the scene engine named s; "" is Grid.
func ParseKind(s string) (Kind, error) {
	if s == "" {
		return Grid, nil
	}
	return enum.Parse[Kind]("engine", sceneNames, s)
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
