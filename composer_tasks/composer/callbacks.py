"""The lifecycle callbacks shared by entities and tasks, and which of them a class overrides."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from composer_tasks.physics import Physics

# The action a step's callbacks receive: the validated action array, or for a
# multi-agent task the list of per-agent arrays.
Action = np.ndarray | list[np.ndarray]

# Callbacks an Entity or a Task may override (dm_control's `HOOK_NAMES`); the
# Environment calls only the overridden substep callbacks so that untouched
# substeps run as one mj_step call.
CALLBACK_NAMES = (
    "initialize_episode_mjcf",
    "after_compile",
    "initialize_episode",
    "before_step",
    "before_substep",
    "after_substep",
    "after_step",
)


class Callbacks:
    """The lifecycle callbacks of entities and tasks, all no-ops by default.

    As in dm_control, an entity's `before_step` and `before_substep` take
    `(physics, random_state)`; a `Task`'s take the action too,
    `(physics, action, random_state)`.

    What each may touch is in `Entity`'s docstring. The Environment calls only those a
    class overrides, so substeps nobody hooks into run as one physics call.
    """

    def initialize_episode_mjcf(self, random_state: np.random.RandomState) -> None:
        pass

    def after_compile(self, physics: Physics, random_state: np.random.RandomState) -> None:
        pass

    def initialize_episode(self, physics: Physics, random_state: np.random.RandomState) -> None:
        pass

    def before_step(self, physics: Physics, random_state: np.random.RandomState) -> None:
        pass

    def before_substep(self, physics: Physics, random_state: np.random.RandomState) -> None:
        pass

    def after_substep(self, physics: Physics, random_state: np.random.RandomState) -> None:
        pass

    def after_step(self, physics: Physics, random_state: np.random.RandomState) -> None:
        pass


# The callbacks whose task version receives the action and entity version does not.
ACTION_CALLBACK_NAMES = ("before_step", "before_substep")


def overrides(instance: object, base: type, name: str) -> bool:
    """True if `instance`'s class overrides the method `name` of `base`, or `instance`
    itself has a callable `name` of its own (a callback assigned to the instance)."""
    if name in getattr(instance, "__dict__", ()):
        return True
    return getattr(type(instance), name) is not getattr(base, name)
