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
BOOTS = ["baseline", "upstream", "ours",
         "baseline-icount", "upstream-icount", "ours-icount",
         "switch-upstream-defconfig", "switch-ours-defconfig"]
MODES = [("-icount", "instructions per op (QEMU -icount, 1 CPU: 1 ns of guest time"
          " per instruction)"),
         ("", "wall time under TCG, 1 CPU, ns per op (noisier: host load)")]
STATES = [
    ("baseline", "baseline: no profiling"),
    ("upstream-on", "upstream MEM_ALLOC_PROFILING, enabled"),
    ("upstream-off", "upstream, compiled in, vm.mem_profiling=0"),
    ("ours-off", "ours, off (fault injection built in, nothing armed)"),
    ("ours-armed", "ours, off, one site not in the loops armed (fail_sites)"),
    ("ours-one", "ours, one site on (filter)"),
    ("ours-all", "ours, all sites on"),
    ("ours-off-again", "ours, off again (after all on: parked)"),
    ("ours-off-built", "ours, off again, patched back as built (0 written again)"),
]


CHART_LABELS = {"baseline": "baseline", "upstream-on": "upstream\\non",
                "upstream-off": "upstream\\noff", "ours-off": "ours\\noff",
                "ours-armed": "ours\\narmed",
                "ours-one": "ours\\none site", "ours-all": "ours\\nall sites",
                "ours-off-again": "ours\\noff again",
                "ours-off-built": "ours\\nas built"}


def read(name):
    path = os.path.join(out, name)
    return open(path).read().splitlines() if os.path.exists(path) else []


bench = {}          # mode -> state -> {"kmalloc": ns, "pages": ns}
info = collections.defaultdict(dict)   # boot -> key -> value
for boot in BOOTS:
    mode = "-icount" if boot.endswith("-icount") else ""
    for line in read(boot + ".log"):
        m = re.match(r"# bench (\S+) (kmalloc|pages|files|forks) ([0-9.]+) ns/op", line)
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
        m = re.match(r"# bench (?:ours|upstream) (switch-on|switch-off) ([0-9.]+) ms", line)
        if m:
            info[boot][m[1]] = float(m[2])
            continue
        m = re.match(r"# bench toggle (enable|disable|first-enable|unpark) ([0-9.]+) ms", line)
        if m:
            info[boot][m[1]] = float(m[2])
            continue
        m = re.match(r"# bench (sites|tags|all-sites|one-site|parked) (.*)", line)
        if m:
            info[boot][m[1]] = m[2]
            continue


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
print("(`tinyconfig` + `alloc_tramp_guest.config`, production class: -O2, full")
print("SLUB, NUMA, memcg, jump labels, the mitigations, ftrace): baseline, upstream")
print("`CONFIG_MEM_ALLOC_PROFILING`, and `CONFIG_ALLOC_TRAMPOLINES`.  Each boots")
print("in QEMU, **%s**, with 1 CPU, twice: once under `-icount`," % qemu)
print("where the guest clock counts instructions and repeats to the digit, and")
print("once for wall time.  The benchmark module")
print("(selftests/bench/modules/alloc_bench.c) runs %d kmalloc/kfree pairs of" % ops)
print("8 to 240 bytes and %d `__get_free_page`/`free_page` pairs on one CPU," % ops)
print("%d times; the median is kept.  Under TCG the absolute times mean" % reps)
print("little: read the ratios, each to the baseline of the same mode.")
print("Static keys are jump labels: a NOP while off, in all three kernels.\n")


def measured(name):
    path = os.path.join(out, name)
    if not os.path.exists(path):
        return "not measured"
    return datetime.datetime.fromtimestamp(os.path.getmtime(path), datetime.timezone.utc) \
        .strftime("%Y-%m-%d %H:%M UTC")


print("Each part as last measured (`BENCH_PARTS` measures some again):\n")
for part, name in (("allocation loops", "ours-icount.log"), ("profiles", "profile-ours-all.txt"),
                   ("size and metadata", "sizes.txt"), ("objtool", "objtool.txt"),
                   ("accuracy", "accuracy-ours.log"),
                   ("x86_64_defconfig: bytes and switching", "switch-ours-defconfig.log")):
    print("- %s: %s" % (part, measured(name)))
print()



def state_table(mode, loops, f):
    """One row a state: each loop's figure and its ratio to the baseline."""
    print("| state | %s |" % " | ".join("%s | x baseline" % loop for loop in loops))
    print("|---|" + "---:|---:|" * len(loops))
    for state, label in STATES:
        b = bench.get(mode, {}).get(state, {})
        print("| %s | %s |" % (label, " | ".join(
            "%s | %s" % (fmt(b.get(loop), f), fmt(ratio(state, loop, mode))) for loop in loops)))
    print()


for mode, title in MODES:
    print("## Allocation loops: %s\n" % title)
    state_table(mode, ("kmalloc", "pages"), "%.1f")
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
# The macro workload, as the loops
for mode, title in MODES:
    print("## Macro workload: %s\n" % title)
    print("10000 files created, written, read and deleted in a tmpfs (per file), and")
    print("1000 fork/exit/wait pairs (per pair): `selftests/bench/macro.c`, median of 5,\nafter one unmeasured run.\n")
    state_table(mode, ("files", "forks"), "%.0f")


def target_row(what, loop, value, limit, text):
    met = value is not None and limit is not None and value <= limit + 1e-9
    print("| %s | %s | %s | %s | %s |" % (what, loop, fmt(value, "x%.3f"), text % fmt(limit, "x%.3f"),
                                        "met" if met else "not met"))


print("## Targets\n")
print("From the instructions per op (-icount), each state as a ratio to the")
print("baseline of its loop.\n")
print("| target | loop | ours | limit | |")
print("|---|---|---:|---:|---|")
for loop in ("kmalloc", "pages", "files", "forks"):
    r = lambda st: ratio(st, loop, "-icount")
    up, off, up_off = r("upstream-on"), r("ours-off"), r("upstream-off")
    target_row("all sites on: at most upstream's overhead", loop, r("ours-all"), up, "%s (upstream on)")
    target_row("all sites on, the goal: at most half of upstream's overhead", loop, r("ours-all"),
               None if up is None else 1 + (up - 1) / 2, "%s (upstream on: " + fmt(up, "x%.3f") + ")")
    target_row("off: at most baseline + 1%", loop, off, 1.01, "%s")
    for st, what in (("ours-armed", "one other site armed: at most off + 2%"),
                     ("ours-one", "one site on: at most off + 2%")):
        target_row(what, loop, r(st), None if off is None else off + 0.02, "%s")
    target_row("off again: at most upstream compiled in, off", loop, r("ours-off-again"), up_off,
               "%s (upstream, vm.mem_profiling=0)")
    target_row("off again, the goal: at most off + 2%", loop, r("ours-off-again"),
               None if off is None else off + 0.02, "%s")
    target_row("off again, patched back as built: at most upstream compiled in, off", loop,
               r("ours-off-built"), up_off, "%s (upstream, vm.mem_profiling=0)")
for name, kernel in (("objtool.txt", "tramp"), ("objtool-defconfig.txt", "defconfig")):
    share = None
    for line in read(name):
        m = re.match(r"\s*the pass, of the link\s+([0-9.]+)%", line)
        if m:
            share = float(m[1])
    print("| the objtool pass, share of the vmlinux link (%s) | - | %s | 5%% | %s |" % (
        kernel, fmt(share, "%.1f%%"),
        "not measured" if share is None else "met" if share <= 5 else "not met"))
# Bytes: what each adds to the code and data of vmlinux.o over the
# baseline of its config (KUnit and our KUnit suite left out), per call
# site: upstream's are its tags, ours the sites objtool found.


def read_bytes(alloc_name, sections_name):
    """The allocated bytes of each kernel, and the bytes of its sections."""
    added = {}
    for line in read(alloc_name):
        v, _, n = line.split()
        added[v] = int(n)
    sect = collections.defaultdict(dict)   # kernel -> section -> bytes
    for line in read(sections_name):
        v, k, n = line.split()
        sect[v][k] = int(n)
    return added, sect


def bytes_row(where, added, sect, base, prof, ours, kunit):
    """The target row: bytes per site of ours against per tag of upstream's."""
    per_site = {}
    if base in added:
        for v, key, size in ((prof, "tags", 40), (ours, "sites", 16)):
            nr = sect[v].get(key, 0) // size
            if v in added and nr:
                per_site[v] = (added[v] - added[base] - (kunit if v == ours else 0)) / nr
    a, b = per_site.get(prof), per_site.get(ours)
    print("| bytes of code and data added per call site (%svmlinux.o; ours without KUnit) "
          "| - | %s | %s | %s |" % (where, fmt(b, "%.0f"), fmt(a, "%.0f"),
                                    "not measured" if a is None or b is None else
                                    "met" if b <= a else "not met"))


added, sect = read_bytes("alloc-bytes.txt", "sections.txt")
kunit_code = sum(int(f.split()[1], 16) for f in read("nm-kunit.txt")
                 if len(f.split()) == 4 and f.split()[2] in ("t", "T"))
# All of KUnit's code and data, where measured; its code only before
bytes_row("", added, sect, "guest", "prof", "tramp", added.pop("kunit", kunit_code))
# The same on x86_64_defconfig: ours (defconfig) and upstream's
# (defconfig-prof) over the same config without profiling (defconfig-base)
added_d, sect_d = read_bytes("alloc-bytes-defconfig.txt", "sections-defconfig.txt")
bytes_row("x86_64_defconfig, ", added_d, sect_d, "defconfig-base", "defconfig-prof", "defconfig",
          added_d.pop("kunit", 0))
for where, up, ours in (("", "upstream", "ours"),
                        (" (x86_64_defconfig)", "switch-upstream-defconfig", "switch-ours-defconfig")):
    sw_up, sw_ours = info[up], info[ours]
    for k in ("switch-on", "switch-off"):
        a, b = sw_up.get(k), sw_ours.get(k)
        done = a is not None and b is not None
        print("| switching all sites %s%s: at most 5 times upstream's key (ms, wall time) | - | %s | %s | %s |" % (
            k[7:], where, fmt(b, "%.1f"), fmt(None if a is None else 5 * a, "%.1f"),
            "not measured" if not done else "met" if b <= 5 * a else "not met"))
        print("| switching all sites %s%s, the goal: upstream's key (ms, wall time) | - | %s | %s | %s |" % (
            k[7:], where, fmt(b, "%.1f"), fmt(a, "%.1f"),
            "not measured" if not done else "met" if b <= a else "not met"))
print()
print("- x86_64_defconfig: %s sites, %s; upstream: %s lines of /proc/allocinfo." % (
    info["switch-ours-defconfig"].get("sites", "-"), info["switch-ours-defconfig"].get("parked", "-"),
    info["switch-upstream-defconfig"].get("tags", "-")))

print("- One site on: %s." % info["ours"].get("one-site", "-"))
print("- All sites on: %s." % info["ours"].get("all-sites", "-"))
print("- Off again: %s." % info["ours"].get("parked", "-"))
print()

# Where the instructions go: scripts/alloc_tramp/profile.sh of each state
PROFILES = [("baseline", "baseline"), ("upstream", "upstream, on"),
            ("ours-all", "ours, all on"), ("ours-one", "ours, one on"),
            ("ours-off-again", "ours, off again")]
prof = {}           # profile -> loop -> {function: instructions per op}
profile_ops = "-"
for name, _ in PROFILES:
    loop = None
    for line in read("profile-%s.txt" % name):
        m = re.match(r"# (\d+) ops, twice", line)
        if m:
            profile_ops = m[1]
            continue
        m = re.match(r"(\w+): ([0-9.]+) instructions per op", line)
        if m:
            loop = m[1]
            prof.setdefault(name, {})[loop] = {"total": float(m[2])}
            continue
        m = re.match(r" *([0-9.]+)  (\S+)$", line)
        if m and loop:
            # the same function, whatever copy of it the compiler made
            fn = re.sub(r"(\.(constprop|isra|part)\.\d+)+$", "", m[2])
            prof[name][loop][fn] = prof[name][loop].get(fn, 0) + float(m[1])
if prof:
    print("## Where the instructions go\n")
    print("`scripts/alloc_tramp/profile.sh`: QEMU runs one instruction a block and")
    print("logs each while the loops run once (warm-up and measured pass, %s ops" % profile_ops)
    print("each); instructions per op by function (copies such as `.isra.0`")
    print("counted as the function), those that differ most from the")
    print("baseline first.\n")
    for loop in ("kmalloc", "pages"):
        fns = set()
        for name, _ in PROFILES:
            fns |= set(prof.get(name, {}).get(loop, {}))
        fns.discard("total")

        def get(name, fn):
            return prof.get(name, {}).get(loop, {}).get(fn, 0.0)

        diff = {fn: max(abs(get(n, fn) - get("baseline", fn)) for n, _ in PROFILES)
                for fn in fns}
        rows = sorted((fn for fn in fns if diff[fn] >= 1), key=lambda f: (-diff[f], f))
        print("| %s: function | %s |" % (loop, " | ".join(t for _, t in PROFILES)))
        print("|---|%s" % ("---:|" * len(PROFILES)))
        for fn in rows[:14]:
            print("| `%s` | %s |" % (fn, " | ".join("%.0f" % get(n, fn) for n, _ in PROFILES)))
        print("| **all, per op** | %s |\n" % " | ".join(
            "**%s**" % fmt(prof.get(n, {}).get(loop, {}).get("total"), "%.0f")
            for n, _ in PROFILES))

print("## Size\n")
print("| kernel | .text | x baseline | all code | x baseline | vmlinux | x baseline "
      "| bzImage | x baseline |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
sizes = {}
for line in read("sizes.txt"):
    v, *n = line.split()
    sizes[v] = [int(x) for x in n]
names = {"guest": "baseline", "prof": "upstream", "tramp": "ours"}
for v in ("guest", "prof", "tramp"):
    if v not in sizes or "guest" not in sizes:
        continue
    s, b = sizes[v], sizes["guest"]
    print("| %s | %s |" % (names[v], " | ".join("%d | %.4f" % (x, x / y) for x, y in zip(s, b))))
if "guest" in sizes and "prof" in sizes and "tramp" in sizes:
    g = sizes["guest"]
    print("\n.text and all code (every executable section, .init.text too) are read from")
    print("vmlinux.o, before the link pads them.  Over the baseline, .text grows by")
    print("%+d bytes with upstream and %+d with ours; all code by %+d and %+d." % (
        sizes["prof"][0] - g[0], sizes["tramp"][0] - g[0],
        sizes["prof"][1] - g[1], sizes["tramp"][1] - g[1]))
    print("Ours adds its stubs and bodies in sections of their own; its call sites")
    print("are those of the baseline (checked by check-vmlinux-sites.sh).")


def funcs(name):
    d = collections.Counter()
    for line in read("nm-%s.txt" % name):
        f = line.split()
        if len(f) == 4 and f[2] in ("t", "T"):
            d[f[3]] += int(f[1], 16)
    return d


base, kunit = funcs("guest"), funcs("kunit")
if base:
    print("\nBy function, from the symbols of vmlinux.o:\n")
    print("| code, bytes | upstream | ours |")
    print("|---|---:|---:|")
    cells = collections.defaultdict(list)
    for v in ("prof", "tramp"):
        d = funcs(v)
        cells["grown"].append(sum(d.get(n, 0) - b for n, b in base.items()))
        cells["added"].append(sum(b for n, b in d.items() if n not in base and n not in kunit))
        cells["kunit"].append(sum(b for n, b in d.items() if n not in base and n in kunit))
    for key, label in (("grown", "the baseline's functions grow by (call sites, hooks)"),
                       ("added", "functions the baseline does not have"),
                       ("kunit", "KUnit and our KUnit suite, built in for the tests")):
        print("| %s | %+d | %+d |" % (label, cells[key][0], cells[key][1]))
    print("\nThe trampoline stubs have no symbols: they are in \"all code\" above.")
print()

print("## Profiling metadata\n")
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
print("\nOurs boots with the trampolines off: the slab extensions are only used")
print("once they are switched on, and the tags of pages are kept in")
print("`page->flags`, so page_ext is not allocated for them.\n")

print("## Switching, objtool\n")
print("- Sites: %s available after boot." % info["ours"].get("sites", "-"))
print("- Switching all sites on: %s ms, off: %s ms (median of 5, parked: a store and the "
      "tagging key)." % (fmt(info["ours"].get("enable"), "%.1f"), fmt(info["ours"].get("disable"), "%.1f")))
print("- The first switch on, from the sites as built: %s ms; patching them back as built "
      "(0 written while parked): %s ms (text_poke batches)." % (
          fmt(info["ours"].get("first-enable"), "%.1f"), fmt(info["ours"].get("unpark"), "%.1f")))
print("\n```")
print("\n".join(read("objtool.txt")))
print("```\n")
if read("objtool-defconfig.txt"):
    print("On the kernel of `make check-defconfig` (x86_64_defconfig):\n")
    print("```")
    print("\n".join(read("objtool-defconfig.txt")))
    print("```\n")

print("## Accuracy against upstream\n")

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import accuracy  # noqa: E402

# Why a line's bytes differ, where the cause is known (file:line prefix)
WHY = [
    ("mm/filemap.c:", "page cache: the two kernels' files differ in size"),
    ("mm/slub.c:", "slab pages: how full the slabs of each cache are at the dump"),
    ("fs/proc/inode.c:", "a different number of /proc inodes cached at the dump"),
    ("fs/dcache.c:", "a different number of dentries cached at the dump"),
    ("fs/inode.c:", "a different number of inodes cached at the dump"),
    ("mm/percpu", "per-CPU chunks: ours has no counters to allocate, upstream's modules have"),
    ("kernel/fork.c:", "a different number of threads (kworkers) live at the dump"),
]


def why(key, a, b):
    for prefix, text in WHY:
        if key.startswith(prefix):
            return text
    if not a:
        return "only ours has this line"
    if not b:
        return "only upstream has this line"
    return "a different amount live at the dump"


up_path, our_path = os.path.join(out, "accuracy-upstream.log"), os.path.join(out, "accuracy-ours.log")
if os.path.exists(up_path) and os.path.exists(our_path):
    r = accuracy.compare(accuracy.load(up_path), accuracy.load(our_path))
    p = lambda v: "%.1f%%" % accuracy.pct(v, r)
    print("Both booted on, the same workload (`selftests/accuracy/workload.sh`:")
    print("the test module's known allocations, 200 files in a tmpfs, a walk of")
    print("the stable file systems), then `/proc/allocinfo`, compared by")
    print("file:line.  `make check` runs it as a test.  The profilers' own memory")
    print("is left out: upstream's page_ext for its page tags (`alloc_page_ext()`),")
    print("which ours, keeping them in `page->flags`, does not allocate.\n")
    print("| | bytes | share of upstream's | target |")
    print("|---|---:|---:|---|")
    print("| live bytes, upstream | %d | 100%% | |" % r["up"])
    print("| live bytes, ours | %d | %s | |" % (r["ours"], p(r["ours"])))
    print("| at the same file:line | %d | %s | at least %.0f%%: %s |" % (
        r["line"], p(r["line"]), accuracy.LINE_MIN,
        "met" if accuracy.pct(r["line"], r) >= accuracy.LINE_MIN else "not met"))
    print("| in the same function | %d | %s | at least %.0f%%: %s |" % (
        r["func"], p(r["func"]), accuracy.FUNC_MIN,
        "met" if accuracy.pct(r["func"], r) >= accuracy.FUNC_MIN else "not met"))
    print("| tags marked accurate:no, ours | %d | | none |" % r["inaccurate"])
    print("\nEvery line whose bytes differ by more than 64 KiB:\n")
    print("| file:line | function | upstream | ours | why |")
    print("|---|---|---:|---:|---|")
    for k, fns, a, b in r["diffs"]:
        print("| %s | %s | %d | %d | %s |" % (k, fns[:40], a, b, why(k, a, b)))
    print()
else:
    print("No accuracy dump was found in this run.\n")

print("## Chart\n")
print("![overheads](BENCHMARKS.png)\n")

# The chart: x baseline of each state, both loops.
with open(os.path.join(out, "chart.dat"), "w") as f:
    for state, label in STATES:
        f.write('"%s" %s %s\n' % (CHART_LABELS[state],
                                  fmt(ratio(state, "kmalloc", "-icount"), "%.3f").replace("-", "0"),
                                  fmt(ratio(state, "pages", "-icount"), "%.3f").replace("-", "0")))
with open(os.path.join(out, "chart.gp"), "w") as f:
    f.write("""set terminal png size 1100,500 noenhanced
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
