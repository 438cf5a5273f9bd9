// Package amplifier runs the desktop app's Amplify preview: a window of
// the settled terrain amplified (package sim/amplify) on a goroutine of
// its own, turned into a snapshot the views draw at the fine resolution.
//
// Ownership. The app hands requests (a snapshot, the window in coarse
// cells, the amplification's options) to Request from its frame; Request
// never blocks. A request still pending is replaced by a newer one, and
// the amplification under way is cancelled through its context when a
// newer request arrives: only the newest request is ever published. The
// amplifier's goroutine alone runs sim/amplify and builds each Preview; it
// publishes them as immutable values through an atomic pointer, which
// Latest reads from any goroutine, and through Published (newest wins)
// for tests and waiters. State tells what the goroutine is doing now.
//
// What is shown. A Preview's Fine is an engine.Snapshot of the window at
// Factor times the resolution: the amplified heights, lake water and
// exposed rock, the drainage routed on the fine heights (sim/flow, lakes
// through their passes) with the drainage area of the coarse cells
// upstream of the window let in where their rivers enter it, and the
// coarse uplift repeated over each coarse cell's fine cells. The views
// draw it as they draw the engine's snapshots: hillshade, rivers from the
// drainage area, lakes, overlays, the 3D mesh. The same snapshot, window
// and options give the same Fine, bit for bit (sim/amplify is
// deterministic and so is the routing).
package amplifier
