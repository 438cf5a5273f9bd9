// Package worker runs the simulation of the desktop app: one goroutine owns
// a grid.Engine, steps it, applies the commands the UI sends, and publishes
// what the UI draws as immutable Frames.
//
// # Ownership
//
// The worker goroutine alone touches the engine, from New to Close. Other
// goroutines talk to it through two calls that never wait on the engine:
// Send appends commands to a queue under a mutex held for an append, and
// Frame loads the newest frame from an atomic.Pointer. Ebiten's Update and
// Draw may call both freely.
//
// Slices handed over belong to the worker from then on: cfg.Up and
// cfg.Init given to New, SetUplift.U, Reset.Cfg.Up and Reset.Cfg.Init,
// SetHeights.H. The sender must not write them afterwards (the worker
// keeps the uplift to rebuild the engine on SetHeights).
//
// A published Frame, its Snapshot and its History are never written again
// and may be kept and read by any number of goroutines. Frames are cheap
// to hold: a new one does not recycle the old one's memory.
//
// # Ordering
//
// Commands are applied by the worker goroutine in the order they were
// sent (Send calls from one goroutine keep their order; from several, the
// order in which they took the mutex), between engine steps, never during
// one. Each command counts one in the sequence number: Frame.Seq is the
// number of commands applied when its snapshot was taken, SendSeq returns
// the number the last command sent will have, Sync replies with its own.
//
// A Step{N} occupies the next N steps: commands sent after it wait until
// they are done (or the engine fails, or the worker is closed), so a
// script of Step and SetParams commands runs exactly as written. Run and
// Pause apply at once.
//
// Consecutive SetParams (or consecutive SetUplift) still waiting in the
// queue are coalesced: the newest valid one is applied, which leaves the
// state and Seq exactly as applying them one by one would; only the errors
// of the older ones are not reported. Commands of other kinds are never
// reordered.
//
// A command the engine rejects (invalid parameters, an uplift or heightmap
// of the wrong size or with non-finite values, a configuration out of
// range, a negative Step) changes nothing; Frame.CmdErr and CmdErrSeq
// report it. A step that produces non-finite heights, or panics (some
// parameters that pass validation overflow a solver), pauses the worker
// with Frame.Err set; Run and Step then do nothing until a Reset or
// SetHeights builds a new engine. Edits still apply meanwhile and carry
// over to SetHeights. After a panic the engine's fields may belong to two
// different steps, so frames keep the last snapshot taken before it. A
// panic in a goroutine the engine starts for its own parallel loops cannot
// be recovered and still ends the program.
//
// # Publishing
//
// A frame is published:
//   - at New (step 0);
//   - after a step, when a command was applied since the last frame, when
//     the worker is about to stop stepping (Pause, the end of a Step, an
//     engine error), when a Sync waits, or when Options.MinInterval
//     (DefaultMinInterval, 50 ms) has passed since the last frame;
//   - while paused, as soon as a batch of commands was applied, so edits
//     show without stepping.
//
// So a command applied between steps k and k+1 is in the frame of step
// k+1 at the latest: a slider moved during step k shows on screen at step
// k+1, within two steps of the one in progress. Between those
// guarantees, frames are limited to one per MinInterval because a
// snapshot is a full copy: 5.5 MB at 512², 22 MB at 1024², costing 0.7 to
// 2.2 ms against a 9 ms step at 512² and 2.7 to 10 ms against a 37 ms step
// at 1024² (BenchmarkSnapshot; the high figures when the memory is fresh
// from the OS). Publishing after every step takes 12 to 14 % of the
// worker's wall time; with the default interval, 4 to 8 %
// (BenchmarkWorker). A Sync is answered only once a frame with its
// sequence number is published, so after <-Done, Frame reflects every
// command up to the Sync.
//
// Frame.StepsPerSec is the wall-clock rate over about the last second of
// continuous stepping; PhaseMs and StepMs are those of the newest step.
// Frame.History holds one sample per step of the current engine until it
// has MaxHistory; then every other sample is dropped, counting back from
// the newest, which stays exact. Thinning writes a new array, so published
// histories stay unchanged; between thinnings the worker only appends past
// the end of what it published, so a step costs no copy of the history.
package worker
