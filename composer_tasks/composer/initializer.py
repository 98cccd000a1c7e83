"""The abstract initializer (dm_control's `composer.Initializer`)."""

import abc
from typing import Any

import numpy as np


class Initializer(metaclass=abc.ABCMeta):
    """Sets part of an episode's initial state when called from a task's
    `initialize_episode(physics, random_state)`; raises
    `composer.EpisodeInitializationError` when it cannot."""

    @abc.abstractmethod
    def __call__(self, physics: Any, random_state: np.random.RandomState) -> None:
        raise NotImplementedError
