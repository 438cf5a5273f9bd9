//go:build !linux

package run

import (
	"testing"
	"time"
)

// processCPU is not measured here (Linux only).
func processCPU() time.Duration { return 0 }

// threadCPU reports nothing here.
func threadCPU(*testing.B) func() { return func() {} }
