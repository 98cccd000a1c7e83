"""Forward progress over parkour courses (Heess et al. 2017, arXiv:1707.02286).

The agent is rewarded for moving along the track (+x) and sees the terrain ahead
(`exteroception`). Rewards, with v the walker's centre-of-mass velocity (world
frame, m/s), u the control vector, n_z the z-component of the root body's z-axis
and y the root's lateral offset from the track centre (metres):

  quadruped (published):  r = v_x + 0.05 n_z - 0.01 |u|^2
  humanoid (published):   r = min(v_x, v_max) - 0.005 (v_x^2 + v_y^2) - 0.05 y^2
                              - 0.02 |u|^2 + 0.02,   v_max = 4 m/s by default
  planar walker:          r = v_x - 0.005 |u|^2 (see `PlanarWalkerReward`)
  unit interval (for benchmarking, any walker; this project's definition):
                          r = clip(v_x / v*, 0, 1), v* the target speed,
                            = tolerance(v_x, (v*, inf), margin=v*, "linear", 0)

Terminations: falling into a gap (an end effector more than 0.5 m below z = 0),
and for the humanoid the head's height above the feet or above the ground
falling under a threshold (Heess et al. 2017 terminate the humanoid on such
head distances).
"""

import collections

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


class QuadrupedReward:
    """r = v_x + 0.05 n_z - 0.01 |u|^2 (Heess et al. 2017, appendix)."""

    unit_interval = False

    def __call__(self, physics, walker, lateral_offset):
        velocity = walker_state.center_of_mass_velocity(physics, walker)
        upright = walker_state.root_upright(physics, walker)
        return velocity[0] + 0.05 * upright - 0.01 * _control_cost(physics)


class HumanoidReward:
    """r = min(v_x, v_max) - 0.005 (v_x^2 + v_y^2) - 0.05 y^2 - 0.02 |u|^2 + 0.02
    (Heess et al. 2017, appendix), with v_max = `max_velocity` m/s."""

    unit_interval = False

    def __init__(self, max_velocity=4.0):
        if not max_velocity > 0:
            raise ValueError(f"max_velocity must be a positive speed in m/s, got {max_velocity!r}")
        self._max_velocity = float(max_velocity)

    def __call__(self, physics, walker, lateral_offset):
        velocity = walker_state.center_of_mass_velocity(physics, walker)
        return (min(velocity[0], self._max_velocity)
                - 0.005 * (velocity[0] ** 2 + velocity[1] ** 2)
                - 0.05 * lateral_offset ** 2
                - 0.02 * _control_cost(physics) + 0.02)


class PlanarWalkerReward:
    """r = v_x - 0.005 |u|^2: forward velocity with a small control cost.

    Heess et al. (2017) reward the planar walker for forward progress along the
    same lines as the other bodies; the control-cost coefficient here could not
    be checked against the appendix text and is this project's choice.
    """

    unit_interval = False

    def __call__(self, physics, walker, lateral_offset):
        velocity = walker_state.center_of_mass_velocity(physics, walker)
        return velocity[0] - 0.005 * _control_cost(physics)


class UnitForwardVelocityReward:
    """r = clip(v_x / v*, 0, 1): 0 when standing or going backwards, 1 at or above
    the target speed v* = `target_velocity` m/s. For benchmarking: rewards in
    [0, 1] whatever the body."""

    unit_interval = True

    def __init__(self, target_velocity=3.0):
        if not target_velocity > 0:
            raise ValueError(
                f"target_velocity must be a positive speed in m/s, got {target_velocity!r}")
        self._target_velocity = float(target_velocity)

    def __call__(self, physics, walker, lateral_offset):
        velocity = walker_state.center_of_mass_velocity(physics, walker)[0]
        return rewards.tolerance(
            float(velocity), bounds=(self._target_velocity, float("inf")),
            margin=self._target_velocity, sigmoid="linear", value_at_margin=0.0)


class HeadHeightTermination:
    """Ends the episode when the head is too low: its height above the lowest foot
    (the walker's `ground_contact_geoms`) below `min_head_above_feet_m`, or above
    the terrain under it below `min_head_above_ground_m` (metres; None disables a
    test). Heess et al. (2017) terminate the humanoid on these two distances; the
    default thresholds are this project's choice for bodies of the Control Suite
    humanoid's size (head about 1.5 m above the feet when standing)."""

    def __init__(self, walker, arena, head_body, min_head_above_feet_m=0.7,
                 min_head_above_ground_m=0.7):
        for label, value in (("min_head_above_feet_m", min_head_above_feet_m),
                             ("min_head_above_ground_m", min_head_above_ground_m)):
            if value is not None and not np.isfinite(value):
                raise ValueError(
                    f"{label} must be a finite height in metres or None, got {value!r}")
        self._walker = walker
        self._arena = arena
        self._head_body = head_body
        self._min_above_feet = min_head_above_feet_m
        self._min_above_ground = min_head_above_ground_m
        self._feet = list(walker.ground_contact_geoms)
        self._model = None

    def has_fallen(self, physics):
        if self._model is not physics.model:
            self._foot_ids = np.array([physics.bind(geom).id for geom in self._feet], dtype=int)
            self._head_id = physics.bind(self._head_body).id
            self._model = physics.model
        head = physics.data.xpos[self._head_id]
        if self._min_above_feet is not None:
            lowest_foot = np.min(physics.data.geom_xpos[self._foot_ids, 2])
            if head[2] - lowest_foot < self._min_above_feet:
                return True
        if self._min_above_ground is not None:
            ground = self._arena.terrain_height(physics, head[np.newaxis, :2])[0]
            if head[2] - ground < self._min_above_ground:
                return True
        return False


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
      head_termination: optional `HeadHeightTermination`.
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

    def __init__(self, walker, arena, reward, head_termination=None, contact_termination=False,
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
        self._head_termination = head_termination
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
            or (self._head_termination is not None and self._head_termination.has_fallen(physics)))

    def get_reward(self, physics):
        return float(self._reward(physics, self._walker, self.lateral_offset(physics)))

    def should_terminate_episode(self, physics):
        return self._failure_termination

    def get_discount(self, physics):
        return 0.0 if self._failure_termination else 1.0
