//go:build !linux

package roudier

import "time"

// cpuSeconds is not measured here: the benchmarks report 0 CPU-ms.
func cpuSeconds() float64 { return 0 }

// threadClock is nil: there is no thread CPU clock here.
var threadClock func() time.Time
