#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The ftrace-style filter files: filtering to one module's sites patches
# only those (enabled_sites and the text bytes agree), ">>" appends, "!"
# takes out, an empty write clears, set_site_notrace excludes, a module
# loaded later is filtered too, and bad writes are refused and change
# nothing.
#
# alloc-tramp-variants: tramp

cd "$(dirname "$0")"
echo "TAP version 13"
echo "1..21"

. ../lib/tap.inc

d=/sys/kernel/debug/alloc_trampolines
en=/sys/kernel/mm/alloc_trampolines/enabled
mod=alloc_tramp_test
# Lines of a file that are not comments
lines() { grep -v '^#' "$1" | wc -l; }
# Sites whose instruction calls the trampoline now, read from the text
on() { awk '$NF == "on"' $d/sites | wc -l; }
on_in_mod() { awk -v m="[$mod]" '$NF == "on" && $2 == m' $d/sites | wc -l; }
# Sites of available_sites for a module
avail() { awk -v m="$1" '$3 == m' $d/available_sites | wc -l; }
# The filters and what is patched, without the counts
snapshot() {
	cat $d/set_site_filter $d/set_site_notrace
	cut -d' ' -f1-4 $d/enabled_sites
	grep ' on$' $d/sites
}

insmod alloc_tramp_holder.ko && insmod $mod.ko
ok $? "load the test modules"
nmod=$(avail $mod)
total=$(wc -l < $d/available_sites)
[ "$nmod" -ge 6 ] && [ "$total" -gt 500 ]
ok $? "available_sites: $total sites, $nmod in $mod"
bad=$(grep -vE '^[^ ]+:[0-9]+ [^ ]+ [^ ]+ [^ ]+$' $d/available_sites | head -n 2)
[ -z "$bad" ]
ok $? "available_sites lines are 'file:line func module target' $bad"
grep -q '^#### all sites ####$' $d/set_site_filter && [ "$(lines $d/set_site_notrace)" = 0 ]
ok $? "no filter: all sites; no notrace: none"

echo "module $mod" > $d/set_site_filter && echo 1 > $en
[ "$(lines $d/enabled_sites)" = "$nmod" ] &&
	[ "$(awk -v m=$mod '$3 != m' $d/enabled_sites | wc -l)" = 0 ]
ok $? "filter 'module $mod': enabled_sites lists its $nmod sites only"
[ "$(on)" = "$nmod" ] && [ "$(on_in_mod)" = "$nmod" ]
ok $? "and only those call their trampoline: $(on) sites on in the text"
grep -q "^1 ($nmod of [0-9]* sites patched)\$" $en
ok $? "sysfs counts them: $(cat $en)"
[ "$(lines $d/set_site_filter)" = "$nmod" ] && grep -qx "# module $mod" $d/set_site_filter
ok $? "reading set_site_filter gives the query and the chosen sites"

# A vmlinux function with allocator calls, to add
func=$(awk '$3 == "vmlinux" { print $2; exit }' $d/available_sites)
nfunc=$(awk -v f="$func" '$2 == f && $3 == "vmlinux"' $d/available_sites | wc -l)
echo "func $func module vmlinux" >> $d/set_site_filter
[ "$(lines $d/enabled_sites)" = "$((nmod + nfunc))" ] && [ "$(on)" = "$((nmod + nfunc))" ]
ok $? "'>>' adds $func's $nfunc sites: $(lines $d/enabled_sites) enabled"

echo '!test_alloc' >> $d/set_site_filter
ntest=$(awk -v m=$mod '$3 == m && $2 == "test_alloc"' $d/available_sites | wc -l)
[ "$ntest" -gt 0 ] && [ "$(lines $d/enabled_sites)" = "$((nmod + nfunc - ntest))" ] &&
	! awk '{ print $2 }' $d/enabled_sites | grep -qx test_alloc
ok $? "'!test_alloc' takes its $ntest sites out"

before=$(snapshot)
said=$(dmesg | grep -c 'alloc_tramp: refused a bad line or line range: "line 5-"')
head -c 5000 /dev/zero | tr '\0' '\n' > /tmp/blank-lines
fails=0
for q in 'line 5-' 'line 7-3' 'file' 'a b' 'no_such_function_xyz' \
	"module $mod line 1-2" '!' "$(printf 'caf\303\251')" "$(printf 'a\001b')" \
	"$(head -c 300 /dev/zero | tr '\0' a)"; do
	echo "$q" >> $d/set_site_filter 2> /dev/null && fails=$((fails + 1))
	echo "$q" > $d/set_site_filter 2> /dev/null && fails=$((fails + 1))
done
# Two lines in one write: the good one is not taken either.
printf 'kmem_*\nline 5-\n' > /tmp/two-lines
dd if=/tmp/two-lines of=$d/set_site_filter bs=4096 count=1 2> /dev/null &&
	fails=$((fails + 1))
# 5000 bytes in one write: over the limit, though only blank lines
dd if=/tmp/blank-lines of=$d/set_site_filter bs=5000 count=1 2> /dev/null &&
	fails=$((fails + 1))
after=$(snapshot)
[ "$fails" = 0 ] && [ "$after" = "$before" ]
ok $? "bad writes are refused ($fails taken) and leave the filter and the text as they were"
[ "$after" = "$before" ] || { echo "$before" > /tmp/b; echo "$after" | diff /tmp/b - | head -n 5 | sed 's/^/# /'; }
[ "$(dmesg | grep -c 'alloc_tramp: refused a bad line or line range: "line 5-"')" -gt "$said" ]
ok $? "with a message that says why"

echo > $d/set_site_filter
[ "$(lines $d/enabled_sites)" = "$total" ] && grep -q '^#### all sites ####$' $d/set_site_filter
ok $? "an empty write clears the filter: all $total sites enabled"

echo "module $mod" > $d/set_site_notrace
[ "$(lines $d/enabled_sites)" = "$((total - nmod))" ] && [ "$(on_in_mod)" = 0 ] &&
	[ "$(lines $d/set_site_notrace)" = "$nmod" ]
ok $? "set_site_notrace 'module $mod' leaves its sites out"
: > $d/set_site_notrace
[ "$(lines $d/enabled_sites)" = "$total" ] && [ "$(lines $d/set_site_notrace)" = 0 ]
ok $? "': >' clears set_site_notrace"

# A module loaded after the filter was set is filtered by it.
echo "module $mod" > $d/set_site_filter
rmmod $mod && insmod $mod.ko
[ "$(lines $d/enabled_sites)" = "$nmod" ] && [ "$(on_in_mod)" = "$nmod" ]
ok $? "reloaded: the filter still chooses the module's $nmod sites"
echo alloc > /sys/kernel/debug/$mod
# 10 kmallocs, and maybe a slab page under them: mm/ is filtered out.
calls=$(awk -v l="$mod.c:$(awk '$1 == "kmalloc" { print $2 }' $mod.lines)" \
	'$3 ~ l "$" && $4 == "module:'$mod'" { print $2 }' /sys/kernel/debug/allocations)
[ "${calls:-0}" -ge 10 ] && [ "$calls" -le 11 ]
ok $? "and they account: $calls calls at the kmalloc line"
echo free > /sys/kernel/debug/$mod

echo "!module $mod" > $d/set_site_filter
[ "$(lines $d/enabled_sites)" = "$((total - nmod))" ]
ok $? "'!module $mod' alone: every other site"

echo 0 > $en
[ "$(lines $d/enabled_sites)" = 0 ] && [ "$(on)" = 0 ]
ok $? "off: nothing enabled, whatever the filter"
echo > $d/set_site_filter
echo 1 > $en
[ "$(lines $d/enabled_sites)" = "$total" ]
ok $? "cleared and on again: all $total sites"
echo 0 > $en
rmmod $mod && rmmod alloc_tramp_holder
ok $? "unload the test modules"
