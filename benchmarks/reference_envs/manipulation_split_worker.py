"""Cost of one control step of a dm-control manipulation environment, split into
MuJoCo's engine time and the Python around it; run in dm-control's own venv.

Imports nothing of this project. Loads `dm_control.manipulation.load(name)`,
resets, and times `steps` control steps with uniformly random actions, saving the
integration state (`mj_getState`, mjSTATE_INTEGRATION: positions, velocities,
activations, warm start, ...) and the controls of each. Then, for every saved
step, it restores the state and times the `mj_step` calls one control step makes
(control timestep / physics timestep) on the raw `MjModel`/`MjData`. Prints one
JSON line with means per control step in milliseconds:

    {"step_ms": ..., "engine_ms": ..., "python_ms": ..., "substeps": ..., "steps": ...}

`python_ms` is `step_ms - engine_ms`: everything `env.step` does besides the
`mj_step` calls (action handling, observation updates, the reward, the extra
`mj_forward`s and callbacks).

    MUJOCO_GL=egl .venvs/dm_control/bin/python \
        benchmarks/reference_envs/manipulation_split_worker.py lift_brick_features 200 0
"""

import json
import sys
import time

import mujoco
import numpy as np


def main(argv):
    from dm_control import manipulation

    name, steps, seed = argv[1], int(argv[2]), int(argv[3])
    env = manipulation.load(name, seed=seed)
    spec = env.action_spec()
    actions = np.random.RandomState(seed).uniform(
        spec.minimum, spec.maximum, size=(steps,) + spec.shape
    )
    env.reset()
    # After the reset: a reset may build a new Physics.
    model, data = env.physics.model.ptr, env.physics.data.ptr
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
    print(
        json.dumps(
            {
                "step_ms": step_ms,
                "engine_ms": engine_ms,
                "python_ms": step_ms - engine_ms,
                "substeps": substeps,
                "steps": steps,
                "mujoco_version": mujoco.__version__,
            }
        )
    )


if __name__ == "__main__":
    main(sys.argv)
