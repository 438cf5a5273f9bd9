//go:build !linux

package flow

import "testing"

// reportCPU reports nothing here (Linux only).
func reportCPU(*testing.B) func() { return func() {} }
