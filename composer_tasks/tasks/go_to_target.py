"""GoToTarget: walk to a target placed at random on the floor (dm_control locomotion).

Reward: 1 while the walker's root is within `distance_tolerance` metres of the
target (horizontal distance), else 0. The episode ends (discount 0) when a
non-foot geom of the walker touches the ground. With `moving_target`, the target
jumps to a new random place after the walker has collected
`steps_before_moving_target` rewarded steps.
"""

from __future__ import annotations

import collections
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import mujoco
import numpy as np

from composer_tasks.composer import variation
from composer_tasks.composer.observation import observable
from composer_tasks.tasks import termination
from composer_tasks.tasks import walker_state
from composer_tasks.tasks import walker_task

if TYPE_CHECKING:
    from composer_tasks.arenas.floor import Floor
    from composer_tasks.physics import Physics
    from composer_tasks.walkers.base import Walker

# With spawn_over_whole_floor, keeps random targets and spawns this far inside the
# floor's edges, metres.
_EDGE_MARGIN_M = 0.5

# The default of `distance_tolerance`, metres (dm_control go_to_target.py).
DEFAULT_DISTANCE_TOLERANCE_TO_TARGET = 1.0


class GoToTarget(walker_task.WalkerTask):
    """Go to a target on a floor.

    Args:
      walker: a walker (composer_tasks.walkers API).
      arena: a floor with `size` (half-lengths x, y in metres) and ground geoms.
      moving_target: move the target after `steps_before_moving_target` rewarded
        control steps.
      target_relative: with `moving_target`, each move places the target at the
        walker's root (x, y) plus an offset drawn uniformly from
        [-target_relative_dist, target_relative_dist] on each axis, instead of a
        draw from `target_spawn_position` (as dm_control; the first target of an
        episode is always drawn from `target_spawn_position`).
      target_relative_dist: metres (>= 0), the half-width of that offset's square.
      steps_before_moving_target: int >= 1.
      distance_tolerance: metres.
      target_spawn_position: None (uniform over the default spawn region, see
        `spawn_over_whole_floor`) or (x, y) metres or a variation producing them.
      walker_spawn_position: likewise, for the walker.
      walker_spawn_rotation: None, a yaw in radians, or a variation producing one.
      physics_timestep, control_timestep: seconds.

    Keyword-only, this project's own (dm_control's parameters above keep its names
    and order, so its positional calls bind the same here):
      spawn_over_whole_floor: opt-in. False (dm_control's default): the default
        spawn region is x, y uniform in [-size/2, size/2], the inner half of the
        floor (`size` holds half-lengths). True: uniform over the whole floor but a
        0.5 m margin at its edges, [-(size - 0.5), size - 0.5].

    Observation `<walker>/target` (dm_control's name, an observable the task adds to
    the walker): the target relative to the walker's root, in the walker's
    egocentric frame, metres.
    """

    _arena: Floor

    def __init__(
        self,
        walker: Walker,
        arena: Floor,
        moving_target: bool = False,
        target_relative: bool = False,
        target_relative_dist: float = 1.5,
        steps_before_moving_target: int = 10,
        distance_tolerance: float = DEFAULT_DISTANCE_TOLERANCE_TO_TARGET,
        target_spawn_position: walker_task.Evaluable = None,
        walker_spawn_position: walker_task.Evaluable = None,
        walker_spawn_rotation: walker_task.Evaluable = None,
        physics_timestep: float = 0.005,
        control_timestep: float = 0.025,
        *,
        spawn_over_whole_floor: bool = False,
    ) -> None:
        steps = steps_before_moving_target
        if isinstance(steps, bool) or not isinstance(steps, (int, np.integer)) or steps < 1:
            raise ValueError(f"steps_before_moving_target must be an int >= 1, got {steps!r}")
        if not distance_tolerance > 0:
            raise ValueError(
                f"distance_tolerance must be positive metres, got {distance_tolerance!r}"
            )
        relative_dist = float(target_relative_dist)
        if not (np.isfinite(relative_dist) and relative_dist >= 0):
            raise ValueError(
                f"target_relative_dist must be finite metres >= 0, got {target_relative_dist!r}"
            )
        self._walker = walker
        self._arena = arena
        walker_state.attach_walker(arena, walker)
        if not isinstance(spawn_over_whole_floor, bool):
            raise TypeError(
                f"spawn_over_whole_floor must be a bool, got {spawn_over_whole_floor!r}"
            )
        size = np.asarray(arena.size, dtype=np.float64)
        half_size = size - _EDGE_MARGIN_M if spawn_over_whole_floor else size / 2
        if np.any(half_size <= 0):
            raise ValueError(f"arena {arena.name!r} of size {arena.size} is too small for targets")
        self._floor_half_size = half_size
        self._target_spawn_position = target_spawn_position
        self._walker_spawn_position = walker_spawn_position
        self._walker_spawn_rotation = walker_spawn_rotation
        self._moving_target = bool(moving_target)
        self._target_relative = bool(target_relative)
        self._target_relative_dist = relative_dist
        self._steps_before_moving_target = int(steps_before_moving_target)
        self._distance_tolerance = float(distance_tolerance)
        self._rewarded_steps = 0
        self._target = arena.spec.worldbody.add_site(
            name="target",
            type=mujoco.mjtGeom.mjGEOM_SPHERE,
            size=[0.1, 0.0, 0.0],
            rgba=[0.9, 0.6, 0.6, 1.0],
        )
        self._fall_detector = termination.FallDetector(
            walker, arena, contact_termination=True, min_end_effector_height=None
        )
        self._failure_termination = False
        walker_state.enable_proprioception(walker)
        # As dm_control (which adds it with `add_egocentric_vector`): the walker's
        # observable `target`, enabled, not a task observable.
        walker.observables.add_observable(
            "target", observable.Generic(self._egocentric_target), enabled=True
        )
        self._task_observables = collections.OrderedDict()
        self.set_timesteps(control_timestep, physics_timestep)

    def target_position(self, physics: Physics) -> np.ndarray:
        """World position (3,) of the target, metres."""
        return np.array(physics.bind(self._target).pos)

    def _egocentric_target(self, physics: Physics) -> np.ndarray:
        offset = self.target_position(physics) - walker_state.root_position(physics, self._walker)
        return np.asarray(self._walker.transform_vec_to_egocentric_frame(physics, offset))

    def _random_floor_point(
        self, distribution: walker_task.Evaluable, random_state: np.random.RandomState
    ) -> np.ndarray:
        if distribution is None:
            return random_state.uniform(-self._floor_half_size, self._floor_half_size)
        point = np.asarray(
            variation.evaluate(distribution, random_state=random_state), dtype=np.float64
        )
        if point.shape != (2,):
            raise ValueError(f"spawn positions must be (x, y) in metres, got {point!r}")
        return point

    def initialize_episode(self, physics: Physics, random_state: np.random.RandomState) -> None:
        target_xy = self._random_floor_point(self._target_spawn_position, random_state)
        physics.bind(self._target).pos = [target_xy[0], target_xy[1], 0.0]
        walker_xy = self._random_floor_point(self._walker_spawn_position, random_state)
        yaw = None
        if self._walker_spawn_rotation is not None:
            yaw = variation.evaluate(self._walker_spawn_rotation, random_state=random_state)
        walker_state.place_walker(physics, self._walker, [walker_xy[0], walker_xy[1], 0.0], yaw)
        self._fall_detector.reset(physics)
        self._failure_termination = False
        self._rewarded_steps = 0

    def _distance_to_target(self, physics: Physics) -> float:
        walker_xy = walker_state.root_position(physics, self._walker)[:2]
        offset = self.target_position(physics)[:2] - walker_xy
        return float(np.hypot(*offset))

    def after_step(self, physics: Physics, random_state: np.random.RandomState) -> None:
        self._failure_termination = self._fall_detector.has_fallen(physics)
        if self._moving_target and self._rewarded_steps >= self._steps_before_moving_target:
            if self._target_relative:
                # dm_control go_to_target.py: one uniform draw of (x, y) in the square
                # of half-width target_relative_dist, added to the root's (x, y).
                half_width = np.full(2, self._target_relative_dist)
                root_xy = walker_state.root_position(physics, self._walker)[:2]
                target_xy = root_xy + random_state.uniform(-half_width, half_width)
            else:
                target_xy = self._random_floor_point(self._target_spawn_position, random_state)
            physics.bind(self._target).pos = [target_xy[0], target_xy[1], 0.0]
            self._rewarded_steps = 0

    def get_reward(self, physics: Physics) -> float:
        if self._distance_to_target(physics) < self._distance_tolerance:
            self._rewarded_steps += 1
            return 1.0
        return 0.0

    # Snapshots (composer.Environment.snapshot): the steps at the target are Python state.

    def snapshot_state(self) -> dict[str, Any]:
        """Whether the last step failed and the steps spent at this target."""
        return {
            "failure_termination": self._failure_termination,
            "rewarded_steps": self._rewarded_steps,
        }

    def restore_state(self, state: Mapping[str, Any]) -> None:
        self._failure_termination = bool(state["failure_termination"])
        self._rewarded_steps = int(state["rewarded_steps"])

    def should_terminate_episode(self, physics: Physics) -> bool:
        return self._failure_termination

    def get_discount(self, physics: Physics) -> float:
        return 0.0 if self._failure_termination else 1.0
