"""Gaussian noise on actions (dm_control's `suite.wrappers.action_noise`).

    env = action_noise.Wrapper(suite.load("cartpole", "swingup"), scale=0.01)

The noise is drawn from the task's generator (`env.task.random`), so a seeded
environment gives the same noisy trajectory as dm_control's.
"""

from suites.wrappers import base
import numpy as np

# The message of the error (a module constant as dm_control's, whose tests format it).
_BOUNDS_MUST_BE_FINITE = (
    "action_noise needs finite action bounds to scale the noise, got {action_spec!r}"
)


class Wrapper(base.EnvironmentWrapper):
    """Adds zero-mean Gaussian noise to each action, then clips it to the action bounds.

    Args:
      env: a suite environment (its `task.random` draws the noise) whose action
        spec has finite bounds.
      scale: the noise's standard deviation as a fraction of each action
        dimension's range (maximum - minimum).

    Raises:
      ValueError: an action bound of `env` is not finite.
    """

    def __init__(self, env, scale=0.01):
        action_spec = env.action_spec()
        if not (
            np.all(np.isfinite(action_spec.minimum)) and np.all(np.isfinite(action_spec.maximum))
        ):
            raise ValueError(_BOUNDS_MUST_BE_FINITE.format(action_spec=action_spec))
        self._minimum = action_spec.minimum
        self._maximum = action_spec.maximum
        self._noise_std = scale * (action_spec.maximum - action_spec.minimum)
        self._env = env

    def step(self, action):
        noisy_action = action + self._env.task.random.normal(scale=self._noise_std)
        # Clipped here too (MuJoCo clips controls) for wrappers or actuators that
        # expect in-bounds actions.
        np.clip(noisy_action, self._minimum, self._maximum, out=noisy_action)
        return self._env.step(noisy_action)
