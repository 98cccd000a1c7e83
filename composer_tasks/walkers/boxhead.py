"""BoxHead: the rolling, kicking ball-with-a-head walker of multi-agent soccer.

Authored here from the published facts of dm_control's soccer BoxHead (dm-control
1.0.50, `locomotion/soccer/boxhead.py` and `assets/boxhead/boxhead.xml`; Liu et al.
2019, "Emergent coordination through competition"). Every number below carries
over from there.

Body (names as dm_control's, so element names and observations match):

* `head_body`: the root body and egocentric frame (x forward, y left, z up), 1.0 m
  above the walker's origin and turned -90 degrees about z in the walker's frame.
  It holds the `head` box (half-sizes 0.2 x 0.2 x 0.1 m, 20 kg), a visual-only
  `top_down_cam_box` (group 5), the `torso_site` with the velocimeter
  (`sensor_torso_vel`), gyro (`sensor_torso_gyro`) and accelerometer
  (`sensor_torso_accel`), and the `steer` hinge (axis -z, damping 4 N m s/rad).
* `egocentric_camera` body, 0.4 m above the head: 1 kg, unit inertia, the
  `egocentric` camera (fovy 80 degrees, looking along the head's x axis) and the
  visual `eye_l`/`eye_r` cylinders; with `camera_control`, the `camera_yaw` and
  `camera_pitch` hinges (pitch in [-0.35, 0] rad) with velocity actuators and
  gravity compensation of the camera body.
* `torso`, 0.05 m above the head: the `kick` slide (axis -z, range [0, 0.4] m,
  damping 100 N s/m) and the `arm_l`/`arm_r` capsules (radius 0.1 m, density
  10 kg/m^3).
* `ball`, 0.7 m below the torso: the `roll` hinge (axis y, damping 2 N m s/rad) and
  the `shell` sphere (radius 0.35 m, density 100 kg/m^3), which touches the ground.

Contacts: every colliding geom has condim 4 and friction (0.5, 0.02, 0.02).
Actuators (controls in [-1, 1]): `roll` (gear `roll_gear`, default -60 N m),
`steer` (motor, gear `steer_gear`, default 55 N m), `kick` (gear 1200 N); with
`camera_control`, `camera_yaw` and `camera_pitch` (velocity servos, kv 1).
Degrees of freedom: the root's x, y, z slides (`create_root_joints`), steer, kick and
roll: 6 (8 with camera control); the body cannot pitch or roll.

Public API (besides `legacy_base.LegacyWalker`'s):

* `BoxHead(name="walker", marker_rgba=None, camera_control=False,
  camera_resolution=(28, 28), roll_gear=-60.0, steer_gear=55.0, walker_id=None,
  initializer=None)`.
* `create_root_joints(arena.attach(walker))`: the x, y, z slides (dm_control's
  root joints `root_x`, `root_y`, `root_z`). With the steer hinge they make the
  root pose, which `initialize_episode` leaves to the task (it zeroes the camera,
  kick and roll joints and `prev_action`).
* `set_pose(physics, position, quaternion)`: as dm_control's, the root slides (or
  the free joint of `add_free_entity`) take `position` (m); every joint of the body
  is zeroed; the yaw of `quaternion` is written into the steer hinge's angle as
  is (the steer axis points down, so the body turns by minus that yaw).
  `set_velocity(physics, velocity, angular_velocity)`: slide velocities and the
  z spin written into the steer hinge (m/s, rad/s). `get_pose`, `get_velocity`
  and `shift_pose` are `composer.Entity`'s, as in dm_control: with the root
  slides, `get_pose` is the attachment frame's pose, which the slides do not move.
* `observable_joints` (kick), `observable_camera_joints` (camera yaw, pitch or
  none), `end_effectors` (the head), `ground_contact_geoms` (the shell),
  `marker_geoms` (arms and eyes, and the head without `walker_id`).
* Observables (`BoxHeadObservables`): the legacy ones, `egocentric_camera` at
  `camera_resolution` (width, height), `camera_joints_pos` (sin then cos of the
  camera joints) and `camera_joints_vel`.
"""

from typing import Any, Optional, Sequence

import mujoco
import numpy as np
from numpy.typing import ArrayLike

from composer_tasks import composer
from composer_tasks.composer.observation import observable
from composer_tasks.physics import Physics
from composer_tasks.walkers import legacy_base

# dm_control boxhead.xml, in metres, kilograms and seconds.
_HEAD_HEIGHT_M = 1.0
_HEAD_HALF_SIZE_M = (0.2, 0.2, 0.1)
_HEAD_MASS_KG = 20.0
_HEAD_RGBA = (0.1, 0.1, 0.1, 1.0)
# The head is turned -90 degrees about z in the walker's frame (quat 1 0 0 -1).
_HEAD_QUAT = (np.sqrt(0.5), 0.0, 0.0, -np.sqrt(0.5))
_TOP_DOWN_BOX_POS_M = (0.0, 0.0, 2.0)
_TOP_DOWN_BOX_HALF_SIZE_M = (1.0, 1.0, 0.1)
_TOP_DOWN_BOX_GROUP = 5
_TORSO_SITE_RADIUS_M = 0.05
_STEER_DAMPING = 4.0
_CAMERA_BODY_POS_M = (0.0, 0.0, 0.4)
# The camera body's axes in the head's frame (xyaxes 0 -1 0 0 0 1): its -z (the
# viewing direction) is the head's +x.
_CAMERA_BODY_XYAXES = ((0.0, -1.0, 0.0), (0.0, 0.0, 1.0))
_CAMERA_BODY_MASS_KG = 1.0
_CAMERA_BODY_INERTIA_KG_M2 = (1.0, 1.0, 1.0)
_CAMERA_PITCH_RANGE_RAD = (-0.35, 0.0)
_EGOCENTRIC_FOVY_DEG = 80.0
_EYE_SIZE_M = (0.06, 0.2)  # Cylinder radius, half-length.
_EYE_POS_M = {"eye_l": (-0.14, -0.4, -0.171), "eye_r": (0.14, -0.4, -0.171)}
_EYE_RGBA = (1.0, 1.0, 1.0, 1.0)
_TORSO_POS_M = (0.0, 0.0, 0.05)
_KICK_RANGE_M = (0.0, 0.4)
_KICK_DAMPING = 100.0
_KICK_SPRINGREF_M = -0.4
_KICK_SOLIMP_LIMIT = (0.95, 0.99, 0.001, 0.5, 2.0)
_ARM_RADIUS_M = 0.1
_ARM_DENSITY = 10.0
_ARM_RGBA = (0.76, 0.76, 0.76, 1.0)
_ARM_FROMTO_M = {
    "arm_l": (0.0, 0.35, -0.7, 0.03, 0.8, -0.7),
    "arm_r": (0.0, -0.35, -0.7, 0.03, -0.8, -0.7),
}
_BALL_POS_M = (0.0, 0.0, -0.7)
_ROLL_DAMPING = 2.0
_SHELL_RADIUS_M = 0.35
_SHELL_DENSITY = 100.0
_CONDIM = 4
_FRICTION = (0.5, 0.02, 0.02)
_KICK_GEAR = 1200.0
_CAMERA_KV = 1.0
# dm_control BoxHead._build defaults (they override the XML's roll gear of -30).
DEFAULT_ROLL_GEAR = -60.0
DEFAULT_STEER_GEAR = 55.0
DEFAULT_CAMERA_RESOLUTION = (28, 28)
# Shell checker texture: the marker colour (or grey) against light grey, 100 px.
_SHELL_DEFAULT_RGB = (0.4, 0.4, 0.4)
_SHELL_CHECKER_RGB = (0.8, 0.8, 0.8)
_SHELL_TEXTURE_PX = 100
# Cameras of the published model besides the egocentric one.
_FLOAT_FAR_POS_M = (-4.0, 0.0, 2.0)
_FLOAT_FAR_XYAXES = ((0.0, -1.0, 0.0), (0.5, 0.0, 1.0))
_FLOAT_FAR_FOVY_DEG = 90.0
_TRACKING_POS_M = (1.5, 1.5, 0.7)
_TRACKING_XYAXES = ((-1.0, 1.0, 0.0), (-1.0, -1.0, 4.0))
MAX_WALKER_ID = 10
# dm_control's message for an out-of-range walker_id (its tests match it literally).
_INVALID_WALKER_ID = f"walker_id must be in [0-{MAX_WALKER_ID}], got: {{}}."
# The number on the head: a seven-segment rendering authored here (dm_control
# ships digit images), white on the marker colour.
_DIGIT_TEXTURE_PX = 64
_DIGIT_RGB = (1.0, 1.0, 1.0)

_GEOM = mujoco.mjtGeom
_JOINT = mujoco.mjtJoint
_SENSOR = mujoco.mjtSensor
_LIMITED = mujoco.mjtLimited.mjLIMITED_TRUE
_UNLIMITED = mujoco.mjtLimited.mjLIMITED_FALSE


def _xyaxes_quaternion(x_axis: ArrayLike, y_axis: ArrayLike) -> np.ndarray:
    """The unit quaternion of a frame given by its x and y axes (MuJoCo's `xyaxes`:
    y is made orthogonal to x, z = x cross y)."""
    x = np.asarray(x_axis, dtype=np.float64)
    x = x / np.linalg.norm(x)
    y = np.asarray(y_axis, dtype=np.float64)
    y = y - np.dot(x, y) * x
    y = y / np.linalg.norm(y)
    rotation = np.stack([x, y, np.cross(x, y)], axis=1)
    quaternion = np.empty(4)
    mujoco.mju_mat2Quat(quaternion, rotation.reshape(-1))
    return quaternion


def _check_rgba(marker_rgba: ArrayLike | None) -> Optional[np.ndarray]:
    if marker_rgba is None:
        return None
    rgba = np.asarray(marker_rgba, dtype=np.float64)
    if rgba.shape != (4,) or not np.all((rgba >= 0.0) & (rgba <= 1.0)):
        raise ValueError(f"marker_rgba must be 4 values in [0, 1] (RGBA), got {marker_rgba!r}")
    return rgba


# Seven-segment layout: segment -> (row0, col0, row1, col1) in a 9 x 5 cell grid.
_SEGMENTS = {
    "a": (0, 0, 1, 5),
    "b": (0, 4, 5, 5),
    "c": (4, 4, 9, 5),
    "d": (8, 0, 9, 5),
    "e": (4, 0, 9, 1),
    "f": (0, 0, 5, 1),
    "g": (4, 0, 5, 5),
}
_DIGIT_SEGMENTS = (
    "abcdef",
    "bc",
    "abdeg",
    "abcdg",
    "bcfg",
    "acdfg",
    "acdefg",
    "abc",
    "abcdefg",
    "abcdfg",
)


def digit_texture(number: int, background_rgb: Sequence[float]) -> np.ndarray:
    """A (64, 64, 3) uint8 image of `number` (0 to 10) in white seven-segment digits
    on `background_rgb` (values in [0, 1]): the head texture of `walker_id`."""
    size = _DIGIT_TEXTURE_PX
    image = np.empty((size, size, 3))
    image[...] = background_rgb
    digits = str(number)
    # Each digit is a 9 x 5 cell glyph; glyphs are one cell apart and centred.
    cell = size // (2 + 9) if len(digits) == 1 else size // (2 + 11)
    width = cell * (5 * len(digits) + (len(digits) - 1))
    left = (size - width) // 2
    top = (size - 9 * cell) // 2
    for index, digit in enumerate(digits):
        origin = left + index * 6 * cell
        for segment in _DIGIT_SEGMENTS[int(digit)]:
            row0, col0, row1, col1 = _SEGMENTS[segment]
            image[
                top + row0 * cell : top + row1 * cell, origin + col0 * cell : origin + col1 * cell
            ] = _DIGIT_RGB
    return np.round(image * 255.0).astype(np.uint8)


class BoxHeadObservables(legacy_base.LegacyWalkerObservables):
    """The legacy walker observables with the camera's resolution and joints."""

    @composer.observable
    def egocentric_camera(self) -> observable.Observable:
        """RGB image (height, width, 3) uint8 from the head's camera, at the walker's
        `camera_resolution` (width, height)."""
        width, height = self._entity.camera_resolution
        return observable.MJCFCamera(self._entity._egocentric_camera, height=height, width=width)

    @composer.observable
    def camera_joints_pos(self) -> observable.Observable:
        """sin then cos of the camera joints' angles, (2 * n_camera_joints,): (0,)
        without camera control."""
        joints = list(self._entity._camera_joints)
        if not joints:
            return observable.Generic(lambda physics: np.zeros(0))

        def sin_cos(physics: Physics) -> np.ndarray:
            angles = np.asarray(physics.bind(joints).qpos, dtype=np.float64)
            return np.concatenate([np.sin(angles), np.cos(angles)])

        return observable.Generic(sin_cos)

    @composer.observable
    def camera_joints_vel(self) -> observable.Observable:
        """Angular velocities of the camera joints (rad/s), (n_camera_joints,)."""
        joints = list(self._entity._camera_joints)
        if not joints:
            return observable.Generic(lambda physics: np.zeros(0))
        return observable.MJCFFeature("qvel", joints)

    @property
    def proprioception(self) -> list[observable.Observable]:
        groups = super().proprioception
        if self._entity._camera_joints:
            groups = groups + [self.camera_joints_pos, self.camera_joints_vel]
        return groups


class BoxHead(legacy_base.LegacyWalker):
    """A ball that rolls, steers and kicks, with a head that carries its camera.

    Args:
      name: the entity's name (its prefix in the model).
      marker_rgba: RGBA in [0, 1] of the marker geoms (arms, eyes and, without
        `walker_id`, the head) and the checker colour of the shell: the team
        colour. None keeps the published colours.
      camera_control: adds the camera yaw and pitch joints and actuators.
      camera_resolution: (width, height) in pixels of `egocentric_camera`.
      roll_gear: gear of the roll actuator (N m per unit control; negative rolls
        forward).
      steer_gear: gear of the steer motor (N m per unit control).
      walker_id: None, or an integer in [0, 10] shown on the head.
      initializer: None, a pose initializer (`initialize_pose(physics, walker,
        random_state)`) or a sequence of them (`add_initializer`).

    Raises:
      ValueError, TypeError: for arguments outside those ranges and types.
    """

    mjcf_file_site_sizes = True  # an MJCF file in dm_control (base.Walker)

    def _build(
        self,
        name: str = "walker",
        marker_rgba: ArrayLike | None = None,
        camera_control: bool = False,
        camera_resolution: Sequence[int] = DEFAULT_CAMERA_RESOLUTION,
        roll_gear: float = DEFAULT_ROLL_GEAR,
        steer_gear: float = DEFAULT_STEER_GEAR,
        walker_id: Optional[int] = None,
        initializer: Any = None,
    ) -> None:
        if not isinstance(name, str) or not name or "/" in name:
            raise ValueError(f"name must be a non-empty string without '/', got {name!r}")
        rgba = _check_rgba(marker_rgba)
        if not isinstance(camera_control, bool):
            raise TypeError(f"camera_control must be a bool, got {camera_control!r}")
        resolution = (
            tuple(camera_resolution) if isinstance(camera_resolution, (tuple, list)) else ()
        )
        if len(resolution) != 2 or not all(
            isinstance(value, (int, np.integer)) and not isinstance(value, bool) and value > 0
            for value in resolution
        ):
            raise ValueError(
                f"camera_resolution must be (width, height), two positive ints, got "
                f"{camera_resolution!r}"
            )
        for label, gear in (("roll_gear", roll_gear), ("steer_gear", steer_gear)):
            if (
                isinstance(gear, bool)
                or not isinstance(gear, (int, float, np.number))
                or not np.isfinite(gear)
            ):
                raise ValueError(f"{label} must be a finite number, got {gear!r}")
        if walker_id is not None and (
            isinstance(walker_id, bool) or not isinstance(walker_id, (int, np.integer))
        ):
            raise ValueError(
                f"walker_id must be None or an int in [0, {MAX_WALKER_ID}], got {walker_id!r}"
            )
        if walker_id is not None and not 0 <= walker_id <= MAX_WALKER_ID:
            raise ValueError(_INVALID_WALKER_ID.format(walker_id))
        self._camera_control = camera_control
        self._camera_resolution = (int(resolution[0]), int(resolution[1]))
        self._walker_id = None if walker_id is None else int(walker_id)

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
        float_far = head.add_camera(
            name="float_far",
            pos=list(_FLOAT_FAR_POS_M),
            quat=list(_xyaxes_quaternion(*_FLOAT_FAR_XYAXES)),
            fovy=_FLOAT_FAR_FOVY_DEG,
        )
        camera_body = head.add_body(
            name="egocentric_camera",
            pos=list(_CAMERA_BODY_POS_M),
            quat=list(_xyaxes_quaternion(*_CAMERA_BODY_XYAXES)),
        )
        camera_body.explicitinertial = True
        # The inertial frame is the body's own (MjSpec would otherwise place it at
        # the body's pose in its parent).
        camera_body.ipos = [0.0, 0.0, 0.0]
        camera_body.iquat = [1.0, 0.0, 0.0, 0.0]
        camera_body.mass = _CAMERA_BODY_MASS_KG
        camera_body.inertia = list(_CAMERA_BODY_INERTIA_KG_M2)
        camera_joints = []
        if camera_control:
            camera_joints.append(
                camera_body.add_joint(
                    name="camera_yaw",
                    type=_JOINT.mjJNT_HINGE,
                    axis=[0.0, 1.0, 0.0],
                    limited=_UNLIMITED,
                )
            )
            camera_joints.append(
                camera_body.add_joint(
                    name="camera_pitch",
                    type=_JOINT.mjJNT_HINGE,
                    axis=[1.0, 0.0, 0.0],
                    limited=_LIMITED,
                    range=list(_CAMERA_PITCH_RANGE_RAD),
                )
            )
        eyes = [
            camera_body.add_geom(
                name=eye,
                type=_GEOM.mjGEOM_CYLINDER,
                pos=list(position),
                size=[*_EYE_SIZE_M, 0.0],
                rgba=list(_EYE_RGBA),
                mass=0.0,
                contype=0,
                conaffinity=0,
            )
            for eye, position in _EYE_POS_M.items()
        ]
        egocentric = camera_body.add_camera(name="egocentric", fovy=_EGOCENTRIC_FOVY_DEG)
        tracking = head.add_camera(
            name="tracking",
            pos=list(_TRACKING_POS_M),
            quat=list(_xyaxes_quaternion(*_TRACKING_XYAXES)),
            mode=mujoco.mjtCamLight.mjCAMLIGHT_TRACKCOM,
        )
        steer = head.add_joint(
            name="steer",
            type=_JOINT.mjJNT_HINGE,
            axis=[0.0, 0.0, -1.0],
            limited=_UNLIMITED,
            damping=_STEER_DAMPING,
        )
        top_down_box = head.add_geom(
            name="top_down_cam_box",
            type=_GEOM.mjGEOM_BOX,
            group=_TOP_DOWN_BOX_GROUP,
            pos=list(_TOP_DOWN_BOX_POS_M),
            size=list(_TOP_DOWN_BOX_HALF_SIZE_M),
            rgba=list(_HEAD_RGBA),
            mass=0.0,
            contype=0,
            conaffinity=0,
        )
        head_geom = head.add_geom(
            name="head",
            type=_GEOM.mjGEOM_BOX,
            size=list(_HEAD_HALF_SIZE_M),
            rgba=list(_HEAD_RGBA),
            mass=_HEAD_MASS_KG,
        )
        head.add_site(
            name="torso_site",
            size=[_TORSO_SITE_RADIUS_M, 0.0, 0.0],
            rgba=[1.0, 0.0, 0.0, 1.0],
            group=4,
        )
        torso = head.add_body(name="torso", pos=list(_TORSO_POS_M))
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
        arms = [
            torso.add_geom(
                name=arm,
                type=_GEOM.mjGEOM_CAPSULE,
                fromto=list(fromto),
                size=[_ARM_RADIUS_M, 0.0, 0.0],
                rgba=list(_ARM_RGBA),
                density=_ARM_DENSITY,
            )
            for arm, fromto in _ARM_FROMTO_M.items()
        ]
        ball = torso.add_body(name="ball", pos=list(_BALL_POS_M))
        roll = ball.add_joint(
            name="roll",
            type=_JOINT.mjJNT_HINGE,
            axis=[0.0, 1.0, 0.0],
            limited=_UNLIMITED,
            damping=_ROLL_DAMPING,
        )
        shell = ball.add_geom(
            name="shell",
            type=_GEOM.mjGEOM_SPHERE,
            size=[_SHELL_RADIUS_M, 0.0, 0.0],
            density=_SHELL_DENSITY,
        )

        velocimeter, gyro, accelerometer = add_sensors_and_actuators(
            spec, float(roll_gear), float(steer_gear), _KICK_GEAR, camera_joints
        )

        # dm_control's order: the head's texture and material, then the shell's.
        if self._walker_id is not None:
            background = _HEAD_RGBA[:3] if rgba is None else tuple(rgba[:3].tolist())
            image = digit_texture(self._walker_id, background)
            texture = spec.add_texture(
                name="head_texture",
                type=mujoco.mjtTexture.mjTEXTURE_2D,
                width=image.shape[1],
                height=image.shape[0],
                nchannel=3,
            )
            texture.data = image.tobytes()
            head_material = spec.add_material(name="head_material")
            head_material.textures[mujoco.mjtTextureRole.mjTEXROLE_RGB] = "head_texture"
            # A textured geom shows its material's colour (white) times the texture.
            for geom in (head_geom, top_down_box):
                geom.material = "head_material"
                geom.rgba = [0.5, 0.5, 0.5, 1.0]
        shell_rgb = _SHELL_DEFAULT_RGB if rgba is None else tuple(rgba[:3])
        spec.add_texture(
            name="ball_body",
            type=mujoco.mjtTexture.mjTEXTURE_CUBE,
            builtin=mujoco.mjtBuiltin.mjBUILTIN_CHECKER,
            rgb1=list(shell_rgb),
            rgb2=list(_SHELL_CHECKER_RGB),
            width=_SHELL_TEXTURE_PX,
            height=_SHELL_TEXTURE_PX,
        )
        shell_material = spec.add_material(name="ball_body")
        shell_material.textures[mujoco.mjtTextureRole.mjTEXROLE_RGB] = "ball_body"
        shell.material = "ball_body"
        marker_geoms = arms + eyes + ([head_geom] if self._walker_id is None else [])
        if rgba is not None:
            for geom in marker_geoms:
                geom.rgba = list(rgba)

        self._spec = spec
        self._camera_body = camera_body
        self._camera_joints = tuple(camera_joints)
        self._steer = steer
        self._body_joints = (steer, *camera_joints, kick, roll)
        self._root_joints = None
        # The steer hinge holds the walker's heading, part of its root pose (which the
        # task sets): `initialize_episode` resets the other joints only.
        pose_joints = (*camera_joints, kick, roll)
        self._set_parts(
            root_body=head,
            observable_joints=[kick],
            pose_joints=pose_joints,
            initial_qpos=np.zeros(len(pose_joints)),
            standing_height=_HEAD_HEIGHT_M,
            end_effectors=[head],
            egocentric_camera=egocentric,
            root_sensors=(velocimeter, accelerometer, gyro),
            touch_sensors=(),
            torque_sensors=(),
            ground_contact_geoms=[shell],
            # dm_control's BoxHead has these two, and no other.
            tracking_cameras=(float_far, tracking),
        )
        self._init_legacy(marker_geoms=marker_geoms, initializer=initializer)

    def _build_observables(self) -> "BoxHeadObservables":
        return BoxHeadObservables(self)

    @property
    def camera_resolution(self) -> tuple:
        """(width, height) in pixels of the `egocentric_camera` observable."""
        return self._camera_resolution

    @property
    def camera_control(self) -> bool:
        return self._camera_control

    @property
    def walker_id(self) -> Optional[int]:
        return self._walker_id

    @property
    def observable_camera_joints(self) -> tuple:
        """(camera_yaw, camera_pitch) with camera control, else ()."""
        return self._handles(self._camera_joints)

    @property
    def root_joints(self) -> Optional[tuple]:
        """The (x, y, z) slides `create_root_joints` made, or None before."""
        return None if self._root_joints is None else self._handles(self._root_joints)

    # Root joints and poses.

    def create_root_joints(self, attachment_frame: Any) -> None:
        """dm_control's BoxHead root joints: slides along world x, y and z on the
        frame `arena.attach(walker)` returned, named `<prefix>root_x/` etc. (as
        PyMJCF names an attachment frame's joints).

        Raises:
          ValueError: if `attachment_frame` is not this walker's attachment frame,
            the walker hangs from another body than the world, or it has root
            joints already.
        """
        body = self._root_joint_body(attachment_frame)
        if self._root_joints is not None or body.joints:
            raise ValueError(f"walker {self.name!r} already has root joints")
        self._root_joints = tuple(
            body.add_joint(
                # PyMJCF's name of a named joint of an attachment frame: "walker/root_x/".
                name=f"{body.name}root_{axis_name}/",
                type=_JOINT.mjJNT_SLIDE,
                axis=list(axis),
                limited=_UNLIMITED,
            )
            for axis_name, axis in zip("xyz", np.eye(3))
        )
        composer.mark_spec_changed()

    def set_pose(
        self,
        physics: Physics,
        position: ArrayLike | None = None,
        quaternion: ArrayLike | None = None,
    ) -> None:
        """Places the walker as dm_control's BoxHead does.

        `position` (m) goes into the root slides of `create_root_joints` as given
        (relative to the attachment frame), or, for a walker added with
        `add_free_entity`, into its free joint (`Entity.set_pose`). Every joint of
        the body (steer, camera, kick, roll) is then zeroed, and the steer hinge
        takes the yaw of `quaternion` (w-x-y-z; its pitch and roll are dropped),
        written as dm_control writes it: the steer angle equals the yaw, although
        the steer axis points down, so the body turns by minus the yaw.

        Raises:
          ValueError: for a position not 3 finite values or a quaternion not 4.
        """
        if position is not None:
            position = _finite_vector(position, 3, "position")
            if self._root_joints is not None:
                physics.bind(list(self._root_joints)).qpos = position
            else:
                super().set_pose(physics, position, quaternion=None)
        physics.bind(list(self._body_joints)).qpos = np.zeros(len(self._body_joints))
        if quaternion is not None:
            w, x, y, z = _finite_vector(quaternion, 4, "quaternion")
            # dm_control's BoxHead.set_pose: the yaw of an unnormalised quaternion.
            yaw = np.arctan2(2.0 * (w * z + x * y), 1.0 - 2.0 * (y * y + z * z))
            physics.bind(self._steer).qpos = np.array([yaw])

    def set_velocity(
        self,
        physics: Physics,
        velocity: ArrayLike | None = None,
        angular_velocity: ArrayLike | float | None = None,
    ) -> None:
        """Sets velocities as dm_control's BoxHead does: `velocity` (m/s, (3,), or one
        number for all three) into the root slides of `create_root_joints` (ignored
        for a walker without them, a free entity included), and the z component of `angular_velocity` ((3,), or
        a float taken as that component) into the steer hinge's velocity as given.

        Raises:
          ValueError: for a velocity not 3 finite values, or an angular velocity
            neither a finite float nor 3 finite values.
        """
        if velocity is not None:
            if np.ndim(velocity) == 0:
                # dm_control's binding assignment fills every slide with one number.
                velocity = np.full(3, velocity, dtype=np.float64)
            velocity = _finite_vector(velocity, 3, "velocity")
            if self._root_joints is not None:
                physics.bind(list(self._root_joints)).qvel = velocity
        if angular_velocity is not None:
            if isinstance(angular_velocity, float):
                if not np.isfinite(angular_velocity):
                    raise ValueError(
                        f"angular_velocity must be finite (rad/s), got {angular_velocity!r}"
                    )
                spin = angular_velocity
            else:
                spin = _finite_vector(angular_velocity, 3, "angular_velocity")[2]
            physics.bind(self._steer).qvel = np.array([spin])

    # Episode.

    def initialize_episode(self, physics: Physics, random_state: np.random.RandomState) -> None:
        """The initial pose and zero `prev_action`; with camera control, gravity on
        the camera body is cancelled by an applied force (dm_control's
        `_compensate_gravity`)."""
        super().initialize_episode(physics, random_state)
        if self._camera_control:
            camera = physics.bind(self._camera_body)
            force = np.zeros(6)
            force[:3] = -np.asarray(physics.model.opt.gravity) * np.asarray(camera.mass).item()
            camera.xfrc_applied = force


def add_sensors_and_actuators(
    spec: mujoco.MjSpec,
    roll_gear: float,
    steer_gear: float,
    kick_gear: float | None,
    camera_joints: Sequence[Any],
) -> tuple[Any, Any, Any]:
    """The BoxHead family's sensors and actuators, in dm_control's order (BoxHead and
    the jumping balls share them): the velocimeter, gyro and accelerometer at
    `torso_site`, then the roll and steer motors,
    the kick (none when `kick_gear` is None) and a velocity servo per camera joint.

    Returns:
      (velocimeter, gyro, accelerometer), the root sensors.
    """
    site = dict(objtype=mujoco.mjtObj.mjOBJ_SITE, objname="torso_site")
    velocimeter = spec.add_sensor(name="sensor_torso_vel", type=_SENSOR.mjSENS_VELOCIMETER, **site)
    gyro = spec.add_sensor(name="sensor_torso_gyro", type=_SENSOR.mjSENS_GYRO, **site)
    accelerometer = spec.add_sensor(
        name="sensor_torso_accel", type=_SENSOR.mjSENS_ACCELEROMETER, **site
    )
    affine = mujoco.mjtBias.mjBIAS_AFFINE
    control = dict(trntype=mujoco.mjtTrn.mjTRN_JOINT, ctrllimited=_LIMITED, ctrlrange=[-1.0, 1.0])
    spec.add_actuator(
        name="roll", target="roll", gear=[roll_gear, 0, 0, 0, 0, 0], biastype=affine, **control
    )
    spec.add_actuator(name="steer", target="steer", gear=[steer_gear, 0, 0, 0, 0, 0], **control)
    if kick_gear is not None:
        spec.add_actuator(
            name="kick", target="kick", gear=[kick_gear, 0, 0, 0, 0, 0], biastype=affine, **control
        )
    for joint in camera_joints:
        actuator = spec.add_actuator(name=joint.name, target=joint.name, **control)
        actuator.set_to_velocity(kv=_CAMERA_KV)
    return velocimeter, gyro, accelerometer


def _finite_vector(value: ArrayLike, size: int, name: str) -> np.ndarray:
    array = np.asarray(value, dtype=np.float64)
    if array.shape != (size,) or not np.all(np.isfinite(array)):
        raise ValueError(f"{name} must be {size} finite values, got {value!r}")
    return array
