#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make export: the whole work as a git am-able series against Debian's
# linux-source-6.12: each patch of patches/series with the new files that
# patches/export/files gives it, then the patches of new files only.
#
# Usage: export.sh TOP OUTDIR

set -eu

top=$1
out=$2
files=$top/patches/export/files
from="Allocation trampolines <alloc-tramp@users.noreply.example>"

die() { echo "export: $*" >&2; exit 1; }

cd "$top"
series=$(grep -v -e '^#' -e '^[[:space:]]*$' patches/series)
extra=$(grep -v -e '^#' -e '^[[:space:]]*$' "$files" | cut -f1 |
	while read -r p; do echo "$series" | grep -qx "$p" || echo "$p"; done)
all="$series $extra"
total=$(echo $all | wc -w)

# Every new file of the tree goes to one patch.
new=$(find arch include init kernel lib mm tools Documentation scripts \
	-path scripts/alloc_tramp -prune -o -type f -print 2>/dev/null | sort)
files_of() {
	local glob
	for glob in $(awk -F'\t' -v p="$1" '$1 == p { print $2 }' "$files"); do
		for f in $new; do
			# shellcheck disable=SC2053
			[[ $f == $glob ]] && echo "$f"
		done
	done | sort -u
}
mapped=$(for p in $all; do files_of "$p"; done | sort)
[ -z "$(echo "$mapped" | uniq -d)" ] || die "given to two patches: $(echo "$mapped" | uniq -d)"
left=$(comm -23 <(echo "$new") <(echo "$mapped"))
[ -z "$left" ] || die "in no patch of $files: $left"

new_file_diff() {
	local f=$1 mode=100644
	[ -x "$f" ] && mode=100755
	echo "diff --git a/$f b/$f"
	echo "new file mode $mode"
	echo "index 0000000000000..$(git hash-object "$f" | cut -c1-13)"
	diff -u --label /dev/null --label "b/$f" /dev/null "$f" || true
}

rm -rf "$out"
mkdir -p "$out"
i=0
for p in $all; do
	i=$((i + 1))
	dst=$out/$(printf '%04d' $i)-${p#[0-9][0-9][0-9][0-9]-}
	{
		for f in $(files_of "$p"); do new_file_diff "$f"; done
		[ -f "patches/$p" ] && sed -n '/^diff --git /,$p' "patches/$p"
	} > "$dst.diff"
	{
		echo "From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001"
		echo "From: $from"
		if [ -f "patches/$p" ]; then
			subject=$(sed -n 's/^Subject: \[PATCH\] //p' "patches/$p")
			echo "Subject: [PATCH $i/$total] $subject"
			sed -n '/^Subject:/,/^---$/p' "patches/$p" | sed '1d;$d'
		else
			msg=patches/export/$p.msg
			[ -f "$msg" ] || die "no $msg"
			echo "Subject: [PATCH $i/$total] $(head -n 1 "$msg")"
			tail -n +2 "$msg"
		fi
		echo "---"
		diffstat -p1 "$dst.diff" 2>/dev/null || true
		echo
		cat "$dst.diff"
		echo "-- "
		echo "2.39.5"
	} > "$dst"
	rm -f "$dst.diff"
done
echo "  EXPORT  $total patches in $out"
