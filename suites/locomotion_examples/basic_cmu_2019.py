"""The CMU humanoid's reference environments (dm_control's
`locomotion.examples.basic_cmu_2019`).

    env = basic_cmu_2019.cmu_humanoid_run_walls(random_state=0)

Each factory builds dm-control 1.0.50's environment of the same name from this
project's walkers, arenas and tasks, with its arguments (arena sizes, target
speeds and rewards, timesteps, time limits: the values below are that module's):
the position-controlled CMU humanoid (`CMUHumanoidPositionControlled`) acting
every 30 ms on a 5 ms physics step, for 30 s (25 s in the heterogeneous forage
task), its observation buffers' singleton dimension stripped. `random_state` is
the Environment's (an int seed, a `np.random.RandomState`, or None).
"""

from __future__ import annotations

import functools
from typing import Union

import numpy as np
from labmaze import fixed_maze

from composer_tasks import composer
from composer_tasks.arenas import corridors as corridor_arenas
from composer_tasks.arenas import floor
from composer_tasks.arenas import labmaze_textures
from composer_tasks.arenas import mazes
from composer_tasks.composer.variation import distributions
from composer_tasks.props import target_sphere
from composer_tasks.tasks import corridors as corridor_tasks
from composer_tasks.tasks import go_to_target
from composer_tasks.tasks import random_goal_maze
from composer_tasks.walkers import cmu_humanoid

RandomState = Union[None, int, np.random.RandomState]

# dm_control basic_cmu_2019: physics_timestep=0.005, control_timestep=0.03 (s).
PHYSICS_TIMESTEP_S = 0.005
CONTROL_TIMESTEP_S = 0.03
# dm_control basic_cmu_2019: time_limit=30 (25 for the heterogeneous forage task).
TIME_LIMIT_S = 30.0
HETEROGENEOUS_FORAGE_TIME_LIMIT_S = 25.0
# The corridors' target speed (m/s) and the walker's spawn point (m).
CORRIDOR_TARGET_VELOCITY_MPS = 3.0
CORRIDOR_SPAWN_POSITION_M = (0.5, 0.0, 0.0)
# The mazes' texture styles.
SKYBOX_STYLE = "sky_03"
MAZE_TEXTURE_STYLE = "style_01"


def _walker(egocentric_camera: bool) -> cmu_humanoid.CMUHumanoidPositionControlled:
    """The position-controlled CMU humanoid, its egocentric camera observed or not."""
    if egocentric_camera:
        return cmu_humanoid.CMUHumanoidPositionControlled(
            observable_options={"egocentric_camera": dict(enabled=True)}
        )
    return cmu_humanoid.CMUHumanoidPositionControlled()


def _environment(
    task: composer.Task, random_state: RandomState, time_limit: float = TIME_LIMIT_S
) -> composer.Environment:
    return composer.Environment(
        time_limit=time_limit,
        task=task,
        random_state=random_state,
        strip_singleton_obs_buffer_dim=True,
    )


def _corridor_task(
    walker: cmu_humanoid.CMUHumanoidPositionControlled, arena: composer.Arena
) -> corridor_tasks.RunThroughCorridor:
    return corridor_tasks.RunThroughCorridor(
        walker=walker,
        arena=arena,
        walker_spawn_position=CORRIDOR_SPAWN_POSITION_M,
        target_velocity=CORRIDOR_TARGET_VELOCITY_MPS,
        physics_timestep=PHYSICS_TIMESTEP_S,
        control_timestep=CONTROL_TIMESTEP_S,
    )


def cmu_humanoid_run_walls(random_state: RandomState = None) -> composer.Environment:
    """Run down a 100 m by 10 m corridor at 3 m/s past walls 3 m high, each 1 to 7 m
    wide (uniform), with 4 m between them; no padding before the first wall. The
    egocentric camera is observed."""
    arena = corridor_arenas.WallsCorridor(
        wall_gap=4.0,
        wall_width=distributions.Uniform(1, 7),
        wall_height=3.0,
        corridor_width=10,
        corridor_length=100,
        include_initial_padding=False,
    )
    task = _corridor_task(_walker(egocentric_camera=True), arena)
    return _environment(task, random_state)


def cmu_humanoid_run_gaps(random_state: RandomState = None) -> composer.Environment:
    """Run down a 100 m by 10 m corridor at 3 m/s over gaps: platforms 0.3 to 2.5 m
    long and gaps 0.5 to 1.25 m (uniform). The egocentric camera is observed."""
    arena = corridor_arenas.GapsCorridor(
        platform_length=distributions.Uniform(0.3, 2.5),
        gap_length=distributions.Uniform(0.5, 1.25),
        corridor_width=10,
        corridor_length=100,
    )
    task = _corridor_task(_walker(egocentric_camera=True), arena)
    return _environment(task, random_state)


def cmu_humanoid_go_to_target(random_state: RandomState = None) -> composer.Environment:
    """Walk to a target on the default floor (`GoToTarget`'s defaults)."""
    task = go_to_target.GoToTarget(
        walker=_walker(egocentric_camera=False),
        arena=floor.Floor(),
        physics_timestep=PHYSICS_TIMESTEP_S,
        control_timestep=CONTROL_TIMESTEP_S,
    )
    return _environment(task, random_state)


def _maze_textures() -> dict:
    return dict(
        skybox_texture=labmaze_textures.SkyBox(style=SKYBOX_STYLE),
        wall_textures=labmaze_textures.WallTextures(style=MAZE_TEXTURE_STYLE),
        floor_textures=labmaze_textures.FloorTextures(style=MAZE_TEXTURE_STYLE),
    )


def cmu_humanoid_maze_forage(random_state: RandomState = None) -> composer.Environment:
    """Collect every sphere of a random 11 x 11 cell maze (3 m cells; up to 4 rooms
    of 4 to 5 cells, each with one spawn point and 3 spheres of radius 0.4 m worth
    50 each). The egocentric camera is observed."""
    arena = mazes.RandomMazeWithTargets(
        x_cells=11,
        y_cells=11,
        xy_scale=3,
        max_rooms=4,
        room_min_size=4,
        room_max_size=5,
        spawns_per_room=1,
        targets_per_room=3,
        **_maze_textures(),
    )
    task = random_goal_maze.ManyGoalsMaze(
        walker=_walker(egocentric_camera=True),
        maze_arena=arena,
        target_builder=functools.partial(
            target_sphere.TargetSphere, radius=0.4, rgb1=(0, 0, 0.4), rgb2=(0, 0, 0.7)
        ),
        target_reward_scale=50.0,
        physics_timestep=PHYSICS_TIMESTEP_S,
        control_timestep=CONTROL_TIMESTEP_S,
    )
    return _environment(task, random_state)


# The heterogeneous forage task's room: walls `*`, the spawn point `P`, a goal cell `G`.
HETEROGENEOUS_FORAGE_LEVEL = "*******\n*     *\n*  P  *\n*     *\n*  G  *\n*     *\n*******\n"


def cmu_humanoid_heterogeneous_forage(random_state: RandomState = None) -> composer.Environment:
    """Collect the green spheres (+30 each) and avoid the red ones (-10 each) in a
    5 x 5 cell room (3 m cells, 2 m walls): 6 spheres of radius 0.4 m, half of each
    kind, their builders shuffled; 0.01 reward per step alive; the walker spawns
    facing a fixed direction. The egocentric camera is observed. Physics steps
    at the task's default (1 ms), as in dm_control, where this task sets only the
    control timestep."""
    maze = fixed_maze.FixedMazeWithRandomGoals(
        entity_layer=HETEROGENEOUS_FORAGE_LEVEL,
        variations_layer=None,
        num_spawns=1,
        num_objects=6,
    )
    arena = mazes.MazeWithTargets(maze=maze, xy_scale=3.0, z_height=2.0, **_maze_textures())
    sphere_colours = (((0, 0.4, 0), (0, 0.7, 0)), ((0.4, 0, 0), (0.7, 0, 0)))
    task = random_goal_maze.ManyHeterogeneousGoalsMaze(
        walker=_walker(egocentric_camera=True),
        maze_arena=arena,
        target_builders=[
            functools.partial(target_sphere.TargetSphere, radius=0.4, rgb1=rgb1, rgb2=rgb2)
            for rgb1, rgb2 in sphere_colours
        ],
        randomize_spawn_rotation=False,
        target_type_rewards=[30.0, -10.0],
        target_type_proportions=[1, 1],
        shuffle_target_builders=True,
        aliveness_reward=0.01,
        control_timestep=CONTROL_TIMESTEP_S,
    )
    return _environment(task, random_state, time_limit=HETEROGENEOUS_FORAGE_TIME_LIMIT_S)
