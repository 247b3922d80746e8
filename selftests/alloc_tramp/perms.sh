#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Permissions: only root writes the control files; captured contexts
# (pids, comms, stacks), the site lists and the reports are not readable
# by an unprivileged user; nothing prints a raw kernel address.
#
# alloc-tramp-variants: tramp

cd "$(dirname "$0")"
echo "TAP version 13"
echo "1..6"

. ../lib/tap.inc

en=/sys/kernel/mm/alloc_trampolines/enabled
d=/sys/kernel/debug/alloc_trampolines
files="$d/available_sites $d/enabled_sites $d/set_site_filter $d/set_site_notrace
$d/sites $d/tables /sys/kernel/debug/allocations /sys/kernel/debug/allocations.ctx"
nobody() { su -s /bin/sh nobody -c "$1" > /dev/null 2>&1; }

bad=
for f in $files; do
	m=$(stat -c %a "$f")
	case $m in 400 | 600) ;; *) bad="$bad $f:$m" ;; esac
done
[ -z "$bad" ]
ok $? "debugfs files are 0400 or 0600 ${bad:+:$bad}"
[ "$(stat -c %a $en)" = 644 ] && [ "$(stat -c %U $en)" = root ]
ok $? "sysfs enabled is 0644 root"

nobody "id -u" && [ "$(su -s /bin/sh nobody -c 'id -u')" = 65534 ]
ok $? "su to nobody works"
chmod 755 /sys/kernel/debug
read=
for f in $files /proc/allocinfo; do
	nobody "cat $f" && read="$read $f"
done
[ -z "$read" ]
ok $? "nobody reads none of them, even with debugfs opened up ${read:+: read$read}"
wrote=
for f in $en $d/set_site_filter $d/set_site_notrace /sys/kernel/debug/allocations.ctx; do
	nobody "echo 1 > $f" && wrote="$wrote $f"
done
[ "$(cut -c1 $en)" = 0 ] && [ -z "$wrote" ]
ok $? "nobody writes none of the control files ${wrote:+: wrote$wrote}"
chmod 700 /sys/kernel/debug

echo 1 > $en
echo "module vmlinux enable every 1000" > /sys/kernel/debug/allocations.ctx
ls -R / > /dev/null 2>&1
raw=$(cat $files | grep -oE '\b(0x)?ffff[0-9a-f]{12}\b' | head -n 2)
[ -z "$raw" ]
ok $? "no raw kernel address in any of them ${raw:+: $raw}"
echo "module vmlinux disable" > /sys/kernel/debug/allocations.ctx
echo 0 > $en
