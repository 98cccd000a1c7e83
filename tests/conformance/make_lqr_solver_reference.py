"""Records what the published LQR solver gives and scores (dm-control 1.0.50).

Run with the reference virtual environment's interpreter (it imports nothing of
this project):

    MUJOCO_GL=disable .venvs/dm_control/bin/python tests/conformance/make_lqr_solver_reference.py

For each LQR task and seed it writes, into `lqr_solver_reference.json` beside
this file: the solver's gain matrix k, the largest closed-loop eigenvalue modulus
beta, the value x0' p x0 / 2 of the initial state, and the return of the solver's
policy u = k (qpos, qvel) over ROLLOUT_STEPS control steps from the first episode
start of an environment seeded with the seed.
"""

import json
import os
import sys

import numpy as np
from dm_control import suite
from dm_control.suite import lqr_solver

TASKS = ("lqr_2_1", "lqr_6_2")
SEEDS = (0, 1, 2)
ROLLOUT_STEPS = 300


def record():
    records = []
    for task in TASKS:
        for seed in SEEDS:
            env = suite.load("lqr", task, task_kwargs={"random": seed})
            env.reset()
            p, k, beta = lqr_solver.solve(env)
            physics = env.physics
            state = np.concatenate([physics.data.qpos, physics.data.qvel])
            total = 0.0
            for _ in range(ROLLOUT_STEPS):
                time_step = env.step(k @ np.concatenate([physics.data.qpos, physics.data.qvel]))
                total += time_step.reward
            records.append(
                {
                    "task": task,
                    "seed": seed,
                    "k": k.tolist(),
                    "beta": float(beta),
                    "initial_value": float(state @ p @ state / 2),
                    "rollout_steps": ROLLOUT_STEPS,
                    "return": float(total),
                }
            )
    return records


def main():
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "lqr_solver_reference.json")
    with open(path, "w") as file:
        json.dump({"dm_control_version": "1.0.50", "records": record()}, file, indent=1)
        file.write("\n")
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
