package osfs

import (
	"io/fs"
	"syscall"
)

var getLogicalDrives = syscall.NewLazyDLL("kernel32.dll").NewProc("GetLogicalDrives")

// roots reads the bit mask of drives present (bit 0: A:).
func roots() []string {
	mask, _, _ := getLogicalDrives.Call()
	var out []string
	for i := range 26 {
		if mask&(1<<i) != 0 {
			out = append(out, string(rune('A'+i))+`:\`)
		}
	}
	return out
}

func hiddenAttr(d fs.DirEntry) bool {
	fi, err := d.Info()
	if err != nil {
		return false
	}
	a, ok := fi.Sys().(*syscall.Win32FileAttributeData)
	return ok && a.FileAttributes&(syscall.FILE_ATTRIBUTE_HIDDEN|syscall.FILE_ATTRIBUTE_SYSTEM) != 0
}
