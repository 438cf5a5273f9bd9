// Package water is the water budget of lakes of Błaszczuk et al. 2023
// (§III.B; issue 7): water stored per node, fed by rain, lost to
// evaporation, and lakes filled, spilled and merged through the passes
// between basins. It is engine
// agnostic: the grid engine (sim/flow, Graph.WaterInput) and the stream
// graph engine (sim/graph, Engine.WaterInput) describe their basins in an
// Input each step. It never changes the terrain: the lakes it computes are
// separate from the overflow routing that drives erosion (Błaszczuk et al.
// 2023, §III.B.4).
//
// # Water per node (Błaszczuk et al. 2023, §III.B.1)
//
// Each node v stores a volume V_v, in practice only at the pits (the roots
// of stream trees that are not outlets). A step of δt years
//
//  1. moves the water of every node to the pit of the basin it now lies in
//     (Błaszczuk et al. 2023, Fig. 1: the trees change as the terrain
//     does); water now in an outlet's tree leaves the domain;
//  2. adds rain and takes evaporation at every pit:
//     ΔV_v = δt·(r·A_v − e·V_v^(5/6)), with A_v the area of its basin (or
//     Σ r_i·a_i over the basin for a rain map) and V_v the water moved
//     there; evaporation never takes more than V_v + δt·r·A_v. Rain on
//     outlets' trees leaves at once;
//  3. computes the lakes (below) and stores each lake's water at the pits
//     of its basins, a merged lake's shared by the volume over each basin.
//
// The explicit update is the paper's; it is stable while
// δt·e·(5/6)·V^(−1/6) < 2 near the steady volume V* = (r·A/e)^(6/5).
//
// # Lakes (Błaszczuk et al. 2023, §III.B.2, Algorithms 2-4)
//
// The lakes graph has the pit basins as nodes and the passes between them
// as edges, plus the outside of the domain. The volume of a lake up to a
// level L is the sum of prisms Σ a_i·(L − h_i) over its nodes below L
// (Algorithm 3: on stream trees, whose heights rise away from the pit, the
// nodes below L reached from the pit are all the basin's nodes below L),
// with a_i the Voronoi cell area on the graph and cell² on the grid. Each
// lake k starts with its water V_k^rem and the volume V_k^miss it needs to
// reach its lowest pass. Both optimizations of §III.B.2.d apply: pits level
// with the pass between them are joined at once, and every lake first keeps
// min(V^rem, V^miss) of its own water. Then rounds of a flow network —
// source → lakes with water left (V^rem), lakes → sink (V^miss), full lakes
// → the lake beyond their lowest pass (∞), the outside → sink (∞) — find
// the strongly connected components of the full lakes (Tarjan, iterative),
// merge each into one lake (its lowest pass is the lowest leading out of
// it; V^miss follows from the summed volumes), and move the water by a
// maximum flow (push-relabel, FIFO with global relabelling), until a round
// neither moves water nor merges lakes. Only lakes with water left or just
// filled, and the full lakes downstream, enter a round: the others would
// carry no flow and close no component. Finally each lake's level comes
// from its water (Algorithm 4: flood the nodes lowest first until the next
// lies above (V + Σa·h)/Σa); a full lake sits at its pass.
//
// Merging keeps, per lake, pairing heaps of its pass entries and of its
// basins keyed by the next node above the level reached, so a merged lake's
// next pass and its volume up to it cost O(log) per pass and node instead of
// a rescan.
//
// # Units
//
// Heights and levels in metres, areas m², volumes m³, rain m/yr, time
// years; e in m^(1/2)/yr (V^(5/6) is in m^(5/2)). Budgets, volumes and
// levels are float64.
//
// # Ownership and determinism
//
// One goroutine owns a Model. Step only reads its Input (the engine's own
// slices may be passed in) and keeps a reference to it until the next Step,
// for WaterDepth. Lakes and Water return the Model's slices, valid until
// the next Step. Results depend only on the Input, not on GOMAXPROCS: the
// only parallel loop (the per-basin scan) writes per-basin results, and
// ties are broken by pass and basin numbers.
//
// Misuse (mismatched lengths, basins out of range) panics with a "water: "
// prefix; bad parameters are errors.
package water
