//go:build !unix

package build

// cpuSeconds is 0 where the process's CPU time is not read.
func cpuSeconds() float64 { return 0 }
