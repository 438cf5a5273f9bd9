// Package ui is the desktop application: an Ebiten window hosting ImGui
// (through cimgui-go's Ebiten backend) with docked panels around the map.
//
// # Threads and ownership
//
// Ebiten's Update and Draw run on the main thread. Update reads input,
// builds the ImGui frame and applies edits to the document (app/doc), which
// only this thread touches. The simulation runs in app/worker's goroutine:
// Update sends it commands (new parameters, a new uplift raster, run,
// pause, step, reset) and reads its newest Frame through an atomic pointer;
// it never waits on it. Relief pictures are made by the renderer goroutine
// (package ui/picture) from those frames; Update submits jobs and picks up finished
// pictures without waiting, then uploads them into an Ebiten image. Draw
// draws that image under the ImGui frame and nothing else, straight into
// the window's framebuffer where Ebitengine draws with OpenGL
// (finalscreen.go: Ebitengine's copy of its offscreen screen into the
// window was a third of a frame on Mesa's llvmpipe).
//
// # Coordinates
//
// Map coordinates are in cells: cell (i, j) covers [i, i+1) × [j, j+1), so
// its centre is (i + 0.5, j + 0.5). Brush layers use pixel coordinates with
// the centre of cell (i, j) at (i, j); the Uplift Tree uses metres, map
// coordinates times the cell size. viewer.View maps cells to the screen.
//
// # Scripts
//
// `orogen --script FILE` runs a session from a script (package ui/script) through
// the same code as the mouse and menus; the real-window test under Xvfb
// uses it to paint, set sliders, run steps, export, save, reopen and take
// screenshots.
//
// The cgo file glibc_shim.go lets cimgui-go's prebuilt archive link
// against glibc older than 2.38.
package ui
