// Package session is the desktop app without its window: the open
// document and its file, the stream-power worker that simulates it, the
// hydraulic detail pass, and every action a user can take on them (new,
// open, save, export, import, undo and redo, run and pause, engine
// switching, live parameters, autosave and recovery). Package ui draws a
// Session and turns mouse, keys, menus and script commands into its
// actions; tests drive a Session directly, without a display.
//
// # Ownership
//
// A Session belongs to one goroutine (the UI's Update): its methods must
// not be called concurrently. It owns the worker and the detail runner,
// which run on goroutines of their own, and while the Amplify preview is
// on its amplifier (app/amplifier); it talks to them only through
// commands and requests and reads their newest frames and previews, so no
// method waits on a step or an amplification (Close waits for the
// goroutines to end).
//
// # Keeping the engine in step
//
// Edits change the document only. Sync hands the worker what changed since
// the last Sync: the uplift (a copy the worker then owns), the stream-power
// parameters, or, for a new engine kind or node count, a new engine on the
// flat start. What the worker has is one comparable key (engineKey); Sync
// compares it with the document's. The UI calls Sync once a frame.
//
// # Errors
//
// Actions return errors that name the problem and leave the document as it
// was. Progress and notices go to Options.Log.
package session
