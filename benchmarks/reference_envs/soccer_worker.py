"""Speed of dm-control's multi-agent soccer, run in its own venv.

Imports nothing of this project. Loads `dm_control.locomotion.soccer.load(team_size,
time_limit, walker_type=BOXHEAD)` (termination on goals), steps it with uniformly
random per-agent actions until at least `seconds` have passed and `min_episodes`
episodes have ended, and prints one JSON line:

    {"steps_per_second": ..., "steps_per_cpu_second": ..., "episodes": ..., "steps": ...}

Steps count every `step` call, including the resets that follow the ends of
episodes (each reset draws a new pitch size and places the players and the ball).

    MUJOCO_GL=disable .venvs/dm_control/bin/python \
        benchmarks/reference_envs/soccer_worker.py 2 10.0 0 45.0 1
"""

import json
import sys
import time

import numpy as np


def main(argv):
    from dm_control.locomotion import soccer

    team_size, seconds, seed = int(argv[1]), float(argv[2]), int(argv[3])
    time_limit, min_episodes = float(argv[4]), int(argv[5])
    env = soccer.load(
        team_size=team_size,
        time_limit=time_limit,
        walker_type=soccer.WalkerType.BOXHEAD,
        random_state=seed,
    )
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
    print(
        json.dumps(
            {
                "steps_per_second": steps / elapsed,
                "steps_per_cpu_second": steps / cpu,
                "episodes": episodes,
                "steps": steps,
            }
        )
    )


if __name__ == "__main__":
    main(sys.argv)
