#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# Write BENCHMARKS.md (to stdout) and the gnuplot chart script from what
# bench.sh collected in OUT.
#
# Usage: bench-report.py OUT "QEMU MODE" OPS REPS

import collections
import datetime
import os
import re
import sys

out, qemu, ops, reps = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
BOOTS = ["baseline", "upstream", "ours", "ours-boot",
         "baseline-icount", "upstream-icount", "ours-icount"]
MODES = [("", "wall time under TCG, ns per op"),
         ("-icount", "instructions per op (QEMU -icount: 1 ns of guest time per instruction)")]
STATES = [
    ("baseline", "baseline: no profiling"),
    ("upstream-on", "upstream MEM_ALLOC_PROFILING, enabled"),
    ("upstream-off", "upstream, compiled in, vm.mem_profiling=0"),
    ("ours-off", "ours, off"),
    ("ours-one", "ours, one site on (filter)"),
    ("ours-all", "ours, all sites on"),
]


def read(name):
    path = os.path.join(out, name)
    return open(path).read().splitlines() if os.path.exists(path) else []


bench = {}          # mode -> state -> {"kmalloc": ns, "pages": ns}
info = collections.defaultdict(dict)   # boot -> key -> value
allocinfo = {}      # boot -> [(bytes, calls, file:line, func)]
for boot in BOOTS:
    rows = []
    mode = "-icount" if boot.endswith("-icount") else ""
    for line in read(boot + ".log"):
        m = re.match(r"# bench (\S+) (kmalloc|pages) ([0-9.]+) ns/op", line)
        if m:
            bench.setdefault(mode, {}).setdefault(m[1], {})[m[2]] = float(m[3])
            continue
        m = re.match(r"# bench meminfo (\S+): (\d+)", line)
        if m:
            info[boot][m[1]] = int(m[2])
            continue
        m = re.match(r"# bench allocated (\d+) bytes of page_ext", line)
        if m:
            info[boot]["page_ext"] = int(m[1])
            continue
        m = re.match(r"# bench toggle (enable|disable) ([0-9.]+) ms", line)
        if m:
            info[boot][m[1]] = float(m[2])
            continue
        m = re.match(r"# bench (sites|all-sites|one-site) (.*)", line)
        if m:
            info[boot][m[1]] = m[2]
            continue
        m = re.match(r"# allocinfo +(\d+) +(\d+) (\S+):(\d+) (?:\[\S+\] )?func:(\S+)", line)
        if m:
            rows.append((int(m[1]), int(m[2]), m[3], int(m[4]), m[5]))
    allocinfo[boot] = rows


def ratio(state, loop, mode="", base="baseline"):
    try:
        return bench[mode][state][loop] / bench[mode][base][loop]
    except (KeyError, ZeroDivisionError):
        return None


def fmt(x, f="%.2f"):
    return "-" if x is None else f % x


now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
print("# Benchmarks\n")
print("Written by `make bench` (scripts/alloc_tramp/bench.sh) on %s; do not edit." % now)
print("Three kernels from the same Linux 6.12 source and the same config base")
print("(`tinyconfig` + `alloc_tramp_guest.config`): baseline, upstream")
print("`CONFIG_MEM_ALLOC_PROFILING`, and `CONFIG_ALLOC_TRAMPOLINES`.  Each boots")
print("in QEMU, **%s**, 2 CPUs; the benchmark module" % qemu)
print("(selftests/bench/modules/alloc_bench.c) runs %d kmalloc/kfree pairs of" % ops)
print("8 to 240 bytes and %d `__get_free_page`/`free_page` pairs on one CPU," % ops)
print("%d times; the median is kept.  Under TCG the absolute times mean" % reps)
print("little: read the ratios, each to the baseline of the same run.\n")

for mode, title in MODES:
    print("## Allocation loops: %s\n" % title)
    print("| state | kmalloc | x baseline | pages | x baseline |")
    print("|---|---:|---:|---:|---:|")
    for state, label in STATES:
        b = bench.get(mode, {}).get(state, {})
        print("| %s | %s | %s | %s | %s |" % (
            label, fmt(b.get("kmalloc"), "%.1f"), fmt(ratio(state, "kmalloc", mode)),
            fmt(b.get("pages"), "%.1f"), fmt(ratio(state, "pages", mode))))
    print()
    for loop in ("kmalloc", "pages"):
        up, ours = ratio("upstream-on", loop, mode), ratio("ours-all", loop, mode)
        if up and ours and up > 1:
            print("- %s, all sites on: our overhead is %.0f%% of upstream's "
                  "(x%.2f against x%.2f)." % (loop, 100 * (ours - 1) / (up - 1), ours, up))
        # On against off in one boot: free of the noise between boots
        up_in = ratio("upstream-on", loop, mode, "upstream-off")
        ours_in = ratio("ours-all", loop, mode, "ours-off")
        one_in = ratio("ours-one", loop, mode, "ours-off")
        print("- %s, in one boot: upstream on/off x%s; ours all/off x%s, one/off x%s." % (
            loop, fmt(up_in), fmt(ours_in), fmt(one_in)))
    print()
print("- One site on: %s." % info["ours"].get("one-site", "-"))
print("- All sites on: %s." % info["ours"].get("all-sites", "-"))
print()

print("## Size\n")
print("| kernel | .text | x baseline | vmlinux | x baseline | bzImage | x baseline |")
print("|---|---:|---:|---:|---:|---:|---:|")
sizes = {}
for line in read("sizes.txt"):
    v, text, vm, bz = line.split()
    sizes[v] = (int(text), int(vm), int(bz))
names = {"guest": "baseline", "prof": "upstream", "tramp": "ours"}
for v in ("guest", "prof", "tramp"):
    if v not in sizes or "guest" not in sizes:
        continue
    s, b = sizes[v], sizes["guest"]
    print("| %s | %d | %.4f | %d | %.4f | %d | %.4f |" % (
        names[v], s[0], s[0] / b[0], s[1], s[1] / b[1], s[2], s[2] / b[2]))
if "guest" in sizes and "prof" in sizes and "tramp" in sizes:
    print("\nCode (`_stext` to `_etext`) over the baseline: upstream +%d bytes,"
          " ours +%d bytes, most of it the trampoline stubs and bodies."
          " The call sites of ours are those of the baseline." % (
              sizes["prof"][0] - sizes["guest"][0], sizes["tramp"][0] - sizes["guest"][0]))
print()

print("## Profiling metadata\n")
sect = collections.defaultdict(dict)
for line in read("sections.txt"):
    v, s, n = line.split()
    sect[v][s] = int(n)
print("| | upstream | ours |")
print("|---|---:|---:|")
for key, label in (("tags", "tags (`struct alloc_tag`), bytes"),
                   ("stubs", "trampoline stubs, bytes"), ("sites", "site table, bytes")):
    print("| %s | %s | %s |" % (label, sect["prof"].get(key, 0), sect["tramp"].get(key, 0)))
print("| per-CPU counters, bytes per CPU | %d | %d |" % (
    sect["prof"].get("tags", 0) // 40 * 16, sect["tramp"].get("tags", 0) // 40 * 16))
for k, label in (("page_ext", "page_ext, bytes (boot log)"), ("Slab", "Slab after boot, kB"),
                 ("Percpu", "Percpu after boot, kB"), ("MemFree", "MemFree after boot, kB")):
    base = info["baseline"].get(k)
    cells = []
    for boot in ("upstream", "ours"):
        v = info[boot].get(k)
        cells.append("-" if v is None else
                     ("%d (baseline %d)" % (v, base) if base is not None else "%d" % v))
    print("| %s | %s | %s |" % (label, cells[0], cells[1]))
print("\nOurs boots with the trampolines off: the slab and page extensions are")
print("only used once they are switched on.\n")

print("## Switching, objtool\n")
print("- Sites: %s available after boot." % info["ours"].get("sites", "-"))
print("- Switching all sites on: %s ms, off: %s ms (median of 5, text_poke batch)." % (
    fmt(info["ours"].get("enable"), "%.1f"), fmt(info["ours"].get("disable"), "%.1f")))
print("\n```")
print("\n".join(read("objtool.txt")))
print("```\n")

print("## Accuracy against upstream\n")


def norm(path):
    for marker in ("linux-source-6.12/",):
        if marker in path:
            return path.split(marker, 1)[1]
    m = re.search(r"modules-src/[^/]+/(.*)", path)
    return m[1] if m else path


def lines(boot):
    d = collections.defaultdict(lambda: [0, set()])
    for b, c, f, ln, fn in allocinfo.get(boot, []):
        key = "%s:%d" % (norm(f), ln)
        d[key][0] += b
        d[key][1].add(fn)
    return d


up, ours = lines("upstream"), lines("ours-boot")
if up and ours:
    keys = set(up) | set(ours)
    same = sum(min(up[k][0], ours[k][0]) for k in keys if k in up and k in ours)
    only_up = sum(up[k][0] - (min(up[k][0], ours[k][0]) if k in ours else 0) for k in up)
    only_ours = sum(ours[k][0] - (min(up[k][0], ours[k][0]) if k in up else 0) for k in ours)
    total_up = sum(v[0] for v in up.values())
    total_ours = sum(v[0] for v in ours.values())
    print("The same workload on both (boot profiled from the start, then the test")
    print("module's known allocations, 200 files in tmpfs, `ls -R /`), then")
    print("`/proc/allocinfo`, compared by file:line.\n")
    print("| | bytes | share of upstream's |")
    print("|---|---:|---:|")
    print("| live bytes, upstream | %d | 100%% |" % total_up)
    print("| live bytes, ours | %d | %.1f%% |" % (total_ours, 100 * total_ours / max(total_up, 1)))
    print("| attributed to the same line by both | %d | %.1f%% |" % (same, 100 * same / max(total_up, 1)))
    print("| only upstream attributes to its line | %d | %.1f%% |" % (only_up, 100 * only_up / max(total_up, 1)))
    print("| only ours attributes to its line | %d | %.1f%% |" % (only_ours, 100 * only_ours / max(total_up, 1)))
    print("\nTop differences:\n")
    print("| file:line | function | upstream | ours | why, likely |")
    print("|---|---|---:|---:|---|")
    by_func_up = collections.defaultdict(list)
    by_func_ours = collections.defaultdict(list)
    for k, (b, fns) in up.items():
        for fn in fns:
            by_func_up[fn].append(k)
    for k, (b, fns) in ours.items():
        for fn in fns:
            by_func_ours[fn].append(k)
    diffs = sorted(keys, key=lambda k: -abs(up.get(k, [0])[0] - ours.get(k, [0])[0]))[:12]
    for k in diffs:
        a, b = (up[k][0] if k in up else 0), (ours[k][0] if k in ours else 0)
        fns = sorted((up[k][1] if k in up else set()) | (ours[k][1] if k in ours else set()))
        if k not in ours:
            other = [x for fn in fns for x in by_func_ours.get(fn, [])]
            why = ("ours puts it at %s, the same function" % ", ".join(sorted(set(other))[:2])
                   if other else "no site of ours at this line: made before the"
                   " trampolines are set up (early_initcall), or a call objtool"
                   " does not see (indirect, or a `_noprof` name)")
        elif k not in up:
            other = [x for fn in fns for x in by_func_up.get(fn, [])]
            why = ("upstream puts it at %s, the same function" % ", ".join(sorted(set(other))[:2])
                   if other else "upstream has no tag here: the allocation runs under"
                   " an outer tag there")
        elif b < a:
            why = "ours starts later: early boot allocations are untagged"
        else:
            why = "a different amount live at the time of the dump"
        print("| %s | %s | %d | %d | %s |" % (k, " ".join(fns)[:40], a, b, why))
    print()
else:
    print("No /proc/allocinfo dump was found in this run.\n")

print("## Chart\n")
print("![overheads](BENCHMARKS.png)\n")

# The chart: x baseline of each state, both loops.
with open(os.path.join(out, "chart.dat"), "w") as f:
    for state, label in STATES:
        f.write('"%s" %s %s\n' % (label.replace(", ", "\\n", 1),
                                  fmt(ratio(state, "kmalloc", "-icount"), "%.3f").replace("-", "0"),
                                  fmt(ratio(state, "pages", "-icount"), "%.3f").replace("-", "0")))
with open(os.path.join(out, "chart.gp"), "w") as f:
    f.write("""set terminal png size 1100,500
set output '%(o)s/chart.png'
set title 'Allocation loops, instructions x baseline (QEMU -icount, median of %(r)d)'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set yrange [0:*]
set grid ytics
set key top left
set xtics font ',9'
plot '%(o)s/chart.dat' using 2:xtic(1) title 'kmalloc/kfree', '' using 3 title 'page alloc/free'
""" % {"o": out, "q": qemu.split()[0], "r": reps})
