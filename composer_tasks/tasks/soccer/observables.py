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
* game statistics `stats_*` (below).
"""

import abc
import collections
from typing import Any, Mapping

import mujoco
import numpy as np

from composer_tasks.composer.observation import observable
from composer_tasks.walkers import soccer_team

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
    "team_goal_back_right", "team_goal_mid", "team_goal_front_left", "field_front_left",
    "opponent_goal_back_left", "opponent_goal_mid", "opponent_goal_front_right",
    "field_back_right",
)


class ObservablesAdder(metaclass=abc.ABCMeta):
    """A callable that adds a set of per-player observables for a task."""

    @abc.abstractmethod
    def __call__(self, task, player) -> None:
        """Adds observables to `player.walker` for `task` (a soccer `Task`)."""


class MultiObservablesAdder(ObservablesAdder):
    """Applies several `ObservablesAdder`s in order."""

    def __init__(self, observables) -> None:
        self._observables = list(observables)
        for adder in self._observables:
            if not callable(adder):
                raise TypeError(f"observables must be ObservablesAdders, got {adder!r}")

    def __call__(self, task, player) -> None:
        for adder in self._observables:
            adder(task, player)


class SensorSlice:
    """Reads the consecutive sensors `sensors` (MjSpec handles added one after the
    other, so their values are contiguous in `sensordata`) as one flat array."""

    def __init__(self, sensors) -> None:
        self._sensors = list(sensors)
        self._model = None

    def __call__(self, physics) -> np.ndarray:
        if physics.model is not self._model:
            ids = np.atleast_1d(physics.bind(self._sensors).element_id)
            model = physics.model
            starts = model.sensor_adr[ids]
            stops = starts + model.sensor_dim[ids]
            if np.any(starts[1:] != stops[:-1]):
                raise ValueError("SensorSlice needs sensors that are contiguous in sensordata")
            self._start, self._stop = int(starts[0]), int(stops[-1])
            self._model = model
        return physics.data.sensordata[self._start:self._stop]


def _frame_sensor(spec, name, sensor_type, element, reference_body):
    """A frame sensor of `element` (a body's inertial frame, or a site) in the frame of
    `reference_body`'s inertial frame: dm_control's soccer sensors, which name the
    bodies by MJCF objtype "body"."""
    object_type = _SITE if isinstance(element, mujoco.MjsSite) else _BODY
    return spec.add_sensor(name=name, type=sensor_type, objtype=object_type, objname=element.name,
                           reftype=_BODY, refname=reference_body.name)


class CoreObservablesAdder(ObservablesAdder):
    """dm_control's core set of per-player observables (module docstring)."""

    def __call__(self, task, player) -> None:
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

    def _enable_proprioception(self, walker):
        # Walkers here enable most of their observables by default; a soccer agent
        # sees dm_control's choice only.
        wanted = walker.observables.proprioception + walker.observables.kinematic_sensors + [
            walker.observables.prev_action]
        wanted_ids = {id(item) for item in wanted}
        for item in walker.observables.values():
            item.enabled = id(item) in wanted_ids

    def _add_ball_observables(self, task, player):
        spec = task.root_entity.spec
        walker = player.walker
        ball_body = task.ball.root_body
        for name, sensor_type in (("ball_ego_angular_velocity", _SENSOR.mjSENS_FRAMEANGVEL),
                                  ("ball_ego_position", _SENSOR.mjSENS_FRAMEPOS),
                                  ("ball_ego_linear_velocity", _SENSOR.mjSENS_FRAMELINVEL)):
            sensor = _frame_sensor(spec, f"{walker.name}_{name}", sensor_type, ball_body,
                                   walker.root_body)
            walker.observables.add_observable(name, observable.Generic(SensorSlice([sensor])))

    def _add_observables_on_other(self, task, player, other, prefix):
        spec = task.root_entity.spec
        walker, other_walker = player.walker, other.walker
        reference = walker.root_body
        end_effector_sensors = [
            _frame_sensor(spec, f"{walker.name}_{prefix}_end_effector_{index}", _SENSOR.mjSENS_FRAMEPOS,
                          effector, reference)
            for index, effector in enumerate(other_walker.end_effectors)]
        walker.observables.add_observable(
            f"{prefix}_ego_end_effectors_pos", observable.Generic(SensorSlice(end_effector_sensors)))
        for suffix, sensor_type in (("ego_linear_velocity", _SENSOR.mjSENS_FRAMELINVEL),
                                    ("ego_position", _SENSOR.mjSENS_FRAMEPOS)):
            sensor = _frame_sensor(spec, f"{walker.name}_{prefix}_{suffix}", sensor_type,
                                   other_walker.root_body, reference)
            walker.observables.add_observable(
                f"{prefix}_{suffix}", observable.Generic(SensorSlice([sensor])))
        axes = [
            _frame_sensor(spec, f"{walker.name}_{prefix}_ego_orientation_{axis}", sensor_type,
                          other_walker.root_body, reference)
            for axis, sensor_type in (("x", _SENSOR.mjSENS_FRAMEXAXIS), ("y", _SENSOR.mjSENS_FRAMEYAXIS),
                                      ("z", _SENSOR.mjSENS_FRAMEZAXIS))]
        walker.observables.add_observable(
            f"{prefix}_ego_orientation", observable.Generic(SensorSlice(axes)))
        # The other walker's own observable, read in its own frame (as dm_control).
        walker.observables.add_observable(
            f"{prefix}_end_effectors_pos", other_walker.observables.end_effectors_pos)

    def _add_arena_observables(self, task, player):
        arena = task.arena
        home = player.team is soccer_team.Team.HOME
        # (feature in the world frame, whether it is the 3-D goal centre), clockwise
        # from the player's own goal; the away team's own goal is the home goal's
        # opposite, hence the half-turn of the list.
        features = [
            (lambda: arena.home_goal.lower[:2], False),
            (lambda: arena.home_goal.mid, True),
            (lambda: arena.home_goal.upper[:2], False),
            (lambda: arena.field.upper, False),
            (lambda: arena.away_goal.upper[:2], False),
            (lambda: arena.away_goal.mid, True),
            (lambda: arena.away_goal.lower[:2], False),
            (lambda: arena.field.lower, False),
        ]
        if not home:
            half = len(features) // 2
            features = features[half:] + features[:half]
        root = player.walker.root_body
        for name, (feature, three_d) in zip(ARENA_OBSERVATION_NAMES, features):
            player.walker.observables.add_observable(
                name, observable.Generic(_egocentric_point(feature, root, three_d)))

    def _add_stats_observables(self, task, player):
        stats = _PlayerStats(task, player)
        for name in ("stats_vel_to_ball", "stats_closest_vel_to_ball", "stats_veloc_forward",
                     "stats_vel_ball_to_goal", "stats_home_avg_teammate_dist",
                     "stats_teammate_spread_out", "stats_home_score", "stats_away_score"):
            player.walker.observables.add_observable(
                name, observable.Generic(getattr(stats, name[len("stats_"):])))


def _egocentric_point(feature, root_body, three_d):
    """A function of the physics: the world point `feature()` relative to the root
    body's origin, in its egocentric frame. 3-D points use the root's rotation
    (R^T v); horizontal points its xy block (v R[:2, :2]), as dm_control's
    `transform_vec_to_egocentric_frame` does."""
    binding = {}

    def egocentric(physics):
        if binding.get("model") is not physics.model:
            binding["model"] = physics.model
            binding["id"] = int(physics.bind(root_body).element_id)
        body = binding["id"]
        data = physics.data
        rotation = data.xmat[body].reshape(3, 3)
        point = np.asarray(feature(), dtype=np.float64)
        if three_d:
            return (point - data.xpos[body]) @ rotation
        return (point - data.xpos[body, :2]) @ rotation[:2, :2]
    return egocentric


class _PlayerStats:
    """dm_control's per-player game statistics, as functions of the physics."""

    def __init__(self, task, player):
        self._task = task
        self._player = player
        self._teammates = [other for other in task.players
                           if other is not player and other.team is player.team]
        self._team = [other for other in task.players if other.team is player.team]
        self._has_opponent = any(other.team is not player.team for other in task.players)

    def _root_xpos(self, physics, player):
        return physics.bind(player.walker.root_body).xpos

    def vel_to_ball(self, physics) -> float:
        """Speed (m/s) of the player's root towards the ball, horizontally: the root's
        linear `cvel` (x, y) along the horizontal direction to the ball."""
        root = physics.bind(self._player.walker.root_body)
        direction = physics.bind(self._task.ball.geom).xpos - root.xpos
        unit = direction[:2] / (np.linalg.norm(direction[:2]) + _DIRECTION_EPSILON_M)
        return float(np.dot(unit, root.cvel[3:5]))

    def closest_vel_to_ball(self, physics) -> float:
        """`vel_to_ball` if the player is its team's closest to the ball, else 0."""
        ball = physics.bind(self._task.ball.geom).xpos
        distances = [np.linalg.norm(ball - self._root_xpos(physics, member)) for member in self._team]
        # The first of equally close players counts, as dm_control's strict `<`.
        if self._team[int(np.argmin(distances))] is self._player:
            return self.vel_to_ball(physics)
        return 0.0

    def veloc_forward(self, physics) -> Any:
        """The walker's forward velocity (m/s): its `veloc_forward` observable."""
        return self._player.walker.observables.veloc_forward.raw_callable(physics)

    def vel_ball_to_goal(self, physics) -> float:
        """Speed (m/s) of the ball towards the centre of the opponents' goal."""
        arena = self._task.arena
        goal = arena.away_goal if self._player.team is soccer_team.Team.HOME else arena.home_goal
        centre = (goal.upper + goal.lower) / 2.0
        direction = centre - physics.bind(self._task.ball.geom).xpos
        norm = np.linalg.norm(direction)
        unit = direction / norm if norm else direction
        velocity = self._task.ball.observables.linear_velocity.raw_callable(physics)
        return float(np.dot(unit, np.ravel(velocity)))

    def home_avg_teammate_dist(self, physics) -> float:
        """Mean distance (m) from the player's root to its teammates' (0 without any)."""
        if not self._teammates:
            return 0.0
        own = self._root_xpos(physics, self._player)
        return float(np.mean([np.linalg.norm(own - self._root_xpos(physics, other))
                              for other in self._teammates]))

    def teammate_spread_out(self, physics) -> bool:
        """True if `home_avg_teammate_dist` exceeds 5 m."""
        return bool(self.home_avg_teammate_dist(physics) > TEAMMATE_SPREAD_OUT_M)

    def home_score(self, physics) -> float:
        """1.0 if the player's team scored at this step, else 0.0."""
        del physics
        return 1.0 if self._task.arena.detected_goal() == self._player.team else 0.0

    def away_score(self, physics) -> float:
        """1.0 if the other team scored at this step (and there is one), else 0.0."""
        del physics
        scorer = self._task.arena.detected_goal()
        return 1.0 if self._has_opponent and scorer is not None and scorer != self._player.team else 0.0


def per_player_observables(walker, builtin_names) -> Mapping[str, Any]:
    """The observables a player's agent sees: the walker's own (`builtin_names`, those
    it had before the adders ran) in the order of their names, as dm_control's
    walkers list them, then those the adders added, in the order added."""
    items = walker.observables.as_dict()
    builtin = set(builtin_names)
    ordered = collections.OrderedDict((name, items[name]) for name in sorted(builtin))
    ordered.update((name, item) for name, item in items.items() if name not in builtin)
    return ordered
