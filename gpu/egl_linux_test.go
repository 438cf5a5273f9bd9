package gpu

import (
	"errors"
	"strings"
	"testing"
)

// TestNoLibEGL: on a machine without libEGL, Open fails with one line
// that wraps ErrUnavailable and names the remedy; nothing crashes.
func TestNoLibEGL(t *testing.T) {
	saved := eglNames
	eglNames = []string{"libEGL-not-here.so.9"}
	defer func() { eglNames = saved }()
	_, err := Open(Options{AllowSoftware: true})
	if !errors.Is(err, ErrUnavailable) || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "libEGL") {
		t.Fatalf("Open without libEGL: %v; want one line wrapping ErrUnavailable that names libEGL", err)
	}
	t.Log(err)
}
