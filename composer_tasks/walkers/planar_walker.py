"""PlanarWalker: the Control Suite walker's body as a walker confined to a plane.

Heess et al. 2017 ("Emergence of Locomotion Behaviours in Rich Environments", §3)
use a planar walker with 9 degrees of freedom and 6 torque-actuated joints. This is
the Control Suite walker (`mjcf_models.walker`, built by that module and reused
here): a torso on two legs of thigh, leg and foot, with root joints rootz (slide),
rootx (slide) and rooty (hinge) that confine it to the x-z plane of its attachment
frame, and motors of gear 100 (hips), 50 (knees), 20 (ankles) N m per unit control.

Frames and units: the walker's plane is the x-z plane of its attachment body
(attach it with `arena.attach(walker)`); the torso's frame is the egocentric frame
(x forward, z up). In the initial pose the legs are straight and the feet rest on
the plane z = 0 of the walker's frame, the torso 1.3 m above it.
"""

import mujoco
import numpy as np
from numpy.typing import ArrayLike

from composer_tasks import mjcf
from composer_tasks.physics import Binding, Physics
from composer_tasks.walkers import base
from mjcf_models import walker as walker_model

_ROOT_JOINTS = ("rootz", "rootx", "rooty")
_LEG_JOINTS = ("right_hip", "right_knee", "right_ankle", "left_hip", "left_knee", "left_ankle")
_FEET = ("right_foot", "left_foot")
# Foot capsules (suite walker): radius 0.05 m, half-length 0.1 m along the foot's x.
_FOOT_RADIUS_M = 0.05
_FOOT_HALF_LENGTH_M = 0.1
# Touch sites enclose the foot capsules with this much room (m) so contact points,
# which lie between the surfaces in contact, fall inside them.
_TOUCH_MARGIN_M = 0.01
# Tolerance for a pose or velocity to count as lying in the walker's plane.
_PLANAR_TOLERANCE = 1e-9


class PlanarWalker(base.Walker):
    """The Control Suite walker's body as a walker moving in the x-z plane.

    Args:
      name: the entity's name (its prefix in the model).

    Pose: `set_pose`/`get_pose` move the walker's frame, whose origin lies 1.3 m
    below the torso's centre (on the ground under the feet in the initial pose) and
    which pitches with the torso. They write the root joints; a position off the
    plane moves the plane itself (the attachment body's y, a model change that needs
    no recompilation). Orientations must be rotations about the plane's normal (y).
    """

    is_planar = True

    def _build(self, name: str = "walker") -> None:
        spec = walker_model.make_spec()
        spec.modelname = name
        base.strip_world(spec)
        torso = spec.body("torso")
        _, root_sensors = base.add_root_sensors(spec, torso, com_velocity=False)
        camera = torso.add_camera(
            name="egocentric",
            pos=[0.08, 0.0, 0.25],
            xyaxes=[0.0, -1.0, 0.0, 0.0, 0.0, 1.0],
            fovy=80.0,
        )
        touch_sensors = [
            base.add_touch_sensor(
                spec,
                spec.body(foot),
                f"{foot}_touch",
                type=mujoco.mjtGeom.mjGEOM_CAPSULE,
                size=[_FOOT_RADIUS_M + _TOUCH_MARGIN_M, _FOOT_HALF_LENGTH_M, 0.0],
                zaxis=[1.0, 0.0, 0.0],
            )
            for foot in _FEET
        ]
        self._spec = spec
        self._root_joints = tuple(spec.joint(name) for name in _ROOT_JOINTS)
        leg_joints = [spec.joint(joint) for joint in _LEG_JOINTS]
        self._set_parts(
            root_body=torso,
            observable_joints=leg_joints,
            pose_joints=leg_joints,
            initial_qpos=np.zeros(len(leg_joints)),
            standing_height=torso.pos[2],
            end_effectors=[spec.body(foot) for foot in _FEET],
            egocentric_camera=camera,
            root_sensors=root_sensors,
            touch_sensors=touch_sensors,
            torque_sensors=(),
            ground_contact_geoms=[spec.geom(foot) for foot in _FEET],
        )

    @property
    def root_joints(self) -> tuple[mjcf.Element, ...]:
        """(rootz, rootx, rooty): slide along z, slide along x, hinge about y."""
        return self._handles(self._root_joints)

    # Pose and velocity through the root joints.

    def _attachment_frame(self, physics: Physics) -> tuple[Binding, np.ndarray, np.ndarray]:
        """World position and rotation matrix of the attachment body, read from the
        model (exact even before a forward pass)."""
        body = self.attachment_body
        if body is None:
            raise ValueError(
                f"walker {self.name!r} is not attached; attach it with arena.attach(walker)"
            )
        if body.parent.name != "world":
            raise ValueError(
                f"walker {self.name!r} must be attached to its arena's world body to be "
                f"posed; it hangs from body {body.parent.name!r}"
            )
        binding = physics.bind(body)
        rotation = np.empty(9)
        mujoco.mju_quat2Mat(rotation, np.asarray(binding.quat, dtype=np.float64))
        return binding, np.array(binding.pos, dtype=np.float64), rotation.reshape(3, 3)

    def _root_qpos(self, physics: Physics) -> list[np.ndarray]:
        return [physics.bind(joint).qpos for joint in self._root_joints]

    def _root_qvel(self, physics: Physics) -> list[np.ndarray]:
        return [physics.bind(joint).qvel for joint in self._root_joints]

    def get_pose(self, physics: Physics) -> tuple[np.ndarray, np.ndarray]:
        """(position (3,), quaternion (4,) w-x-y-z) of the walker's frame in the world."""
        _, origin, rotation = self._attachment_frame(physics)
        rootz, rootx, rooty = (float(value[0]) for value in self._root_qpos(physics))
        height = self._standing_height
        torso = np.array([rootx, 0.0, height + rootz])
        local = torso - _pitch_matrix(rooty) @ np.array([0.0, 0.0, height])
        attachment_quaternion = np.empty(4)
        mujoco.mju_mat2Quat(attachment_quaternion, rotation.reshape(-1))
        quaternion = np.empty(4)
        mujoco.mju_mulQuat(quaternion, attachment_quaternion, _pitch_quaternion(rooty))
        return origin + rotation @ local, quaternion

    def set_pose(
        self,
        physics: Physics,
        position: ArrayLike | None = None,
        quaternion: ArrayLike | None = None,
    ) -> None:
        """Places the walker's frame (metres, world frame; quaternion w-x-y-z).

        Raises:
          ValueError: if `quaternion` is not a rotation about the plane's normal.
        """
        position = _optional_vector(position, 3, "position")
        quaternion = _optional_vector(quaternion, 4, "quaternion")
        binding, origin, rotation = self._attachment_frame(physics)
        rootz, rootx, rooty = self._root_qpos(physics)
        if position is None:
            position = self.get_pose(physics)[0]
        pitch = float(rooty[0])
        if quaternion is not None:
            pitch = self._pitch_of(quaternion / np.linalg.norm(quaternion), rotation)
        local = rotation.T @ (position - origin)
        if local[1] != 0.0:
            origin = origin + rotation[:, 1] * local[1]
            binding.pos = origin
            local[1] = 0.0
        height = self._standing_height
        torso = local + _pitch_matrix(pitch) @ np.array([0.0, 0.0, height])
        rootx[0] = torso[0]
        rootz[0] = torso[2] - height
        rooty[0] = pitch

    def _pitch_of(self, quaternion: np.ndarray, attachment_rotation: np.ndarray) -> float:
        attachment_quaternion = np.empty(4)
        mujoco.mju_mat2Quat(attachment_quaternion, attachment_rotation.reshape(-1))
        inverse = np.empty(4)
        mujoco.mju_negQuat(inverse, attachment_quaternion)
        relative = np.empty(4)
        mujoco.mju_mulQuat(relative, inverse, quaternion)
        if abs(relative[1]) > 1e-6 or abs(relative[3]) > 1e-6:
            raise ValueError(
                f"the planar walker {self.name!r} can only turn about its plane's normal "
                f"(y); quaternion {quaternion} is not such a rotation"
            )
        return 2.0 * np.arctan2(relative[2], relative[0])

    def get_velocity(self, physics: Physics) -> tuple[np.ndarray, np.ndarray]:
        """(linear (3,), angular (3,)) velocity of the walker's frame origin in the
        world frame (m/s, rad/s)."""
        _, _, rotation = self._attachment_frame(physics)
        pitch = float(self._root_qpos(physics)[2][0])
        z_rate, x_rate, pitch_rate = (float(value[0]) for value in self._root_qvel(physics))
        angular = np.array([0.0, pitch_rate, 0.0])
        offset = -_pitch_matrix(pitch) @ np.array([0.0, 0.0, self._standing_height])
        linear = np.array([x_rate, 0.0, z_rate]) + np.cross(angular, offset)
        return rotation @ linear, rotation @ angular

    def set_velocity(
        self,
        physics: Physics,
        velocity: ArrayLike | None = None,
        angular_velocity: ArrayLike | None = None,
    ) -> None:
        """Sets the velocity of the walker's frame origin (world frame, m/s) and the
        angular velocity (rad/s); both must lie in / about the walker's plane."""
        velocity = _optional_vector(velocity, 3, "velocity")
        angular_velocity = _optional_vector(angular_velocity, 3, "angular_velocity")
        _, _, rotation = self._attachment_frame(physics)
        z_rate, x_rate, pitch_rate = self._root_qvel(physics)
        if angular_velocity is not None:
            local_angular = rotation.T @ angular_velocity
            if max(abs(local_angular[0]), abs(local_angular[2])) > _PLANAR_TOLERANCE:
                raise ValueError(
                    f"the planar walker {self.name!r} only turns about its plane's normal; "
                    f"angular_velocity {angular_velocity} has other components"
                )
            pitch_rate[0] = local_angular[1]
        if velocity is not None:
            local = rotation.T @ velocity
            if abs(local[1]) > _PLANAR_TOLERANCE:
                raise ValueError(
                    f"the planar walker {self.name!r} cannot move out of its plane; velocity "
                    f"{velocity} has a component {local[1]} along the plane's normal"
                )
            pitch = float(self._root_qpos(physics)[2][0])
            offset = -_pitch_matrix(pitch) @ np.array([0.0, 0.0, self._standing_height])
            torso = local - np.cross(np.array([0.0, float(pitch_rate[0]), 0.0]), offset)
            x_rate[0] = torso[0]
            z_rate[0] = torso[2]


def _pitch_matrix(angle: float) -> np.ndarray:
    """Rotation by `angle` (rad) about +y, the rooty axis."""
    cosine, sine = np.cos(angle), np.sin(angle)
    return np.array([[cosine, 0.0, sine], [0.0, 1.0, 0.0], [-sine, 0.0, cosine]])


def _pitch_quaternion(angle: float) -> np.ndarray:
    return np.array([np.cos(angle / 2), 0.0, np.sin(angle / 2), 0.0])


def _optional_vector(value: ArrayLike | None, size: int, name: str) -> np.ndarray | None:
    if value is None:
        return None
    array = np.asarray(value, dtype=np.float64)
    if array.shape != (size,) or not np.all(np.isfinite(array)):
        raise ValueError(f"{name} must be {size} finite numbers, got {value!r}")
    return array
