"""Maze foraging: collect every reward sphere of a random maze (dm_control locomotion).

A new labmaze maze every episode (`arenas.mazes.RandomMazeWithTargets`). The
walker spawns in a random spawn cell facing a random direction. Reward per
control step: `target_reward_scale` times the number of spheres collected in
that step (a sphere is collected when the walker's root comes within the
arena's reach of it), plus `aliveness_reward`. The episode ends when every
sphere is collected (discount 1) or when the walker falls (a non-foot geom
touching the floor; discount 0).
"""

from __future__ import annotations

import collections
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from composer_tasks.composer.observation import observable
from composer_tasks.tasks import termination
from composer_tasks.tasks import walker_state
from composer_tasks.tasks import walker_task

if TYPE_CHECKING:
    from composer_tasks.arenas.mazes import RandomMazeWithTargets
    from composer_tasks.composer.observation.observable import Observable
    from composer_tasks.physics import Physics
    from composer_tasks.walkers.base import Walker


class ManyGoalsMaze(walker_task.WalkerTask):
    """Forage: collect all targets of a random maze.

    Args:
      walker: a free walker (composer_tasks.walkers API).
      maze_arena: a `RandomMazeWithTargets` (`regenerate`, `spawn_position`,
        `collect_targets`, `targets_collected`, `target_positions`, `target_geoms`).
      target_reward_scale: reward per collected target.
      aliveness_reward: reward added every control step.
      randomize_spawn_rotation: face a uniformly random direction at the start.
      contact_termination: end the episode when a non-foot geom touches the floor.
      observe_targets: add `target_positions`, the egocentric positions (metres) of
        the targets not yet collected, one row per target slot of the arena
        (zeros for collected or unused slots), and `targets_remaining`, 1.0 per
        slot still to collect. dm_control's task gives only the egocentric
        camera; these let a blind agent forage too.
      enable_egocentric_camera: enable the walker's camera (needs a renderer).
      physics_timestep, control_timestep: seconds.
    """

    _arena: RandomMazeWithTargets

    def __init__(
        self,
        walker: Walker,
        maze_arena: RandomMazeWithTargets,
        target_reward_scale: float = 1.0,
        aliveness_reward: float = 0.0,
        randomize_spawn_rotation: bool = True,
        contact_termination: bool = True,
        observe_targets: bool = True,
        enable_egocentric_camera: bool = False,
        physics_timestep: float = 0.005,
        control_timestep: float = 0.025,
    ) -> None:
        if getattr(walker, "is_planar", False):
            raise ValueError("maze foraging needs a free (3-D) walker, not a planar one")
        self._walker = walker
        self._arena = maze_arena
        walker_state.attach_walker(maze_arena, walker)
        self._target_reward_scale = float(target_reward_scale)
        self._aliveness_reward = float(aliveness_reward)
        self._randomize_spawn_rotation = bool(randomize_spawn_rotation)
        self._fall_detector = termination.FallDetector(
            walker,
            maze_arena,
            contact_termination=contact_termination,
            min_end_effector_height=None,
        )
        self._failure_termination = False
        self._collected_this_step = 0
        self._target_slots = len(maze_arena.target_geoms)
        walker_state.enable_proprioception(walker)
        if enable_egocentric_camera:
            walker.observables.egocentric_camera.enabled = True
        self._task_observables: collections.OrderedDict[str, Observable] = collections.OrderedDict()
        if observe_targets:
            self._task_observables["target_positions"] = observable.Generic(
                self._egocentric_targets, enabled=True
            )
            self._task_observables["targets_remaining"] = observable.Generic(
                self._remaining_slots, enabled=True
            )
        self.set_timesteps(control_timestep, physics_timestep)

    def _remaining_slots(self, physics: Physics) -> np.ndarray:
        del physics
        remaining = np.zeros(self._target_slots)
        if self._arena.maze is None:  # Before the first episode.
            return remaining
        collected = self._arena.targets_collected
        remaining[: len(collected)] = ~collected
        return remaining

    def _egocentric_targets(self, physics: Physics) -> np.ndarray:
        rows = np.zeros((self._target_slots, 3))
        if self._arena.maze is None:  # Before the first episode.
            return rows
        targets = self._arena.target_positions
        offsets = targets - walker_state.root_position(physics, self._walker)
        egocentric = np.asarray(self._walker.transform_vec_to_egocentric_frame(physics, offsets))
        remaining = ~self._arena.targets_collected
        rows[: len(targets)][remaining] = egocentric.reshape(-1, 3)[remaining]
        return rows

    def initialize_episode(self, physics: Physics, random_state: np.random.RandomState) -> None:
        # The maze is drawn here, before the arena writes it, so that the spawn
        # cells are known.
        self._arena.regenerate(random_state)
        position = self._arena.spawn_position(random_state)
        yaw = random_state.uniform(0.0, 2.0 * np.pi) if self._randomize_spawn_rotation else None
        walker_state.place_walker(physics, self._walker, position, yaw)
        self._fall_detector.reset(physics)
        self._failure_termination = False
        self._collected_this_step = 0

    def after_step(self, physics: Physics, random_state: np.random.RandomState) -> None:
        self._failure_termination = self._fall_detector.has_fallen(physics)
        self._collected_this_step = self._arena.collect_targets(
            physics, walker_state.root_position(physics, self._walker)
        )

    def get_reward(self, physics: Physics) -> float:
        return self._target_reward_scale * self._collected_this_step + self._aliveness_reward

    def snapshot_state(self) -> dict[str, Any]:
        """The step's Python state (composer.Environment.snapshot)."""
        return dict(
            failure_termination=self._failure_termination,
            collected_this_step=self._collected_this_step,
        )

    def restore_state(self, state: Mapping[str, Any]) -> None:
        self._failure_termination = state["failure_termination"]
        self._collected_this_step = state["collected_this_step"]

    def should_terminate_episode(self, physics: Physics) -> bool:
        collected = self._arena.targets_collected
        return self._failure_termination or bool(collected.size and np.all(collected))

    def get_discount(self, physics: Physics) -> float:
        return 0.0 if self._failure_termination else 1.0
