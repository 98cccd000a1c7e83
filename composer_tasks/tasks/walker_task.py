"""WalkerTask: what every locomotion task has, one walker in one arena."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from composer_tasks import composer

if TYPE_CHECKING:
    from composer_tasks.composer.observation.observable import Observable
    from composer_tasks.walkers.base import Walker

# A value, a callable such as a `variation.Variation`, or tuples, lists and dicts
# nesting them: what `variation.evaluate` turns into a value at each episode (a
# spawn position, a yaw, ...). Its shape is checked where it is evaluated.
Evaluable = Any


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
