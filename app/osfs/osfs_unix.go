//go:build !windows

package osfs

import "io/fs"

func roots() []string { return []string{"/"} }

func hiddenAttr(fs.DirEntry) bool { return false }
