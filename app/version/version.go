// Package version holds the version both binaries print for --version.
//
// Release builds set it from `git describe` at link time:
//
//	go build -ldflags "-X orogen/app/version.Version=$(git describe --tags --always --dirty)"
//
// (scripts/release.sh does). A plain `go build` leaves it empty, and
// String falls back to "dev", with the VCS revision Go stamps into the
// binary when it was built inside a git checkout.
package version

import (
	"runtime/debug"
)

// Version is set with -ldflags -X by release builds; "" otherwise.
var Version string

// String returns Version, or "dev" (plus "+REV" and "-dirty" when the
// build info records the git revision) when it was not set.
func String() string {
	if Version != "" {
		return Version
	}
	return fallback(debug.ReadBuildInfo())
}

func fallback(bi *debug.BuildInfo, ok bool) string {
	v := "dev"
	if !ok {
		return v
	}
	var rev string
	var dirty bool
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return v
	}
	if len(rev) > 7 {
		rev = rev[:7]
	}
	v += "+" + rev
	if dirty {
		v += "-dirty"
	}
	return v
}
