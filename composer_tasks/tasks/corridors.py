"""RunThroughCorridor: run along a corridor at a target speed (dm_control paper §7.1).

The reward is a unit-interval function of the walker's centre-of-mass velocity
along the corridor (+x), v_x, with the target speed v* (dm_control,
arXiv:2006.12983, §7.1):

    r = tolerance(v_x, bounds=(v*, v*), margin=v*, sigmoid="linear", value_at_margin=0)
      = max(0, 1 - |v_x - v*| / v*)

1 at exactly v*, falling linearly to 0 at standstill and at 2 v*. The episode
ends (discount 0) when the walker falls (see `termination.FallDetector`).
"""

from __future__ import annotations

import collections
from typing import TYPE_CHECKING, Any

import numpy as np

from composer_tasks import composer, rewards
from composer_tasks.composer import variation
from composer_tasks.tasks import termination
from composer_tasks.tasks import walker_state
from composer_tasks.tasks import walker_task

if TYPE_CHECKING:
    from composer_tasks.physics import Physics
    from composer_tasks.walkers.base import Walker


class RunThroughCorridor(walker_task.WalkerTask):
    """Run through a corridor arena at `target_velocity`.

    Args:
      walker: a walker (composer_tasks.walkers API).
      arena: a corridor arena (or any arena with ground geoms); the walker is
        attached to it here. Corridors draw a new layout in their own episode
        callbacks.
      walker_spawn_position: (x, y, z) world position in metres, or a variation
        producing one, of the walker's frame at the start of an episode.
      walker_spawn_rotation: None, a yaw in radians, or a variation producing one.
      target_velocity: target speed along +x, m/s (> 0).
      contact_termination: end the episode when a non-foot geom touches the ground.
      terminate_at_height: end the episode when an end effector's world z is below
        this (metres; the default -0.5 m catches falls into gaps). None disables it.
      physics_timestep, control_timestep: seconds; the control one must be a
        multiple of the physics one.

    Keyword-only, this project's own (dm_control's parameters above keep its names
    and order, so its positional calls bind the same here):
      min_root_height: end the episode when the root body's world z is below this
        (metres). None (the default, as published) disables it.
      enable_egocentric_camera: True (dm_control's behaviour) enables the walker's
        egocentric camera observable, which renders at every step; False leaves it
        off, so that the task needs no renderer.
    """

    def __init__(
        self,
        walker: Walker,
        arena: composer.Arena,
        walker_spawn_position: walker_task.Evaluable = (0.0, 0.0, 0.0),
        walker_spawn_rotation: walker_task.Evaluable = None,
        target_velocity: float = 3.0,
        contact_termination: bool = True,
        terminate_at_height: float | None = -0.5,
        physics_timestep: float = 0.005,
        control_timestep: float = 0.025,
        *,
        min_root_height: float | None = None,
        enable_egocentric_camera: bool = True,
    ) -> None:
        if not np.isfinite(target_velocity) or target_velocity <= 0:
            raise ValueError(
                f"target_velocity must be a positive speed in m/s, got {target_velocity!r}"
            )
        self._walker = walker
        self._arena = arena
        self._task_observables = collections.OrderedDict()
        walker_state.attach_walker(arena, walker)
        # dm_control's task sets these clipping planes (metres) on the arena at every
        # episode's MJCF stage; they never change, so once here keeps the model.
        arena.spec.visual.map.znear = 0.00025
        arena.spec.visual.map.zfar = 4.0
        self._walker_spawn_position = walker_spawn_position
        self._walker_spawn_rotation = walker_spawn_rotation
        self._target_velocity = float(target_velocity)
        self._fall_detector = termination.FallDetector(
            walker,
            arena,
            contact_termination=contact_termination,
            min_end_effector_height=terminate_at_height,
            min_root_height=min_root_height,
        )
        self._failure_termination = False
        walker_state.enable_proprioception(walker)
        if enable_egocentric_camera:
            walker.observables.egocentric_camera.enabled = True
        self.set_timesteps(control_timestep, physics_timestep)

    @property
    def target_velocity(self) -> float:
        """Target speed along the corridor (+x), m/s."""
        return self._target_velocity

    def initialize_episode_mjcf(self, random_state: np.random.RandomState) -> None:
        """As dm_control's task: the arena draws and builds its next layout here (a
        corridor rebuilt in the model, compiled at this reset). An arena that lays
        out without recompiling (`pooled`) draws in `initialize_episode` instead."""
        arena: Any = self._arena  # a corridor, or any arena with `regenerate`
        if walker_task.regenerates_in_mjcf(arena):
            arena.regenerate(random_state)

    def initialize_episode(self, physics: Physics, random_state: np.random.RandomState) -> None:
        arena: Any = self._arena
        if walker_task.regenerates_in_episode(arena):
            # The layout's draws before the walker's, in dm_control's order; the
            # arena's own `initialize_episode` writes this layout.
            arena.regenerate(random_state)
        position = variation.evaluate(self._walker_spawn_position, random_state=random_state)
        position = np.asarray(position, dtype=np.float64)
        if position.shape != (3,):
            raise ValueError(
                f"walker_spawn_position must give (x, y, z) in metres, got {position!r}"
            )
        quaternion = None
        # dm_control tests the rotation's truth: None and 0 both leave the heading.
        if self._walker_spawn_rotation:
            yaw = float(variation.evaluate(self._walker_spawn_rotation, random_state=random_state))
            quaternion = walker_state.yaw_quaternion(yaw)
        walker_state.respawn_walker(physics, self._walker, random_state, position, quaternion)
        self._fall_detector.reset(physics)
        self._failure_termination = False

    def after_step(self, physics: Physics, random_state: np.random.RandomState) -> None:
        self._failure_termination = self._fall_detector.has_fallen(physics)

    def get_reward(self, physics: Physics) -> float:
        velocity = walker_state.center_of_mass_velocity(physics, self._walker)[0]
        # A float in, a float out (`tolerance`): float() only tells the type checker.
        return float(
            rewards.tolerance(
                float(velocity),
                bounds=(self._target_velocity, self._target_velocity),
                margin=self._target_velocity,
                sigmoid="linear",
                value_at_margin=0.0,
            )
        )

    def should_terminate_episode(self, physics: Physics) -> bool:
        return self._failure_termination

    def get_discount(self, physics: Physics) -> float:
        return 0.0 if self._failure_termination else 1.0
