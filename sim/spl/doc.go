// Package spl solves the stream power law along a drainage order:
//
//	dh/dt = u - k A^m s^n            (Cordonnier et al. 2016, eq. 1)
//
// with the implicit scheme of Braun & Willett 2013 (Cordonnier et al. 2016,
// eq. 2): walking nodes receivers-first, the new height of node i with
// receiver j is
//
//	h_i' = (h_i + dt u_i + F h_j') / (1 + F),  F = k A_i^m dt / d_ij   (n = 1)
//
// and, for n ≠ 1, the root of h - h_i - dt u_i + F' spow(h - h_j', n) = 0 with
// F' = k A_i^m dt / d_ij^n and spow(x, n) = sign(x) |x|^n, found per node by
// Newton's method safeguarded with bisection (the function is increasing,
// so the root is unique and lies between h_j' and h_i + dt u_i).
//
// The scheme is unconditionally stable: any dt gives heights between the
// receiver's and the uplifted height, never overshooting. A node below its
// receiver (the bottom of a lake routed through its pass) is raised toward
// the receiver, which fills lakes instead of digging them.
//
// Roots (rec[i] == i) with dist 0 are fixed at base level; roots with
// dist D > 0 drain to a virtual node of height 0 at distance D (the natural
// edges of Błaszczuk et al. 2023, §III.B.5).
//
// With Params.Hold, a node below its receiver keeps its (uplifted) height
// instead: sediment fills lakes (Deposit), not rock the scheme creates.
// Deposit and FillLakes carry a step's sediment down the receivers, keep
// lakes' share of it and close the budget exactly; the deposition term
// G·Qs/A of Yuan et al. 2019 enters Erode as a per-node source (its us).
//
// With Params.Bottom, k depends on depth within the step (strata,
// alluvium on rock): a node whose solution falls below the bottom of the
// material it exposes solves again with the k of the material under the
// contact (Params.Below), down the stack: backward Euler with k at the new
// height. Where the lower material cannot erode down to the contact within
// the step (its residual at the contact is not positive), the node stops
// at the contact, the solution of the equation with k set-valued there.
// With Params.Top as well, the walk starts from the material at the
// node's height before the step and goes up the stack too (Params.Above)
// when that material cannot keep the node below its top: where a harder
// rock lies over a softer one the equation has a root in each, and the
// walk keeps the one on the node's side (rise says why).
//
// New heights are flushed to zero when subnormal (sim.Flush): on land
// without uplift draining to base level at 0 the solve decays heights
// geometrically, and float32 rounding would otherwise hold them at
// 1e-45 m, the smallest subnormal, for ever.
//
// ErodeClamp is Erode for n = 1 without uplift followed by a constant talus
// limit (package talus), in one pass that walks two independent ranges of
// trees at once; its results are those of the two passes, bit for bit.
// ErodeLimit is the same pass with a rate added to the uplift (the
// deposition term), Params.Hold, any m, a k factor and a talus limit
// that is constant or a field per cell (talus.Limiter.NoiseField). Units: heights m, dt yr, u m/yr,
// k yr⁻¹ m^(1-2m) for n = 1, A m², d m.
package spl
