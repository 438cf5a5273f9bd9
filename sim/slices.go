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
