// Package rasterio reads and writes Orogen's heightmap and mask files: the
// rasters that leave the app as exports and come back as initial heights
// (--init) or uplift maps (--uplift).
//
// Formats, chosen by file extension (case-insensitive):
//
//   - .png: 16-bit grayscale. A value v of the field is stored as
//     round((v-min)/(max-min)·65535), where min and max are the field's own
//     extremes; a constant field stores 0 everywhere.
//   - .r16 (and .raw, Unity's name for it): the same 16-bit values, raw
//     little-endian uint16, row after row, no header. On request
//     (Options.VRT) a GDAL virtual raster NAME.r16.vrt beside it opens it
//     in GIS tools, with the pixel size and the offset and scale to metres.
//   - .tif, .tiff: uncompressed baseline TIFF, little-endian, one 32-bit IEEE
//     float sample per pixel (SampleFormat 3), in strips. Values are metres,
//     bit for bit as in the field. It carries the GeoTIFF tags
//     ModelPixelScale (the cell size) and ModelTiepoint (the north-west
//     corner at (0, H·cell), so the south-west corner is the origin), no
//     projection; plain TIFFs without them read as before.
//   - .obj: a triangle mesh for other tools, one vertex per cell, y up (see
//     Write). Nothing reads it back.
//
// Units and layout follow package sim: rows run north to south (row 0 is
// the north edge, the top of an image), columns west to east, heights in
// metres, cell size in metres. Uplift read from a TIFF is taken in m/yr as
// stored; uplift read from PNG or R16 is normalized to [0, 1] and the caller
// scales it.
//
// The sidecar: every raster export NAME.ext (png, r16, raw, tif) also
// writes NAME.ext.json beside it, the whole name and ".json" (see
// SidecarPath and Meta), so exports of one name in several formats never
// share one:
//
//	{"width": 512, "height": 512, "cell_size_m": 30, "min_m": -12.5,
//	 "max_m": 2310, "encoding": "png16"}
//
// It is what maps 16-bit values back to metres: ReadHeights refuses a .png or
// .r16 without one. Releases before the export profiles wrote NAME.json
// (the extension replaced, shared by every format of one name); readers
// still read it when NAME.ext.json is absent (LegacySidecarPath). Optional
// keys say what the raster holds ("kind"), how a game engine scales it
// ("engine"), where a tile sits ("tile"), and that a raw file's rows run
// from the south ("south_up", Unity's RAW), which the readers undo.
//
// Atomicity: Write stages every file it writes (raster and sidecar) in a
// hidden temporary file in the target directory, flushes and fsyncs it, and
// only when all are staged renames them over the final names, raster first,
// then syncs the directory. A failed write removes its temporary files,
// creates nothing under the final names and leaves existing files
// untouched; the one exception, a failure of the sidecar's rename after the
// raster's succeeded, is reported as such. A field holding NaN or infinite
// values is refused before anything is written. A new file gets mode 0644;
// a replaced one keeps its mode.
//
// Decoders: DecodePNG, DecodeR16, DecodeTIFF and DecodeMeta work on bytes in
// memory and are fuzzed. They never panic, cap images at MaxSide cells per
// side and check that the data is present before allocating pixels, so a
// forged header cannot make them allocate more than a small multiple of the
// input (PNG: of its inflated image data).
//
// Errors: every error that comes from a file names the file, the problem
// and, where there is one, the remedy. A nil field or one whose Data does
// not match W×H is a programming error and panics with a "rasterio: " prefix.
package rasterio
