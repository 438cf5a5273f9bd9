#!/usr/bin/env bash
# prefix.sh DIR: makes DIR a Wine prefix that runs Go programs (64-bit).
# The first start of Wine in a new prefix sets it up (30–60 s); then
# bcryptprimitives.dll (see bcryptprimitives.c) goes into its system32
# unless Wine has its own. Needs wine (wine64) and x86_64-w64-mingw32-gcc.
set -euo pipefail
dir=$1
here=$(cd "$(dirname "$0")" && pwd)
export WINEPREFIX=$dir WINEDEBUG=-all
mkdir -p "$dir"
# wineboot -i initializes the prefix and returns when it is done; the
# 32-bit half fails without wine32 (harmless: only 64-bit programs run).
# No display and no mscoree/mshtml: Wine then asks nothing (it would offer
# to download Wine Mono and Gecko in a dialog). wineserver -w waits until
# this prefix's server has gone, so the next program starts one on its own
# display.
env -u DISPLAY WINEDLLOVERRIDES="mscoree=;mshtml=" wine wineboot -i >/dev/null 2>&1 || true
wineserver -w 2>/dev/null || true
sys32=$dir/drive_c/windows/system32
if [ ! -d "$sys32" ]; then
	echo "prefix.sh: wine did not create $sys32" >&2
	exit 1
fi
if [ ! -e "$sys32/bcryptprimitives.dll" ]; then
	x86_64-w64-mingw32-gcc -O2 -shared -o "$sys32/bcryptprimitives.dll" \
		"$here/bcryptprimitives.c" "$here/bcryptprimitives.def" -ladvapi32
fi
