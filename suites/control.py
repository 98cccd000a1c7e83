"""The Control Suite's Environment: `composer.Environment` with dm_control's
`control.Environment` options (`flat_observation`).

    env = suite.load("walker", "walk", environment_kwargs={"flat_observation": True})
    env.reset().observation["observations"]  # (24,) float64: every observation, raveled

`flatten_observation` is dm_control's `rl.control.flatten_observation`: an
OrderedDict keeps its key order, another mapping is flattened in sorted key order.
"""

import collections
from collections import abc
from typing import Any

import numpy as np
from dm_env import specs

from composer_tasks import composer

FLAT_OBSERVATION_KEY = "observations"


def flatten_observation(observation: Any, output_key: str = FLAT_OBSERVATION_KEY) -> Any:
    """A mapping of the same type as `observation` holding one array under
    `output_key`: its values raveled and concatenated (an OrderedDict's in its
    order, another mapping's in sorted key order).

    Raises:
      ValueError: `observation` is not a mutable mapping (as dm_control).
    """
    if not isinstance(observation, abc.MutableMapping):
        raise ValueError(
            f"can only flatten dict-like observations, got {type(observation).__name__}"
        )
    if isinstance(observation, collections.OrderedDict):
        keys = list(observation.keys())
    else:
        keys = sorted(observation.keys())
    arrays = [np.asarray(observation[key]).ravel() for key in keys]
    mapping_type: Any = type(observation)
    return mapping_type([(output_key, np.concatenate(arrays))])


class _FlatUpdater:
    """An observation updater whose observation is flattened into one array."""

    def __init__(self, updater: Any) -> None:
        self._updater = updater

    def get_observation(self) -> Any:
        return flatten_observation(collections.OrderedDict(self._updater.get_observation()))

    def observation_spec(self) -> collections.OrderedDict:
        size = sum(int(np.prod(spec.shape)) for spec in self._updater.observation_spec().values())
        dtypes = [spec.dtype for spec in self._updater.observation_spec().values()]
        dtype = np.result_type(*dtypes) if dtypes else np.float64
        return collections.OrderedDict(
            [
                (
                    FLAT_OBSERVATION_KEY,
                    specs.Array((size,), dtype, name=FLAT_OBSERVATION_KEY),
                )
            ]
        )

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self._updater, name)


class Environment(composer.Environment):
    """`composer.Environment` with dm_control `control.Environment`'s `flat_observation`.

    Args:
      task, *args, **kwargs: those of `composer.Environment`.
      flat_observation: if True, the observation is one float array under the key
        "observations" (`FLAT_OBSERVATION_KEY`), the task's observations raveled
        and concatenated in their order; its spec is named "observations".

    Raises:
      TypeError: `flat_observation` is not a bool.
    """

    def __init__(self, task: Any, *args: Any, flat_observation: bool = False, **kwargs: Any):
        if not isinstance(flat_observation, (bool, np.bool_)):
            raise TypeError(f"flat_observation must be a bool, got {flat_observation!r}")
        self._flat_observation = bool(flat_observation)
        super().__init__(task, *args, **kwargs)

    @property
    def flat_observation(self) -> bool:
        """Whether observations are flattened into one array."""
        return self._flat_observation

    def _new_updater(self) -> Any:
        updater = super()._new_updater()
        return _FlatUpdater(updater) if self._flat_observation else updater
