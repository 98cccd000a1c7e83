"""SoccerBall: a ball that records which player touched it last.

Facts from dm_control's soccer ball (dm-control 1.0.50, `locomotion/soccer/soccer_ball.py`):
a sphere geom with condim 6 (sliding, torsional and rolling friction), contact
priority 1 (its friction and solref win over the other geom's), solref
(0.02 s, `damp_ratio`), placed `radius` above its body's origin. `SoccerBall()`
is the large light ball of the BoxHead and Ant matches (radius 0.35 m, 0.045 kg,
friction (0.7, 0.075, 0.075), damping ratio 1); `regulation_soccer_ball()` is a
FIFA size-5 ball (radius 0.117 m, 0.45 kg, friction (0.7, 0.05, 0.04), damping
ratio 0.4) for humanoid matches.

The ball's body origin is the attachment frame of its free joint, `radius` below
the sphere's centre at rest (dm_control's layout): `root_body` is that frame, and
observations relative to `root_body` (the soccer task's `ball_ego_*`) read it.

Public API:

* `SoccerBall(radius=0.35, mass=0.045, friction=(0.7, 0.075, 0.075),
  damp_ratio=1.0, name="soccer_ball")`; `regulation_soccer_ball()`.
* `geom`, `root_body` (after attachment), the `Primitive` observables `position`,
  `orientation`, `linear_velocity`, `angular_velocity` (world frame) and three
  `trackcom` cameras `ball_cam_near`, `ball_cam`, `ball_cam_far`.
* Touch tracking: `register_player(player)` (a `soccer_team.Player`, before the
  episode starts), `initialize_entity_trackers()` (forget all touches, as after a
  throw-in), and per control step: `hit` (a registered player touched the ball
  during the step just simulated), `repossessed` (that player is not the one
  that touched it before), `intercepted` (first touch of the episode, or a
  touch by the other team), `last_hit` (the `Player` that last touched it, or
  None), `dist_between_last_hits` (m the ball travelled between its last two
  touches, or None). Only the first touching player of a control step counts,
  in MuJoCo's contact order at the substep the touch is first seen.
* `snapshot_state()` / `restore_state(state)`: the tracking state, for
  `composer.Environment.snapshot` (the last toucher is stored as its index in
  registration order).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Optional, Sequence

import mujoco
import numpy as np

from composer_tasks.physics import Physics
from composer_tasks.props import primitive

if TYPE_CHECKING:
    from composer_tasks.walkers import soccer_team

# dm_control soccer_ball.py: FIFA regulation size-5 ball (m, kg) and its contact.
REGULATION_RADIUS_M = 0.117
REGULATION_MASS_KG = 0.45
REGULATION_FRICTION = (0.7, 0.05, 0.04)  # Sliding, torsional, rolling.
REGULATION_DAMP_RATIO = 0.4
# dm_control SoccerBall._build defaults (the BoxHead and Ant matches' ball).
DEFAULT_RADIUS_M = 0.35
DEFAULT_MASS_KG = 0.045
DEFAULT_FRICTION = (0.7, 0.075, 0.075)
DEFAULT_DAMP_RATIO = 1.0
_CONDIM = 6
_PRIORITY = 1
_SOLREF_TIMECONST_S = 0.02
# Tracking cameras (dm_control): name -> (position in m, fovy in degrees); each
# looks along -(0, -1, 1), down at the ball from behind, 45 degrees.
_CAMERAS = {
    "ball_cam_near": ((0.0, -2.0, 2.0), 70.0),
    "ball_cam": ((0.0, -7.0, 7.0), 70.0),
    "ball_cam_far": ((0.0, -10.0, 10.0), 70.0),
}
# The panels: a black and white checker cube texture authored here.
_PANEL_RGB = ((0.95, 0.95, 0.95), (0.08, 0.08, 0.08))
_PANEL_TEXTURE_PX = 64  # dm_control's soccer_ball.png faces are 64 x 64


def regulation_soccer_ball(name: str = "soccer_ball") -> "SoccerBall":
    """A FIFA size-5 ball: radius 0.117 m, 0.45 kg, friction (0.7, 0.05, 0.04),
    damping ratio 0.4 (dm_control `regulation_soccer_ball`)."""
    return SoccerBall(
        radius=REGULATION_RADIUS_M,
        mass=REGULATION_MASS_KG,
        friction=REGULATION_FRICTION,
        damp_ratio=REGULATION_DAMP_RATIO,
        name=name,
    )


class SoccerBall(primitive.Primitive):
    """A soccer ball that tracks contacts with registered players.

    Args:
      radius: sphere radius (m), > 0.
      mass: mass (kg), > 0.
      friction: (sliding, torsional, rolling) friction coefficients, >= 0.
      damp_ratio: damping ratio of the contacts (solref's second value), >= 0;
        lower is bouncier.
      name: the entity's name.

    Raises:
      ValueError: for arguments outside those ranges.
    """

    def _build(
        self,
        radius: float = DEFAULT_RADIUS_M,
        mass: float = DEFAULT_MASS_KG,
        friction: Sequence[float] = DEFAULT_FRICTION,
        damp_ratio: float = DEFAULT_DAMP_RATIO,
        name: str = "soccer_ball",
    ) -> None:
        radius = _positive(radius, "radius")
        mass = _positive(mass, "mass")
        coefficients = np.asarray(friction, dtype=np.float64)
        if (
            coefficients.shape != (3,)
            or not np.all(np.isfinite(coefficients))
            or np.any(coefficients < 0)
        ):
            raise ValueError(
                "friction must be 3 finite values >= 0 (sliding, torsional, rolling), got "
                f"{friction!r}"
            )
        if not _is_number(damp_ratio) or not np.isfinite(damp_ratio) or damp_ratio < 0:
            raise ValueError(
                # dm_control's wording starts "Invalid `damp_ratio` parameter".
                f"Invalid `damp_ratio` parameter: it must be a finite number >= 0, got "
                f"{damp_ratio!r}"
            )
        super()._build(
            geom_type="sphere",
            size=[radius],
            name=name,
            mass=mass,
            pos=[0.0, 0.0, radius],
            condim=_CONDIM,
            priority=_PRIORITY,
            friction=coefficients.tolist(),
            solref=[_SOLREF_TIMECONST_S, float(damp_ratio)],
        )
        spec = self._spec
        spec.add_texture(
            name="soccer_ball",
            type=mujoco.mjtTexture.mjTEXTURE_CUBE,
            builtin=mujoco.mjtBuiltin.mjBUILTIN_CHECKER,
            rgb1=list(_PANEL_RGB[0]),
            rgb2=list(_PANEL_RGB[1]),
            width=_PANEL_TEXTURE_PX,
            height=_PANEL_TEXTURE_PX,
        )
        material = spec.add_material(name="soccer_ball")
        material.textures[mujoco.mjtTextureRole.mjTEXROLE_RGB] = "soccer_ball"
        self._geom.material = "soccer_ball"
        look = np.array([0.0, -1.0, 1.0]) / np.sqrt(2.0)
        for camera_name, (position, fovy) in _CAMERAS.items():
            quaternion = np.empty(4)
            # zaxis (0, -1, 1): the camera's z axis; MuJoCo's minimal rotation from +z.
            mujoco.mju_quatZ2Vec(quaternion, look)
            spec.worldbody.add_camera(
                name=camera_name,
                pos=list(position),
                quat=list(quaternion),
                fovy=fovy,
                mode=mujoco.mjtCamLight.mjCAMLIGHT_TRACKCOM,
            )
        self._radius = radius
        self._players = []
        self._geom_to_player = []
        self._geom_id = -1
        self.initialize_entity_trackers()

    @property
    def radius(self) -> float:
        return self._radius

    # Players.

    def register_player(self, player: soccer_team.Player) -> None:
        """Registers a `soccer_team.Player` (team and walker) whose touches count.

        Raises:
          TypeError: if `player` has no `team` and `walker`.
        """
        if not (hasattr(player, "team") and hasattr(player, "walker")):
            raise TypeError(f"player must be a soccer_team.Player (team, walker), got {player!r}")
        self._players.append(player)

    @property
    def players(self) -> tuple[soccer_team.Player, ...]:
        """The registered players, in registration order."""
        return tuple(self._players)

    def initialize_entity_trackers(self) -> None:
        """Forgets every touch: no last toucher, no hit, no distances."""
        self._last_hit = None
        self._hit = False
        self._repossessed = False
        self._intercepted = False
        self._pos_at_last_step = None
        self._dist_since_last_hit = None
        self._dist_between_last_hits = None

    # Callbacks.

    def initialize_episode(self, physics: Physics, random_state: np.random.RandomState) -> None:
        """Maps the compiled model's geoms to registered players and resets the
        trackers."""
        del random_state
        model = physics.model
        self._geom_id = int(physics.bind(self._geom).id)
        lookup = [-1] * model.ngeom
        for index, player in enumerate(self._players):
            walker = player.walker
            holder = (
                walker.attachment_body if walker.attachment_body is not None else walker.root_body
            )
            geoms = holder.find_all(mujoco.mjtObj.mjOBJ_GEOM)
            for geom_id in np.asarray(physics.bind(geoms).id, dtype=np.intp).reshape(-1).tolist():
                lookup[geom_id] = index
        self._geom_to_player = lookup
        self.initialize_entity_trackers()

    def before_step(self, physics: Physics, random_state: np.random.RandomState) -> None:
        del physics, random_state
        self._hit = False
        self._repossessed = False
        self._intercepted = False

    def after_substep(self, physics: Physics, random_state: np.random.RandomState) -> None:
        """Records the first contact between the ball and a registered player's
        geom, once per control step."""
        del random_state
        if self._hit:
            return
        # The contacts' geom pairs as a list: a Python scan of a few dozen pairs is
        # cheaper than numpy on the contact struct's strided view.
        ball = self._geom_id
        lookup = self._geom_to_player
        index = -1
        for first, second in physics.data.contact.geom.tolist():
            if first == ball:
                index = lookup[second]
            elif second == ball:
                index = lookup[first]
            else:
                continue
            if index >= 0:
                break
        if index < 0:
            return
        player = self._players[index]
        last = self._last_hit
        self._intercepted = True if last is None else player.team != last.team
        self._repossessed = player is not last
        self._last_hit = player
        self._hit = True

    def after_step(self, physics: Physics, random_state: np.random.RandomState) -> None:
        """Accumulates the distance (m) the ball's centre travelled since its last
        touch."""
        del random_state
        position = np.array(physics.bind(self._geom).xpos, dtype=np.float64)
        if self._hit:
            self._dist_between_last_hits = self._dist_since_last_hit
            self._dist_since_last_hit = 0.0
            self._pos_at_last_step = position
        previous = self._pos_at_last_step
        if self._dist_since_last_hit is not None and previous is not None:
            self._dist_since_last_hit += float(np.linalg.norm(position - previous))
        self._pos_at_last_step = position

    # Tracking state.

    @property
    def last_hit(self) -> soccer_team.Player | None:
        """The `Player` that touched the ball last, or None."""
        return self._last_hit

    @property
    def hit(self) -> bool:
        """Whether a registered player touched the ball during the last control step."""
        return self._hit

    @property
    def repossessed(self) -> bool:
        """Whether the last control step's toucher differs from the one before it."""
        return self._repossessed

    @property
    def intercepted(self) -> bool:
        """Whether the last control step's touch was the episode's first, or by the
        other team than the touch before."""
        return self._intercepted

    @property
    def dist_between_last_hits(self) -> Optional[float]:
        """Distance (m) the ball travelled between its last two touches, or None."""
        return self._dist_between_last_hits

    def snapshot_state(self) -> dict[str, Any]:
        """The tracking state (picklable) for `composer.Environment.snapshot`."""
        last = None if self._last_hit is None else self._players.index(self._last_hit)
        return dict(
            last_hit=last,
            hit=self._hit,
            repossessed=self._repossessed,
            intercepted=self._intercepted,
            pos_at_last_step=(
                None if self._pos_at_last_step is None else self._pos_at_last_step.copy()
            ),
            dist_since_last_hit=self._dist_since_last_hit,
            dist_between_last_hits=self._dist_between_last_hits,
        )

    def restore_state(self, state: Mapping[str, Any]) -> None:
        """Returns the tracking to a `snapshot_state()` of a ball with the same players.

        Raises:
          ValueError: if the snapshot names a player index this ball does not have.
        """
        last = state["last_hit"]
        if last is not None and not 0 <= last < len(self._players):
            raise ValueError(
                f"the snapshot's last_hit is player {last}, but ball {self.name!r} has "
                f"{len(self._players)} registered players"
            )
        self._last_hit = None if last is None else self._players[last]
        self._hit = bool(state["hit"])
        self._repossessed = bool(state["repossessed"])
        self._intercepted = bool(state["intercepted"])
        position = state["pos_at_last_step"]
        self._pos_at_last_step = None if position is None else np.array(position, dtype=np.float64)
        self._dist_since_last_hit = state["dist_since_last_hit"]
        self._dist_between_last_hits = state["dist_between_last_hits"]


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, bool)


def _positive(value: float, label: str) -> float:
    if not _is_number(value) or not np.isfinite(value) or value <= 0:
        raise ValueError(f"{label} must be a finite number > 0, got {value!r}")
    return float(value)
