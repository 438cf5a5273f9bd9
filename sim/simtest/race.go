//go:build race

package simtest

// Race is true in a binary built with the race detector.
const Race = true
