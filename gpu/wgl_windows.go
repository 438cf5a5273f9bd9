package gpu

import "fmt"

// newPlatform on Windows: see wgl.go when written.
func newPlatform() (platform, error) {
	return nil, fmt.Errorf("WGL contexts are not implemented yet")
}
