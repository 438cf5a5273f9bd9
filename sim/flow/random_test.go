package flow

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestRandomize: on a plane tilted 30° off the x axis, D8 sends every
// cell east; the randomized hillslope routing sends cells to several
// downhill neighbours, in proportions that follow the slope weights (the
// mean receiver direction is the gradient's, within a few degrees), every
// receiver downhill, channels (area >= channel) untouched, and a second
// call on the same heights keeps every choice.
func TestRandomize(t *testing.T) {
	const w, h = 64, 64
	hs := make([]float32, w*h)
	a := 30 * math.Pi / 180
	for y := range h {
		for x := range w {
			hs[y*w+x] = float32(1000 - 10*(math.Cos(a)*float64(x)+math.Sin(a)*float64(y)))
		}
	}
	edges := Edges{North: Outlet, South: Outlet, East: Outlet, West: Outlet}
	g := NewGraph(w, h, 10, edges, 0)
	g.Route(hs)
	d8 := slices.Clone(g.Rec)
	area := make([]float64, w*h)
	area[20*w+20] = 1e9 // a channel cell
	g.Randomize(hs, area, 1e6, 7)
	var sx, sy float64
	dirs := map[int32]int{}
	for y := 1; y < h-1; y++ {
		for x := 1; x < w-1; x++ {
			i := y*w + x
			r := g.Rec[i]
			if !(hs[r] < hs[i]) {
				t.Fatalf("cell %d: receiver %d not downhill", i, r)
			}
			dx, dy := float64(int(r)%w-x), float64(int(r)/w-y)
			dirs[r-int32(i)]++
			l := math.Hypot(dx, dy)
			sx, sy = sx+dx/l, sy+dy/l
		}
	}
	if g.Rec[20*w+20] != d8[20*w+20] {
		t.Errorf("the channel cell changed receiver")
	}
	if len(dirs) < 3 {
		t.Errorf("receivers in %d directions; want several", len(dirs))
	}
	if got := math.Atan2(sy, sx) * 180 / math.Pi; math.Abs(got-30) > 5 {
		t.Errorf("mean receiver direction %.1f°; want the gradient's 30°", got)
	}
	first := slices.Clone(g.Rec)
	g.Route(hs)
	g.Randomize(hs, area, 1e6, 7)
	if !slices.Equal(first, g.Rec) {
		t.Errorf("a second call changed receivers on the same heights")
	}
}

// TestRandomizeChannelHold: a cell whose drainage area reached the channel
// threshold keeps Route's receiver for ChannelHold more calls after its
// area fell below it, then takes the random receiver a cell that never
// was a channel takes.
func TestRandomizeChannelHold(t *testing.T) {
	const w, h = 32, 32
	hs := make([]float32, w*h)
	a := 30 * math.Pi / 180
	for y := range h {
		for x := range w {
			hs[y*w+x] = float32(1000 - 10*(math.Cos(a)*float64(x)+math.Sin(a)*float64(y)))
		}
	}
	edges := Edges{North: Outlet, South: Outlet, East: Outlet, West: Outlet}
	none := make([]float64, w*h)
	ref := NewGraph(w, h, 10, edges, 0)
	ref.Route(hs)
	d8 := slices.Clone(ref.Rec)
	ref.Randomize(hs, none, 1e6, 3)
	c := -1 // a cell whose random receiver is not D8's
	for i := range d8 {
		if ref.Rec[i] != d8[i] {
			c = i
			break
		}
	}
	if c < 0 {
		t.Fatal("no cell left D8's receiver")
	}
	g := NewGraph(w, h, 10, edges, 0)
	area := make([]float64, w*h)
	area[c] = 1e9
	g.Route(hs)
	g.Randomize(hs, area, 1e6, 3)
	for call := 1; call <= ChannelHold+1; call++ {
		g.Route(hs)
		g.Randomize(hs, none, 1e6, 3)
		want, rule := d8[c], "Route's"
		if call > ChannelHold {
			want, rule = ref.Rec[c], "the random"
		}
		if g.Rec[c] != want {
			t.Fatalf("call %d after the area fell: receiver %d; want %s, %d", call, g.Rec[c], rule, want)
		}
	}
}

// TestChannelKeep: a channel the random routing holds keeps its receiver
// while another neighbour is steeper by less than ChannelKeep (a cardinal
// and a diagonal neighbour near the heights at which they tie, where a
// channel otherwise alternates: docs/REALISM.md), and takes the steeper
// one beyond it; a graph without the random routing, or once
// ForgetRandom dropped its state, switches at Hysteresis.
func TestChannelKeep(t *testing.T) {
	const w, h = 7, 7
	c := 3*w + 3 // the channel cell
	heights := func(diag float64) []float32 {
		hs := make([]float32, w*h)
		for i := range hs {
			hs[i] = 20
		}
		hs[c], hs[c+1] = 10, 9                    // east: slope 1 (drop per cell)
		hs[c+w+1] = float32(10 - diag*math.Sqrt2) // south-east: slope diag
		return hs
	}
	edges := Edges{North: Outlet, South: Outlet, East: Outlet, West: Outlet}
	area := make([]float64, w*h)
	area[c] = 1e9
	for _, tc := range []struct {
		name   string
		random bool
		forget bool
		diag   float64 // the south-east slope at the second routing
		want   int
	}{
		{"channel, 3 % steeper", true, false, 1.03, c + 1},
		{"channel, 7 % steeper", true, false, 1.07, c + w + 1},
		{"d8, 3 % steeper", false, false, 1.03, c + w + 1},
		{"forgotten, 3 % steeper", true, true, 1.03, c + w + 1},
	} {
		g := NewGraph(w, h, 10, edges, 0)
		hs := heights(0.99)
		g.Route(hs)
		if tc.random {
			g.Randomize(hs, area, 1e6, 7)
		}
		if g.Rec[c] != int32(c+1) {
			t.Fatalf("%s: first routing: cell %d drains to %d; want %d", tc.name, c, g.Rec[c], c+1)
		}
		if tc.forget {
			g.ForgetRandom()
		}
		hs = heights(tc.diag)
		g.Route(hs)
		if g.Rec[c] != int32(tc.want) {
			t.Errorf("%s: cell %d drains to %d; want %d", tc.name, c, g.Rec[c], tc.want)
		}
	}
}

// TestRouteRandomIsRouteThenRandomize: RouteRandom gives the receivers,
// distances, directions and Randomize state that Route then Randomize
// give, bit for bit, call after call on a rough terrain with pits, every
// kind of edge, channels appearing and vanishing (held, then released),
// with the area in grid order and in a drainage order's positions.
func TestRouteRandomIsRouteThenRandomize(t *testing.T) {
	const w, h = 41, 37
	rnd := rand.New(rand.NewPCG(5, 6))
	hs := make([]float32, w*h)
	for i := range hs {
		hs[i] = float32(i%w+2*(i/w)) + 8*rnd.Float32()
	}
	edges := Edges{North: Outlet, South: Natural, East: Closed, West: Natural}
	ref := NewGraph(w, h, 10, edges, 0)
	grid := NewGraph(w, h, 10, edges, 0)
	ord := NewGraph(w, h, 10, edges, 0)
	area := make([]float64, w*h)
	pos := rnd.Perm(w * h)
	pos32 := make([]int32, w*h)
	inOrder := make([]float64, w*h)
	for call := range 2*ChannelHold + 8 {
		for i := range area {
			area[i] = 100 * math.Exp(3*rnd.NormFloat64())
			if call > ChannelHold {
				area[i] /= 1e3 // the channels fall below the threshold
			}
			pos32[i] = int32(pos[i])
			inOrder[pos[i]] = area[i]
		}
		if call%3 == 0 {
			for i := range hs {
				hs[i] += 2 * (rnd.Float32() - 0.5)
			}
		}
		ref.Route(hs)
		ref.Randomize(hs, area, 1e4, 9)
		grid.RouteRandom(hs, area, nil, 1e4, 9)
		ord.RouteRandom(hs, inOrder, pos32, 1e4, 9)
		for _, g := range []*Graph{grid, ord} {
			if !slices.Equal(g.Rec, ref.Rec) || !slices.Equal(g.Dist, ref.Dist) || !slices.Equal(g.dir, ref.dir) ||
				!slices.Equal(g.rdir, ref.rdir) || !slices.Equal(g.rhold, ref.rhold) {
				t.Fatalf("call %d: RouteRandom (positions %v) differs from Route then Randomize", call, g == ord)
			}
		}
	}
}
