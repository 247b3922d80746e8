#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Configure and build one kernel variant out of tree, with ccache.
#
# Usage: build-kernel.sh BUILD VARIANT
#   guest  our kernel (the development and test kernel)
#   prof   upstream CONFIG_MEM_ALLOC_PROFILING, the yardstick
#   tramp  CONFIG_ALLOC_TRAMPOLINES, ours
#   debug  tramp with lockdep, KASAN, our checks and fault injection
#   defconfig  x86_64_defconfig with the trampolines, DWARF and real
#          modules (make check-defconfig), installed under modroot/
#   defconfig-base, defconfig-prof  the same without profiling (its
#          vmlinux only) and with upstream's, for make bench's rows on
#          x86_64_defconfig
#
# The .config is made again only when a fragment changed, so that editing
# one source file rebuilds only what depends on it.

set -eu

build=$1
variant=$2
ksrc=$build/linux-source-6.12
obj=$build/obj/$variant
jobs=${JOBS:-$(($(nproc) + 1))}

base=tinyconfig
case $variant in
defconfig)	base=x86_64_defconfig
	frags="alloc_tramp.config alloc_tramp_defconfig.config" ;;
defconfig-base) base=x86_64_defconfig
	frags="alloc_tramp_defconfig.config" ;;
defconfig-prof) base=x86_64_defconfig
	frags="alloc_tramp_defconfig.config alloc_tramp_prof.config" ;;
guest)	frags="alloc_tramp_guest.config" ;;
prof)	frags="alloc_tramp_guest.config alloc_tramp_prof.config" ;;
tramp)	frags="alloc_tramp_guest.config alloc_tramp.config" ;;
debug)	frags="alloc_tramp_guest.config alloc_tramp.config alloc_tramp_debug.config" ;;
*)	echo "build-kernel: unknown variant '$variant'" >&2; exit 1 ;;
esac

# No CCACHE_BASEDIR: it rewrites the source path but not
# -fmacro-prefix-map, and __FILE__ (codetag file names) would keep it.
export CCACHE_NOHASHDIR=true
kmake() { make -s -C "$ksrc" O="$obj" CC="ccache gcc" HOSTCC="ccache gcc" "$@"; }

mkdir -p "$obj"
stamp=$obj/.alloc_tramp_fragments
want="$frags $(cd "$ksrc/arch/x86/configs" && cat $frags | md5sum)"
if [ ! -f "$obj/.config" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
	echo "  CONFIG  $variant: $base $frags"
	kmake $base $frags >/dev/null
	# Every line of every fragment must have survived Kconfig.
	lost=$( (cd "$ksrc/arch/x86/configs" && cat $frags) | grep '^CONFIG_' | sort -u |
		while read -r line; do
			grep -qxF "$line" "$obj/.config" || echo "$line"
		done)
	if [ -n "$lost" ]; then
		echo "build-kernel: $variant: Kconfig did not keep these lines of $frags:" >&2
		echo "$lost" | sed 's/^/  /' >&2
		rm -f "$obj/.config"
		exit 1
	fi
	echo "$want" > "$stamp"
fi

# A new Kconfig symbol gets its default instead of a prompt.
kmake olddefconfig >/dev/null

echo "  BUILD   $variant (-j$jobs)"
# The measure of bytes reads only the baseline's vmlinux.o
if [ "$variant" = defconfig-base ]; then
	kmake -j"$jobs" vmlinux
	exit
fi
kmake -j"$jobs"
echo "  KERNEL  $obj/arch/x86/boot/bzImage"
if [ "$variant" = defconfig ]; then
	rm -rf "$obj/modroot"
	kmake INSTALL_MOD_PATH="$obj/modroot" INSTALL_MOD_STRIP=1 modules_install
	echo "  MODULES $(find "$obj/modroot" -name '*.ko' | wc -l) in $obj/modroot"
fi
