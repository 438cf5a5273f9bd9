// Package geology describes the rock under a terrain: a stack of layers
// deformed by folds, faults, tilts and free profiles, after Roudier,
// Péroche and Perrin 1993 §3.1–3.2. Engines ask it which rock a point of
// the map lies in.
//
// Coordinates: x and y in metres on the map (cell centres at
// ((i+0.5)·cell, (j+0.5)·cell), y growing with the row index), z in metres,
// up. Azimuths are degrees in the map plane, 0 along +x, 90 along +y.
//
// The stack (Spec.Stack, bottom to top) is made of groups, each a list of
// layers repeated Repeat times (20 alternating layers are one group of two
// layers repeated 10 times). Expanded, layer 0 is the bottom one; its base
// lies at Spec.Base. The bottom layer extends downward without end and the
// top one upward, so every point has a rock.
//
// A deformation is a profile f(s) along a horizontal axis s = x·cos a +
// y·sin a − offset (a the azimuth) and a slip direction: each point moves
// by f(s) along the slip direction (Roudier et al. 1993 §3.1: M(x, y, z) ↦
// M'(x, y, z + f(x))). With lean 0 the slip is vertical, as in the paper;
// a lean λ tilts the slip direction towards +s, moving the point by
// f(s)·(sin λ·u, cos λ), which makes overturned folds and reverse faults.
// Profiles: fold A·sin(2π s/L + φ); staircase fault, Steps steps of
// Throw/Steps each, Spacing apart, each a vertical step or a linear ramp
// Width wide; tilt tan(dip)·s; free profile, linear between points and
// constant beyond them. Deformations apply in the order given.
//
// The rock at (x, y, z) is found by undoing the deformations in reverse
// order (Roudier et al. 1993 §3.2). With vertical slip the undoing is a
// subtraction. With a lean, the undoing solves s + sin λ·f(s) = s' for s,
// which has one solution only while 1 + sin λ·f'(s) > 0 everywhere: Compile
// refuses a chain whose slip folds a layer over itself (it asks for at
// least MinFoldSlope). Since the undoing moves z by an amount that depends
// on (x, y) alone, a Map computes that amount once per cell and each step
// finds the exposed layer with a subtraction and a table lookup.
//
// Alluvium, what the engines deposit, lies on top of the rock with its own
// thickness per cell; a cell with at least MinAlluvium of it exposes
// alluvium (index NumLayers in a Map's output).
//
// The layers stay where the deformations put them while the engines
// uplift the terrain: a Map's layer at a height of a cell never changes,
// so a terrain in steady state exposes the same layer at each cell at
// every step. Map.Below and Map.Bottom give the contacts under a height,
// Map.Above and Map.Top those over it, for erosion that crosses them
// within a step (spl.Params.Bottom and Top).
//
// A Model is immutable once compiled and safe for concurrent use; a Map
// too. Spec is the plain, editable, JSON form.
package geology
