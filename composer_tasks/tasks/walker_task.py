"""WalkerTask: what every locomotion task has, one walker in one arena."""

from __future__ import annotations

import numbers
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from composer_tasks import composer

if TYPE_CHECKING:
    from composer_tasks.composer.observation.observable import Observable
    from composer_tasks.walkers.base import Walker

# A value, a callable such as a `variation.Variation`, or tuples, lists and dicts
# nesting them: what `variation.evaluate` turns into a value at each episode (a
# spawn position, a yaw, ...). Its shape is checked where it is evaluated.
Evaluable = Any


def checked_number(
    value: Any,
    name: str,
    what: str,
    minimum: float | None = None,
    strictly_positive: bool = False,
) -> float:
    """`value` as a float, for the locomotion tasks' numeric arguments; raises
    TypeError for a non-number (bools included) and ValueError, saying `what` was
    expected, for a non-finite or out-of-range one."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be {what}, got {value!r}")
    value = float(value)
    if (
        not np.isfinite(value)
        or (strictly_positive and not value > 0)
        or (minimum is not None and value < minimum)
    ):
        raise ValueError(f"{name} must be {what}, got {value!r}")
    return value


def regenerates_in_mjcf(arena: Any) -> bool:
    """Whether a task regenerates `arena` in `initialize_episode_mjcf`, as dm_control's
    tasks do: an arena whose `regenerate(random_state)` rebuilds its model (dm_control's
    corridors), so the reset compiles it. An arena that declares itself `pooled` lays
    its layout out in the compiled model instead; see `regenerates_in_episode`."""
    if getattr(arena, "pooled", False):
        return False
    return callable(getattr(arena, "regenerate", None))


def regenerates_in_episode(arena: Any) -> bool:
    """Whether a task asks `arena` for its layout at the start of its own
    `initialize_episode` (a `pooled` arena, which writes that layout into the
    compiled model in its own `initialize_episode`): the layout's draws come before
    the walker's, as with an arena regenerated in `initialize_episode_mjcf`."""
    return bool(getattr(arena, "pooled", False)) and callable(getattr(arena, "regenerate", None))


class WalkerTask(composer.Task):
    """Base of the locomotion tasks.

    Subclasses set `self._walker`, `self._arena` (the root entity) and
    `self._task_observables` (an ordered dict, possibly empty) in `__init__`.
    """

    _walker: Walker
    _arena: composer.Arena
    _task_observables: Mapping[str, Observable]

    @property
    def root_entity(self) -> composer.Arena:
        return self._arena

    @property
    def arena(self) -> composer.Arena:
        return self._arena

    @property
    def walker(self) -> Walker:
        return self._walker

    @property
    def task_observables(self) -> Mapping[str, Observable]:
        return self._task_observables

    def before_step(  # pyright: ignore[reportIncompatibleMethodOverride]
        self, physics: Any, action: np.ndarray, random_state: np.random.RandomState
    ) -> None:
        """Hands the action to the walker (`walker.apply_action`), as dm_control's
        locomotion tasks do: a walker that keeps its previous action (BoxHead, the
        jumping ball, the soccer humanoid, the rat) or transforms its action sees it.
        A walker without `apply_action` (an entity that is not a
        `composer_tasks.walkers` walker) gets the action as the model's controls."""
        apply_action = getattr(self._walker, "apply_action", None)
        if apply_action is None:
            super().before_step(physics, action, random_state)
        else:
            apply_action(physics, action, random_state)
