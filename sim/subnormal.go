package sim

// SmallestNormal32 is the smallest positive normal float32, 2^−126
// (about 1.2e-38): below it float32 values are subnormal.
const SmallestNormal32 = 0x1p-126

// Flush returns v, or +0 when v is subnormal (|v| < SmallestNormal32):
// heights and depths that decay geometrically toward 0 (the implicit
// stream-power solve on land without uplift draining to base level at 0)
// otherwise stall at 1e-45 m, the smallest subnormal, where 0 is meant.
func Flush(v float32) float32 {
	if v > -SmallestNormal32 && v < SmallestNormal32 {
		return 0
	}
	return v
}

// FlushSubnormals sets every subnormal value of dst to +0 (Flush) and
// returns the number it changed.
func FlushSubnormals(dst []float32) int {
	n := 0
	for i, v := range dst {
		if v != 0 && v > -SmallestNormal32 && v < SmallestNormal32 {
			dst[i] = 0
			n++
		}
	}
	return n
}
