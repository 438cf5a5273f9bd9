package analysis

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"orogen/sim"
	"orogen/sim/flow"
	"orogen/sim/simtest"
)

// waves returns a smooth random surface: a sum of 40 plane waves of random
// direction, wavelength (8 to 40 cells) and phase, amp metres each, over a
// tilt. Its slopes spread smoothly and its aspects evenly: no spike, no
// planar cells to speak of, no preferred direction.
func waves(w, h int, cell, amp float64, seed uint64) *sim.Field {
	rng := rand.New(rand.NewPCG(seed, 5))
	f := sim.NewField(w, h, cell)
	type wave struct{ kx, ky, ph float64 }
	ws := make([]wave, 40)
	for k := range ws {
		dir := rng.Float64() * 2 * math.Pi
		l := (8 + 32*rng.Float64()) * cell
		ws[k] = wave{math.Cos(dir) * 2 * math.Pi / l, math.Sin(dir) * 2 * math.Pi / l, rng.Float64() * 2 * math.Pi}
	}
	for y := range h {
		for x := range w {
			px, py := float64(x)*cell, float64(y)*cell
			v := 0.02 * px
			for _, q := range ws {
				v += amp * math.Sin(q.kx*px+q.ky*py+q.ph)
			}
			f.Data[y*w+x] = float32(v)
		}
	}
	return f
}

// A plane at 30° is all spike, all planar and all one aspect; the smooth
// random surface has none of that. The bounds on the random surface are
// wide on purpose (its 40 waves make a lumpy histogram): what matters is
// the hundredfold gap to the plane.
func TestRealismPlaneAndWaves(t *testing.T) {
	const n, cell = 64, 10.0
	tan30 := math.Tan(30 * math.Pi / 180)
	plane := &sim.Field{W: n, H: n, Cell: cell, Data: simtest.TiltedPlane(n, n, cell, tan30)}
	r, err := MeasureRealism(plane, natural, 30)
	if err != nil {
		t.Fatal(err)
	}
	inner := (n - 2) * (n - 2)
	// Column 0 is at the lowest height on a natural edge: the base-level
	// plain, which holds no interior cell.
	if r.Sloping != inner {
		t.Errorf("plane: %d sloping cells; want every interior cell, %d", r.Sloping, inner)
	}
	if r.Spike != float64(inner) { // the reference band holds no cell: it counts as one
		t.Errorf("plane: spike %g; want %d (every cell at 30°, none 2–5° away)", r.Spike, inner)
	}
	if r.Planar != 1 {
		t.Errorf("plane: planar share %g; want 1", r.Planar)
	}
	if want := 180 / AspectBinDeg / 4; math.Abs(r.Anisotropy-want) > 1e-9 {
		t.Errorf("plane: anisotropy %g; want %g (every aspect at 0°)", r.Anisotropy, want)
	}
	if r.Hilltops != 0 {
		t.Errorf("plane: %d hilltops; want 0", r.Hilltops)
	}

	wv := waves(128, 128, cell, 3, 1)
	r, err = MeasureRealism(wv, natural, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !r.TalusMode {
		t.Error("waves: talus not from the mode with no talus given")
	}
	if r.Spike < 0.5 || r.Spike > 2 {
		t.Errorf("waves: spike %g at the mode %g°; want 0.5–2 (a smooth histogram)", r.Spike, r.Talus)
	}
	if r.Planar > 0.03 {
		t.Errorf("waves: planar share %g; want ≤ 0.03", r.Planar)
	}
	if r.Anisotropy < 0.7 || r.Anisotropy > 1.3 {
		t.Errorf("waves: anisotropy %g; want 0.7–1.3", r.Anisotropy)
	}
	sum := 0.0
	for _, v := range r.SlopeHist {
		sum += v
	}
	if math.Abs(sum-1) > 1e-9 {
		t.Errorf("waves: slope histogram sums to %g; want 1", sum)
	}
	t.Logf("waves: spike %.2f at %.2f°, planar %.4f, anisotropy %.3f, %d hilltops (%.2f convex)",
		r.Spike, r.Talus, r.Planar, r.Anisotropy, r.Hilltops, r.HilltopConvex)
}

// On a paraboloid dome h = −r²/(2R) the crests (higher than both neighbours
// along a row, a column or a diagonal) are the cells of the row, column and
// diagonals through the top (elsewhere each line has a neighbour nearer the
// top), and the five-point Laplacian is exactly −2/R (it
// is exact on quadratics); |∇²h|·Δx/|∇h| = 2Δx/r, so no cell within 100
// cells of the top is planar.
func TestHilltopDome(t *testing.T) {
	const n, cell, R = 41, 10.0, 2000.0
	f := sim.NewField(n, n, cell)
	for y := range n {
		for x := range n {
			dx, dy := float64(x-n/2)*cell, float64(y-n/2)*cell
			f.Data[y*n+x] = float32(1000 - (dx*dx+dy*dy)/(2*R))
		}
	}
	med, convex, cells := HilltopConvexity(f, nil)
	if want := 4*(n-2) - 3; cells != want {
		t.Errorf("%d hilltop cells; want %d, the interior cells of the row, column and diagonals through the top", cells, want)
	}
	// float32 heights near 1000 m are within 3e-5 m: 4 of them over
	// Δx² = 100 m² moves the Laplacian by about 1e-6 /m.
	if math.Abs(med-(-2/R)) > 2e-6 || convex != 1 {
		t.Errorf("median ∇²h %g /m, convex share %g; want %g and 1", med, convex, -2/R)
	}
	if p := PlanarShare(f, nil); p != 0 {
		t.Errorf("planar share %g; want 0 on a dome", p)
	}
}

// The spike counts the window and the reference band exactly: 100 cells in
// the window and 12 in the 6°-wide band (one a half degree) give 100.
func TestSpikeCounts(t *testing.T) {
	h := SlopeHistogram{fine: make([]float64, int(90/fineBin)+1)}
	put := func(deg float64, cells float64) { h.fine[int(deg/fineBin)] += cells; h.Cells += int(cells) }
	put(30.1, 100)
	for _, d := range []float64{25.2, 25.8, 26.3, 26.6, 27.1, 27.9, 32.2, 32.7, 33.4, 33.6, 34.1, 34.8} {
		put(d, 1)
	}
	put(31, 7)   // 1° away: neither window nor band
	put(35.5, 9) // 5.5° away: outside the band
	if got := h.Spike(30); got != 100 {
		t.Errorf("spike %g; want 100", got)
	}
	if got := h.Mode(); got != 30.25 {
		t.Errorf("mode %g°; want 30.25 (the bin [30, 30.5))", got)
	}
}

// Concavity on the channels of the analytic steady state: θ = m/n. The
// reach of ChannelReach steps averages the slope over a few cells whose
// area grows downstream, which biases θ by a few hundredths at most.
func TestChannelConcavitySteadyState(t *testing.T) {
	f := steadyState(t, 96, 80, 100, 1e-3, 2e-5, 0.45, 1)
	r, err := Analyze(f, Options{Edges: outlets, MinArea: 5})
	if err != nil {
		t.Fatal(err)
	}
	base := BaseLevel(f, outlets)
	sa, err := ChannelConcavity(CutTree(r.Tree, base), r.Heights, base, nil, 50*r.Tree.CellArea)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(sa.Concavity-0.45) > 0.03 {
		t.Errorf("θ on channels %g; want 0.45 within 0.03", sa.Concavity)
	}
}

// The base-level plain is the lowest flat land reaching an open edge:
// a cone standing on a plain at 0 has the plain and nothing else, and a pit
// at the same height inside the cone is not base level.
func TestBaseLevel(t *testing.T) {
	const n, cell = 33, 10.0
	f := &sim.Field{W: n, H: n, Cell: cell, Data: simtest.Cone(n, n, cell, 100, 0.8)}
	plain := 0
	for i, v := range f.Data {
		if v < 0 {
			f.Data[i] = 0
			plain++
		}
	}
	f.Data[(n/2)*n+n/2+3] = 0 // a pit on the flank
	base := BaseLevel(f, natural)
	got := 0
	for _, b := range base {
		if b {
			got++
		}
	}
	if got != plain || base[(n/2)*n+n/2+3] {
		t.Errorf("%d base-level cells (pit marked %v); want the %d cells of the plain", got, base[(n/2)*n+n/2+3], plain)
	}
	if BaseLevel(f, flowClosed()) != nil {
		t.Error("base level with every edge closed; want none")
	}
}

func flowClosed() flow.Edges {
	return flow.Edges{North: flow.Closed, South: flow.Closed, East: flow.Closed, West: flow.Closed}
}

// BenchmarkMeasureRealism times the realism measures alone (Analyze runs
// them after routing) on the smooth random surface, 256² to 1024².
func BenchmarkMeasureRealism(b *testing.B) {
	for _, n := range []int{256, 512, 1024} {
		f := waves(n, n, 30, 3, 1)
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				if _, err := MeasureRealism(f, natural, 30); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
