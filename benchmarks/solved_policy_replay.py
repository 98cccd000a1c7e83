r"""Do the solved policies' episodes happen the same way in dm-control?

For each task, plays one episode of a trained checkpoint's deterministic policy in
this project's `suites.suite` (closed loop), records the state the episode started
from and every action, and replays those actions open loop in dm-control 1.0.50's
`suite.load(domain, task)` in its own venv (benchmarks/reference_envs/replay_worker.py),
from the same state. Reported per task: our closed-loop return, the number of control
steps over which every per-step reward agrees within `--tolerance`, the largest reward
difference over those steps and both returns up to that step, and dm-control's
open-loop return over the whole episode.

An open-loop replay of a locomotion gait drifts apart once the two simulators'
floating-point differences (MuJoCo 4.0 here, 3.17 there) have grown through the
contacts: from then on the replayed actions no longer fit the state, and the
replay's return says little. The steps before the first disagreement are the
comparison: the same policy's trajectory, reward by reward, in both frameworks.

Only tasks whose whole episode state is the physics state (qpos, qvel) can be
replayed this way; reacher's target, for one, lives in the model and is not.

    python benchmarks/solved_policy_replay.py --tasks walker:walk,cheetah:run \
        --dm_control_python .venvs/dm_control/bin/python
"""

import csv
import datetime
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from absl import app, flags  # noqa: E402
import numpy as np  # noqa: E402

from agents import checkpoint_policy  # noqa: E402
from suites import suite  # noqa: E402

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Tasks whose episode state is qpos and qvel alone (no target or terrain in the model).
REPLAYABLE = (
    "cartpole:balance",
    "cartpole:swingup",
    "pendulum:swingup",
    "point_mass:easy",
    "finger:spin",
    "walker:stand",
    "walker:walk",
    "cheetah:run",
)

_TASKS = flags.DEFINE_list("tasks", ["walker:walk", "cheetah:run"], "Tasks to replay.")
_RUNS = flags.DEFINE_string(
    "runs",
    os.path.join(_ROOT, "benchmarks/results/time_to_solve/runs/ppo"),
    "Folder of the trained runs: <runs>/<domain>_<task>/seed<seed>/checkpoint.npz.",
)
_SEED = flags.DEFINE_integer("seed", 0, "Which training seed's checkpoint to play.")
_EPISODE_SEED = flags.DEFINE_integer("episode_seed", 7, "Seed of the played episode.")
_TOLERANCE = flags.DEFINE_float("tolerance", 1e-6, "Per-step reward agreement.", lower_bound=0)
_DM_CONTROL_PYTHON = flags.DEFINE_string(
    "dm_control_python",
    os.path.join(_ROOT, ".venvs/dm_control/bin/python"),
    "Python of the dm-control 1.0.50 venv.",
)
_CSV = flags.DEFINE_string(
    "csv", os.path.join(_ROOT, "benchmarks/results/solved_policy_replay.csv"), "Output CSV."
)


def play(task: str, checkpoint: str, seed: int) -> dict[str, np.ndarray]:
    """One closed-loop episode of the checkpoint's policy: start state, actions, rewards."""
    domain, name = task.split(":")
    env = suite.load(domain, name, task_kwargs={"random": seed})
    policy = checkpoint_policy.policy_from_checkpoint(checkpoint, env)
    timestep = env.reset()
    qpos, qvel = env.physics.data.qpos.copy(), env.physics.data.qvel.copy()
    actions, rewards = [], []
    while not timestep.last():
        action = policy(timestep)
        timestep = env.step(action)
        actions.append(action)
        rewards.append(timestep.reward)
    return {
        "qpos": qpos,
        "qvel": qvel,
        "actions": np.asarray(actions),
        "rewards": np.asarray(rewards, float),
    }


def replay_in_dm_control(python: str, task: str, recording: dict[str, np.ndarray]) -> dict:
    """The worker's JSON: dm-control's per-step rewards of the open-loop replay."""
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "episode.npz")
        np.savez(path, **recording)
        output = subprocess.run(
            [python, os.path.join(_ROOT, "benchmarks/reference_envs/replay_worker.py"), task, path],
            capture_output=True,
            text=True,
            check=True,
            env=dict(os.environ, MUJOCO_GL="disable"),
        )
    return json.loads(output.stdout.strip().splitlines()[-1])


def compare(ours: np.ndarray, theirs: np.ndarray, tolerance: float) -> dict:
    """Steps until the first reward disagreement, and the returns up to it."""
    if ours.shape != theirs.shape:
        raise ValueError(f"episode lengths differ: ours {ours.shape}, dm-control {theirs.shape}")
    differs = np.flatnonzero(np.abs(ours - theirs) > tolerance)
    agree = int(differs[0]) if differs.size else len(ours)
    return {
        "steps": len(ours),
        "steps_agreeing": agree,
        "max_abs_reward_difference_agreeing": float(np.abs(ours[:agree] - theirs[:agree]).max())
        if agree
        else float("nan"),
        "ours_return_agreeing": float(ours[:agree].sum()),
        "dm_control_return_agreeing": float(theirs[:agree].sum()),
        "ours_return": float(ours.sum()),
        "dm_control_open_loop_return": float(theirs.sum()),
    }


def main(argv):
    if len(argv) > 1:
        raise app.UsageError(f"unexpected arguments: {argv[1:]}")
    unknown = [task for task in _TASKS.value if task not in REPLAYABLE]
    if unknown:
        raise ValueError(f"cannot replay {unknown}: the replayable tasks are {REPLAYABLE}.")
    if not os.path.exists(_DM_CONTROL_PYTHON.value):
        raise FileNotFoundError(
            f"no dm-control venv at {_DM_CONTROL_PYTHON.value}: "
            "benchmarks/reference_envs/make_dm_control_venv.sh makes one."
        )
    rows = []
    for task in _TASKS.value:
        checkpoint = os.path.join(
            _RUNS.value, task.replace(":", "_"), f"seed{_SEED.value}", "checkpoint.npz"
        )
        recording = play(task, checkpoint, _EPISODE_SEED.value)
        reference = replay_in_dm_control(_DM_CONTROL_PYTHON.value, task, recording)
        row = {"task": task, "training_seed": _SEED.value, "episode_seed": _EPISODE_SEED.value}
        row.update(
            compare(recording["rewards"], np.asarray(reference["rewards"]), _TOLERANCE.value)
        )
        row.update(
            tolerance=_TOLERANCE.value,
            dm_control_mujoco=reference["mujoco"],
            date=datetime.date.today().isoformat(),
        )
        rows.append(row)
        print(
            f"{task}: ours {row['ours_return']:.1f} closed loop; rewards agree within "
            f"{_TOLERANCE.value:g} for {row['steps_agreeing']} of {row['steps']} steps "
            f"(max difference {row['max_abs_reward_difference_agreeing']:.1e}; return to "
            f"there {row['ours_return_agreeing']:.2f} vs {row['dm_control_return_agreeing']:.2f}); "
            f"dm-control open loop {row['dm_control_open_loop_return']:.1f}"
        )
    os.makedirs(os.path.dirname(_CSV.value), exist_ok=True)
    with open(_CSV.value, "w", newline="", encoding="utf-8") as file:
        writer = csv.DictWriter(file, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    print(f"wrote {_CSV.value}")


if __name__ == "__main__":
    app.run(main)
