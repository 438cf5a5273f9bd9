package engines

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"orogen/sim/engine"
)

// Param groups: the parameters an engine reads beside the time step and the
// uplift, which every engine reads. The app shows a slider only when the
// engine reads its group.
const (
	// StreamPower: k, m, n, the talus limit, hillslope diffusion, the
	// lakes' water budget, the edges (engine.Params).
	StreamPower = "stream-power"
	// Roudier: the coefficients of Roudier's engine (roudier.Params), its
	// CoefficientGroup.
	Roudier = "roudier"
	// The soil terms of engine.Params a stream-power engine may read
	// beside StreamPower (issue 34): Creep, nonlinear hillslope creep
	// (CreepSc); Deposition, sediment transport and deposition (G);
	// KNoise, k varying in space (KNoise, KNoiseWavelength); Routing,
	// randomized hillslope routing (Routing, ChannelArea).
	Creep      = "creep"
	Deposition = "deposition"
	KNoise     = "k-noise"
	Routing    = "routing"
)

// GroupLabel names a parameter group for people (`orogen engines`).
func GroupLabel(g string) string {
	switch g {
	case StreamPower:
		return "stream power (k, m, n, talus, diffusion, rain, edges)"
	case Creep:
		return "creep (creep_critical_slope)"
	case Deposition:
		return "deposition (deposition_g, plain_uplift_m_per_yr)"
	case KNoise:
		return "k noise (k_noise, k_noise_wavelength_m)"
	case Routing:
		return "hillslope routing (hillslope_routing, channel_area_m2)"
	case Roudier:
		return "Roudier's coefficients (roudier)"
	}
	return g
}

// Entry is one engine a scene may run on.
type Entry struct {
	Kind engine.Kind
	// Label names the engine for people: "stream graph".
	Label string
	// Help says in one line what the engine is and whom it follows, for
	// `--engine`'s help, the app's engine list and the New dialog.
	Help string
	// Nodes: the engine runs on nodes of its own whose count the user
	// may pick (Spec.Samples); the others refuse a count.
	Nodes bool
	// Groups are the parameter groups the engine reads (StreamPower,
	// Roudier, ...).
	Groups []string
	// Constraints: scenes on this engine may hold elevation constraints;
	// the engines New builds are engine.Constrainable.
	Constraints bool
	// New builds the engine s describes (s.Kind is this entry's).
	New func(s Spec) (engine.Engine, error)
	// Coefficients describe the engine's own coefficients
	// (engine.Coefficients), of the type DefaultCoefficients returns;
	// their parameter group is the kind's name (CoefficientGroup).
	Coefficients        []Coefficient
	DefaultCoefficients func() any
	// Status is the app's status lines about a snapshot of the engine
	// beyond heights and time (nil: StreamPowerStatus).
	Status func(s *engine.Snapshot) []string
	// BytesPerCell is the memory a run of the engine s describes takes
	// a cell of its grid, bytes, measured (docs/MEMORY.md; nil: the grid
	// engine's, GridBytesPerCell): see EstimateBytes.
	BytesPerCell func(s Spec) int
}

// StatusOf is the status lines of snapshot s by its engine's entry.
func StatusOf(s *engine.Snapshot) []string {
	if e, err := Lookup(s.Kind); err == nil && e.Status != nil {
		return e.Status(s)
	}
	return StreamPowerStatus(s)
}

// StreamPowerStatus is a stream-power engine's status line: its lakes,
// the cells the talus limit lowered, the grid.
func StreamPowerStatus(s *engine.Snapshot) []string {
	return []string{fmt.Sprintf("lakes %d   talus-clamped %d   %d×%d cells", s.Stats.Lakes, s.Stats.Clamped, s.W, s.H)}
}

// Reads reports whether the engine reads the parameter group g ("" is
// every engine's: the time step, the uplift).
func (e *Entry) Reads(g string) bool { return g == "" || slices.Contains(e.Groups, g) }

var (
	regMu    sync.RWMutex
	registry []*Entry
)

// Register adds an engine to the registry; the first registered is the
// default (the engine of a scene that names none). It panics on a kind
// registered twice or an entry without a kind or a constructor: a
// programmer's error.
func Register(e Entry) {
	regMu.Lock()
	defer regMu.Unlock()
	if e.Kind == "" || e.New == nil {
		panic("engines: Register: an entry needs a kind and New")
	}
	if _, err := e.Kind.MarshalText(); err != nil {
		panic("engines: Register: " + err.Error())
	}
	for _, r := range registry {
		if r.Kind == e.Kind {
			panic("engines: Register: " + string(e.Kind) + " registered twice")
		}
	}
	if e.Label == "" {
		e.Label = string(e.Kind)
	}
	e.readsOwn()
	registry = append(registry, &e)
}

// Default is the engine of a scene that names none (the first
// registered: the grid).
func Default() engine.Kind {
	regMu.RLock()
	defer regMu.RUnlock()
	return registry[0].Kind
}

// Kinds are the registered engines, in the order the app lists them.
func Kinds() []engine.Kind {
	regMu.RLock()
	defer regMu.RUnlock()
	ks := make([]engine.Kind, len(registry))
	for i, r := range registry {
		ks[i] = r.Kind
	}
	return ks
}

// Lookup returns the entry of kind k; "" is the default engine. An unknown
// kind is an error that lists the known ones.
func Lookup(k engine.Kind) (*Entry, error) {
	regMu.RLock()
	defer regMu.RUnlock()
	if k == "" {
		return registry[0], nil
	}
	for _, r := range registry {
		if r.Kind == k {
			return r, nil
		}
	}
	return nil, fmt.Errorf("unknown engine %q: want %s", string(k), namesLocked())
}

// Parse returns the registered engine named s ("" is the default), with an
// error naming the known ones.
func Parse(s string) (engine.Kind, error) {
	e, err := Lookup(engine.Kind(s))
	if err != nil {
		return "", err
	}
	return e.Kind, nil
}

// Names lists the registered engines for messages: "grid, graph or
// roudier".
func Names() string {
	regMu.RLock()
	defer regMu.RUnlock()
	return namesLocked()
}

func namesLocked() string {
	var b strings.Builder
	for i, r := range registry {
		switch {
		case i == 0:
		case i == len(registry)-1:
			b.WriteString(" or ")
		default:
			b.WriteString(", ")
		}
		b.WriteString(string(r.Kind))
	}
	return b.String()
}

// Label names kind k for people ("stream graph"); an unknown kind is
// named by its text.
func Label(k engine.Kind) string {
	if e, err := Lookup(k); err == nil {
		return e.Label
	}
	return string(k)
}

// Must is the entry of k, which must be registered: for kinds that came
// through Lookup or a validated scene.
func Must(k engine.Kind) *Entry {
	e, err := Lookup(k)
	if err != nil {
		panic("engines: " + err.Error())
	}
	return e
}
