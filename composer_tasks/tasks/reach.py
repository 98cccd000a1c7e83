"""TwoTouch: tap a target twice with a set interval (dm_control's
`locomotion.tasks.reach`, for the rat).

A target (`props.target_sphere.TargetSphereTwoTouch`, which counts only the
walker's hands) floats `z_height` metres above a random point of
`target_area` (half-extents, metres, around the origin). Touching it pays the
target's reward; touching it again `touch_interval` +- `interval_tolerance`
seconds later pays it again. A second touch too soon, or none in time, starts
a time-out of `failure_timeout` seconds; after it (or `reset_delay` seconds
after a good second touch) the target moves to a new random place. Every step
also pays 0.01 x the target's reward x exp(-3 x L1 distance of the nearer hand
to the target), plus `aliveness_reward`. Episodes end only by time limit.

Observation `task_logic`: the state of the touch sequence (`TwoTouchState`).

As dm_control, the target places and the spawn heading are drawn from numpy's
global generator (seed it, `np.random.seed`, for dm_control's episodes);
`draw_from_random_state=True` (this project's) draws them from the episode's `random_state`
instead, so that the Environment's seed alone fixes the episode. The targets are built once and stay attached (dm_control
builds new ones every episode); with `shuffle_target_builders`, the builder
whose target is used is drawn each episode and the others are parked.
"""

from __future__ import annotations

import collections
import enum
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import mujoco
import numpy as np

from composer_tasks import composer
from composer_tasks.composer.observation import observable
from composer_tasks.tasks import walker_state
from composer_tasks.tasks import walker_task

if TYPE_CHECKING:
    from composer_tasks.composer.observation.observable import Observable
    from composer_tasks.physics import Physics
    from composer_tasks.walkers.base import Walker

DEFAULT_ALIVE_THRESHOLD = -1.0
DEFAULT_PHYSICS_TIMESTEP = 0.005
DEFAULT_CONTROL_TIMESTEP = 0.03
# The hands dm_control's task looks for, by walker: (left, right) body names.
_HANDS = {"Rat": ("hand_L", "hand_R"), "CMUHumanoid": ("lhand", "rhand")}
# Where parked targets wait (world frame, metres): far below the floor.
_PARKED_TARGET_Z_M = -200.0
# The shaping term: 0.01 x reward x exp(-3 x L1 distance in metres).
_CLOSENESS_WEIGHT = 0.01
_CLOSENESS_DECAY_PER_M = 3.0


class TwoTouchState(enum.IntEnum):
    """Where the walker is in the touch sequence."""

    PRE_TOUCH = 0
    TOUCHED_ONCE = 1
    TOUCHED_TWICE = 2  # at the right time
    TOUCHED_TOO_SOON = 3
    NO_SECOND_TOUCH = 4


def _hand_names(walker: Any) -> tuple[str, str]:
    for kind in type(walker).__mro__:
        if kind.__name__ in _HANDS:
            return _HANDS[kind.__name__]
    raise ValueError(f"TwoTouch expects a Rat or a CMUHumanoid walker, got {type(walker).__name__}")


class TwoTouch(walker_task.WalkerTask):
    """Tap a target twice, `touch_interval` seconds apart.

    Args:
      walker: a `walkers.Rat` or `walkers.CMUHumanoid`.
      arena: an arena with `size` (half-lengths, metres), e.g. `arenas.Floor`.
      target_builders: callables `builder(name=...)` -> a two-touch target (an
        entity with `geom`, `activated` (a pair) and `reset(physics)`); the
        first is used (after an optional shuffle).
      target_type_rewards: rewards by target type; the target, whichever builder
        made it, pays the first (dm_control's indexing).
      shuffle_target_builders: draw the builder order every episode.
      randomize_spawn_position: spawn at a random `arena.spawn_positions` entry
        (else at the origin).
      randomize_spawn_rotation: spawn facing a random direction.
      rotation_bias_factor: kept for dm_control's signature (unused there too).
      aliveness_reward: reward every step.
      touch_interval, interval_tolerance, failure_timeout, reset_delay: seconds.
      z_height: height of the target centre, metres (5.5 inches).
      target_area: (x, y) half-extents where targets go; empty for half the
        arena's size.
      physics_timestep, control_timestep: seconds.

    Keyword-only, this project's own (dm_control's parameters above keep its names
    and order, so its positional calls bind the same here):
      enable_egocentric_camera: enable the walker's 64 x 64 egocentric camera, as
        dm_control does (the default); False leaves it off, so that the task needs
        no renderer.
      draw_from_random_state: draw the target places and the spawn heading from the
        episode's `random_state` (False: numpy's global generator, as dm_control).
    """

    def __init__(
        self,
        walker: Walker,
        arena: composer.Arena,
        target_builders: Sequence[Callable[..., composer.Entity]],
        target_type_rewards: Sequence[float],
        shuffle_target_builders: bool = False,
        randomize_spawn_position: bool = False,
        randomize_spawn_rotation: bool = True,
        rotation_bias_factor: float = 0.0,
        aliveness_reward: float = 0.0,
        touch_interval: float = 0.8,
        interval_tolerance: float = 0.1,
        failure_timeout: float = 1.2,
        reset_delay: float = 0.0,
        z_height: float = 0.14,
        target_area: Sequence[float] = (),
        physics_timestep: float = DEFAULT_PHYSICS_TIMESTEP,
        control_timestep: float = DEFAULT_CONTROL_TIMESTEP,
        *,
        enable_egocentric_camera: bool = True,
        draw_from_random_state: bool = False,
    ) -> None:
        if not isinstance(draw_from_random_state, (bool, np.bool_)):
            raise ValueError(
                f"draw_from_random_state must be a bool, got {draw_from_random_state!r}"
            )
        # dm_control draws the target places and the spawn heading from numpy's global
        # generator; `draw_from_random_state` (this project's) takes them from the episode's.
        self._draw_from_random_state = bool(draw_from_random_state)
        left, right = _hand_names(walker)
        self._walker = walker
        self._arena = arena
        # Found by name before attaching, which prefixes the walker's names.
        hands = []
        for hand_name in (left, right):
            body = walker.spec.body(hand_name)
            if body is None:
                raise ValueError(f"walker {walker.name!r} has no body {hand_name!r}")
            hands.append(body)
        self._lhand_body, self._rhand_body = hands
        self._hand_geoms = [
            geom for body in hands for geom in body.find_all(mujoco.mjtObj.mjOBJ_GEOM)
        ]
        walker_state.attach_walker(arena, walker)
        if not target_builders or len(target_type_rewards) < 1:
            raise ValueError("TwoTouch needs at least one target builder and its reward")
        self._target_builders = list(target_builders)
        self._target_type_rewards = tuple(float(r) for r in target_type_rewards)
        self._shuffle_target_builders = bool(shuffle_target_builders)
        self._randomize_spawn_position = bool(randomize_spawn_position)
        self._randomize_spawn_rotation = bool(randomize_spawn_rotation)
        self._rotation_bias_factor = float(rotation_bias_factor)
        self._aliveness_reward = float(aliveness_reward)
        self._touch_interval = float(touch_interval)
        self._interval_tolerance = float(interval_tolerance)
        self._failure_timeout = float(failure_timeout)
        self._reset_delay = float(reset_delay)
        self._z_height = float(z_height)
        if len(target_area):
            if len(target_area) != 2:
                raise ValueError(f"target_area must be (x, y) half-extents, got {target_area!r}")
            self._target_area = tuple(float(a) for a in target_area)
        else:
            size = getattr(arena, "size", None)
            if size is None:
                raise ValueError("give target_area, or an arena with a `size`")
            self._target_area = (size[0] / 2, size[1] / 2)
        # One target position (dm_control's task places exactly one target).
        self._target_positions = [(1.0, 1.0, self._z_height)]
        # One target per builder, attached for good; the episode's is the first
        # builder's after the optional shuffle.
        self._builder_targets = [
            builder(name=f"target_{index}_0") for index, builder in enumerate(self._target_builders)
        ]
        for target in self._builder_targets:
            arena.attach(target)
        self._builder_order = list(range(len(self._target_builders)))
        self._state_logic = TwoTouchState.PRE_TOUCH
        self._discount = 1.0
        self._spawn_position = np.zeros(2)
        self._reset_touch_state()
        self._must_randomize_targets = False
        self._task_observables: collections.OrderedDict[str, Observable] = collections.OrderedDict()
        self._task_observables["task_logic"] = observable.Generic(
            lambda physics: np.array([self._state_logic]), enabled=True
        )
        walker_state.enable_proprioception(walker)
        # dm_control observes the rat's egocentric camera at 64 x 64 pixels.
        camera: Any = walker.observables.egocentric_camera
        camera.height = 64
        camera.width = 64
        if enable_egocentric_camera:
            walker.observables.egocentric_camera.enabled = True
        self.set_timesteps(control_timestep, physics_timestep)

    @property
    def name(self) -> str:
        return "two_touch"

    @property
    def state(self) -> TwoTouchState:
        """The state of the touch sequence."""
        return self._state_logic

    @property
    def target(self) -> composer.Entity:
        """This episode's target."""
        return self._builder_targets[self._builder_order[0]]

    def _reset_touch_state(self) -> None:
        self._target_rewarded_once = False
        self._target_rewarded_twice = False
        self._first_touch_time: float | None = None
        self._second_touch_time: float | None = None
        self._do_time_out = False
        self._state_logic = TwoTouchState.PRE_TOUCH

    def _draws(self, random_state: np.random.RandomState) -> np.random.RandomState:
        """Where the target places and the spawn heading are drawn from: numpy's global
        generator, as dm_control (which calls them without its random state), or with
        `draw_from_random_state` the episode's `random_state`."""
        return random_state if self._draw_from_random_state else np.random.mtrand._rand

    def _randomize_targets(self, physics: Physics, random_state: np.random.RandomState) -> None:
        random_state = self._draws(random_state)
        for index in range(len(self._target_positions)):
            x = self._target_area[0] * random_state.uniform(-1.0, 1.0)
            y = self._target_area[1] * random_state.uniform(-1.0, 1.0)
            self._target_positions[index] = (x, y, self._z_height)
        positions = np.copy(self._target_positions)
        random_state.shuffle(positions)
        target = self.target
        getattr(target, "reset")(physics)
        physics.bind(getattr(target, "geom")).pos = positions[0]
        self._reset_touch_state()

    def initialize_episode_mjcf(self, random_state: np.random.RandomState) -> None:
        regenerate = getattr(self._arena, "regenerate", None)
        if regenerate is not None:
            regenerate(random_state)
        positions = np.copy(self._target_positions)
        random_state.shuffle(positions)
        if self._shuffle_target_builders:
            random_state.shuffle(self._builder_order)

    def _respawn_walker(self, physics: Physics, random_state: np.random.RandomState) -> None:
        walker_state.reset_walker_pose(physics, self._walker, random_state)
        if self._randomize_spawn_position:
            spawn_positions = getattr(self._arena, "spawn_positions")
            self._spawn_position = np.asarray(
                spawn_positions[random_state.randint(0, len(spawn_positions))]
            )[:2]
        quaternion = None
        if self._randomize_spawn_rotation:
            rotation = 2 * np.pi * self._draws(random_state).uniform()
            quaternion = [np.cos(rotation / 2), 0.0, 0.0, np.sin(rotation / 2)]
        self._walker.shift_pose(
            physics,
            [self._spawn_position[0], self._spawn_position[1], 0.0],
            quaternion,
            rotate_velocity=True,
        )

    def initialize_episode(self, physics: Physics, random_state: np.random.RandomState) -> None:
        self._respawn_walker(physics, random_state)
        self._discount = 1.0
        hand_ids = {int(i) for i in physics.bind(self._hand_geoms).id}
        active = self.target
        for target in self._builder_targets:
            if target is not active:
                physics.bind(getattr(target, "geom")).pos = (0.0, 0.0, _PARKED_TARGET_Z_M)
            # dm_control sets this private filter of its two-touch targets too.
            target._specific_collision_geom_ids = hand_ids  # type: ignore[attr-defined]
        self._randomize_targets(physics, random_state)
        self._must_randomize_targets = False

    def before_step(
        self, physics: Physics, action: np.ndarray, random_state: np.random.RandomState
    ) -> None:
        super().before_step(physics, action, random_state)
        if self._must_randomize_targets:
            self._randomize_targets(physics, random_state)
            self._must_randomize_targets = False

    def should_terminate_episode(self, physics: Physics) -> bool:
        return False

    def get_reward(self, physics: Physics) -> float:
        """The reward (see the module docstring); advances the touch sequence."""
        reward = self._aliveness_reward
        target = self.target
        # dm_control indexes the rewards by the target's place in its (shuffled)
        # builder list, which is always the first: the first reward.
        target_reward = self._target_type_rewards[0]
        target_pos = np.array(physics.bind(getattr(target, "geom")).xpos)
        closeness = max(
            np.exp(-_CLOSENESS_DECAY_PER_M * np.sum(np.abs(physics.bind(hand).xpos - target_pos)))
            for hand in (self._lhand_body, self._rhand_body)
        )
        reward += _CLOSENESS_WEIGHT * closeness * target_reward
        touched_once, touched_twice = getattr(target, "activated")
        now = float(physics.data.time)
        if self._state_logic == TwoTouchState.PRE_TOUCH:
            if touched_once and not self._target_rewarded_once:
                self._first_touch_time = now
                self._state_logic = TwoTouchState.TOUCHED_ONCE
                self._target_rewarded_once = True
                reward += target_reward
        elif self._state_logic == TwoTouchState.TOUCHED_ONCE:
            assert self._first_touch_time is not None
            if touched_twice and not self._target_rewarded_twice:
                self._second_touch_time = now
                self._state_logic = TwoTouchState.TOUCHED_TWICE
                self._target_rewarded_twice = True
                interval = now - self._first_touch_time
                if interval < self._touch_interval - self._interval_tolerance:
                    self._do_time_out = True
                    self._state_logic = TwoTouchState.TOUCHED_TOO_SOON
                elif interval <= self._touch_interval + self._interval_tolerance:
                    reward += target_reward
            if now - self._first_touch_time > self._touch_interval + self._interval_tolerance:
                self._do_time_out = True
                self._state_logic = TwoTouchState.NO_SECOND_TOUCH
                self._second_touch_time = now
        else:
            assert self._second_touch_time is not None
            if self._do_time_out:
                if now > self._second_touch_time + self._failure_timeout:
                    self._do_time_out = False
            elif now > self._second_touch_time + self._reset_delay:
                self._must_randomize_targets = True
        # A NumPy float, as dm_control's (its closeness term is one).
        return np.float64(reward)

    def get_discount(self, physics: Physics) -> float:
        del physics
        return self._discount

    def snapshot_state(self) -> dict[str, Any]:
        """The task's Python state (composer.Environment.snapshot)."""
        return dict(
            state=int(self._state_logic),
            rewarded=(self._target_rewarded_once, self._target_rewarded_twice),
            times=(self._first_touch_time, self._second_touch_time),
            do_time_out=self._do_time_out,
            must_randomize=self._must_randomize_targets,
            builder_order=list(self._builder_order),
            target_positions=list(self._target_positions),
            spawn_position=self._spawn_position.copy(),
        )

    def restore_state(self, state: Mapping[str, Any]) -> None:
        self._state_logic = TwoTouchState(state["state"])
        self._target_rewarded_once, self._target_rewarded_twice = state["rewarded"]
        self._first_touch_time, self._second_touch_time = state["times"]
        self._do_time_out = state["do_time_out"]
        self._must_randomize_targets = state["must_randomize"]
        self._builder_order = list(state["builder_order"])
        self._target_positions = list(state["target_positions"])
        self._spawn_position = state["spawn_position"].copy()
