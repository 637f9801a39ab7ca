#!/usr/bin/env python3
"""`lz4-simd` against another `lz4` (1.10: the reference command line) at one and two threads,
output to /dev/null through -c and to a file, every case in turn in each round.

Usage: threads-vs-lz4.py LZ4_SIMD_BINARY LZ4_BINARY INPUT_FILE [ROUNDS]

INPUT_FILE.lz4 is written first by LZ4_BINARY (-1) for the -d cases. Prints each case's median
wall time and its runs, then the ratios: -T2 over -T1 for each tool, and `lz4`'s median time over
ours at the same options (above 1: we are faster).
"""
import os
import statistics
import subprocess
import sys
import time

ours, lz4, source = sys.argv[1], sys.argv[2], os.path.abspath(sys.argv[3])
rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 5
framed = source + ".lz4"
if not os.path.exists(framed):
    subprocess.run([lz4, "-q", "-f", source, framed], check=True)
out_dir = os.path.dirname(source)

cases = []
for name, binary in (("ours", ours), ("lz4", lz4)):
    for args in (["-1", "-T1"], ["-1", "-T2"], ["-9", "-T2"]):
        cases.append((f"{name} {' '.join(args)}", [binary, *args, "-c", source]))
    for threads in ("-T1", "-T2"):
        cases.append((f"{name} -d {threads}", [binary, "-d", threads, "-c", framed]))
    for args in (["-1", "-T1"], ["-1", "-T2"], ["-9", "-T2"], ["-d", "-T1"], ["-d", "-T2"]):
        cases.append((
            f"{name} {' '.join(args)} file",
            [binary, *args, "-f", "-q", framed if "-d" in args else source, f"{out_dir}/out-{name}"],
        ))

times = {name: [] for name, _ in cases}
for _ in range(rounds):
    for name, command in cases:
        start = time.perf_counter()
        subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        times[name].append(time.perf_counter() - start)
median = {name: statistics.median(runs) for name, runs in times.items()}
for name, runs in times.items():
    print(f"{name:18} {median[name]:.3f} s  ({' '.join(f'{t:.3f}' for t in runs)})")
for tool in ("ours", "lz4"):
    for to in ("", " file"):
        print(f"{tool}{to}: -1 -T2 over -T1 "
              f"{median[f'{tool} -1 -T1{to}'] / median[f'{tool} -1 -T2{to}']:.2f}x, "
              f"-d -T2 over -T1 {median[f'{tool} -d -T1{to}'] / median[f'{tool} -d -T2{to}']:.2f}x")
for case in ("-1 -T1", "-1 -T2", "-9 -T2", "-d -T1", "-d -T2"):
    for to in ("", " file"):
        print(f"lz4 over ours, {case}{to}: "
              f"{median[f'lz4 {case}{to}'] / median[f'ours {case}{to}']:.2f}")
