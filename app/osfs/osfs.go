// Package osfs holds what a file dialog needs to know about the operating
// system's file systems and differs between them: the roots to offer
// (Roots) and which entries a user does not expect to see (Hidden). The
// Windows side is tested under Wine (package wintest).
package osfs

import (
	"io/fs"
	"strings"
)

// Roots returns the roots of the file systems, in order: "/" on Unix; on
// Windows the drives present, `A:\` to `Z:\`.
func Roots() []string { return roots() }

// Hidden reports whether a file dialog should leave the entry d out: names
// starting with a dot everywhere, and on Windows entries with the hidden
// or system attribute (desktop.ini, $RECYCLE.BIN, pagefile.sys, ...).
func Hidden(d fs.DirEntry) bool {
	return strings.HasPrefix(d.Name(), ".") || hiddenAttr(d)
}
