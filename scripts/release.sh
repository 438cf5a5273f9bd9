#!/usr/bin/env bash
# Builds the release archives into dist/ (or $DIST):
#   orogen-VERSION-linux-amd64.tar.gz   orogen, orogen-app, README.md, LICENSES/
#   orogen-VERSION-windows-amd64.zip    orogen.exe, orogen-app.exe, README.md, LICENSES/
# VERSION is `git describe --tags --always --dirty` (or $VERSION), linked
# into both binaries (orogen/app/version.Version), which print it for
# --version. The Windows CLI is pure Go (CGO_ENABLED=0); the Windows app
# links cimgui-go's prebuilt Windows library through MinGW-w64
# (gcc-mingw-w64-x86-64, g++-mingw-w64-x86-64). LICENSES/ holds the licence
# files of every module linked into either binary, found with `go list
# -deps` in the module cache, and Go's own.
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
DIST=${DIST:-dist}
VERSION=${VERSION:-$(git describe --tags --always --dirty 2>/dev/null || echo dev)}
MINGW_CC=${MINGW_CC:-x86_64-w64-mingw32-gcc}
MINGW_CXX=${MINGW_CXX:-x86_64-w64-mingw32-g++}
# -buildvcs=false: the version comes from -X, and a tarball of the source
# has no .git. No -trimpath: it would compile cimgui-go's C++ again (about
# 6 minutes per system on 2 cores) instead of reusing the test builds' cache.
ld="-s -w -X orogen/app/version.Version=$VERSION"
flags=(-buildvcs=false -ldflags "$ld")

mkdir -p "$DIST"
DIST=$(cd "$DIST" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# licences GOOS CGO DEST: the licence files of the modules linked into
# both binaries for GOOS, one directory per module (path@version).
licences() {
	local goos=$1 cgo=$2 dest=$3 path dir d n
	mkdir -p "$dest"
	cp "$($GO env GOROOT)/LICENSE" "$dest/go-LICENSE"
	while read -r path dir; do
		d="$dest/${path//\//_}"
		mkdir -p "$d"
		n=0
		# The module's own licence files, and for cimgui-go those of the
		# C/C++ libraries compiled into its cimgui library (Dear ImGui,
		# ImPlot, ...).
		while IFS= read -r f; do
			mkdir -p "$d/$(dirname "${f#"$dir"/}")"
			cp "$f" "$d/${f#"$dir"/}"
			n=$((n + 1))
		done < <({ find "$dir" -maxdepth 1 -type f; \
			[[ $path == github.com/AllenDang/cimgui-go@* ]] && find "$dir/cwrappers" "$dir/backend" -mindepth 2 -maxdepth 2 -type f; } |
			grep -iE '/(LICEN[CS]E|COPYING|NOTICE|PATENTS)[^/]*$' | sort)
		if [ "$n" = 0 ]; then
			echo "release: no licence file in $dir ($path)" >&2
			exit 1
		fi
	done < <(GOOS=$goos CGO_ENABLED=$cgo $GO list -deps \
		-f '{{with .Module}}{{if not .Main}}{{.Path}}@{{.Version}} {{.Dir}}{{end}}{{end}}' . ./cmd/orogen-app | sort -u)
}

# Linux: the CLI needs no cgo; the app does (cimgui-go, Ebiten's GLFW).
name=orogen-$VERSION-linux-amd64
d=$work/$name
mkdir -p "$d"
echo "release: $name" >&2
GOOS=linux GOARCH=amd64 CGO_ENABLED=0 $GO build "${flags[@]}" -o "$d/orogen" .
GOOS=linux GOARCH=amd64 CGO_ENABLED=1 $GO build "${flags[@]}" -o "$d/orogen-app" ./cmd/orogen-app
cp README.md "$d/"
licences linux 1 "$d/LICENSES"
rm -f "$DIST/$name.tar.gz"
tar -C "$work" --owner=0 --group=0 --sort=name -czf "$DIST/$name.tar.gz" "$name"

# Windows: the same, cross-compiled; README with CRLF line ends so that
# Notepad shows it right.
name=orogen-$VERSION-windows-amd64
d=$work/$name
mkdir -p "$d"
echo "release: $name" >&2
GOOS=windows GOARCH=amd64 CGO_ENABLED=0 $GO build "${flags[@]}" -o "$d/orogen.exe" .
# -static: libstdc++ and libgcc go into the .exe (MinGW links them as
# DLLs otherwise, which a Windows machine does not have).
GOOS=windows GOARCH=amd64 CGO_ENABLED=1 CC=$MINGW_CC CXX=$MINGW_CXX \
	$GO build -buildvcs=false -ldflags "$ld -extldflags=-static" -o "$d/orogen-app.exe" ./cmd/orogen-app
sed 's/$/\r/' README.md >"$d/README.md"
licences windows 1 "$d/LICENSES"
# -static put MinGW-w64's C runtime start-up code and GCC's runtime
# (libgcc, libstdc++: GCC Runtime Library Exception) into orogen-app.exe.
for pkg in mingw-w64-x86-64-dev gcc-mingw-w64-base; do
	f=/usr/share/doc/$pkg/copyright
	[ -f "$f" ] || { echo "release: $f is missing (apt-get install $pkg)" >&2; exit 1; }
	mkdir -p "$d/LICENSES/$pkg"
	cp "$f" "$d/LICENSES/$pkg/copyright"
done
rm -f "$DIST/$name.zip"
(cd "$work" && zip -qrX "$DIST/$name.zip" "$name")

ls -l "$DIST/orogen-$VERSION-"* >&2
