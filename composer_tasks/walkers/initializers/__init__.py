"""Walker pose initializers (dm_control's `locomotion.walkers.initializers`).

An initializer has `initialize_pose(physics, walker, random_state)`; a walker runs
its initializers (`walker.add_initializer`, or the walkers' `initializer=`
argument) at the end of each episode's reset, after setting its initial pose.
"""

from __future__ import annotations

import abc
from collections.abc import Sequence
from typing import Any

import numpy as np


class WalkerInitializer(metaclass=abc.ABCMeta):
    """Base class of walker initializers."""

    @abc.abstractmethod
    def initialize_pose(self, physics: Any, walker: Any, random_state: Any) -> None:
        """Sets `walker`'s pose in `physics` (may draw from `random_state`)."""
        raise NotImplementedError


class UprightInitializer(WalkerInitializer):
    """Poses the walker as its `upright_pose` says: the joints at the pose's qpos
    (the model's qpos0 when it gives none), the walker moved to the pose's
    position and orientation, root velocities zero."""

    def initialize_pose(self, physics: Any, walker: Any, random_state: Any) -> None:
        qpos, xpos, xquat = walker.upright_pose
        if qpos is None:
            joints = physics.bind(walker.mjcf_model.find_all("joint"))
            walker.configure_joints(physics, joints.qpos0)
        else:
            walker.configure_joints(physics, qpos)
        walker.set_pose(physics, position=xpos, quaternion=xquat)
        walker.set_velocity(physics, velocity=np.zeros(3), angular_velocity=np.zeros(3))


class RandomlySampledInitializer(WalkerInitializer):
    """Runs one of `initializers`, chosen uniformly at each call.

    As in dm_control, the choice is drawn from NumPy's global generator
    (`np.random.randint`), not from the episode's `random_state`, so it does not
    follow the environment's seed. `draw_from_random_state=True` (this project's
    option) draws it from `random_state` instead, which makes episodes
    reproducible.

    Raises:
      ValueError: `initializers` is empty.
    """

    def __init__(
        self, initializers: Sequence[WalkerInitializer], draw_from_random_state: bool = False
    ) -> None:
        if not len(initializers):
            raise ValueError("RandomlySampledInitializer needs at least one initializer")
        self._initializers = initializers
        self.num_initializers = len(initializers)
        self._draw_from_random_state = draw_from_random_state

    def initialize_pose(self, physics: Any, walker: Any, random_state: Any) -> None:
        generator = random_state if self._draw_from_random_state else np.random
        index = generator.randint(0, self.num_initializers)
        self._initializers[index].initialize_pose(physics, walker, random_state)


class NoOpInitializer(WalkerInitializer):
    """Leaves the pose as it is."""

    def initialize_pose(self, physics: Any, walker: Any, random_state: Any) -> None:
        del physics, walker, random_state
