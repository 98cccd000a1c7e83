"""Forward progress over parkour courses (Heess et al. 2017, arXiv:1707.02286).

The agent is rewarded for moving along the track (+x) and sees the terrain ahead
(`exteroception`). The paper's main text (§3, "Rewards") fixes the ingredients:
"a main component proportional to the velocity along the x-axis ... plus a small
term penalizing torques"; for the walker "the same box constraints on the pose as
in section 2" (torso height and angle, with early termination when it falls);
for the quadruped and humanoid a penalty on deviations from the track's centre,
and for the humanoid "an additional reward per time-step for not falling". The
coefficients are in the paper's supplement, which could not be retrieved here;
where a number below is not the main text's, its source is named.

With v the walker's centre-of-mass velocity (world frame, m/s), u the control
vector, n_z the z-component of the root body's z-axis, y the root's lateral
offset from the track centre (metres), h the torso's height above its lowest
foot (metres) and theta the torso's pitch from vertical (radians):

  quadruped:      r = v_x + 0.05 n_z - 0.01 |u|^2 - c_y y^2, c_y = 0 by default
                                                               (`QuadrupedReward`)
  humanoid:       r = min(v_x, v_max) - 0.005 (v_x^2 + v_y^2) - 0.05 y^2
                      - 0.02 |u|^2 + 0.02                      (`HumanoidReward`)
  planar walker:  r = v_x - c_u |u|^2 - c_h d(h, [h_min, h_max])
                      - c_theta max(0, |theta| - theta_max)    (`PlanarWalkerReward`)
  unit interval (for benchmarking, any walker; this project's definition):
                  r = clip(v_x / v*, 0, 1), v* the target speed,
                    = tolerance(v_x, (v*, inf), margin=v*, "linear", 0)

d(h, [a, b]) is how far h lies outside [a, b] (0 inside).

Terminations, each ending the episode with discount 0: falling into a gap (an
end effector more than 0.5 m below z = 0; `termination.FallDetector`); for the
humanoids the paper's two alternatives (§4, "Humanoid"): the head closer than
0.9 m to the feet, or lower than 1.1 m above the ground
(`HeadHeightTermination`); for the planar walker a fall of the torso
(`TorsoPoseTermination`).
"""

import collections
import numbers

import numpy as np

from composer_tasks import rewards
from composer_tasks.composer import variation
from composer_tasks.composer.observation import observable
from composer_tasks.tasks import exteroception
from composer_tasks.tasks import termination
from composer_tasks.tasks import walker_state
from composer_tasks.tasks import walker_task


def _control_cost(physics):
    return float(np.dot(physics.data.ctrl, physics.data.ctrl))


def _number(value, name, what, minimum=None, strictly_positive=False, optional=False):
    """`value` as a float, or None if `optional` and None; raises TypeError for a
    non-number and ValueError for a non-finite or out-of-range one."""
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be {what}, got {value!r}")
    value = float(value)
    if (not np.isfinite(value) or (strictly_positive and not value > 0)
            or (minimum is not None and value < minimum)):
        raise ValueError(f"{name} must be {what}, got {value!r}")
    return value


class _ElementIds:
    """Ids of spec elements in the compiled model, resolved again whenever the
    physics holds a different model (after a recompilation)."""

    def __init__(self, elements):
        self._elements = tuple(elements)
        self._model = None
        self._ids = None

    def __call__(self, physics):
        if self._model is not physics.model:
            self._ids = np.array([physics.bind(element).id for element in self._elements],
                                 dtype=int)
            self._model = physics.model
        return self._ids


def _foot_geoms(walker, owner):
    geoms = tuple(getattr(walker, "ground_contact_geoms", ()) or ())
    if not geoms:
        raise ValueError(
            f"{owner} needs the walker's feet: {type(walker).__name__} has no "
            "ground_contact_geoms")
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

    def __init__(self, walker):
        self._walker = walker
        self._feet = _ElementIds(_foot_geoms(walker, "TorsoPose"))

    @property
    def walker(self):
        return self._walker

    def height(self, physics):
        torso_z = physics.bind(self._walker.root_body).xpos[2]
        return float(torso_z - np.min(physics.data.geom_xpos[self._feet(physics), 2]))

    def pitch(self, physics):
        xmat = physics.bind(self._walker.root_body).xmat
        return float(np.arctan2(xmat[2], xmat[8]))


class QuadrupedReward:
    """r = v_x + 0.05 n_z - 0.01 |u|^2 - c_y y^2, c_y = `track_offset_cost` per m^2.

    With the default c_y = 0 this is the formula the project's issue quotes from
    the supplement (which could not be retrieved here to recheck it). The main
    text also says "for the quadruped and humanoid we penalize deviations from the
    center of the track" without a coefficient; pass a positive
    `track_offset_cost` (e.g. the humanoid's 0.05) for that term.
    """

    unit_interval = False

    def __init__(self, track_offset_cost=0.0):
        self._track_offset_cost = _number(
            track_offset_cost, "track_offset_cost", "a finite cost >= 0 per m^2", minimum=0.0)

    def __call__(self, physics, walker, lateral_offset):
        velocity = walker_state.center_of_mass_velocity(physics, walker)
        upright = walker_state.root_upright(physics, walker)
        return (velocity[0] + 0.05 * upright - 0.01 * _control_cost(physics)
                - self._track_offset_cost * lateral_offset ** 2)


class HumanoidReward:
    """r = min(v_x, v_max) - 0.005 (v_x^2 + v_y^2) - 0.05 y^2 - 0.02 |u|^2 + 0.02,
    with v_max = `max_velocity` m/s.

    The main text gives the terms (forward velocity, torque penalty, track-centre
    penalty, a reward per step for not falling); the coefficients are the
    supplement's as quoted in secondary sources. v_max = 4 m/s is this project's
    choice (the supplement's value could not be retrieved).
    """

    unit_interval = False

    def __init__(self, max_velocity=4.0):
        self._max_velocity = _number(max_velocity, "max_velocity",
                                     "a positive speed in m/s", strictly_positive=True)

    def __call__(self, physics, walker, lateral_offset):
        velocity = walker_state.center_of_mass_velocity(physics, walker)
        return (min(velocity[0], self._max_velocity)
                - 0.005 * (velocity[0] ** 2 + velocity[1] ** 2)
                - 0.05 * lateral_offset ** 2
                - 0.02 * _control_cost(physics) + 0.02)


class PlanarWalkerReward:
    """Forward velocity, a control cost and box constraints on the torso's pose.

    r = v_x - c_u |u|^2 - c_h d(h, [h_min, h_max]) - c_theta max(0, |theta| - theta_max)

    with h and theta the torso's height above its lowest foot (m) and pitch (rad)
    as `TorsoPose` measures them, and d(h, [a, b]) = max(0, a - h, h - b) the
    distance outside the box: no penalty inside it, a penalty growing linearly
    outside. The terms are the paper's (§2: "primary reward proportional to its
    forward velocity, additional terms penalize control and the violation of box
    constraints on torso height and angle"; §3: the same for the parkour walker).

    The numbers are this project's choice; the supplement's values could not be
    retrieved. The height box's lower side, 0.9 m, lies midway between the
    Control Suite walker's standing height (1.2 m) and the 0.6 m where its stand
    reward vanishes, leaving room for crouching and tucking the legs in a jump
    (standing straight gives 1.25 m; no leg pose reaches much above 1.3 m, so the
    upper side is open by default). The pitch box, |theta| <= 0.5 rad, allows the
    forward lean of running.

    The walker is the one the task passes in (its `root_body` is the torso; it
    must have `ground_contact_geoms`).

    Args:
      control_cost: c_u, per unit control squared.
      min_torso_height_m, max_torso_height_m: the height box, metres; either may
        be None (no bound on that side).
      max_torso_pitch_rad: theta_max, radians; None for no pitch constraint.
      height_cost_per_m: c_h, per metre outside the height box.
      pitch_cost_per_rad: c_theta, per radian outside the pitch box.
    """

    unit_interval = False

    def __init__(self, control_cost=0.005, min_torso_height_m=0.9, max_torso_height_m=None,
                 max_torso_pitch_rad=0.5, height_cost_per_m=1.0, pitch_cost_per_rad=1.0):
        self._pose = None
        self._control_cost = _number(control_cost, "control_cost", "a finite cost >= 0",
                                     minimum=0.0)
        self._min_height = _number(min_torso_height_m, "min_torso_height_m",
                                   "a finite height in metres or None", optional=True)
        self._max_height = _number(max_torso_height_m, "max_torso_height_m",
                                   "a finite height in metres or None", optional=True)
        if (self._min_height is not None and self._max_height is not None
                and not self._min_height < self._max_height):
            raise ValueError(
                f"min_torso_height_m ({min_torso_height_m!r}) must be below "
                f"max_torso_height_m ({max_torso_height_m!r})")
        self._max_pitch = _number(max_torso_pitch_rad, "max_torso_pitch_rad",
                                  "a positive angle in radians or None",
                                  strictly_positive=True, optional=True)
        self._height_cost = _number(height_cost_per_m, "height_cost_per_m",
                                    "a finite cost >= 0 per metre", minimum=0.0)
        self._pitch_cost = _number(pitch_cost_per_rad, "pitch_cost_per_rad",
                                   "a finite cost >= 0 per radian", minimum=0.0)

    def box_violation(self, physics, walker):
        """(metres outside the height box, radians outside the pitch box) of
        `walker`'s torso, both >= 0 and 0 inside."""
        if self._pose is None or self._pose.walker is not walker:
            self._pose = TorsoPose(walker)
        height = self._pose.height(physics)
        below = 0.0 if self._min_height is None else max(0.0, self._min_height - height)
        above = 0.0 if self._max_height is None else max(0.0, height - self._max_height)
        pitch = 0.0
        if self._max_pitch is not None:
            pitch = max(0.0, abs(self._pose.pitch(physics)) - self._max_pitch)
        return below + above, pitch

    def __call__(self, physics, walker, lateral_offset):
        velocity = walker_state.center_of_mass_velocity(physics, walker)
        height_violation, pitch_violation = self.box_violation(physics, walker)
        return (velocity[0] - self._control_cost * _control_cost(physics)
                - self._height_cost * height_violation - self._pitch_cost * pitch_violation)


class UnitForwardVelocityReward:
    """r = clip(v_x / v*, 0, 1): 0 when standing or going backwards, 1 at or above
    the target speed v* = `target_velocity` m/s. For benchmarking: rewards in
    [0, 1] whatever the body."""

    unit_interval = True

    def __init__(self, target_velocity=3.0):
        self._target_velocity = _number(target_velocity, "target_velocity",
                                        "a positive speed in m/s", strictly_positive=True)

    def __call__(self, physics, walker, lateral_offset):
        velocity = walker_state.center_of_mass_velocity(physics, walker)[0]
        return rewards.tolerance(
            float(velocity), bounds=(self._target_velocity, float("inf")),
            margin=self._target_velocity, sigmoid="linear", value_at_margin=0.0)


class TorsoPoseTermination:
    """The planar walker has fallen: its torso's height above its lowest foot is
    below `min_torso_height_m`, or its |pitch| exceeds `max_torso_pitch_rad`
    (`TorsoPose` defines both; None disables a test).

    The paper ends the walker's episodes early "when the walker falls" (§2); the
    thresholds are this project's choice (the supplement's values could not be
    retrieved): 0.5 m is below any crouch that passes under the lowest crouch
    platforms (0.9 m clearance needs about 0.6 m with the torso pitched 1 rad) and
    above sitting (about 0.3 m) or lying (about 0 m); 1.2 rad (69 degrees) is a
    torso nearly horizontal, past what a crouch needs.
    """

    def __init__(self, walker, min_torso_height_m=0.5, max_torso_pitch_rad=1.2):
        self._pose = TorsoPose(walker)
        self._min_height = _number(min_torso_height_m, "min_torso_height_m",
                                   "a finite height in metres or None", optional=True)
        self._max_pitch = _number(max_torso_pitch_rad, "max_torso_pitch_rad",
                                  "a positive angle in radians or None",
                                  strictly_positive=True, optional=True)
        if self._min_height is None and self._max_pitch is None:
            raise ValueError(
                "TorsoPoseTermination needs min_torso_height_m or max_torso_pitch_rad; "
                "both are None")

    def has_fallen(self, physics):
        if self._min_height is not None and self._pose.height(physics) < self._min_height:
            return True
        return (self._max_pitch is not None
                and abs(self._pose.pitch(physics)) > self._max_pitch)


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
      head_body: the head (a spec body of the walker), e.g. `walker.head`.
      min_head_to_feet_m: (a)'s threshold, metres, or None.
      min_head_above_ground_m: (b)'s threshold, metres, or None.

    Raises:
      ValueError: for a threshold that is not a positive finite number or None,
        for both None, for no `head_body`, or for (a) on a walker without feet.
      TypeError: for (b) on an arena without `terrain_height`.
    """

    def __init__(self, walker, arena, head_body, min_head_to_feet_m=0.9,
                 min_head_above_ground_m=None):
        self._min_to_feet = _number(min_head_to_feet_m, "min_head_to_feet_m",
                                    "a positive distance in metres or None",
                                    strictly_positive=True, optional=True)
        self._min_above_ground = _number(min_head_above_ground_m, "min_head_above_ground_m",
                                         "a positive height in metres or None",
                                         strictly_positive=True, optional=True)
        if self._min_to_feet is None and self._min_above_ground is None:
            raise ValueError(
                "HeadHeightTermination needs min_head_to_feet_m or min_head_above_ground_m; "
                "both are None")
        if head_body is None:
            raise ValueError(
                f"head_body must be the walker's head body, got None (walker "
                f"{type(walker).__name__})")
        if self._min_above_ground is not None and not callable(
                getattr(arena, "terrain_height", None)):
            raise TypeError(
                f"min_head_above_ground_m needs an arena with terrain_height(physics, "
                f"xy_points); {type(arena).__name__} has none")
        self._arena = arena
        self._head = _ElementIds([head_body])
        self._feet = None
        if self._min_to_feet is not None:
            self._feet = _ElementIds(_foot_geoms(walker, "HeadHeightTermination"))

    def head_to_feet(self, physics):
        """Smallest distance (m) between the head and a foot geom's centre."""
        head = physics.data.xpos[self._head(physics)[0]]
        feet = physics.data.geom_xpos[self._feet(physics)]
        return float(np.sqrt(np.min(np.sum((feet - head) ** 2, axis=1))))

    def head_above_ground(self, physics):
        """Height (m) of the head above the terrain under it."""
        head = physics.data.xpos[self._head(physics)[0]]
        return float(head[2] - self._arena.terrain_height(physics, head[np.newaxis, :2])[0])

    def has_fallen(self, physics):
        if self._min_to_feet is not None and self.head_to_feet(physics) < self._min_to_feet:
            return True
        return (self._min_above_ground is not None
                and self.head_above_ground(physics) < self._min_above_ground)


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
      physics_timestep, control_timestep: seconds.

    Observations: the walker's proprioception plus `terrain_heights` (and
    `platform_heights` when the arena has hovering platforms: bottom and top
    surfaces along a last axis of 2), laid out as published (`exteroception`),
    and `track_offset`: the root's lateral offset from the track centre, metres
    (positive to the left, +y).
    """

    def __init__(self, walker, arena, reward, pose_termination=None, contact_termination=False,
                 terminate_at_height=-0.5, walker_spawn_position=(0.0, 0.0, 0.0),
                 track_center_y=0.0, physics_timestep=0.005, control_timestep=0.025):
        if not callable(reward):
            raise TypeError(
                f"reward must be callable(physics, walker, lateral_offset), got {reward!r}")
        self._walker = walker
        self._arena = arena
        self._reward = reward
        walker_state.attach_walker(arena, walker)
        self._walker_spawn_position = walker_spawn_position
        self._track_center_y = float(track_center_y)
        self._fall_detector = termination.FallDetector(
            walker, arena, contact_termination=contact_termination,
            min_end_effector_height=terminate_at_height)
        if pose_termination is not None and not callable(
                getattr(pose_termination, "has_fallen", None)):
            raise TypeError(
                f"pose_termination must have has_fallen(physics), got {pose_termination!r}")
        self._pose_termination = pose_termination
        self._failure_termination = False
        walker_state.enable_proprioception(walker)

        if getattr(walker, "is_planar", False):
            self._sampler = exteroception.TerrainSampler(
                arena, walker, exteroception.PLANAR_OFFSETS_M)
        else:
            self._sampler = exteroception.TerrainSampler(
                arena, walker, exteroception.GRID_FORWARD_OFFSETS_M,
                exteroception.GRID_LATERAL_OFFSETS_M)
        self._task_observables = collections.OrderedDict()
        self._task_observables["terrain_heights"] = observable.Generic(
            self._sampler.terrain_heights, enabled=True)
        has_platforms = len(getattr(arena, "platforms", ())) > 0
        if has_platforms and callable(getattr(arena, "platform_height", None)):
            self._task_observables["platform_heights"] = observable.Generic(
                self._sampler.platform_heights, enabled=True)
        self._task_observables["track_offset"] = observable.Generic(
            self._track_offset_observation, enabled=True)
        self.set_timesteps(control_timestep, physics_timestep)

    @property
    def pose_termination(self):
        """The `pose_termination` given to the constructor (None if none)."""
        return self._pose_termination

    @property
    def reward_is_unit_interval(self):
        return bool(getattr(self._reward, "unit_interval", False))

    def lateral_offset(self, physics):
        """Root body's world y minus the track centre's, metres."""
        return float(physics.bind(self._walker.root_body).xpos[1]) - self._track_center_y

    def _track_offset_observation(self, physics):
        return np.array([self.lateral_offset(physics)])

    def initialize_episode(self, physics, random_state):
        # Arenas that lay out episodes themselves (corridors, mazes, courses) draw
        # the layout here when asked first, so that the spawn matches it.
        if callable(getattr(self._arena, "regenerate", None)):
            self._arena.regenerate(random_state)
        spawn = getattr(self._arena, "spawn_position", None)
        if callable(spawn):
            position = spawn(random_state)
        else:
            position = variation.evaluate(self._walker_spawn_position, random_state=random_state)
        walker_state.place_walker(physics, self._walker, position)
        self._fall_detector.reset(physics)
        self._failure_termination = False

    def after_step(self, physics, random_state):
        self._failure_termination = (
            self._fall_detector.has_fallen(physics)
            or (self._pose_termination is not None and self._pose_termination.has_fallen(physics)))

    def get_reward(self, physics):
        return float(self._reward(physics, self._walker, self.lateral_offset(physics)))

    def should_terminate_episode(self, physics):
        return self._failure_termination

    def get_discount(self, physics):
        return 0.0 if self._failure_termination else 1.0
