// Package worker runs the simulation of the desktop app: a runner (see
// package runner) whose goroutine owns a stream-power engine
// (sim/engine.Engine: the grid or the stream graph), steps it, applies the
// commands the UI sends, and publishes what the UI draws as immutable
// Frames.
//
// The runner's rules hold: commands through Send (the runner's Run, Pause,
// Step, Sync and SetDuty, and the worker's SetParams, SetUplift, Reset and
// SetHeights), frames through Frame, Close; ordering, coalescing, Step
// holding later commands, Sync and the publishing guarantees are package
// runner's. This package adds the engine's part.
//
// Once the terrain has settled (Frame.Converged) the worker rests: it is a
// runner.Rester, so a running worker takes no step (Frame.Resting, no
// CPU) until a command changes the engine (parameters, uplift, geology,
// heights, Reset). Stepping on would change nothing but the clock.
//
// # Ownership
//
// Slices handed over belong to the worker from then on: spec.Up and
// spec.Init given to New, SetUplift.U, Reset.Spec.Up and Reset.Spec.Init,
// SetHeights.H. The sender must not write them afterwards (the worker
// keeps the uplift to rebuild the engine on SetHeights).
//
// A published Frame, its Snapshot and its History are never written again
// and may be kept and read by any number of goroutines. Frames are cheap
// to hold: a new one does not recycle the old one's memory.
//
// # Commands and errors
//
// Consecutive SetParams (or consecutive SetUplift) still waiting in the
// queue are coalesced (they are runner.Coalescing): the newest valid one
// is applied, which leaves the state and Seq exactly as applying them one
// by one would; only the errors of the older ones are not reported.
//
// A command the engine rejects (invalid parameters, an uplift or heightmap
// of the wrong size or with non-finite values, a configuration out of
// range) changes nothing; Frame.CmdErr and CmdErrSeq report it. A step
// that produces non-finite heights, or panics (some parameters that pass
// validation overflow a solver), pauses the worker with Frame.Err set;
// Run and Step then do nothing until a Reset or SetHeights builds a new
// engine. Edits still apply meanwhile and carry over to SetHeights. After
// a panic the engine's fields may belong to two different steps, so
// frames keep the last snapshot taken before it.
//
// # Publishing
//
// Frames are published as package runner says: at New (step 0), after the
// first step following a command, before the worker stops stepping, for a
// waiting Sync, at most every MinInterval otherwise, and while paused as
// soon as commands were applied. A frame reuses the last snapshot unless
// the engine changed since. Frames are limited to one per MinInterval
// because a snapshot is a full copy: 5.5 MB at 512², 22 MB at 1024²,
// costing 0.7 to 2.2 ms against a 9 ms step at 512² and 2.7 to 10 ms
// against a 37 ms step at 1024² (BenchmarkSnapshot; the high figures when
// the memory is fresh from the OS). Publishing after every step takes 12
// to 14 % of the worker's wall time; with the default interval, 4 to 8 %
// (BenchmarkWorker).
//
// PhaseMs and StepMs are those of the newest step. Frame.History holds one
// sample per step of the current engine until it has MaxHistory; then
// every other sample is dropped, counting back from the newest, which
// stays exact. Thinning writes a new array, so published histories stay
// unchanged; between thinnings the worker only appends past the end of
// what it published, so a step costs no copy of the history.
package worker
