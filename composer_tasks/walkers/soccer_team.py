"""Teams and players of a soccer match (dm_control `locomotion/soccer/team.py`, dm-control 1.0.50).

Public API:

* `Team`: `Team.HOME` (value 0) and `Team.AWAY` (value 1). The home team defends
  the goal at negative x (`Pitch.home_goal`) and attacks the one at positive x.
* `Player(team, walker)`: a namedtuple pairing a `Team` with its walker entity.
* `RGBA_BLUE`, `RGBA_RED`: the marker colours dm_control gives the home (blue)
  and away (red) teams' walkers (`marker_rgba`), RGBA in [0, 1].
* `team_rgba(team)`: the marker colour of a team.
"""

import collections
import enum
from typing import Tuple


class Team(enum.Enum):
    """The two sides of a soccer match."""

    HOME = 0
    AWAY = 1


# dm_control soccer/team.py: RGBA_BLUE = [.1, .1, .8, 1.], RGBA_RED = [.8, .1, .1, 1.].
RGBA_BLUE: Tuple[float, float, float, float] = (0.1, 0.1, 0.8, 1.0)
RGBA_RED: Tuple[float, float, float, float] = (0.8, 0.1, 0.1, 1.0)

Player = collections.namedtuple("Player", ["team", "walker"])
Player.__doc__ = "A participant of a match: its `Team` and its walker entity."


def team_rgba(team: Team) -> Tuple[float, float, float, float]:
    """The marker colour of `team`: blue for HOME, red for AWAY.

    Raises:
      TypeError: if `team` is not a `Team`.
    """
    if not isinstance(team, Team):
        raise TypeError(f"team must be a soccer_team.Team, got {team!r}")
    return RGBA_BLUE if team is Team.HOME else RGBA_RED
