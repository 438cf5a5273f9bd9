package run

import (
	"os"
	"runtime/debug"
	"strings"
	"testing"

	"orogen/app/engines"
	"orogen/app/scene/scenetest"
	"orogen/sim/grid"
)

// TestMemoryRefused: a run that cannot fit in the memory available is
// refused before it allocates, naming the size that would fit (issue
// 31.4: --size 16384 allocated for 17 s and died of it).
func TestMemoryRefused(t *testing.T) {
	defer func(f func() int64) { AvailableMemory = f }(AvailableMemory)
	AvailableMemory = func() int64 { return 1 << 30 }
	// cone's grid with the classic physics: the soil physics's own fields
	// are the lakes scene's case below.
	cone := scenetest.File(t, "cone")
	_, err := Prepare(Options{Scene: cone, Size: 4096})
	if err == nil || !strings.Contains(err.Error(), "a 4096×4096 run needs about 1.6 GB (100 bytes a cell") || !strings.Contains(err.Error(), "1 GB is available: --size 3172 fits") {
		t.Fatalf("got %v; want the size refused and one that fits", err)
	}
	// The size it names fits, and one cell more does not.
	p, err := scenetest.Classic(t, "cone").EngineParams()
	if err != nil {
		t.Fatal(err)
	}
	at := func(n int) int64 {
		return engines.EstimateBytes(engines.Spec{Kind: grid.Kind, W: n, H: n, Params: p}, 1)
	}
	if at(3172) > 1<<30 || at(3173) <= 1<<30 {
		t.Error("the size named is not the largest that fits")
	}
	// The lakes scene's processes (sediment, k noise, creep, random
	// routing, the water budget) keep fields of their own, and each
	// engine has its own estimate (docs/MEMORY.md).
	for _, c := range []struct {
		o    Options
		want string
	}{
		{Options{Scene: "lakes", Size: 4096}, "a 4096×4096 run needs about 2.5 GB (158 bytes a cell"},
		{Options{Scene: cone, Engine: "graph", Size: 4096}, "a 4096×4096 run needs about 2.8 GB (176 bytes a cell"},
		{Options{Scene: "lakes", Engine: "graph", Size: 4096}, "a 4096×4096 run needs about 4.9 GB (311 bytes a cell"},
		{Options{Scene: cone, Engine: "roudier", Size: 4096}, "a 4096×4096 run needs about 4.1 GB (260 bytes a cell"},
	} {
		if _, err := Prepare(c.o); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s on %s: got %v; want %q", c.o.Scene, c.o.Engine, err, c.want)
		}
	}
	// A run that fits runs under a Go memory limit of its estimate.
	if os.Getenv("GOMEMLIMIT") == "" {
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
		AvailableMemory = func() int64 { return 64 << 30 }
		if _, err := Prepare(Options{Scene: cone, Size: 64, Steps: 1}); err != nil {
			t.Errorf("a 64² run with 64 GB: %v", err)
		}
		if got, want := debug.SetMemoryLimit(-1), engines.EstimateBytes(engines.Spec{Kind: grid.Kind, W: 64, H: 64, Params: p}, 1); got != want {
			t.Errorf("memory limit %d; want the estimate, %d", got, want)
		}
	}
}
