package amplify

import (
	"context"
	"math"
	"runtime"
	"slices"
	"strings"
	"testing"

	"orogen/sim"
	"orogen/sim/analysis"
	"orogen/sim/engine"
	"orogen/sim/flow"
	"orogen/sim/geology"
	"orogen/sim/simtest"
)

// withLake returns a copy of s with a basin dug into it (a bowl 150 m deep
// and 5 cells in radius around (x, y)), re-routed by sim/flow with its lake
// filled to the pass: a snapshot with a simulated lake.
func withLake(t testing.TB, s *engine.Snapshot, x, y int) *engine.Snapshot {
	t.Helper()
	c := *s
	c.Height = slices.Clone(s.Height)
	for j := y - 5; j <= y+5; j++ {
		for i := x - 5; i <= x+5; i++ {
			if r2 := float64((i-x)*(i-x) + (j-y)*(j-y)); r2 < 25 {
				c.Height[j*s.W+i] -= float32(150 * (1 - r2/25))
			}
		}
	}
	g := flow.NewGraph(s.W, s.H, s.Cell, s.Param.Edges, 0)
	g.Update(c.Height)
	area := g.Accumulate(nil, s.Cell*s.Cell)
	c.Area = make([]float32, len(area))
	for i, a := range area {
		c.Area[i] = float32(a)
	}
	c.Receivers = slices.Clone(g.Rec)
	c.Water = g.WaterDepth(nil, c.Height)
	return &c
}

// geologic returns a copy of s with a folded, faulted stack of clay and
// quartzite under it.
func geologic(t testing.TB, s *engine.Snapshot) *engine.Snapshot {
	t.Helper()
	m, err := geology.Parse([]byte(`{"base":-500,"stack":[{"repeat":40,"layers":[{"name":"cap","thickness":30,"rock":"Quartzite"},{"thickness":40,"rock":"Clay"}]}],"deformations":[{"kind":"fold","azimuth":30,"wavelength":4000,"amplitude":120},{"kind":"fault","offset":6000,"throw":80,"steps":2,"spacing":300,"width":50}]}`))
	if err != nil {
		t.Fatal(err)
	}
	c := *s
	c.Geology = m
	return &c
}

func run(t testing.TB, s *engine.Snapshot, o Options) *Result {
	t.Helper()
	r, err := Amplify(context.Background(), s, o)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// fineEdges: the edges of a fine grid are the coarse ones.
func pitsOf(r *Result, e flow.Edges) (pits int, lakePits int) {
	open := func(b flow.Boundary) bool { return b != flow.Closed }
	for y := range r.H {
		for x := range r.W {
			if (y == 0 && open(e.North)) || (y == r.H-1 && open(e.South)) || (x == 0 && open(e.West)) || (x == r.W-1 && open(e.East)) {
				continue
			}
			i := y*r.W + x
			v := r.Height[i]
			pit := true
			for k := range 8 {
				nx, ny := x+dx8[k], y+dy8[k]
				if nx >= 0 && ny >= 0 && nx < r.W && ny < r.H && r.Height[ny*r.W+nx] < v {
					pit = false
					break
				}
			}
			if pit && r.Water[i] > 0 {
				lakePits++
			} else if pit {
				pits++
			}
		}
	}
	return pits, lakePits
}

// Every fine cell drains to an edge: no cell but a lake's has no lower
// neighbour, and Orogen's own routing (sim/flow) finds no lake whose
// bottom is dry. Exact: the drainage pass guarantees it.
func TestDrainage(t *testing.T) {
	simtest.SkipUnderRace(t, "numerics only")
	base := settled(t, 64)
	for _, c := range []struct {
		name string
		s    *engine.Snapshot
		f    int
	}{
		{"plain×2", base, 2},
		{"plain×4", base, 4},
		{"lake×4", withLake(t, base, 30, 34), 4},
		{"lake×8", withLake(t, base, 30, 34), 8},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := run(t, c.s, DefaultOptions(c.f))
			pits, lakePits := pitsOf(r, c.s.Param.Edges)
			if pits != 0 {
				t.Errorf("%d dry pits; want 0", pits)
			}
			g, err := analysis.Route(&sim.Field{W: r.W, H: r.H, Cell: r.Cell, Data: r.Height}, c.s.Param.Edges)
			if err != nil {
				t.Fatal(err)
			}
			dry := 0
			for _, lk := range g.Lakes {
				if r.Water[lk.Root] == 0 {
					dry++
				}
			}
			if dry != 0 {
				t.Errorf("sim/flow finds %d lakes with a dry bottom out of %d; want none", dry, len(g.Lakes))
			}
			wet := 0
			for _, v := range c.s.Water {
				if v > 0 {
					wet++
				}
			}
			if (wet > 0) != (len(g.Lakes) > 0) || (wet > 0) != (lakePits > 0) {
				t.Errorf("%d coarse lake cells, %d fine lakes, %d fine lake pits: the lakes are lost or made up", wet, len(g.Lakes), lakePits)
			}
			t.Logf("%d×%d: %d pits drained (%d cells raised), %d lakes, %d segments", r.W, r.H, r.Stats.Pits, r.Stats.Raised, len(g.Lakes), r.Stats.Segments)
		})
	}
}

// Averaged over each coarse cell, the fine heights are the coarse ones
// within 1 % of the relief (the tolerance) on the settled terrain:
// the base surface keeps the cell means to 10⁻⁶ of the relief, the
// detail's and the beds' means are given back smoothly (meanCorrection);
// what is left is the drainage pass and the last 5 % of the correction
// (measured: under 0.5 %, with and without the dug lake).
func TestCellMeans(t *testing.T) {
	simtest.SkipUnderRace(t, "numerics only")
	base := settled(t, 64)
	for _, f := range []int{2, 4, 8} {
		for _, s := range []*engine.Snapshot{base, withLake(t, base, 30, 34)} {
			const tol = 0.01
			r := run(t, s, DefaultOptions(f))
			lo, hi := slices.Min(s.Height), slices.Max(s.Height)
			worst, mean := MeanError(s.Height, s.W, s.H, r.Height, r.W)
			rel := worst / float64(hi-lo)
			if rel > tol {
				t.Errorf("×%d: cell means off by up to %.3g m, %.3g %% of the relief; want ≤ %g %%", f, worst, 100*rel, 100*tol)
			}
			t.Logf("×%d: worst %.3g m (%.3g %% of %.0f m), mean %.3g m", f, worst, 100*rel, hi-lo, mean)
		}
	}
}

// The control heights make the cubic average to the coarse heights: the
// residual of the base surface (no detail, no rivers, before the drainage
// pass) is below 10⁻⁵ of the relief (solveControl stops at 10⁻⁶; float32
// fine heights add ~10⁻⁷ of the heights each). The displaced base
// (warp.go), whose solve stops after warpSweeps sweeps, keeps them to
// 10⁻⁴ with the correction fine applies (measured 1.9 to 2.4·10⁻⁵).
func TestControlSolve(t *testing.T) {
	s := settled(t, 64)
	for _, c := range []struct {
		f    int
		warp float64
	}{{2, -1}, {4, -1}, {8, -1}, {2, 0}, {4, 0}, {8, 0}} {
		f := c.f
		o := DefaultOptions(f)
		o.Warp = c.warp
		o.Detail = 0
		o.RiverArea = 1e30 // no rivers
		if err := check(s, &o); err != nil {
			t.Fatal(err)
		}
		p, err := prepare(context.Background(), s, o)
		if err != nil {
			t.Fatal(err)
		}
		hgt, _, _, err := p.fine(context.Background(), 0, 0, s.W*f, s.H*f, 0, s.W)
		if err != nil {
			t.Fatal(err)
		}
		lo, hi := slices.Min(s.Height), slices.Max(s.Height)
		worst, _ := MeanError(s.Height, s.W, s.H, hgt, s.W*f)
		tol := 1e-5 * float64(hi-lo)
		if o.Warp > 0 {
			tol = 1e-4 * float64(hi-lo)
		}
		if worst > tol {
			t.Errorf("×%d: means off by %.3g m; want ≤ %.3g", f, worst, tol)
		}
		t.Logf("×%d (warp %g): means off by up to %.3g of the relief", f, o.Warp, worst/float64(hi-lo))
	}
}

// Along every river segment, the fine heights of the bed cells (River >
// 0) its curve passes within half a cell of their centre (its axis: a
// bed's half width is at least 0.55 cells) never rise downstream by more than 1 mm
// (float32 steps of the drainage pass at these heights are 0.1 mm).
// The carve sets a cell to the lowest bed over it, so the axis also
// passes cells of other, deeper beds: its receiver's about their common
// node (where the displaced base (warp.go) squeezes a river along its
// course, the receiver's bed half a fine cell past the node is already
// lower: 8 % of the samples at ×2, 11 % at ×4, 6 % at ×8; none without
// the displacement), and a neighbour's where two rivers meet. Those
// cells are told from this segment's own bed by what it alone carves
// there (carver.carve's rule, segBottom) and skipped; the neighbours'
// share is bounded (at most 2 % of the samples; measured 0.5 to 0.6 %,
// 0.7 to 1.6 % without the displacement).
func TestRiversDownhill(t *testing.T) {
	simtest.SkipUnderRace(t, "numerics only")
	s := withLake(t, settled(t, 64), 30, 34)
	for _, f := range []int{2, 4, 8} {
		o := DefaultOptions(f)
		if err := check(s, &o); err != nil {
			t.Fatal(err)
		}
		p, err := prepare(context.Background(), s, o)
		if err != nil {
			t.Fatal(err)
		}
		r, err := p.run(context.Background(), 0, 0, s.W, s.H)
		if err != nil {
			t.Fatal(err)
		}
		bySrc := map[int32]*segment{}
		for k := range p.segs {
			bySrc[p.segs[k].src] = &p.segs[k]
		}
		bad, worst, n, recv, other := 0, float32(0), 0, 0, 0
		for si := range p.segs {
			sg := &p.segs[si]
			prev := float32(math.Inf(1))
			for k := 0; k+1 < len(sg.pts); k++ {
				a, b := sg.pts[k], sg.pts[k+1]
				for j := range 8 {
					u := float32(j) / 8
					qx, qy := a[0]+u*(b[0]-a[0]), a[1]+u*(b[1]-a[1])
					x, y := int(qx), int(qy)
					if x < 0 || y < 0 || x >= r.W || y >= r.H || math.Hypot(float64(qx)-float64(x)-0.5, float64(qy)-float64(y)-0.5) > 0.5 {
						continue // not a cell of this bed's axis
					}
					if r.River[y*r.W+x] == 0 {
						continue // a bend kept out of the hillslope beside
					}
					v := r.Height[y*r.W+x] + r.Water[y*r.W+x] // the surface through lakes
					if r.Water[y*r.W+x] == 0 && v < segBottom(sg, x, y)-1e-3 {
						if rs := bySrc[sg.dst]; rs != nil && v >= segBottom(rs, x, y)-1e-3 {
							recv++
						} else {
							other++
						}
						continue // another, deeper bed's cell
					}
					if v > prev+1e-3 {
						bad++
						worst = max(worst, v-prev)
					}
					prev = min(prev, v)
					n++
				}
			}
		}
		if bad > 0 {
			t.Errorf("×%d: %d of %d river samples rise downstream, by up to %.3g m", f, bad, n, worst)
		}
		all := n + recv + other
		if other > all/50 {
			t.Errorf("×%d: %d of %d river samples in a neighbour's bed; want at most 2 %%", f, other, all)
		}
		t.Logf("×%d: %d river samples: %d in the receiver's bed, %d in a neighbour's", f, all, recv, other)
		if r.River == nil || slices.Max(r.River) <= 0 {
			t.Errorf("×%d: no river bed", f)
		}
	}
}

// segBottom returns the lowest segment sg alone carves fine cell (x, y)
// to (carver.carve's rule, but for the bends it keeps out of the
// hillslope beside): +Inf off its bed.
func segBottom(sg *segment, x, y int) float32 {
	K := len(sg.pts)
	v := float32(math.Inf(1))
	for k := 0; k+1 < K; k++ {
		a, b := sg.pts[k], sg.pts[k+1]
		ex, ey := b[0]-a[0], b[1]-a[1]
		qx, qy := float32(x)+0.5-a[0], float32(y)+0.5-a[1]
		tau := float32(0)
		if l2 := ex*ex + ey*ey; l2 > 0 {
			tau = min(1, max(0, (qx*ex+qy*ey)/l2))
		}
		dx, dy := qx-tau*ex, qy-tau*ey
		d := float32(math.Sqrt(float64(dx*dx + dy*dy)))
		t := (float32(k) + tau) / float32(K-1)
		hw := sg.hw0 + (sg.hw1-sg.hw0)*t
		if d >= hw {
			continue
		}
		dep := sg.d0 + (sg.d1-sg.d0)*t
		if d > 0.5 {
			r := (d - 0.5) / (hw - 0.5)
			dep *= 1 - r*r
		}
		z := sg.z0 + (sg.z1-sg.z0)*t
		if sg.zs != nil {
			z = sg.zs[k] + (sg.zs[k+1]-sg.zs[k])*tau
		}
		v = min(v, z-dep)
	}
	return v
}

// Lakes are flat: every wet fine cell's surface is its lake's level (to
// float32 rounding of level − height + height: 1 mm at these heights),
// one level for the one lake dug.
func TestLakesFlat(t *testing.T) {
	s := withLake(t, settled(t, 64), 30, 34)
	o := DefaultOptions(4)
	if err := check(s, &o); err != nil {
		t.Fatal(err)
	}
	p, err := prepare(context.Background(), s, o)
	if err != nil {
		t.Fatal(err)
	}
	r, err := p.run(context.Background(), 0, 0, s.W, s.H)
	if err != nil {
		t.Fatal(err)
	}
	wet, levels := 0, map[float32]bool{}
	for y := range r.H {
		for x := range r.W {
			i := y*r.W + x
			if r.Water[i] <= 0 {
				continue
			}
			wet++
			lvl := p.wlevel[(y/4)*s.W+x/4]
			levels[lvl] = true
			if d := math.Abs(float64(r.Height[i] + r.Water[i] - lvl)); d > 1e-3 {
				t.Fatalf("cell (%d, %d): surface %g; want the level %g", x, y, r.Height[i]+r.Water[i], lvl)
			}
		}
	}
	if wet == 0 || len(levels) != 1 {
		t.Fatalf("%d wet cells at %d levels; want one lake", wet, len(levels))
	}
}

// With geology, Rock is the layer geology.Map finds at the fine heights
// on the fine grid (exactly: the same model, the same cell centres).
func TestRock(t *testing.T) {
	s := geologic(t, settled(t, 48))
	r := run(t, s, DefaultOptions(4))
	if r.Rock == nil {
		t.Fatal("no rock with a geology")
	}
	want := s.Geology.Map(r.W, r.H, r.Cell).Exposed(make([]uint8, r.W*r.H), r.Height, nil)
	layers := map[uint8]bool{}
	for i, v := range r.Rock {
		if v != want[i] {
			t.Fatalf("cell %d: layer %d; want %d", i, v, want[i])
		}
		layers[v] = true
	}
	if len(layers) < 3 {
		t.Errorf("%d layers exposed; want the strata to show", len(layers))
	}
	if r := run(t, settled(t, 48), DefaultOptions(2)); r.Rock != nil {
		t.Error("rock without a geology")
	}
}

// The same snapshot, options and seed give the same bytes with 1 and 2
// workers; another seed gives another terrain.
func TestDeterminism(t *testing.T) {
	s := geologic(t, withLake(t, settled(t, 64), 30, 34))
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	var got []*Result
	for _, procs := range []int{1, 2, 3} {
		runtime.GOMAXPROCS(procs)
		got = append(got, run(t, s, DefaultOptions(4)))
	}
	for k := 1; k < len(got); k++ {
		a, b := got[0], got[k]
		if !slices.Equal(bits(a.Height), bits(b.Height)) || !slices.Equal(bits(a.River), bits(b.River)) ||
			!slices.Equal(bits(a.Water), bits(b.Water)) || !slices.Equal(a.Rock, b.Rock) {
			t.Errorf("Mismatch concurrent: %d workers differ from 1", k+1)
		}
	}
	o := DefaultOptions(4)
	o.Seed = 99
	if c := run(t, s, o); slices.Equal(bits(c.Height), bits(got[0].Height)) {
		t.Error("another seed gives the same terrain")
	}
}

func bits(f []float32) []uint32 {
	out := make([]uint32, len(f))
	for i, v := range f {
		out[i] = math.Float32bits(v)
	}
	return out
}

// Window gives exactly Amplify's cells, alone or from an Amplifier: the
// base, detail, beds and lakes are functions of the fine cell and the
// whole coarse snapshot, and the mean corrections and the drainage pass
// see a margin of 16 coarse cells, wider than what they reach and than
// any depression of these terrains.
func TestWindowMatches(t *testing.T) {
	s := withLake(t, settled(t, 64), 30, 34)
	const f = 4
	full := run(t, s, DefaultOptions(f))
	a, err := New(context.Background(), s, DefaultOptions(f))
	if err != nil {
		t.Fatal(err)
	}
	for k, w := range [][4]int{{0, 0, 64, 64}, {10, 12, 20, 16}, {0, 40, 24, 24}, {27, 31, 9, 7}, {63, 63, 1, 1}} {
		win := a.Window // a prepared Amplifier, as the app's preview uses
		if k%2 == 0 {
			win = func(ctx context.Context, x0, y0, w, h int) (*Result, error) {
				return Window(ctx, s, DefaultOptions(f), x0, y0, w, h)
			}
		}
		r, err := win(context.Background(), w[0], w[1], w[2], w[3])
		if err != nil {
			t.Fatal(err)
		}
		if r.W != w[2]*f || r.H != w[3]*f {
			t.Fatalf("window %v: %d×%d cells; want %d×%d", w, r.W, r.H, w[2]*f, w[3]*f)
		}
		diff := 0
		for y := range r.H {
			for x := range r.W {
				i, j := y*r.W+x, (w[1]*f+y)*full.W+w[0]*f+x
				if r.Height[i] != full.Height[j] || r.Water[i] != full.Water[j] || r.River[i] != full.River[j] {
					diff++
				}
			}
		}
		if diff != 0 {
			t.Errorf("window %v: %d of %d cells differ from Amplify's; want 0", w, diff, r.W*r.H)
		}
	}
}

// Bad input is an error naming the problem, never a panic.
func TestBadInput(t *testing.T) {
	good := settled(t, 32)
	nan := *good
	nan.Height = slices.Clone(good.Height)
	nan.Height[5] = float32(math.NaN())
	short := *good
	short.Area = nil
	cycle := *good
	cycle.Receivers = slices.Clone(good.Receivers)
	cycle.Receivers[0], cycle.Receivers[1] = 1, 0
	ctx := context.Background()
	for _, c := range []struct {
		name string
		fn   func() (*Result, error)
		want string
	}{
		{"factor 3", func() (*Result, error) { return Amplify(ctx, good, DefaultOptions(3)) }, "factor 3"},
		{"factor 0", func() (*Result, error) { return Amplify(ctx, good, Options{}) }, "factor 0"},
		{"nil", func() (*Result, error) { return Amplify(ctx, nil, DefaultOptions(2)) }, "no snapshot"},
		{"empty", func() (*Result, error) { return Amplify(ctx, &engine.Snapshot{}, DefaultOptions(2)) }, "0×0"},
		{"NaN", func() (*Result, error) { return Amplify(ctx, &nan, DefaultOptions(2)) }, "non-finite"},
		{"no area", func() (*Result, error) { return Amplify(ctx, &short, DefaultOptions(2)) }, "drainage areas"},
		{"cycle", func() (*Result, error) { return Amplify(ctx, &cycle, DefaultOptions(2)) }, "cycle"},
		{"outside", func() (*Result, error) { return Window(ctx, good, DefaultOptions(2), 30, 0, 4, 4) }, "not inside"},
		{"negative", func() (*Result, error) { return Window(ctx, good, DefaultOptions(2), -1, 0, 4, 4) }, "not inside"},
		{"empty window", func() (*Result, error) { return Window(ctx, good, DefaultOptions(2), 0, 0, 0, 4) }, "not inside"},
		{"detail", func() (*Result, error) {
			o := DefaultOptions(2)
			o.Detail = math.NaN()
			return Amplify(ctx, good, o)
		}, "detail"},
		{"width", func() (*Result, error) {
			o := DefaultOptions(2)
			o.WidthExp = -1
			return Amplify(ctx, good, o)
		}, "width exponent"},
		{"hydro", func() (*Result, error) {
			o := DefaultOptions(2)
			o.HydroSteps = -3
			return Amplify(ctx, good, o)
		}, "HydroSteps"},
		{"canceled", func() (*Result, error) {
			c, cancel := context.WithCancel(ctx)
			cancel()
			return Amplify(c, good, DefaultOptions(2))
		}, "canceled"},
	} {
		r, err := c.fn()
		if err == nil || !strings.Contains(err.Error(), c.want) || r != nil {
			t.Errorf("%s: got %v, %v; want an error about %q", c.name, r != nil, err, c.want)
		}
	}
}

func BenchmarkAmplify(b *testing.B) {
	for _, c := range []struct{ n, f, hydro int }{{256, 4, 0}, {1024, 4, 0}, {1024, 8, 0}, {1024, 4, 20}} {
		name := strings.Join([]string{itoa(c.n), itoa(c.n * c.f)}, "to")
		if c.hydro > 0 {
			name += "/hydro" + itoa(c.hydro)
		}
		b.Run(name, func(b *testing.B) {
			s := benchTerrain(b, c.n)
			o := DefaultOptions(c.f)
			o.HydroSteps = c.hydro
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if _, err := Amplify(context.Background(), s, o); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var d []byte
	for ; n > 0; n /= 10 {
		d = append([]byte{byte('0' + n%10)}, d...)
	}
	return string(d)
}

// steeper returns the share of the interior cells whose steepest descent
// to a neighbour exceeds tan.
func steeper(h []float32, w, ht int, cell, tan float64) float64 {
	n, over := 0, 0
	for y := 1; y < ht-1; y++ {
		for x := 1; x < w-1; x++ {
			best := 0.0
			for k := range 8 {
				d := cell
				if k&1 == 1 {
					d *= math.Sqrt2
				}
				best = max(best, float64(h[y*w+x]-h[(y+dy8[k])*w+x+dx8[k]])/d)
			}
			n++
			if best > tan {
				over++
			}
		}
	}
	return float64(over) / float64(n)
}

// The ravines respect the talus angle: they add no more than 2 % of the
// cells to those steeper than it (measured: under 1 %; a ravine's sides
// take only the slope headroom, or 0.35·S on slopes already at the
// talus). The base surface itself has fine slopes beyond the talus angle
// where a talus-limited coarse terrain turns (ridges, valleys): keeping
// each coarse cell's mean there needs them; the test states that share.
func TestDetailRespectsTalus(t *testing.T) {
	simtest.SkipUnderRace(t, "numerics only")
	s := settled(t, 64)
	tan := math.Tan(s.Param.Talus.AngleDeg * math.Pi / 180)
	for _, f := range []int{2, 4, 8} {
		o := DefaultOptions(f)
		base, detail := o, o
		base.Detail = 0
		b := run(t, s, base)
		d := run(t, s, detail)
		sb, sd := steeper(b.Height, b.W, b.H, b.Cell, tan), steeper(d.Height, d.W, d.H, d.Cell, tan)
		if sd-sb > 0.02 {
			t.Errorf("×%d: %.3g of the cells steeper than the talus angle with detail, %.3g without; want at most 0.02 more", f, sd, sb)
		}
		t.Logf("×%d: steeper than the talus angle: %.3g without detail, %.3g with (coarse: %.3g)", f, sb, sd, steeper(s.Height, s.W, s.H, s.Cell, tan))
	}
}

// The hydraulic pass (HydroSteps) keeps the drainage exact (it is drained
// again), is deterministic, and what it adds is measured: how far it moves
// the heights and the cell means, and the roughness below the coarse cell
// (Roughness) before and after. It digs and deposits, and the depressions
// its deposits leave are filled by the drainage pass after it, so the
// cell means hold within 4 % of the relief (measured 2.6 % after 100
// steps; the means are corrected once more before that pass): a finishing
// pass, not bound by the amplification's 1 %.
func TestHydroSteps(t *testing.T) {
	s := withLake(t, settled(t, 64), 30, 34)
	const f = 4
	o := DefaultOptions(f)
	before := run(t, s, o)
	o.HydroSteps = 100
	if simtest.Race && testing.Short() {
		// Under make race, only what the detector can find: the pass
		// with 1 and 2 workers, a few steps.
		o.HydroSteps = 5
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	runtime.GOMAXPROCS(1)
	after := run(t, s, o)
	runtime.GOMAXPROCS(2)
	if again := run(t, s, o); !slices.Equal(bits(again.Height), bits(after.Height)) {
		t.Error("Mismatch concurrent: the hydraulic pass differs with 2 workers")
	}
	if o.HydroSteps < 100 {
		return
	}
	if pits, _ := pitsOf(after, s.Param.Edges); pits != 0 {
		t.Errorf("%d dry pits after the hydraulic pass; want 0", pits)
	}
	var moved, worst float64
	for i, v := range after.Height {
		d := math.Abs(float64(v - before.Height[i]))
		moved += d
		worst = max(worst, d)
	}
	if worst == 0 {
		t.Fatal("the hydraulic pass changed nothing")
	}
	lo, hi := slices.Min(s.Height), slices.Max(s.Height)
	mean, _ := MeanError(s.Height, s.W, s.H, after.Height, after.W)
	if mean > 0.04*float64(hi-lo) {
		t.Errorf("cell means off by %.3g m after the hydraulic pass; want within 4 %% of the %.0f m relief", mean, hi-lo)
	}
	// A window runs the pass on its margin's region: water there moves a
	// third of a fine cell per step, 33 cells in 100 steps, inside the
	// margin of 16·F = 64: the window matches exactly.
	win, err := Window(context.Background(), s, o, 10, 12, 20, 16)
	if err != nil {
		t.Fatal(err)
	}
	diff := 0
	for y := range win.H {
		for x := range win.W {
			if win.Height[y*win.W+x] != after.Height[(12*f+y)*after.W+10*f+x] {
				diff++
			}
		}
	}
	if diff != 0 {
		t.Errorf("with the hydraulic pass, %d of %d window cells differ from Amplify's; want 0", diff, win.W*win.H)
	}
	t.Logf("100 steps at ×%d: heights moved %.3g m on average, %.3g m at most; cell means within %.3g %% of the relief; roughness %.4g → %.4g",
		f, moved/float64(len(after.Height)), worst, 100*mean/float64(hi-lo),
		Roughness(before.Height, before.W, before.H, f), Roughness(after.Height, after.W, after.H, f))
}

// With StrictTalus no dry fine cell off the beds is steeper than its
// coarse cell's talus angle towards any of its eight neighbours (a lake
// counted at its level); exact up to float32 rounding (1 mm). The pass
// only lowers, so the terrain still drains (no dry pit, exact), and it is
// deterministic and the same in a window. What it costs the cell means is
// logged: a talus-limited crest cannot keep its coarse cell's mean under
// the limit (a Λ at the talus angle averages tan θ·Cell/4 below its
// crest), and the base surface had sharpened the crests to keep it, so
// they come down by more (measured on this 64² terrain of 200 m cells:
// 53–92 m, 2 to 3 times tan θ·Cell/4, 6–11 % of its small relief; on the
// default preset, 4.8–6.1 % at 128², 1.3–1.8 % at 512², 0.82–0.95 % at
// 1024²: the package doc).
func TestStrictTalus(t *testing.T) {
	simtest.SkipUnderRace(t, "numerics only")
	base := settled(t, 64)
	tan := float32(math.Tan(base.Param.Talus.AngleDeg * math.Pi / 180))
	for _, c := range []struct {
		name string
		s    *engine.Snapshot
		f    int
	}{
		{"plain×2", base, 2},
		{"lake×4", withLake(t, base, 30, 34), 4},
		{"plain×8", base, 8},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := DefaultOptions(c.f)
			o.StrictTalus = true
			r := run(t, c.s, o)
			over := 0
			for y := range r.H {
				for x := range r.W {
					i := y*r.W + x
					if r.River[i] > 0 || r.Water[i] > 0 {
						continue
					}
					for k := range 8 {
						nx, ny := x+dx8[k], y+dy8[k]
						if nx < 0 || ny < 0 || nx >= r.W || ny >= r.H {
							continue
						}
						j := ny*r.W + nx
						d := float32(r.Cell)
						if k&1 == 1 {
							d *= math.Sqrt2
						}
						if r.Height[i]-(r.Height[j]+r.Water[j]) > tan*d+1e-3 {
							over++
							break
						}
					}
				}
			}
			if over != 0 {
				t.Errorf("%d dry cells steeper than the talus angle; want none", over)
			}
			if pits, _ := pitsOf(r, c.s.Param.Edges); pits != 0 {
				t.Errorf("%d dry pits; want 0", pits)
			}
			again := run(t, c.s, o)
			if !slices.Equal(again.Height, r.Height) {
				t.Error("two runs differ")
			}
			x0, y0, w, h := 20, 24, 16, 12
			win, err := Window(context.Background(), c.s, o, x0, y0, w, h)
			if err != nil {
				t.Fatal(err)
			}
			diff := 0
			for y := range win.H {
				for x := range win.W {
					if win.Height[y*win.W+x] != r.Height[(y0*c.f+y)*r.W+x0*c.f+x] {
						diff++
					}
				}
			}
			if diff != 0 {
				t.Errorf("the window differs from Amplify at %d of %d cells", diff, win.W*win.H)
			}
			lo, hi := slices.Min(c.s.Height), slices.Max(c.s.Height)
			worst := 0.0
			for cy := range c.s.H {
				for cx := range c.s.W {
					var m float64
					for y := cy * c.f; y < (cy+1)*c.f; y++ {
						for x := cx * c.f; x < (cx+1)*c.f; x++ {
							m += float64(r.Height[y*r.W+x])
						}
					}
					worst = max(worst, math.Abs(m/float64(c.f*c.f)-float64(c.s.Height[cy*c.s.W+cx])))
				}
			}
			t.Logf("cell means within %.3g m (%.3g %% of the relief; tan θ·Cell/4 = %.3g m)", worst, 100*worst/float64(hi-lo), float64(tan)*c.s.Cell/4)
		})
	}
}

// Nothing below base level: the cubic undershoots beside the outlet edges
// at 0 (2 620 fine cells at ×4, down to −17 m, before floorAtBase), but no fine cell
// of the result lies below the coarse terrain's lowest height, at any
// factor.
func TestNothingBelowBase(t *testing.T) {
	s := settled(t, 64)
	base := slices.Min(s.Height)
	for _, f := range []int{2, 4} {
		r := run(t, s, DefaultOptions(f))
		if lo := slices.Min(r.Height); lo < base {
			below := 0
			for _, v := range r.Height {
				if v < base {
					below++
				}
			}
			t.Errorf("×%d: %d fine cells below base level %g m, the lowest at %g m; want none", f, below, base, lo)
		}
	}
}

// Imprint tells the coarse grid apart: a fine ramp has the same
// differences across coarse cell edges as inside them; a coarse terrain
// repeated over its fine cells (nearest neighbour) has none inside.
func TestImprint(t *testing.T) {
	const f, n = 4, 32
	ramp := make([]float32, n*n)
	blocky := make([]float32, n*n)
	for y := range n {
		for x := range n {
			ramp[y*n+x] = float32(3*x + 2*y)
			blocky[y*n+x] = float32((x/f)*(x/f) + 7*(y/f))
		}
	}
	if a, i := Imprint(ramp, n, n, f); math.Abs(a-i) > 1e-9 || a != 2.5 {
		t.Errorf("ramp: across %g, inside %g; want 2.5 both", a, i)
	}
	if a, i := Imprint(blocky, n, n, f); i != 0 || !(a > 0) {
		t.Errorf("nearest-neighbour upsample: across %g, inside %g; want > 0 and 0", a, i)
	}
}
