"""Hand tasks' speed: control steps per second including resets, single and batched.

For each of the D4PG paper's hand tasks (`suites.hand`), random actions inside
the action spec drive (a) one environment and (b) a batch of `--num_envs` copies
(`hand.load_batch`, `mujoco.batch` on `--threads` threads), for `--seconds` of
wall-clock each; every episode end is followed by a reset (the batch resets only
the copies that ended), so the rates include the resets' cost. Medians over
`--repeats` alternating runs; the machine's load average is printed beside them.

    python benchmarks/hand_speed.py --seconds 10 --repeats 3 --num_envs 64

Writes a table to stdout and `--out` (CSV).
"""

import csv
import os
import time

from absl import app
from absl import flags
import numpy as np

from suites import hand

_SECONDS = flags.DEFINE_float("seconds", 10.0, "Timed seconds per measurement.")
_REPEATS = flags.DEFINE_integer("repeats", 3, "Alternating repetitions; medians are reported.")
_NUM_ENVS = flags.DEFINE_integer("num_envs", 64, "Copies in the batched measurement.")
_THREADS = flags.DEFINE_integer("threads", 0, "Batch threads (0: one per core).")
_OUT = flags.DEFINE_string("out", "benchmarks/results/hand_speed.csv", "CSV of the table.")


def _single_rate(name, seconds, rng):
    env = hand.load(name, seed=0)
    spec = env.action_spec()
    timestep = env.reset()
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        timestep = (
            env.reset() if timestep.last() else env.step(rng.uniform(spec.minimum, spec.maximum))
        )
        steps += 1
    return steps / (time.perf_counter() - start)


def _batch_rate(name, num_envs, threads, seconds, rng):
    batch = hand.load_batch(name, num_envs, seed=0, num_threads=threads)
    spec = batch.action_spec()
    batch.reset()
    steps, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        batch.step(rng.uniform(spec.minimum, spec.maximum, size=(num_envs, *spec.shape)))
        steps += num_envs
    return steps / (time.perf_counter() - start)


def main(argv):
    del argv
    rng = np.random.RandomState(0)
    rows = []
    for name in hand.ALL:
        single, batched = [], []
        for _ in range(_REPEATS.value):
            single.append(_single_rate(name, _SECONDS.value, rng))
            batched.append(_batch_rate(name, _NUM_ENVS.value, _THREADS.value, _SECONDS.value, rng))
        rows.append(
            {
                "task": name,
                "single_steps_per_s": round(float(np.median(single)), 1),
                f"batch{_NUM_ENVS.value}_steps_per_s": round(float(np.median(batched)), 1),
                "load_average_1min": round(os.getloadavg()[0], 2),
            }
        )
        print(rows[-1], flush=True)
    os.makedirs(os.path.dirname(_OUT.value) or ".", exist_ok=True)
    with open(_OUT.value, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


if __name__ == "__main__":
    app.run(main)
