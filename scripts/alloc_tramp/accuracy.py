#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Compare upstream's /proc/allocinfo with ours, by file:line.

Usage: accuracy.py UPSTREAM.log OURS.log
  Each log holds the "# allocinfo" lines of selftests/accuracy/workload.sh,
  less the profilers' own memory (OWN).  Prints TAP: at least 97% of
  upstream's live bytes at the same file:line in ours, at least 99% in the
  same function, and as comments every line whose bytes differ by more
  than 64 KiB.

bench-report.py imports load() and compare() for BENCHMARKS.md.
"""
import collections
import re
import sys

LINE_MIN, FUNC_MIN, SHOWN = 97.0, 99.0, 64 * 1024
# The profilers' own memory, not the workload's: upstream 6.12 keeps the
# tags of pages in page_ext, which alloc_page_ext() allocates at boot;
# ours keeps them in page->flags and has no such allocation.
OWN = {"alloc_page_ext"}
ROW = re.compile(r"# allocinfo +(\d+) +(\d+) (\S+):(\d+) (?:\[\S+\] )?func:(\S+)( accurate:no)?")


def norm(path):
    """A path relative to the source tree, or to the test module's folder."""
    if "linux-source-6.12/" in path:
        return path.split("linux-source-6.12/", 1)[1]
    m = re.search(r"modules-src/[^/]+/(.*)", path)
    return m[1] if m else path


def load(path):
    """[(bytes, calls, file, line, func, accurate)] of one dump."""
    rows = []
    with open(path, errors="replace") as f:
        for text in f:
            m = ROW.search(text)
            if m and m[5] not in OWN:
                rows.append((int(m[1]), int(m[2]), norm(m[3]), int(m[4]), m[5], not m[6]))
    return rows


def compare(up_rows, our_rows):
    """Shares of upstream's live bytes that ours puts at the same line, function."""
    def by(rows, key):
        d = collections.Counter()
        for b, c, f, ln, fn, acc in rows:
            d[key(f, ln, fn)] += b
        return d

    line = lambda f, ln, fn: "%s:%d" % (f, ln)
    func = lambda f, ln, fn: "%s %s" % (f, fn)
    up, ours = by(up_rows, line), by(our_rows, line)
    fu, fo = by(up_rows, func), by(our_rows, func)
    total = sum(up.values())
    funcs = collections.defaultdict(set)
    for b, c, f, ln, fn, acc in up_rows + our_rows:
        funcs[line(f, ln, fn)].add(fn)
    diffs = sorted((k for k in set(up) | set(ours) if abs(up[k] - ours[k]) > SHOWN),
                   key=lambda k: -abs(up[k] - ours[k]))
    return {
        "up": total,
        "ours": sum(ours.values()),
        "line": sum(min(v, ours[k]) for k, v in up.items()),
        "func": sum(min(v, fo[k]) for k, v in fu.items()),
        "tags": (len(up_rows), len(our_rows)),
        "inaccurate": sum(1 for r in our_rows if not r[5]),
        "diffs": [(k, " ".join(sorted(funcs[k])), up[k], ours[k]) for k in diffs],
    }


def pct(part, r):
    return 100.0 * part / max(r["up"], 1)


def main():
    r = compare(load(sys.argv[1]), load(sys.argv[2]))
    n = 0

    def ok(cond, what):
        nonlocal n
        n += 1
        print("%sok %d - %s" % ("" if cond else "not ", n, what))

    ok(min(r["tags"]) > 500 and r["up"] > 10 << 20,
       "both dumps: %d and %d tags, %d and %d live bytes" %
       (r["tags"] + (r["up"], r["ours"])))
    ok(pct(r["line"], r) >= LINE_MIN, "%.1f%% of upstream's live bytes at the same file:line"
       " (at least %.0f%%)" % (pct(r["line"], r), LINE_MIN))
    ok(pct(r["func"], r) >= FUNC_MIN, "%.1f%% in the same function (at least %.0f%%)" %
       (pct(r["func"], r), FUNC_MIN))
    ok(r["inaccurate"] == 0, "booted on, no tag of ours is marked accurate:no (%d)" %
       r["inaccurate"])
    for k, fns, a, b in r["diffs"]:
        print("# %-40s %-30s upstream %10d ours %10d" % (k, fns[:30], a, b))
    print("1..%d" % n)


if __name__ == "__main__":
    main()
