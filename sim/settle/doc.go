// Package settle brings a stream-power engine to its steady state in a
// fraction of the steps a fixed time step needs, and says when it is there.
//
// The implicit stream-power solve (Cordonnier et al. 2016, eq. 2) is stable
// for any dt, and its fixed point does not depend on dt: for fixed receivers
// a node is at rest when k A^m (h_i − h_j)/d_ij = u, whatever the step. So
// once the drainage network has organized, a long step lands the terrain
// near the steady state of its current receivers in one go, and what is
// left is the slow settling of divides and channel heads, which the long
// step also speeds up. A node the talus limit holds rests at its
// receiver's height plus tan θ·d whatever the step, and lakes are routed
// through their passes whatever the step. But the limit is applied after
// the stream power (Lie splitting), whose solve reads the receiver's
// height before the limit: a node that drains into a limited one rests
// above the limited height by what the limit takes off its receiver each
// step, which grows with dt (on folded-uplift at 512², seed 3, 9.6 and
// 55.6 m at the user's dt for the two receivers a channel cell switched
// between, docs/REALISM-HISTORY.md, session 19 cycle8), so long steps
// land near a rest of their own there. Hillslope diffusion's rest state
// moves with dt too: the engines apply it split from the stream power
// (Lie splitting), and the split step's rest state moves with dt. An engine.Rebalanced (the grid engine, on the CPU or the GPU) can balance
// the split (rebalanced splitting, Speth et al. 2013) so that its rest
// state is the unsplit physics' for any dt: with κ > 0 the scheme takes
// long steps only on such an engine, with the balance on for them and off
// for every step at the user's dt, which are the user's physics (measured
// on the classic preset's ridges at 128² with κ = 2 m²/yr: 299 steps
// against 368, the highest and mean heights within 0.2 %); other engines keep the user's dt with
// κ > 0 (see Scheme.grows).
//
// A Scheme drives an engine.Engine through four regimes:
//
//	organize  the user's dt (the base) while more than Calm of the
//	          receivers change per step: the network forms exactly as with
//	          a fixed step, so the settled terrain has the same rivers
//	grow      dt doubles (Grow) after each calm step, up to MaxFactor·base
//	confirm   when a long step changes no height by more than tol·base
//	          (what one base step may change at convergence), one step at
//	          the base dt: if it converges (engine.Engine.Converged(tol)),
//	          the terrain has settled; if not, growing resumes
//	hold      when Options.LongPatience long steps in a row have gone by
//	          without halving the fastest change (max |Δh|/dt), nor, with
//	          D8 routing, the fraction of receivers changing, the base
//	          dt until Restart: at long steps some terrains never get
//	          closer to rest (receivers near a tie switching, each long
//	          step landing on the rest state of the other; random
//	          hillslope receivers redrawn at every long step); likewise when
//	          ConfirmPatience confirmations in a row fail without halving
//	          the change they find (long steps at rest where the base dt
//	          is not)
//
// Stalled is true when the terrain has gone Options.Patience steps without
// halving its fastest change: some terrains never settle (cliffs retreating
// through layered rock as a travelling wave, or a limit cycle), and a run
// to convergence should say so rather than run to its step cap.
//
// Settled is only ever true after a step at the user's dt that passes the
// user's tolerance: the same test a fixed-step run stops on. A new uplift,
// new parameters or new heights (Restart) go back to the base dt.
//
// The rest state is the same, but which rest state the terrain reaches
// depends on the network its transient built; the organize regime keeps
// that transient. The tests compare settled terrains with fixed-step runs to
// convergence: maximum and mean height, Hack's exponent, drainage, divides.
package settle
