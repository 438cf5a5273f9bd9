package run

import (
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
	if err == nil || !strings.Contains(err.Error(), "a 4096×4096 run needs about 6.5 GB") || !strings.Contains(err.Error(), "1 GB is available: --size 1563 fits") {
		t.Fatalf("got %v; want the size refused and one that fits", err)
	}
	// The size it names fits, and one cell more does not.
	if EstimateBytes(1563, 1563, 1) > 1<<30 || EstimateBytes(1564, 1564, 1) <= 1<<30 {
		t.Error("the size named is not the largest that fits")
	}
	AvailableMemory = func() int64 { return 64 << 30 }
	if _, err := Prepare(Options{Scene: "cone", Size: 64, Steps: 1}); err != nil {
		t.Errorf("a 64² run with 64 GB: %v", err)
	}
}
