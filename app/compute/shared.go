package compute

import (
	"fmt"
	"sync"

	"orogen/gpu"
)

// shared is the process's GPU for its engines (the grid engine on the
// GPU, app/engines, for its whole life; the hydraulic passes, NewHydro):
// opened once, on first use, and never closed; its thread idles between
// steps.
var shared struct {
	sync.Mutex
	tried bool
	dev   gpu.Device
	err   error
}

// Shared returns the GPU d asks for, opened once per process and kept, or
// nil and the one line that says why the engine runs on the CPU ("" for
// d == CPU). Auto does not take a software rasterizer.
func Shared(d Device) (gpu.Device, string) {
	if d == CPU {
		return nil, ""
	}
	shared.Lock()
	defer shared.Unlock()
	if !shared.tried {
		shared.tried = true
		shared.dev, shared.err = gpu.Open(gpu.Options{AllowSoftware: true})
	}
	if shared.err != nil {
		return nil, fmt.Sprintf("--device %s: %v: running on the CPU", d, shared.err)
	}
	if d == Auto && shared.dev.Info().Software {
		return nil, fmt.Sprintf("--device auto: %v (%s), slower than the CPU: running on the CPU (--device gpu takes it)",
			gpu.ErrSoftware, shared.dev.Info().Renderer)
	}
	return shared.dev, ""
}
