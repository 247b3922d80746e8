#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Instructions by function, per benchmark loop, from a QEMU
"-singlestep -d exec,nochain" log.

profile-report.py VMLINUX ALLOC_BENCH_KO EXEC_LOG MODULES OPS [all]

MODULES holds /proc/modules lines.  The instructions between two of a
loop's own (kmalloc_loop, pages_loop of the module), with no other
function of the module between, are the loop's.  With "all", every
instruction of the log counts, by function, per op: for what is not a
loop, such as a switch of the trampolines."""
import bisect
import collections
import re
import subprocess
import sys


def text_syms(path):
    out = []
    for line in subprocess.run(["nm", "-n", path], capture_output=True,
                               text=True).stdout.splitlines():
        f = line.split()
        if len(f) == 3 and f[1] in "tTwW":
            out.append((int(f[0], 16), f[2]))
    return out


def module_funcs(path, base):
    """The functions of the module's .text, which comes first in its core
    text: {(start, end): name}.  Its trampoline stubs follow, unnamed."""
    out = {}
    for line in subprocess.run(["objdump", "-t", path], capture_output=True,
                               text=True).stdout.splitlines():
        f = line.split()
        if len(f) == 6 and f[2] == "F" and f[3] == ".text":
            start = base + int(f[0], 16)
            out[(start, start + int(f[4], 16))] = f[5]
    return out


vmlinux, ko, trace, modules, ops = sys.argv[1:6]
ops = int(ops)
everything = sys.argv[6:7] == ["all"]
bench = None
for line in open(modules):
    f = line.split()
    if len(f) >= 6 and f[0] == "alloc_bench":
        bench = (int(f[5], 16), int(f[1]))
syms = text_syms(vmlinux)
funcs = module_funcs(ko, bench[0]) if bench else {}
addrs = [a for a, _ in syms]
loops = {"kmalloc_loop": "kmalloc", "pages_loop": "pages"}
count = {"kmalloc": collections.Counter(), "pages": collections.Counter()}
pending = collections.Counter()
allc = collections.Counter()    # everything, by function
last = None         # the loop of the module's last function, if any
pat = re.compile(r"\[[0-9a-f]+/([0-9a-f]+)/")
for line in open(trace, errors="replace"):
    m = pat.search(line)
    if not m:
        continue
    pc = int(m.group(1), 16)
    if bench and bench[0] <= pc < bench[0] + bench[1]:
        name = next((n for (a, b), n in funcs.items() if a <= pc < b), None)
        if everything:
            allc["[alloc_bench] " + name if name else "[alloc_bench stubs]"] += 1
            continue
        if name is None:            # a trampoline stub of the module's
            pending["[alloc_bench stubs]"] += 1
            continue
        phase = loops.get(name)
        if phase and phase == last:
            count[phase].update(pending)
        if phase:
            count[phase]["[alloc_bench]"] += 1
        pending.clear()
        last = phase
        continue
    i = bisect.bisect_right(addrs, pc) - 1
    if everything:
        allc[syms[i][1] if i >= 0 else "[below vmlinux: user space]"] += 1
        continue
    pending[syms[i][1] if i >= 0 else "?"] += 1
if everything:
    print("# %d ops, everything logged" % ops)
    print("all: %.1f instructions per op" % (sum(allc.values()) / ops))
    for name, n in allc.most_common(25):
        print("%8.1f  %s" % (n / ops, name))
    sys.exit(0)
print("# %d ops, twice" % ops)
for phase, c in count.items():
    total = sum(c.values())
    # each loop runs twice: warm-up and the measured run
    print("%s: %.1f instructions per op" % (phase, total / ops / 2))
    for name, n in c.most_common(25):
        print("%8.1f  %s" % (n / ops / 2, name))
