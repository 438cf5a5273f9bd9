// Package enginetest is the conformance suite of the engine contract
// (package engine), as gonum's graph/testgraph is of its graphs: every
// engine's tests call Run with a constructor, and a new engine inherits
// the contract's tests by that one call.
//
// Run checks what every engine promises above its own physics: its size
// and snapshots agree; the same inputs give bit-identical heights for 1
// and 3 workers (GOMAXPROCS); its rock account closes (engine.Mass,
// Uplift − Out − Stored within a tolerance the caller states, since each
// engine rounds its heights to float32); non-finite or misshapen input is
// refused with an error and leaves the engine stepping as before; a
// snapshot is never written after it is returned; a change of parameters
// or uplift acts at the next step, not before; and Converged comes for a
// terrain without uplift.
//
// Toy is a tiny engine of its own (uplift against a linear decay towards
// sea level, explicit), which the registry's tests register to show that
// a new engine is its package plus one registry entry.
package enginetest
