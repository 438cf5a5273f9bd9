package run

import (
	"os"
	"runtime/debug"
	"strings"
	"testing"
)

// TestMemoryRefused: a run that cannot fit in the memory available is
// refused before it allocates, naming the size that would fit (issue
// 31.4: --size 16384 allocated for 17 s and died of it).
func TestMemoryRefused(t *testing.T) {
	defer func(f func() int64) { AvailableMemory = f }(AvailableMemory)
	AvailableMemory = func() int64 { return 1 << 30 }
	_, err := Prepare(Options{Scene: "cone", Size: 4096})
	if err == nil || !strings.Contains(err.Error(), "a 4096×4096 run needs about 1.9 GB (120 bytes a cell") || !strings.Contains(err.Error(), "1 GB is available: --size 2896 fits") {
		t.Fatalf("got %v; want the size refused and one that fits", err)
	}
	// The size it names fits, and one cell more does not.
	if EstimateBytes(2896, 2896, 1) > 1<<30 || EstimateBytes(2897, 2897, 1) <= 1<<30 {
		t.Error("the size named is not the largest that fits")
	}
	// The lakes scene's processes (sediment, k noise, creep, random
	// routing, the water budget) keep fields of their own.
	_, err = Prepare(Options{Scene: "lakes", Size: 4096})
	if err == nil || !strings.Contains(err.Error(), "a 4096×4096 run needs about 3.2 GB (200 bytes a cell") {
		t.Fatalf("lakes: got %v; want the size refused at 200 bytes a cell", err)
	}
	// A run that fits runs under a Go memory limit of its estimate.
	if os.Getenv("GOMEMLIMIT") == "" {
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
		AvailableMemory = func() int64 { return 64 << 30 }
		if _, err := Prepare(Options{Scene: "cone", Size: 64, Steps: 1}); err != nil {
			t.Errorf("a 64² run with 64 GB: %v", err)
		}
		if got, want := debug.SetMemoryLimit(-1), EstimateBytes(64, 64, 1); got != want {
			t.Errorf("memory limit %d; want the estimate, %d", got, want)
		}
	}
}
