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
// The 3D view. BuildMesh3D turns a snapshot into a Mesh3D: at most
// MaxMesh (default 512) vertices per side, a vertex per block of cells at
// the block's centre, with its height (the block's mean, times the
// exaggeration; wet cells count at their water level, so a lake is a flat
// surface at its spill level that takes the place of the terrain in the
// same quads) and its lit colour (height or slope ramp, rivers, lakes, the
// uplift, then Lambert light with ambient and optional cast shadows). The
// app rebuilds it after each engine step (about 7 ms at 512² on 2 cores,
// all options on). Mesh3D.Project turns it into a DrawList for one camera
// and screen: vertices in screen pixels with straight-alpha colours,
// triangles in back-to-front order, in chunks of at most 65535 vertices so
// indices fit Ebiten v2.8's uint16; the app redoes it when the camera moves
// (about 5 ms at 512²) and hands each chunk to DrawTriangles, reinterpreting
// []Vertex3D as []ebiten.Vertex (same layout), with a 1×1 white source
// image. World coordinates are metres: x east, y south (down the rows), z
// up, the map spanning [0, W·cell] × [0, H·cell]. A Camera orbits a target:
// Yaw clockwise from north is the side it looks from, Pitch is above the
// horizon. BuildMesh3D, Project and RasterizeDrawList give the same bytes
// for any GOMAXPROCS; Project and RasterizeDrawList only read the mesh and
// the list, so the engine's worker may build the next mesh while the UI
// projects the last one (not the same Mesh3D value).
//
// Visibility without a depth buffer. Ebiten has no depth buffer, so the
// triangles are drawn in an order in which nothing drawn later lies behind
// something drawn earlier (painter's algorithm). For a heightfield such an
// order exists for every eye position and needs no sort. Call quad (i, j)
// the surface over the ground cell [i, i+1] × [j, j+1] (vertex index units)
// and (ci, cj) the quad under the eye (clamped to one quad beyond the mesh
// when the eye is off it). A ray from the eye to a point of quad (i, j)
// projects on the ground onto the segment from the eye's ground point to
// that point's, and that segment stays in the box of columns between ci and
// i and rows between cj and j. So quad (i', j') can hide quad (i, j) only if
// i' lies between ci and i and j' between cj and j (inclusive): only quads
// on the same side of the eye's row and column, and nearer on both axes.
// (This implies the Manhattan rule |i'-ci| + |j'-cj| < |i-ci| + |j-cj|, so
// drawing by decreasing Manhattan distance would be right too; the order
// below is another linear extension of the same partial order that lets
// rows share vertices.) Project draws
//
//  1. the four quadrants i < ci or i > ci crossed with j < cj or j > cj,
//     each row by row starting with the row farthest from the eye, each row
//     from its quad farthest from the eye: within a quadrant every quad that
//     can hide another is nearer in the row order, or in the same row and
//     nearer along it; quads of different quadrants never hide each other;
//  2. the four half-rows and half-columns through (ci, cj), each from its far
//     end: they can be hidden only by themselves and (ci, cj), never by a
//     quadrant;
//  3. the quad (ci, cj).
//
// Within a quad, split along its (i, j)-(i+1, j+1) diagonal, the triangle on
// the eye's side of the diagonal's ground line cannot be hidden by the other
// (a ray to it never crosses that line), so the other goes first. The
// argument uses only that every quad is a graph over its own ground cell,
// so it holds for any eye position: near or far, over the grid or off it,
// and also below the surface (an eye inside a mountain sees the underside
// of the surface, correctly ordered; keeping the eye above the terrain, as
// with Mesh3D.HeightAt, is the UI's choice). Triangles crossing the near
// plane are clipped, which only removes parts. TestPainterMatchesDepthBuffer
// checks the pixels against a depth buffer from the world positions, and
// TestOrderRespectsEveryPossibleOcclusion checks the order pair by pair.
//
// Software fallback. Without a display (the CLI's `orogen render --view 3d`
// and the tests) RasterizeDrawList fills the same draw list in pure Go:
// pixel centres, vertices snapped to 1/256 pixel, exact integer edge
// functions with a tie rule that gives shared edges to one triangle,
// Gouraud colours interpolated in screen space as Ebiten does, straight-
// alpha blending; Render3D puts it over FillSky. Golden images in testdata/
// (regenerate with go test ./viewer -run Render3DGolden -update) compare
// renders with ±3 per channel.
//
// Shaders. The app draws both views on the GPU (ui/gpuview.go) with the
// figures of shader.go: ReliefParams and Surface3DParams (light, tint and
// overlay ramps as stops, scales; Ramp.Bytes samples a ramp into the
// table Relief and BuildMesh3D look colours up in), SurfaceBytes (per-cell overlay ramp
// indices, rock layers, the ridge mask, the 3D uplift tint) and
// RiverDiscs (the river cells' disc radii); the software pictures here
// stay the reference its tests compare with.
//
// No Ebiten here. The renderers draw into an image.RGBA or produce vertex
// lists; putting them on a screen belongs to ui/ and saving them to a file
// to app/. The package imports only the standard library and sim, and needs
// neither cgo nor a display.
package viewer
