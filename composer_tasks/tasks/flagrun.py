"""Run and flagrun tasks of Liang et al. 2018, "GPU-Accelerated Robotic Simulation
for Distributed Reinforcement Learning" (arXiv:1810.05762), §4.1 and
Appendices B and C: Ant run, Humanoid run, Humanoid Flagrun Harder (HFH) and
HFH on complex terrain.

One task, `TargetRun`, covers the four:

* run (Ant, Humanoid): the target lies far ahead along +x ("just forwards from
  the starting location", Appendix B), so running toward it is running forward;
  a fall (the root below a height above the ground) ends the episode at once.
* flagrun (HFH): "The Flagrun targets ... change every 200 frames to a random
  location within 100m of the agent, or earlier if the humanoid reaches within
  1m of the target"; falls are allowed "for a certain time period (160 frames)
  before terminating", so the agent learns to stand up.
* every task: "random forces onto the agents ... every 200 to 300 frames, for a
  few Newtons each time", and initial "positions, velocities, joint angles, and
  joint angular velocities ... perturbed slightly".
* complex terrain: an `arenas.ObstacleField` and a 15 x 11 height map that
  "follows the humanoid's center of mass" and is "denser near the humanoid".

A frame is one control step. Episodes last 1000 frames (§4.1).

Reward (Appendix C, eq. 1-3), each coefficient a `LiangReward` argument:

    R = R_alive + S + 0.5 R_heading + 0.05 R_standing - 4 |tau|_1 / tau_max
        - 0.5 |u|^2 - 0.2 N_joints - N_feet
    R_heading = 1 if cos(theta_target) > 0.8 else cos(theta_target) / 0.8
    R_standing = 1{cos(theta_vertical) > 0.93}

R_alive is 0.5 for the Ant and 2 for humanoids, S the speed toward the target,
theta_target the angle between the walker's heading and the direction to the
target, theta_vertical the torso's angle from vertical, tau the actuator
torques, tau_max "the maximum that can be applied", u the action, N_joints the
number of joints at their limits and N_feet "the number of feet that is in
collision with ground".

Observations (Appendix B, Table 2, "Ours"; 76 numbers for the 21-actuator
humanoid): root height above the ground (1), roll and pitch (2), root velocity
(3) and angular velocity (3), heading to the target as (sin, cos) (2), joint
angles and velocities, actuator forces, and per foot whether it touches the
ground; with `height_map`, the (15, 11) height map too. The walker's own
observables are switched off, so the observation is the paper's.
"""

from __future__ import annotations

import collections
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Optional, Sequence

import mujoco
import numpy as np
from numpy.typing import ArrayLike

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

# Liang et al. 2018, §4.1: "the maximum episode length for both training and
# evaluation is 1000 frames".
EPISODE_FRAMES = 1000
# Liang et al. 2018, §4.1: reward thresholds over an episode.
REWARD_THRESHOLDS = {
    "ant_run": {"running": 3000.0, "final": 7000.0},
    "humanoid_run": {"walking": 3000.0, "running": 5000.0},
    "humanoid_flagrun_harder": {"stands_up": 2500.0, "final": 4000.0},
}
# Roboschool's frame (4 substeps of 4.125 ms). The paper does not give its
# frame length; it compares its rewards and thresholds with Roboschool's
# (Appendix D), whose environments step 0.0165 s per frame.
PHYSICS_TIMESTEP_S = 0.004125
CONTROL_TIMESTEP_S = 0.0165
# "run": the target lies this far ahead along +x (Roboschool's walk target,
# 1 km), so that the direction to it is forward for a whole episode.
FORWARD_TARGET_DISTANCE_M = 1000.0
# A joint counts as at its limit beyond this fraction of its half-range from
# the middle of its range (Roboschool's joints_at_limit: |normalised| > 0.99).
JOINT_LIMIT_FRACTION = 0.99

_FLAG_HALF_HEIGHT_M = 1.0

# The HFH-terrain height map, 15 x 11 (Liang et al. 2018, §4.1, Table 4),
# "denser near the humanoid" (their positions are not published; these are
# ours): offsets along the walker's heading and to its left, metres, each gap
# at least as wide as every gap nearer the body.
HEIGHT_MAP_FORWARD_OFFSETS_M = np.array(
    [-1.8, -1.0, -0.5, -0.2, 0.0, 0.2, 0.4, 0.7, 1.0, 1.4, 1.9, 2.5, 3.2, 4.0, 5.0]
)
HEIGHT_MAP_LATERAL_OFFSETS_M = np.array(
    [-3.0, -2.0, -1.2, -0.6, -0.25, 0.0, 0.25, 0.6, 1.2, 2.0, 3.0]
)


def _count(value: Any, name: str, minimum: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < minimum:
        raise ValueError(f"{name} must be an int >= {minimum}, got {value!r}")
    return int(value)


class LiangReward:
    """Appendix C's reward (module docstring), coefficients as arguments.

    Args:
      alive_bonus: R_alive per frame while the walker is not fallen (0 while it
        is): 0.5 for the Ant, 2 for humanoids (published).
      speed_weight: per m/s of centre-of-mass speed toward the target (1).
      heading_weight: per unit of R_heading (0.5).
      heading_cosine_threshold: cos(theta_target) above which R_heading is 1 (0.8).
      standing_weight: per unit of R_standing (0.05).
      upright_cosine_threshold: cos(theta_vertical) above which R_standing is 1 (0.93).
      torque_cost: per unit of |tau|_1 / tau_max (4).
      control_cost: per unit of |u|^2 (0.5).
      joints_at_limit_cost: per joint at its limit (0.2).
      feet_contact_cost: per foot touching the ground (1), as the paper states
        it (Appendix C; Table 3 lists it as Roboschool's "feet contact cost").
    """

    def __init__(
        self,
        alive_bonus: float,
        speed_weight: float = 1.0,
        heading_weight: float = 0.5,
        heading_cosine_threshold: float = 0.8,
        standing_weight: float = 0.05,
        upright_cosine_threshold: float = 0.93,
        torque_cost: float = 4.0,
        control_cost: float = 0.5,
        joints_at_limit_cost: float = 0.2,
        feet_contact_cost: float = 1.0,
    ) -> None:
        self.alive_bonus = walker_task.checked_number(
            alive_bonus, "alive_bonus", "a finite reward per frame"
        )
        self.speed_weight = walker_task.checked_number(
            speed_weight, "speed_weight", "a finite weight"
        )
        self.heading_weight = walker_task.checked_number(
            heading_weight, "heading_weight", "a finite weight"
        )
        self.heading_cosine_threshold = walker_task.checked_number(
            heading_cosine_threshold,
            "heading_cosine_threshold",
            "a cosine in (0, 1]",
            strictly_positive=True,
        )
        if self.heading_cosine_threshold > 1.0:
            raise ValueError(
                f"heading_cosine_threshold must be a cosine in (0, 1], got "
                f"{heading_cosine_threshold!r}"
            )
        self.standing_weight = walker_task.checked_number(
            standing_weight, "standing_weight", "a finite weight"
        )
        self.upright_cosine_threshold = walker_task.checked_number(
            upright_cosine_threshold, "upright_cosine_threshold", "a finite cosine"
        )
        self.torque_cost = walker_task.checked_number(
            torque_cost, "torque_cost", "a finite cost >= 0", minimum=0.0
        )
        self.control_cost = walker_task.checked_number(
            control_cost, "control_cost", "a finite cost >= 0", minimum=0.0
        )
        self.joints_at_limit_cost = walker_task.checked_number(
            joints_at_limit_cost, "joints_at_limit_cost", "a finite cost >= 0", minimum=0.0
        )
        self.feet_contact_cost = walker_task.checked_number(
            feet_contact_cost, "feet_contact_cost", "a finite cost >= 0", minimum=0.0
        )

    def heading_term(self, heading_cosine: float) -> float:
        """R_heading (eq. 2) of cos(theta_target)."""
        if heading_cosine > self.heading_cosine_threshold:
            return 1.0
        return heading_cosine / self.heading_cosine_threshold

    def terms(self, physics: Physics, task: TargetRun) -> dict[str, float]:
        """The reward's summands by name (their sum is the reward)."""
        upright = walker_state.root_upright(physics, task.walker)
        return {
            "alive": 0.0 if task.is_fallen(physics) else self.alive_bonus,
            "speed": self.speed_weight * task.speed_toward_target(physics),
            "heading": self.heading_weight * self.heading_term(task.heading_cosine(physics)),
            "standing": self.standing_weight * float(upright > self.upright_cosine_threshold),
            "torque": -self.torque_cost * task.torque_fraction(physics),
            "control": -self.control_cost * float(np.dot(physics.data.ctrl, physics.data.ctrl)),
            "joints_at_limit": -self.joints_at_limit_cost * task.joints_at_limit(physics),
            "feet_contact": -self.feet_contact_cost * float(np.sum(task.feet_contact(physics))),
        }

    def __call__(self, physics: Physics, task: TargetRun) -> float:
        return float(sum(self.terms(physics, task).values()))


class JointNoise:
    """A walker pose initializer (`Walker.add_initializer`): adds uniform noise
    in [-scale, scale] to every pose joint's angle (rad; clipped to the joint's
    range) and angular velocity (rad/s). Liang et al. 2018 (§4.1) perturb
    joint angles and angular velocities "slightly"; the default scale 0.1 is
    Roboschool's joint reset noise."""

    def __init__(self, scale: float = 0.1) -> None:
        self.scale = walker_task.checked_number(
            scale, "scale", "a finite noise scale >= 0", minimum=0.0
        )

    def initialize_pose(
        self, physics: Physics, walker: Walker, random_state: np.random.RandomState
    ) -> None:
        joints = list(walker.pose_joints)
        bound = physics.bind(joints)
        count = len(joints)
        angles = np.asarray(bound.qpos, dtype=np.float64) + random_state.uniform(
            -self.scale, self.scale, size=count
        )
        model = physics.model
        ids = np.asarray(bound.id)
        limited = model.jnt_limited[ids].astype(bool)
        ranges = model.jnt_range[ids]
        angles[limited] = np.clip(angles[limited], ranges[limited, 0], ranges[limited, 1])
        bound.qpos = angles
        bound.qvel = random_state.uniform(-self.scale, self.scale, size=count)


class TargetRun(walker_task.WalkerTask):
    """Run toward a target; the four tasks of Liang et al. 2018 §4.1 (module docstring).

    Args:
      walker: a free walker (`walkers.Quadruped` for the Ant, `walkers.Humanoid`
        for the 28-DoF humanoid).
      arena: `arenas.Floor` or `arenas.ObstacleField` (anything with
        `ground_geoms` and `terrain_height`; `regenerate(random_state)` is
        called first if it has one).
      reward: a `LiangReward`.
      fall_height_m: the walker counts as fallen while its root body is less
        than this high above the ground under it, metres.
      fall_allowance_frames: frames a walker may stay fallen: the episode ends
        (discount 0) on the frame it has been fallen for more than this many
        consecutive frames; 0 ends it on the first fallen frame.
      moving_target: flagrun: move the target every `target_interval_frames`
        frames, or when the centre of mass comes within
        `target_reach_distance_m` of it, to a point drawn uniformly from the
        disc of radius `target_max_distance_m` around the centre of mass (and
        farther than `target_reach_distance_m`). Else the target stays
        `FORWARD_TARGET_DISTANCE_M` ahead of the spawn point along +x.
      target_interval_frames, target_max_distance_m, target_reach_distance_m:
        published 200 frames, 100 m, 1 m.
      push_interval_frames: (low, high): a push starts every `randint(low, high)`
        frames (inclusive; published 200-300); None for no pushes.
      push_force_n: (low, high) magnitude of a push, newtons, a horizontal force
        in a uniformly random direction at the root body's centre of mass
        ("a few Newtons each time"; our default 1-5 N).
      push_duration_frames: frames each push lasts (ours: 1).
      initial_noise: scale of the initial perturbation: the spawn's x and y
        (m), the root's horizontal velocity (m/s) and, through a `JointNoise`
        initializer added to the walker, its joint angles and velocities.
      height_map: observe the (15, 11) height map around the centre of mass.
      physics_timestep, control_timestep: seconds (a frame is a control step).

    Raises:
      TypeError: for a reward that is not a `LiangReward`.
      ValueError: for a bad count, distance or range.
    """

    # Duck-typed (class docstring): `terrain_height` and `spawn_position`, and
    # `regenerate` when the arena has it.
    _arena: Any

    def __init__(
        self,
        walker: Walker,
        arena: composer.Arena,
        reward: LiangReward,
        fall_height_m: float,
        fall_allowance_frames: int = 0,
        moving_target: bool = False,
        target_interval_frames: int = 200,
        target_max_distance_m: float = 100.0,
        target_reach_distance_m: float = 1.0,
        push_interval_frames: Optional[Sequence[int]] = (200, 300),
        push_force_n: Sequence[float] = (1.0, 5.0),
        push_duration_frames: int = 1,
        initial_noise: float = 0.1,
        height_map: bool = False,
        physics_timestep: float = PHYSICS_TIMESTEP_S,
        control_timestep: float = CONTROL_TIMESTEP_S,
    ) -> None:
        if not isinstance(reward, LiangReward):
            raise TypeError(f"reward must be a LiangReward, got {reward!r}")
        if getattr(walker, "is_planar", False):
            raise ValueError("TargetRun needs a free walker; the planar walker cannot turn")
        self._walker = walker
        self._arena = arena
        self._reward = reward
        walker_state.attach_walker(arena, walker)
        self._fall_height = walker_task.checked_number(
            fall_height_m, "fall_height_m", "a positive height in metres", strictly_positive=True
        )
        self._fall_allowance = _count(fall_allowance_frames, "fall_allowance_frames", 0)
        self._moving_target = bool(moving_target)
        self._target_interval = _count(target_interval_frames, "target_interval_frames", 1)
        self._reach = walker_task.checked_number(
            target_reach_distance_m,
            "target_reach_distance_m",
            "a positive distance in metres",
            strictly_positive=True,
        )
        self._max_distance = walker_task.checked_number(
            target_max_distance_m,
            "target_max_distance_m",
            "a distance in metres above target_reach_distance_m",
            strictly_positive=True,
        )
        if not self._max_distance > self._reach:
            raise ValueError(
                f"target_max_distance_m ({target_max_distance_m!r}) must exceed "
                f"target_reach_distance_m ({target_reach_distance_m!r})"
            )
        self._pushes: perturbations.RandomPushes | None = None
        if push_interval_frames is not None:
            try:
                self._pushes = perturbations.RandomPushes(
                    walker, push_interval_frames, push_force_n, push_duration_frames
                )
            except ValueError as error:
                raise ValueError(
                    f"push_interval_frames, push_force_n, push_duration_frames: {error}"
                ) from None
        self._initial_noise = walker_task.checked_number(
            initial_noise, "initial_noise", "a finite scale >= 0", minimum=0.0
        )
        if self._initial_noise > 0:
            walker.add_initializer(JointNoise(self._initial_noise))
        self._target = np.zeros(2)
        self._frame = 0
        self._frames_since_target = 0
        self._fallen_frames = 0
        self._terminated = False
        self._ids_model: Any = None
        self._flag: Any = None
        if self._moving_target:
            # A marker for viewers and videos: sites take no part in the physics.
            self._flag = arena.spec.worldbody.add_site(
                name="flag",
                type=mujoco.mjtGeom.mjGEOM_CYLINDER,
                size=[0.1, _FLAG_HALF_HEIGHT_M, 0.0],
                pos=[0.0, 0.0, _FLAG_HALF_HEIGHT_M],
                rgba=[0.9, 0.2, 0.2, 1.0],
            )

        for item in walker.observables.values():
            item.enabled = False
        observables: collections.OrderedDict[str, Observable] = collections.OrderedDict()
        observables["root_height"] = observable.Generic(self.root_height, enabled=True)
        observables["root_roll_pitch"] = observable.Generic(self.root_roll_pitch, enabled=True)
        observables["root_velocity"] = observable.Generic(self.root_velocity, enabled=True)
        observables["root_angular_velocity"] = observable.Generic(
            self.root_angular_velocity, enabled=True
        )
        observables["target_heading"] = observable.Generic(self.target_heading, enabled=True)
        observables["joint_angles"] = observable.Generic(self._joint_angles, enabled=True)
        observables["joint_velocities"] = observable.Generic(self._joint_velocities, enabled=True)
        observables["actuator_forces"] = observable.Generic(self.actuator_torques, enabled=True)
        observables["feet_contact"] = observable.Generic(self.feet_contact, enabled=True)
        self._height_map: exteroception.TerrainSampler | None = None
        if height_map:
            self._height_map = exteroception.TerrainSampler(
                arena,
                walker,
                HEIGHT_MAP_FORWARD_OFFSETS_M,
                HEIGHT_MAP_LATERAL_OFFSETS_M,
                lattice_step_m=0.0,
                follow_heading=True,
                anchor=_center_of_mass,
            )
            observables["height_map"] = observable.Generic(
                self._height_map.terrain_heights, enabled=True
            )
        self._task_observables = observables
        self.set_timesteps(control_timestep, physics_timestep)

    # Model ids, resolved again after a recompilation.

    def _resolve(self, physics: Physics) -> None:
        model = physics.model
        if self._ids_model is not model:
            walker = self._walker
            joints = walker_state.spec_elements(walker.observable_joints)
            self._joint_ids = np.asarray(physics.bind(joints).id, dtype=np.intp)
            self._joint_qpos = model.jnt_qposadr[self._joint_ids].copy()
            self._joint_dofs = model.jnt_dofadr[self._joint_ids].copy()
            ranges = model.jnt_range[self._joint_ids]
            self._joint_middle = ranges.mean(axis=1)
            self._joint_half_range = (ranges[:, 1] - ranges[:, 0]) / 2
            self._joint_limited = model.jnt_limited[self._joint_ids].astype(bool)
            self._actuator_ids = np.asarray(
                physics.bind(walker_state.spec_elements(walker.actuators)).id, dtype=np.intp
            )
            # A joint actuator's torque is its gear times its scalar force
            # (`actuator_force`, which equals the control for these motors); the
            # largest torque one can apply is its gear times the largest |control|.
            self._gears = model.actuator_gear[self._actuator_ids, 0].copy()
            controls = np.max(np.abs(model.actuator_ctrlrange[self._actuator_ids]), axis=1)
            self._max_torque = float(np.max(np.abs(self._gears) * controls))
            # Feet: the bodies of the walker's ground-contact geoms, one row per foot.
            geom_ids = np.asarray(
                [
                    physics.bind(g).id
                    for g in walker_state.spec_elements(walker.ground_contact_geoms)
                ]
            )
            foot_bodies, foot_of_geom = np.unique(model.geom_bodyid[geom_ids], return_inverse=True)
            self._foot_of_geom = np.full(model.ngeom, -1, dtype=np.intp)
            self._foot_of_geom[geom_ids] = foot_of_geom
            self._num_feet = len(foot_bodies)
            self._ground = np.zeros(model.ngeom, dtype=bool)
            ground = termination.ground_geoms_of(self._arena)
            self._ground[[physics.bind(geom).id for geom in walker_state.spec_elements(ground)]] = (
                True
            )
            self._ids_model = model

    # Quantities (world frame unless said otherwise).

    @property
    def target(self) -> np.ndarray:
        """The target's world xy (2,), metres (a copy)."""
        return self._target.copy()

    @property
    def frame(self) -> int:
        """Frames (control steps) since the episode began."""
        return self._frame

    @property
    def fallen_frames(self) -> int:
        """Consecutive frames, up to the last, the walker has been fallen."""
        return self._fallen_frames

    @property
    def push_force(self) -> np.ndarray:
        """The force (3,) newtons, world frame, on the root this frame (zeros if none)."""
        return np.zeros(3) if self._pushes is None else self._pushes.force

    @property
    def next_push_frame(self) -> Optional[int]:
        """The frame at which the next push starts (None without pushes)."""
        return None if self._pushes is None else self._pushes.next_push_step

    def set_target(self, physics: Physics, xy: ArrayLike) -> None:
        """Puts the target at world `xy` (metres) and restarts its timer."""
        xy = np.asarray(xy, dtype=np.float64)
        if xy.shape != (2,) or not np.all(np.isfinite(xy)):
            raise ValueError(f"the target must be finite world (x, y) metres, got {xy!r}")
        self._target = xy.copy()
        self._frames_since_target = 0
        if self._flag is not None:
            physics.bind(self._flag).pos = [xy[0], xy[1], _FLAG_HALF_HEIGHT_M]

    def center_of_mass(self, physics: Physics) -> np.ndarray:
        """The walker's centre of mass (3,), metres."""
        return _center_of_mass(physics, self._walker)

    def root_height(self, physics: Physics) -> np.ndarray:
        """(1,): the root body's z minus the terrain height under it, metres."""
        root = walker_state.root_position(physics, self._walker)
        ground = self._arena.terrain_height(physics, root[np.newaxis, :2])
        return root[2:] - np.asarray(ground, dtype=np.float64)

    def is_fallen(self, physics: Physics) -> bool:
        """The root is less than `fall_height_m` above the ground."""
        return bool(self.root_height(physics)[0] < self._fall_height)

    def root_roll_pitch(self, physics: Physics) -> np.ndarray:
        """(roll, pitch) of the root, radians (z-y-x Euler angles)."""
        xmat = np.asarray(physics.bind(self._walker.root_body).xmat).reshape(3, 3)
        return np.array(
            [np.arctan2(xmat[2, 1], xmat[2, 2]), -np.arcsin(np.clip(xmat[2, 0], -1.0, 1.0))]
        )

    def _heading_frame(self, physics: Physics, vector: ArrayLike) -> np.ndarray:
        """A world vector's (x, y) turned into the heading frame, z unchanged."""
        rotation = walker_state.heading_rotation(physics, self._walker)
        turned = np.array(vector, dtype=np.float64)
        turned[:2] = rotation.T @ turned[:2]
        return turned

    def root_velocity(self, physics: Physics) -> np.ndarray:
        """(3,) centre-of-mass velocity in the heading frame (x forward, y left,
        z up), m/s."""
        return self._heading_frame(
            physics, walker_state.center_of_mass_velocity(physics, self._walker)
        )

    def root_angular_velocity(self, physics: Physics) -> np.ndarray:
        """(3,) angular velocity of the root in its own frame (the gyro), rad/s."""
        return np.array(physics.bind(self._walker.gyro).sensordata, dtype=np.float64)

    def _direction_to_target(self, physics: Physics) -> tuple[np.ndarray, float]:
        offset = self._target - self.center_of_mass(physics)[:2]
        distance = float(np.hypot(*offset))
        return offset / distance if distance > 0 else np.zeros(2), distance

    def target_distance(self, physics: Physics) -> float:
        """Horizontal distance (m) from the centre of mass to the target."""
        return self._direction_to_target(physics)[1]

    def speed_toward_target(self, physics: Physics) -> float:
        """S: the centre of mass's horizontal velocity along the direction to the
        target, m/s."""
        direction, _ = self._direction_to_target(physics)
        velocity = walker_state.center_of_mass_velocity(physics, self._walker)
        return float(velocity[:2] @ direction)

    def heading_cosine(self, physics: Physics) -> float:
        """cos(theta_target): the walker's heading (root x-axis on the ground)
        against the direction to the target."""
        heading = walker_state.heading_rotation(physics, self._walker)[:, 0]
        direction, _ = self._direction_to_target(physics)
        return float(heading @ direction)

    def target_heading(self, physics: Physics) -> np.ndarray:
        """(sin, cos) of the angle from the heading to the target direction
        (positive to the left)."""
        heading = walker_state.heading_rotation(physics, self._walker)[:, 0]
        direction, _ = self._direction_to_target(physics)
        sine = heading[0] * direction[1] - heading[1] * direction[0]
        return np.array([sine, heading @ direction])

    def _joint_angles(self, physics: Physics) -> np.ndarray:
        self._resolve(physics)
        return physics.data.qpos[self._joint_qpos].copy()

    def _joint_velocities(self, physics: Physics) -> np.ndarray:
        self._resolve(physics)
        return physics.data.qvel[self._joint_dofs].copy()

    def actuator_torques(self, physics: Physics) -> np.ndarray:
        """(n_actuators,) torques the actuators apply at their joints, N m."""
        self._resolve(physics)
        return physics.data.actuator_force[self._actuator_ids] * self._gears

    def torque_fraction(self, physics: Physics) -> float:
        """|tau|_1 / tau_max: the actuators' absolute torques summed, over the
        largest torque any of them can apply."""
        self._resolve(physics)
        return float(np.sum(np.abs(self.actuator_torques(physics))) / self._max_torque)

    def joints_at_limit(self, physics: Physics) -> int:
        """N_joints: limited joints beyond `JOINT_LIMIT_FRACTION` of their
        half-range from its middle."""
        self._resolve(physics)
        normalised = np.abs(physics.data.qpos[self._joint_qpos] - self._joint_middle)
        return int(
            np.count_nonzero(
                self._joint_limited & (normalised > JOINT_LIMIT_FRACTION * self._joint_half_range)
            )
        )

    def feet_contact(self, physics: Physics) -> np.ndarray:
        """(n_feet,): 1.0 for each foot (a body holding ground-contact geoms)
        touching a ground geom, else 0.0."""
        self._resolve(physics)
        touching = np.zeros(self._num_feet)
        data = physics.data
        if data.ncon:
            first, second = data.contact.geom1, data.contact.geom2
            for geoms, others in ((first, second), (second, first)):
                feet = self._foot_of_geom[geoms]
                hits = (feet >= 0) & self._ground[others]
                touching[feet[hits]] = 1.0
        return touching

    # Lifecycle.

    def initialize_episode_mjcf(self, random_state: np.random.RandomState) -> None:
        # An arena that rebuilds its model for a layout (dm_control's corridors) draws
        # it here, before the reset compiles the model.
        if walker_task.regenerates_in_mjcf(self._arena):
            self._arena.regenerate(random_state)

    def initialize_episode(self, physics: Physics, random_state: np.random.RandomState) -> None:
        if walker_task.regenerates_in_episode(self._arena):
            self._arena.regenerate(random_state)
        noise = self._initial_noise
        spawn = np.asarray(self._arena.spawn_position(random_state), dtype=np.float64).copy()
        spawn[:2] += random_state.uniform(-noise, noise, size=2)
        walker_state.place_walker(physics, self._walker, spawn, yaw=0.0)
        velocity = np.zeros(3)
        velocity[:2] = random_state.uniform(-noise, noise, size=2)
        self._walker.set_velocity(physics, velocity=velocity, angular_velocity=np.zeros(3))
        self._frame = 0
        self._fallen_frames = 0
        self._terminated = False
        if self._pushes is not None:
            self._pushes.reset(physics, random_state)
        if self._moving_target:
            self._resample_target(physics, spawn[:2], random_state)
        else:
            self.set_target(physics, spawn[:2] + [FORWARD_TARGET_DISTANCE_M, 0.0])

    def _resample_target(
        self, physics: Physics, center_xy: ArrayLike, random_state: np.random.RandomState
    ) -> None:
        # Uniform over the annulus reach < r <= max: the radius's square is uniform.
        low, high = self._reach**2, self._max_distance**2
        radius = np.sqrt(random_state.uniform(low, high))
        angle = random_state.uniform(-np.pi, np.pi)
        self.set_target(
            physics,
            np.asarray(center_xy, dtype=np.float64)
            + radius * np.array([np.cos(angle), np.sin(angle)]),
        )

    def before_step(
        self, physics: Physics, action: np.ndarray, random_state: np.random.RandomState
    ) -> None:
        super().before_step(physics, action, random_state)
        self._frame += 1
        if self._pushes is not None:
            self._pushes.before_step(physics, random_state)

    def after_step(self, physics: Physics, random_state: np.random.RandomState) -> None:
        self._fallen_frames = self._fallen_frames + 1 if self.is_fallen(physics) else 0
        self._terminated = self._fallen_frames > self._fall_allowance
        if self._moving_target:
            self._frames_since_target += 1
            if (
                self.target_distance(physics) < self._reach
                or self._frames_since_target >= self._target_interval
            ):
                self._resample_target(physics, self.center_of_mass(physics)[:2], random_state)

    def get_reward(self, physics: Physics) -> float:
        return self._reward(physics, self)

    # Snapshots (composer.Environment.snapshot): the episode's progress is Python state.

    def snapshot_state(self) -> dict[str, Any]:
        """The target, the frame counters, whether the episode ended and the push
        schedule (picklable copies). The flag's position is in the model."""
        return {
            "target": self._target.copy(),
            "frame": self._frame,
            "frames_since_target": self._frames_since_target,
            "fallen_frames": self._fallen_frames,
            "terminated": self._terminated,
            "pushes": perturbations.snapshot_optional_pushes(self._pushes),
        }

    def restore_state(self, state: Mapping[str, Any]) -> None:
        """Returns to a `snapshot_state()` of a task built alike.

        Raises:
          ValueError: the snapshot has pushes and this task not, or the reverse.
        """
        perturbations.restore_optional_pushes(self._pushes, state["pushes"])
        self._target = np.array(state["target"], dtype=np.float64)
        self._frame = int(state["frame"])
        self._frames_since_target = int(state["frames_since_target"])
        self._fallen_frames = int(state["fallen_frames"])
        self._terminated = bool(state["terminated"])

    def should_terminate_episode(self, physics: Physics) -> bool:
        return self._terminated

    def get_discount(self, physics: Physics) -> float:
        return 0.0 if self._terminated else 1.0


def _center_of_mass(physics: Physics, walker: Walker) -> np.ndarray:
    """The walker's centre of mass (3,), world frame, metres: its root body's
    subtree centre of mass (the root is the top of the walker's tree)."""
    return np.array(physics.bind(walker.root_body).subtree_com, dtype=np.float64)
