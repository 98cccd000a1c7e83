"""Locomotion speed: steps/s including resets, and reset time, against dm-control.

The CMU humanoid (position-controlled, V2020) runs with random actions in the
walls and gaps corridors (`cmu_humanoid_run_walls`, `cmu_humanoid_run_gaps`)
and over a mixed parkour course (`cmu_humanoid_parkour_mixed`). Every episode
end is followed by a reset, which lays out a new corridor or course; steps/s
count every `step` over a timed span, so they include the resets' cost.
Reset time is measured on its own over repeated resets (each a new layout).

dm-control 1.0.50's equivalent environments (its `basic_cmu_2019` walls and
gaps corridors with the V2020 CMU humanoid) run in their own virtual
environment as a subprocess (benchmarks/reference_envs/locomotion_worker.py,
venv from benchmarks/reference_envs/make_dm_control_venv.sh), alternating with
ours in the same run. Neither side renders (dm_control's task enables the
egocentric camera; the worker switches it off). dm_control has no parkour
course, so that row has no reference.

    python benchmarks/locomotion_speed.py --seconds 10 --resets 50 --repeats 3

`--set published` measures instead the environments of Heess et al. 2017 and
Liang et al. 2018 with their exteroception on: humanoid flagrun harder on the
obstacle field (15 x 11 height map) and the planar walker's mixed parkour
course (50 terrain and platform heights), each single and as a batch of
`--batch` copies (`locomotion.load_batch`), steps/s including resets (the batch
resets a copy on the step after its last; copy steps count), plus the median
reset time of the single environment (each reset a new course or field):

    python benchmarks/locomotion_speed.py --set published --seconds 10 --resets 50 --repeats 3
"""

import csv
import datetime
import json
import os
import platform
import subprocess
import sys
import time

from absl import app
from absl import flags
import numpy as np

from suites import locomotion

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# (our registry name, the dm_control worker's course or None).
_ENVIRONMENTS = (
    ("cmu_humanoid_run_walls", "walls"),
    ("cmu_humanoid_run_gaps", "gaps"),
    ("cmu_humanoid_parkour_mixed", None),
)
# Environments of `--set published`.
_PUBLISHED_ENVIRONMENTS = ("humanoid_flagrun_harder_terrain", "walker_parkour_mixed")
_TARGET_SPEEDUP = 5.0
_TARGET_RESET_MS = 5.0

_SET = flags.DEFINE_enum(
    "set",
    "cmu",
    ["cmu", "published"],
    "cmu: CMU humanoid against dm-control; published: issue 20's set.",
)
_BATCH = flags.DEFINE_integer("batch", 64, "Copies of the batched rows of --set published.")

_SECONDS = flags.DEFINE_float("seconds", 10.0, "Timed seconds of stepping per measurement.")
_RESETS = flags.DEFINE_integer("resets", 50, "Resets timed per measurement.")
_REPEATS = flags.DEFINE_integer("repeats", 3, "Alternating repetitions; medians are reported.")
_SEED = flags.DEFINE_integer("seed", 0, "Seed of the environments and the random actions.")
_DM_CONTROL_PYTHON = flags.DEFINE_string(
    "dm_control_python",
    os.path.join(_ROOT, ".venvs/dm_control/bin/python"),
    "Python of the dm-control 1.0.50 venv (the reference is skipped if it is absent).",
)
_CSV = flags.DEFINE_string(
    "csv",
    None,
    "Output CSV (default benchmarks/results/locomotion_speed.csv, or "
    "locomotion_speed_published.csv with --set published).",
)


def measure_ours(name, seconds, resets, seed):
    """Steps/s including resets, reset times (ms) and episode count of `name`."""
    env = locomotion.load(name, seed=seed)
    spec = env.action_spec()
    actions = np.random.RandomState(seed).uniform(
        spec.minimum, spec.maximum, size=(1000,) + spec.shape
    )
    env.reset()
    reset_times, reset_cpu_times = [], []
    for _ in range(resets):
        start, start_cpu = time.perf_counter(), time.process_time()
        env.reset()
        reset_times.append(time.perf_counter() - start)
        reset_cpu_times.append(time.process_time() - start_cpu)
    env.reset()
    steps = episodes = 0
    start, start_cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        timestep = env.step(actions[steps % len(actions)])
        steps += 1
        if timestep.last():
            env.reset()
            episodes += 1
    elapsed, cpu = time.perf_counter() - start, time.process_time() - start_cpu
    return {
        "steps_per_second": steps / elapsed,
        "steps_per_cpu_second": steps / cpu,
        "reset_ms_mean": 1e3 * float(np.mean(reset_times)),
        "reset_ms_median": 1e3 * float(np.median(reset_times)),
        "reset_cpu_ms_median": 1e3 * float(np.median(reset_cpu_times)),
        "episodes": episodes,
        "steps": steps,
    }


def measure_dm_control(python, course, seconds, resets, seed):
    """The worker's result dict, or None when the reference venv is absent."""
    if course is None or not os.path.exists(python):
        return None
    output = subprocess.run(
        [
            python,
            os.path.join(_ROOT, "benchmarks/reference_envs/locomotion_worker.py"),
            course,
            str(seconds),
            str(resets),
            str(seed),
        ],
        capture_output=True,
        text=True,
        check=True,
        env=dict(os.environ, MUJOCO_GL="disable"),
    )
    return json.loads(output.stdout.strip().splitlines()[-1])


def measure_batch(name, num_envs, seconds, seed):
    """Copy steps/s including resets of `num_envs` batched copies of `name`."""
    batch = locomotion.load_batch(name, num_envs, seed=seed)
    spec = batch.action_spec()
    actions = np.random.RandomState(seed).uniform(
        spec.minimum, spec.maximum, size=(100, num_envs) + spec.shape
    )
    batch.reset()
    steps = resets = 0
    start, start_cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        timestep = batch.step(actions[steps % len(actions)])
        resets += int(np.count_nonzero(timestep.first()))
        steps += 1
    elapsed, cpu = time.perf_counter() - start, time.process_time() - start_cpu
    batch.close()
    return {
        "steps_per_second": steps * num_envs / elapsed,
        "steps_per_cpu_second": steps * num_envs / cpu,
        "episodes": resets,
        "steps": steps * num_envs,
    }


def run_published(seconds, resets, seed, repeats, num_envs, path):
    """The `--set published` table; writes `path`."""
    rows = []
    print(
        "wall-clock rates and times, then the same per CPU second of this process "
        "(steadier on a shared machine)"
    )
    print(
        f"{'environment':<34}{'single/s':>10}{'batch/s':>10}{'N':>5}{'reset ms':>10}"
        f"{'single/cpu s':>14}{'batch/cpu s':>13}{'reset cpu ms':>14}{'eps':>6}{'batch eps':>11}"
    )
    for name in _PUBLISHED_ENVIRONMENTS:
        single, batched = [], []
        for _ in range(repeats):
            single.append(measure_ours(name, seconds, resets, seed))
            batched.append(measure_batch(name, num_envs, seconds, seed))
        row = {
            "environment": name,
            "single_steps_per_second": _median(single, "steps_per_second"),
            "batch_steps_per_second": _median(batched, "steps_per_second"),
            "num_envs": num_envs,
            "reset_ms": _median(single, "reset_ms_median"),
            "single_steps_per_cpu_second": _median(single, "steps_per_cpu_second"),
            "batch_steps_per_cpu_second": _median(batched, "steps_per_cpu_second"),
            "reset_cpu_ms": _median(single, "reset_cpu_ms_median"),
            "single_episodes": _median(single, "episodes"),
            "batch_episodes": _median(batched, "episodes"),
        }
        rows.append(row)
        print(
            f"{name:<34}{_format(row['single_steps_per_second']):>10}"
            f"{_format(row['batch_steps_per_second']):>10}{num_envs:>5}"
            f"{_format(row['reset_ms'], 2):>10}"
            f"{_format(row['single_steps_per_cpu_second']):>14}"
            f"{_format(row['batch_steps_per_cpu_second']):>13}"
            f"{_format(row['reset_cpu_ms'], 2):>14}{_format(row['single_episodes']):>6}"
            f"{_format(row['batch_episodes']):>11}",
            flush=True,
        )
    print(f"target: reset with a new course <= {_TARGET_RESET_MS:g} ms")
    _write_csv(path, rows, seconds, resets, repeats)


def _write_csv(path, rows, seconds, resets, repeats):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", newline="") as handle:
        writer = csv.DictWriter(
            handle, fieldnames=list(rows[0]) + ["seconds", "resets", "repeats", "date", "machine"]
        )
        writer.writeheader()
        for row in rows:
            writer.writerow(
                dict(
                    row,
                    seconds=seconds,
                    resets=resets,
                    repeats=repeats,
                    date=datetime.date.today().isoformat(),
                    machine=f"{platform.machine()} x{os.cpu_count()}",
                )
            )
    print(f"wrote {path}", file=sys.stderr)


def _median(results, key):
    values = [result[key] for result in results if result is not None]
    return float(np.median(values)) if values else None


def _format(value, digits=0):
    return "-" if value is None else f"{value:.{digits}f}"


def main(argv):
    del argv
    seconds, resets, seed = _SECONDS.value, _RESETS.value, _SEED.value
    results = os.path.join(_ROOT, "benchmarks/results")
    if _SET.value == "published":
        run_published(
            seconds,
            resets,
            seed,
            _REPEATS.value,
            _BATCH.value,
            _CSV.value or os.path.join(results, "locomotion_speed_published.csv"),
        )
        return
    rows = []
    header = (
        f"{'environment':<28}{'ours steps/s':>14}{'dm steps/s':>12}{'speedup':>9}"
        f"{'ours reset ms':>15}{'dm reset ms':>13}{'ours eps':>10}{'dm eps':>8}"
    )
    print(header)
    for name, course in _ENVIRONMENTS:
        ours, reference = [], []
        for _ in range(_REPEATS.value):
            ours.append(measure_ours(name, seconds, resets, seed))
            reference.append(
                measure_dm_control(_DM_CONTROL_PYTHON.value, course, seconds, resets, seed)
            )
        row = {
            "environment": name,
            "ours_steps_per_second": _median(ours, "steps_per_second"),
            "dm_control_steps_per_second": _median(reference, "steps_per_second"),
            "ours_reset_ms": _median(ours, "reset_ms_median"),
            "dm_control_reset_ms": _median(reference, "reset_ms_median"),
            "ours_episodes": _median(ours, "episodes"),
            "dm_control_episodes": _median(reference, "episodes"),
        }
        speedup = (
            None
            if row["dm_control_steps_per_second"] is None
            else row["ours_steps_per_second"] / row["dm_control_steps_per_second"]
        )
        row["speedup"] = speedup
        rows.append(row)
        print(
            f"{name:<28}{_format(row['ours_steps_per_second']):>14}"
            f"{_format(row['dm_control_steps_per_second']):>12}{_format(speedup, 1):>9}"
            f"{_format(row['ours_reset_ms'], 2):>15}{_format(row['dm_control_reset_ms'], 1):>13}"
            f"{_format(row['ours_episodes']):>10}{_format(row['dm_control_episodes']):>8}",
            flush=True,
        )
    print(
        f"targets: speedup >= {_TARGET_SPEEDUP:g}x including resets, our resets <= "
        f"{_TARGET_RESET_MS:g} ms"
    )
    _write_csv(
        _CSV.value or os.path.join(results, "locomotion_speed.csv"),
        rows,
        seconds,
        resets,
        _REPEATS.value,
    )


if __name__ == "__main__":
    app.run(main)
