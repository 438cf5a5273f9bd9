// Package drive steps an erosion engine the one way Orogen does: the
// desktop app's worker runs a Driver on its goroutine, `orogen run` and
// `orogen build` call the same Driver in a loop, so the app and the
// command line agree by construction.
//
// A Driver owns an engine built through the registry (app/engines), the
// settling scheme that steps it (sim/settle: the user's dt while the
// drainage network organizes, longer steps while it calms down, the
// user's dt again to confirm; engines whose laws are per step keep the
// user's dt), and the scene's elevation constraints (sim/constrain): the
// uplift is the base uplift times the constraint solver's factors, which
// are adjusted every ConstraintEvery steps, or as soon as the terrain has
// settled with a constraint still off by more than ConstraintTol of the
// relief. A terrain counts as settled only once its constraints are met.
//
// Changes arrive as Commands (Apply) between steps; every command takes
// effect at the next Step. A Driver is owned by one goroutine: Apply, Step
// and the accessors must not run concurrently.
package drive
