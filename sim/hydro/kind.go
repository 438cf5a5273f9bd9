package hydro

import "orogen/sim/engine"

// Kind is the hydraulic engine's name in snapshots and reports. It is a
// detail pass over a terrain, not an engine a scene runs on.
const Kind engine.Kind = "hydro"
