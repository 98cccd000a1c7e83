"""Soccer speed: BoxHead matches' steps/s including resets, against dm-control.

`soccer.load(team_size, time_limit)` (BoxHead, episodes ending at goals or the
time limit, 45 s by default) steps with uniformly random per-agent actions until at
least `--seconds` have passed and `--min_episodes` episodes have ended; every
episode end is followed by a reset (a new pitch size, recompiled, and new
placements), so steps/s include the resets' cost. dm-control 1.0.50's `soccer.load` runs the same way in
its own virtual environment as a subprocess (benchmarks/reference_envs/soccer_worker.py,
venv from benchmarks/reference_envs/make_dm_control_venv.sh), alternating with ours
in the same run. Rates are per wall-clock second and per CPU second of the process
(steadier on a shared machine); the ratio is taken on CPU seconds.

    python benchmarks/soccer_throughput.py --team_size 2 --seconds 10 --min_episodes 1 --repeats 3
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

from suites import soccer

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_TARGET_SPEEDUP = 5.0

_TEAM_SIZE = flags.DEFINE_integer("team_size", 2, "Players per team.")
_SECONDS = flags.DEFINE_float("seconds", 10.0, "Least timed seconds of stepping per measurement.")
_MIN_EPISODES = flags.DEFINE_integer("min_episodes", 1, "Least episode ends per measurement.")
_TIME_LIMIT = flags.DEFINE_float("time_limit", 45.0, "Episode length (s), dm_control's default.")
_REPEATS = flags.DEFINE_integer("repeats", 3, "Alternating repetitions; medians are reported.")
_SEED = flags.DEFINE_integer("seed", 0, "Seed of the environments and the random actions.")
_DM_CONTROL_PYTHON = flags.DEFINE_string(
    "dm_control_python",
    os.path.join(_ROOT, ".venvs/dm_control/bin/python"),
    "Python of the dm-control 1.0.50 venv (the reference is skipped if it is absent).",
)
_CSV = flags.DEFINE_string(
    "csv", os.path.join(_ROOT, "benchmarks/results/soccer_throughput.csv"), "Output CSV."
)


def measure_ours(team_size, seconds, seed, time_limit, min_episodes):
    """Steps/s (wall-clock and CPU) including resets, and the episodes that ended."""
    env = soccer.load(team_size, time_limit=time_limit, random_state=seed)
    specs = env.action_spec()
    random_state = np.random.RandomState(seed)
    actions = [
        [random_state.uniform(spec.minimum, spec.maximum) for spec in specs] for _ in range(1000)
    ]
    env.reset()
    env.step(actions[0])
    steps = episodes = 0
    start, start_cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds or episodes < min_episodes:
        timestep = env.step(actions[steps % len(actions)])
        steps += 1
        if timestep.last():
            env.reset()
            episodes += 1
    elapsed, cpu = time.perf_counter() - start, time.process_time() - start_cpu
    return {
        "steps_per_second": steps / elapsed,
        "steps_per_cpu_second": steps / cpu,
        "episodes": episodes,
        "steps": steps,
    }


def measure_dm_control(python, team_size, seconds, seed, time_limit, min_episodes):
    """The worker's result dict, or None when the reference venv is absent."""
    if not os.path.exists(python):
        return None
    output = subprocess.run(
        [
            python,
            os.path.join(_ROOT, "benchmarks/reference_envs/soccer_worker.py"),
            str(team_size),
            str(seconds),
            str(seed),
            str(time_limit),
            str(min_episodes),
        ],
        capture_output=True,
        text=True,
        check=True,
        env=dict(os.environ, MUJOCO_GL="disable"),
    )
    return json.loads(output.stdout.strip().splitlines()[-1])


def _median(results, key):
    values = [result[key] for result in results if result is not None]
    return float(np.median(values)) if values else None


def main(argv):
    del argv
    team_size, seconds, seed = _TEAM_SIZE.value, _SECONDS.value, _SEED.value
    episode_options = (_TIME_LIMIT.value, _MIN_EPISODES.value)
    ours, theirs = [], []
    for _ in range(_REPEATS.value):
        ours.append(measure_ours(team_size, seconds, seed, *episode_options))
        theirs.append(
            measure_dm_control(_DM_CONTROL_PYTHON.value, team_size, seconds, seed, *episode_options)
        )
    row = {
        "environment": f"soccer boxhead {team_size}v{team_size}",
        "steps_per_second": _median(ours, "steps_per_second"),
        "steps_per_cpu_second": _median(ours, "steps_per_cpu_second"),
        "episodes": _median(ours, "episodes"),
        "dm_control_steps_per_second": _median(theirs, "steps_per_second"),
        "dm_control_steps_per_cpu_second": _median(theirs, "steps_per_cpu_second"),
        "dm_control_episodes": _median(theirs, "episodes"),
    }
    ratios = [
        mine["steps_per_cpu_second"] / reference["steps_per_cpu_second"]
        for mine, reference in zip(ours, theirs)
        if reference is not None
    ]
    row["speedup_cpu"] = float(np.median(ratios)) if ratios else None
    print(
        f"{'environment':<24}{'ours/s':>9}{'ours/cpu s':>12}{'dm/s':>9}{'dm/cpu s':>10}"
        f"{'x (cpu)':>9}{'eps':>6}{'dm eps':>8}"
    )
    print(
        f"{row['environment']:<24}{_format(row['steps_per_second']):>9}"
        f"{_format(row['steps_per_cpu_second']):>12}{_format(row['dm_control_steps_per_second']):>9}"
        f"{_format(row['dm_control_steps_per_cpu_second']):>10}{_format(row['speedup_cpu'], 2):>9}"
        f"{_format(row['episodes']):>6}{_format(row['dm_control_episodes']):>8}"
    )
    print(
        f"target: >= {_TARGET_SPEEDUP:g}x dm-control's steps per CPU second "
        f"(per-repeat ratios {[round(ratio, 2) for ratio in ratios]})"
    )
    path = _CSV.value
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", newline="") as handle:
        writer = csv.DictWriter(
            handle,
            fieldnames=list(row)
            + ["seconds", "min_episodes", "time_limit", "repeats", "date", "machine"],
        )
        writer.writeheader()
        writer.writerow(
            dict(
                row,
                seconds=seconds,
                min_episodes=_MIN_EPISODES.value,
                time_limit=_TIME_LIMIT.value,
                repeats=_REPEATS.value,
                date=datetime.date.today().isoformat(),
                machine=f"{platform.machine()} x{os.cpu_count()}",
            )
        )
    print(f"wrote {path}", file=sys.stderr)


def _format(value, digits=0):
    return "-" if value is None else f"{value:.{digits}f}"


if __name__ == "__main__":
    app.run(main)
