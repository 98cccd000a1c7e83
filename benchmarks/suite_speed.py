"""Control Suite speed: steps/s of every task against its bare physics and dm-control 1.0.50.

For each task, in the same run: `Environment.step` with a fixed random-action
sequence (auto-resets included); the bare cost of the same substeps (writing the
controls and calling `mj_step(model, data, nstep)` on the same model, with
MuJoCo's per-stage timer clock paused as `Physics.step` pauses it); and
dm-control 1.0.50 in its own virtual environment (a subprocess, made by
benchmarks/reference_envs/make_dm_control_venv.sh; skipped with a note when
absent). The fraction of a step spent outside physics is 1 - bare / environment
time per step.

    python benchmarks/suite_speed.py --seconds 2
    python benchmarks/suite_speed.py --seconds 2 --suite extra   # the extra tasks

Unlimited controls (lqr's) are drawn in [-1, 1] rather than over their +-1e10
spec bounds. Quadruped escape redraws its terrain through a rendering context in
dm-control, so its dm-control measurement runs with MUJOCO_GL=egl.
"""

import csv
import datetime
import json
import os
import subprocess

from absl import app
from absl import flags
import mujoco
import numpy as np

from composer_tasks.physics import paused_profiling_clock
from suites import suite

import _timing  # benchmarks/_timing.py, beside this script

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_SECONDS = flags.DEFINE_float("seconds", 2.0, "Timed seconds per measurement.")
_TASKS = flags.DEFINE_list("tasks", None, "domain:task names (default: the tasks of --suite).")
_SUITE = flags.DEFINE_enum(
    "suite",
    "benchmarking",
    ["benchmarking", "extra"],
    "Which published task set to measure when --tasks is not given.",
)
_DM_CONTROL_PYTHON = flags.DEFINE_string(
    "dm_control_python",
    os.path.join(_ROOT, ".venvs/dm_control/bin/python"),
    "dm-control venv python.",
)
_CSV = flags.DEFINE_string(
    "csv",
    None,
    "Output CSV (default: benchmarks/results/suite_speed.csv, "
    "suite_speed_extra.csv with --suite extra).",
)
# dm-control's quadruped escape needs a rendering context at every reset.
_NEEDS_GL = {("quadruped", "escape")}


def _random_actions(spec):
    """1000 uniform actions within the spec; unlimited (+-1e10) controls in [-1, 1]."""
    low = np.where(spec.minimum <= -1e10, -1.0, spec.minimum)
    high = np.where(spec.maximum >= 1e10, 1.0, spec.maximum)
    return np.random.RandomState(0).uniform(low, high, size=(1000,) + spec.shape)


def environment_rate(domain, task, seconds):
    env = suite.load(domain, task, task_kwargs={"random": 0})
    actions = _random_actions(env.action_spec())
    env.reset()
    counter = [0]

    def step():
        env.step(actions[counter[0] % len(actions)])
        counter[0] += 1

    return _timing.rate(step, seconds)


def bare_rate(domain, task, seconds):
    env = suite.load(domain, task, task_kwargs={"random": 0})
    env.reset()
    model = env.physics.model
    data = mujoco.MjData(model)
    mujoco.mj_copyData(data, model, env.physics.data)
    nstep = env.task.physics_steps_per_control_step
    actions = _random_actions(env.action_spec())
    counter = [0]

    def step():
        data.ctrl[:] = actions[counter[0] % len(actions)]
        mujoco.mj_step(model, data, nstep)
        counter[0] += 1

    # As Physics.step runs it: without MuJoCo's per-stage timer clock.
    with paused_profiling_clock():
        return _timing.rate(step, seconds)


def dm_control_rate(domain, task, seconds):
    python = _DM_CONTROL_PYTHON.value
    if not os.path.exists(python):
        return None
    output = subprocess.run(
        [
            python,
            os.path.join(_ROOT, "benchmarks/reference_envs/speed_worker.py"),
            "dm_control",
            domain,
            task,
            "1",
            str(seconds),
            "1",
        ],
        capture_output=True,
        text=True,
        check=True,
        env=dict(os.environ, MUJOCO_GL="egl" if (domain, task) in _NEEDS_GL else "disable"),
    )
    return json.loads(output.stdout.strip().splitlines()[-1])["steps_per_second"]


def main(argv):
    del argv
    default = suite.BENCHMARKING if _SUITE.value == "benchmarking" else suite.EXTRA
    tasks = [tuple(name.split(":")) for name in _TASKS.value] if _TASKS.value else list(default)
    csv_path = _CSV.value or os.path.join(
        _ROOT,
        "benchmarks/results",
        "suite_speed.csv" if _SUITE.value == "benchmarking" else "suite_speed_extra.csv",
    )
    seconds = _SECONDS.value
    rows = []
    header = f"{'task':<28}{'ours':>9}{'bare':>9}{'outside':>9}{'dm_control':>12}{'ours/dmc':>10}"
    print(header)
    for domain, task in tasks:
        ours = environment_rate(domain, task, seconds)
        bare = bare_rate(domain, task, seconds)
        reference = dm_control_rate(domain, task, seconds)
        outside = max(0.0, 1.0 - ours / bare)
        speedup = None if reference is None else ours / reference
        rows.append(
            dict(
                task=f"{domain}:{task}",
                ours_steps_per_s=round(ours, 1),
                bare_steps_per_s=round(bare, 1),
                fraction_outside_physics=round(outside, 3),
                dm_control_steps_per_s=None if reference is None else round(reference, 1),
                speedup_vs_dm_control=None if speedup is None else round(speedup, 2),
            )
        )
        print(
            f"{domain + ':' + task:<28}{ours:>9.0f}{bare:>9.0f}{outside:>9.2f}"
            f"{'-' if reference is None else f'{reference:.0f}':>12}"
            f"{'-' if speedup is None else f'{speedup:.2f}':>10}",
            flush=True,
        )
    outside = np.array([row["fraction_outside_physics"] for row in rows])
    speedups = np.array(
        [row["speedup_vs_dm_control"] for row in rows if row["speedup_vs_dm_control"] is not None]
    )
    print(f"median fraction outside physics: {np.median(outside):.3f}")
    if len(speedups):
        print(
            f"median speed-up vs dm_control: {np.median(speedups):.2f}; "
            f"slowest task: {speedups.min():.2f}"
        )
    os.makedirs(os.path.dirname(csv_path), exist_ok=True)
    with open(csv_path, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]) + ["date", "cpus"])
        writer.writeheader()
        for row in rows:
            writer.writerow(dict(row, date=datetime.date.today().isoformat(), cpus=os.cpu_count()))


if __name__ == "__main__":
    app.run(main)
