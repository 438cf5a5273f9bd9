//go:build linux

package flow

import (
	"syscall"
	"testing"
	"time"
)

// processCPU returns the CPU time the process has used (user and
// system), or 0 where it cannot be read.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU, deferred at the start of a benchmark's timed loop, reports
// the process CPU time per operation (cpu-ms): on a loaded machine the
// wall time includes the time other processes held the cores.
func reportCPU(b *testing.B) func() {
	t0 := processCPU()
	return func() {
		b.ReportMetric((processCPU()-t0).Seconds()*1e3/float64(b.N), "cpu-ms")
	}
}
