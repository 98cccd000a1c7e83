"""Initializers: callables that set part of the initial state of an episode.

Tasks call them from `initialize_episode(physics, random_state)`:

* `PropPlacer` (`prop_initializer`) places free props at sampled poses, rejecting
  poses in which a prop penetrates anything, and optionally lets them settle.
* `ToolCenterPointInitializer` (`tcp_initializer`) moves an arm so that its
  hand's tool centre point reaches a sampled pose, by inverse kinematics.

They follow dm_control's `composer.initializers` (dm-control 1.0.50) in
behaviour and defaults, and raise `composer.EpisodeInitializationError` (the
Environment retries the reset up to `max_reset_attempts` times); the code is
this project's.
"""

from composer_tasks.composer.environment import EpisodeInitializationError
from composer_tasks.composer.initializers import prop_initializer
from composer_tasks.composer.initializers import tcp_initializer
from composer_tasks.composer.initializers import utils
from composer_tasks.composer.initializers.prop_initializer import PropPlacer
from composer_tasks.composer.initializers.tcp_initializer import ToolCenterPointInitializer
from composer_tasks.composer.initializers.tcp_initializer import qpos_from_site_pose
from composer_tasks.composer.initializers.utils import geoms_of
from composer_tasks.composer.robot import DOWN_QUATERNION

__all__ = [
    "DOWN_QUATERNION",
    "EpisodeInitializationError",
    "PropPlacer",
    "ToolCenterPointInitializer",
    "geoms_of",
    "prop_initializer",
    "qpos_from_site_pose",
    "tcp_initializer",
    "utils",
]
