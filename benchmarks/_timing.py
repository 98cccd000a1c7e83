"""What the benchmark scripts share: a timed loop and the measure-table writer.

The scripts run as `python benchmarks/NAME.py`, so this folder is on their path.
(benchmarks/reference_envs/ workers run in other virtual environments and keep
their own copies: they import nothing of this project.)
"""

import csv
import os
import platform
import time


def rate(step, seconds, steps_per_call=1):
    """Calls `step()` once to warm up, then for `seconds`; returns steps per second."""
    step()
    calls, start = 0, time.perf_counter()
    while True:
        step()
        calls += 1
        elapsed = time.perf_counter() - start
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
