#!/usr/bin/env bash
# Makes sure a Go toolchain new enough for go.mod is on PATH. Prints the
# directory to prepend to PATH (empty when the go on PATH already works).
# On a fresh Debian 12 or Ubuntu machine with no Go (or an old one), it
# installs Debian's golang-go when run as root, and uses it only to fetch the
# toolchain go.mod asks for from the Go module proxy (golang.org/toolchain).
set -euo pipefail
want=$(awk '/^go /{print $2; exit}' "$(dirname "$0")/../go.mod")
toolchain=go1.26.8
home=${OROGEN_GO_HOME:-$HOME/.cache/orogen/$toolchain}

newer_or_equal() { # $1 >= $2, versions like 1.25.0
	[ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n1)" = "$2" ]
}
have_go() {
	local v
	v=$("$1" env GOVERSION 2>/dev/null) || return 1
	newer_or_equal "${v#go}" "$want"
}

if command -v go >/dev/null 2>&1 && have_go go; then exit 0; fi
if [ -x "$home/bin/go" ] && have_go "$home/bin/go"; then echo "$home/bin"; exit 0; fi

boot=$(command -v go || true)
if [ -z "$boot" ]; then
	if [ "$(id -u)" = 0 ]; then
		echo "ensure-go: installing golang-go to bootstrap $toolchain" >&2
		DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq golang-go ca-certificates >&2
		boot=$(command -v go)
	else
		echo "ensure-go: Go >= $want is missing. Run as root, or: sudo apt-get install -y golang-go ca-certificates" >&2
		exit 1
	fi
fi
echo "ensure-go: fetching $toolchain with $($boot version)" >&2
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
dir=$(cd "$tmp" && GOPATH="$tmp/gopath" GOFLAGS=-modcacherw GO111MODULE=on \
	"$boot" mod download -json "golang.org/toolchain@v0.0.1-$toolchain.linux-amd64" |
	sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
[ -n "$dir" ] && [ -f "$dir/bin/go" ] || { echo "ensure-go: could not download $toolchain" >&2; exit 1; }
mkdir -p "$(dirname "$home")"
rm -rf "$home"
cp -r "$dir" "$home"
chmod -R u+w "$home"
chmod +x "$home"/bin/* "$home"/pkg/tool/*/*
have_go "$home/bin/go" || { echo "ensure-go: $home/bin/go does not run" >&2; exit 1; }
echo "$home/bin"
