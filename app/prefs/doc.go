// Package prefs keeps what the desktop app remembers between runs (recent
// projects, window size, a few settings) and the crash-recovery copy of the
// open document.
//
// # Where
//
// Everything lives in Dir(): $OROGEN_CONFIG_DIR when set (tests and the
// Xvfb test use it), else os.UserConfigDir()/orogen (~/.config/orogen on
// Linux; %APPDATA%\Orogen on Windows, see DirName). It holds
//
//	prefs.json              Prefs, written by Save
//	recovery.orogen.json    the recovery copy, a project file
//	recovery.json           where the recovery copy came from and when
//	imgui.ini               ImGui's layout (written by the UI, not here)
//
// Dir does not create the directory; Save and WriteRecovery do.
//
// # Rules
//
// Every write is atomic (package safefile): a crash during a save leaves
// the previous file whole. Load never fails the app: a missing file gives
// Default(), an unreadable or corrupt one gives Default() and an error for
// the caller to log; unknown keys are ignored (a newer Orogen may have
// written them) and out-of-range values are replaced by their defaults,
// with an error naming them. Recent holds at most MaxRecent absolute paths,
// most recent first, without repeats.
//
// The recovery copy is written by the UI every so often while the document
// has unsaved changes and cleared when it is saved or closed cleanly; one
// found at start-up means the last run ended without saving, and
// ReadRecovery hands it back with the time it was written.
//
// # Threads
//
// Prefs is a plain value. The functions touch only files and may run on
// any goroutine, but two writers of the same file must not run at once
// (the last rename wins): the UI writes prefs from its own goroutine and
// recovery copies from one saver goroutine.
package prefs
