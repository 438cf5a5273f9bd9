#!/usr/bin/env bash
# Checks the system packages Orogen needs and installs the missing ones when
# run as root; otherwise prints the exact apt-get line to run.
set -euo pipefail
# git and make build everything; the desktop app links cimgui-go and Ebiten
# through cgo (a C/C++ compiler, X11 and OpenGL headers) and its test opens
# a real window under Xvfb (xvfb-run needs xauth) and sends it X key and
# mouse events with xdotool. gdal-bin (gdalinfo)
# checks the exported files in the tests. The GPU tests (gpu/,
# gpu/hydrogpu, orogen erode --device gpu) run compute shaders on Mesa's
# llvmpipe through headless EGL (libegl1 from libegl-dev, libegl-mesa0,
# libgl1-mesa-dri); orogen opens libEGL at run time. The Windows build:
# MinGW-w64 cross-compiles the app (cgo), Wine runs the Windows binaries in
# the tests (wintest, scripts/check-release.sh); zip packs the release.
pkgs=(git make ca-certificates gcc g++ pkg-config
	libx11-dev libxrandr-dev libxcursor-dev libxinerama-dev libxi-dev libxxf86vm-dev
	libgl1-mesa-dev libgl1-mesa-dri libegl-dev libegl-mesa0 libasound2-dev xvfb xauth gdal-bin
	gcc-mingw-w64-x86-64 g++-mingw-w64-x86-64 binutils-mingw-w64-x86-64 wine wine64 zip unzip xdotool)
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = 0 ]; then
	echo "deps: installing ${missing[*]}" >&2
	DEBIAN_FRONTEND=noninteractive apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
else
	echo "deps: missing packages. Run: sudo apt-get install -y ${missing[*]}" >&2
	exit 1
fi
