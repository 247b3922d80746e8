#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The real modules of the defconfig kernel (make check-defconfig): every
# one loads while the trampolines are on, has its sites patched, switches
# off and on and follows the filters while loaded, unloads and reloads,
# and the kernel log stays clean.  "# defconfig:" lines give the numbers.
#
# alloc-tramp-variants: defconfig

echo "TAP version 13"
echo "1..13"

. "$(dirname "$0")/../lib/tap.inc"

d=/sys/kernel/debug/alloc_trampolines
en=/sys/kernel/mm/alloc_trampolines/enabled
mods=$(find /lib/modules -name '*.ko' | sed 's|.*/||; s|\.ko$||' | sort)
nmods=$(echo "$mods" | grep -c .)
[ "$nmods" -ge 8 ] && grep -qE '^vmlinux live [1-9][0-9]* sites' $d/tables
ok $? "$nmods modules to load, and vmlinux has sites: $(head -n 1 $d/tables)"
vmlinux_sites=$(awk '$1 == "vmlinux" { print $3 }' $d/tables)
dmesg -c > /dev/null

# load: modprobe every module; those for hardware the guest lacks fail
# in their init with -ENODEV, and must leave nothing behind.
load() {
	loaded=0 nodev=
	for m in $mods; do
		if modprobe "$m" 2> /tmp/err; then
			loaded=$((loaded + 1))
		elif grep -q 'No such device' /tmp/err; then
			nodev="$nodev $m"
		else
			echo "# modprobe $m: $(cat /tmp/err)"
		fi
	done
	[ $((loaded + $(echo $nodev | wc -w))) = "$nmods" ]
}
echo 1 > $en
load
ok $? "$loaded of $nmods modules load while on, the init of the others fails with -ENODEV:$nodev"
left=
for m in $nodev; do
	grep -q "^$(echo $m | tr - _) " $d/tables && left="$left $m"
done
[ -z "$left" ]
ok $? "a module whose init failed left no table:${left:- none of$nodev}"

# Sites of modules, and how many of them are patched now
mod_sites=$(awk '$2 == "live" && $1 != "vmlinux" { s += $3 } END { print s + 0 }' $d/tables)
with_sites=$(awk '$2 == "live" && $1 != "vmlinux" { n++ } END { print n + 0 }' $d/tables)
echo "# defconfig: $vmlinux_sites sites in vmlinux, $mod_sites in $with_sites of $nmods modules"
[ "$mod_sites" -gt 0 ] && [ "$with_sites" -ge 4 ]
ok $? "$mod_sites sites in $with_sites modules"
all=$(grep -c ' on$' $d/sites)
live=$(grep -vc ' gone$' $d/sites)
[ "$all" = "$live" ] && grep -qE "^1 \($all of [0-9]+ sites patched\)$" $en
ok $? "every live site is patched: $all of $live, $(cat $en)"

a=$(cut -d' ' -f1 /proc/uptime)
# Off, parked; off again, patched back as built; on, patched again
for i in 1 2 3 4 5; do
	echo 0 > $en && echo 0 > $en && echo 1 > $en || break
done
b=$(cut -d' ' -f1 /proc/uptime)
echo "# defconfig: patching all $all sites back and on: $(echo "$a $b" |
	awk '{ printf "%d", ($2 - $1) * 1000 / 10 }') ms a switch (guest time)"
grep -qE "^1 \($all of [0-9]+ sites patched\)$" $en
ok $? "switched off, patched back and on 5 times with the modules loaded"

m1=$(awk '$2 == "live" && $1 != "vmlinux" && $3 > 0 { print $1; exit }' $d/tables)
n1=$(grep "\[$m1\] " $d/sites | grep -vc ' gone$')
echo "module $m1" > $d/set_site_filter &&
	grep -qE "^1 \($n1 of [0-9]+ sites patched\)$" $en &&
	[ "$(grep -c ' on$' $d/sites)" = "$n1" ]
ok $? "a filter on $m1 patches its $n1 sites only: $(cat $en)"
: > $d/set_site_filter
grep -qE "^1 \($all of [0-9]+ sites patched\)$" $en
ok $? "clearing the filter patches every site again: $(cat $en)"

unload() {
	for m in $(echo "$mods" | tac); do
		modprobe -r "$m" 2> /dev/null
	done
	for m in $mods; do
		grep -q "^$m " /proc/modules && modprobe -r "$m" 2> /dev/null
	done
	! grep -qE "^($(echo $mods | tr ' ' '|')) " /proc/modules
}
unload
ok $? "all unload while on"
grep -qE "^vmlinux live " $d/tables && ! grep -qv "^vmlinux \|kept" $d/tables
ok $? "no live or retired table of them is left: $(grep -vc '^vmlinux ' $d/tables)"

load
rl=$?
echo 0 > $en
# Parked, and off: sites of modules loaded while parked (none here)
all=$(grep -cE ' (off|parked)$' $d/sites)
echo 1 > $en
[ $rl = 0 ] && grep -qE "^1 \($all of [0-9]+ sites patched\)$" $en
ok $? "reloaded, switched off and on: $(cat $en)"
unload
ok $? "and unloaded again"
echo 0 > $en
! dmesg | grep -E 'WARNING:|BUG:|Oops|not as built|refused|UBSAN|KASAN' > /tmp/bad
ok $? "the kernel log is clean: $(head -n 3 /tmp/bad | tr '\n' ' ')"
