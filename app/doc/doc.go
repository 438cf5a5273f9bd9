// Package doc is the live document the desktop app edits: a project's
// scene, its Uplift Tree and brush layers, the uplift raster they make, and
// the undo history of every change.
//
// # What it holds
//
// A Doc owns a scene (grid, engine, seed, parameters, umax), a tree
// (package uplifttree), the layers the tree's Raster nodes read (package
// brushes paints them), the view settings, and two rasters of the scene's
// grid: the tree's value at every cell centre (dimensionless) and the
// uplift, that value times umax in m/yr, which the UI hands to the engine.
// Every doc has a layer to paint on: New gives a tree without a Raster node
// a Raster "paint" over the whole grid, under a Sum at the root, and
// FromScene turns an image-uplift scene into Sum{Raster "base" (the image),
// Raster "paint" (zeros)}.
//
// Units and coordinates: as package project. Stroke points are layer
// pixels, which are grid cells: pixel (x, y) is the cell whose centre lies
// at world point ((x+0.5)·cell, (y+0.5)·cell) when the Raster node covers
// the grid, as New's and FromScene's do.
//
// # Keeping the uplift up to date
//
// Every change re-rasterizes only the cells it can have changed: a stroke
// the cells its stamps reach through the Raster nodes that read the layer
// (Tree.LayerDirty), a tree edit the cells of its dirty rectangle, a new
// umax none (the uplift is rescaled). The result is the same, byte for
// byte, as rasterizing the whole tree again. UpliftVersion counts changes
// to the uplift; Changed counts changes to anything.
//
// # Undo
//
// Each stroke (Begin to End), tree edit, parameter change and import is
// one undo entry; Undo and Redo restore the exact bytes of layers, tree,
// parameters and uplift. Calls of SetParams, SetUmax, SetSettings or
// SetNodeParamMerge with the same non-empty merge key, one after the other
// within one gesture (until EndGesture or any other change), merge into one
// entry: dragging a slider makes one entry. The history keeps at most
// UndoLimit bytes (brush tiles and imported layers; 256 MB by default),
// dropping the oldest entries first; the newest entry is always kept.
//
// Dirty reports whether the document differs from the state last marked
// saved: undoing back to it makes the document clean again. To save in the
// background while the user goes on editing, take s := d.State() and
// p := d.Project() together, save p on another goroutine, and call
// d.MarkSavedState(s) when the save has succeeded.
//
// # Errors
//
// Bad input from the user (brush parameters, node parameters, scene
// parameters, files) returns an error that names the problem and leaves
// the document unchanged. Nothing the UI passes in makes a Doc panic.
//
// # Threads
//
// A Doc belongs to one goroutine, the UI's: no method may run concurrently
// with another. Uplift, Layer, Tree and Scene return the live objects, to
// be read on that goroutine between calls and never modified (Scene's
// value is replaced, not modified, by a change, but its tree is the live
// one). Project returns a deep copy that is safe to hand to another
// goroutine, for instance to save it while editing goes on.
package doc
