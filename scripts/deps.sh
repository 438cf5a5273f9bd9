#!/usr/bin/env bash
# Checks the system packages Orogen needs and installs the missing ones when
# run as root; otherwise prints the exact apt-get line to run.
set -euo pipefail
# Headless engine and CLI: a C compiler is not needed (no cgo yet), git and
# make are. The desktop app (cgo, OpenGL, Xvfb for its test) adds its own.
pkgs=(git make ca-certificates)
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
