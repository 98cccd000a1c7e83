"""What the benchmark scripts share: a timed loop and the measure-table writer.

The scripts run as `python benchmarks/NAME.py`, so this folder is on their path.
(benchmarks/reference_envs/ workers run in other virtual environments and keep
their own copies: they import nothing of this project.)
"""

import csv
import os
import platform
import time


def rate(step, seconds, steps_per_call=1, clock=time.perf_counter):
    """Calls `step()` once to warm up, then for `seconds` of `clock`; returns steps per
    second of that clock (`time.process_time`: per CPU second of this process, which
    other processes' load on a shared machine does not inflate)."""
    step()
    calls, start = 0, clock()
    while True:
        step()
        calls += 1
        elapsed = clock() - start
        if elapsed >= seconds:
            return calls * steps_per_call / elapsed


def write_measures(path, rows):
    """Writes (measure, value) rows to a CSV with the machine and its core count."""
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["measure", "value", "machine", "cpus"])
        for name, value in rows:
            writer.writerow([name, value, platform.machine(), os.cpu_count()])
