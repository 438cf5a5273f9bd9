// Package talus is the thermal-erosion slope limit that follows each
// stream-power solve, after Cordonnier et al. 2016, §5 "Correction based on
// thermal erosion": where the solve leaves a node steeper than the talus
// angle θ towards its receiver, the node is lowered until the slope equals
// tan θ.
//
// Rule: walking the nodes in an order where each comes after its receiver
// (a bottom-up stack, as the stream-power solver uses),
//
//	h[i] = min(h[i], h[rec[i]] + tanθ_i · dist[i])
//
// with dist[i] the horizontal distance to the receiver in metres. Receivers
// are final when their donors are visited, so one pass leaves every slope
// within its limit. The new height is rounded toward −∞ to float32 so the
// limit holds after storage; nodes within their limit keep their heights
// bit for bit. The material removed is not redeposited (the paper's
// correction only caps the elevation change); a mass budget must count it.
//
// The angle comes from a Model:
//   - off: no limit;
//   - constant: AngleDeg everywhere, 30° by default, "the usual talus angle
//     for thermal erosion" (Cordonnier et al. 2016, §6.4, Fig. 17 left);
//   - height: LowDeg below HeightM and HighDeg above, the tangent blended by
//     a smoothstep over BlendM metres centred on HeightM; the angle is taken
//     at the receiver's height (Cordonnier et al. 2016, Fig. 18: cliffs on
//     the crests);
//   - noise: between MinDeg and MaxDeg (6° and 54° in Fig. 17 right of
//     Cordonnier et al. 2016), following seeded fBm (sim/noise Fractal,
//     persistence 0.6, lacunarity 2, first frequency cell/WavelengthM) at
//     cell (x, y). The fBm value v goes through the normal CDF Φ(v/σ), σ from
//     noise.FBMStd, so the angles spread evenly over the range. The paper
//     uses 3D Perlin noise; a 2D field over the map is the same thing for a
//     single surface.
//
// Boundary conditions: roots (rec[i] == i: outlets on the map edge, lake
// bottoms without an exit) are never changed, so base level is kept; other
// edge nodes obey the same rule as interior ones.
//
// Time step: none. The limit is a projection applied after a step, with no
// rate and no stability condition; it costs O(N) per call and no
// transcendental function per node (the noise mode's tangents are computed
// once, in Limiter).
//
// Indices are flat node indices; on a grid, i = y*W + x with row 0 the north
// edge. Heights are metres, angles degrees. A Limiter is immutable after
// construction; Clamp writes only the heights it is given.
package talus
