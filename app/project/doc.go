// Package project reads and writes Orogen project files (.orogen.json):
// everything the desktop app needs to reopen a piece of work exactly as it
// was saved.
//
// # The file
//
// One JSON document, read strictly (unknown keys, a missing or unknown
// version, trailing text are errors):
//
//	{
//	  "version": 1,
//	  "scene": { ...a scene, as package scene reads it, with "uplift": {"tree": ...} ... },
//	  "layers": {
//	    "paint": {"width": 512, "height": 512, "encoding": "float32le-zlib-base64", "data": "eJzs..."}
//	  },
//	  "view": { ...View, every key optional... },
//	  "export": { "outputs": [ ...app/export.Output... ] }
//	}
//
// The scene holds the grid size and extent, the engine, its parameters, the
// seed, umax and the Uplift Tree. Layers are the painted and imported
// rasters that the tree's Raster nodes read, by name: dimensionless
// (normalized) uplift, each Scene.Width×Scene.Height cells, row-major, row
// 0 the north edge. The view holds small settings of the user interface.
// The optional export profile (package app/export) lists what `orogen
// build` and File → Build write; it came after version 1 without a new
// version, since a project without it reads as before.
//
// Layers are stored bit for bit: the float32 values, little-endian, row
// after row, compressed with zlib and encoded in base64 ("encoding":
// "float32le-zlib-base64"). This deviates on purpose from ARCHITECTURE.md,
// which names PNG16 files: 16 bits quantize, and a layer that changes a
// little at every save, or that an undo stack expects back byte for byte,
// must not drift. Keeping the layers inline also makes a project one
// self-contained file.
//
// # References and self-containment
//
// A project in memory may come from a scene whose uplift is an image
// (Scene.Uplift.Image) or whose tree reads layers from image files
// (Scene.Uplift.Layers); both name files relative to the scene. Embed (and
// so Marshal, Save and Parse) turns such a project into tree form: an
// uplift image becomes the tree Sum{Raster "base", Raster "paint"} over the
// whole domain, with the image resampled to the grid as layer "base" (a
// float TIFF, which is in m/yr, is divided by umax) and zeros as layer
// "paint"; layer files become layers, resampled to the grid. So a saved
// project never depends on the scene it came from, and can be moved.
// Initial heights (Scene.Init) stay a reference: Parse resolves a relative
// name against the project's directory and keeps it absolute in memory;
// Save writes it relative to the new file when it lies in the same
// directory tree, absolute otherwise.
//
// # Units and coordinates
//
// As package scene: metres, years, uplift in m/yr (tree values and layers
// are multiplied by Scene.Uplift.UmaxMPerYr). The grid has Width×Height
// cells of Cell(sc) = domain_m / max(width, height) metres; World(sc) is the
// world rectangle [0, W·cell] × [0, H·cell] the tree is rasterized over.
// View coordinates are in cells.
//
// # Who may write what
//
// A Project is a plain value: whoever holds it may change it, and nothing
// in this package keeps a reference to it. Load, Parse and Clone return
// projects that share nothing with anything else. Marshal and Save only
// read p (p.Scene's tree included), so several goroutines may marshal one
// project at once as long as none modifies it. Validate, Marshal and Save
// refuse what Parse would refuse, so a saved project always loads.
//
// Errors name the problem (the key, the layer, the cell) and, where there
// is one, the remedy.
package project
