//go:build !linux

package hillslope

import "testing"

// reportCPU reports nothing here (Linux only).
func reportCPU(*testing.B) func() { return func() {} }
