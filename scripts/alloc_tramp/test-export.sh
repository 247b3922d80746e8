#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The series of make export applies with git am to a pristine 6.12 tree
# from the same tarball, and gives exactly our prepared tree: every file
# the series adds or changes is the same as in build/linux-source-6.12,
# and no other file changed.  Prints TAP.
#
# Usage: test-export.sh TOP BUILD

set -u

top=$1
build=$2
tarball=${LINUX_SOURCE_TAR:-/usr/src/linux-source-6.12.tar.xz}
ksrc=$build/linux-source-6.12
work=$build/export-test
tree=$work/linux-source-6.12
. "$top/selftests/lib/tap.inc"

echo "TAP version 13"
echo "1..5"
rm -rf "$work"
mkdir -p "$work"
"$top/scripts/alloc_tramp/export.sh" "$top" "$work/series" > /dev/null
npatches=$(ls "$work"/series/*.patch 2> /dev/null | wc -l)
[ "$npatches" -ge 12 ]
ok $? "make export wrote $npatches patches"

tar -C "$work" -xf "$tarball"
git() { command git -C "$tree" -c user.name=test -c user.email=test@example.invalid "$@"; }
# Debian's tree ignores everything in its .gitignore: add by force.
git init -q && git add -f -A && git commit -qm pristine
git am -q "$work"/series/*.patch > "$work/am.log" 2>&1
ok $? "git am applies them to the pristine tree: $(tail -n 2 "$work/am.log" | tr '\n' ' ')"
[ "$(git rev-list --count HEAD)" = $((npatches + 1)) ] && [ -z "$(git status --porcelain)" ]
ok $? "one commit each, nothing left over"

# Every file they touch, as in our prepared tree (symlinks followed)
changed=$(git diff --name-only HEAD~"$npatches" HEAD | sort)
diffs=$(for f in $changed; do
	cmp -s "$tree/$f" "$ksrc/$f" || echo "$f"
done)
[ -n "$changed" ] && [ -z "$diffs" ]
ok $? "$(echo "$changed" | wc -l) files the same as in the prepared tree: ${diffs:-all}"

# ... and they are all the files our tree changes: the series' upstream
# files and our new files.
ours=$( (grep -h '^+++ b/' "$top"/patches/*.patch | sed 's|^+++ b/||'
	 cat "$ksrc/.alloc_tramp/links") | sort -u)
[ "$changed" = "$ours" ]
ok $? "and no other: $(comm -3 <(echo "$changed") <(echo "$ours") | head -n 3 | tr '\n' ' ')"
rm -rf "$work"
