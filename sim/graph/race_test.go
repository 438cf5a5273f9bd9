//go:build race

package graph

// raceDetector: the tests run under -race, 5 to 10 times slower.
const raceDetector = true
