// Package flow routes water over a regular grid: steepest-descent receivers,
// lake overflow through passes, a receiver→donor order and drainage area.
//
// Routing (D8). Every cell sends its water to the neighbour of steepest
// descent among its 8 neighbours, slope = drop / distance with diagonals at
// √2 × cell. Ties go to the first neighbour in the order E, SE, S, SW, W, NW,
// N, NE, and a cell keeps its receiver of the previous routing unless
// another neighbour is steeper by more than Hysteresis (0.1 %), so ties at
// rounding level do not flip receivers back and forth between steps (a
// channel Randomize holds: ChannelKeep, 5 %). Each
// edge of the grid is one of:
//   - Outlet: its cells are fixed at their height (base level) and are roots;
//   - Closed: no water leaves across it; its cells route like interior cells;
//   - Natural (Błaszczuk et al. 2023, §III.B.5): a cell on it with no lower
//     neighbour drains to a virtual node of height 0 at distance D outside
//     the grid.
//
// A corner cell takes the first of Outlet, Natural, Closed found on its two
// edges.
//
// Lakes (Cordonnier et al. 2016, §4.3). Cells with no lower neighbour that
// are not outlets are pits. Every pit roots a basin (the cells draining to
// it). The pass between two neighbouring basins is their lowest pair of
// adjacent cells, at height max(h_i, h_j). A tree of basins is grown from the
// outlets by Prim's algorithm in increasing pass height (a binary heap over
// the pass edges: O(N + M log M) for M basins), and the bottom of every basin
// is routed out through its pass: the receivers on the path from the pass
// cell down to the bottom are reversed and the pass cell drains into the cell
// across the pass (fastscapelib calls this carving). The sill then carries
// the whole basin's water and erodes, while the reversed path, below its
// receivers, fills: lakes do not last unless uplift keeps them. Every cell
// drains to an outlet after every routing. A basin next to a Natural edge may
// spill out of the grid through its lowest natural-edge cell. Each lake keeps
// its spill height (its pass) and its water level (the highest spill on its
// way to the outlet), from which WaterDepth draws the water surface.
//
// Order and area (Braun & Willett 2013). Stack lists every cell after its
// receiver; cells are grouped by the outlet they drain to, in independent
// trees, so eroders may process trees concurrently. Accumulate sums cell
// areas in reverse stack order. The walk labels every cell with its tree
// for ConnectLakes; with PitLabels it does so only where the routing has a
// pit (the grid engine without the water budget).
//
// Indexing is row-major, y*W+x, row 0 on the North edge. A Graph owns its
// slices; callers read them between calls and never write them. Results are
// identical for any GOMAXPROCS. Memory (docs/MEMORY.md): Order lets go of
// the last drainage order and Assemble makes the new one once the pass
// search is done, and ConnectLakes lets go of the search's tables and the
// tree of basins' scratch; ReleaseSearch, Release, ReleaseLabels,
// ReleaseTrees, ReleaseWalk and ReleaseRouting drop more of the last
// routing; the next Route grows it again.
package flow
