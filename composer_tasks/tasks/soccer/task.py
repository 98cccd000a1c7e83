"""Multi-agent soccer: two teams of walkers, a ball and a pitch (dm_control paper §7.3;
dm_control `locomotion/soccer/task.py`).

A multi-agent `composer.Task` (`num_agents` players): the home team's players come
first in `players` as the suite builds them, then the away team's. Per control step
each player's agent gives an action; each gets its own observation dict and reward:
+1 when its team scored during the step, -1 when it conceded, else 0 (float32, as
dm_control). The home team defends the goal at negative x (`arena.home_goal`).

`Task` ends the episode at a goal (discount 0); `MultiturnTask` plays on through
goals (the players and the ball are placed anew after each), until the time limit.
On a pitch without a field box, a ball that left the field during a step is thrown
in at the start of the next: put back at rest 0.5 m high, its x and y shrunk
towards the centre by factors drawn in [0.7, 0.9].
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, List, Optional, Sequence

import numpy as np
from dm_env import specs

from composer_tasks import composer
from composer_tasks.props import soccer_ball
from composer_tasks.tasks.soccer import camera as camera_module
from composer_tasks.tasks.soccer import initializers as initializers_module
from composer_tasks.tasks.soccer import observables as observables_module
from composer_tasks.walkers import soccer_team

if TYPE_CHECKING:
    from composer_tasks.arenas.pitch import Pitch
    from composer_tasks.physics import Physics
    from composer_tasks.walkers.legacy_base import LegacyWalker

# dm_control soccer task.py: set_timesteps(physics_timestep=0.005, control_timestep=0.025).
PHYSICS_TIMESTEP_S = 0.005
CONTROL_TIMESTEP_S = 0.025
# dm_control soccer task.py: nconmax_per_player=200, njmax_per_player=400.
NCONMAX_PER_PLAYER = 200
NJMAX_PER_PLAYER = 400
# dm_control soccer task.py `_throw_in`: _THROW_IN_BALL_Z = 0.5 m, x and y shrunk by
# factors uniform in [0.7, 0.9].
THROW_IN_BALL_Z_M = 0.5
THROW_IN_SHRINK_RANGE = (0.7, 0.9)


class Task(composer.Task):
    """Two teams of walkers play soccer; the episode ends at a goal.

    Args:
      players: the `soccer_team.Player`s of both teams (each a team and a walker
        entity with dm_control's legacy walker API), in agent order.
      arena: a `Pitch` (goals, field detector, `detected_goal()`).
      ball: a `SoccerBall`; None makes a default one.
      initializer: an `initializers.Initializer`; None is `UniformInitializer()`.
      observables: an `observables.ObservablesAdder`; None is `CoreObservablesAdder()`.
      disable_walker_contacts: True turns off contacts between players (their
        geoms' `contype` becomes 0; they still touch the ground and the ball).
      nconmax_per_player, njmax_per_player: the model's contact and constraint
        allocations per player (MuJoCo's `size` `nconmax`, `njmax`).
      control_timestep: seconds per agent step (the physics step is 5 ms).
      tracking_cameras: `camera.MultiplayerTrackingCamera`s that follow the ball
        and the players: the task makes each one's camera after every compile,
        poses it at the start of every episode and moves it after every step.

    A match of no players is allowed, as in dm_control (its specs, observations
    and rewards are empty lists).

    Raises:
      TypeError, ValueError: for players that are not `soccer_team.Player`s of a
        `Team`, a repeated walker, or tracking cameras that are not
        `MultiplayerTrackingCamera`s.
    """

    def __init__(
        self,
        players: Sequence[soccer_team.Player],
        arena: Pitch,
        ball: soccer_ball.SoccerBall | None = None,
        initializer: Optional[initializers_module.Initializer] = None,
        observables: Optional[observables_module.ObservablesAdder] = None,
        disable_walker_contacts: bool = False,
        nconmax_per_player: int = NCONMAX_PER_PLAYER,
        njmax_per_player: int = NJMAX_PER_PLAYER,
        control_timestep: float = CONTROL_TIMESTEP_S,
        tracking_cameras: Sequence[camera_module.MultiplayerTrackingCamera] = (),
    ) -> None:
        players = list(players)
        tracking_cameras = list(tracking_cameras)
        for index, tracking_camera in enumerate(tracking_cameras):
            if not isinstance(tracking_camera, camera_module.MultiplayerTrackingCamera):
                raise TypeError(
                    f"tracking_cameras[{index}] must be a camera.MultiplayerTrackingCamera, "
                    f"got {tracking_camera!r}"
                )
        for index, player in enumerate(players):
            if not isinstance(player, soccer_team.Player) or not isinstance(
                player.team, soccer_team.Team
            ):
                raise TypeError(
                    f"players[{index}] must be a soccer_team.Player(team, walker) with a Team, "
                    f"got {player!r}"
                )
        if len({id(player.walker) for player in players}) != len(players):
            raise ValueError("every player needs its own walker")
        if not isinstance(disable_walker_contacts, (bool, np.bool_)):
            raise TypeError(
                f"disable_walker_contacts must be a bool, got {disable_walker_contacts!r}"
            )
        for name, value in (
            ("nconmax_per_player", nconmax_per_player),
            ("njmax_per_player", njmax_per_player),
        ):
            if (
                isinstance(value, (bool, np.bool_))
                or not isinstance(value, (int, np.integer))
                or value < 1
            ):
                raise ValueError(f"{name} must be an int >= 1, got {value!r}")
        self.arena = arena
        self.players = players
        self._initializer = initializer or initializers_module.UniformInitializer()
        if not callable(self._initializer):
            raise TypeError(f"initializer must be an Initializer, got {initializer!r}")
        self._observables_adder = observables or observables_module.CoreObservablesAdder()
        if disable_walker_contacts:
            for player in players:
                for geom in player.walker.spec.geoms:
                    geom.contype = 0
        self.ball = ball if ball is not None else soccer_ball.SoccerBall()
        self.arena.add_free_entity(self.ball)
        self.arena.register_ball(self.ball)
        self._placements: list[_KeepPlacement] = []
        for player in players:
            player.walker.create_root_joints(self.arena.attach(player.walker))
            self.ball.register_player(player)
            placement = _KeepPlacement()
            player.walker.add_initializer(placement)
            self._placements.append(placement)
        # Sensors between entities name elements by their full names, which they
        # have once everything is attached.
        self._player_observables: list[Mapping[str, Any]] = []
        for player in players:
            builtin = list(player.walker.observables.keys())
            self._observables_adder(self, player)
            self._player_observables.append(
                observables_module.per_player_observables(player.walker, builtin)
            )
        self.set_timesteps(control_timestep=control_timestep, physics_timestep=PHYSICS_TIMESTEP_S)
        spec = self.root_entity.spec
        spec.nconmax = int(nconmax_per_player) * len(players)
        spec.njmax = int(njmax_per_player) * len(players)
        self._owner_model = None
        self._tracking_cameras = tracking_cameras

    # Agents.

    @property
    def num_agents(self) -> int:
        return len(self.players)

    @property
    def agent_names(self) -> List[str]:
        """The walkers' names, one per agent ("home0", "away0", ... in the suite)."""
        return [player.walker.name for player in self.players]

    @property
    def root_entity(self) -> Pitch:
        return self.arena

    @property
    def observables(self) -> List[Mapping[str, Any]]:
        """One dict of observables per player (see `observables.py` for the order)."""
        return self._player_observables

    def action_spec(self, physics: Physics) -> List[specs.BoundedArray]:
        """Each player's walker's action spec, in player order."""
        return [player.walker.action_spec for player in self.players]

    def get_reward_spec(self) -> List[specs.Array]:
        return [specs.Array(shape=(), dtype=np.float32, name="reward") for _ in self.players]

    def get_discount_spec(self) -> specs.Array:
        """One float32 discount for all players (dm_control's spec: unbounded)."""
        return specs.Array(shape=(), dtype=np.float32, name="discount")

    # Episode.

    def geom_owners(self, physics: Physics) -> np.ndarray:
        """For every geom of the model: 0 for the ball's, i + 1 for player i's walker's,
        -1 for the rest (cached per compiled model)."""
        if self._owner_model is not physics.model:
            model = physics.model
            owners = np.full(model.ngeom, -1, dtype=np.int64)
            entities = [self.ball] + [player.walker for player in self.players]
            top_bodies = {
                int(physics.bind(entity.attachment_body).id): index
                for index, entity in enumerate(entities)
            }
            for geom in range(model.ngeom):
                body = int(model.geom_bodyid[geom])
                while body > 0 and body not in top_bodies:
                    body = int(model.body_parentid[body])
                owners[geom] = top_bodies.get(body, -1)
            self._owners = owners
            self._owner_model = model
        return self._owners

    def initialize_episode_mjcf(self, random_state: np.random.RandomState) -> None:
        """Lays the arena out for the episode, as dm_control's soccer task does.

        Composer's hooks then call the arena's own `initialize_episode_mjcf` again,
        so a `RandomizedPitch` draws its size twice per episode and keeps the second
        draw: dm_control's behaviour, kept so that a seed gives dm_control's pitch
        (and leaves the random stream where dm_control leaves it).
        """
        self.arena.initialize_episode_mjcf(random_state)

    def initialize_episode(self, physics: Physics, random_state: np.random.RandomState) -> None:
        """Places the players and the ball (the initializer).

        The walkers' own `initialize_episode` callbacks run after this one and set
        their pose joints to the initial pose; each walker carries a pose
        initializer that then puts back the joints this placement gave it.
        """
        self._place(physics, random_state)
        for tracking_camera in self._tracking_cameras:
            tracking_camera.initialize_episode(self._tracked_entity_positions(physics))

    def after_compile(self, physics: Physics, random_state: np.random.RandomState) -> None:
        """Makes each tracking camera's camera for the compiled model."""
        for tracking_camera in self._tracking_cameras:
            tracking_camera.after_compile(physics)

    def after_step(self, physics: Physics, random_state: np.random.RandomState) -> None:
        """Moves each tracking camera towards the ball and the players."""
        for tracking_camera in self._tracking_cameras:
            tracking_camera.after_step(self._tracked_entity_positions(physics))

    def _tracked_entity_positions(self, physics: Physics) -> list[np.ndarray]:
        """World positions (m) of the ball, then of each player's walker (their
        attachment frames), the entities a tracking camera follows."""
        entities = [self.ball] + [player.walker for player in self.players]
        return [np.array(entity.get_pose(physics)[0]) for entity in entities]

    def _place(self, physics: Physics, random_state: np.random.RandomState) -> None:
        for placement in self._placements:
            placement.forget()
        self._initializer(self, physics, random_state)
        for player, placement in zip(self.players, self._placements):
            placement.capture(physics, player.walker)

    def before_step(
        self,
        physics: Physics,
        actions: Sequence[np.ndarray],
        random_state: np.random.RandomState,
    ) -> None:
        """Applies each player's action to its walker; throws the ball in if it left
        the field during the previous step."""
        for player, action in zip(self.players, actions):
            player.walker.apply_action(physics, action, random_state)
        if self.arena.detected_off_court():
            self._throw_in(physics, random_state)

    def _throw_in(self, physics: Physics, random_state: np.random.RandomState) -> None:
        x, y, _ = physics.bind(self.ball.geom).xpos
        shrink_x, shrink_y = random_state.uniform(*THROW_IN_SHRINK_RANGE, size=2)
        self.ball.set_pose(physics, [x * shrink_x, y * shrink_y, THROW_IN_BALL_Z_M])
        self.ball.set_velocity(physics, velocity=np.zeros(3), angular_velocity=np.zeros(3))
        self.ball.initialize_entity_trackers()

    def get_reward(self, physics: Physics) -> List[np.ndarray]:
        """Per player: +1 if its team scored during the step, -1 if it conceded, else 0."""
        scoring_team = self.arena.detected_goal()
        if scoring_team is None:
            return [np.zeros((), np.float32) for _ in self.players]
        return [
            np.ones((), np.float32) if player.team is scoring_team else -np.ones((), np.float32)
            for player in self.players
        ]

    def get_discount(self, physics: Physics) -> np.ndarray:
        """0 at a goal (the episode ends there), else 1."""
        if self.arena.detected_goal() is not None:
            return np.zeros((), np.float32)
        return np.ones((), np.float32)

    def should_terminate_episode(self, physics: Physics) -> bool:
        """True when either team scored during the step."""
        return self.arena.detected_goal() is not None


class _KeepPlacement:
    """A walker pose initializer (`Walker.add_initializer`) that restores the pose
    joints' positions and velocities `capture` recorded, drawing no random numbers:
    the soccer task's placement survives the walker's own episode initialisation."""

    def __init__(self) -> None:
        self._qpos: np.ndarray | None = None
        self._qvel: np.ndarray | None = None

    def forget(self) -> None:
        self._qpos = None
        self._qvel = None

    def capture(self, physics: Physics, walker: LegacyWalker) -> None:
        joints = physics.bind(list(walker.pose_joints))
        self._qpos = np.array(joints.qpos)
        self._qvel = np.array(joints.qvel)

    def initialize_pose(
        self, physics: Physics, walker: LegacyWalker, random_state: np.random.RandomState
    ) -> None:
        del random_state
        if self._qpos is None:
            return
        joints = physics.bind(list(walker.pose_joints))
        joints.qpos = self._qpos
        joints.qvel = self._qvel


class MultiturnTask(Task):
    """Soccer played through goals until the time limit: after a goal, the scoring
    step's rewards are given, the players and the ball are placed anew (the
    initializer), and the ball's touch tracking restarts at the next step."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._reset_trackers = False

    def should_terminate_episode(self, physics: Physics) -> bool:
        return False

    def get_discount(self, physics: Physics) -> np.ndarray:
        return np.ones((), np.float32)

    def initialize_episode(self, physics: Physics, random_state: np.random.RandomState) -> None:
        self._reset_trackers = False
        super().initialize_episode(physics, random_state)

    def before_step(
        self,
        physics: Physics,
        actions: Sequence[np.ndarray],
        random_state: np.random.RandomState,
    ) -> None:
        super().before_step(physics, actions, random_state)
        if self._reset_trackers:
            self.ball.initialize_entity_trackers()
            self._reset_trackers = False

    def after_step(self, physics: Physics, random_state: np.random.RandomState) -> None:
        super().after_step(physics, random_state)
        if self.arena.detected_goal() is not None:
            self._place(physics, random_state)
            self._reset_trackers = True

    def snapshot_state(self) -> dict[str, Any]:
        """Python state kept across steps (`composer.Environment.snapshot`)."""
        return {"reset_trackers": self._reset_trackers}

    def restore_state(self, state: Mapping[str, Any]) -> None:
        self._reset_trackers = bool(state["reset_trackers"])
