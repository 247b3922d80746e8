#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Host test of tools/mm/alloc_report: top sites of both report formats,
# human sizes, and the diff of two snapshots.

top=$(cd "$(dirname "$0")/../../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# ok STATUS DESCRIPTION, as the guest tests
. "$top/selftests/lib/tap.inc"
# same NAME WANT GOT
same() {
	[ "$2" = "$3" ]
	ok $? "$1"
	[ "$2" = "$3" ] || diff <(echo "$2") <(echo "$3") | sed 's/^/# /'
}

${CC:-gcc} -O2 -Wall -Wextra -Werror -I"$top/include/uapi" -o "$tmp/alloc_report" \
	"$top/tools/mm/alloc_report.c"
ok $? "builds with -Wall -Wextra -Werror, libc only"
r=$tmp/alloc_report

cat > "$tmp/old" <<'T'
512 4 mm/a.c:10 module:vmlinux func:fa
1.2K 10 drivers/b.c:20 module:b func:fb
7.0M 1792 mm/c.c:30 module:vmlinux func:fc
2.0K 1 mm/gone.c:5 module:vmlinux func:fg
T
cat > "$tmp/new" <<'T'
1.0K 8 mm/a.c:10 module:vmlinux func:fa
1.2K 10 drivers/b.c:20 module:b func:fb
6.0M 1536 mm/c.c:30 module:vmlinux func:fc
64 1 mm/new.c:7 module:vmlinux func:fn
T

same "top by bytes, human sizes" "$(printf '%s\n' \
	'   7.0M     1792 mm/c.c:30 module:vmlinux func:fc' \
	'   2.0K        1 mm/gone.c:5 module:vmlinux func:fg' \
	'   1.2K       10 drivers/b.c:20 module:b func:fb' \
	'    512        4 mm/a.c:10 module:vmlinux func:fa' \
	'# 4 sites, 7.0M in all')" "$("$r" "$tmp/old")"
same "-n 1 -s calls, from standard input" "$(printf '%s\n' \
	'   7.0M     1792 mm/c.c:30 module:vmlinux func:fc' \
	'# 4 sites, 7.0M in all')" "$("$r" -n 1 -s calls < "$tmp/old")"

cat > "$tmp/allocinfo" <<'T'
allocinfo - version: 1.0
#     <size>  <calls> <tag info>
        4096        1 fs/x.c:11 [xfs] func:xa
     1048576      256 mm/y.c:22 func:yb
           0        0 mm/z.c:33 func:zc
T
same "/proc/allocinfo: exact bytes, [module], headers skipped" "$(printf '%s\n' \
	'   1.0M      256 mm/y.c:22 module:vmlinux func:yb' \
	'   4.0K        1 fs/x.c:11 module:xfs func:xa' \
	'      0        0 mm/z.c:33 module:vmlinux func:zc' \
	'# 3 sites, 1.0M in all')" "$("$r" "$tmp/allocinfo")"

cat > "$tmp/allocinfo2" <<'T'
allocinfo - version: 2.0
#     <size>  <calls> <tag info>
        4096        1 fs/x.c:11 [xfs] func:xa accurate:no 
     1048576      256 mm/y.c:22 func:yb accurate:no 
T
same "/proc/allocinfo 2.0: accurate:no is not part of the function" "$(printf '%s\n' \
	'   1.0M      256 mm/y.c:22 module:vmlinux func:yb' \
	'   4.0K        1 fs/x.c:11 module:xfs func:xa' \
	'# 2 sites, 1.0M in all')" "$("$r" "$tmp/allocinfo2")"

same "-d: the sites that grew, most first" "$(printf '%s\n' \
	'+512     +4         1.0K mm/a.c:10 module:vmlinux func:fa' \
	'+64      +1           64 mm/new.c:7 module:vmlinux func:fn' \
	'# 5 sites, 6.0M in all, -1.0M since the old snapshot')" "$("$r" -d "$tmp/old" "$tmp/new")"
same "-d -a: and those that shrank or went" "$(printf '%s\n' \
	'+512     +4         1.0K mm/a.c:10 module:vmlinux func:fa' \
	'+64      +1           64 mm/new.c:7 module:vmlinux func:fn' \
	'-2.0K    -1            0 mm/gone.c:5 module:vmlinux func:fg' \
	'-1.0M    -256       6.0M mm/c.c:30 module:vmlinux func:fc' \
	'# 5 sites, 6.0M in all, -1.0M since the old snapshot')" \
	"$("$r" -d -a "$tmp/old" "$tmp/new")"

"$r" -d "$tmp/old" > /dev/null 2>&1
[ $? = 2 ]
ok $? "-d with one snapshot: usage, exit 2"
msg=$("$r" "$tmp/nonexistent" 2>&1)
[ $? = 2 ] && [[ $msg == *"No such file or directory"* ]]
ok $? "a missing file: '$msg', exit 2"
"$r" -n x "$tmp/old" > /dev/null 2>&1
[ $? = 2 ]
ok $? "a bad -n: usage, exit 2"
"$r" -q -b x > /dev/null 2>&1
[ $? = 2 ]
ok $? "-q with a bad size: usage, exit 2"
"$r" -q "$tmp/old" > /dev/null 2>&1
[ $? = 2 ]
ok $? "-q takes no file: usage, exit 2"
"$r" -t 0 > /dev/null 2>&1
[ $? = 2 ]
ok $? "-t 0: usage, exit 2"
"$r" -t 1 -d > /dev/null 2>&1
[ $? = 2 ]
ok $? "-t with -d: usage, exit 2"
