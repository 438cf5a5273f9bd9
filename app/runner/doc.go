// Package runner runs an engine of the desktop app on a goroutine of its
// own: it steps the engine, applies the commands the UI sends between
// steps, and publishes what the UI draws as immutable frames. The
// stream-power worker (app/worker) and the hydraulic detail pass
// (app/detail) are runners; each supplies only its engine's part, an
// Engine: its own commands, one step, and the frame it draws.
//
// A Runner[C, F] runs an Engine[C, F]: C is the interface of the engine's
// own commands (the worker's SetParams, SetUplift, Reset and SetHeights),
// F its frame type, which embeds State. The runner's own commands, Run,
// Pause, Step, Sync and SetDuty, serve every engine.
//
// # Ownership
//
// The runner's goroutine alone calls the Engine's methods, from New to
// Close (New itself calls Frame once, before the goroutine starts). Other
// goroutines talk to it through calls that never wait on the engine: Send
// appends commands to a queue under a mutex held for an append, and Frame
// loads the newest frame from an atomic.Pointer. Ebiten's Update and Draw
// may call both freely.
//
// Slices inside commands belong to the runner and its Engine from Send
// on: the sender must not write them afterwards.
//
// A published frame and everything it points to are never written again
// and may be kept and read by any number of goroutines. An Engine's Frame
// must therefore hand out copies, or slices it never writes again.
//
// # Ordering
//
// Commands are applied by the runner's goroutine in the order they were
// sent (Send calls from one goroutine keep their order; from several, the
// order in which they took the mutex), between engine steps, never during
// one. Each command counts one in the sequence number: State.Seq is the
// number of commands applied when its frame was built, SendSeq returns the
// number the last command sent will have, Sync replies with its own.
//
// A Step{N} occupies the next N steps: commands sent after it wait until
// they are done (or the engine fails, or the runner is closed), so a
// script of Step and parameter commands runs exactly as written. Run and
// Pause apply at once.
//
// Consecutive engine commands of one type that implement Coalescing (new
// parameters, a new uplift) still waiting in the queue are coalesced: the
// newest one the engine accepts is applied, which leaves the state and Seq
// exactly as applying them one by one would; only the errors of the older
// ones are not reported. Commands of other kinds are never reordered.
//
// An Engine that does some of a command's work on goroutines of its own
// (Background: the worker lays a new geology on the grid) has it landed
// between steps; Step and Sync commands, and those after them, wait until
// it has landed, so the steps of a Step and the frame a Sync answers with
// see it, as if the command had done its work at once.
//
// A command that is rejected (by the Engine, or a negative Step, a duty
// out of range) changes nothing; State.CmdErr and CmdErrSeq report it. A
// step that fails, or panics, pauses the runner with State.Err set; Run
// and Step then do nothing until an engine command replaces the engine
// (its Apply returns NewEngine). Other commands still apply meanwhile.
// After a panic the engine's fields may belong to two different steps:
// the Engine is told (Panicked) and its frames keep what it showed before.
// A panic in a goroutine the engine starts for its own parallel loops
// cannot be recovered and still ends the program.
//
// # Publishing
//
// A frame is published:
//   - at New;
//   - after a step, when a command was applied since the last frame, when
//     the runner is about to stop stepping (Pause, the end of a Step, an
//     engine error), when a Sync waits, or when Options.MinInterval
//     (DefaultMinInterval, 50 ms) has passed since the last frame;
//   - while paused, as soon as a batch of commands was applied, so edits
//     show without stepping.
//
// So a command applied between steps k and k+1 is in the frame of step
// k+1 at the latest: a slider moved during step k shows on screen at step
// k+1, within two steps of the one in progress. Between those guarantees,
// frames are limited to one per MinInterval because a frame usually holds
// a full copy of the engine's fields (the worker's doc gives the costs). A
// Sync is answered only once a frame with its sequence number is
// published, so after <-Done, Frame reflects every command up to the Sync.
//
// State.StepsPerSec is the wall-clock rate over about the last second of
// continuous stepping.
//
// # Resting
//
// Options.Duty (and SetDuty) bound the share of wall time the engine
// steps: after a step of t the runner rests t·(1 − Duty)/Duty, so a window
// drawing on the same cores keeps its frame rate. Commands wait for the
// rest to end (it is shorter than a step for Duty ≥ 1/2); Close ends it at
// once. Results never depend on it, only steps per second do.
//
// An engine that is a Rester may have no work: the worker's settled
// terrain. A running runner then takes no step; it publishes a frame with
// State.Resting and waits for a command as if paused (no CPU), and steps
// again once an applied command gives the engine work. Step commands step
// it anyway.
package runner
