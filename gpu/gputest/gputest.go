// Package gputest opens the OpenGL 4.3 device the GPU packages' tests run
// on: any device, Mesa's llvmpipe included (CI has no other), once per
// test binary. Tests are skipped where there is none, unless
// OROGEN_GPU_TEST=1 (make unit sets it) says there must be one: then they
// fail, so that a CI machine that lost its GPU path does not pass by
// skipping.
package gputest

import (
	"os"
	"sync"
	"testing"

	"orogen/gpu"
)

var (
	once sync.Once
	dev  gpu.Device
	err  error
)

// Device returns the shared device, or skips (fails, under
// OROGEN_GPU_TEST=1) t when there is none.
func Device(t testing.TB) gpu.Device {
	t.Helper()
	once.Do(func() { dev, err = gpu.Open(gpu.Options{AllowSoftware: true}) })
	if err != nil {
		if os.Getenv("OROGEN_GPU_TEST") == "1" {
			t.Fatalf("OROGEN_GPU_TEST=1 but no OpenGL 4.3 device: %v (scripts/deps.sh installs Mesa's)", err)
		}
		t.Skipf("no OpenGL 4.3 device: %v", err)
	}
	return dev
}
