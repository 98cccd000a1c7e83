"""Multi-agent soccer (dm_control paper §7.3): `soccer.load(team_size, ...)`.

    from suites import soccer
    env = soccer.load(team_size=2, random_state=0)           # BoxHead 2-vs-2
    timestep = env.reset()
    actions = [np.zeros(spec.shape) for spec in env.action_spec()]
    timestep = env.step(actions)        # timestep.reward: one reward per player

`load` builds dm_control's `soccer.load` match: `team_size` home players (blue,
named home0, home1, ...) then `team_size` away players (red, away0, ...), in that
agent order; a `RandomizedPitch` drawn anew every episode ((32, 24) to (48, 36) m
half-sizes, goals sized to the pitch); the light large ball; episodes of
`time_limit` seconds (control step 25 ms) ending at the first goal unless
`terminate_on_goal=False`. `docs/soccer.md` describes the observations, rewards and
the PettingZoo adapter.
"""

import enum
import functools
import warnings
from typing import Any, List, Optional, Union

import numpy as np

from composer_tasks import composer
from composer_tasks.arenas import pitch as pitch_module
from composer_tasks.props import soccer_ball
from composer_tasks.tasks import soccer as soccer_tasks
from composer_tasks.walkers import ant
from composer_tasks.walkers import boxhead
from composer_tasks.walkers import soccer_humanoid
from composer_tasks.walkers import soccer_team

# dm_control's `locomotion.soccer` re-exports its pieces; so does this module.
from composer_tasks.arenas.pitch import MINI_FOOTBALL_GOAL_SIZE as MINI_FOOTBALL_GOAL_SIZE
from composer_tasks.arenas.pitch import (
    MINI_FOOTBALL_MAX_AREA_PER_HUMANOID as MINI_FOOTBALL_MAX_AREA_PER_HUMANOID,
)
from composer_tasks.arenas.pitch import (
    MINI_FOOTBALL_MIN_AREA_PER_HUMANOID as MINI_FOOTBALL_MIN_AREA_PER_HUMANOID,
)
from composer_tasks.arenas.pitch import Pitch as Pitch
from composer_tasks.arenas.pitch import RandomizedPitch as RandomizedPitch
from composer_tasks.props.soccer_ball import SoccerBall as SoccerBall
from composer_tasks.props.soccer_ball import regulation_soccer_ball as regulation_soccer_ball
from composer_tasks.tasks.soccer.initializers import Initializer as Initializer
from composer_tasks.tasks.soccer.initializers import UniformInitializer as UniformInitializer
from composer_tasks.tasks.soccer.observables import CoreObservablesAdder as CoreObservablesAdder
from composer_tasks.tasks.soccer.observables import (
    InterceptionObservablesAdder as InterceptionObservablesAdder,
)
from composer_tasks.tasks.soccer.observables import MultiObservablesAdder as MultiObservablesAdder
from composer_tasks.tasks.soccer.observables import ObservablesAdder as ObservablesAdder
from composer_tasks.tasks.soccer.task import MultiturnTask as MultiturnTask
from composer_tasks.tasks.soccer.task import Task as Task
from composer_tasks.walkers.boxhead import BoxHead as BoxHead
from composer_tasks.walkers.soccer_humanoid import Humanoid as Humanoid
from composer_tasks.walkers.soccer_team import RGBA_BLUE as RGBA_BLUE
from composer_tasks.walkers.soccer_team import RGBA_RED as RGBA_RED
from composer_tasks.walkers.soccer_team import Player as Player
from composer_tasks.walkers.soccer_team import Team as Team

# dm_control soccer.load: `team_size` must be between 1 and 11.
MAX_TEAM_SIZE = 11


class WalkerType(enum.Enum):
    """The players' body (dm_control's `soccer.WalkerType`)."""

    BOXHEAD = 0
    ANT = 1
    HUMANOID = 2


def _make_walker(name: str, walker_id: int, marker_rgba, walker_type: WalkerType) -> Any:
    if walker_type is WalkerType.BOXHEAD:
        return boxhead.BoxHead(name=name, walker_id=walker_id, marker_rgba=marker_rgba)
    if walker_type is WalkerType.ANT:
        return ant.Ant(name=name, marker_rgba=marker_rgba)
    # dm_control starts its humanoids in poses drawn from CMU motion capture
    # (`CMUMocapInitializer`); this project has no mocap data, so they start in
    # the walker's standing pose.
    return soccer_humanoid.SoccerHumanoid(name=name, marker_rgba=marker_rgba, walker_id=walker_id)


def make_players(team_size: int, walker_type: WalkerType) -> List[soccer_team.Player]:
    """`team_size` home players then `team_size` away players, named home<i> and
    away<i>, in their team's colour."""
    home = [
        soccer_team.Player(
            soccer_team.Team.HOME,
            _make_walker(f"home{index}", index, soccer_team.RGBA_BLUE, walker_type),
        )
        for index in range(team_size)
    ]
    away = [
        soccer_team.Player(
            soccer_team.Team.AWAY,
            _make_walker(f"away{index}", index, soccer_team.RGBA_RED, walker_type),
        )
        for index in range(team_size)
    ]
    return home + away


def _check_bool(value: Any, name: str) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be a bool, got {value!r}")
    return bool(value)


def make_task(
    team_size: int,
    disable_walker_contacts: bool = False,
    enable_field_box: bool = False,
    keep_aspect_ratio: bool = False,
    terminate_on_goal: bool = True,
    walker_type: WalkerType = WalkerType.BOXHEAD,
) -> soccer_tasks.Task:
    """The task of `load` (same arguments), for building environments or batches."""
    if (
        isinstance(team_size, (bool, np.bool_))
        or not isinstance(team_size, (int, np.integer))
        or not 1 <= team_size <= MAX_TEAM_SIZE
    ):
        raise ValueError(
            f"team_size must be an int between 1 and {MAX_TEAM_SIZE}, got {team_size!r}"
        )
    if not isinstance(walker_type, WalkerType):
        raise ValueError(f"walker_type must be a soccer.WalkerType, got {walker_type!r}")
    disable_walker_contacts = _check_bool(disable_walker_contacts, "disable_walker_contacts")
    enable_field_box = _check_bool(enable_field_box, "enable_field_box")
    keep_aspect_ratio = _check_bool(keep_aspect_ratio, "keep_aspect_ratio")
    terminate_on_goal = _check_bool(terminate_on_goal, "terminate_on_goal")
    humanoid = walker_type is WalkerType.HUMANOID
    if humanoid:
        warnings.warn(
            "soccer humanoids start standing: dm_control draws their initial poses from CMU "
            "motion capture, which this project does not have, so humanoid matches start "
            "differently from dm_control's",
            UserWarning,
            stacklevel=3,
        )
    min_size, max_size, goal_size = pitch_module.match_pitch_sizes(
        int(team_size), humanoid=humanoid
    )
    players = make_players(int(team_size), walker_type)
    ball = soccer_ball.regulation_soccer_ball() if humanoid else soccer_ball.SoccerBall()
    arena = pitch_module.RandomizedPitch(
        min_size=min_size,
        max_size=max_size,
        keep_aspect_ratio=keep_aspect_ratio,
        field_box=enable_field_box,
        goal_size=goal_size,
    )
    task_class = soccer_tasks.Task if terminate_on_goal else soccer_tasks.MultiturnTask
    return task_class(
        players=players, arena=arena, ball=ball, disable_walker_contacts=disable_walker_contacts
    )


def load(
    team_size: int,
    time_limit: float = 45.0,
    random_state: Union[None, int, np.random.RandomState] = None,
    disable_walker_contacts: bool = False,
    enable_field_box: bool = False,
    keep_aspect_ratio: bool = False,
    terminate_on_goal: bool = True,
    walker_type: WalkerType = WalkerType.BOXHEAD,
) -> composer.Environment:
    """A `team_size`-vs-`team_size` soccer environment (dm_control's `soccer.load`).

    Args:
      team_size: players per team, an int in [1, 11].
      time_limit: episode length in seconds of simulated time.
      random_state: an int seed, a `np.random.RandomState` or None.
      disable_walker_contacts: True turns off contacts between players.
      enable_field_box: True surrounds the field with invisible walls that stop the
        ball (not the players), with openings at the goals; without it a ball that
        leaves the field is thrown in.
      keep_aspect_ratio: True keeps the pitch's aspect ratio when its size is drawn.
      terminate_on_goal: False plays on through goals (`MultiturnTask`) until the
        time limit.
      walker_type: the players' body, a `WalkerType`: BOXHEAD, ANT or HUMANOID (this
        project's CMU humanoid, `SoccerHumanoid`, on a pitch sized for humanoids
        with mini-football goals and a regulation ball; it starts standing, where
        dm_control draws poses from motion capture).

    Returns:
      A `composer.Environment` of a multi-agent task (`num_agents` = 2 * team_size):
      per-agent lists of specs, actions, observations and rewards.

    Raises:
      ValueError: team_size outside [1, 11], or walker_type not a WalkerType.
      TypeError: a flag that is not a bool.
    """
    task = make_task(
        team_size,
        disable_walker_contacts,
        enable_field_box,
        keep_aspect_ratio,
        terminate_on_goal,
        walker_type,
    )
    return composer.Environment(task=task, time_limit=time_limit, random_state=random_state)


def load_batch(
    team_size: int,
    num_envs: int,
    seed: Optional[int] = None,
    num_threads: int = 0,
    time_limit: float = 45.0,
    clone_copies: bool = True,
    **task_kwargs: Any,
) -> Any:
    """`num_envs` matches stepped together (`composer_tasks.batch.BatchEnvironment`);
    match i equals `load(team_size, random_state=batch.copy_seed(seed, i), ...)`.
    `clone_copies` is `BatchEnvironment`'s (False calls the factory for every copy);
    `task_kwargs` are `load`'s other arguments."""
    from composer_tasks import batch

    return batch.BatchEnvironment(
        functools.partial(make_task, team_size, **task_kwargs),
        num_envs=num_envs,
        num_threads=num_threads,
        seed=seed,
        time_limit=time_limit,
        clone_copies=clone_copies,
    )


# Registry names ("soccer_<walker>_<n>v<n>") of the viewer and the command line.
_REGISTERED = [(walker_type, team_size) for walker_type in WalkerType for team_size in (1, 2)]


def registered_name(walker_type: WalkerType, team_size: int) -> str:
    """The registry name of a match, e.g. 'soccer_boxhead_2v2'."""
    return f"soccer_{walker_type.name.lower()}_{team_size}v{team_size}"


def register_environments() -> None:
    """Registers matches of every walker type with 1 and 2 players per team with
    `composer_tasks.registry` (setup.py's entry point)."""
    from composer_tasks import registry

    for walker_type, team_size in _REGISTERED:
        registry.register(
            registered_name(walker_type, team_size),
            functools.partial(_load_seeded, team_size, walker_type),
            collection="soccer",
        )


def _load_seeded(team_size, walker_type, seed):
    return load(team_size, random_state=seed, walker_type=walker_type)
