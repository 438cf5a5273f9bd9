//go:build linux

package run

import (
	"runtime"
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

// threadCPU, deferred at the start of a benchmark run with GOMAXPROCS 1,
// reports the CPU time of the calling thread per operation (cpu-ms): on a
// loaded machine it leaves out the time other processes held the core.
func threadCPU(b *testing.B) func() {
	runtime.LockOSThread()
	t0 := rusageThread()
	return func() {
		d := rusageThread() - t0
		runtime.UnlockOSThread()
		b.ReportMetric(d.Seconds()*1e3/float64(b.N), "cpu-ms")
	}
}

func rusageThread() time.Duration {
	var ru syscall.Rusage
	const rusageThread = 1 // RUSAGE_THREAD (Linux)
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
