// Package viewer turns an engine snapshot into pictures: a hillshaded relief
// map with a hypsometric tint, rivers, lakes and optional overlays (uplift,
// drainage, slope), plus the geometry a 2D map view needs (pan, zoom around
// the cursor, a scale bar, the readout under the cursor, flow arrows).
//
// Units and coordinates. Heights and water depths are metres, cell sizes
// metres, drainage areas m², uplift m/yr, angles degrees. Grids are
// row-major, index y*W + x, with y pointing south (down the picture). Map
// coordinates are continuous cell units: cell (x, y) covers [x, x+1) ×
// [y, y+1), so its centre is (x+0.5, y+0.5) and pixel (x, y) of a Relief
// image is exactly cell (x, y). A View maps map coordinates to screen pixels.
//
// What may be nil. A snapshot's Height is required; Area, Water, Uplift and
// Receivers may be nil and are then treated as absent (no rivers, no lakes,
// no uplift overlay, no arrows). A non-nil slice whose length is not W·H, a
// non-positive size or cell size are programmer errors and panic with a
// message starting "viewer: ". Options come from users: Validate reports
// the first bad field, and Relief renders bad fields with their defaults
// rather than failing in a draw loop.
//
// Determinism and sharing. Relief computes every pixel from the snapshot
// alone: rivers are gathered (each output row looks at the river cells
// within the widest river's radius and keeps, per pixel, the largest
// coverage, which no order changes), rows are split over sim/parallel's
// workers and no floating-point sum is merged, so the picture is
// bit-identical whatever GOMAXPROCS is. Relief, Probe and Arrows only read
// the snapshot, so any number of goroutines may use one snapshot at once.
//
// No Ebiten here. The 2D renderer draws into an image.RGBA; putting it on a
// screen belongs to ui/ and saving it to a file to app/. The package imports
// only the standard library and sim.
package viewer
