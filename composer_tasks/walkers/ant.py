"""Ant: dm_control's quadruped "Ant" walker, as its soccer matches use it.

Authored from the published facts of dm_control's `walkers.Ant` (dm-control 1.0.50,
`locomotion/walkers/ant.py` with `third_party/ant/ant.xml`, after Schulman et al.
2015); numbers carry over from there. This project's `Quadruped` is an ant-like
body of its own design (other body names, touch and rangefinder sensors, foot
geometry) for Heess et al. 2017's tasks, so the soccer Ant is this separate,
faithful model.

Body (names as dm_control's): a `torso` sphere (radius 0.25 m, density 100
kg/m^3) whose origin is 0.522 m above the walker's origin; four legs at 45 degrees
(front_left, front_right, back_right, back_left), each a fixed `<leg>_aux_geom`
segment, an `<leg>_aux` body with the `<leg>_hip` hinge (about z, +-0.52359 rad)
and the `<leg>_leg_geom` thigh, and a `<leg>_foot` body drooping about 51 degrees
with the `<leg>_ankle` hinge (+-0.34906 rad) and the `<leg>_ankle_geom` foot. All
capsules have radius 0.08 m and density 50 kg/m^3; contacts friction (1, 0.5,
0.5), solref (0.02, 1), solimp (0, 0.8, 0.01); joints armature 1, damping 1,
stiffness 1, limits solref (0.04, 1), solimp (0, 0.8, 0.03). The torso does not
collide with the thighs. Eight motors (gear 75 N m, controls in [-1, 1]) in the
order hip, ankle per leg; 9 touch sensors (torso and each thigh and foot), the
torso's velocimeter, gyro and accelerometer, and 8 horizontal rangefinders.

Public API (besides `legacy_base.LegacyWalker`'s):

* `Ant(name="walker", marker_rgba=None, initializer=None)`: `marker_rgba` colours
  the front thighs (`marker_geoms`).
* Root joints: a free joint (`arena.add_free_entity(walker)` or
  `walker.create_root_joints(arena.attach(walker))`).
* `bodies` (all 13, torso first), `end_effectors` (the feet), `observable_joints`
  (the actuated hinges in actuator order), `ground_contact_geoms` (the foot
  geoms), `aliveness(physics)` = (z axis of the torso's up component - 1) / 2.
* Observables (`AntObservables`): the legacy ones plus `appendages_pos` (12,),
  `bodies_pos` (39,) and `bodies_quats` (52,), egocentric (relative to the torso).
"""

from collections.abc import Iterable
from typing import Any

import mujoco
import numpy as np
from numpy.typing import ArrayLike

from composer_tasks import composer
from composer_tasks.composer.observation import observable
from composer_tasks.physics import Physics
from composer_tasks.walkers import legacy_base

# dm_control third_party/ant/ant.xml (m, kg/m^3, rad, N m).
_TORSO_HEIGHT_M = 0.522
_TORSO_RADIUS_M = 0.25
_TORSO_DENSITY = 100.0
_LEG_DENSITY = 50.0
_CAPSULE_RADIUS_M = 0.08
_SEGMENT_M = 0.2  # x and y extent of the hip segment and thigh (per axis).
_FOOT_M = 0.4  # x and y extent of the foot (per axis).
_HIP_RANGE_RAD = 0.52359
_ANKLE_RANGE_RAD = 0.34906
_GEAR = 75.0
_FRICTION = (1.0, 0.5, 0.5)
_SOLREF = (0.02, 1.0)
_SOLIMP = (0.0, 0.8, 0.01, 0.5, 2.0)
_JOINT_ARMATURE = 1.0
_JOINT_DAMPING = 1.0
_JOINT_STIFFNESS = 1.0
_SOLREF_LIMIT = (0.04, 1.0)
_SOLIMP_LIMIT = (0.0, 0.8, 0.03, 0.5, 2.0)
_MATERIAL_RGBA = (0.8, 0.6, 0.4, 1.0)
# The foot's droop: the published (unnormalised) quaternion's components; the
# rotation axis is horizontal, across the leg.
_FOOT_QUAT_W = 0.98480775301220802
_FOOT_QUAT_XY = 0.33428158105097677
# Legs in actuator order: name, (sign of x, sign of y) of their direction.
_LEGS = (
    ("front_left", (1.0, 1.0)),
    ("front_right", (1.0, -1.0)),
    ("back_right", (-1.0, -1.0)),
    ("back_left", (-1.0, 1.0)),
)
# Touch boxes (half-sizes, m) around the thigh and foot; the published front-left
# foot's box is larger than the others'.
_THIGH_TOUCH_HALF_SIZE_M = (0.09, 0.09, 0.24)
_FOOT_TOUCH_HALF_SIZE_M = {"front_left": (0.1, 0.1, 0.45)}
_DEFAULT_FOOT_TOUCH_HALF_SIZE_M = (0.09, 0.09, 0.39)
_TORSO_TOUCH_HALF_SIZE_M = 0.26
# Touch sensor order of the published model.
_TOUCH_ORDER = ("front_left", "back_left", "back_right", "front_right")
# Rangefinders: name, site position (m) and pointing direction, in sensor order.
_RANGEFINDER_HEIGHT_M = 0.11
_RANGEFINDERS = (
    ("rf_xp", (1, 0)),
    ("rf_yp", (0, 1)),
    ("rf_xn", (-1, 0)),
    ("rf_yn", (0, -1)),
    ("rf_xpyp", (1, 1)),
    ("rf_xpyn", (1, -1)),
    ("rf_xnyp", (-1, 1)),
    ("rf_xnyn", (-1, -1)),
)
# The order dm_control's ant.xml writes the rangefinder sites in (its sensors
# read them in `_RANGEFINDERS`' order).
_RANGEFINDER_SITE_ORDER = (
    "rf_xp", "rf_xn", "rf_yp", "rf_yn", "rf_xpyp", "rf_xpyn", "rf_xnyn", "rf_xnyp",
)  # fmt: skip
# dm_control's ant.xml marker sites: (name, position in m, rgba).
_AXIS_SITES = (
    ("x_pos", (0.5, 0.0, 0.0), (1.0, 0.0, 0.0, 1.0)),
    ("x_neg", (-0.5, 0.0, 0.0), (0.0, 0.0, 1.0, 1.0)),
    ("y_pos", (0.0, 0.5, 0.0), (1.0, 1.0, 1.0, 1.0)),
    ("y_neg", (0.0, -0.5, 0.0), (0.0, 0.0, 0.0, 1.0)),
)
_SIDE_SITES = (
    ("port_site", (0.5, 0.0, 0.0), (1.0, 0.0, 0.0, 1.0)),
    ("starboard_site", (-0.5, 0.0, 0.0), (0.0, 1.0, 0.0, 1.0)),
)
_RANGEFINDER_SITE_SIZE_M = (0.05, 0.5)
# MuJoCo's default for the size components a site's type does not use (as an
# MJCF file that omits them compiles).
_UNUSED_SIZE_M = 0.005
_RANGEFINDER_RGBA = (1.0, 0.0, 0.0, 0.4)
_SENSOR_SITE_GROUP = 4
# Cameras (positions in m, fovy in degrees).
_EGOCENTRIC_POS_M = (0.25, 0.0, 0.11)
_EGOCENTRIC_FOVY_DEG = 90.0
_FOLLOW_XYAXES = ((0.0, -1.0, 0.0), (0.5, 0.0, 1.0))
_FLOATING_POS_M = (-2.0, 0.0, 1.0)
_FLOAT_FAR_POS_M = (-4.0, 0.0, 2.0)
_SIDEON_POS_M = (0.0, -10.0, 5.0)
_SIDEON_FOVY_DEG = 45.0

_CAPSULE = mujoco.mjtGeom.mjGEOM_CAPSULE
_BOX = mujoco.mjtGeom.mjGEOM_BOX
_SITE = mujoco.mjtObj.mjOBJ_SITE
_XBODY = mujoco.mjtObj.mjOBJ_XBODY
_TRACKCOM = mujoco.mjtCamLight.mjCAMLIGHT_TRACKCOM


def _touch_site_rgba(leg: str) -> tuple[float, ...]:
    """The (invisible) colour of a leg's touch sites in dm_control's ant.xml."""
    return (1.0, 1.0, 0.0, 0.0) if leg == "front_left" else (0.0, 0.0, 1.0, 0.0)


def _z_to(direction: ArrayLike) -> list:
    """Quaternion turning +z onto `direction` (MuJoCo's `zaxis`)."""
    quaternion = np.empty(4)
    mujoco.mju_quatZ2Vec(quaternion, np.asarray(direction, dtype=np.float64))
    return list(quaternion)


def _xyaxes(x_axis: ArrayLike, y_axis: ArrayLike) -> list:
    x = np.asarray(x_axis, dtype=np.float64)
    x = x / np.linalg.norm(x)
    y = np.asarray(y_axis, dtype=np.float64)
    y = y - np.dot(x, y) * x
    y = y / np.linalg.norm(y)
    quaternion = np.empty(4)
    mujoco.mju_mat2Quat(quaternion, np.stack([x, y, np.cross(x, y)], axis=1).reshape(-1))
    return list(quaternion)


def _set_defaults(spec: mujoco.MjSpec) -> None:
    main = spec.default
    main.geom.friction = list(_FRICTION)
    main.geom.solref = list(_SOLREF)
    main.geom.solimp = list(_SOLIMP)
    main.geom.density = _LEG_DENSITY
    main.geom.material = "self"
    main.joint.limited = mujoco.mjtLimited.mjLIMITED_TRUE
    main.joint.armature = _JOINT_ARMATURE
    main.joint.damping = [_JOINT_DAMPING, 0.0, 0.0]
    main.joint.stiffness = [_JOINT_STIFFNESS, 0.0, 0.0]
    main.joint.solref_limit = list(_SOLREF_LIMIT)
    main.joint.solimp_limit = list(_SOLIMP_LIMIT)
    main.actuator.set_to_motor()
    main.actuator.ctrllimited = mujoco.mjtLimited.mjLIMITED_TRUE
    main.actuator.ctrlrange = [-1.0, 1.0]
    main.actuator.gear = [_GEAR, 0.0, 0.0, 0.0, 0.0, 0.0]


class AntObservables(legacy_base.LegacyWalkerObservables):
    """The legacy walker observables and the Ant's body poses, relative to the torso."""

    def _framed(
        self,
        bodies: Iterable[mujoco.MjsBody],
        kind: mujoco.mjtSensor,
        suffix: str,
        sensors: list[mujoco.MjsSensor],
    ) -> observable.Observable:
        # `sensors` is the walker's list of them (dm_control's `*_sensors`
        # properties), refilled each time the observable is built.
        entity = self._entity
        sensors[:] = [
            entity.spec.add_sensor(
                name=f"{body.name}{suffix}",
                type=kind,
                objtype=_XBODY,
                objname=body.name,
                reftype=_XBODY,
                refname=entity._root_body.name,
            )
            for body in bodies
        ]
        return observable.MJCFFeature("sensordata", list(sensors))

    @property
    def proprioception(self) -> list[observable.Observable]:
        """dm_control's Ant order: the walker's proprioception with the feet and the
        bodies' poses relative to the torso in it (a soccer player sees all of them)."""
        return [
            self.joints_pos,
            self.joints_vel,
            self.body_height,
            self.end_effectors_pos,
            self.appendages_pos,
            self.world_zaxis,
            self.bodies_quats,
            self.bodies_pos,
        ]

    @composer.observable
    def appendages_pos(self) -> observable.Observable:
        """Feet positions relative to the torso (m), egocentric, (12,)."""
        return self._framed(
            self._entity._end_effectors,
            mujoco.mjtSensor.mjSENS_FRAMEPOS,
            "_appendage",
            self._entity.appendages_sensors,
        )

    @composer.observable
    def bodies_quats(self) -> observable.Observable:
        """Orientations (w-x-y-z) of all bodies relative to the torso, (52,)."""
        return self._framed(
            self._entity._bodies,
            mujoco.mjtSensor.mjSENS_FRAMEQUAT,
            "_ego_body_quat",
            self._entity.bodies_quats_sensors,
        )

    @composer.observable
    def bodies_pos(self) -> observable.Observable:
        """Positions of all bodies relative to the torso (m), egocentric, (39,)."""
        return self._framed(
            self._entity._bodies,
            mujoco.mjtSensor.mjSENS_FRAMEPOS,
            "_ego_body_pos",
            self._entity.bodies_pos_sensors,
        )


class Ant(legacy_base.LegacyWalker):
    """dm_control's quadruped Ant (see the module docstring).

    Args:
      name: the entity's name (its prefix in the model).
      marker_rgba: None, or RGBA in [0, 1] for the front thighs (the team colour).
      initializer: None, a pose initializer or a sequence of them (`add_initializer`).

    Raises:
      ValueError: for a bad name or marker colour.
    """

    mjcf_file_site_sizes = True  # an MJCF file in dm_control (base.Walker)

    def _build(
        self, name: str = "walker", marker_rgba: ArrayLike | None = None, initializer: Any = None
    ) -> None:
        if not isinstance(name, str) or not name or "/" in name:
            raise ValueError(f"name must be a non-empty string without '/', got {name!r}")
        self._appendages_sensors: list[mujoco.MjsSensor] = []
        self._bodies_pos_sensors: list[mujoco.MjsSensor] = []
        self._bodies_quats_sensors: list[mujoco.MjsSensor] = []
        rgba = None
        if marker_rgba is not None:
            rgba = np.asarray(marker_rgba, dtype=np.float64)
            if rgba.shape != (4,) or not np.all((rgba >= 0.0) & (rgba <= 1.0)):
                raise ValueError(
                    f"marker_rgba must be 4 values in [0, 1] (RGBA), got {marker_rgba!r}"
                )
        spec = mujoco.MjSpec()
        spec.modelname = name
        spec.compiler.degree = False
        _set_defaults(spec)
        spec.add_material(name="self", rgba=list(_MATERIAL_RGBA))
        spec.worldbody.add_camera(
            name="sideon",
            pos=list(_SIDEON_POS_M),
            fovy=_SIDEON_FOVY_DEG,
            mode=mujoco.mjtCamLight.mjCAMLIGHT_TARGETBODY,
            targetbody="torso",
        )
        float_far = spec.worldbody.add_camera(
            name="float_far",
            pos=list(_FLOAT_FAR_POS_M),
            quat=_xyaxes(*_FOLLOW_XYAXES),
            mode=_TRACKCOM,
            fovy=90.0,
        )
        torso = spec.worldbody.add_body(name="torso", pos=[0.0, 0.0, _TORSO_HEIGHT_M])
        floating = torso.add_camera(
            name="floating",
            pos=list(_FLOATING_POS_M),
            quat=_xyaxes(*_FOLLOW_XYAXES),
            mode=_TRACKCOM,
            fovy=90.0,
        )
        egocentric = torso.add_camera(
            name="egocentric",
            pos=list(_EGOCENTRIC_POS_M),
            quat=_xyaxes((0.0, -1.0, 0.0), (0.0, 0.0, 1.0)),
            fovy=_EGOCENTRIC_FOVY_DEG,
        )
        torso.add_site(
            name="torso_touch",
            type=_BOX,
            size=[_TORSO_TOUCH_HALF_SIZE_M] * 3,
            rgba=[0.0, 0.0, 1.0, 1.0],
            group=_SENSOR_SITE_GROUP,
        )
        torso.add_geom(
            name="torso_geom",
            type=mujoco.mjtGeom.mjGEOM_SPHERE,
            size=[_TORSO_RADIUS_M, 0.0, 0.0],
            density=_TORSO_DENSITY,
        )
        torso.add_site(
            name="torso_site",
            size=[0.05, _UNUSED_SIZE_M, _UNUSED_SIZE_M],
            rgba=[1.0, 0.0, 0.0, 1.0],
        )
        directions = dict(_RANGEFINDERS)
        for site_name in _RANGEFINDER_SITE_ORDER:
            sx, sy = directions[site_name]
            torso.add_site(
                name=site_name,
                type=_CAPSULE,
                size=[*_RANGEFINDER_SITE_SIZE_M, _UNUSED_SIZE_M],
                rgba=list(_RANGEFINDER_RGBA),
                group=_SENSOR_SITE_GROUP,
                pos=[_TORSO_RADIUS_M * sx, _TORSO_RADIUS_M * sy, _RANGEFINDER_HEIGHT_M],
                quat=_z_to((sx, sy, 0.0)),
            )
        # dm_control's ant carries these sites too (no sensor reads them): axis
        # markers and port/starboard spheres (group 5), and ten spheres inside the torso.
        for site_name, position, site_rgba in _AXIS_SITES:
            torso.add_site(
                name=site_name,
                type=_CAPSULE,
                size=[0.05, 0.5, _UNUSED_SIZE_M],
                pos=list(position),
                quat=_z_to(position),
                rgba=list(site_rgba),
                group=5,
            )
        for site_name, position, site_rgba in _SIDE_SITES:
            torso.add_site(
                name=site_name,
                size=[0.5, _UNUSED_SIZE_M, _UNUSED_SIZE_M],
                pos=list(position),
                rgba=list(site_rgba),
                group=5,
            )
        for index in range(1, 11):
            torso.add_site(
                name=f"rc{index}",
                type=mujoco.mjtGeom.mjGEOM_SPHERE,
                size=[0.1, _UNUSED_SIZE_M, _UNUSED_SIZE_M],
                rgba=[1.0, 1.0, 1.0, 1.0],
            )

        joints, feet, foot_geoms, thigh_geoms, bodies = {}, [], [], {}, [torso]
        for leg, (sx, sy) in _LEGS:
            segment = np.array([_SEGMENT_M * sx, _SEGMENT_M * sy, 0.0])
            outwards = _z_to(segment)
            leg_body = torso.add_body(name=f"{leg}_leg")
            leg_body.add_geom(
                name=f"{leg}_aux_geom",
                type=_CAPSULE,
                size=[_CAPSULE_RADIUS_M, 0, 0],
                fromto=[0.0, 0.0, 0.0, *segment],
            )
            aux = leg_body.add_body(name=f"{leg}_aux", pos=list(segment))
            joints[f"{leg}_hip"] = aux.add_joint(
                name=f"{leg}_hip",
                type=mujoco.mjtJoint.mjJNT_HINGE,
                axis=[0.0, 0.0, 1.0],
                range=[-_HIP_RANGE_RAD, _HIP_RANGE_RAD],
            )
            thigh_geoms[leg] = aux.add_geom(
                name=f"{leg}_leg_geom",
                type=_CAPSULE,
                size=[_CAPSULE_RADIUS_M, 0, 0],
                fromto=[0.0, 0.0, 0.0, *segment],
            )
            aux.add_site(
                name=f"{leg}_leg_touch",
                type=_BOX,
                pos=list(segment / 2),
                size=list(_THIGH_TOUCH_HALF_SIZE_M),
                quat=outwards,
                rgba=list(_touch_site_rgba(leg)),
            )
            foot = aux.add_body(
                name=f"{leg}_foot",
                pos=list(segment),
                quat=[_FOOT_QUAT_W, -sy * _FOOT_QUAT_XY, sx * _FOOT_QUAT_XY, 0.0],
            )
            joints[f"{leg}_ankle"] = foot.add_joint(
                name=f"{leg}_ankle",
                type=mujoco.mjtJoint.mjJNT_HINGE,
                axis=[sy, -sx, 0.0],
                range=[-_ANKLE_RANGE_RAD, _ANKLE_RANGE_RAD],
            )
            foot_reach = np.array([_FOOT_M * sx, _FOOT_M * sy, 0.0])
            foot_geoms.append(
                foot.add_geom(
                    name=f"{leg}_ankle_geom",
                    type=_CAPSULE,
                    size=[_CAPSULE_RADIUS_M, 0, 0],
                    fromto=[0.0, 0.0, 0.0, *foot_reach],
                )
            )
            foot.add_site(
                name=f"{leg}_ankle_touch",
                type=_BOX,
                pos=list(foot_reach / 2),
                size=list(_FOOT_TOUCH_HALF_SIZE_M.get(leg, _DEFAULT_FOOT_TOUCH_HALF_SIZE_M)),
                quat=outwards,
                rgba=list(_touch_site_rgba(leg)),
            )
            feet.append(foot)
            bodies.extend([leg_body, aux, foot])
            spec.add_exclude(bodyname1="torso", bodyname2=f"{leg}_aux")
        actuated = []
        for leg, _ in _LEGS:
            for part in ("hip", "ankle"):
                joint = joints[f"{leg}_{part}"]
                spec.add_actuator(
                    name=joint.name, target=joint.name, trntype=mujoco.mjtTrn.mjTRN_JOINT
                )
                actuated.append(joint)

        touch = mujoco.mjtSensor.mjSENS_TOUCH
        touch_sensors = [
            spec.add_sensor(name="torso_touch", type=touch, objtype=_SITE, objname="torso_touch")
        ]
        for leg in _TOUCH_ORDER:
            for part in ("leg", "ankle"):
                touch_sensors.append(
                    spec.add_sensor(
                        name=f"{leg}_{part}_touch",
                        type=touch,
                        objtype=_SITE,
                        objname=f"{leg}_{part}_touch",
                    )
                )
        site = dict(objtype=_SITE, objname="torso_site")
        velocimeter = spec.add_sensor(
            name="torso_vel", type=mujoco.mjtSensor.mjSENS_VELOCIMETER, **site
        )
        gyro = spec.add_sensor(name="torso_gyro", type=mujoco.mjtSensor.mjSENS_GYRO, **site)
        accelerometer = spec.add_sensor(
            name="torso_accel", type=mujoco.mjtSensor.mjSENS_ACCELEROMETER, **site
        )
        # intprm[0] = 1: the sensor outputs the distance only (MJCF's default data="dist").
        rangefinders = [
            spec.add_sensor(
                name=site_name,
                type=mujoco.mjtSensor.mjSENS_RANGEFINDER,
                objtype=_SITE,
                objname=site_name,
                intprm=[1, 0, 0],
            )
            for site_name, _ in _RANGEFINDERS
        ]

        marker_geoms = [thigh_geoms["front_left"], thigh_geoms["front_right"]]
        if rgba is not None:
            for geom in marker_geoms:
                geom.rgba = list(rgba)
        self._spec = spec
        self._bodies = tuple(bodies)
        self._set_parts(
            root_body=torso,
            observable_joints=actuated,
            pose_joints=actuated,
            initial_qpos=np.zeros(len(actuated)),
            standing_height=_TORSO_HEIGHT_M,
            end_effectors=feet,
            egocentric_camera=egocentric,
            root_sensors=(velocimeter, accelerometer, gyro),
            touch_sensors=touch_sensors,
            torque_sensors=(),
            ground_contact_geoms=foot_geoms,
            mocap_tracking_bodies=bodies,
            # dm_control's ant follows itself with these two, and has no others.
            tracking_cameras=(float_far, floating),
        )
        self._init_legacy(
            marker_geoms=marker_geoms, rangefinder_sensors=rangefinders, initializer=initializer
        )

    @property
    def appendages_sensors(self) -> list[mujoco.MjsSensor]:
        """The `framepos` sensors of the feet relative to the torso that the
        `appendages_pos` observable added (empty before it is built), bindable."""
        return self._appendages_sensors

    @property
    def bodies_pos_sensors(self) -> list[mujoco.MjsSensor]:
        """The `framepos` sensors of every body relative to the torso that the
        `bodies_pos` observable added (empty before it is built), bindable."""
        return self._bodies_pos_sensors

    @property
    def bodies_quats_sensors(self) -> list[mujoco.MjsSensor]:
        """The `framequat` sensors of every body relative to the torso that the
        `bodies_quats` observable added (empty before it is built), bindable."""
        return self._bodies_quats_sensors

    def _build_observables(self) -> AntObservables:
        return AntObservables(self)

    @property
    def bodies(self) -> tuple:
        """All 13 bodies: the torso, then per leg its leg, aux (thigh) and foot."""
        return self._handles(self._bodies)

    def aliveness(self, physics: Physics) -> float:
        """dm_control's Ant aliveness: (R_zz - 1) / 2 of the torso, 0 upright and -1
        upside down."""
        return (float(np.asarray(physics.bind(self.root_body).xmat).reshape(-1)[-1]) - 1.0) / 2.0
