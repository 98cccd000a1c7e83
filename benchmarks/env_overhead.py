"""Environment overhead: `Environment.step` against the bare physics of the same substeps.

The task is the Composer tutorial (PressWithSpecificForce) with a button that
checks its activation once per control step instead of every substep, so no
substep callback exists and the Environment can run the 25 substeps as one
physics call; 5 observables are enabled, with default options (no noise, no
per-substep buffer). The bare loop runs with MuJoCo's per-stage timer clock
paused, as `Physics.step` runs. Both loops run in the same
process, alternating, so machine noise hits both alike.

    python benchmarks/env_overhead.py [--steps 2000] [--repeats 5] [--csv benchmarks/results/env_overhead.csv]
"""

import time

from absl import app
from absl import flags
import mujoco
import numpy as np

from composer_tasks import composer
from composer_tasks.composer.observation import observable
from composer_tasks.examples import press_button
from composer_tasks.examples.creature import Creature
from composer_tasks.physics import paused_profiling_clock
from composer_tasks.props import Button

import _timing  # benchmarks/_timing.py, beside this script

_STEPS = flags.DEFINE_integer("steps", 2000, "Control steps per timed run.")
_REPEATS = flags.DEFINE_integer("repeats", 5, "Timed runs of each loop; the best is kept.")
_CSV = flags.DEFINE_string(
    "csv", "benchmarks/results/env_overhead.csv", "Where to write the table."
)


class _StepwiseButton(Button):
    """Checks its activation once per control step, after the last substep."""

    # Inheriting the Entity's no-op is what lets the Environment skip the substeps.
    after_substep = composer.Entity.after_substep

    def after_step(self, physics, random_state):
        self._update_activation(physics)


def _make_env():
    creature = Creature(num_legs=4, random_state=np.random.RandomState(0))
    task = press_button.PressWithSpecificForce(creature, button=_StepwiseButton())
    # Plain observables: the tutorial's per-substep touch-force buffer would evaluate
    # the sensor after every substep, which is a substep callback in all but name.
    for name, observable_object in task.observables.items():
        if observable_object.enabled:
            observable_object.configure(buffer_size=1, aggregator=None, corruptor=None)
    task.task_observables["time"] = observable.Generic(lambda physics: physics.time(), enabled=True)
    return composer.Environment(task, time_limit=float("inf"), random_state=0)


def _time_env(env, actions):
    env.reset()
    start = time.perf_counter()
    for action in actions:
        env.step(action)
    return time.perf_counter() - start


def _time_bare(model, data, actions, nstep):
    # As Physics.step runs it: without MuJoCo's per-stage timer clock.
    with paused_profiling_clock():
        start = time.perf_counter()
        for action in actions:
            data.ctrl[:] = action
            mujoco.mj_step(model, data, nstep)
        return time.perf_counter() - start


def main(argv):
    del argv
    env = _make_env()
    enabled = [name for name, obs in env.task.observables.items() if obs.enabled]
    nstep = env.task.physics_steps_per_control_step
    spec = env.action_spec()
    actions = np.random.RandomState(0).uniform(
        spec.minimum, spec.maximum, size=(_STEPS.value, spec.shape[0])
    )
    model = env.physics.model
    data = mujoco.MjData(model)
    env_times, bare_times = [], []
    for _ in range(_REPEATS.value):
        env_times.append(_time_env(env, actions))
        mujoco.mj_resetData(model, data)
        bare_times.append(_time_bare(model, data, actions, nstep))
    env_rate = _STEPS.value / min(env_times)
    bare_rate = _STEPS.value / min(bare_times)
    ratio = bare_rate / env_rate
    rows = [
        ("environment_step", f"{env_rate:.0f}"),
        ("bare_mj_step_nstep", f"{bare_rate:.0f}"),
        ("time_ratio_env_over_bare", f"{ratio:.3f}"),
    ]
    print(
        f"task: PressWithSpecificForce without substep callbacks, {nstep} substeps per step, "
        f"{len(enabled)} observables enabled: {enabled}"
    )
    print(f"{'measure':<28}{'control steps/s or ratio':>26}")
    for name, value in rows:
        print(f"{name:<28}{value:>26}")
    _timing.write_measures(_CSV.value, rows)


if __name__ == "__main__":
    app.run(main)
