//go:build !linux && !windows

package gpu

import (
	"fmt"
	"runtime"
)

func open() (Device, error) {
	return nil, fmt.Errorf("%s has no OpenGL 4.3 compute here", runtime.GOOS)
}
