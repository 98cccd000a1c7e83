"""Speed of dm-control's manipulation environments, run in their own venv.

Imports nothing of this project. Loads `dm_control.manipulation.load(name)` and
prints one JSON line:

    {"steps_per_second": ..., "reset_ms_median": ..., "episodes": ..., "steps": ...}

Steps/s count every `step` call with uniformly random actions, including the
resets that follow the ends of episodes (each reset places new props). For a
`_vision` environment every step renders the 84x84 `front_close` camera, so
steps/s are also its frames/s.

    MUJOCO_GL=egl .venvs/dm_control/bin/python \
        benchmarks/reference_envs/manipulation_worker.py lift_brick_features 10.0 20 0
"""

import json
import sys
import time

import numpy as np


def main(argv):
    from dm_control import manipulation

    name, seconds, num_resets, seed = argv[1], float(argv[2]), int(argv[3]), int(argv[4])
    env = manipulation.load(name, seed=seed)
    spec = env.action_spec()
    actions = np.random.RandomState(seed).uniform(
        spec.minimum, spec.maximum, size=(1000,) + spec.shape
    )
    env.reset()
    reset_times = []
    for _ in range(num_resets):
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
    print(
        json.dumps(
            {
                "steps_per_second": steps / elapsed,
                "reset_ms_median": 1e3 * float(np.median(reset_times)),
                "episodes": episodes,
                "steps": steps,
            }
        )
    )


if __name__ == "__main__":
    main(sys.argv)
