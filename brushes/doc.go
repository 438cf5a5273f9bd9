// Package brushes paints uplift on raster layers with brush stamps and
// strokes, and keeps undo records of the tiles a stroke touched.
//
// # Layers and units
//
// A Layer is a sim.Field of dimensionless uplift, typically in [0, 1], that
// is a leaf of the Uplift Tree (the tree scales it to m/yr), plus an
// optional Base of the same shape that Erase returns to (nil means zeros).
// Brushes write Field in place, read Base and never clamp: the tree's clamp
// operator bounds the result where that matters.
//
// # Coordinates
//
// Points are in pixels, as float64: pixel (x, y) is Field.Data[y*W+x], its
// centre sits at the integer point (x, y) as in sim.Field.Sample, x grows
// east and y south (row 0 is the north edge). A stamp centred at c covers
// the pixels whose centres p satisfy |p − c| ≤ r, r = Brush.Radius, clipped
// to the layer; a Periodic layer wraps them around the borders instead.
// Stamp centres snap to a grid of 1/64 pixel (Smooth's to whole pixels), so
// that rounding in the path arithmetic never changes a byte.
//
// # Stamps
//
// Each covered pixel with value h gets a weight w = w(d), d = |p − c|, from
// the falloff: smooth (1 − d²/r²)³ (the Uplift Tree's disc), linear
// 1 − d/r, or constant 1. With s = Brush.Strength ∈ [0, 1] a stamp sets
//
//	raise     h + s·w
//	lower     h − s·w
//	set       h + s·w·(V − h)   V = Brush.Value
//	flatten   h + s·w·(T − h)   T = the layer sampled bilinearly at the stroke's start, before its first stamp
//	erase     h + s·w·(B − h)   B = the base under the pixel (0 without a base)
//	noise     h + s·w·n(p)      n = sim/noise Fractal at pixel (x, y), frequency 1/λ, octaves, 0.5, 2; n ∈ [−1, 1]
//
// λ = Brush.NoiseScale (default the radius), octaves = Brush.Octaves
// (default 4), seeded by Brush.Seed: the fBm is a fixed texture of the
// layer, so overlapping stamps and strokes build up one pattern. Set,
// flatten and erase land exactly on their target where s·w = 1. Smooth
// lets every pair of 8-neighbours p, q in the stamp exchange
//
//	c·a·√(w_p·w_q)·(h_q − h_p),  c = (3/16)·s, a = 4/6 (side) or 1/6 (diagonal),
//
// from the values before the stamp: the 9-point isotropic Laplacian,
// weighted symmetrically, so what p gains q loses and the layer's sum is
// kept up to float32 rounding (on a periodic layer, and on a clipped one,
// where pixels outside take no part). c·20/6 < 1 makes each new value a
// convex combination of old ones: smoothing never overshoots, and at full
// strength and weight it wipes out a checkerboard in one stamp. One stamp
// smooths at the scale of a few pixels; a stroke's overlapping stamps
// spread it further. (A Smooth radius below 1 reaches no neighbour and does
// nothing.)
// Arithmetic is in float64, results are stored as float32. Weights depend
// on d² alone and Smooth sums neighbours in mirror pairs, so a stamp
// centred on a pixel keeps a symmetric layer symmetric bit for bit.
//
// # Strokes and spacing
//
// Begin places a stamp at the start point; To extends the path with a
// straight piece and places a stamp every step = Spacing·Radius pixels of
// arc length, counted from the start across calls; End places one more at
// the end point if the path goes on more than step/1000 past the last
// stamp. Where stamps fall depends only on the path, not on the mouse's
// speed or on how the path is split into To calls (the bytes are the same),
// and however fast the move, neighbouring stamps overlap when Spacing < 2. Stamps that cannot reach
// the layer are skipped at no cost.
//
// Every call reports a dirty rectangle (an image.Rectangle of layer pixels,
// half-open, clipped to the layer) that holds every pixel it changed: To the
// union of its stamps, End its last stamp's, Stroke.Dirty and Edit.Bounds
// the whole stroke's. The tree re-rasterizes just that. A stamp that wraps
// around a periodic layer reports the union of its pieces.
//
// # Undo
//
// A stroke copies each 64×64 tile (TileSize) the first time a stamp box
// touches it, before changing it, so its memory is proportional to the
// area it touched. End returns the copies as an Edit: Undo swaps them with
// the layer's pixels, which restores the exact bytes from before the stroke
// and leaves the stroke's bytes in the record; Redo swaps back. Edits of a
// layer must be undone last first and redone first first, as an undo stack
// does.
//
// # Errors
//
// Brush parameters come from the user: Brush.Validate and Begin return an
// error that names the parameter and its range. Misuse by a programmer (a
// malformed layer, To after End, a non-finite point, Undo twice) panics
// with a "brushes: " prefix.
//
// # Threads
//
// One goroutine paints a layer. A Stroke or an Edit is not safe for
// concurrent use, and while Begin, To, End, Undo or Redo runs nothing else
// may read or write the layer's Field: readers (the tree's rasterization)
// read it between calls, on the painting goroutine or after synchronizing
// with it. The engine never sees a layer, only rasters the app makes from
// the tree. Base is only read, and may be shared.
package brushes
