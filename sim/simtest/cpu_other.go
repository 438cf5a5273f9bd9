//go:build !linux

package simtest

import (
	"testing"
	"time"
)

// ProcessCPU is not measured here (Linux only): 0.
func ProcessCPU() time.Duration { return 0 }

// ReportCPU reports nothing here (Linux only).
func ReportCPU(*testing.B) func() { return func() {} }

// ThreadCPU reports nothing here (Linux only).
func ThreadCPU(*testing.B) func() { return func() {} }
