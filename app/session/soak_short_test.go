//go:build !soak

package session

// The soak's length in CI: a few hundred steps on a small grid. The full
// soak (make soak) builds with the soak tag.
const (
	soakFull  = false
	soakSide  = 64
	soakUndo  = 128 << 10 // bytes of undo history
	soakSteps = 600
)
