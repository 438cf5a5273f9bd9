// Package uplifttree is the Uplift Tree of Schott et al. 2022, §4: a
// construction tree whose leaves are primitives defined over compact
// regions of the plane and whose inner nodes are operators, evaluated to an
// uplift map that the erosion engines of package sim turn into relief.
// Working in the uplift domain lets operators blend, warp and even tear
// (Fault) without breaking drainage, since erosion restores hydrological
// consistency (Schott et al. 2022, §4, Fig. 7); what matters most for the
// result is the uplift gradient (Cordonnier et al. 2016, §6.4, Fig. 13).
//
// # Model and units
//
// A tree maps a world point to a dimensionless uplift value, typically in
// [0, 1]; the scene multiplies it by its umax in m/yr. World coordinates are
// metres with x east and y south and the origin at the north-west corner of
// the domain, so a tree does not depend on any grid's resolution.
// Rasterize samples a W×H field at cell centres: for the usual domain
// Domain(f) = [0, W·c] × [0, H·c], cell (i, j) is sampled at
// ((i+0.5)·c, (j+0.5)·c). Angles in parameters are degrees, clockwise on
// the map (y points south).
//
// Primitives: Disc u_S(1 − d²/r²)³ (Schott et al. 2022, eq. 5); Segment,
// the mountain range of Schott et al. 2022, §4, with radius and profile
// along the skeleton through monotone cubic control points; Curve, a range along a polyline; Valley, low along
// a skeleton and rising to an outside value; Region, a polygon with a
// smooth border; Noise, seeded fractal gradient noise; Raster, a painted
// or imported layer sampled bilinearly. Operators: Sum, Max, Min, Blend
// (smooth max or min), Scale (by a constant or by a second subtree),
// Transform (translate, rotate, scale), the warps Fold, Fault and
// NoiseWarp (each samples its child at a displaced point), Clamp, and
// Instance (a placed copy of another node). The doc comment of each type
// gives its formula.
//
// # Bounding boxes and fast evaluation
//
// Every node has a box outside of which its value is one known constant
// (0 for most primitives, Outside for a valley; a noise covers the plane).
// Boxes grow through transforms and warps by the largest displacement. The
// evaluator hands the tree spans of points (a 32×32 tile, or one point for
// Eval); an operator skips every child whose box misses the span and uses
// that child's constant instead. Since a node outside its box is exactly
// its constant, skipping never changes a value, so Eval, Rasterize and
// RasterizeRect give the same bits for the same point whatever the tiling
// or GOMAXPROCS.
//
// # Editing and dirty rectangles
//
// Add, Wrap, Unwrap, Remove, Move and SetParam validate the result as
// Unmarshal would and return an *Edit, the undo record, whose Dirty
// rectangle bounds where the value changed: the changed node's old and new
// boxes (or, for a child joining or leaving a Sum, Max or Min, only that
// child's box when its constant is neutral there), carried to the root
// through parents and the instances that copy them. Everywhere means the
// change could not be bounded. Re-rasterizing CellRect of the dirty
// rectangle turns a raster of the old tree into one of the new tree, byte
// for byte. Pick finds the primitive under a point.
//
// # JSON
//
// Marshal writes, and Unmarshal strictly reads:
//
//	{
//	  "version": 1,
//	  "root": 1,
//	  "nodes": [
//	    {"id": 1, "type": "sum", "children": [2, 3]},
//	    {"id": 2, "type": "disc", "center": [5000, 5000], "radius": 2000, "value": 1},
//	    {"id": 3, "type": "transform", "translate": [0, 0], "rotate": 30, "scale": [1, 1], "pivot": [0, 0], "children": [4]},
//	    {"id": 4, "type": "segment", "a": [1000, 1000], "b": [9000, 2000], "ctrl": [{"t": 0, "r": 800, "u": 0.5}, {"t": 1, "r": 1500, "u": 1}]}
//	  ]
//	}
//
// Nodes are listed depth first from the root; every node but the root is
// the child of exactly one node; IDs are positive and survive round trips
// and edits. The keys of each type are its parameters (Params lists them);
// optional ones default as in NewShape. Points are [x, y], rectangles
// [x0, y0, x1, y1].
//
// # Who may do what
//
// A Tree belongs to one goroutine, which alone may edit it (Add, Remove,
// SetParam, Undo ... and SetLayers). Eval, Pick, Rasterize, RasterizeRect,
// Marshal and the read accessors may run concurrently with each other but
// never with an edit; to rasterize in the background while the user goes
// on editing, rasterize a Clone. Rasterize runs its own worker goroutines
// and returns when they are done. Layers handed to Rasterize must not
// change while it runs.
//
// # Adding a node type
//
// Each node type lives in one file, node_<type>.go (node_disc.go,
// node_fold.go ...; Max and Min share node_minmax.go), holding its Type
// constant; its Shape type, whose methods are Type, clone, params (the
// parameter table that JSON, Param, SetParam and the editor use), check
// (validation) and compile; its kind (JSON name, defaults of the optional
// parameters, number of children); and its compiled evaluator, an enode.
// Registering it is one line in registry.go: the kind's address in the
// kinds list, whose order is that of AllTypes. Nothing else switches on
// node types: JSON, Params, NewShape and the child counts read the
// registry, and compilation, evaluation and Pick call methods. An
// operator's enode also implements kidsLive and pick, and toParent when it
// moves points; a warp only supplies a displacement to the shared
// evaluator eWarp (warp.go), and a placement reuses eAffine (frame.go).
// The random trees of the tests must learn the type too (randShape in
// gen_test.go; TestRandTreeCoversEveryType checks).
//
// Misuse by a programmer (a field whose Data does not match W×H, an empty
// domain) panics with an "uplifttree: " prefix; bad documents and
// impossible edits return an *Error naming the node and field.
package uplifttree
