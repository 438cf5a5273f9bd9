//go:build linux

package ui

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// cpuUse returns the CPU time the process has used, all its threads
// together, and the part of it that Mesa's llvmpipe rasterizer threads
// (named llvmpipe-N) used: the script report's figures for where a
// frame's time goes on a software OpenGL, which the machine's load does
// not inflate as it does the wall time.
func cpuUse() (all, raster time.Duration) {
	var r syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &r) == nil {
		all = time.Duration(r.Utime.Nano() + r.Stime.Nano())
	}
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return all, 0
	}
	tick := time.Second / 100 // USER_HZ: 100 on every Linux Go builds for
	for _, t := range tasks {
		b, err := os.ReadFile("/proc/self/task/" + t.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ... utime stime: fields 14 and 15, counted
		// after the comm's closing parenthesis (a comm may hold spaces).
		s := string(b)
		open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || end < open || !strings.HasPrefix(s[open+1:end], "llvmpipe") {
			continue
		}
		f := strings.Fields(s[end+1:])
		if len(f) < 13 {
			continue
		}
		u, _ := strconv.ParseInt(f[11], 10, 64)
		k, _ := strconv.ParseInt(f[12], 10, 64)
		raster += time.Duration(u+k) * tick
	}
	return all, raster
}
