"""The Kinova Jaco arm: 6 revolute joints with velocity servos (dm_control paper §8).

Kinematics, inertias, joint properties and actuators carry over the numbers of
dm_control's Jaco model (dm-control 1.0.50, `third_party/kinova/jaco_arm.xml`
and `entities/manipulators/kinova/jaco_arm.py`, compiled; recorded in
tests/manipulation/reference/): the link offsets are Kinova's published JACO²
dimensions (base to shoulder 0.2755 m, arm 0.41 m, forearm 0.2073 m with a
0.0114 m offset, wrist segments 0.0741 m at 60°). The published model's meshes
are not used: each link is a capsule or cylinder fitted to the extent of the
link (docs/manipulation.md), and masses and inertias are set explicitly to the
reference's values, so the dynamics do not depend on the shapes.

Frames: the arm's base sits at its attachment point, joint_1 turns about the
world z axis; every joint turns about its body's z axis. The wrist site is where
a hand attaches.
"""

from typing import Any

import mujoco
import numpy as np

from composer_tasks import composer, mjcf
from composer_tasks.composer.observation import observable
from composer_tasks.physics import Physics
from composer_tasks.robots import base

_MODEL_NAME = "jaco_arm"
JOINT_NAMES = ("joint_1", "joint_2", "joint_3", "joint_4", "joint_5", "joint_6")
_LARGE_JOINTS = JOINT_NAMES[:3]

# Kinova KA-75+/KA-58 actuator data sheet (via dm_control): peak torques (N m) and
# firmware velocity limits (36 and 48 deg/s).
LARGE_JOINT_MAX_TORQUE_NM = 30.5
SMALL_JOINT_MAX_TORQUE_NM = 6.8
LARGE_JOINT_MAX_VELOCITY_RADPS = np.deg2rad(36.0)
SMALL_JOINT_MAX_VELOCITY_RADPS = np.deg2rad(48.0)
# The same limits under dm_control's module names, which its own tests read.
_LARGE_JOINT_MAX_VELOCITY = LARGE_JOINT_MAX_VELOCITY_RADPS
_SMALL_JOINT_MAX_VELOCITY = SMALL_JOINT_MAX_VELOCITY_RADPS
# Velocity servo gain (N m s/rad), dm_control's rough estimate.
VELOCITY_GAIN = 500.0
# Joint properties (dm_control jaco_arm.xml): armature (kg m^2), friction loss (N m).
_JOINT_DAMPING = 0.01
_LARGE_JOINT = dict(armature=4.0, frictionloss=2.0)
_SMALL_JOINT = dict(armature=2.0, frictionloss=1.0)
# Limited joints and their ranges (rad); the others turn freely.
JOINT_RANGES = {"joint_2": (0.820305, 5.462881), "joint_3": (0.331613, 5.951573)}

# Joint angles (rad) that hold the pinch site 0.3 m above the workspace centre
# (0.4 m in front of the base), pointing down, elbow up: where inverse kinematics
# starts (found by inverse kinematics from random starts).
HOME_QPOS = (1.4143, 2.8181, 4.7388, 2.7258, 1.4467, 0.9985)

# Stiff contacts of dm_control's Kinova models (third_party/kinova/common.xml).
CONTACT_SOLIMP = (0.99, 0.999, 0.001, 0.5, 2.0)
CONTACT_SOLREF = (0.01, 1.0)
# Collision bits: robot geoms touch props' bodies and the table, not brick studs.
ROBOT_CONTYPE = 3
ROBOT_CONAFFINITY = 2

_DARK_GRAY = (0.1, 0.1, 0.1, 1.0)
_LIGHT_GRAY = (0.7, 0.7, 0.7, 1.0)
_CAPSULE = mujoco.mjtGeom.mjGEOM_CAPSULE
_CYLINDER = mujoco.mjtGeom.mjGEOM_CYLINDER
_SENSOR_SITE_GROUP = 4

# Per body: position and orientation in the parent (m, w-x-y-z), compiled mass
# (kg), principal inertia (kg m^2), inertial frame position and orientation.
_BODIES = (
    (
        "b_base",
        (0.0, 0.0, 0.0),
        (1.0, 0.0, 0.0, 0.0),
        0.718306,
        (0.0015789884272358048, 0.0015781373731622646, 0.0005856637265969773),
        (-7.88791321135816e-05, -0.0005981016181893194, 0.0817722373285871),
        (0.9005293162920783, -0.007978628662648887, 0.005983153991239285, 0.4346809103831272),
    ),
    (
        "b_1",
        (0.0, 0.0, 0.15675),
        (0.0, 0.0, 1.0, 0.0),
        0.643205,
        (0.0017161739631575568, 0.001625664321193141, 0.00042693262606160516),
        (6.0709380424859355e-06, -0.010640092620877664, -0.06671280343175842),
        (0.704394624156642, -0.06285418353137857, 0.06284607353731446, 0.7042215106859283),
    ),
    (
        "b_2",
        (0.0, 0.0016, -0.11875),
        (0.0, 0.0, -0.7071067811865475, 0.7071067811865475),
        1.16915,
        (0.025281499761460453, 0.024989336981338775, 0.000535184735489972),
        (-1.6298059360041888e-05, -0.20476269292328333, -0.020123582007091724),
        (0.5000779907755658, 0.5001462784095436, -0.4998311833300392, 0.4999444884243168),
    ),
    (
        "b_3",
        (0.0, -0.41, 0.0),
        (0.0, 0.0, 1.0, 0.0),
        0.673443,
        (0.00419961676471875, 0.004090733627478199, 0.0003029066990235639),
        (7.694898409821394e-06, 0.08297433155206912, -0.017483421756336118),
        (0.4899342856235334, 0.5100063484355097, -0.5098248373075964, 0.48983319159722233),
    ),
    (
        "b_4",
        (0.0, 0.2073, -0.0114),
        (0.0, 0.0, -0.7071067811865475, 0.7071067811865475),
        0.221432,
        (0.00018157637407679433, 0.00017455322767120018, 9.78856556860246e-05),
        (-7.097153942258306e-07, -0.01004955371463603, -0.036957254775351035),
        (0.6830706936889603, -0.1829632643191417, 0.1829970892560754, 0.6829721346122195),
    ),
    (
        "b_5",
        (0.0, -0.03703, -0.06414),
        (0.0, 0.0, 0.5000001748438417, 0.8660253028382761),
        0.221432,
        (0.00018157637407679433, 0.00017455322767120018, 9.78856556860246e-05),
        (-7.097153942258306e-07, -0.01004955371463603, -0.036957254775351035),
        (0.6830706936889603, -0.1829632643191417, 0.1829970892560754, 0.6829721346122195),
    ),
    # The last link carries only the hand; MuJoCo's mass and inertia bounds of
    # dm_control's arena (1e-5 kg, 1e-11 kg m^2) give it its tiny mass.
    (
        "b_6",
        (0.0, -0.03703, -0.06414),
        (0.0, 0.0, 0.5000001748438417, 0.8660253028382761),
        1e-5,
        (1e-11, 1e-11, 1e-11),
        (0.0, 0.0, 0.0),
        (1.0, 0.0, 0.0, 0.0),
    ),
)
# Collision and visual shapes, per body: (type, size, fromto or pos). The links'
# extents are Kinova's link dimensions (radius 0.041 m for the large links, 0.0315
# m for the wrist); rings mark the joints (dm_control's ring sizes).
_LINK_SHAPES = {
    "b_base": [(_CYLINDER, (0.0413, 0.0784), (0.0, 0.0, 0.0784))],
    "b_1": [(_CYLINDER, (0.0413, 0.08), (0.0, 0.0, -0.08))],
    "b_2": [(_CAPSULE, (0.035,), (0.0, 0.0, -0.0215, 0.0, -0.41, -0.0215))],
    "b_3": [(_CAPSULE, (0.03,), (0.0, 0.0, -0.02, 0.0, 0.2073, -0.0114))],
    "b_4": [(_CAPSULE, (0.0315,), (0.0, 0.0, -0.01, 0.0, -0.03703, -0.06414))],
    "b_5": [(_CAPSULE, (0.0315,), (0.0, 0.0, -0.01, 0.0, -0.03703, -0.06414))],
    "b_6": [],
}
_LARGE_RING = (0.044, 0.011)
_SMALL_RING = (0.035, 0.009)
# The wrist site: the hand hangs from it, z pointing away from the arm.
_WRIST_QUAT = (0.0, 0.70710678118, 0.70710678118, 0.0)


class JacoArmObservables(base.JointsObservables):
    """Joint angles as (sin, cos) pairs (6, 2), joint velocities (rad/s, (6,), the
    base class's) and joint torques about their axes (N m, (6,))."""

    @composer.observable
    def joints_pos(self) -> observable.Generic:
        """(6, 2): sine and cosine of each joint angle (most joints turn freely)."""
        joints = self._entity._joints

        def sin_cos(physics: Physics) -> np.ndarray:
            angles = physics.data.qpos[physics.model.jnt_qposadr[physics.element_ids(joints)]]
            return np.stack([np.sin(angles), np.cos(angles)], axis=-1)

        return observable.Generic(sin_cos)

    @composer.observable
    def joints_torque(self) -> observable.Generic:
        """Torque sensors' 3-vectors projected on each joint's axis (N m)."""
        entity = self._entity

        def torques(physics: Physics) -> np.ndarray:
            # Read through bindings, as dm_control does: after a write through a
            # binding (`xfrc_applied`) the read runs the pending forward pass first,
            # where `physics.data.sensordata` would still hold the last step's values.
            values = np.reshape(physics.bind(entity.joint_torque_sensors).sensordata, (-1, 3))
            axes = np.reshape(physics.bind(entity.joints).axis, (-1, 3))
            return np.einsum("ij,ij->i", values, axes)

        return observable.Generic(torques)


class JacoArm(base.RobotArm):
    """The 6-joint Kinova Jaco arm, a `RobotArm` as in dm_control.

    Args:
      name: the entity's name; None or "" keep the model's, "jaco_arm" (as
        dm_control's `if name:`).
    """

    def _build(self, name: str | None = None) -> None:
        spec = mujoco.MjSpec()
        spec.modelname = name or _MODEL_NAME
        spec.compiler.degree = False  # Angles (joint ranges) are in radians.
        parent = spec.worldbody
        self._joints, self._bodies, self._actuators, self._torque_sensors = [], [], [], []
        for index, (body_name, pos, quat, mass, inertia, ipos, iquat) in enumerate(_BODIES):
            body = parent.add_body(name=body_name, pos=list(pos), quat=list(quat))
            body.explicitinertial = True
            body.mass = mass
            body.inertia = list(inertia)
            body.ipos = list(ipos)
            body.iquat = list(iquat)
            for shape_type, size, placement in _LINK_SHAPES[body_name]:
                kwargs = (
                    dict(fromto=list(placement))
                    if len(placement) == 6
                    else dict(pos=list(placement))
                )
                body.add_geom(
                    name=f"link_{index}" if index else "base",
                    type=shape_type,
                    size=list(size) + [0.0] * (3 - len(size)),
                    rgba=list(_DARK_GRAY),
                    **kwargs,
                    **_contact_kwargs(),
                )
            if index > 0:
                joint_name = JOINT_NAMES[index - 1]
                large = joint_name in _LARGE_JOINTS
                joint = body.add_joint(
                    name=joint_name,
                    type=mujoco.mjtJoint.mjJNT_HINGE,
                    axis=[0.0, 0.0, 1.0],
                    damping=_JOINT_DAMPING,
                    **(_LARGE_JOINT if large else _SMALL_JOINT),
                )
                if joint_name in JOINT_RANGES:
                    joint.limited = mujoco.mjtLimited.mjLIMITED_TRUE
                    joint.range = list(JOINT_RANGES[joint_name])
                else:
                    joint.limited = mujoco.mjtLimited.mjLIMITED_FALSE
                ring = _LARGE_RING if large else _SMALL_RING
                body.add_geom(
                    name=f"ring_{index}",
                    type=_CYLINDER,
                    size=[*ring, 0.0],
                    rgba=list(_LIGHT_GRAY),
                    **_contact_kwargs(),
                )
                self._joints.append(joint)
                self._actuators.append(_add_velocity_actuator(spec, joint_name, large))
                site = body.add_site(
                    name=f"{joint_name}_site", size=[1e-3, 0.0, 0.0], group=_SENSOR_SITE_GROUP
                )
                self._torque_sensors.append(
                    spec.add_sensor(
                        name=f"{joint_name}_torque",
                        type=mujoco.mjtSensor.mjSENS_TORQUE,
                        objtype=mujoco.mjtObj.mjOBJ_SITE,
                        objname=site.name,
                    )
                )
            self._bodies.append(body)
            parent = body
        self._wrist_site = parent.add_site(
            name="wristsite",
            quat=list(_WRIST_QUAT),
            size=[0.01, 0.0, 0.0],
            group=_SENSOR_SITE_GROUP,
        )
        # The base must not collide with the first link when the arm stands on the world.
        spec.add_exclude(bodyname1="b_base", bodyname2="b_1")
        self._spec = spec

    def _build_observables(self) -> JacoArmObservables:
        return JacoArmObservables(self)

    # Parts are PyMJCF handles (`composer_tasks.mjcf.Element`), as dm_control's:
    # `.name` relative to the arm, `physics.bind` with PyMJCF's shapes.

    @property
    def joints(self) -> tuple[mjcf.Element, ...]:
        """The six hinge joints, base to wrist."""
        return tuple(self.mjcf_model._wrap(joint) for joint in self._joints)

    @property
    def actuators(self) -> tuple[mjcf.Element, ...]:
        """One velocity servo per joint, in joint order."""
        return tuple(self.mjcf_model._wrap(actuator) for actuator in self._actuators)

    @property
    def joint_torque_sensors(self) -> tuple[mjcf.Element, ...]:
        return tuple(self.mjcf_model._wrap(sensor) for sensor in self._torque_sensors)

    @property
    def bodies(self) -> tuple[mjcf.Element, ...]:
        return tuple(self.mjcf_model._wrap(body) for body in self._bodies)

    @property
    def wrist_site(self) -> mjcf.Element:
        """Where the hand attaches (its z axis points out of the wrist)."""
        return self.mjcf_model._wrap(self._wrist_site)

    @property
    def home_qpos(self) -> np.ndarray:
        """(6,) joint angles (rad) with the hand pointing down over the workspace."""
        return np.array(HOME_QPOS)


def _contact_kwargs() -> dict[str, Any]:
    return dict(
        contype=ROBOT_CONTYPE,
        conaffinity=ROBOT_CONAFFINITY,
        condim=3,
        solimp=list(CONTACT_SOLIMP),
        solref=list(CONTACT_SOLREF),
    )


def _add_velocity_actuator(spec: mujoco.MjSpec, joint_name: str, large: bool) -> mujoco.MjsActuator:
    max_velocity = LARGE_JOINT_MAX_VELOCITY_RADPS if large else SMALL_JOINT_MAX_VELOCITY_RADPS
    max_torque = LARGE_JOINT_MAX_TORQUE_NM if large else SMALL_JOINT_MAX_TORQUE_NM
    actuator = spec.add_actuator(
        name=joint_name,
        target=joint_name,
        trntype=mujoco.mjtTrn.mjTRN_JOINT,
        ctrlrange=[-max_velocity, max_velocity],
        forcerange=[-max_torque, max_torque],
    )
    actuator.set_to_velocity(kv=VELOCITY_GAIN)
    actuator.ctrllimited = mujoco.mjtLimited.mjLIMITED_TRUE
    actuator.forcelimited = mujoco.mjtLimited.mjLIMITED_TRUE
    return actuator
