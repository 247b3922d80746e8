#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Host unit test of prepare-tree.sh on a made-up source tarball: the series
# is applied once, changed series are reverted and reapplied, a patch that
# does not apply is refused with a message, new files are linked in and
# may not shadow upstream files.

prep=$(cd "$(dirname "$0")/.." && pwd)/prepare-tree.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
check() {
	n=$((n + 1))
	if eval "$2"; then echo "ok $n - $1"; else echo "not ok $n - $1"; fi
}

mkdir -p "$tmp/src/linux-source-6.12/lib" "$tmp/top/patches" "$tmp/top/lib"
printf 'kernelversion:\n\t@echo 6.12.0\n' > "$tmp/src/linux-source-6.12/Makefile"
printf 'one\ntwo\nthree\n' > "$tmp/src/linux-source-6.12/lib/up.c"
tar -C "$tmp/src" -cJf "$tmp/src.tar.xz" linux-source-6.12
export LINUX_SOURCE_TAR=$tmp/src.tar.xz
k=$tmp/build/linux-source-6.12

# mkpatch NAME OLD NEW: a patch turning line 2 of lib/up.c from OLD to NEW
mkpatch() {
	printf '%s\n' "--- a/lib/up.c" "+++ b/lib/up.c" "@@ -1,3 +1,3 @@" \
		" one" "-$2" "+$3" " three" > "$tmp/top/patches/$1"
}
mkpatch 0001-two.patch two TWO
mkpatch 0002-bad.patch deux DEUX
echo 0001-two.patch > "$tmp/top/patches/series"
echo new > "$tmp/top/lib/new.c"
run() { "$prep" "$tmp/top" "$tmp/build" > "$tmp/out" 2>&1; }

echo "TAP version 13"
echo "1..8"
run; rc=$?
check "a good series applies" '[ $rc -eq 0 ] && grep -q TWO "$k/lib/up.c"'
check "the source version is recorded" \
	'grep -q "^kernelversion: 6.12.0$" "$tmp/build/source-version"'
check "new files are linked at their kernel paths" \
	'[ "$(readlink "$k/lib/new.c")" = "$tmp/top/lib/new.c" ]'
run
check "a second run changes nothing" \
	'! grep -q PATCH "$tmp/out" && grep -c TWO "$k/lib/up.c" | grep -qx 1'

printf '0001-two.patch\n0002-bad.patch\n' > "$tmp/top/patches/series"
run; rc=$?
check "a patch that does not apply is refused" \
	'[ $rc -ne 0 ] && grep -q "0002-bad.patch does not apply to" "$tmp/out"'
check "a refused series leaves the tree pristine" 'grep -qx two "$k/lib/up.c"'

echo 0001-two.patch > "$tmp/top/patches/series"
echo shadow > "$tmp/top/lib/up.c"
run; rc=$?
check "a new file may not shadow an upstream one" \
	'[ $rc -ne 0 ] && grep -q "lib/up.c exists upstream" "$tmp/out"'
rm "$tmp/top/lib/up.c" "$tmp/top/lib/new.c"
run
check "a removed new file is unlinked" \
	'[ ! -e "$k/lib/new.c" ] && [ ! -L "$k/lib/new.c" ]'
