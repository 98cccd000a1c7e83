"""Forward progress over parkour courses (Heess et al. 2017, arXiv:1707.02286).

The agent is rewarded for moving along the track (+x) and sees the terrain ahead
(`exteroception`). The rewards are those of the paper's Appendix B.2, each
coefficient a named constructor argument whose default is the published value.
With v the walker's centre-of-mass velocity (world frame, m/s), u the control
vector, n_z the z-component of the torso's z-axis, y the root's lateral offset
from the track centre (metres) and dh the torso's height above its feet
(metres):

  planar walker:  r = 10 v_x + 0.5 n_z - |dh - 1.2| - 10 I[dh < 0.3] - 0.1 |u|^2
                                                               (`PlanarWalkerReward`)
  quadruped:      r = v_x + 0.05 n_z - 0.01 |u|^2              (`QuadrupedReward`)
  humanoid:       r = min(v_x, v_max) - 0.005 (v_x^2 + v_y^2) - 0.05 y^2
                      - 0.02 |u|^2 + 0.02, v_max = 4 m/s       (`HumanoidReward`)
  unit interval (for benchmarking, any walker; this project's definition):
                  r = clip(v_x / v*, 0, 1), v* the target speed,
                    = tolerance(v_x, (v*, inf), margin=v*, "linear", 0)

Terminations, each ending the episode with discount 0: falling into a gap (an
end effector more than 0.5 m below z = 0; `termination.FallDetector`); for the
humanoids the paper's two alternatives (§4, "Humanoid"): the head closer than
0.9 m to the feet, or lower than 1.1 m above the ground
(`HeadHeightTermination`); for the planar walker a fall of the torso
(`TorsoPoseTermination`).
"""

from __future__ import annotations

import collections
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

import mujoco
import numpy as np

from composer_tasks import rewards
from composer_tasks.composer import variation
from composer_tasks.composer.observation import observable
from composer_tasks.tasks import exteroception
from composer_tasks.tasks import perturbations
from composer_tasks.tasks import termination
from composer_tasks.tasks import walker_state
from composer_tasks.tasks import walker_task

if TYPE_CHECKING:
    from composer_tasks import composer
    from composer_tasks.composer.observation.observable import Observable
    from composer_tasks.physics import Physics
    from composer_tasks.walkers.base import Walker

# A reward of `ForwardProgress`: (physics, walker, lateral offset from the track
# centre in metres) -> the step's reward. An object may also say whether its
# rewards lie in [0, 1] with a `unit_interval` attribute.
ForwardReward = Callable[["Physics", "Walker", float], float]


class PoseTermination(Protocol):
    """What `ForwardProgress` asks after every control step whether the walker fell
    (`HeadHeightTermination`, `TorsoPoseTermination`)."""

    def has_fallen(self, physics: Physics) -> bool: ...


def _control_cost(physics: Physics) -> float:
    return float(np.dot(physics.data.ctrl, physics.data.ctrl))


def _optional_number(
    value: Any, name: str, what: str, strictly_positive: bool = False
) -> float | None:
    """None for None, else `walker_task.checked_number(value, ...)`."""
    if value is None:
        return None
    return walker_task.checked_number(value, name, what, strictly_positive=strictly_positive)


class _ElementIds:
    """Ids of spec elements (or PyMJCF handles on them) in the compiled model,
    resolved again whenever the physics holds a different model (after a
    recompilation)."""

    def __init__(self, elements: Iterable[Any]) -> None:
        self._elements = tuple(walker_state.spec_elements(elements))
        self._model: Any = None
        self._ids: np.ndarray | None = None

    def __call__(self, physics: Physics) -> np.ndarray:
        if self._model is not physics.model:
            self._ids = np.array(
                [physics.bind(element).id for element in self._elements], dtype=int
            )
            self._model = physics.model
        # Set on the first call: no model is cached before it.
        assert self._ids is not None
        return self._ids


def _foot_geoms(walker: Walker, owner: str) -> tuple[mujoco.MjsGeom, ...]:
    geoms = tuple(getattr(walker, "ground_contact_geoms", ()) or ())
    if not geoms:
        raise ValueError(
            f"{owner} needs the walker's feet: {type(walker).__name__} has no ground_contact_geoms"
        )
    return geoms


class TorsoPose:
    """The planar walker's torso pose, as the box constraints read it.

    `height(physics)`: world z of the root body (the torso) minus the world z of
    the centre of its lowest foot geom (`ground_contact_geoms`), metres. Measured
    from the feet rather than from the terrain so that it means the same on
    hurdles, platforms and over gaps; the planar walker standing in its initial
    pose has 1.25 m (torso 1.3 m, foot capsule centres 0.05 m above the ground).

    `pitch(physics)`: signed angle of the root body's z-axis from the world
    vertical, in the world x-z plane (the planar walker's plane), radians in
    (-pi, pi]; positive when leaning forward (+x), 0 upright.
    """

    def __init__(self, walker: Walker) -> None:
        self._walker = walker
        self._feet = _ElementIds(_foot_geoms(walker, "TorsoPose"))

    @property
    def walker(self) -> Walker:
        return self._walker

    def height(self, physics: Physics) -> float:
        torso_z = physics.bind(self._walker.root_body).xpos[2]
        return float(torso_z - np.min(physics.data.geom_xpos[self._feet(physics), 2]))

    def pitch(self, physics: Physics) -> float:
        xmat = physics.bind(self._walker.root_body).xmat
        return float(np.arctan2(xmat[2], xmat[8]))


class QuadrupedReward:
    """Heess et al. 2017, Appendix B.2, "Quadruped":

        r = w_v v_x + w_n n_z - c_u |u|^2 - c_y y^2
          = v_x + 0.05 n_z - 0.01 |u|^2               (the published defaults)

    v_x the centre-of-mass velocity along the track (world x, m/s), n_z the
    z-component of the torso's z-axis (1 upright, -1 upside down), u the control
    vector, y the lateral offset from the track centre (m).

    Args:
      velocity_weight: w_v, per m/s of forward velocity (published 1.0).
      upright_weight: w_n, per unit of n_z (published 0.05).
      control_cost: c_u, per unit control squared (published 0.01).
      track_offset_cost: c_y, per m^2 of lateral offset. The main text (§3,
        "Rewards") says the quadruped is penalized for leaving the track's
        centre, but Appendix B.2's formula has no such term, so the default is
        0 (the formula as published); pass e.g. the humanoid's 0.05 for it.
    """

    unit_interval = False

    def __init__(
        self,
        velocity_weight: float = 1.0,
        upright_weight: float = 0.05,
        control_cost: float = 0.01,
        track_offset_cost: float = 0.0,
    ) -> None:
        self.velocity_weight = walker_task.checked_number(
            velocity_weight, "velocity_weight", "a finite weight"
        )
        self.upright_weight = walker_task.checked_number(
            upright_weight, "upright_weight", "a finite weight"
        )
        self.control_cost = walker_task.checked_number(
            control_cost, "control_cost", "a finite cost >= 0", minimum=0.0
        )
        self.track_offset_cost = walker_task.checked_number(
            track_offset_cost, "track_offset_cost", "a finite cost >= 0 per m^2", minimum=0.0
        )

    def terms(self, physics: Physics, walker: Walker, lateral_offset: float) -> dict[str, float]:
        """The reward's summands by name (their sum is the reward)."""
        velocity = walker_state.center_of_mass_velocity(physics, walker)
        upright = walker_state.root_upright(physics, walker)
        return {
            "velocity": self.velocity_weight * float(velocity[0]),
            "upright": self.upright_weight * upright,
            "control": -self.control_cost * _control_cost(physics),
            "track_offset": -self.track_offset_cost * lateral_offset**2,
        }

    def __call__(self, physics: Physics, walker: Walker, lateral_offset: float) -> float:
        return _sum_terms(self.terms(physics, walker, lateral_offset))


class HumanoidReward:
    """Heess et al. 2017, Appendix B.2, "Humanoid":

        r = min(v_x, v_max) - c_v (v_x^2 + v_y^2) - c_y y^2 - c_u |u|^2 + b
          = min(v_x, 4) - 0.005 (v_x^2 + v_y^2) - 0.05 y^2 - 0.02 |u|^2 + 0.02

    v the centre-of-mass velocity (world frame, m/s), y the lateral offset from
    the track centre (m), u the control vector; b is the reward per step for not
    falling (main text §3). The paper "usually" sets the cutoff v_max to 4 m/s.

    Args:
      max_velocity: v_max, m/s (published 4.0).
      velocity_cost: c_v, per (m/s)^2 of horizontal speed (published 0.005).
      track_offset_cost: c_y, per m^2 of lateral offset (published 0.05).
      control_cost: c_u, per unit control squared (published 0.02).
      alive_bonus: b, per step (published 0.02).
    """

    unit_interval = False

    def __init__(
        self,
        max_velocity: float = 4.0,
        velocity_cost: float = 0.005,
        track_offset_cost: float = 0.05,
        control_cost: float = 0.02,
        alive_bonus: float = 0.02,
    ) -> None:
        self.max_velocity = walker_task.checked_number(
            max_velocity, "max_velocity", "a positive speed in m/s", strictly_positive=True
        )
        self.velocity_cost = walker_task.checked_number(
            velocity_cost, "velocity_cost", "a finite cost >= 0 per (m/s)^2", minimum=0.0
        )
        self.track_offset_cost = walker_task.checked_number(
            track_offset_cost, "track_offset_cost", "a finite cost >= 0 per m^2", minimum=0.0
        )
        self.control_cost = walker_task.checked_number(
            control_cost, "control_cost", "a finite cost >= 0", minimum=0.0
        )
        self.alive_bonus = walker_task.checked_number(
            alive_bonus, "alive_bonus", "a finite reward per step"
        )

    def terms(self, physics: Physics, walker: Walker, lateral_offset: float) -> dict[str, float]:
        """The reward's summands by name (their sum is the reward)."""
        velocity = walker_state.center_of_mass_velocity(physics, walker)
        return {
            "velocity": min(float(velocity[0]), self.max_velocity),
            "speed": -self.velocity_cost * float(velocity[0] ** 2 + velocity[1] ** 2),
            "track_offset": -self.track_offset_cost * lateral_offset**2,
            "control": -self.control_cost * _control_cost(physics),
            "alive": self.alive_bonus,
        }

    def __call__(self, physics: Physics, walker: Walker, lateral_offset: float) -> float:
        return _sum_terms(self.terms(physics, walker, lateral_offset))


class PlanarWalkerReward:
    """Heess et al. 2017, Appendix B.2, "Planar walker":

        r = w_v v_x + w_n n_z - c_h |dh - h*| - c_low I[dh < h_low] - c_u |u|^2
          = 10 v_x + 0.5 n_z - |dh - 1.2| - 10 I[dh < 0.3] - 0.1 |u|^2

    v_x the centre-of-mass velocity along x (m/s); n_z the z-component of the
    torso's z-axis (1 upright, -1 upside down); dh "the height of the Planar
    Walker's torso above the feet" (m), measured by `TorsoPose.height` (torso
    origin above the centre of the lowest foot capsule: 1.25 m standing
    straight); I the indicator; u the control vector. These are the main text's
    "box constraints on torso height and angle" (§2): the height term pulls dh
    towards 1.2 m, the indicator punishes a collapsed torso, n_z rewards an
    upright one.

    Args:
      velocity_weight: w_v, per m/s (published 10.0).
      upright_weight: w_n, per unit of n_z (published 0.5).
      target_torso_height_m: h*, metres (published 1.2).
      height_cost_per_m: c_h, per metre of |dh - h*| (published 1.0).
      min_torso_height_m: h_low, metres (published 0.3).
      low_torso_cost: c_low, per step with dh < h_low (published 10.0).
      control_cost: c_u, per unit control squared (published 0.1).
    """

    unit_interval = False

    def __init__(
        self,
        velocity_weight: float = 10.0,
        upright_weight: float = 0.5,
        target_torso_height_m: float = 1.2,
        height_cost_per_m: float = 1.0,
        min_torso_height_m: float = 0.3,
        low_torso_cost: float = 10.0,
        control_cost: float = 0.1,
    ) -> None:
        self._pose: TorsoPose | None = None
        self.velocity_weight = walker_task.checked_number(
            velocity_weight, "velocity_weight", "a finite weight"
        )
        self.upright_weight = walker_task.checked_number(
            upright_weight, "upright_weight", "a finite weight"
        )
        self.target_torso_height_m = walker_task.checked_number(
            target_torso_height_m, "target_torso_height_m", "a finite height in metres"
        )
        self.height_cost_per_m = walker_task.checked_number(
            height_cost_per_m, "height_cost_per_m", "a finite cost >= 0 per metre", minimum=0.0
        )
        self.min_torso_height_m = walker_task.checked_number(
            min_torso_height_m, "min_torso_height_m", "a finite height in metres"
        )
        self.low_torso_cost = walker_task.checked_number(
            low_torso_cost, "low_torso_cost", "a finite cost >= 0", minimum=0.0
        )
        self.control_cost = walker_task.checked_number(
            control_cost, "control_cost", "a finite cost >= 0", minimum=0.0
        )

    def torso_height(self, physics: Physics, walker: Walker) -> float:
        """dh: `walker`'s torso height above its lowest foot, metres (`TorsoPose`)."""
        if self._pose is None or self._pose.walker is not walker:
            self._pose = TorsoPose(walker)
        return self._pose.height(physics)

    def terms(self, physics: Physics, walker: Walker, lateral_offset: float) -> dict[str, float]:
        """The reward's summands by name (their sum is the reward)."""
        del lateral_offset  # The planar walker cannot leave the track's centre line.
        velocity = walker_state.center_of_mass_velocity(physics, walker)
        height = self.torso_height(physics, walker)
        return {
            "velocity": self.velocity_weight * float(velocity[0]),
            "upright": self.upright_weight * walker_state.root_upright(physics, walker),
            "torso_height": -self.height_cost_per_m * abs(height - self.target_torso_height_m),
            "low_torso": -self.low_torso_cost * float(height < self.min_torso_height_m),
            "control": -self.control_cost * _control_cost(physics),
        }

    def __call__(self, physics: Physics, walker: Walker, lateral_offset: float) -> float:
        return _sum_terms(self.terms(physics, walker, lateral_offset))


def _sum_terms(terms: Mapping[str, float]) -> float:
    return float(sum(terms.values()))


class UnitForwardVelocityReward:
    """r = clip(v_x / v*, 0, 1): 0 when standing or going backwards, 1 at or above
    the target speed v* = `target_velocity` m/s. For benchmarking: rewards in
    [0, 1] whatever the body.

    How it maps each published reward to [0, 1]: it keeps their main term, the
    forward velocity (each published reward is "a main component proportional
    to the velocity along the x-axis", §3), rescaled so that v* maps to 1, and
    drops the small shaping terms (pose, control, track offset, alive bonus),
    which would take the reward outside [0, 1]; the falls those terms discourage
    still end the episode (`TorsoPoseTermination`, `HeadHeightTermination`)."""

    unit_interval = True

    def __init__(self, target_velocity: float = 3.0) -> None:
        self._target_velocity = walker_task.checked_number(
            target_velocity, "target_velocity", "a positive speed in m/s", strictly_positive=True
        )

    def __call__(self, physics: Physics, walker: Walker, lateral_offset: float) -> float:
        velocity = walker_state.center_of_mass_velocity(physics, walker)[0]
        # A float in, a float out (`tolerance`): float() only tells the type checker.
        return float(
            rewards.tolerance(
                float(velocity),
                bounds=(self._target_velocity, float("inf")),
                margin=self._target_velocity,
                sigmoid="linear",
                value_at_margin=0.0,
            )
        )


class TorsoPoseTermination:
    """The planar walker has fallen: its torso's height above its lowest foot is
    below `min_torso_height_m`, or its |pitch| exceeds `max_torso_pitch_rad`
    (`TorsoPose` defines both; None disables a test).

    The paper ends the walker's episodes early "when the walker falls" (§2) but
    gives no thresholds (Appendix B.2 gives only the reward); these are this
    project's choice: 0.5 m is below any crouch that passes under the lowest crouch
    platforms (0.9 m clearance needs about 0.6 m with the torso pitched 1 rad) and
    above sitting (about 0.3 m) or lying (about 0 m); 1.2 rad (69 degrees) is a
    torso nearly horizontal, past what a crouch needs.
    """

    def __init__(
        self,
        walker: Walker,
        min_torso_height_m: float | None = 0.5,
        max_torso_pitch_rad: float | None = 1.2,
    ) -> None:
        self._pose = TorsoPose(walker)
        self._min_height = _optional_number(
            min_torso_height_m,
            "min_torso_height_m",
            "a finite height in metres or None",
        )
        self._max_pitch = _optional_number(
            max_torso_pitch_rad,
            "max_torso_pitch_rad",
            "a positive angle in radians or None",
            strictly_positive=True,
        )
        if self._min_height is None and self._max_pitch is None:
            raise ValueError(
                "TorsoPoseTermination needs min_torso_height_m or max_torso_pitch_rad; "
                "both are None"
            )

    def has_fallen(self, physics: Physics) -> bool:
        if self._min_height is not None and self._pose.height(physics) < self._min_height:
            return True
        return self._max_pitch is not None and abs(self._pose.pitch(physics)) > self._max_pitch


class HeadHeightTermination:
    """The humanoid has fallen, by either of the paper's two alternative tests
    (Heess et al. 2017, §4, "Humanoid": "(a) episodes were terminated when the minimum
    distance between head and feet fell below 0.9m; (b) episodes were terminated
    when the minimum distance between head and ground fell below 1.1m"):

    (a) `min_head_to_feet_m`: the smallest Euclidean distance (metres) between
        the head body's origin and the centres of the walker's foot geoms
        (`ground_contact_geoms`), world frame;
    (b) `min_head_above_ground_m`: the height of the head body's origin above
        the terrain directly under it (the arena's `terrain_height`, which over a
        gap is the gap's floor), metres.

    A test given None is off; the default is (a) alone. Both at once end the
    episode when either fires. The thresholds are published for the paper's
    humanoid, whose body is the Control Suite humanoid's (`walkers.Humanoid`:
    head 1.45 m from its nearest foot geom and 1.48 m above the ground when
    standing); for a body of another size scale them by its standing head
    distances (suites/locomotion.py does so for the CMU humanoid).

    (a) ends a crumpled fall (head down by the feet), not one that leaves the body
    stretched out on the ground; (b) ends every fall, and every crouch that
    brings the head below 1.1 m.

    Args:
      walker: the walker; (a) needs its `ground_contact_geoms`.
      arena: the arena; (b) needs its `terrain_height(physics, xy_points)`.
      head_body: the head (a body of the walker), e.g. `walker.head`.
      min_head_to_feet_m: (a)'s threshold, metres, or None.
      min_head_above_ground_m: (b)'s threshold, metres, or None.

    Raises:
      ValueError: for a threshold that is not a positive finite number or None,
        for both None, for no `head_body`, or for (a) on a walker without feet.
      TypeError: for (b) on an arena without `terrain_height`.
    """

    def __init__(
        self,
        walker: Walker,
        arena: composer.Arena,
        head_body: Any,
        min_head_to_feet_m: float | None = 0.9,
        min_head_above_ground_m: float | None = None,
    ) -> None:
        self._min_to_feet = _optional_number(
            min_head_to_feet_m,
            "min_head_to_feet_m",
            "a positive distance in metres or None",
            strictly_positive=True,
        )
        self._min_above_ground = _optional_number(
            min_head_above_ground_m,
            "min_head_above_ground_m",
            "a positive height in metres or None",
            strictly_positive=True,
        )
        if self._min_to_feet is None and self._min_above_ground is None:
            raise ValueError(
                "HeadHeightTermination needs min_head_to_feet_m or min_head_above_ground_m; "
                "both are None"
            )
        if head_body is None:
            raise ValueError(
                f"head_body must be the walker's head body, got None (walker "
                f"{type(walker).__name__})"
            )
        if self._min_above_ground is not None and not callable(
            getattr(arena, "terrain_height", None)
        ):
            raise TypeError(
                f"min_head_above_ground_m needs an arena with terrain_height(physics, "
                f"xy_points); {type(arena).__name__} has none"
            )
        # Duck-typed: `terrain_height`, checked above when (b) needs it.
        self._arena: Any = arena
        self._head = _ElementIds([head_body])
        self._feet: _ElementIds | None = None
        if self._min_to_feet is not None:
            self._feet = _ElementIds(_foot_geoms(walker, "HeadHeightTermination"))

    def head_to_feet(self, physics: Physics) -> float:
        """Smallest distance (m) between the head and a foot geom's centre.

        Raises:
          ValueError: test (a) is off (`min_head_to_feet_m` None): no feet were resolved.
        """
        if self._feet is None:
            raise ValueError("head_to_feet needs min_head_to_feet_m; this termination has None")
        head = physics.data.xpos[self._head(physics)[0]]
        feet = physics.data.geom_xpos[self._feet(physics)]
        return float(np.sqrt(np.min(np.sum((feet - head) ** 2, axis=1))))

    def head_above_ground(self, physics: Physics) -> float:
        """Height (m) of the head above the terrain under it."""
        head = physics.data.xpos[self._head(physics)[0]]
        return float(head[2] - self._arena.terrain_height(physics, head[np.newaxis, :2])[0])

    def has_fallen(self, physics: Physics) -> bool:
        if self._min_to_feet is not None and self.head_to_feet(physics) < self._min_to_feet:
            return True
        return (
            self._min_above_ground is not None
            and self.head_above_ground(physics) < self._min_above_ground
        )


class ForwardProgress(walker_task.WalkerTask):
    """Make progress along +x over a parkour course.

    Args:
      walker: a walker (composer_tasks.walkers API).
      arena: a course; `terrain_height` (and `platform_height`, if it has
        hovering `platforms`) feed the observations. An arena with
        `regenerate(random_state)` is asked for the episode's layout first, then
        `spawn_position(random_state)`, if the arena has it, gives the walker's
        start; else `walker_spawn_position` does.
      reward: one of this module's reward objects (`QuadrupedReward`, ...).
      pose_termination: optional object whose `has_fallen(physics)` is asked after
        every control step: `HeadHeightTermination` (humanoids),
        `TorsoPoseTermination` (planar walker).
      contact_termination: also end the episode when a non-foot geom touches the
        ground (off by default, as in Heess et al. 2017).
      terminate_at_height: end the episode when an end effector's world z is below
        this (metres); None disables it.
      walker_spawn_position: (x, y, z) metres or a variation, used when the arena
        has no `spawn_position`.
      track_center_y: world y of the track's centre line, metres.
      push_interval_steps: None (no pushes), or (low, high) control steps
        between random pushes on the torso (`perturbations.RandomPushes`; the
        probe courses' "random forces applied to the Humanoid's torso", §4).
      push_force_n: (low, high) push magnitude, newtons.
      push_duration_steps: control steps each push lasts.
      physics_timestep, control_timestep: seconds.

    Observations (Heess et al. 2017, Appendix B.1; `exteroception`): the
    walker's proprioception plus `terrain_heights` (50,) for the planar walker,
    (26, 19) for the others; `platform_heights` (the same + (2,), bottom and
    top surfaces) when the arena has hovering platforms; `height_above_ground`
    (1,), metres; `sample_grid_offset`, the root minus the sample grid's
    centre, (1,) for the planar walker, (2,) for the others, metres; and
    `track_offset` (1,): the root's lateral offset from the track centre,
    metres (positive to the left, +y).
    """

    # Duck-typed (class docstring): `terrain_height`, and `platform_height`,
    # `regenerate` and `spawn_position` when the arena has them.
    _arena: Any

    def __init__(
        self,
        walker: Walker,
        arena: composer.Arena,
        reward: ForwardReward,
        pose_termination: PoseTermination | None = None,
        contact_termination: bool = False,
        terminate_at_height: float | None = -0.5,
        walker_spawn_position: walker_task.Evaluable = (0.0, 0.0, 0.0),
        track_center_y: float = 0.0,
        push_interval_steps: Sequence[int] | None = None,
        push_force_n: Sequence[float] = (100.0, 200.0),
        push_duration_steps: int = 4,
        physics_timestep: float = 0.005,
        control_timestep: float = 0.025,
    ) -> None:
        if not callable(reward):
            raise TypeError(
                f"reward must be callable(physics, walker, lateral_offset), got {reward!r}"
            )
        self._walker = walker
        self._arena = arena
        self._reward = reward
        walker_state.attach_walker(arena, walker)
        self._walker_spawn_position = walker_spawn_position
        self._track_center_y = float(track_center_y)
        self._fall_detector = termination.FallDetector(
            walker,
            arena,
            contact_termination=contact_termination,
            min_end_effector_height=terminate_at_height,
        )
        if pose_termination is not None and not callable(
            getattr(pose_termination, "has_fallen", None)
        ):
            raise TypeError(
                f"pose_termination must have has_fallen(physics), got {pose_termination!r}"
            )
        self._pose_termination = pose_termination
        self._failure_termination = False
        self._pushes: perturbations.RandomPushes | None = None
        if push_interval_steps is not None:
            self._pushes = perturbations.RandomPushes(
                walker, push_interval_steps, push_force_n, push_duration_steps
            )
        walker_state.enable_proprioception(walker)

        if getattr(walker, "is_planar", False):
            self._sampler = exteroception.TerrainSampler(
                arena, walker, exteroception.PLANAR_OFFSETS_M
            )
        else:
            self._sampler = exteroception.TerrainSampler(
                arena,
                walker,
                exteroception.GRID_FORWARD_OFFSETS_M,
                exteroception.GRID_LATERAL_OFFSETS_M,
            )
        self._task_observables: collections.OrderedDict[str, Observable] = collections.OrderedDict()
        self._task_observables["terrain_heights"] = observable.Generic(
            self._sampler.terrain_heights, enabled=True
        )
        has_platforms = len(getattr(arena, "platforms", ())) > 0
        if has_platforms and callable(getattr(arena, "platform_height", None)):
            self._task_observables["platform_heights"] = observable.Generic(
                self._sampler.platform_heights, enabled=True
            )
        self._task_observables["height_above_ground"] = observable.Generic(
            self._sampler.height_above_ground, enabled=True
        )
        self._task_observables["sample_grid_offset"] = observable.Generic(
            self._sampler.sample_grid_offset, enabled=True
        )
        self._task_observables["track_offset"] = observable.Generic(
            self._track_offset_observation, enabled=True
        )
        self.set_timesteps(control_timestep, physics_timestep)

    @property
    def pose_termination(self) -> PoseTermination | None:
        """The `pose_termination` given to the constructor (None if none)."""
        return self._pose_termination

    @property
    def reward_is_unit_interval(self) -> bool:
        return bool(getattr(self._reward, "unit_interval", False))

    def lateral_offset(self, physics: Physics) -> float:
        """Root body's world y minus the track centre's, metres."""
        return float(physics.bind(self._walker.root_body).xpos[1]) - self._track_center_y

    def _track_offset_observation(self, physics: Physics) -> np.ndarray:
        return np.array([self.lateral_offset(physics)])

    def initialize_episode_mjcf(self, random_state: np.random.RandomState) -> None:
        # An arena that rebuilds its model for a layout (dm_control's corridors) draws
        # it here, before the reset compiles the model.
        if walker_task.regenerates_in_mjcf(self._arena):
            self._arena.regenerate(random_state)

    def initialize_episode(self, physics: Physics, random_state: np.random.RandomState) -> None:
        # Arenas that lay out episodes in the compiled model (pooled corridors, mazes,
        # courses) draw the layout here when asked first, so that the spawn matches it.
        if walker_task.regenerates_in_episode(self._arena):
            self._arena.regenerate(random_state)
        spawn: Callable[..., Any] | None = getattr(self._arena, "spawn_position", None)
        if callable(spawn):
            position = spawn(random_state)
        else:
            position = variation.evaluate(self._walker_spawn_position, random_state=random_state)
        walker_state.place_walker(physics, self._walker, position)
        self._fall_detector.reset(physics)
        self._failure_termination = False
        if self._pushes is not None:
            self._pushes.reset(physics, random_state)

    @property
    def pushes(self) -> perturbations.RandomPushes | None:
        """The `perturbations.RandomPushes` of this task (None without pushes)."""
        return self._pushes

    def before_step(
        self, physics: Physics, action: np.ndarray, random_state: np.random.RandomState
    ) -> None:
        super().before_step(physics, action, random_state)
        if self._pushes is not None:
            self._pushes.before_step(physics, random_state)

    def after_step(self, physics: Physics, random_state: np.random.RandomState) -> None:
        self._failure_termination = self._fall_detector.has_fallen(physics) or (
            self._pose_termination is not None and self._pose_termination.has_fallen(physics)
        )

    def get_reward(self, physics: Physics) -> float:
        return float(self._reward(physics, self._walker, self.lateral_offset(physics)))

    # Snapshots (composer.Environment.snapshot): the push schedule is Python state.

    def snapshot_state(self) -> dict[str, Any]:
        """Whether the last step failed and the push schedule (picklable)."""
        return {
            "failure_termination": self._failure_termination,
            "pushes": perturbations.snapshot_optional_pushes(self._pushes),
        }

    def restore_state(self, state: Mapping[str, Any]) -> None:
        """Returns to a `snapshot_state()` of a task built alike.

        Raises:
          ValueError: the snapshot has pushes and this task not, or the reverse.
        """
        perturbations.restore_optional_pushes(self._pushes, state["pushes"])
        self._failure_termination = bool(state["failure_termination"])

    def should_terminate_episode(self, physics: Physics) -> bool:
        return self._failure_termination

    def get_discount(self, physics: Physics) -> float:
        return 0.0 if self._failure_termination else 1.0
