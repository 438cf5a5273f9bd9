package uplifttree

// mono is a monotone piecewise-cubic Hermite interpolant through knots
// (x[i], y[i]) with strictly increasing x: on every interval it is monotone
// and stays between its two knot values, so it never overshoots the data.
// The tangents are Fritsch–Butland's weighted harmonic mean of the
// neighbouring secants (Fritsch and Butland 1984; Fritsch and Carlson 1980
// give the monotonicity region it lies in), zero at local extrema, and
// a shape-preserving three-point formula at the two ends. Outside [x₀, xₙ]
// the interpolant is constant. One knot gives a constant, two a line.
type mono struct {
	x, y []float64
	c    [][4]float64 // interval i: y = c₀ + c₁s + c₂s² + c₃s³, s ∈ [0, 1]
}

// newMono builds the interpolant. x must be strictly increasing and as long
// as y (checked by the callers' validation).
func newMono(x, y []float64) mono {
	n := len(x)
	c := mono{x: x, y: y}
	if n < 2 {
		return c
	}
	m := make([]float64, n)
	h := make([]float64, n-1)
	del := make([]float64, n-1)
	for i := range n - 1 {
		h[i] = x[i+1] - x[i]
		del[i] = (y[i+1] - y[i]) / h[i]
	}
	if n == 2 {
		m[0], m[1] = del[0], del[0]
	} else {
		for i := 1; i < n-1; i++ {
			d0, d1 := del[i-1], del[i]
			if d0*d1 <= 0 {
				continue // local extremum or flat: zero tangent
			}
			w := (h[i-1] + 2*h[i]) / (3 * (h[i-1] + h[i]))
			m[i] = d0 * d1 / (w*d1 + (1-w)*d0)
		}
		m[0] = endTangent(h[0], h[1], del[0], del[1])
		m[n-1] = endTangent(h[n-2], h[n-3], del[n-2], del[n-3])
	}
	// Hermite basis in power form, with the tangents scaled to the interval.
	c.c = make([][4]float64, n-1)
	for i := range n - 1 {
		y0, y1 := y[i], y[i+1]
		t0, t1 := h[i]*m[i], h[i]*m[i+1]
		c.c[i] = [4]float64{y0, t0, 3*(y1-y0) - 2*t0 - t1, 2*(y0-y1) + t0 + t1}
	}
	return c
}

// endTangent is the non-centred three-point tangent at an end knot whose
// interval has width h0 and secant d0 (the next interval: h1, d1), reset to
// zero when its sign disagrees with d0 and limited to 3·d0 when the secants
// change sign, the two conditions that keep the end interval monotone.
func endTangent(h0, h1, d0, d1 float64) float64 {
	m := ((2*h0+h1)*d0 - h0*d1) / (h0 + h1)
	switch {
	case m*d0 <= 0:
		return 0
	case d0*d1 < 0 && abs(m) > abs(3*d0):
		return 3 * d0
	}
	return m
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// find returns the interval of t and the local parameter in it: −1 before
// the first knot (and for a single knot), len(x)−1 after the last.
func (c *mono) find(t float64) (int, float64) {
	n := len(c.x)
	if n == 1 || t <= c.x[0] {
		return -1, 0
	}
	if t >= c.x[n-1] {
		return n - 1, 0
	}
	i := 0
	for i < n-2 && t > c.x[i+1] {
		i++
	}
	return i, (t - c.x[i]) / (c.x[i+1] - c.x[i])
}

// local evaluates interval i (as find returns it) at local parameter s.
// The knots are returned exactly, and rounding never leaves the interval's
// range.
func (c *mono) local(i int, s float64) float64 {
	switch {
	case i < 0:
		return c.y[0]
	case i >= len(c.c):
		return c.y[len(c.y)-1]
	case s <= 0:
		return c.y[i]
	case s >= 1:
		return c.y[i+1]
	}
	k := &c.c[i]
	v := k[0] + s*(k[1]+s*(k[2]+s*k[3]))
	y0, y1 := c.y[i], c.y[i+1]
	return max(min(y0, y1), min(max(y0, y1), v))
}

// at returns the interpolant at t.
func (c *mono) at(t float64) float64 { return c.local(c.find(t)) }
