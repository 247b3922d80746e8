#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build objtool from the prepared tree and run its allocation trampoline
# tests (tools/objtool/tests/alloc-tramp/run.sh).  Prints TAP.

set -eu

top=$(cd "$(dirname "$0")/../../.." && pwd)
build=${BUILD:-$top/build}
ksrc=$build/linux-source-6.12
out=$build/objtool-host

[ -d "$ksrc/tools/objtool" ] || { echo "not ok 1 - no prepared tree: run make tree"; exit 1; }
mkdir -p "$out/tools/objtool"
make -s -C "$ksrc/tools" O="$out" subdir=tools HOSTPKG_CONFIG=pkg-config \
	objtool > "$out/build.log" 2>&1 ||
	{ cat "$out/build.log"; echo "not ok 1 - build objtool"; exit 1; }
exec "$top/tools/objtool/tests/alloc-tramp/run.sh" "$out/tools/objtool/objtool" \
	"$out/tests"
