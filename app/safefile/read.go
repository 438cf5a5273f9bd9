package safefile

import (
	"errors"
	"io/fs"
	"os"
)

// ErrNotRegular is the error ReadFile returns for a path that is not a
// regular file: a FIFO (reading it waits for a writer forever), a device
// such as /dev/zero (endless), a folder or a socket.
var ErrNotRegular = errors.New("not a regular file (a pipe, a device or a folder): give a file")

// ReadFile is os.ReadFile for inputs: it refuses, before opening it, a
// path that is not a regular file (after symbolic links), with a
// *fs.PathError wrapping ErrNotRegular; other errors are os.ReadFile's.
func ReadFile(path string) ([]byte, error) {
	if err := CheckRegular(path); err != nil {
		return nil, err
	}
	return os.ReadFile(path)
}

// CheckRegular returns nil if path is a regular file (after symbolic
// links), os.Stat's error if it cannot be read, and a *fs.PathError
// wrapping ErrNotRegular otherwise.
func CheckRegular(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return &fs.PathError{Op: "read", Path: path, Err: ErrNotRegular}
	}
	return nil
}
