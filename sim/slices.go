package sim

// Resize returns s with length n for a caller that overwrites or clears
// every element: the values s[:n] holds are whatever its backing array held
// (stale values from an earlier use), and a new array, allocated with
// capacity n when s is too short, is zeroed. Use it for buffers whose length
// is fixed by the grid or the node count.
func Resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}

// ResizeSpare is Resize for counts that vary from step to step (roots,
// lakes, pits): a new array gets a quarter more capacity and 16 spare
// elements, so that a slightly larger count next step does not allocate
// again.
func ResizeSpare[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n, n+n/4+16)
	}
	return s[:n]
}

// Sum32 returns the sum of v in float64. It keeps four partial sums (of
// the elements 4k, 4k+1, 4k+2, 4k+3) so that the additions do not wait on
// each other, and adds them in a fixed order: the result depends only on
// v.
func Sum32(v []float32) float64 {
	var s0, s1, s2, s3 float64
	n := len(v) &^ 3
	for i := 0; i < n; i += 4 {
		q := v[i : i+4 : i+4]
		s0 += float64(q[0])
		s1 += float64(q[1])
		s2 += float64(q[2])
		s3 += float64(q[3])
	}
	for _, x := range v[n:] {
		s0 += float64(x)
	}
	return (s0 + s1) + (s2 + s3)
}
