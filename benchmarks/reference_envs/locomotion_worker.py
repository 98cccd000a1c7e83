"""Speed of dm-control's CMU humanoid corridor environments, run in their own venv.

Imports nothing of this project. Builds the environments of dm_control's
`locomotion/examples/basic_cmu_2019.py` (walls and gaps corridors, same
parameters) with the 2020 position-controlled CMU humanoid, as the dm_control
paper's §7.1 snippet does, and prints one JSON line:

    {"steps_per_second": ..., "reset_ms_mean": ..., "reset_ms_median": ...,
     "episodes": ..., "steps": ...}

Steps/s count every `step` call, including the resets that follow the ends of
episodes (each reset draws a new corridor). dm_control's task enables the
egocentric camera; it is switched off here, as in this project's run, so that
neither side renders.

    MUJOCO_GL=disable .venvs/dm_control/bin/python \
        benchmarks/reference_envs/locomotion_worker.py walls 10.0 30 0
"""

import json
import sys
import time

import numpy as np


def _make_environment(course, seed):
    from dm_control import composer
    from dm_control.composer.variation import distributions
    from dm_control.locomotion.arenas import corridors as corridor_arenas
    from dm_control.locomotion.tasks import corridors as corridor_tasks
    from dm_control.locomotion.walkers import cmu_humanoid

    walker = cmu_humanoid.CMUHumanoidPositionControlledV2020()
    if course == "walls":
        arena = corridor_arenas.WallsCorridor(
            wall_gap=4.0,
            wall_width=distributions.Uniform(1, 7),
            wall_height=3.0,
            corridor_width=10,
            corridor_length=100,
            include_initial_padding=False,
        )
    elif course == "gaps":
        arena = corridor_arenas.GapsCorridor(
            platform_length=distributions.Uniform(0.3, 2.5),
            gap_length=distributions.Uniform(0.5, 1.25),
            corridor_width=10,
            corridor_length=100,
        )
    else:
        raise SystemExit(f"unknown course {course!r}: walls or gaps")
    task = corridor_tasks.RunThroughCorridor(
        walker=walker,
        arena=arena,
        walker_spawn_position=(0.5, 0, 0),
        target_velocity=3.0,
        physics_timestep=0.005,
        control_timestep=0.03,
    )
    # The task enables the camera; switched off so that no side renders.
    walker.observables.egocentric_camera.enabled = False
    return composer.Environment(
        task=task, time_limit=30, random_state=seed, strip_singleton_obs_buffer_dim=True
    )


def main(argv):
    course, seconds, num_resets, seed = argv[1], float(argv[2]), int(argv[3]), int(argv[4])
    env = _make_environment(course, seed)
    spec = env.action_spec()
    actions = np.random.RandomState(seed).uniform(
        spec.minimum, spec.maximum, size=(1000,) + spec.shape
    )

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
                "reset_ms_mean": 1e3 * float(np.mean(reset_times)),
                "reset_ms_median": 1e3 * float(np.median(reset_times)),
                "episodes": episodes,
                "steps": steps,
            }
        )
    )


if __name__ == "__main__":
    main(sys.argv)
