#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Host test of the Kconfig of the prepared tree (build/linux-source-6.12):
# the tramp kernel's fragments give CONFIG_ALLOC_TRAMPOLINES, and
# CONFIG_MEM_ALLOC_PROFILING_DEBUG, which would warn on the first free of
# an untagged object, cannot be had with it; without the trampolines,
# upstream's profiling still takes it.  Kconfig only: a few seconds.

top=$(cd "$(dirname "$0")/../../.." && pwd)
ksrc=$top/build/linux-source-6.12
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$top/selftests/lib/tap.inc"
kmake() { make -s -C "$ksrc" O="$tmp/$1" HOSTCC="ccache gcc" "${@:2}" > "$tmp/$1.log" 2>&1; }
has() { grep -qx "$2" "$tmp/$1/.config"; }

echo "TAP version 13"
echo "1..3"
# config NAME FRAGMENTS...: the fragments, then MEM_ALLOC_PROFILING_DEBUG=y
config() {
	local d=$1

	shift
	mkdir -p "$tmp/$d"
	kmake "$d" tinyconfig "$@" &&
		"$ksrc/scripts/config" --file "$tmp/$d/.config" -e MEM_ALLOC_PROFILING_DEBUG &&
		kmake "$d" olddefconfig
}
config tramp alloc_tramp_guest.config alloc_tramp.config
has tramp CONFIG_ALLOC_TRAMPOLINES=y
ok $? "the tramp fragments give CONFIG_ALLOC_TRAMPOLINES"
has tramp CONFIG_MEM_ALLOC_PROFILING=y &&
	! grep -q "^CONFIG_MEM_ALLOC_PROFILING_DEBUG=y" "$tmp/tramp/.config"
ok $? "CONFIG_MEM_ALLOC_PROFILING_DEBUG is refused with it"
config prof alloc_tramp_guest.config alloc_tramp_prof.config
has prof CONFIG_MEM_ALLOC_PROFILING_DEBUG=y && ! grep -q "^CONFIG_ALLOC_TRAMPOLINES=y" "$tmp/prof/.config"
ok $? "upstream's profiling without trampolines still takes it"
