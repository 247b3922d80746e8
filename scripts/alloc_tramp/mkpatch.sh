#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Write (or rewrite) one patch of patches/series from the prepared tree:
# the diff of FILEs between the pristine linux-source-6.12 and the tree.
# The tree is then recorded as having the series applied, so that
# prepare-tree.sh leaves it alone.  Each upstream file belongs to one
# patch only, so a patch is always a diff against the pristine file.
#
# Usage: mkpatch.sh TOP BUILD NAME.patch "subsystem: subject" MSGFILE FILE...

set -eu

top=$1
build=$2
name=$3
subject=$4
msgfile=$5
shift 5
tarball=${LINUX_SOURCE_TAR:-/usr/src/linux-source-6.12.tar.xz}
ksrc=$build/linux-source-6.12
applied=$ksrc/.alloc_tramp/applied
series=$top/patches/series

die() { echo "mkpatch: $*" >&2; exit 1; }

[ $# -gt 0 ] || die "no files"
for f in "$@"; do
	for p in $(grep -v -e '^#' -e '^[[:space:]]*$' "$series"); do
		[ "$p" = "$name" ] && continue
		grep -q "^+++ b/$f\$" "$top/patches/$p" &&
			die "$f is already changed by $p"
	done
done

pristine=$build/.pristine
rm -rf "$pristine"
mkdir -p "$pristine"
tar -C "$pristine" -xf "$tarball" "${@/#/linux-source-6.12/}"

out=$top/patches/$name
{
	echo "From: Allocation trampolines <alloc-tramp@users.noreply.example>"
	echo "Subject: [PATCH] $subject"
	echo
	cat "$msgfile"
	echo "---"
	for f in "$@"; do
		echo "diff --git a/$f b/$f"
		a=$(git hash-object "$pristine/linux-source-6.12/$f" | cut -c1-12)
		b=$(git hash-object "$ksrc/$f" | cut -c1-12)
		echo "index $a..$b 100644"
		diff -up --label "a/$f" --label "b/$f" \
			"$pristine/linux-source-6.12/$f" "$ksrc/$f" || true
	done > "$out.diff"
	diffstat -p1 "$out.diff" 2>/dev/null || true
	echo
	cat "$out.diff"
} > "$out"
rm -f "$out.diff"
rm -rf "$pristine"

grep -qx "$name" "$series" || echo "$name" >> "$series"
mkdir -p "$applied"
grep -v -e '^#' -e '^[[:space:]]*$' "$series" > "$applied/series"
for p in $(cat "$applied/series"); do
	cp "$top/patches/$p" "$applied/$p"
done
echo "  MKPATCH $name"
