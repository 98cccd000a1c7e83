"""Gymnasium adapters for `composer.Environment` and `BatchEnvironment`.

`GymnasiumEnv(env)` is a `gymnasium.Env`; `GymnasiumVectorEnv(batch_env)` is a
`gymnasium.vector.VectorEnv` with Gymnasium's NEXT_STEP autoreset (the step after
an episode's end returns that copy's reset observation, with reward 0 and neither
terminated nor truncated, and ignores its action).

Episode ends map as Gymnasium expects: a LAST step with discount 0 is
`terminated`; a LAST step with a positive discount (the time limit) is `truncated`.
"""

import collections

import gymnasium
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
import numpy as np


def _box(spec, batch=None):
    shape = tuple(spec.shape) if batch is None else (batch,) + tuple(spec.shape)
    low = getattr(spec, "minimum", -np.inf)
    high = getattr(spec, "maximum", np.inf)
    low = np.broadcast_to(np.asarray(low, dtype=spec.dtype), shape)
    high = np.broadcast_to(np.asarray(high, dtype=spec.dtype), shape)
    return spaces.Box(low=low, high=high, shape=shape, dtype=spec.dtype)


def _observation_space(observation_spec, flatten, batch=None):
    if flatten:
        size = sum(int(np.prod(spec.shape)) for spec in observation_spec.values())
        shape = (size,) if batch is None else (batch, size)
        return spaces.Box(-np.inf, np.inf, shape=shape, dtype=np.float64)
    return spaces.Dict(collections.OrderedDict(
        (name, _box(spec, batch)) for name, spec in observation_spec.items()))


def _flatten(observation, batch=None):
    if batch is None:
        return np.concatenate([np.ravel(value) for value in observation.values()]).astype(np.float64)
    return np.concatenate(
        [np.reshape(value, (batch, -1)) for value in observation.values()], axis=1).astype(np.float64)


class GymnasiumEnv(gymnasium.Env):
    """A single dm_env environment as a `gymnasium.Env`.

    Args:
      env: a `composer.Environment` (or any dm_env environment with a
        `random_state` attribute for seeding).
      flatten_observations: one float64 vector in observation-spec order instead of
        a Dict space.
      render_mode: None or "rgb_array" (renders camera `render_camera`).
    """

    metadata = {"render_modes": ["rgb_array"]}

    def __init__(self, env, flatten_observations=False, render_mode=None, render_camera=-1,
                 render_size=(240, 320)):
        if render_mode not in (None, "rgb_array"):
            raise ValueError(f"render_mode must be None or 'rgb_array', got {render_mode!r}")
        self._env = env
        self._flatten = flatten_observations
        self.render_mode = render_mode
        self._render_camera = render_camera
        self._render_size = render_size
        self.action_space = _box(env.action_spec())
        self.observation_space = _observation_space(env.observation_spec(), flatten_observations)
        self._needs_reset = True

    @property
    def dm_env(self):
        return self._env

    def _observation(self, observation):
        if self._flatten:
            return _flatten(observation)
        return collections.OrderedDict(
            (name, np.asarray(value, dtype=self.observation_space[name].dtype))
            for name, value in observation.items())

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        if seed is not None:
            self._env.random_state.seed(seed)
        timestep = self._env.reset()
        self._needs_reset = False
        return self._observation(timestep.observation), {}

    def step(self, action):
        if self._needs_reset:
            raise RuntimeError("call reset() before step() (and after an episode ends)")
        timestep = self._env.step(np.asarray(action, dtype=self.action_space.dtype))
        terminated = bool(timestep.last() and timestep.discount == 0.0)
        truncated = bool(timestep.last() and not terminated)
        self._needs_reset = timestep.last()
        return (self._observation(timestep.observation), float(timestep.reward),
                terminated, truncated, {"discount": float(timestep.discount)})

    def render(self):
        if self.render_mode != "rgb_array":
            return None
        height, width = self._render_size
        return self._env.physics.render(height=height, width=width, camera_id=self._render_camera)

    def close(self):
        self._env.close()


class GymnasiumVectorEnv(gymnasium.vector.VectorEnv):
    """A `BatchEnvironment` as a `gymnasium.vector.VectorEnv` (NEXT_STEP autoreset)."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, batch_env, flatten_observations=False):
        self._batch = batch_env
        self._flatten = flatten_observations
        self.num_envs = batch_env.num_envs
        self.single_action_space = _box(batch_env.action_spec())
        self.action_space = _box(batch_env.action_spec(), batch=self.num_envs)
        self.single_observation_space = _observation_space(batch_env.observation_spec(), flatten_observations)
        self.observation_space = _observation_space(
            batch_env.observation_spec(), flatten_observations, batch=self.num_envs)

    @property
    def batch_env(self):
        return self._batch

    def _observation(self, observation):
        if self._flatten:
            return _flatten(observation, self.num_envs)
        return collections.OrderedDict(
            (name, np.asarray(value, dtype=self.observation_space[name].dtype))
            for name, value in observation.items())

    def reset(self, *, seed=None, options=None):
        if seed is not None:
            seeds = seed if isinstance(seed, (list, tuple)) else [seed + i for i in range(self.num_envs)]
            if len(seeds) != self.num_envs:
                raise ValueError(f"seed list has {len(seeds)} entries for {self.num_envs} copies")
            for env, copy_seed in zip(self._batch.envs, seeds):
                env.random_state.seed(copy_seed)
        timestep = self._batch.reset()
        return self._observation(timestep.observation), {}

    def step(self, actions):
        timestep = self._batch.step(np.asarray(actions, dtype=self.single_action_space.dtype))
        last = timestep.last()
        terminated = last & (timestep.discount == 0.0)
        truncated = last & ~terminated
        return (self._observation(timestep.observation), timestep.reward.copy(),
                terminated, truncated, {"discount": timestep.discount.copy()})

    def close_extras(self, **kwargs):
        self._batch.close()
