"""Per-player observables of the soccer task (dm_control soccer `observables.py`).

An `ObservablesAdder` is called once per player when the task is built, after every
entity is attached; it adds observables to the player's walker
(`walker.observables.add_observable`), which the task hands to that player's agent.
`CoreObservablesAdder` gives dm_control's core set, with its names, shapes and
order (recorded in `tests/conformance/reference/soccer.json`):

* proprioception: the walker's `proprioception` and `kinematic_sensors` groups and
  `prev_action`, in the order of their names (dm_control's order);
* the ball, egocentric (the player's root body's inertial frame, MuJoCo frame
  sensors as dm_control's): `ball_ego_angular_velocity` (rad/s),
  `ball_ego_position` (m), `ball_ego_linear_velocity` (m/s);
* for every other player, in the task's player order, prefixed `teammate_<k>_` or
  `opponent_<k>_`: `ego_end_effectors_pos` (its end effectors, m, flat),
  `ego_linear_velocity` (m/s), `ego_position` (m) and `ego_orientation` (its
  root frame's x, y and z axes, flat (9,)), all in the player's egocentric frame,
  and `end_effectors_pos` (its own end-effector observable, in its own frame);
* the pitch, egocentric, corners named as seen by a player facing the opponents'
  goal: `team_goal_back_right`, `team_goal_mid`, `team_goal_front_left`,
  `field_front_left`, `opponent_goal_back_left`, `opponent_goal_mid`,
  `opponent_goal_front_right`, `field_back_right` ((2,) horizontal vectors from
  the player's root, rotated by the root's xy rotation block as dm_control does;
  the goal mids (3,) from the root's 3-D position, rotated into its frame);
* game statistics `stats_*` (`MatchFeatures` and `_Scores` below).
"""

from __future__ import annotations

import abc
import collections
import warnings
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, Mapping, cast

import mujoco
import numpy as np

from composer_tasks.composer.observation import observable
from composer_tasks.mjcf import namescope
from composer_tasks.walkers import soccer_team

if TYPE_CHECKING:
    from composer_tasks.physics import Physics
    from composer_tasks.tasks.soccer.task import Task
    from composer_tasks.walkers.legacy_base import LegacyWalker, LegacyWalkerObservables

_BODY = mujoco.mjtObj.mjOBJ_BODY
_SITE = mujoco.mjtObj.mjOBJ_SITE
_SENSOR = mujoco.mjtSensor
# dm_control soccer observables.py: `_stats_teammate_spread_out` is True beyond 5 m
# of average distance to the teammates.
TEAMMATE_SPREAD_OUT_M = 5.0
# dm_control soccer observables.py: `_stats_vel_to_ball` divides by |d| + 1e-7.
_DIRECTION_EPSILON_M = 1e-7

# Corners and goal centres clockwise, as seen by a player facing the opponents' goal
# (dm_control's `clockwise_names`).
ARENA_OBSERVATION_NAMES = (
    "team_goal_back_right",
    "team_goal_mid",
    "team_goal_front_left",
    "field_front_left",
    "opponent_goal_back_left",
    "opponent_goal_mid",
    "opponent_goal_front_right",
    "field_back_right",
)


class ObservablesAdder(metaclass=abc.ABCMeta):
    """A callable that adds a set of per-player observables for a task."""

    @abc.abstractmethod
    def __call__(self, task: Task, player: soccer_team.Player) -> None:
        """Adds observables to `player.walker` for `task` (a soccer `Task`)."""


class MultiObservablesAdder(ObservablesAdder):
    """Applies several `ObservablesAdder`s in order."""

    def __init__(self, observables: Iterable[ObservablesAdder]) -> None:
        self._observables = list(observables)
        for adder in self._observables:
            if not callable(adder):
                raise TypeError(f"observables must be ObservablesAdders, got {adder!r}")

    def __call__(self, task: Task, player: soccer_team.Player) -> None:
        for adder in self._observables:
            adder(task, player)


# dm_control soccer observables.py: the ball's travel between touches (m) beyond
# which an interception or a received pass counts for the `_<d>m` statistics.
INTERCEPTION_DISTANCES_M = (5, 10, 15)


class InterceptionObservablesAdder(ObservablesAdder):
    """Indicators (1.0 or 0.0) of passes received and interceptions suffered
    (dm_control's `InterceptionObservablesAdder`).

    * `stats_i_received_ball`: during the last control step this player touched
      the ball, and the touch before was another player's (`ball.repossessed`).
    * `stats_opponent_intercepted_ball`: during the last control step an opponent
      touched the ball, and the touch before was by this player's team (or it was
      the episode's first touch: `ball.intercepted`).
    * `stats_i_received_ball_<d>m`, `stats_opponent_intercepted_ball_<d>m` for d in
      5, 10, 15: the same, when the ball also travelled more than d metres between
      the two touches (`ball.dist_between_last_hits`).
    """

    def __call__(self, task: Task, player: soccer_team.Player) -> None:
        ball = task.ball
        observables = player.walker.observables

        def received(physics: Physics) -> float:
            del physics
            return float(ball.hit and ball.repossessed and ball.last_hit is player)

        def intercepted(physics: Physics) -> float:
            del physics
            last = ball.last_hit
            return float(
                ball.hit and ball.intercepted and last is not None and last.team != player.team
            )

        def beyond(
            indicator: Callable[[Physics], float], distance_m: float
        ) -> Callable[[Physics], float]:
            def observe(physics: Physics) -> float:
                travelled = ball.dist_between_last_hits
                return float(
                    bool(indicator(physics)) and travelled is not None and travelled > distance_m
                )

            return observe

        observables.add_observable("stats_i_received_ball", observable.Generic(received))
        observables.add_observable(
            "stats_opponent_intercepted_ball", observable.Generic(intercepted)
        )
        # dm_control adds each distance's pair together, 5 m first.
        for distance_m in INTERCEPTION_DISTANCES_M:
            observables.add_observable(
                f"stats_i_received_ball_{distance_m}m",
                observable.Generic(beyond(received, distance_m)),
            )
            observables.add_observable(
                f"stats_opponent_intercepted_ball_{distance_m}m",
                observable.Generic(beyond(intercepted, distance_m)),
            )


def _flat_sensordata(sensors: Iterable[Any]) -> observable.MJCFFeature:
    """The values of `sensors` concatenated in order, one flat vector (as dm_control's
    reshape of their `sensordata` gives): `sensordata` of a list of sensors is that
    already."""
    return observable.MJCFFeature("sensordata", list(sensors))


def _frame_sensor(
    walker: LegacyWalker, tag: str, name: str, element: Any, objtype: str = "body"
) -> Any:
    """A frame sensor `tag` ("framepos", ...) of `element` (a body's inertial frame, or
    a site) in the frame of `walker`'s root body, added to the walker's own model
    under `name`, as dm_control's soccer observables add them (so that they are
    named `<walker>/<name>` in the compiled model).

    The walkers are attached by then, so the sensors compile after every walker's own
    sensors (MjSpec appends), where dm_control compiles each walker's right after
    its own: the names and values are dm_control's, the rows of `sensordata` are not
    (docs/porting_from_dm_control.md). That is this module's choice, not a user's
    mistake, so the SectionOrderWarning is not shown.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", namescope.SectionOrderWarning)
        return walker.mjcf_model.sensor.add(
            tag,
            name=name,
            objtype=objtype,
            objname=element,
            reftype="body",
            refname=walker.root_body,
        )


class CoreObservablesAdder(ObservablesAdder):
    """dm_control's core set of per-player observables (module docstring)."""

    def __call__(self, task: Task, player: soccer_team.Player) -> None:
        walker = player.walker
        self._enable_proprioception(walker)
        self._add_ball_observables(task, player)
        teammates = opponents = 0
        for other in task.players:
            if other is player:
                continue
            if other.team is player.team:
                prefix = f"teammate_{teammates}"
                teammates += 1
            else:
                prefix = f"opponent_{opponents}"
                opponents += 1
            self._add_observables_on_other(task, player, other, prefix)
        self._add_arena_observables(task, player)
        self._add_stats_observables(task, player)

    def _enable_proprioception(self, walker: LegacyWalker) -> None:
        # Walkers here enable most of their observables by default; a soccer agent
        # sees dm_control's choice only.
        # Legacy walkers build `LegacyWalkerObservables`, which has the groups.
        observables = cast("LegacyWalkerObservables", walker.observables)
        wanted = (
            observables.proprioception + observables.kinematic_sensors + [observables.prev_action]
        )
        wanted_ids = {id(item) for item in wanted}
        for item in observables.values():
            item.enabled = id(item) in wanted_ids

    def _add_ball_observables(self, task: Task, player: soccer_team.Player) -> None:
        walker = cast("Any", player.walker)
        ball = task.ball.root_body
        for observable_name, attribute, tag, sensor_name in (
            (
                "ball_ego_angular_velocity",
                "ball_ego_angvel_sensor",
                "frameangvel",
                "ball_ego_angvel",
            ),
            ("ball_ego_position", "ball_ego_pos_sensor", "framepos", "ball_ego_pos"),
            (
                "ball_ego_linear_velocity",
                "ball_ego_linvel_sensor",
                "framelinvel",
                "ball_ego_linvel",
            ),
        ):
            sensor = _frame_sensor(walker, tag, sensor_name, ball)
            setattr(walker, attribute, sensor)  # as dm_control's adder sets them
            walker.observables.add_observable(
                observable_name, observable.MJCFFeature("sensordata", sensor)
            )

    def _add_observables_on_other(
        self, task: Task, player: soccer_team.Player, other: soccer_team.Player, prefix: str
    ) -> None:
        walker, other_walker = player.walker, other.walker
        end_effector_sensors = [
            _frame_sensor(
                walker,
                "framepos",
                f"{effector.name}_{prefix}_end_effector",
                effector,
                objtype=effector.tag,
            )
            for effector in other_walker.end_effectors
        ]
        name = f"{prefix}_ego_end_effectors_pos"
        walker.obs_on_other[name] = end_effector_sensors
        walker.observables.add_observable(name, _flat_sensordata(end_effector_sensors))
        other_root = other_walker.root_body
        for suffix, tag in (("ego_linear_velocity", "framelinvel"), ("ego_position", "framepos")):
            name = f"{prefix}_{suffix}"
            sensor = _frame_sensor(walker, tag, name, other_root)
            walker.obs_on_other[name] = [sensor]
            walker.observables.add_observable(name, observable.MJCFFeature("sensordata", sensor))
        name = f"{prefix}_ego_orientation"
        axes = [
            _frame_sensor(walker, f"frame{axis}axis", f"{name}_{axis}", other_root)
            for axis in ("x", "y", "z")
        ]
        walker.obs_on_other[name] = axes
        walker.observables.add_observable(name, _flat_sensordata(axes))
        # The other walker's own observable, read in its own frame (as dm_control).
        walker.observables.add_observable(
            f"{prefix}_end_effectors_pos", other_walker.observables.end_effectors_pos
        )

    def _add_arena_observables(self, task: Task, player: soccer_team.Player) -> None:
        features = self._features_of(task)
        index = task.players.index(player)
        for name in ARENA_OBSERVATION_NAMES:
            player.walker.observables.add_observable(
                name, observable.Generic(features.reader(name, index))
            )

    def _add_stats_observables(self, task: Task, player: soccer_team.Player) -> None:
        features = self._features_of(task)
        index = task.players.index(player)
        for name in (
            "stats_vel_to_ball",
            "stats_closest_vel_to_ball",
            "stats_veloc_forward",
            "stats_vel_ball_to_goal",
            "stats_home_avg_teammate_dist",
            "stats_teammate_spread_out",
        ):
            player.walker.observables.add_observable(
                name, observable.Generic(features.reader(name, index))
            )
        scores = _Scores(task, player)
        player.walker.observables.add_observable(
            "stats_home_score", observable.Generic(scores.home)
        )
        player.walker.observables.add_observable(
            "stats_away_score", observable.Generic(scores.away)
        )

    def _features_of(self, task: Task) -> MatchFeatures:
        features = getattr(self, "_features", None)
        if features is None or features.task is not task:
            features = MatchFeatures(task)
            self._features = features
        return features


class MatchFeatures:
    """Every player's pitch observations and game statistics, computed together once
    per physics state (numpy over the players) and read row by row by the players'
    observables.

    The values are dm_control's (module docstring; statistics on `_Scores` and
    below). They are recomputed whenever the state differs from the one they were
    computed for (time, qpos and qvel, which determine every quantity they read once
    the physics is forward), so an observable reads them at any substep or after
    any edit of the state.

    Statistics (per player, (P,) arrays):
      vel_to_ball: speed (m/s) of the root towards the ball, horizontally (the
        root's linear `cvel` x, y along the unit horizontal direction to the ball,
        that direction divided by its norm + 1e-7 m);
      closest_vel_to_ball: vel_to_ball for the team's player closest to the ball
        (the first of equally close ones), 0 for the others;
      veloc_forward: the walker's `veloc_forward` observable (m/s);
      vel_ball_to_goal: the ball's velocity (its `linear_velocity` observable)
        along the unit direction from it to the centre of the opponents' goal;
      home_avg_teammate_dist: mean distance (m) between the roots of the player
        and its teammates (0 without any);
      teammate_spread_out: home_avg_teammate_dist > 5 m.
    """

    def __init__(self, task: Task) -> None:
        self.task = task
        players = task.players
        count = len(players)
        self._home = np.array([player.team is soccer_team.Team.HOME for player in players])
        teams = np.array([player.team.value for player in players])
        same_team = teams[:, None] == teams[None, :]
        self._teammates = same_team & ~np.eye(count, dtype=bool)
        self._num_teammates = self._teammates.sum(axis=1)
        self._teams = [np.flatnonzero(teams == team) for team in np.unique(teams)]
        self._rows = np.arange(count)
        # Which of the clockwise points (home goal first) each player's k-th arena
        # observation is: the away team's list is turned by half.
        half = len(ARENA_OBSERVATION_NAMES) // 2
        self._arena_sources = [
            np.where(self._home, offset, (offset + half) % (2 * half))
            for offset in range(len(ARENA_OBSERVATION_NAMES))
        ]
        self._veloc_forward = [
            _ObservableReader(player.walker.observables.veloc_forward) for player in players
        ]
        self._ball_velocity = _ObservableReader(task.ball.observables.linear_velocity)
        self._model: Any = None
        self._data: Any = None
        self._time: float | None = None
        self._qpos: bytes | None = None
        self._qvel: bytes | None = None
        self._values: dict[str, np.ndarray] | None = None

    def reader(self, name: str, index: int) -> Callable[[Physics], Any]:
        """A function of the physics giving feature `name` of player `index`."""

        def read(physics: Physics) -> Any:
            return self.values(physics)[name][index]

        read.__qualname__ = f"MatchFeatures.{name}"
        return read

    def values(self, physics: Physics) -> dict[str, np.ndarray]:
        """{feature name: (P, ...) array} at the physics' current state."""
        data = physics.data
        qpos = data.qpos.tobytes()
        qvel = data.qvel.tobytes()
        if (
            data is not self._data
            or data.time != self._time
            or qpos != self._qpos
            or qvel != self._qvel
        ):
            if physics.model is not self._model:
                self._bind(physics)
            self._values = self._compute(physics)
            self._data, self._time, self._qpos, self._qvel = data, data.time, qpos, qvel
        # Computed above on the first call: no data is cached before it.
        assert self._values is not None
        return self._values

    def _bind(self, physics: Physics) -> None:
        task = self.task
        self._roots = np.array(
            [int(physics.bind(player.walker.root_body).element_id) for player in task.players]
        )
        self._ball_geom = int(physics.bind(task.ball.geom).element_id)
        self._model = physics.model

    def _arena_points(self) -> np.ndarray:
        """The clockwise points from the home goal (world frame, m), (8, 3); the
        2-D ones (goal corners, field corners) with z = 0, which is not read."""
        arena = self.task.arena
        home_goal, away_goal, field = arena.home_goal, arena.away_goal, arena.field
        points = np.zeros((len(ARENA_OBSERVATION_NAMES), 3))
        for row, point in enumerate(
            (
                home_goal.lower,
                home_goal.mid,
                home_goal.upper,
                field.upper,
                away_goal.upper,
                away_goal.mid,
                away_goal.lower,
                field.lower,
            )
        ):
            point = np.asarray(point, dtype=np.float64)
            points[row, : min(point.size, 3)] = point[:3]
        return points

    def _compute(self, physics: Physics) -> dict[str, np.ndarray]:
        task = self.task
        data = physics.data
        roots = self._roots
        rows = self._rows
        position = data.xpos[roots]
        rotation = data.xmat[roots].reshape(-1, 3, 3)
        relative = self._arena_points()[np.newaxis] - position[:, np.newaxis]
        # Row vectors times R: R^T v, each point in each player's frame.
        spatial = np.matmul(relative, rotation)
        planar = np.matmul(relative[:, :, :2], rotation[:, :2, :2])
        values: dict[str, np.ndarray] = {}
        for offset, name in enumerate(ARENA_OBSERVATION_NAMES):
            table = spatial if name.endswith("_mid") else planar
            values[name] = table[rows, self._arena_sources[offset]]

        ball = data.geom_xpos[self._ball_geom]
        to_ball = ball - position
        horizontal = to_ball[:, :2]
        unit = (
            horizontal
            / (np.sqrt(np.einsum("pi,pi->p", horizontal, horizontal)) + _DIRECTION_EPSILON_M)[
                :, np.newaxis
            ]
        )
        vel_to_ball = np.einsum("pi,pi->p", unit, data.cvel[roots, 3:5])
        values["stats_vel_to_ball"] = vel_to_ball
        distance_to_ball = np.sqrt(np.einsum("pi,pi->p", to_ball, to_ball))
        closest = np.zeros(len(roots))
        for members in self._teams:
            # The first of equally close players, as dm_control's strict `<`.
            winner = members[np.argmin(distance_to_ball[members])]
            closest[winner] = vel_to_ball[winner]
        values["stats_closest_vel_to_ball"] = closest
        values["stats_veloc_forward"] = np.array(
            [
                np.asarray(read(physics), dtype=np.float64).reshape(())
                for read in self._veloc_forward
            ]
        )
        ball_velocity = np.asarray(self._ball_velocity(physics), dtype=np.float64).reshape(3)
        arena = task.arena
        goal_speeds = []
        for goal in (arena.away_goal, arena.home_goal):
            direction = (goal.upper + goal.lower) / 2.0 - ball
            norm = np.linalg.norm(direction)
            goal_speeds.append(np.dot(direction / norm if norm else direction, ball_velocity))
        # The home team attacks the away goal, the away team the home goal.
        values["stats_vel_ball_to_goal"] = np.where(self._home, goal_speeds[0], goal_speeds[1])
        difference = position[:, np.newaxis] - position[np.newaxis]
        pairwise = np.sqrt(np.einsum("pqi,pqi->pq", difference, difference))
        total = np.where(self._teammates, pairwise, 0.0).sum(axis=1)
        average = np.divide(
            total, self._num_teammates, out=np.zeros(len(roots)), where=self._num_teammates > 0
        )
        values["stats_home_avg_teammate_dist"] = average
        values["stats_teammate_spread_out"] = average > TEAMMATE_SPREAD_OUT_M
        return values


class _ObservableReader:
    """Reads another observable's value from a physics (its `observation_callable`,
    made once per physics, as dm_control's statistics read the walker's and the
    ball's observables)."""

    def __init__(self, observable_object: observable.Observable) -> None:
        self._observable = observable_object
        self._data: Any = None
        self._model: Any = None

    def __call__(self, physics: Physics) -> Any:
        # A reader binds the model's and data's arrays, which a recompile replaces.
        if physics.data is not self._data or physics.model is not self._model:
            self._read = self._observable.observation_callable(physics)
            self._data, self._model = physics.data, physics.model
        return self._read()


class _Scores:
    """A player's goal statistics: whether its team scored (`home`) or conceded
    (`away`, only if there is another team) during the step, 1.0 or 0.0."""

    def __init__(self, task: Task, player: soccer_team.Player) -> None:
        self._arena = task.arena
        self._team = player.team
        self._has_opponent = any(other.team is not player.team for other in task.players)

    def home(self, physics: Physics) -> float:
        del physics
        return 1.0 if self._arena.detected_goal() == self._team else 0.0

    def away(self, physics: Physics) -> float:
        del physics
        scorer = self._arena.detected_goal()
        return 1.0 if self._has_opponent and scorer is not None and scorer != self._team else 0.0


def per_player_observables(
    walker: LegacyWalker, builtin_names: Iterable[str]
) -> Mapping[str, observable.Observable]:
    """The observables a player's agent sees: the walker's own (`builtin_names`, those
    it had before the adders ran) in the order of their names, as dm_control's
    walkers list them, then those the adders added, in the order added."""
    items = walker.observables.as_dict(fully_qualified=False)
    builtin = set(builtin_names)
    ordered = collections.OrderedDict((name, items[name]) for name in sorted(builtin))
    ordered.update((name, item) for name, item in items.items() if name not in builtin)
    return ordered
