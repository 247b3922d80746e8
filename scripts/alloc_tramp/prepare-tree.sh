#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Prepare the kernel source tree under build/: unpack Debian's
# linux-source-6.12 once, bring it to the state described by
# patches/series (reverting a previously applied series if it changed) and
# symlink our new files into it at their kernel paths.
#
# Usage: prepare-tree.sh TOP BUILD

set -eu

top=$1
build=$2
tarball=${LINUX_SOURCE_TAR:-/usr/src/linux-source-6.12.tar.xz}
ksrc=$build/linux-source-6.12
applied=$ksrc/.alloc_tramp/applied
links=$ksrc/.alloc_tramp/links

die() { echo "prepare-tree: $*" >&2; exit 1; }

# 1. Unpack once.
if [ ! -f "$ksrc/.alloc_tramp/unpacked" ]; then
	[ -f "$tarball" ] || die "$tarball missing: run 'make deps'"
	echo "  UNPACK  $tarball"
	rm -rf "$ksrc" "$build/.unpack"
	mkdir -p "$build/.unpack"
	tar -C "$build/.unpack" -xf "$tarball"
	mv "$build/.unpack/linux-source-6.12" "$ksrc"
	rmdir "$build/.unpack"
	mkdir -p "$applied"
	{
		echo "tarball: $tarball"
		echo "package: $(dpkg-query -W -f='${Package} ${Version}' \
			linux-source-6.12 2>/dev/null || echo unknown)"
		echo "kernelversion: $(make -s -C "$ksrc" kernelversion)"
	} > "$ksrc/.alloc_tramp/source-version"
	touch "$ksrc/.alloc_tramp/unpacked"
fi
cp "$ksrc/.alloc_tramp/source-version" "$build/source-version"
version=$(sed -n 's/^package: //p' "$build/source-version")

# 2. Patch series.
series() { [ -f "$1/series" ] && grep -v -e '^#' -e '^[[:space:]]*$' "$1/series"; true; }

# Undo the applied series, newest first.
revert_applied() {
	local p

	for p in $(series "$applied" | tac); do
		echo "  REVERT  $p"
		patch -s -d "$ksrc" -p1 -R -E < "$applied/$p" ||
			die "cannot revert $p; remove $ksrc and rerun"
	done
	rm -rf "$applied"
	mkdir -p "$applied"
}

same=1
[ "$(series "$top/patches")" = "$(series "$applied")" ] || same=0
if [ $same -eq 1 ]; then
	for p in $(series "$top/patches"); do
		cmp -s "$top/patches/$p" "$applied/$p" || { same=0; break; }
	done
fi

if [ $same -eq 0 ]; then
	revert_applied
	for p in $(series "$top/patches"); do
		[ -f "$top/patches/$p" ] || die "patches/series lists missing $p"
		if ! out=$(patch -d "$ksrc" -p1 --dry-run -f -E \
				< "$top/patches/$p" 2>&1); then
			echo "$out" >&2
			revert_applied
			die "patches/$p does not apply to $version; refusing this tree"
		fi
		echo "  PATCH   $p"
		patch -s -d "$ksrc" -p1 -f -E < "$top/patches/$p"
		cp "$top/patches/$p" "$applied/$p"
		echo "$p" >> "$applied/series"
	done
fi

# 3. Our new files, symlinked at their kernel paths.
cd "$top"
dirs=$(ls -d arch include init kernel lib mm tools Documentation scripts 2>/dev/null || true)
new=$(find $dirs -path scripts/alloc_tramp -prune -o -type f -print | sort)
if [ -f "$links" ]; then
	comm -23 "$links" <(echo "$new") | while read -r f; do
		[ -L "$ksrc/$f" ] && rm -f "$ksrc/$f"
	done
fi
for f in $new; do
	dst=$ksrc/$f
	if [ -e "$dst" ] && [ ! -L "$dst" ]; then
		die "$f exists upstream: change it with a patch in patches/"
	fi
	if [ "$(readlink "$dst" 2>/dev/null)" != "$top/$f" ]; then
		mkdir -p "$(dirname "$dst")"
		ln -sfn "$top/$f" "$dst"
	fi
done
echo "$new" > "$links"
