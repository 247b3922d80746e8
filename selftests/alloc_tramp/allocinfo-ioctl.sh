#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The ioctl() of /proc/allocinfo (include/uapi/linux/alloc_tag.h, as
# later kernels have it): alloc_report -q walks the tags with it, and
# what it prints is what /proc/allocinfo says, tag for tag, in the same
# order; each filter picks exactly the lines it names; the content id
# changes when a module with tags comes and when it goes.
# alloc_tramp_allocinfo checks the edges: bad filters, a command the
# file does not have, the end of the walk, a filter that stays.
#
# alloc-tramp-variants: tramp debug

cd "$(dirname "$0")"
echo "TAP version 13"
echo "1..16"

. ../lib/tap.inc

en=/sys/kernel/mm/alloc_trampolines/enabled
# tags: the tag of each line of /proc/allocinfo, without its counts, its
# file and function as the ioctl gives them: 64 characters or more by
# their last 63 (the test modules' files are absolute paths)
tags() {
	awk 'function tail(s) { return length(s) < 64 ? s : substr(s, length(s) - 62) }
	NR > 2 { $1 = $2 = ""; sub(/^ +/, ""); sub(/ +$/, "")
		l = $1; sub(/.*:/, "", l); f = $1; sub(/:[0-9]+$/, "", f)
		$1 = tail(f) ":" l
		for (i = 2; i <= NF; i++)
			if ($i ~ /^func:/) $i = "func:" tail(substr($i, 6))
		print }'
}
# q ARGS: the same through alloc_report -q
q() { alloc_report -q "$@" | tags_q; }
tags_q() { awk '{ $1 = $2 = ""; sub(/^ +/, ""); print }'; }

# Some tags with counts and some marked accurate:no: a switch on, a
# module, and a switch off, then patched back as built
echo 1 > $en
id0=$(alloc_report -c)
insmod alloc_tramp_holder.ko && insmod alloc_tramp_test.ko
ok $? "load the test modules"
id1=$(alloc_report -c)
echo 0 > $en && echo 0 > $en

cat /proc/allocinfo | tags > /tmp/all
alloc_report -q | tags_q > /tmp/q
nr=$(wc -l < /tmp/all)
[ "$nr" -gt 100 ] && cmp -s /tmp/all /tmp/q
ok $? "every tag, in the order of /proc/allocinfo: $nr lines, $(wc -l < /tmp/q) through ioctl()"
diff /tmp/all /tmp/q | head -n 5 | sed 's/^/# /'

grep -q '\[alloc_tramp_test\]' /tmp/all && grep -q ' accurate:no$' /tmp/all &&
	grep -qv ' accurate:no$' /tmp/all
ok $? "the tags include a module's, some marked accurate:no and some not"

# The function, the file and the line of the module's first tag
set -- $(grep -m 1 '\[alloc_tramp_test\]' /tmp/all)
file=${1%:*}
line=${1##*:}
func=${3#func:}
awk -v f="$func" '{ for (i = 1; i <= NF; i++) if ($i == "func:" f) print }' /tmp/all > /tmp/want
q -f "$func" > /tmp/got
[ -s /tmp/want ] && cmp -s /tmp/want /tmp/got
ok $? "function $func: the $(wc -l < /tmp/want) lines of that function"
awk -v f="$file" 'index($1, f ":") == 1' /tmp/all > /tmp/want
q -F "$file" > /tmp/got
[ -s /tmp/want ] && cmp -s /tmp/want /tmp/got
ok $? "file $file: its $(wc -l < /tmp/want) lines"
grep "^$file:$line " /tmp/all > /tmp/want
q -F "$file" -l "$line" > /tmp/got
[ -s /tmp/want ] && cmp -s /tmp/want /tmp/got
ok $? "file and line $file:$line: $(wc -l < /tmp/want) tag"
grep '\[alloc_tramp_test\]' /tmp/all > /tmp/want
q -M alloc_tramp_test > /tmp/got
[ -s /tmp/want ] && cmp -s /tmp/want /tmp/got
ok $? "module alloc_tramp_test: its $(wc -l < /tmp/want) tags"
grep -v ' \[[^]]*\] func:' /tmp/all > /tmp/want
q -M "" > /tmp/got
[ -s /tmp/want ] && cmp -s /tmp/want /tmp/got
ok $? "module \"\": the $(wc -l < /tmp/want) tags of the kernel"
grep ' accurate:no$' /tmp/all > /tmp/want
q -A 1 > /tmp/got
cmp -s /tmp/want /tmp/got && [ "$(($(q -A 0 | wc -l) + $(wc -l < /tmp/want)))" = "$nr" ]
ok $? "accurate:no: $(wc -l < /tmp/want) tags, and the others with -A 0"

# Sizes: what the filter read is what it printed
alloc_report -q -b 4096 | awk '$1 < 4096 { bad = 1 } END { exit bad || NR == 0 }'
ok $? "at least 4096 bytes: $(alloc_report -q -b 4096 | wc -l) tags, none below"
alloc_report -q -b 1 -B 4095 | awk '$1 < 1 || $1 > 4095 { bad = 1 } END { exit bad || NR == 0 }'
ok $? "1 to 4095 bytes: $(alloc_report -q -b 1 -B 4095 | wc -l) tags, all within"

# Positions count the tags the filter matches
[ "$(q -p 3 -n 1)" = "$(sed -n 4p /tmp/all)" ] &&
	[ "$(q -M "" -p 1 -n 2)" = "$(grep -v ' \[[^]]*\] func:' /tmp/all | sed -n 2,3p)" ]
ok $? "-p: the fourth tag; the second and third of the kernel's"
alloc_report -q -p "$nr" > /tmp/got
[ $? = 1 ] && [ ! -s /tmp/got ]
ok $? "-p past the last tag: nothing, exit 1"

# A function with tags before others: the kernel's with the most tags
sticky=$(grep -v ' \[[^]]*\] func:' /tmp/all | awk '{ for (i = 2; i <= NF; i++)
	if ($i ~ /^func:/) print substr($i, 6) }' | sort | uniq -c | sort -rn | awk 'NR == 1 { print $2 }')
nsticky=$(q -f "$sticky" | wc -l)
out=$(alloc_tramp_allocinfo "$sticky")
echo "$out" | sed 's/^/# /'
missing=$(for c in "layout ok" "first ok" "bad-mask EINVAL" "min-max EINVAL" \
	"unknown ENOTTY" "past-end ENOENT" "wrap ok $nr" "sticky ok $nsticky"; do
	echo "$out" | grep -q -e "^$c\$" -e "^$c " || echo "$c"
done)
[ "$nsticky" -gt 1 ] && [ -z "$missing" ]
ok $? "the edges: layout, bad filters, an unknown command, the end, the filter of $sticky ($nsticky tags) that stays"
[ -z "$missing" ] || echo "$missing" | sed 's/^/# missing: /'

rmmod alloc_tramp_test && rmmod alloc_tramp_holder
id2=$(alloc_report -c)
[ -n "$id0" ] && [ "$id0" != "$id1" ] && [ "$id1" != "$id2" ]
ok $? "the content id changes when a module comes and when it goes: $id0, $id1, $id2"
[ -n "$id2" ] && [ "$(alloc_report -c)" = "$id2" ]
ok $? "and stays while none does"
