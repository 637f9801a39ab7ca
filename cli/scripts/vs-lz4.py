#!/usr/bin/env python3
"""End-to-end speed of `lz4-simd` against the installed `lz4`, file in, file out, checksums on.

Usage: vs-lz4.py LZ4_SIMD_BINARY INPUT_FILE [ROUNDS]

Each round runs every case with both tools, alternating which goes first, so that both see the
same machine state (and the file system's dirty data is synced before every run, untimed); the ratio reported is lz4's median time over ours (above 1: we are faster).
Outputs go to a scratch directory beside the input and are checked to decode to the input.
"""
import os
import statistics
import subprocess
import sys
import time

ours, source = sys.argv[1], os.path.abspath(sys.argv[2])
rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 5
work = os.path.join(os.path.dirname(source), "vs-lz4")
os.makedirs(work, exist_ok=True)
size = os.path.getsize(source)

def run(argv):
    # Each run starts with no dirty data on the file system: otherwise the `fsync` lz4-simd
    # makes (lz4 makes none) would also wait for the other tool's output of the run before, as
    # an ext4 journal commit writes out other files' data too.
    os.sync()
    start = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start

# The frames to decompress: each tool decompresses its own -1 output.
for name, tool in (("ours", ours), ("lz4", "lz4")):
    subprocess.run([tool, "-q", "-f", "-1", source, f"{work}/{name}.lz4"], check=True)

cases = {
    "-1": lambda tool, name: [tool, "-q", "-f", "-1", source, f"{work}/{name}-c1.lz4"],
    "-9": lambda tool, name: [tool, "-q", "-f", "-9", source, f"{work}/{name}-c9.lz4"],
    "-d": lambda tool, name: [tool, "-q", "-f", "-d", f"{work}/{name}.lz4", f"{work}/{name}.out"],
    # The same, with lz4's output made durable too (`sync FILE` after it): what lz4-simd's
    # output is when it exits (written, fsync'd, renamed, directory fsync'd).
    "-d, durable": lambda tool, name: (
        [tool, "-q", "-f", "-d", f"{work}/{name}.lz4", f"{work}/{name}.out"]
        if tool != "lz4"
        else ["sh", "-c", f'lz4 -q -f -d "{work}/{name}.lz4" "{work}/{name}.out" && sync "{work}/{name}.out"']
    ),
    # The same without a file to make durable: lz4-simd fsyncs its outputs, lz4 does not.
    "-d >/dev/null": lambda tool, name: [tool, "-q", "-f", "-d", f"{work}/{name}.lz4", "/dev/null"],
    "-1 -T1": lambda tool, name: [tool, "-q", "-f", "-1"] + (["-T1"] if tool != "lz4" else [])
    + [source, f"{work}/{name}-t1.lz4"],
}
times = {case: {"ours": [], "lz4": []} for case in cases}
for r in range(rounds):
    for case, argv in cases.items():
        order = [("ours", ours), ("lz4", "lz4")]
        if r % 2:
            order.reverse()
        for name, tool in order:
            times[case][name].append(run(argv(tool, name)))
for name in ("ours", "lz4"):
    with open(f"{work}/{name}.out", "rb") as a, open(source, "rb") as b:
        assert a.read() == b.read(), f"{name}: decoded output differs"
print(f"input {size / 1e6:.1f} MB, {rounds} rounds, median seconds and MB/s (of the input)")
for case in cases:
    o, l = statistics.median(times[case]["ours"]), statistics.median(times[case]["lz4"])
    print(f"{case}: lz4-simd {o:.3f} s ({size / o / 1e6:.0f} MB/s), lz4 {l:.3f} s "
          f"({size / l / 1e6:.0f} MB/s), ratio {l / o:.2f}")
