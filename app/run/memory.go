package run

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"os"
	"runtime/debug"
	"strconv"
	"strings"

	"orogen/app/engines"
)

// AvailableMemory returns the memory the process may still use, bytes:
// the kernel's MemAvailable, or less under a cgroup (container) limit;
// 0 when it cannot tell (not Linux). Tests replace it.
var AvailableMemory = func() int64 {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	var avail int64
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if f := strings.Fields(sc.Text()); len(f) >= 2 && f[0] == "MemAvailable:" {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			avail = kb << 10
		}
	}
	if lim, cur := cgroupBytes("memory.max"), cgroupBytes("memory.current"); lim > 0 && lim-cur < avail {
		avail = max(lim-cur, 0)
	}
	return avail
}

// cgroupBytes reads a cgroup v2 memory file of the process's cgroup
// ("max" and errors: 0).
func cgroupBytes(name string) int64 {
	b, err := os.ReadFile("/sys/fs/cgroup/" + name)
	if err != nil {
		return 0
	}
	v, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
	if err != nil {
		return 0
	}
	return v
}

// GCPercent is the collector's target of heap growth over the live heap
// that runs and builds set (unless GOGC does): Go's default, 100, lets
// the heap reach twice the live fields before collecting, and a run's
// heap is almost all pointer-free float32 and int32 fields, which the
// collector does not scan, so collecting four times as often costs no
// measurable time (docs/MEMORY.md) and saves up to a third of the peak.
const GCPercent = 25

// CheckMemory refuses, before anything is allocated, a run or a build of
// the engine s describes (its kind, grid, parameters and node count;
// outputs amplified by amp) that cannot fit in the memory available,
// naming the size that would; otherwise it sets the Go memory limit to the
// estimate (engines.EstimateBytes; unless GOMEMLIMIT sets it), so the
// collector works harder near it instead of letting the heap grow past
// it, and the collector's target to GCPercent (unless GOGC sets it). what
// names the job ("run", "build") and fits, a format with one %d, how to
// ask for the largest side that fits ("--size %d").
func CheckMemory(s engines.Spec, amp int, what, fits string) error {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(GCPercent)
	}
	avail := AvailableMemory()
	if avail <= 0 {
		return nil
	}
	need := engines.EstimateBytes(s, amp)
	if need > avail {
		// The largest longer side that fits, the shape and factor kept.
		w, h := s.W, s.H
		long := max(w, h)
		lo, hi := 0, long
		for lo < hi {
			mid := (lo + hi + 1) / 2
			m := s
			m.W, m.H = max(1, w*mid/long), max(1, h*mid/long)
			if engines.EstimateBytes(m, amp) <= avail {
				lo = mid
			} else {
				hi = mid - 1
			}
		}
		hint := "no grid fits"
		if lo >= 3 {
			hint = fmt.Sprintf(fits, lo) + " fits"
		}
		return fmt.Errorf("a %d×%d %s%s needs about %s (%d bytes a cell, docs/MEMORY.md) and %s is available: %s",
			w, h, what, ampNote(amp), gb(need), engines.BytesPerCell(s), gb(avail), hint)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(MemoryLimit(need, avail))
	}
	return nil
}

// MemoryLimit is the Go memory limit a job whose estimate is need bytes
// runs under, with avail bytes available: the estimate, which holds the
// live peak and a quarter (a run it underestimates makes the collector
// work harder rather than fail), at most avail.
func MemoryLimit(need, avail int64) int64 { return min(need, avail) }

func ampNote(amp int) string {
	if amp <= 1 {
		return ""
	}
	return fmt.Sprintf(" amplified ×%d", amp)
}

func gb(b int64) string {
	return strconv.FormatFloat(math.Round(float64(b)/(1<<30)*10)/10, 'f', -1, 64) + " GB"
}

// PeakRSS returns the process's peak resident memory so far, bytes: the
// kernel's high-water mark of this program's own memory (VmHWM in
// /proc/self/status), or 0 where /proc does not tell (Windows). Unlike
// getrusage's ru_maxrss, which Linux carries over from the parent at exec
// (a test process's peak becomes its child's), it counts only this
// program's pages.
func PeakRSS() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if f := strings.Fields(l); len(f) >= 3 && f[0] == "VmHWM:" && f[2] == "kB" {
			kb, err := strconv.ParseInt(f[1], 10, 64)
			if err != nil {
				return 0
			}
			return kb << 10
		}
	}
	return 0
}

// shareFields lets go of the job's own copies of what the engine now
// keeps (docs/MEMORY.md): the initial heights, which the driver drops too,
// and the scene's uplift raster, which becomes the engine's copy (the grid
// engine replaces its uplift, never writes it): 4 bytes a cell each.
func (j *Job) shareFields() {
	j.spec.Init = nil
	if u, ok := j.Engine.(interface{ Uplift() []float32 }); ok && j.spec.Up != nil {
		j.spec.Up = u.Uplift()
	}
}
