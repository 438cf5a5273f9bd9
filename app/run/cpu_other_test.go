//go:build !unix

package run

import "time"

// processCPU is not measured here.
func processCPU() time.Duration { return 0 }
