"""The abstract robot (dm_control's `composer.Robot`)."""

import abc
from typing import Any, Sequence

import numpy as np

from composer_tasks.composer.entity import Entity

# The orientation (w, x, y, z) of a gripper pointing down, as dm_control defines it.
DOWN_QUATERNION = np.array([0.0, 0.70710678118, 0.70710678118, 0.0])


class Robot(Entity, metaclass=abc.ABCMeta):
    """An entity with actuators."""

    @property
    @abc.abstractmethod
    def actuators(self) -> Sequence[Any]:
        """The robot's actuator elements."""
        raise NotImplementedError
