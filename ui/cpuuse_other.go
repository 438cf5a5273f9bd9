//go:build !linux

package ui

import "time"

// cpuUse is not measured here (see cpuuse_linux.go).
func cpuUse() (all, raster time.Duration) { return 0, 0 }
