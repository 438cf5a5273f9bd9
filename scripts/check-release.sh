#!/usr/bin/env bash
# check-release.sh DIST VERSION: checks the archives scripts/release.sh
# wrote: each holds exactly its two binaries, the README (CRLF in the
# Windows one), and under LICENSES/ Go's licence and a licence file for
# every module linked into the binaries of its system (`go list -deps`);
# the Windows binaries import only DLLs every Windows has (no MinGW
# runtime DLL); and all four binaries print VERSION for --version (the
# Windows ones under Wine; the apps need a display: Xvfb).
set -euo pipefail
cd "$(dirname "$0")/.."
dist=$1
version=$2
GO=${GO:-go}
work=$(mktemp -d)
trap 'WINEPREFIX=$work/prefix wineserver -k 2>/dev/null || true; rm -rf "$work"' EXIT
fail() {
	echo "check-release: $*" >&2
	exit 1
}
xrun() { if [ -n "${DISPLAY:-}" ]; then "$@"; else xvfb-run -a "$@"; fi; }

for sys in linux windows; do
	top=orogen-$version-$sys-amd64
	exe=
	if [ $sys = linux ]; then
		a=$dist/$top.tar.gz
		[ -f "$a" ] || fail "$a is missing"
		tar -tzf "$a" | sed 's#/$##' | LC_ALL=C sort >"$work/$sys.list"
		tar -C "$work" -xzf "$a"
	else
		exe=.exe
		a=$dist/$top.zip
		[ -f "$a" ] || fail "$a is missing"
		unzip -Z1 "$a" | sed 's#/$##' | LC_ALL=C sort >"$work/$sys.list"
		unzip -q -d "$work" "$a"
	fi
	# Exactly these at the top; no stray files.
	got=$(grep -v "^$top/LICENSES/" "$work/$sys.list" | tr '\n' ' ')
	want=$(printf '%s\n' "$top" "$top/LICENSES" "$top/README.md" "$top/orogen$exe" "$top/orogen-app$exe" | LC_ALL=C sort | tr '\n' ' ')
	[ "$got" = "$want" ] || fail "$a holds [$got], want [$want]"
	cmp -s <(tr -d '\r' <"$work/$top/README.md") README.md || fail "$a: README.md differs from the repository's"
	if [ $sys = windows ]; then
		[ "$(grep -c $'\r$' "$work/$top/README.md")" = "$(wc -l <README.md)" ] || fail "$a: README.md lacks CRLF line ends"
	fi
	[ -s "$work/$top/LICENSES/go-LICENSE" ] || fail "$a: LICENSES/go-LICENSE is missing"
	n=0
	while read -r mod; do
		d=$work/$top/LICENSES/${mod//\//_}
		[ -n "$(find "$d" -type f 2>/dev/null)" ] || fail "$a: no licence for $mod (want one under LICENSES/${mod//\//_})"
		n=$((n + 1))
	done < <(GOOS=$sys CGO_ENABLED=1 $GO list -deps -f '{{with .Module}}{{if not .Main}}{{.Path}}@{{.Version}}{{end}}{{end}}' . ./cmd/orogen-app | sort -u)
	[ "$n" -ge 10 ] || fail "only $n modules found by go list -deps: the check itself is broken"
	for f in cwrappers/imgui/LICENSE.txt cwrappers/implot/LICENSE; do
		[ -s "$work/$top/LICENSES/github.com_AllenDang_cimgui-go@v1.4.0/$f" ] || fail "$a: the licence of $f (compiled into cimgui-go) is missing"
	done
	echo "check-release: $(basename "$a"): $(wc -l <"$work/$sys.list") entries, licences of $n modules, $(du -k "$a" | cut -f1) KiB" >&2
done

# The Windows binaries load only DLLs of Windows itself.
win=$work/orogen-$version-windows-amd64
for b in orogen.exe orogen-app.exe; do
	dlls=$(x86_64-w64-mingw32-objdump -p "$win/$b" | sed -n 's/^\s*DLL Name: //p' | sort -u | tr '\n' ' ')
	for dll in $dlls; do
		case ${dll,,} in
		kernel32.dll | user32.dll | shell32.dll | msvcrt.dll | gdi32.dll | opengl32.dll | advapi32.dll | ws2_32.dll | winmm.dll | ole32.dll | imm32.dll) ;;
		*) fail "$b needs $dll, which Windows does not have (link it statically)" ;;
		esac
	done
done

# --version, natively and under Wine.
lin=$work/orogen-$version-linux-amd64
check() {
	local want=$1 got
	shift
	got=$("$@" 2>"$work/err") || fail "$*: $(cat "$work/err")"
	[ "$got" = "$want" ] || fail "$*: printed '$got', want '$want'"
}
check "orogen $version" "$lin/orogen" --version
check "orogen-app $version" xrun "$lin/orogen-app" --version
bash scripts/wine/prefix.sh "$work/prefix"
export WINEPREFIX=$work/prefix WINEDEBUG=-all
check "orogen $version" wine "$win/orogen.exe" --version
# Wine's server outlives its programs by a few seconds, with its desktop
# on the display it started on; the app must not meet one without X.
wineserver -w
check "orogen-app $version" xrun wine "$win/orogen-app.exe" --version
echo "check-release: both archives hold what they should; all four binaries print $version" >&2
