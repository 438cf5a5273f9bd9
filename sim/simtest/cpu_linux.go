//go:build linux

package simtest

import (
	"runtime"
	"syscall"
	"testing"
	"time"
)

// ProcessCPU returns the CPU time the process has used (user and
// system), or 0 where it cannot be read.
func ProcessCPU() time.Duration { return rusage(syscall.RUSAGE_SELF) }

func rusage(who int) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(who, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// ReportCPU, deferred at the start of a benchmark's timed loop, reports
// the process CPU time per operation (cpu-ms): on a loaded machine the
// wall time includes the time other processes held the cores.
func ReportCPU(b *testing.B) func() {
	t0 := ProcessCPU()
	return func() {
		b.ReportMetric((ProcessCPU()-t0).Seconds()*1e3/float64(b.N), "cpu-ms")
	}
}

// ThreadCPU, deferred at the start of a benchmark run with GOMAXPROCS 1,
// reports the CPU time of the calling thread per operation (cpu-ms): on a
// loaded machine it leaves out the time other processes held the core.
func ThreadCPU(b *testing.B) func() {
	runtime.LockOSThread()
	const rusageThread = 1 // RUSAGE_THREAD (Linux)
	t0 := rusage(rusageThread)
	return func() {
		d := rusage(rusageThread) - t0
		runtime.UnlockOSThread()
		b.ReportMetric(d.Seconds()*1e3/float64(b.N), "cpu-ms")
	}
}
