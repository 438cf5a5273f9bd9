package spl

// TargetK returns the erodibility that makes mountains culminate near
// height metres under uplift umax m/yr, from Cordonnier et al. 2016, §6.4:
// h_max = 2.244 u/k.
func TargetK(umax, height float64) float64 { return 2.244 * umax / height }
