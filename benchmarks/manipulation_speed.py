"""Manipulation speed: steps/s including resets, reset time and 84x84 frames/s, against dm-control.

Each environment runs with uniformly random actions; every episode end (250
steps, 10 s) is followed by a reset that places new props, so steps/s include
the resets' cost. Reset time is measured on its own over repeated resets. For
`lift_brick_vision` every step renders the 84x84 `front_close` camera: its
steps/s are the vision observation's frames/s (physics included on both sides).

dm-control 1.0.50 runs the same environments by name in its own virtual
environment as a subprocess (benchmarks/reference_envs/manipulation_worker.py),
alternating with ours in the same run; medians over the repeats are reported.

Second table (features environments): where the time of one control step goes.
Each side times `--split_steps` control steps of one episode (random actions, no
reset), saving each step's integration state; it then restores every state and
times the 20 `mj_step` calls of that control step alone on the raw
`MjModel`/`MjData` (ours: MuJoCo 4.0; dm-control: its MuJoCo 3.x, worker
benchmarks/reference_envs/manipulation_split_worker.py). "engine" is that time,
"python" the rest of `env.step` (actions, observations, reward, extra
`mj_forward`s). The best speed-up any Python overhead on our side could give is
dm-control's step time over our engine time ("bound"); with resets, one reset per
250 steps is added to both.

    python benchmarks/manipulation_speed.py --seconds 10 --resets 20 --repeats 3 \
        --dm_control_python .venvs/dm_control/bin/python
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
import mujoco
import numpy as np

from suites import manipulation

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_ENVIRONMENTS = ("lift_brick_features", "stack_3_bricks_features", "lift_brick_vision")
# Targets of the issue: >= 5x steps/s including resets, resets <= 20 ms, >= 2x frames/s.
_TARGET_SPEEDUP = 5.0
_TARGET_VISION_SPEEDUP = 2.0
_TARGET_RESET_MS = 20.0

_SECONDS = flags.DEFINE_float("seconds", 10.0, "Timed seconds of stepping per measurement.")
_RESETS = flags.DEFINE_integer("resets", 20, "Resets timed per measurement.")
_REPEATS = flags.DEFINE_integer("repeats", 3, "Alternating repetitions; medians are reported.")
_SEED = flags.DEFINE_integer("seed", 0, "Seed of the environments and the random actions.")
_DM_CONTROL_PYTHON = flags.DEFINE_string(
    "dm_control_python",
    os.path.join(_ROOT, ".venvs/dm_control/bin/python"),
    "Python of the dm-control 1.0.50 venv (the reference is skipped if it is absent).",
)
_SPLIT_STEPS = flags.DEFINE_integer(
    "split_steps", 200, "Control steps timed for the engine/Python split (< 250).", lower_bound=1
)
_CSV = flags.DEFINE_string(
    "csv", os.path.join(_ROOT, "benchmarks/results/manipulation_speed.csv"), "Output CSV."
)


def measure_ours(name, seconds, resets, seed):
    """Steps/s including resets, median reset time (ms) and episode count of `name`."""
    env = manipulation.load(name, seed=seed)
    spec = env.action_spec()
    actions = np.random.RandomState(seed).uniform(
        spec.minimum, spec.maximum, size=(1000,) + spec.shape
    )
    env.reset()
    reset_times = []
    for _ in range(resets):
        start = time.perf_counter()
        env.reset()
        reset_times.append(time.perf_counter() - start)
    env.reset()
    steps = episodes = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        timestep = env.step(actions[steps % len(actions)])
        steps += 1
        if timestep.last():
            env.reset()
            episodes += 1
    elapsed = time.perf_counter() - start
    return {
        "steps_per_second": steps / elapsed,
        "reset_ms_median": 1e3 * float(np.median(reset_times)),
        "episodes": episodes,
        "steps": steps,
    }


def measure_split_ours(name: str, steps: int, seed: int) -> dict:
    """Mean ms per control step of `name`: all of `env.step`, the 20 `mj_step`s of
    the same steps replayed from their saved states, and the difference."""
    if steps >= 250:
        raise ValueError(f"steps must stay within one 250-step episode, got {steps}")
    env = manipulation.load(name, seed=seed)
    spec = env.action_spec()
    actions = np.random.RandomState(seed).uniform(
        spec.minimum, spec.maximum, size=(steps,) + spec.shape
    )
    env.reset()
    model, data = env.physics.model, env.physics.data
    substeps = int(round(env.control_timestep() / model.opt.timestep))
    kind = mujoco.mjtState.mjSTATE_INTEGRATION
    size = mujoco.mj_stateSize(model, kind)
    states, controls, step_seconds = [], [], []
    for action in actions:
        state = np.empty(size)
        mujoco.mj_getState(model, data, state, kind)
        start = time.perf_counter()
        env.step(action)
        step_seconds.append(time.perf_counter() - start)
        states.append(state)
        controls.append(np.array(data.ctrl))
    engine_seconds = []
    for state, control in zip(states, controls):
        mujoco.mj_setState(model, data, state, kind)
        data.ctrl[:] = control
        start = time.perf_counter()
        for _ in range(substeps):
            mujoco.mj_step(model, data)
        engine_seconds.append(time.perf_counter() - start)
    step_ms = 1e3 * float(np.mean(step_seconds))
    engine_ms = 1e3 * float(np.mean(engine_seconds))
    return {"step_ms": step_ms, "engine_ms": engine_ms, "python_ms": step_ms - engine_ms}


def measure_split_dm_control(python: str, name: str, steps: int, seed: int) -> dict | None:
    """The split worker's result dict, or None when the reference venv is absent."""
    if not os.path.exists(python):
        return None
    output = subprocess.run(
        [
            python,
            os.path.join(_ROOT, "benchmarks/reference_envs/manipulation_split_worker.py"),
            name,
            str(steps),
            str(seed),
        ],
        capture_output=True,
        text=True,
        check=True,
        env=dict(os.environ, MUJOCO_GL="egl"),
    )
    return json.loads(output.stdout.strip().splitlines()[-1])


def measure_dm_control(python, name, seconds, resets, seed):
    """The worker's result dict, or None when the reference venv is absent."""
    if not os.path.exists(python):
        return None
    output = subprocess.run(
        [
            python,
            os.path.join(_ROOT, "benchmarks/reference_envs/manipulation_worker.py"),
            name,
            str(seconds),
            str(resets),
            str(seed),
        ],
        capture_output=True,
        text=True,
        check=True,
        env=dict(os.environ, MUJOCO_GL="egl"),
    )
    return json.loads(output.stdout.strip().splitlines()[-1])


def _median(results, key):
    values = [result[key] for result in results if result is not None]
    return float(np.median(values)) if values else None


def _format(value, digits=0):
    return "-" if value is None else f"{value:.{digits}f}"


def main(argv):
    del argv
    seconds, resets, seed = _SECONDS.value, _RESETS.value, _SEED.value
    rows = []
    print(
        f"{'environment':<26}{'ours steps/s':>14}{'dm steps/s':>12}{'speedup':>9}"
        f"{'ours reset ms':>15}{'dm reset ms':>13}{'ours eps':>10}{'dm eps':>8}"
    )
    for name in _ENVIRONMENTS:
        ours, reference = [], []
        for _ in range(_REPEATS.value):
            ours.append(measure_ours(name, seconds, resets, seed))
            reference.append(
                measure_dm_control(_DM_CONTROL_PYTHON.value, name, seconds, resets, seed)
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
        row["speedup"] = (
            None
            if row["dm_control_steps_per_second"] is None
            else row["ours_steps_per_second"] / row["dm_control_steps_per_second"]
        )
        rows.append(row)
        print(
            f"{name:<26}{_format(row['ours_steps_per_second']):>14}"
            f"{_format(row['dm_control_steps_per_second']):>12}{_format(row['speedup'], 2):>9}"
            f"{_format(row['ours_reset_ms'], 1):>15}{_format(row['dm_control_reset_ms'], 1):>13}"
            f"{_format(row['ours_episodes']):>10}{_format(row['dm_control_episodes']):>8}",
            flush=True,
        )
    split_rows = _split_table(rows, seed)
    print(
        f"targets: features speedup >= {_TARGET_SPEEDUP:g}x including resets, vision frames/s "
        f">= {_TARGET_VISION_SPEEDUP:g}x, our resets <= {_TARGET_RESET_MS:g} ms"
    )
    os.makedirs(os.path.dirname(_CSV.value), exist_ok=True)
    with open(_CSV.value, "w", newline="") as handle:
        writer = csv.DictWriter(
            handle,
            fieldnames=list(rows[0])
            + ["seconds", "resets", "repeats", "date", "machine", "load_average"],
        )
        writer.writeheader()
        for row in rows:
            writer.writerow(
                dict(
                    row,
                    seconds=seconds,
                    resets=resets,
                    repeats=_REPEATS.value,
                    date=datetime.date.today().isoformat(),
                    machine=f"{platform.machine()} x{os.cpu_count()}",
                    load_average=f"{os.getloadavg()[0]:.1f}",
                )
            )
    print(f"wrote {_CSV.value}", file=sys.stderr)
    if split_rows:
        split_csv = _CSV.value.replace(".csv", "_split.csv")
        with open(split_csv, "w", newline="") as handle:
            writer = csv.DictWriter(
                handle, fieldnames=list(split_rows[0]) + ["date", "load_average"]
            )
            writer.writeheader()
            for row in split_rows:
                writer.writerow(
                    dict(
                        row,
                        date=datetime.date.today().isoformat(),
                        load_average=f"{os.getloadavg()[0]:.1f}",
                    )
                )
        print(f"wrote {split_csv}", file=sys.stderr)


_EPISODE_STEPS = 250


def _split_table(rows: list, seed: int) -> list:
    """Times the engine/Python split of the features environments (alternating the
    two sides, medians over the repeats), prints it and returns its rows."""
    print(
        f"\nper control step, ms (mean over {_SPLIT_STEPS.value} steps; medians of "
        f"{_REPEATS.value} repeats)\n"
        f"{'environment':<26}{'ours step':>10}{'engine':>8}{'python':>8}"
        f"{'dm step':>9}{'engine':>8}{'python':>8}{'now':>7}{'bound':>7}{'bound+reset':>12}"
    )
    split_rows = []
    for row in rows:
        name = row["environment"]
        if not name.endswith("_features"):
            continue
        ours, reference = [], []
        for _ in range(_REPEATS.value):
            ours.append(measure_split_ours(name, _SPLIT_STEPS.value, seed))
            reference.append(
                measure_split_dm_control(_DM_CONTROL_PYTHON.value, name, _SPLIT_STEPS.value, seed)
            )
        split = {"environment": name}
        for key in ("step_ms", "engine_ms", "python_ms"):
            split[f"ours_{key}"] = _median(ours, key)
            split[f"dm_control_{key}"] = _median(reference, key)
        dm_step = split["dm_control_step_ms"]
        if dm_step is None:
            split["ratio_now"] = split["ratio_bound"] = split["ratio_bound_with_resets"] = None
        else:
            split["ratio_now"] = dm_step / split["ours_step_ms"]
            split["ratio_bound"] = dm_step / split["ours_engine_ms"]
            split["ratio_bound_with_resets"] = (
                _EPISODE_STEPS * dm_step + row["dm_control_reset_ms"]
            ) / (_EPISODE_STEPS * split["ours_engine_ms"] + row["ours_reset_ms"])
        split_rows.append(split)
        print(
            f"{name:<26}{_format(split['ours_step_ms'], 2):>10}{_format(split['ours_engine_ms'], 2):>8}"
            f"{_format(split['ours_python_ms'], 2):>8}{_format(dm_step, 2):>9}"
            f"{_format(split['dm_control_engine_ms'], 2):>8}"
            f"{_format(split['dm_control_python_ms'], 2):>8}{_format(split['ratio_now'], 2):>7}"
            f"{_format(split['ratio_bound'], 2):>7}{_format(split['ratio_bound_with_resets'], 2):>12}",
            flush=True,
        )
    print(
        "now: dm-control step / our step (no resets); bound: dm-control step / our engine "
        "time (our Python at zero); bound+reset: the same with one reset per 250 steps"
    )
    return split_rows


if __name__ == "__main__":
    app.run(main)
