//go:build !windows

package osfs

import "testing"

// setHidden: Unix has no hidden attribute; only dot names are hidden.
func setHidden(*testing.T, string) {}
