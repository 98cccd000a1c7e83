"""Replays a recorded episode's actions open-loop in dm-control 1.0.50, in its own venv.

Imports nothing of this project. Reads an .npz written by
benchmarks/solved_policy_replay.py (`qpos`, `qvel`: the state the episode started
from; `actions`: (T, A)), loads `dm_control.suite.load(domain, task)`, sets the
state, applies the actions one control step each and prints one JSON line:

    {"rewards": [...], "mujoco": "3.x.y"}

    MUJOCO_GL=disable .venvs/dm_control/bin/python \
        benchmarks/reference_envs/replay_worker.py walker:walk episode.npz
"""

import json
import sys

import numpy as np


def main(argv):
    import mujoco
    from dm_control import suite

    domain, task = argv[1].split(":")
    recording = np.load(argv[2])
    env = suite.load(domain, task)
    env.reset()
    with env.physics.reset_context():
        env.physics.data.qpos[:] = recording["qpos"]
        env.physics.data.qvel[:] = recording["qvel"]
    rewards = [float(env.step(action).reward) for action in recording["actions"]]
    print(json.dumps({"rewards": rewards, "mujoco": mujoco.__version__}))


if __name__ == "__main__":
    main(sys.argv)
