//go:build linux

package roudier

import (
	"syscall"
	"time"
	"unsafe"
)

// cpuSeconds returns the CPU time (user and system) the process has used,
// s: on a shared machine it varies less with the load than the wall time.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

// threadClock returns the CPU time of the calling thread as a time, for
// timing the phases of a step on one locked thread; nil where there is
// no such clock.
var threadClock = func() time.Time {
	const clockThreadCPUTime = 3 // CLOCK_THREAD_CPUTIME_ID
	var ts syscall.Timespec
	syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0)
	return time.Unix(0, ts.Nano())
}
