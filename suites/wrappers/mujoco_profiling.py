"""MuJoCo's step timer as an observation (dm_control's `suite.wrappers.mujoco_profiling`).

    env = mujoco_profiling.Wrapper(suite.load("cartpole", "swingup"))
    env.reset().observation["step_timing"]  # [seconds spent in mj_step so far, mj_step calls]

The wrapper turns on the physics' stage timers (`Physics.enable_profiling`), which
`Physics.step` otherwise pauses for speed, and reads `data.timer[mjTIMER_STEP]`.
"""

import collections
import copy
from collections import abc
from typing import Any

import mujoco
import numpy as np
from dm_env import specs

from suites.wrappers import base

# The key under which an array observation is kept once the profile is added.
STATE_KEY = "state"

_STEP_TIMER = int(mujoco.mjtTimer.mjTIMER_STEP)


class Wrapper(base.EnvironmentWrapper):
    """Adds the observation `observation_key`: float64 [total duration of MuJoCo's step
    timer in seconds, number of times it ran], cumulative since the physics' data was
    made or last reset.

    Args:
      env: a suite environment (it has `physics`) whose observation spec is a
        mapping of arrays or one array; one array is kept under "state".
      observation_key: the profile observation's key.

    Raises:
      ValueError: the observation spec is neither a mapping nor an array, or it
        already has `observation_key` (or it is "state" for an array observation).
    """

    def __init__(self, env, observation_key="step_timing"):
        wrapped_spec = env.observation_spec()
        if isinstance(wrapped_spec, specs.Array):
            self._observation_is_mapping = False
            taken = {STATE_KEY}
        elif isinstance(wrapped_spec, abc.MutableMapping):
            self._observation_is_mapping = True
            taken = set(wrapped_spec)
        else:
            raise ValueError(
                "mujoco_profiling wraps environments whose observation spec is a mapping of "
                f"arrays or one array, got {type(wrapped_spec).__name__}"
            )
        if observation_key in taken:
            raise ValueError(
                f"observation key {observation_key!r} is already in the observation (or "
                f"reserved): {sorted(taken)}"
            )
        observation_spec: Any
        if self._observation_is_mapping:
            observation_spec = copy.copy(wrapped_spec)
        else:
            observation_spec = collections.OrderedDict([(STATE_KEY, wrapped_spec)])
        self._observation_spec = observation_spec
        self._observation_spec[observation_key] = specs.Array(
            shape=(2,), dtype=np.float64, name=observation_key
        )
        env.physics.enable_profiling()
        super().__init__(env)
        self._observation_key = observation_key

    def reset(self):
        return self._with_profile(self._env.reset())

    def step(self, action):
        return self._with_profile(self._env.step(action))

    def observation_spec(self):
        return self._observation_spec

    def _with_profile(self, time_step):
        observation: Any
        if self._observation_is_mapping:
            observation = type(time_step.observation)(time_step.observation)
        else:
            observation = collections.OrderedDict([(STATE_KEY, time_step.observation)])
        timer = self._env.physics.data.timer[_STEP_TIMER]
        observation[self._observation_key] = np.array(
            [timer.duration, timer.number], dtype=np.float64
        )
        return time_step._replace(observation=observation)
