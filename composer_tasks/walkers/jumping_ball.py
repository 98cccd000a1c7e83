"""JumpingBallWithHead and RollingBallWithHead: a ball that rolls, steers and jumps,
under a cylindrical head that carries the camera (dm-control 1.0.50,
`locomotion/walkers/jumping_ball.py` and `assets/jumping_ball/jumping_ball_with_head.xml`,
whose sizes, masses, inertias, joint ranges, dampings, gears and sensor names are
the facts below; the model is authored here with MjSpec).

Bodies: `head_body` (the root, 0.6 m above the walker's origin, turned -90 degrees
about z so that its +y looks forward; 20 kg with its published inertia) carries the
head, face and neck cylinders, the `torso_site` with the velocimeter, gyro and
accelerometer, and the `egocentric_camera` body (1 kg, 0.9 m above the head). The
`torso` body hangs 0.4 m below on the `kick` slide (0 to 0.4 m down) and the
`roll` hinge, and holds the shell, a 0.2 m sphere of 1 kg.

Actuators (controls in [-1, 1]): `roll` (gear -50 N m), `steer` (motor, gear 30
N m), `kick` (gear 1000 N), and with `camera_control` the velocity servos
`camera_height` (slide, +-0.5 m) and `camera_tilt` (hinge, +-0.35 rad). The
rolling ball has no `kick`. The root joints are three world slides
(`create_root_joints`); the heading is the `steer` hinge, as for BoxHead, whose
pose API these walkers share (`set_pose`, `get_pose`, `set_velocity`, ...).

Differences: dm_control textures the shell with an image it ships; here the shell
carries a built-in grey checker cube texture. dm_control's jumping balls do not
track `prev_action` (theirs raises NotImplementedError); here, as a legacy walker,
they do, zeroed at each episode's start as BoxHead's.
"""

from typing import Any, Optional, Sequence

import mujoco
import numpy as np
from numpy.typing import ArrayLike

from composer_tasks import composer, mjcf
from composer_tasks.physics import Physics
from composer_tasks.walkers import base, boxhead, legacy_base

_JOINT = mujoco.mjtJoint
_GEOM = mujoco.mjtGeom
_LIMITED = mujoco.mjtLimited.mjLIMITED_TRUE
_UNLIMITED = mujoco.mjtLimited.mjLIMITED_FALSE

# Default contacts of every geom: condim 4 with these frictions.
_CONDIM = 4
_FRICTION = (0.5, 0.02, 0.02)
# head_body: 0.6 m up, quaternion (1, 0, 0, -1) (normalised), explicit inertia.
_HEAD_HEIGHT_M = 0.6
_HEAD_QUAT = tuple(np.array([1.0, 0.0, 0.0, -1.0]) / np.sqrt(2.0))
_HEAD_MASS_KG = 20.0
_HEAD_INERTIA_POS_M = (0.0, 0.0, -0.08)
_HEAD_INERTIA_QUAT = (0.05876879, 0.70466036, -0.05876879, 0.70466036)
_HEAD_INERTIA_KG_M2 = (0.14683229, 0.10987294, 0.10986016)
_STEER_DAMPING = 4.0
# The head's cylinders: (name, (radius, half-length) m, position m, z axis, rgba).
_GREY = (0.757, 0.757, 0.757, 1.0)
_GREEN = (0.0, 0.85, 0.5, 1.0)
_HEAD_CYLINDERS = (
    ("head", (0.1, 0.06), (0.0, 0.0, -0.07), None, _GREY),
    ("face", (0.05, 0.035), (0.0, 0.1, -0.07), (0.0, 1.0, 0.0), _GREEN),
    ("neck", (0.07, 0.02), (0.0, 0.0, -0.13), None, _GREEN),
)
_TORSO_SITE_RADIUS_M = 0.05
# The camera body, its joints (camera control) and camera.
_CAMERA_BODY_POS_M = (0.0, 0.15, 0.9)
_CAMERA_BODY_ZAXIS = (0.0, -0.99503719021, 0.09950371902)
_CAMERA_BODY_MASS_KG = 1.0
_CAMERA_BODY_INERTIA_KG_M2 = (1.0, 1.0, 1.0)
_CAMERA_HEIGHT_RANGE_M = (-0.5, 0.5)
# The published file gives this range as "-0.35 0.35" without `angle="radian"`, so
# MuJoCo reads degrees: +-0.35 degrees (dm_control's quirk, kept).
_CAMERA_TILT_RANGE_RAD = (np.deg2rad(-0.35), np.deg2rad(0.35))
_EGOCENTRIC_FOVY_DEG = 80.0
_TRACKING_POS_M = (1.5, 1.5, 0.7)
_TRACKING_XYAXES = ((-1.0, 1.0, 0.0), (-1.0, -1.0, 4.0))
# The torso (ball) below the head, its kick slide and roll hinge.
_TORSO_POS_M = (0.0, 0.0, -0.4)
_KICK_DAMPING = 100.0
_KICK_RANGE_M = (0.0, 0.4)
_KICK_SOLIMP_LIMIT = (0.95, 0.99, 0.001, 0.5, 2.0)
_KICK_SPRINGREF_M = -0.4
_ROLL_DAMPING = 2.0
_SHELL_RADIUS_M = 0.2
_SHELL_MASS_KG = 1.0
_SHELL_TEXTURE_PX = 64
# Actuator gears (N m or N per unit control).
_ROLL_GEAR = -50.0
_STEER_GEAR = 30.0
_KICK_GEAR = 1000.0
# add_ears: red (left, +x of the head) and blue spheres of radius 0.26 m.
_EAR_RADIUS_M = 0.26
_EARS = (((0.22, 0.0, 0.0), (0.7, 0.0, 0.0, 1.0)), ((-0.22, 0.0, 0.0), (0.0, 0.0, 0.7, 1.0)))
# The legacy egocentric camera image (dm_control's legacy walker observables).
_CAMERA_RESOLUTION = (base.EGOCENTRIC_CAMERA_PIXELS, base.EGOCENTRIC_CAMERA_PIXELS)


class JumpingBallWithHead(boxhead.BoxHead):
    """A ball that rolls, steers and jumps (kick slide), with a head and camera.

    Args:
      name: the entity's name (its prefix in the model).
      marker_rgba: RGBA in [0, 1] of the head (the walker's marker geom); None
        keeps the published grey.
      camera_control: adds the camera height slide and tilt hinge, each driven by
        a velocity servo.
      initializer: None, a pose initializer or a sequence of them.
      add_ears: adds a red sphere to the head's left and a blue one to its right
        (visual sites, for egocentric vision).
      camera_height: the camera body's height above the head (m), or None for the
        published 0.9 m.

    Raises:
      ValueError, TypeError: for arguments of the wrong type or range.
    """

    _has_kick = True

    def _build(  # type: ignore[override]
        self,
        name: str = "walker",
        marker_rgba: Any = None,
        camera_control: bool = False,
        initializer: Any = None,
        add_ears: bool = False,
        camera_height: Optional[float] = None,
    ) -> None:
        if not isinstance(name, str) or not name or "/" in name:
            raise ValueError(f"name must be a non-empty string without '/', got {name!r}")
        rgba = boxhead._check_rgba(marker_rgba)
        for label, flag in (("camera_control", camera_control), ("add_ears", add_ears)):
            if not isinstance(flag, bool):
                raise TypeError(f"{label} must be a bool, got {flag!r}")
        if camera_height is not None and (
            isinstance(camera_height, bool)
            or not isinstance(camera_height, (int, float, np.number))
            or not np.isfinite(camera_height)
        ):
            raise ValueError(
                f"camera_height must be None or a finite number (m), got {camera_height!r}"
            )
        self._camera_control = camera_control
        self._camera_resolution = _CAMERA_RESOLUTION
        self._walker_id = None

        spec = mujoco.MjSpec()
        spec.modelname = name
        spec.compiler.degree = False
        spec.default.geom.contype = 1
        spec.default.geom.conaffinity = 1
        spec.default.geom.condim = _CONDIM
        spec.default.geom.friction = list(_FRICTION)

        head = spec.worldbody.add_body(
            name="head_body", pos=[0.0, 0.0, _HEAD_HEIGHT_M], quat=list(_HEAD_QUAT)
        )
        camera_body = head.add_body(
            name="egocentric_camera",
            pos=list(_CAMERA_BODY_POS_M),
            quat=list(_zaxis_quaternion(_CAMERA_BODY_ZAXIS)),
        )
        if camera_height is not None:
            camera_body.pos[2] = float(camera_height)
        _set_inertia(
            camera_body, (0.0, 0.0, 0.0), None, _CAMERA_BODY_MASS_KG, _CAMERA_BODY_INERTIA_KG_M2
        )
        camera_joints = []
        if camera_control:
            camera_joints.append(
                camera_body.add_joint(
                    name="camera_height",
                    type=_JOINT.mjJNT_SLIDE,
                    axis=[0.0, 1.0, 0.0],
                    limited=_LIMITED,
                    range=list(_CAMERA_HEIGHT_RANGE_M),
                )
            )
            camera_joints.append(
                camera_body.add_joint(
                    name="camera_tilt",
                    type=_JOINT.mjJNT_HINGE,
                    axis=[1.0, 0.0, 0.0],
                    limited=_LIMITED,
                    range=list(_CAMERA_TILT_RANGE_RAD),
                )
            )
        egocentric = camera_body.add_camera(name="egocentric", fovy=_EGOCENTRIC_FOVY_DEG)
        tracking = head.add_camera(
            name="tracking",
            pos=list(_TRACKING_POS_M),
            quat=list(boxhead._xyaxes_quaternion(*_TRACKING_XYAXES)),
            mode=mujoco.mjtCamLight.mjCAMLIGHT_TRACKCOM,
        )
        steer = head.add_joint(
            name="steer",
            type=_JOINT.mjJNT_HINGE,
            axis=[0.0, 0.0, -1.0],
            limited=_UNLIMITED,
            armature=0.0,
            damping=_STEER_DAMPING,
            stiffness=[0.0, 0.0, 0.0],
        )
        _set_inertia(
            head, _HEAD_INERTIA_POS_M, _HEAD_INERTIA_QUAT, _HEAD_MASS_KG, _HEAD_INERTIA_KG_M2
        )
        geoms = {}
        for geom_name, size, position, zaxis, colour in _HEAD_CYLINDERS:
            geom = head.add_geom(
                name=geom_name,
                type=_GEOM.mjGEOM_CYLINDER,
                size=[*size, 0.0],
                pos=list(position),
                rgba=list(colour),
            )
            if zaxis is not None:
                geom.quat = list(_zaxis_quaternion(zaxis))
            geoms[geom_name] = geom
        head.add_site(
            name="torso_site",
            size=[_TORSO_SITE_RADIUS_M, 0.0, 0.0],
            rgba=[1.0, 0.0, 0.0, 1.0],
            group=4,
        )
        if add_ears:
            for position, colour in _EARS:
                head.add_site(
                    type=mujoco.mjtGeom.mjGEOM_SPHERE,
                    size=[_EAR_RADIUS_M, 0.0, 0.0],
                    pos=list(position),
                    rgba=list(colour),
                )
        torso = head.add_body(name="torso", pos=list(_TORSO_POS_M))
        kick = None
        if self._has_kick:
            kick = torso.add_joint(
                name="kick",
                type=_JOINT.mjJNT_SLIDE,
                axis=[0.0, 0.0, -1.0],
                limited=_LIMITED,
                range=list(_KICK_RANGE_M),
                damping=_KICK_DAMPING,
                springref=_KICK_SPRINGREF_M,
                solimp_limit=list(_KICK_SOLIMP_LIMIT),
            )
        roll = torso.add_joint(
            name="roll", type=_JOINT.mjJNT_HINGE, axis=[-1.0, 0.0, 0.0], damping=_ROLL_DAMPING
        )
        spec.add_texture(
            name="body",
            type=mujoco.mjtTexture.mjTEXTURE_CUBE,
            builtin=mujoco.mjtBuiltin.mjBUILTIN_CHECKER,
            rgb1=[0.757, 0.757, 0.757],
            rgb2=[0.3, 0.3, 0.3],
            width=_SHELL_TEXTURE_PX,
            height=_SHELL_TEXTURE_PX,
        )
        material = spec.add_material(name="body")
        material.textures[mujoco.mjtTextureRole.mjTEXROLE_RGB] = "body"
        shell = torso.add_geom(
            name="shell",
            type=_GEOM.mjGEOM_SPHERE,
            size=[_SHELL_RADIUS_M, 0.0, 0.0],
            material="body",
            mass=_SHELL_MASS_KG,
        )

        velocimeter, gyro, accelerometer = boxhead.add_sensors_and_actuators(
            spec, _ROLL_GEAR, _STEER_GEAR, None if kick is None else _KICK_GEAR, camera_joints
        )

        marker_geoms = [geoms["head"]]
        if rgba is not None:
            for geom in marker_geoms:
                geom.rgba = list(rgba)

        self._spec = spec
        self._camera_body = camera_body
        self._camera_joints = tuple(camera_joints)
        self._steer = steer
        body_joints = [joint for joint in (kick, roll) if joint is not None]
        self._body_joints = (*camera_joints, steer, *body_joints)
        self._root_joints = None
        pose_joints = (*camera_joints, *body_joints)
        self._set_parts(
            root_body=head,
            observable_joints=[kick] if kick is not None else [],
            pose_joints=pose_joints,
            initial_qpos=np.zeros(len(pose_joints)),
            standing_height=_HEAD_HEIGHT_M,
            end_effectors=[head],
            egocentric_camera=egocentric,
            root_sensors=(velocimeter, accelerometer, gyro),
            touch_sensors=(),
            torque_sensors=(),
            ground_contact_geoms=[shell],
            # dm_control's ball has this one camera that follows it, and no others.
            tracking_cameras=(tracking,),
        )
        self._init_legacy(marker_geoms=marker_geoms, initializer=initializer)

    def _build_observables(self) -> legacy_base.LegacyWalkerObservables:
        # dm_control's jumping ball has the legacy walker observables only.
        return legacy_base.LegacyWalkerObservables(self)

    def set_velocity(
        self,
        physics: Physics,
        velocity: ArrayLike | None = None,
        angular_velocity: ArrayLike | None = None,
    ) -> None:
        """dm_control's jumping ball is not a BoxHead: it keeps the entity's
        `set_velocity` (the free joint's qvel: `velocity` (m/s) and `angular_velocity`
        (rad/s) as given; a walker without a free joint is left alone, logged), where
        BoxHead writes its root slides and steer hinge."""
        composer.Entity.set_velocity(self, physics, velocity, angular_velocity)

    @property
    def observable_camera_joints(self) -> tuple:
        """(camera_height, camera_tilt) with camera control, else ()."""
        return self._handles(self._camera_joints)

    @property
    def egocentric_camera(self) -> mjcf.Element:
        return self._handle(self._egocentric_camera)


class RollingBallWithHead(JumpingBallWithHead):
    """`JumpingBallWithHead` without the kick slide and its actuator: it rolls and
    steers only, and has no observable joints."""

    _has_kick = False


def _zaxis_quaternion(zaxis: Sequence[float]) -> np.ndarray:
    """The quaternion of MuJoCo's `zaxis` orientation: the shortest rotation that
    takes (0, 0, 1) onto `zaxis`."""
    quaternion = np.empty(4)
    mujoco.mju_quatZ2Vec(quaternion, np.asarray(zaxis, dtype=np.float64))
    return quaternion


def _set_inertia(
    body: mujoco.MjsBody,
    position: Sequence[float],
    quaternion: Optional[Sequence[float]],
    mass: float,
    diagonal_inertia: Sequence[float],
) -> None:
    """An explicit inertial frame (at `position`, turned by `quaternion`) with the
    given mass (kg) and principal moments (kg m^2)."""
    body.explicitinertial = True
    body.ipos = list(position)
    body.iquat = [1.0, 0.0, 0.0, 0.0] if quaternion is None else list(quaternion)
    body.mass = mass
    body.inertia = list(diagonal_inertia)
