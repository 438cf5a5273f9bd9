//go:build !windows

package safefile

import "os"

// rename is os.Rename: rename(2) replaces newpath atomically, even while
// another program has it open.
func rename(oldpath, newpath string) error { return os.Rename(oldpath, newpath) }
