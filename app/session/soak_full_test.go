//go:build soak

package session

// The full soak (make soak): 10 000 steps at 512².
const (
	soakFull  = true
	soakSide  = 512
	soakUndo  = 8 << 20 // bytes of undo history
	soakSteps = 10000
)
