"""Gymnasium adapters for `composer.Environment` and `BatchEnvironment`.

`GymnasiumEnv(env)` is a `gymnasium.Env`; `GymnasiumVectorEnv(batch_env)` is a
`gymnasium.vector.VectorEnv` with Gymnasium's NEXT_STEP autoreset (the step after
an episode's end returns that copy's reset observation, with reward 0 and neither
terminated nor truncated, and ignores its action).

Episode ends map as Gymnasium expects: a LAST step with discount 0 is
`terminated`; a LAST step with a positive discount (the time limit) is `truncated`.
"""

import collections
from collections.abc import Mapping
from typing import Any, Dict, Optional, Tuple, Union

import dm_env
import gymnasium
from dm_env import specs
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
import numpy as np
from numpy.typing import ArrayLike

from composer_tasks import seeding
from composer_tasks.batch import BatchEnvironment


def _check_bool(value: Any, name: str) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be a bool, got {value!r}")
    return bool(value)


def _unbounded_limits(dtype: np.dtype) -> Tuple[Any, Any]:
    """The (low, high) of a spec without bounds: every value its dtype holds.

    Infinities would be cast to the dtype: to True for a bool (a space holding only
    True) and to an arbitrary integer for an integer dtype.
    """
    if dtype == np.bool_:
        return False, True
    if np.issubdtype(dtype, np.integer):
        limits = np.iinfo(dtype)
        return limits.min, limits.max
    return -np.inf, np.inf


def _box(spec: specs.Array, batch: Optional[int] = None) -> spaces.Box:
    shape = tuple(spec.shape) if batch is None else (batch,) + tuple(spec.shape)
    unbounded_low, unbounded_high = _unbounded_limits(np.dtype(spec.dtype))
    low = getattr(spec, "minimum", unbounded_low)
    high = getattr(spec, "maximum", unbounded_high)
    low = np.broadcast_to(np.asarray(low, dtype=spec.dtype), shape)
    high = np.broadcast_to(np.asarray(high, dtype=spec.dtype), shape)
    return spaces.Box(low=low, high=high, shape=shape, dtype=spec.dtype)


def _observation_space(
    observation_spec: Mapping[str, specs.Array], flatten: bool, batch: Optional[int] = None
) -> Union[spaces.Box, spaces.Dict]:
    if flatten:
        size = sum(int(np.prod(spec.shape)) for spec in observation_spec.values())
        shape = (size,) if batch is None else (batch, size)
        return spaces.Box(-np.inf, np.inf, shape=shape, dtype=np.float64)
    return spaces.Dict(
        collections.OrderedDict(
            (name, _box(spec, batch)) for name, spec in observation_spec.items()
        )
    )


def _flatten(observation: Mapping[str, ArrayLike], batch: Optional[int] = None) -> np.ndarray:
    if batch is None:
        return np.concatenate([np.ravel(value) for value in observation.values()]).astype(
            np.float64
        )
    return np.concatenate(
        [np.reshape(value, (batch, -1)) for value in observation.values()], axis=1
    ).astype(np.float64)


def _render_metadata(metadata: Mapping[str, Any], env: Any) -> Dict[str, Any]:
    """`metadata` with "render_fps": one rendered frame per control step of `env`.

    Gymnasium's video recorders read it; an environment without `control_timestep()`
    (a plain dm_env one) has no frame rate to report, and gets none.
    """
    result = dict(metadata)
    control_timestep: Any = getattr(env, "control_timestep", None)
    if callable(control_timestep):
        seconds: Any = control_timestep()
        result["render_fps"] = 1.0 / float(seconds)
    return result


class GymnasiumEnv(gymnasium.Env):
    """A single dm_env environment as a `gymnasium.Env`.

    Args:
      env: a `composer.Environment` (or any `dm_env.Environment` with a
        `random_state` attribute for seeding). A `BatchEnvironment` goes to
        `GymnasiumVectorEnv`.
      flatten_observations: one float64 vector in observation-spec order instead of
        a Dict space.
      render_mode: None or "rgb_array" (renders camera `render_camera`).
      render_camera: camera index (-1 the free camera) or name.
      render_size: (height, width) of rendered images in pixels.

    Actions go to the dm_env environment as given (no cast), so it rejects what it
    rejects (bool or string actions, wrong shapes, out-of-bounds values).
    """

    metadata = {"render_modes": ["rgb_array"]}

    def __init__(
        self,
        env: dm_env.Environment,
        flatten_observations: bool = False,
        render_mode: Optional[str] = None,
        render_camera: Union[int, str] = -1,
        render_size: Tuple[int, int] = (240, 320),
    ) -> None:
        if isinstance(env, BatchEnvironment):
            raise TypeError("env is a BatchEnvironment: wrap it with GymnasiumVectorEnv")
        if not isinstance(env, dm_env.Environment):
            raise TypeError(f"env must be a dm_env.Environment, got {type(env).__name__}")
        if isinstance(env.action_spec(), (list, tuple)):
            raise TypeError(
                "env has several agents (its action_spec() is a list of per-agent specs): "
                "wrap it with composer_tasks.wrappers.pettingzoo's ParallelEnv adapter"
            )
        if render_mode not in (None, "rgb_array"):
            raise ValueError(f"render_mode must be None or 'rgb_array', got {render_mode!r}")
        if isinstance(render_camera, (bool, np.bool_)) or not isinstance(
            render_camera, (int, np.integer, str)
        ):
            raise TypeError(f"render_camera must be a camera index or name, got {render_camera!r}")
        if (
            not isinstance(render_size, (tuple, list))
            or len(render_size) != 2
            or not all(
                isinstance(n, (int, np.integer)) and not isinstance(n, bool) and n >= 1
                for n in render_size
            )
        ):
            raise ValueError(
                f"render_size must be (height, width) in positive pixels, got {render_size!r}"
            )
        # Any: beyond dm_env's interface, seeding uses the environment's
        # `random_state` and rendering its `physics` (a composer.Environment's).
        self._env: Any = env
        self._flatten = _check_bool(flatten_observations, "flatten_observations")
        self.render_mode = render_mode
        self._render_camera = render_camera
        self._render_size = tuple(render_size)
        self.metadata = _render_metadata(type(self).metadata, env)
        self.action_space = _box(self._env.action_spec())
        self.observation_space = _observation_space(self._env.observation_spec(), self._flatten)
        self._needs_reset = True

    @property
    def dm_env(self) -> dm_env.Environment:
        return self._env

    def _observation(
        self, observation: Mapping[str, ArrayLike]
    ) -> Union[np.ndarray, "collections.OrderedDict[str, np.ndarray]"]:
        if self._flatten:
            return _flatten(observation)
        space = self.observation_space
        assert isinstance(space, spaces.Dict)  # A Dict space unless flattened.
        return collections.OrderedDict(
            (name, np.asarray(value, dtype=space[name].dtype))
            for name, value in observation.items()
        )

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[Any, Dict[str, Any]]:
        if seed is not None:
            seed = seeding.check_seed(seed, "seed")
            if not isinstance(getattr(self._env, "random_state", None), np.random.RandomState):
                raise TypeError(
                    f"reset(seed=...) seeds the environment's random_state, which "
                    f"{type(self._env).__name__} does not have"
                )
        super().reset(seed=seed)
        if seed is not None:
            self._env.random_state.seed(seed)
        timestep = self._env.reset()
        self._needs_reset = False
        return self._observation(timestep.observation), {}

    def step(self, action: Any) -> Tuple[Any, float, bool, bool, Dict[str, Any]]:
        if self._needs_reset:
            raise RuntimeError("call reset() before step() (and after an episode ends)")
        action = np.asarray(action)
        if action.dtype.kind not in "fiu":
            # The Box action space's numbers only (the vector adapter's rule); the
            # dm_env environment itself takes booleans as dm_control does.
            raise ValueError(
                f"action has dtype {action.dtype}; the action space wants real numbers"
            )
        timestep = self._env.step(action)
        terminated = bool(timestep.last() and timestep.discount == 0.0)
        truncated = bool(timestep.last() and not terminated)
        self._needs_reset = timestep.last()
        return (
            self._observation(timestep.observation),
            float(timestep.reward),
            terminated,
            truncated,
            {"discount": float(timestep.discount)},
        )

    def render(self) -> Optional[np.ndarray]:
        if self.render_mode != "rgb_array":
            return None
        height, width = self._render_size
        return self._env.physics.render(height=height, width=width, camera_id=self._render_camera)

    def close(self) -> None:
        self._env.close()


class GymnasiumVectorEnv(gymnasium.vector.VectorEnv):
    """A `BatchEnvironment` as a `gymnasium.vector.VectorEnv` (NEXT_STEP autoreset).

    `reset(seed=s)` re-seeds the batch (`BatchEnvironment.reseed`): an int gives
    the episodes, model variations included, of a batch built with `seed=s`; a
    list seeds copy i's task with `s[i]`. Actions go to the batch as given (no
    cast), so it rejects bool or string actions.
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, batch_env: BatchEnvironment, flatten_observations: bool = False) -> None:
        if not isinstance(batch_env, BatchEnvironment):
            raise TypeError(
                f"batch_env must be a composer_tasks.batch.BatchEnvironment, got {type(batch_env).__name__}"
                + (
                    " (wrap a single environment with GymnasiumEnv)"
                    if isinstance(batch_env, dm_env.Environment)
                    else ""
                )
            )
        if isinstance(batch_env.action_spec(), (list, tuple)):
            raise TypeError(
                "batch_env's task has several agents (its action_spec() is a list of per-agent "
                "specs), which a Gymnasium VectorEnv cannot express: step the BatchEnvironment "
                "with per-agent action arrays, or wrap single matches with "
                "composer_tasks.wrappers.pettingzoo"
            )
        self._batch = batch_env
        self._flatten = _check_bool(flatten_observations, "flatten_observations")
        self.num_envs = batch_env.num_envs
        self.single_action_space = _box(batch_env.action_spec())
        self.action_space = _box(batch_env.action_spec(), batch=self.num_envs)
        self.single_observation_space = _observation_space(
            batch_env.observation_spec(), self._flatten
        )
        self.observation_space = _observation_space(
            batch_env.observation_spec(), self._flatten, batch=self.num_envs
        )
        self._needs_reset = True
        # The last observation returned (kept rows of a partial reset come from it).
        self._last_observation: Any = None

    @property
    def batch_env(self) -> BatchEnvironment:
        return self._batch

    def _observation(
        self, observation: Mapping[str, ArrayLike]
    ) -> Union[np.ndarray, "collections.OrderedDict[str, np.ndarray]"]:
        if self._flatten:
            return _flatten(observation, self.num_envs)
        space = self.observation_space
        assert isinstance(space, spaces.Dict)  # A Dict space unless flattened.
        return collections.OrderedDict(
            (name, np.asarray(value, dtype=space[name].dtype))
            for name, value in observation.items()
        )

    def reset(
        self, *, seed: Union[None, int, list] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[Any, Dict[str, Any]]:
        """Starts new episodes: in every copy, or with `options={"reset_mask": mask}`
        (Gymnasium 1.x) only in the copies where the (N,) bool `mask` is True.

        The other copies continue their episodes untouched (states, random streams,
        a pending autoreset); their rows of the returned observation are their last.
        A partial reset needs episodes to continue (a reset before) and no `seed`
        (which re-seeds every copy).

        Raises:
          ValueError: a mask that is not (N,) bools; a partial mask with a seed or
            before the first reset; other options.
        """
        mask = self._reset_mask(options)
        if mask is not None and not mask.all():
            if seed is not None:
                raise ValueError(
                    "reset(seed=...) re-seeds every copy; it cannot go with a reset_mask that "
                    "leaves copies running: reset every copy to seed, or pass no seed"
                )
            if self._needs_reset:
                raise ValueError(
                    "reset_mask leaves copies running, but no episode has started: the first "
                    "reset must reset every copy"
                )
            return self._reset_copies(mask), {}
        if seed is not None:
            self._batch.reseed(seed)
        timestep = self._batch.reset()
        self._needs_reset = False
        return self._remember(self._observation(timestep.observation)), {}

    def _reset_mask(self, options: Optional[Dict[str, Any]]) -> Optional[np.ndarray]:
        if options is None:
            return None
        if not isinstance(options, Mapping) or set(options) - {"reset_mask"}:
            raise ValueError(
                f"options may hold only 'reset_mask' (an ({self.num_envs},) bool array), "
                f"got {options!r}"
            )
        if "reset_mask" not in options:
            return None
        mask = np.asarray(options["reset_mask"])
        if mask.dtype != np.bool_ or mask.shape != (self.num_envs,):
            raise ValueError(
                f"reset_mask must be an array of {self.num_envs} bools (one per copy), got "
                f"{options['reset_mask']!r}"
            )
        return mask

    def _reset_copies(self, mask: np.ndarray) -> Any:
        """Resets the copies where `mask`: the whole batch resets, then the others
        are put back as they were (the batch resets no subset by itself)."""
        before = self._batch.snapshot()
        timestep = self._batch.reset()
        after = self._batch.snapshot()
        kept = np.flatnonzero(~mask)
        spliced = dict(after)
        for name in ("copies", "variation_random"):
            spliced[name] = [
                (before if not reset else after)[name][index] for index, reset in enumerate(mask)
            ]
        for name in ("step_counts", "reset_next"):
            if name in after:
                spliced[name] = np.array(after[name], copy=True)
                spliced[name][kept] = before[name][kept]
        if "last_observation" in after:
            spliced["last_observation"] = collections.OrderedDict(
                (key, np.array(value, copy=True))
                for key, value in after["last_observation"].items()
            )
            for key, value in spliced["last_observation"].items():
                value[kept] = before["last_observation"][key][kept]
        self._batch.restore(spliced)
        observation = self._observation(timestep.observation)
        if isinstance(observation, np.ndarray):
            observation[kept] = self._last_observation[kept]
        else:
            for key, value in observation.items():
                value[kept] = self._last_observation[key][kept]
        return self._remember(observation)

    def _remember(self, observation: Any) -> Any:
        """Returns `observation`, keeping a copy (the caller may change what it got)."""
        if isinstance(observation, np.ndarray):
            self._last_observation = observation.copy()
        else:
            self._last_observation = {key: value.copy() for key, value in observation.items()}
        return observation

    def step(self, actions: Any) -> Tuple[Any, np.ndarray, np.ndarray, np.ndarray, Dict[str, Any]]:
        if self._needs_reset:
            raise RuntimeError("call reset() before step()")
        timestep = self._batch.step(np.asarray(actions))
        observation = self._remember(self._observation(timestep.observation))
        last = timestep.last()
        terminated = last & (timestep.discount == 0.0)
        truncated = last & ~terminated
        return (
            observation,
            timestep.reward.copy(),
            terminated,
            truncated,
            {"discount": timestep.discount.copy()},
        )

    def close_extras(self, **kwargs: Any) -> None:
        self._batch.close()
