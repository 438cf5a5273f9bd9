//go:build unix

package ui

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time the process has used, all its threads
// (llvmpipe's among them) together: TestShaderTiming's figure that the
// machine's load does not inflate as it does the wall time.
func cpuTime() time.Duration {
	var r syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &r) != nil {
		return 0
	}
	return time.Duration(r.Utime.Nano() + r.Stime.Nano())
}
