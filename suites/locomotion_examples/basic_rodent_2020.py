"""The rodent's reference environments (dm_control's
`locomotion.examples.basic_rodent_2020`).

    env = basic_rodent_2020.rodent_escape_bowl(random_state=0)

Each factory builds dm-control 1.0.50's environment of the same name from this
project's walkers, arenas and tasks, with its arguments (the values below are
that module's): the `Rat` with its egocentric camera observed, acting every
20 ms on a 1 ms physics step, in the "outdoor_natural" aesthetic, for 30 s (20 s
in the bowl), its observation buffers' singleton dimension stripped.
`random_state` is the Environment's (an int seed, a `np.random.RandomState`, or
None). The Rat's geometry here is primitive shapes where dm_control's has meshes
(docs/porting_from_dm_control.md), so its contacts differ.
"""

from __future__ import annotations

import functools
from typing import Union

import numpy as np

from composer_tasks import composer
from composer_tasks.arenas import corridors as corridor_arenas
from composer_tasks.arenas import floor
from composer_tasks.arenas import labmaze_textures
from composer_tasks.arenas import mazes
from composer_tasks.composer.variation import distributions
from composer_tasks.props import target_sphere
from composer_tasks.tasks import corridors as corridor_tasks
from composer_tasks.tasks import escape
from composer_tasks.tasks import random_goal_maze
from composer_tasks.tasks import reach
from composer_tasks.walkers import rodent

RandomState = Union[None, int, np.random.RandomState]

# dm_control basic_rodent_2020: _PHYSICS_TIMESTEP = 0.001, _CONTROL_TIMESTEP = .02 (s).
PHYSICS_TIMESTEP_S = 0.001
CONTROL_TIMESTEP_S = 0.02
# dm_control basic_rodent_2020: time_limit=30 (20 for the bowl).
TIME_LIMIT_S = 30.0
ESCAPE_BOWL_TIME_LIMIT_S = 20.0
AESTHETIC = "outdoor_natural"


def _rat() -> rodent.Rat:
    """The Rat, its egocentric camera observed."""
    return rodent.Rat(observable_options={"egocentric_camera": dict(enabled=True)})


def _environment(
    task: composer.Task, random_state: RandomState, time_limit: float = TIME_LIMIT_S
) -> composer.Environment:
    return composer.Environment(
        time_limit=time_limit,
        task=task,
        random_state=random_state,
        strip_singleton_obs_buffer_dim=True,
    )


def rodent_escape_bowl(random_state: RandomState = None) -> composer.Environment:
    """Climb out of a 20 m by 20 m bumpy bowl (rewarded for distance from the centre)."""
    task = escape.Escape(
        walker=_rat(),
        arena=escape.Bowl(size=(20.0, 20.0), aesthetic=AESTHETIC),
        physics_timestep=PHYSICS_TIMESTEP_S,
        control_timestep=CONTROL_TIMESTEP_S,
    )
    return _environment(task, random_state, time_limit=ESCAPE_BOWL_TIME_LIMIT_S)


def rodent_run_gaps(random_state: RandomState = None) -> composer.Environment:
    """Run down a 40 m by 2 m corridor at 1 m/s over gaps: platforms 0.4 to 0.8 m
    long and gaps 0.05 to 0.2 m (uniform). The rat spawns 5 m in, facing along the
    corridor; contacts do not end the episode, falling below -0.3 m does."""
    arena = corridor_arenas.GapsCorridor(
        platform_length=distributions.Uniform(0.4, 0.8),
        gap_length=distributions.Uniform(0.05, 0.2),
        corridor_width=2,
        corridor_length=40,
        aesthetic=AESTHETIC,
    )
    task = corridor_tasks.RunThroughCorridor(
        walker=_rat(),
        arena=arena,
        walker_spawn_position=(5, 0, 0),
        walker_spawn_rotation=0,
        target_velocity=1.0,
        contact_termination=False,
        terminate_at_height=-0.3,
        physics_timestep=PHYSICS_TIMESTEP_S,
        control_timestep=CONTROL_TIMESTEP_S,
    )
    return _environment(task, random_state)


def rodent_maze_forage(random_state: RandomState = None) -> composer.Environment:
    """Collect every sphere of a random 11 x 11 cell maze (0.5 m cells, 0.3 m walls;
    up to 4 rooms of 4 to 5 cells, each with one spawn point and 3 spheres of
    radius 0.05 m, 0.125 m above the ground, worth 50 each). Contacts do not end
    the episode."""
    arena = mazes.RandomMazeWithTargets(
        x_cells=11,
        y_cells=11,
        xy_scale=0.5,
        z_height=0.3,
        max_rooms=4,
        room_min_size=4,
        room_max_size=5,
        spawns_per_room=1,
        targets_per_room=3,
        wall_textures=labmaze_textures.WallTextures(style="style_01"),
        aesthetic=AESTHETIC,
    )
    task = random_goal_maze.ManyGoalsMaze(
        walker=_rat(),
        maze_arena=arena,
        target_builder=functools.partial(
            target_sphere.TargetSphere,
            radius=0.05,
            height_above_ground=0.125,
            rgb1=(0, 0, 0.4),
            rgb2=(0, 0, 0.7),
        ),
        target_reward_scale=50.0,
        contact_termination=False,
        physics_timestep=PHYSICS_TIMESTEP_S,
        control_timestep=CONTROL_TIMESTEP_S,
    )
    return _environment(task, random_state)


def rodent_two_touch(random_state: RandomState = None) -> composer.Environment:
    """Touch an orb (radius 0.025 m) twice with the right interval between the
    touches (`reach.TwoTouch`, reward 25), on a 10 m by 10 m floor with targets
    within a 1.5 m by 1.5 m area; the rat spawns facing a random direction."""
    task = reach.TwoTouch(
        walker=_rat(),
        arena=floor.Floor(size=(10.0, 10.0), aesthetic=AESTHETIC),
        target_builders=[functools.partial(target_sphere.TargetSphereTwoTouch, radius=0.025)],
        randomize_spawn_rotation=True,
        target_type_rewards=[25.0],
        shuffle_target_builders=False,
        target_area=(1.5, 1.5),
        physics_timestep=PHYSICS_TIMESTEP_S,
        control_timestep=CONTROL_TIMESTEP_S,
    )
    return _environment(task, random_state)
