"""Where the players and the ball start an episode (dm_control soccer `initializers.py`).

An `Initializer` is a callable `(task, physics, random_state)` that the soccer task
runs at every episode start (and, in a `MultiturnTask`, after every goal).
"""

from __future__ import annotations

import abc
from typing import TYPE_CHECKING

import numpy as np

from composer_tasks import composer

if TYPE_CHECKING:
    from composer_tasks.physics import Physics
    from composer_tasks.props.soccer_ball import SoccerBall
    from composer_tasks.tasks.soccer.task import Task
    from composer_tasks.walkers.legacy_base import LegacyWalker

# dm_control soccer initializers.py: _INIT_BALL_Z = 0.5 (m), _SPAWN_RATIO = 0.6.
INIT_BALL_Z_M = 0.5
SPAWN_RATIO = 0.6
# dm_control's default max_collision_avoidance_retries.
MAX_COLLISION_AVOIDANCE_RETRIES = 100


class Initializer(metaclass=abc.ABCMeta):
    """Places the players and the ball at the start of an episode."""

    @abc.abstractmethod
    def __call__(self, task: Task, physics: Physics, random_state: np.random.RandomState) -> None:
        """Initialises the episode of `task` (a soccer `Task`) in `physics`."""


class UniformInitializer(Initializer):
    """Places the ball and every player uniformly at random over the central
    `spawn_ratio` of the pitch, each player with a uniformly random heading,
    everything at rest; redraws everything while the ball or a player touches
    another player or the ball (dm_control's `UniformInitializer`).

    Args:
      spawn_ratio: fraction of the pitch's half-length and half-width (`arena.size`)
        over which x and y are drawn, in (0, 1].
      init_ball_z: height of the ball's centre (m).
      max_collision_avoidance_retries: redraws allowed before giving up.

    Raises (at a reset):
      composer.EpisodeInitializationError: no draw without contacts was found in
        `max_collision_avoidance_retries` redraws.
    """

    def __init__(
        self,
        spawn_ratio: float = SPAWN_RATIO,
        init_ball_z: float = INIT_BALL_Z_M,
        max_collision_avoidance_retries: int = MAX_COLLISION_AVOIDANCE_RETRIES,
    ) -> None:
        if not 0.0 < spawn_ratio <= 1.0:
            raise ValueError(f"spawn_ratio must be in (0, 1], got {spawn_ratio!r}")
        if not np.isfinite(init_ball_z) or init_ball_z <= 0.0:
            raise ValueError(f"init_ball_z must be a positive height in m, got {init_ball_z!r}")
        if (
            isinstance(max_collision_avoidance_retries, bool)
            or not isinstance(max_collision_avoidance_retries, (int, np.integer))
            or max_collision_avoidance_retries < 0
        ):
            raise ValueError(
                f"max_collision_avoidance_retries must be an int >= 0, got {max_collision_avoidance_retries!r}"
            )
        self._spawn_ratio = float(spawn_ratio)
        self._init_ball_z = float(init_ball_z)
        self._max_retries = int(max_collision_avoidance_retries)

    def _initialize_ball(
        self,
        ball: SoccerBall,
        spawn_range: np.ndarray,
        physics: Physics,
        random_state: np.random.RandomState,
    ) -> None:
        x, y = random_state.uniform(-spawn_range, spawn_range)
        ball.set_pose(physics, [x, y, self._init_ball_z])
        # The initializer also runs mid-episode (after goals): velocities are zeroed.
        ball.set_velocity(physics, velocity=np.zeros(3), angular_velocity=np.zeros(3))

    def _initialize_walker(
        self,
        walker: LegacyWalker,
        spawn_range: np.ndarray,
        physics: Physics,
        random_state: np.random.RandomState,
    ) -> None:
        walker.reinitialize_pose(physics, random_state)
        x, y = random_state.uniform(-spawn_range, spawn_range)
        (_, _, z), quaternion = walker.get_pose(physics)
        walker.set_pose(physics, [x, y, z], quaternion)
        rotation = random_state.uniform(-np.pi, np.pi)
        walker.shift_pose(
            physics, quaternion=[np.cos(rotation / 2), 0.0, 0.0, np.sin(rotation / 2)]
        )
        walker.set_velocity(physics, velocity=np.zeros(3), angular_velocity=np.zeros(3))

    def _draw(self, task: Task, physics: Physics, random_state: np.random.RandomState) -> None:
        spawn_range = np.asarray(task.arena.size, dtype=np.float64) * self._spawn_ratio
        self._initialize_ball(task.ball, spawn_range, physics, random_state)
        for player in task.players:
            self._initialize_walker(player.walker, spawn_range, physics, random_state)

    def __call__(self, task: Task, physics: Physics, random_state: np.random.RandomState) -> None:
        owners = task.geom_owners(physics)
        for _ in range(self._max_retries + 1):
            self._draw(task, physics, random_state)
            physics.forward()
            if not _has_entity_contact(physics, owners):
                return
        raise composer.EpisodeInitializationError(
            f"UniformInitializer: no placement of the ball and {len(task.players)} players without "
            f"contacts between them in {self._max_retries + 1} draws"
        )


def _has_entity_contact(physics: Physics, owners: np.ndarray) -> bool:
    """True if a contact joins geoms of two different entities among the ball and the
    players (`owners[geom_id]`: the entity index, -1 for geoms of neither)."""
    if physics.data.ncon == 0:
        return False
    contact = physics.data.contact
    first = owners[contact.geom1]
    second = owners[contact.geom2]
    return bool(np.any((first >= 0) & (second >= 0) & (first != second)))
