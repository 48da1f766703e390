#!/usr/bin/env python3
"""Writes a results.json as the committed reference run: compact JSON, times rounded to 4
significant digits (their own intervals are wider than that) and other numbers to 5, each
benchmark's memory series thinned to at most 9 points, and the per-benchmark copy of the
machine's hardware-counter reason left out (the machine record keeps it). Every field a
command reads stays, so `dodbench claims`, `report` and `compare` read the file as any run.

Usage: scripts/trim-reference-run.py target/dodbench/results.json docs/reference/results.json
"""
import json
import math
import sys


def rounded(x, digits):
    """`x` with every float rounded to `digits` significant digits (whole ones as integers)."""
    if isinstance(x, float):
        if x == 0 or not math.isfinite(x):
            return x
        y = round(x, digits - 1 - int(math.floor(math.log10(abs(x)))))
        return int(y) if y == int(y) and abs(y) < 2**53 else y
    if isinstance(x, list):
        return [rounded(v, digits) for v in x]
    if isinstance(x, dict):
        return {k: rounded(v, digits) for k, v in x.items()}
    return x


def main(src, dst):
    run = json.load(open(src))
    for b in run["benchmarks"]:
        memory = b.get("memory")
        if memory and len(memory.get("series") or []) > 9:
            series = memory["series"]
            step = math.ceil((len(series) - 1) / 8)
            memory["series"] = series[::step] + ([series[-1]] if (len(series) - 1) % step else [])
        b["hw_reason"] = None
        for key in ("samples_ns_per_op", "rounds", "ns_per_op", "latency", "ops_per_s"):
            if b.get(key) is not None:
                b[key] = rounded(b[key], 4)
    text = json.dumps(rounded(run, 5), separators=(",", ":"))
    with open(dst, "w") as f:
        f.write(text + "\n")
    print(f"{dst}: {len(text):,} bytes, {len(run['benchmarks']):,} benchmarks")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().splitlines()[-1])
    main(sys.argv[1], sys.argv[2])
