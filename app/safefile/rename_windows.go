package safefile

import (
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"
)

// Windows errors of a file another program holds open.
const (
	errSharingViolation syscall.Errno = 32
	errLockViolation    syscall.Errno = 33
)

// rename is os.Rename, which on Windows is MoveFileEx with
// MOVEFILE_REPLACE_EXISTING (internal/syscall/windows.Rename): it replaces
// newpath. It fails while another program holds newpath open without
// FILE_SHARE_DELETE, as most do (an image viewer, a second Orogen) and as
// virus scanners and the search indexer do for a moment after a write. So
// it tries again for about a second, letting the brief holds pass, and
// then says the file is in use.
func rename(oldpath, newpath string) error {
	err := os.Rename(oldpath, newpath)
	for wait := 10 * time.Millisecond; err != nil && inUse(err) && wait <= 640*time.Millisecond; wait *= 2 {
		time.Sleep(wait)
		err = os.Rename(oldpath, newpath)
	}
	if err != nil && inUse(err) {
		return fmt.Errorf("the file is open in another program (%v): close it there and save again", Cause(err))
	}
	return err
}

func inUse(err error) bool {
	return errors.Is(err, syscall.ERROR_ACCESS_DENIED) || errors.Is(err, errSharingViolation) || errors.Is(err, errLockViolation)
}
