"""Finding goals in a maze (dm_control's `locomotion.tasks.random_goal_maze`).

A maze arena (`arenas.mazes.MazeWithTargets` or `RandomMazeWithTargets`) lays
out a new maze every episode. The walker spawns in one of its spawn cells,
facing a random direction; with `rotation_bias_factor` > 0 the direction leans
away from the nearest walls (dm_control's ten horizontal rays, cast from 0.1 m
above the spawn cell). The episode fails (discount 0) when a non-foot geom of
the walker touches the ground or the walker's `aliveness` drops below
`aliveness_threshold`.

* `NullGoalMaze`: no goal; reward `aliveness_reward` per step.
* `RepeatSingleGoalMaze`: one target at a random target cell; reaching it pays
  `target_reward_scale`, respawns the walker and resets the target, up to
  `max_repeats` times.
* `ManyHeterogeneousGoalsMaze`: a target on every target cell of the maze,
  of several types (one builder and reward each, in given proportions); each
  pays its reward once; the episode ends when all are reached.
* `ManyGoalsMaze`: the same with one type of target (maze foraging).

Targets are entities with `activated` (touch targets,
`props.target_sphere.TargetSphere`), placed with their frame at a target cell's
centre on the floor. dm_control attaches a new set every episode and
recompiles; here a task keeps a pool of targets attached for good, parks the
ones an episode does not use far below the floor, and grows the pool (one
recompile) when a maze has more target cells than ever before.
"""

from __future__ import annotations

import collections
import functools
import itertools
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import mujoco
import numpy as np
from numpy.typing import ArrayLike

from composer_tasks import composer
from composer_tasks.arenas import pools
from composer_tasks.composer.observation import observable
from composer_tasks.props import target_sphere
from composer_tasks.tasks import termination
from composer_tasks.tasks import walker_state
from composer_tasks.tasks import walker_task

if TYPE_CHECKING:
    from composer_tasks.arenas.mazes import MazeWithTargets
    from composer_tasks.composer.observation.observable import Observable
    from composer_tasks.physics import Physics
    from composer_tasks.walkers.base import Walker

# dm_control random_goal_maze.py: rays cast to find the most open direction.
_NUM_RAYS = 10
# Aliveness lies in [-1, 0]; below this the walker has failed.
DEFAULT_ALIVE_THRESHOLD = -0.5
DEFAULT_PHYSICS_TIMESTEP = 0.001
DEFAULT_CONTROL_TIMESTEP = 0.025
# How high the walker is lifted while the spawn rays are cast, metres.
_RAYCAST_LIFT_M = 100.0
# Parked targets wait below the arena, this far apart along x, metres.
_PARKED_TARGET_SPACING_M = 5.0
_PARKED_TARGET_Z_M = 2 * pools.PARKING_Z_M
_EGOCENTRIC_CAMERA_PX = 64


class NullGoalMaze(walker_task.WalkerTask):
    """A maze with no goal: spawn, survive, collect `aliveness_reward`.

    Args:
      walker: a free walker (composer_tasks.walkers API).
      maze_arena: a maze arena (`regenerate`, `spawn_positions`,
        `target_positions`, `ground_geoms`).
      randomize_spawn_position: spawn in a random spawn cell (else the first).
      randomize_spawn_rotation: face a random direction (else the walker's own).
      rotation_bias_factor: >= 0; 0 gives a uniform direction, larger values
        favour the direction with the farthest wall.
      aliveness_reward: reward every control step.
      aliveness_threshold: the episode fails when the walker's `aliveness`
        (in [-1, 0]; walkers without one count as 0) drops below this.
      contact_termination: fail when a non-foot geom touches the ground.
      enable_global_task_observables: add dm_control's global observables
        `maze_layout` (the entity layer), `absolute_position`,
        `absolute_orientation` (3 x 3) and `location_in_maze` (cell indices).
      physics_timestep, control_timestep: seconds.

    Keyword-only, this project's own (dm_control's parameters above keep its names
    and order, so its positional calls bind the same here):
      enable_egocentric_camera: enable the walker's 64 x 64 egocentric camera, as
        dm_control does (the default); False leaves it off, so that the task needs
        no renderer.
    """

    _arena: MazeWithTargets

    def __init__(
        self,
        walker: Walker,
        maze_arena: MazeWithTargets,
        randomize_spawn_position: bool = True,
        randomize_spawn_rotation: bool = True,
        rotation_bias_factor: float = 0.0,
        aliveness_reward: float = 0.0,
        aliveness_threshold: float = DEFAULT_ALIVE_THRESHOLD,
        contact_termination: bool = True,
        enable_global_task_observables: bool = False,
        physics_timestep: float = DEFAULT_PHYSICS_TIMESTEP,
        control_timestep: float = DEFAULT_CONTROL_TIMESTEP,
        *,
        enable_egocentric_camera: bool = True,
    ) -> None:
        if getattr(walker, "is_planar", False):
            raise ValueError("maze tasks need a free (3-D) walker, not a planar one")
        self._walker = walker
        self._arena = maze_arena
        walker_state.attach_walker(maze_arena, walker)
        self._randomize_spawn_position = bool(randomize_spawn_position)
        self._randomize_spawn_rotation = bool(randomize_spawn_rotation)
        self._rotation_bias_factor = walker_task.checked_number(
            rotation_bias_factor, "rotation_bias_factor", "a number >= 0", minimum=0.0
        )
        self._aliveness_reward = float(aliveness_reward)
        self._aliveness_threshold = float(aliveness_threshold)
        self._fall_detector = termination.FallDetector(
            walker,
            maze_arena,
            contact_termination=contact_termination,
            min_end_effector_height=None,
        )
        self._failure_termination = False
        self._discount = 1.0
        self._spawn_position = np.zeros(3)
        walker_state.enable_proprioception(walker)
        camera = getattr(walker.observables, "egocentric_camera", None)
        if camera is not None:
            # dm_control renders the maze tasks' egocentric camera at 64 x 64 pixels.
            camera.height = _EGOCENTRIC_CAMERA_PX
            camera.width = _EGOCENTRIC_CAMERA_PX
            if enable_egocentric_camera:
                camera.enabled = True
        self._task_observables: collections.OrderedDict[str, Observable] = collections.OrderedDict()
        if enable_global_task_observables:
            self._task_observables["maze_layout"] = observable.Generic(
                lambda _: np.array(self._arena.maze.entity_layer), enabled=True
            )
            self._task_observables["absolute_position"] = observable.Generic(
                lambda physics: np.array(physics.bind(self._walker.root_body).xpos),
                enabled=True,
            )
            self._task_observables["absolute_orientation"] = observable.Generic(
                lambda physics: np.reshape(physics.bind(self._walker.root_body).xmat, (3, 3)),
                enabled=True,
            )
            self._task_observables["location_in_maze"] = observable.Generic(
                self._walker_cell, enabled=True
            )
        self.set_timesteps(control_timestep, physics_timestep)

    @property
    def name(self) -> str:
        return "goal_maze"

    def _walker_cell(self, physics: Physics) -> np.ndarray:
        """dm_control's `location_in_maze`: the walker's (x, y) cell indices,
        counted from the -x, -y corner."""
        xy = np.array(physics.bind(self._walker.root_body).xpos)[:2]
        scale = self._arena.xy_scale
        from_origin = ((xy + np.sign(xy) * scale / 2) / scale).astype(int)
        maze = self._arena.maze
        offsets = np.array([(maze.width - 1) / 2, (maze.height - 1) / 2])
        return from_origin + offsets

    def initialize_episode_mjcf(self, random_state: np.random.RandomState) -> None:
        self._arena.regenerate(random_state)

    def _respawn(self, physics: Physics, random_state: np.random.RandomState) -> None:
        """dm_control's respawn: the initial pose, a spawn cell, a heading."""
        walker_state.reset_walker_pose(physics, self._walker, random_state)
        spawn_positions = self._arena.spawn_positions
        if len(spawn_positions) == 0:
            raise ValueError("this episode's maze has no spawn cell")
        if self._randomize_spawn_position:
            index = random_state.randint(0, len(spawn_positions))
        else:
            index = 0
        self._spawn_position = np.array(spawn_positions[index], dtype=np.float64)
        quaternion = None
        if self._randomize_spawn_rotation:
            # The rays need this episode's walls, which dm_control's compiled model
            # holds already: the arena writes them now rather than in its own
            # initialize_episode (after this one), and forward places them.
            self._arena.write_layout(physics)
            physics.forward()
            # Out of the rays' way while they are cast. As in dm_control there is no
            # forward here: the rays see the walker's geoms where they last were.
            self._walker.shift_pose(physics, [0.0, 0.0, _RAYCAST_LIFT_M])
            distances = []
            geom_id = np.array([-1], dtype=np.int32)
            origin = np.array([self._spawn_position[0], self._spawn_position[1], 0.1])
            for index in range(_NUM_RAYS):
                theta = 2 * np.pi * index / _NUM_RAYS
                direction = np.array([np.cos(theta), np.sin(theta), 0.0])
                distances.append(
                    mujoco.mj_ray(
                        physics.model, physics.data, origin, direction, None, 1, -1, geom_id
                    )
                )
            # mj_ray answers -1 for a ray that hits nothing: no wall is farthest.
            distances = np.where(np.asarray(distances) < 0, np.inf, distances)
            max_theta = 2 * np.pi * int(np.argmax(distances)) / _NUM_RAYS
            draw = random_state.uniform(-1, 1)
            biased = np.tanh((1 + self._rotation_bias_factor) * np.arctanh(draw))
            rotation = max_theta + np.pi * (1 + biased)
            quaternion = [np.cos(rotation / 2), 0.0, 0.0, np.sin(rotation / 2)]
            self._walker.shift_pose(physics, [0.0, 0.0, -_RAYCAST_LIFT_M])
        self._walker.shift_pose(
            physics,
            [self._spawn_position[0], self._spawn_position[1], 0.0],
            quaternion,
            rotate_velocity=True,
        )

    def initialize_episode(self, physics: Physics, random_state: np.random.RandomState) -> None:
        self._respawn(physics, random_state)
        self._discount = 1.0
        self._failure_termination = False
        self._fall_detector.reset(physics)

    def after_step(self, physics: Physics, random_state: np.random.RandomState) -> None:
        self._failure_termination = self._fall_detector.has_fallen(physics)

    def _aliveness(self, physics: Physics) -> float:
        aliveness = getattr(self._walker, "aliveness", None)
        return 0.0 if aliveness is None else float(aliveness(physics))

    def should_terminate_episode(self, physics: Physics) -> bool:
        if self._aliveness(physics) < self._aliveness_threshold:
            self._failure_termination = True
        if self._failure_termination:
            self._discount = 0.0
            return True
        return False

    def get_reward(self, physics: Physics) -> float:
        del physics
        return self._aliveness_reward

    def get_discount(self, physics: Physics) -> float:
        del physics
        return self._discount

    def snapshot_state(self) -> dict[str, Any]:
        """The step's Python state (composer.Environment.snapshot)."""
        return dict(
            failure_termination=self._failure_termination,
            discount=self._discount,
            spawn_position=self._spawn_position.copy(),
        )

    def restore_state(self, state: Mapping[str, Any]) -> None:
        self._failure_termination = state["failure_termination"]
        self._discount = state["discount"]
        self._spawn_position = state["spawn_position"].copy()


def _park(physics: Physics, target: composer.Entity, slot: int) -> None:
    body = target.attachment_body
    assert body is not None
    position = [_PARKED_TARGET_SPACING_M * slot, 0.0, _PARKED_TARGET_Z_M]
    physics.model.body_pos[physics.bind(body).id] = position


def _place(physics: Physics, target: composer.Entity, position: ArrayLike) -> None:
    body = target.attachment_body
    assert body is not None
    physics.model.body_pos[physics.bind(body).id] = position


class RepeatSingleGoalMaze(NullGoalMaze):
    """Find one target, again and again.

    The target sits at a random target cell of the maze. Reaching it (its
    `activated`) pays `target_reward_scale`; while fewer than `max_repeats`
    repeats were made, the walker respawns and the target resets (with
    `regenerate_maze_on_repeat`, in a new maze... see below). The episode ends
    after `max_repeats + 1` reaches.

    Args:
      walker, maze_arena: as `NullGoalMaze`.
      target: an entity with `activated` and `reset(physics)`; None builds a
        `TargetSphere()`.
      target_reward_scale: reward per reach.
      max_repeats: reaches after the first that respawn the walker.
      regenerate_maze_on_repeat: not supported here (dm_control rebuilds the
        maze's model mid-episode); True raises.
      The other arguments are `NullGoalMaze`'s (`enable_egocentric_camera`
      keyword-only).
    """

    def __init__(
        self,
        walker: Walker,
        maze_arena: MazeWithTargets,
        target: composer.Entity | None = None,
        target_reward_scale: float = 1.0,
        randomize_spawn_position: bool = True,
        randomize_spawn_rotation: bool = True,
        rotation_bias_factor: float = 0.0,
        aliveness_reward: float = 0.0,
        aliveness_threshold: float = DEFAULT_ALIVE_THRESHOLD,
        contact_termination: bool = True,
        max_repeats: int = 0,
        enable_global_task_observables: bool = False,
        physics_timestep: float = DEFAULT_PHYSICS_TIMESTEP,
        control_timestep: float = DEFAULT_CONTROL_TIMESTEP,
        regenerate_maze_on_repeat: bool = False,
        *,
        enable_egocentric_camera: bool = True,
    ) -> None:
        if regenerate_maze_on_repeat:
            raise ValueError(
                "regenerate_maze_on_repeat is not supported: a maze's layout changes only "
                "between episodes here"
            )
        if not isinstance(max_repeats, (int, np.integer)) or max_repeats < 0:
            raise ValueError(f"max_repeats must be an int >= 0, got {max_repeats!r}")
        super().__init__(
            walker,
            maze_arena,
            randomize_spawn_position=randomize_spawn_position,
            randomize_spawn_rotation=randomize_spawn_rotation,
            rotation_bias_factor=rotation_bias_factor,
            aliveness_reward=aliveness_reward,
            aliveness_threshold=aliveness_threshold,
            contact_termination=contact_termination,
            enable_global_task_observables=enable_global_task_observables,
            enable_egocentric_camera=enable_egocentric_camera,
            physics_timestep=physics_timestep,
            control_timestep=control_timestep,
        )
        if target is None:
            target = target_sphere.TargetSphere()
        self._target = target
        maze_arena.attach(target)
        _hide_arena_spheres(maze_arena)
        self._target_reward_scale = float(target_reward_scale)
        self._max_repeats = int(max_repeats)
        self._targets_obtained = 0
        self._rewarded_this_step = False
        self._target_position = np.zeros(3)
        if enable_global_task_observables:
            target_geom = getattr(target, "geom")
            observables: Any = walker.observables
            observables.add_egocentric_vector(
                "target_0",
                observable.Generic(lambda physics: physics.bind(target_geom).xpos),
                origin_callable=lambda physics: physics.bind(walker.root_body).xpos,
            )

    def initialize_episode_mjcf(self, random_state: np.random.RandomState) -> None:
        super().initialize_episode_mjcf(random_state)
        positions = _floor_positions(self._arena)
        if len(positions) == 0:
            raise ValueError("this episode's maze has no target cell for the target")
        self._target_position = positions[random_state.randint(0, len(positions))]

    def initialize_episode(self, physics: Physics, random_state: np.random.RandomState) -> None:
        _place(physics, self._target, self._target_position)
        super().initialize_episode(physics, random_state)
        self._rewarded_this_step = False
        self._targets_obtained = 0

    def after_step(self, physics: Physics, random_state: np.random.RandomState) -> None:
        super().after_step(physics, random_state)
        if getattr(self._target, "activated"):
            self._rewarded_this_step = True
            self._targets_obtained += 1
            if self._targets_obtained <= self._max_repeats:
                self._respawn(physics, random_state)
                getattr(self._target, "reset")(physics)
        else:
            self._rewarded_this_step = False

    def should_terminate_episode(self, physics: Physics) -> bool:
        if super().should_terminate_episode(physics):
            return True
        return self._targets_obtained > self._max_repeats

    def get_reward(self, physics: Physics) -> float:
        target_reward = self._target_reward_scale if self._rewarded_this_step else 0.0
        return target_reward + self._aliveness_reward

    def snapshot_state(self) -> dict[str, Any]:
        state = super().snapshot_state()
        state.update(
            targets_obtained=self._targets_obtained,
            rewarded_this_step=self._rewarded_this_step,
            target_position=self._target_position.copy(),
        )
        return state

    def restore_state(self, state: Mapping[str, Any]) -> None:
        super().restore_state(state)
        self._targets_obtained = state["targets_obtained"]
        self._rewarded_this_step = state["rewarded_this_step"]
        self._target_position = state["target_position"].copy()


class RepeatSingleGoalMazeAugmentedWithTargets(RepeatSingleGoalMaze):
    """`RepeatSingleGoalMaze` with smaller, cheaper targets strewn over the maze.

    Besides the main target, `num_subtargets` target spheres (radius 0.4 m, named
    "subtarget_<i>", coloured `subtarget_colors`) are attached to the maze. Each
    episode they stand at the maze's target cells, one each in the order of
    `maze_arena.target_positions`; as in dm_control, a subtarget left without a
    cell (more subtargets than cells) stays where it stood before (at the origin
    until it is first placed). Touching a subtarget pays `subtarget_reward_scale`
    once per episode. The episode ends as `RepeatSingleGoalMaze`'s (the main target
    reached once: no repeats here, as in dm_control) or once every subtarget was
    touched.

    Args:
      walker, maze_arena: as `RepeatSingleGoalMaze`'s.
      main_target: the main target (`activated`, `reset(physics)`).
      num_subtargets: how many subtargets to attach.
      target_reward_scale: reward for reaching the main target.
      subtarget_reward_scale: reward for each subtarget's first touch.
      subtarget_colors: the subtargets' two checker colours (RGB in [0, 1]).
      The other arguments are `RepeatSingleGoalMaze`'s.

    Keyword-only, this project's own (dm_control's parameters above keep its names
    and order, so its positional calls bind the same here):
      enable_egocentric_camera: see `NullGoalMaze`.
    """

    def __init__(
        self,
        walker: Walker,
        main_target: composer.Entity,
        maze_arena: MazeWithTargets,
        num_subtargets: int = 20,
        target_reward_scale: float = 10.0,
        subtarget_reward_scale: float = 1.0,
        subtarget_colors: Sequence[Sequence[float]] = ((0.0, 0.0, 0.4), (0.0, 0.0, 0.7)),
        randomize_spawn_position: bool = True,
        randomize_spawn_rotation: bool = True,
        rotation_bias_factor: float = 0.0,
        aliveness_reward: float = 0.0,
        aliveness_threshold: float = DEFAULT_ALIVE_THRESHOLD,
        contact_termination: bool = True,
        physics_timestep: float = DEFAULT_PHYSICS_TIMESTEP,
        control_timestep: float = DEFAULT_CONTROL_TIMESTEP,
        *,
        enable_egocentric_camera: bool = True,
    ) -> None:
        if (
            isinstance(num_subtargets, (bool, np.bool_))
            or not isinstance(num_subtargets, (int, np.integer))
            or num_subtargets < 0
        ):
            raise ValueError(f"num_subtargets must be an int >= 0, got {num_subtargets!r}")
        if len(subtarget_colors) != 2:
            raise ValueError(f"subtarget_colors must be two RGB colours, got {subtarget_colors!r}")
        super().__init__(
            walker,
            maze_arena,
            target=main_target,
            target_reward_scale=target_reward_scale,
            randomize_spawn_position=randomize_spawn_position,
            randomize_spawn_rotation=randomize_spawn_rotation,
            rotation_bias_factor=rotation_bias_factor,
            aliveness_reward=aliveness_reward,
            aliveness_threshold=aliveness_threshold,
            contact_termination=contact_termination,
            enable_egocentric_camera=enable_egocentric_camera,
            physics_timestep=physics_timestep,
            control_timestep=control_timestep,
        )
        self._subtarget_reward_scale = float(subtarget_reward_scale)
        self._subtargets: list[target_sphere.TargetSphere] = []
        for index in range(int(num_subtargets)):
            # dm_control's subtargets: TargetSphere(radius=0.4, rgb1, rgb2, name).
            subtarget = target_sphere.TargetSphere(
                radius=0.4,
                rgb1=subtarget_colors[0],
                rgb2=subtarget_colors[1],
                name=f"subtarget_{index}",
            )
            maze_arena.attach(subtarget)
            self._subtargets.append(subtarget)
        # Where each subtarget's frame stands: dm_control moves a frame only when
        # the maze has a cell for it, so the others keep their last place.
        self._subtarget_positions = np.zeros((len(self._subtargets), 3))
        self._subtarget_rewarded: list[bool] | None = None

    def initialize_episode_mjcf(self, random_state: np.random.RandomState) -> None:
        super().initialize_episode_mjcf(random_state)
        cells = _floor_positions(self._arena)[: len(self._subtargets)]
        self._subtarget_positions[: len(cells)] = cells
        self._subtarget_rewarded = [False] * len(self._subtargets)

    def initialize_episode(self, physics: Physics, random_state: np.random.RandomState) -> None:
        for subtarget, position in zip(self._subtargets, self._subtarget_positions):
            _place(physics, subtarget, position)
        super().initialize_episode(physics, random_state)

    def get_reward(self, physics: Physics) -> float:
        main_reward = super().get_reward(physics)
        rewarded = self._subtarget_rewarded
        if rewarded is None:
            raise RuntimeError("get_reward called before the first episode began")
        newly_touched = 0
        for index, subtarget in enumerate(self._subtargets):
            if subtarget.activated and not rewarded[index]:
                newly_touched += 1
                rewarded[index] = True
        return main_reward + newly_touched * self._subtarget_reward_scale

    def should_terminate_episode(self, physics: Physics) -> bool:
        if super().should_terminate_episode(physics):
            return True
        return all(subtarget.activated for subtarget in self._subtargets)

    def snapshot_state(self) -> dict[str, Any]:
        state = super().snapshot_state()
        state.update(
            subtarget_positions=self._subtarget_positions.copy(),
            subtarget_rewarded=None
            if self._subtarget_rewarded is None
            else list(self._subtarget_rewarded),
        )
        return state

    def restore_state(self, state: Mapping[str, Any]) -> None:
        super().restore_state(state)
        self._subtarget_positions = state["subtarget_positions"].copy()
        rewarded = state["subtarget_rewarded"]
        self._subtarget_rewarded = None if rewarded is None else list(rewarded)


def _hide_arena_spheres(arena: Any) -> None:
    """The arena's own reward spheres give way to the task's targets."""
    hide = getattr(arena, "hide_target_spheres", None)
    if hide is not None:
        hide()


def _floor_positions(arena: Any) -> np.ndarray:
    """(n, 3) centres of this episode's target cells on the floor (z = 0), as
    dm_control's `target_positions`."""
    positions = np.array(arena.target_positions, dtype=np.float64).reshape(-1, 3)
    positions[:, 2] = 0.0
    return positions


class ManyHeterogeneousGoalsMaze(NullGoalMaze):
    """Reach every target of the maze; targets of several types pay differently.

    Every target cell of the episode's maze gets a target (the cells shuffled
    with the episode's random state). The count of each type is its proportion
    of the total, rounded down, then topped up one at a time starting with the
    type furthest below its proportion (dm_control's rule). A target pays its
    type's reward the first step it is `activated`; the episode ends when all
    are activated (at once, if the maze has none).

    Args:
      walker, maze_arena: as `NullGoalMaze`.
      target_builders: one callable per type, `builder(name=...)` -> a target
        entity with `activated`.
      target_type_rewards: reward of each type.
      target_type_proportions: relative frequency of each type.
      shuffle_target_builders: shuffle the builders each episode (types then
        get the proportions in the shuffled order).
      The other arguments are `NullGoalMaze`'s.

    Keyword-only, this project's own (dm_control's parameters above keep its names
    and order, so its positional calls bind the same here):
      observe_targets: add `target_positions`, the egocentric positions (metres)
        of the targets not yet reached, one row per target of the pool (zeros
        for reached or unused ones), and `targets_remaining`, 1.0 per target
        still to reach (this project's, not dm_control's, observables).
      enable_egocentric_camera: see `NullGoalMaze`.
    """

    def __init__(
        self,
        walker: Walker,
        maze_arena: MazeWithTargets,
        target_builders: Sequence[Callable[..., composer.Entity]],
        target_type_rewards: Sequence[float],
        target_type_proportions: Sequence[float],
        shuffle_target_builders: bool = False,
        randomize_spawn_position: bool = True,
        randomize_spawn_rotation: bool = True,
        rotation_bias_factor: float = 0.0,
        aliveness_reward: float = 0.0,
        aliveness_threshold: float = DEFAULT_ALIVE_THRESHOLD,
        contact_termination: bool = True,
        physics_timestep: float = DEFAULT_PHYSICS_TIMESTEP,
        control_timestep: float = DEFAULT_CONTROL_TIMESTEP,
        *,
        observe_targets: bool = False,
        enable_egocentric_camera: bool = True,
    ) -> None:
        super().__init__(
            walker,
            maze_arena,
            randomize_spawn_position=randomize_spawn_position,
            randomize_spawn_rotation=randomize_spawn_rotation,
            rotation_bias_factor=rotation_bias_factor,
            aliveness_reward=aliveness_reward,
            aliveness_threshold=aliveness_threshold,
            contact_termination=contact_termination,
            enable_egocentric_camera=enable_egocentric_camera,
            physics_timestep=physics_timestep,
            control_timestep=control_timestep,
        )
        self._target_builders = list(target_builders)
        types = len(self._target_builders)
        if types == 0 or not all(callable(builder) for builder in self._target_builders):
            raise ValueError("target_builders must be a non-empty sequence of callables")
        if len(target_type_rewards) != types or len(target_type_proportions) != types:
            raise ValueError(
                f"target_type_rewards ({len(target_type_rewards)}) and "
                f"target_type_proportions ({len(target_type_proportions)}) must have one "
                f"entry per target builder ({types})"
            )
        proportions = np.array(target_type_proportions, dtype=float)
        if np.any(proportions < 0) or not proportions.sum() > 0:
            raise ValueError(
                f"target_type_proportions must be >= 0 with a positive sum, got "
                f"{list(target_type_proportions)}"
            )
        self._target_type_rewards = tuple(float(r) for r in target_type_rewards)
        self._target_type_fractions = proportions / proportions.sum()
        self._shuffle_target_builders = bool(shuffle_target_builders)
        _hide_arena_spheres(maze_arena)
        # The pool: targets of each builder, attached for good; per episode the
        # first few of each are placed, the rest parked.
        self._pool: list[list[composer.Entity]] = [[] for _ in range(types)]
        self._builder_ids = list(range(types))
        self._active_targets: list[list[composer.Entity]] = [[] for _ in range(types)]
        self._target_rewarded: list[list[bool]] = [[] for _ in range(types)]
        self._placements: list[tuple[composer.Entity, np.ndarray]] = []
        capacity = getattr(maze_arena, "max_targets", 0)
        self._grow_pool([capacity] * types)
        if observe_targets:
            if not getattr(maze_arena, "pooled", True):
                raise ValueError(
                    "observe_targets observes a fixed number of targets: give the maze "
                    "pooled=True (a maze rebuilt per episode, dm_control's, brings a new "
                    "number of targets every episode)"
                )
            self._task_observables["target_positions"] = observable.Generic(
                self._egocentric_targets, enabled=True
            )
            self._task_observables["targets_remaining"] = observable.Generic(
                self._remaining, enabled=True
            )

    def _grow_pool(self, counts: Sequence[int]) -> bool:
        """Builds targets until builder i has `counts[i]`; returns whether it built any."""
        grown = False
        for builder_id, count in enumerate(counts):
            pool = self._pool[builder_id]
            while len(pool) < count:
                target = self._target_builders[builder_id](name=f"target_{builder_id}_{len(pool)}")
                self._arena.attach(target)
                pool.append(target)
                grown = True
        return grown

    def _target_counts(self, total: int) -> np.ndarray:
        fractions = self._target_type_fractions
        counts = np.array([int(fraction * total) for fraction in fractions])
        if total == 0:
            return counts
        errors = fractions - counts / float(total)
        by_error = list(np.argsort(errors))
        while counts.sum() < total:
            counts[by_error.pop()] += 1
        return counts

    def initialize_episode_mjcf(self, random_state: np.random.RandomState) -> None:
        super().initialize_episode_mjcf(random_state)
        positions = list(_floor_positions(self._arena))
        random_state.shuffle(positions)
        counts = self._target_counts(len(positions))
        if self._shuffle_target_builders:
            random_state.shuffle(self._builder_ids)
        if not getattr(self._arena, "pooled", True):
            self._attach_new_targets(counts, positions, random_state)
            return
        # Type t of this episode is builder self._builder_ids[t].
        needed = [0] * len(self._target_builders)
        for type_index, count in enumerate(counts):
            needed[self._builder_ids[type_index]] = int(count)
        if self._grow_pool([max(n, len(p)) for n, p in zip(needed, self._pool)]):
            composer.mark_spec_changed()
        self._active_targets = [
            self._pool[self._builder_ids[type_index]][: int(count)]
            for type_index, count in enumerate(counts)
        ]
        self._placements = list(
            zip(itertools.chain(*self._active_targets), (np.asarray(p) for p in positions))
        )
        # The pool's targets stay attached, so the Environment runs their own
        # initialize_episode_mjcf after this (dm_control calls it here, on the
        # targets it has just attached).
        self._target_rewarded = [[False] * len(targets) for targets in self._active_targets]

    def initialize_episode(self, physics: Physics, random_state: np.random.RandomState) -> None:
        placed = {id(target) for target, _ in self._placements}
        slot = 0
        for target in itertools.chain(*self._pool):
            if id(target) not in placed:
                _park(physics, target, slot)
                slot += 1
        for target, position in self._placements:
            _place(physics, target, position)
        super().initialize_episode(physics, random_state)

    def _attach_new_targets(
        self,
        counts: Sequence[int] | np.ndarray,
        positions: Sequence[np.ndarray],
        random_state: np.random.RandomState,
    ) -> None:
        """dm_control's episode in a maze rebuilt per episode (not `pooled`): the last
        episode's targets detached, new ones built (`target_<type>_<i>`, type by
        type), attached at the shuffled target cells in that order, their own
        `initialize_episode_mjcf` run."""
        for target in itertools.chain(*self._active_targets):
            target.detach()
        self._active_targets = [
            [
                self._target_builders[self._builder_ids[type_index]](
                    name=f"target_{type_index}_{index}"
                )
                for index in range(int(count))
            ]
            for type_index, count in enumerate(counts)
        ]
        self._pool = [list(targets) for targets in self._active_targets]
        for position, target in zip(positions, itertools.chain(*self._active_targets)):
            frame = self._arena.attach(target)
            frame.pos = position
            target.initialize_episode_mjcf(random_state)
        self._placements = list(
            zip(itertools.chain(*self._active_targets), (np.asarray(p) for p in positions))
        )
        self._target_rewarded = [[False] * len(targets) for targets in self._active_targets]

    def get_reward(self, physics: Physics) -> float:
        del physics
        reward = self._aliveness_reward
        for type_index, targets in enumerate(self._active_targets):
            for index, target in enumerate(targets):
                if getattr(target, "activated") and not self._target_rewarded[type_index][index]:
                    reward += self._target_type_rewards[type_index]
                    self._target_rewarded[type_index][index] = True
        return reward

    def should_terminate_episode(self, physics: Physics) -> bool:
        if super().should_terminate_episode(physics):
            return True
        return all(getattr(t, "activated") for t in itertools.chain(*self._active_targets))

    def _pool_targets(self) -> list[composer.Entity]:
        return list(itertools.chain(*self._pool))

    def _remaining(self, physics: Physics) -> np.ndarray:
        del physics
        active = {id(target) for target, _ in self._placements}
        return np.array(
            [
                float(id(target) in active and not getattr(target, "activated"))
                for target in self._pool_targets()
            ]
        )

    def _egocentric_targets(self, physics: Physics) -> np.ndarray:
        targets = self._pool_targets()
        remaining = self._remaining(physics).astype(bool)
        rows = np.zeros((len(targets), 3))
        if not np.any(remaining):
            return rows
        positions = np.array([physics.bind(getattr(target, "geom")).xpos for target in targets])[
            remaining
        ]
        offsets = positions - walker_state.root_position(physics, self._walker)
        egocentric = np.asarray(self._walker.transform_vec_to_egocentric_frame(physics, offsets))
        rows[remaining] = egocentric.reshape(-1, 3)
        return rows

    def snapshot_state(self) -> dict[str, Any]:
        state = super().snapshot_state()
        state.update(
            builder_ids=list(self._builder_ids),
            counts=[len(targets) for targets in self._active_targets],
            positions=[position.copy() for _, position in self._placements],
            target_rewarded=[list(flags) for flags in self._target_rewarded],
        )
        return state

    def restore_state(self, state: Mapping[str, Any]) -> None:
        super().restore_state(state)
        self._builder_ids = list(state["builder_ids"])
        self._active_targets = [
            self._pool[self._builder_ids[type_index]][:count]
            for type_index, count in enumerate(state["counts"])
        ]
        self._placements = list(
            zip(itertools.chain(*self._active_targets), (p.copy() for p in state["positions"]))
        )
        self._target_rewarded = [list(flags) for flags in state["target_rewarded"]]


def _default_target_builder(arena: Any) -> Callable[..., composer.Entity]:
    """`TargetSphere`s of the arena's `target_radius` (dm_control's default radius,
    0.6 m, for an arena without one)."""
    radius = getattr(arena, "target_radius", None)
    if radius is None:
        return target_sphere.TargetSphere
    return functools.partial(target_sphere.TargetSphere, radius=radius)


class ManyGoalsMaze(ManyHeterogeneousGoalsMaze):
    """Maze foraging: reach every target of the maze, `target_reward_scale` each.

    Args:
      walker, maze_arena: as `NullGoalMaze`.
      target_builder: `builder(name=...)` -> a target entity with `activated`;
        None builds `props.target_sphere.TargetSphere`s of the arena's
        `target_radius` (dm_control requires a builder; its suite's maze forage
        uses spheres of radius 0.4 m).
      target_reward_scale: reward per target.
      The other arguments are `NullGoalMaze`'s.

    Keyword-only, this project's own (dm_control's parameters above keep its names
    and order, so its positional calls bind the same here):
      observe_targets: as `ManyHeterogeneousGoalsMaze` (off by default, as
        dm_control's, which has no such observables: this project's opt-in, for an
        agent that forages without the egocentric camera).
      enable_egocentric_camera: see `NullGoalMaze`.
    """

    def __init__(
        self,
        walker: Walker,
        maze_arena: MazeWithTargets,
        target_builder: Callable[..., composer.Entity] | None = None,
        target_reward_scale: float = 1.0,
        randomize_spawn_position: bool = True,
        randomize_spawn_rotation: bool = True,
        rotation_bias_factor: float = 0.0,
        aliveness_reward: float = 0.0,
        aliveness_threshold: float = DEFAULT_ALIVE_THRESHOLD,
        contact_termination: bool = True,
        physics_timestep: float = DEFAULT_PHYSICS_TIMESTEP,
        control_timestep: float = DEFAULT_CONTROL_TIMESTEP,
        *,
        observe_targets: bool = False,
        enable_egocentric_camera: bool = True,
    ) -> None:
        super().__init__(
            walker,
            maze_arena,
            target_builders=[target_builder or _default_target_builder(maze_arena)],
            target_type_rewards=[target_reward_scale],
            target_type_proportions=[1],
            randomize_spawn_position=randomize_spawn_position,
            randomize_spawn_rotation=randomize_spawn_rotation,
            rotation_bias_factor=rotation_bias_factor,
            aliveness_reward=aliveness_reward,
            aliveness_threshold=aliveness_threshold,
            contact_termination=contact_termination,
            observe_targets=observe_targets,
            enable_egocentric_camera=enable_egocentric_camera,
            physics_timestep=physics_timestep,
            control_timestep=control_timestep,
        )
