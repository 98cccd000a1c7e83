"""Rat: dm_control's rodent walker (`locomotion.walkers.rodent.Rat`), in primitives.

A 0.34 kg rat of 65 bodies (torso, six lumbar vertebrae, pelvis, legs, a
30-segment tail, seven cervical vertebrae, skull and jaw, arms), 67 hinge
joints, 38 position actuators (8 on tendons that couple the spine's, neck's and
tail's joints, 30 on limb and head joints) with their control range scaled to
[-1, 1], touch sensors on the palms and soles and an accelerometer, velocimeter
and gyro in the head. dm_control's names and counts carry over: bodies,
joints, actuators, tendons, sites, sensors, the egocentric camera and the
observables.

What differs: dm_control's rat is drawn with a skinned mesh and collides
through several primitives per body; here each body has one collision
primitive (the main one of dm_control's, with its size and placement) whose
mass is the body's (dm_control 1.0.50's `rodent.xml`, facts carried over:
body positions, masses, joint axes, ranges, stiffness, damping and armature,
actuator gains, tendon coefficients, exclusions), so the body masses and
kinematics are dm_control's while inertias and contacts are approximations.

Frames and units: metres, kilograms, radians; the walker stands on its own
origin, the torso 0.065 m above it, x forward and z up.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import mujoco
import numpy as np

from composer_tasks import composer
from composer_tasks import mjcf
from composer_tasks.composer.observation import observable
from composer_tasks.physics import Physics
from composer_tasks.walkers import base
from composer_tasks.walkers import legacy_base

_SPHERE = mujoco.mjtGeom.mjGEOM_SPHERE
_CAPSULE = mujoco.mjtGeom.mjGEOM_CAPSULE
_ELLIPSOID = mujoco.mjtGeom.mjGEOM_ELLIPSOID
_BOX = mujoco.mjtGeom.mjGEOM_BOX
_CYLINDER = mujoco.mjtGeom.mjGEOM_CYLINDER
_SITE = mujoco.mjtObj.mjOBJ_SITE

# dm_control rodent.py: torque sensors are squashed with tanh(2 v / 60).
_TORQUE_THRESHOLD = 60.0
# Geom groups of dm_control's rat: collision primitives in 2 (hidden from the
# egocentric camera with the cosmetic group 1).
_COLLISION_GROUP = 2
_COSMETIC_GROUP = 1
# Friction (slide, spin, roll) and contact dimensions: feet and hands grip.
_DEFAULT_FRICTION = (0.7, 0.005, 0.0001)
_GRIP_FRICTION = (1.5, 0.005, 0.0001)


def _degrees(low: float, high: float) -> tuple[float, float]:
    """A joint range given in degrees, in radians: dm_control's rodent.xml gives its
    ranges in radians of whole degrees (0.5235987755982988 = 30 degrees) but for
    cervical_extend's lower limit, -70/3 degrees."""
    return float(np.deg2rad(low)), float(np.deg2rad(high))


# Joint classes: (range (rad), stiffness, damping, armature).
_JOINT_CLASSES: dict[str, tuple[tuple[float, float], float, float, float]] = {
    "lumbar_extend": (_degrees(-30, 45), 0.02, 0.03, 1e-5),
    "lumbar_bend": (_degrees(-30, 30), 0.03, 0.03, 1e-5),
    "lumbar_twist": (_degrees(-30, 30), 0.03, 0.03, 1e-5),
    "hip_supinate": (_degrees(-40, 30), 0.0, 0.02, 1e-5),
    "hip_abduct": (_degrees(-30, 60), 0.0, 0.02, 1e-5),
    "hip_extend": (_degrees(-90, 60), 0.0, 0.02, 1e-5),
    "knee": (_degrees(-70, 88), 0.0, 0.005, 6e-7),
    "ankle": (_degrees(-8, 80), 0.0, 0.003, 6e-7),
    "toe": (_degrees(0, 50), 0.0, 0.001, 6e-7),
    "caudal_extend": (_degrees(-15, 15), 1e-5, 0.002, 6e-7),
    "caudal_bend": (_degrees(-15, 15), 1e-5, 0.002, 6e-7),
    "cervical_extend": (_degrees(-70 / 3, 35), 1.0, 1.0, 1e-3),
    "cervical_bend": (_degrees(-35, 35), 1.0, 1.0, 1e-3),
    "cervical_twist": (_degrees(-35, 35), 1.0, 1.0, 1e-3),
    "atlas": (_degrees(-5, 45), 0.002, 0.002, 6e-7),
    "mandible": (_degrees(-17, 15), 0.002, 0.002, 6e-7),
    "scapula_supinate": (_degrees(-1, 10), 0.0, 0.005, 6e-7),
    "scapula_abduct": (_degrees(-15, 15), 0.0, 0.005, 6e-7),
    "scapula_extend": (_degrees(-2, 2), 0.0, 0.005, 6e-7),
    "shoulder": (_degrees(-75, 50), 0.0, 0.005, 6e-7),
    "shoulder_sup": (_degrees(-3, 65), 0.0, 0.005, 6e-7),
    "elbow": (_degrees(-75, 40), 0.0, 0.003, 6e-7),
    "wrist": (_degrees(-20, 120), 0.0, 0.002, 6e-7),
    "finger": (_degrees(0, 90), 0.0, 0.002, 6e-7),
}

# Bodies in model order: (name, parent, position in the parent (m), mass (kg),
# joints as (name, class, axis)).
_X, _Y, _Z = (1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)
_Body = tuple[str, str, tuple[float, float, float], float, tuple[tuple[str, str, Any], ...]]


def _leg(side: str, sign: float) -> list[_Body]:
    return [
        (
            f"upper_leg_{side}",
            "pelvis",
            (-0.00481, sign * 0.01149, -0.00989),
            0.017485,
            (
                (f"hip_{side}_supinate", "hip_supinate", (0.0, 0.0, sign)),
                (f"hip_{side}_abduct", "hip_abduct", (sign, 0.0, 0.0)),
                (f"hip_{side}_extend", "hip_extend", _Y),
            ),
        ),
        (
            f"lower_leg_{side}",
            f"upper_leg_{side}",
            (0.01542, sign * 0.01748, -0.0257),
            0.008307,
            ((f"knee_{side}", "knee", (sign * 0.4472, -0.8944, 0.0)),),
        ),
        (
            f"foot_{side}",
            f"lower_leg_{side}",
            (-0.0323, sign * -0.00473, -0.02206),
            0.00192,
            ((f"ankle_{side}", "ankle", (sign * -0.2873, 0.9578, 0.0)),),
        ),
        (
            f"toe_{side}",
            f"foot_{side}",
            (0.0211, sign * 0.00761, -0.00275),
            0.000483,
            ((f"toe_{side}", "toe", _Y),),
        ),
    ]


def _arm(side: str, sign: float) -> list[_Body]:
    return [
        (
            f"scapula_{side}",
            "torso",
            (0.00656, sign * 0.00164, 0.01148),
            0.00383,
            (
                (f"scapula_{side}_supinate", "scapula_supinate", (0.0, 0.0, sign)),
                (f"scapula_{side}_abduct", "scapula_abduct", (sign, 0.0, 0.0)),
                (f"scapula_{side}_extend", "scapula_extend", (sign * 0.2873, 0.9578, 0.0)),
            ),
        ),
        (
            f"upper_arm_{side}",
            f"scapula_{side}",
            (0.0287, sign * 0.00984, -0.02542),
            0.003932,
            (
                (f"shoulder_{side}", "shoulder", _Y),
                (f"shoulder_sup_{side}", "shoulder_sup", (0.0, 0.0, -sign)),
            ),
        ),
        (
            f"lower_arm_{side}",
            f"upper_arm_{side}",
            (-0.01593, sign * 0.01036, -0.0223),
            0.00178,
            ((f"elbow_{side}", "elbow", (0.0, 0.9806, sign * 0.1961)),),
        ),
        (
            f"hand_{side}",
            f"lower_arm_{side}",
            (0.0216, sign * 0.0126, -0.0198),
            0.000563,
            ((f"wrist_{side}", "wrist", (sign * 0.5145, -0.8575, 0.0)),),
        ),
        (
            f"finger_{side}",
            f"hand_{side}",
            (0.00303, sign * 0.00152, -0.00834),
            0.000149,
            ((f"finger_{side}", "finger", (sign * -0.4472, 0.8944, 0.0)),),
        ),
    ]


# Tail segments C1..C30: (position in the parent (x, z), mass, joints). The
# first six bend and extend; then extension and bending alternate every other
# segment (C7 extend, C9 bend, C11 extend, ...). dm_control tilts each bend
# axis with the tail's curve; here every bend axis is the tail's -z.
_TAIL = (
    ((-0.01579, -0.01188), 0.003709),
    ((-0.00388, -0.00423), 0.002022),
    ((-0.00342, -0.00426), 0.00186),
    ((-0.00327, -0.00442), 0.001169),
    ((-0.00318, -0.00457), 0.000448),
    ((-0.00312, -0.0049), 0.000331),
    ((-0.00322, -0.00564), 0.00023),
    ((-0.00345, -0.00552), 0.000173),
    ((-0.00429, -0.00512), 0.000206),
    ((-0.00486, -0.00456), 0.000279),
    ((-0.00537, -0.00436), 0.000111),
    ((-0.00613, -0.00384), 0.000109),
    ((-0.0069, -0.00259), 7.5e-05),
    ((-0.00683, -0.00091), 5.5e-05),
    ((-0.00653, -0.00032), 5.8e-05),
    ((-0.00669, -0.00014), 6.3e-05),
    ((-0.00649, -0.00002), 4.9e-05),
    ((-0.00621, 0.0), 5.1e-05),
    ((-0.0062, 0.0), 5.3e-05),
    ((-0.00623, 0.0), 4.4e-05),
    ((-0.00612, -0.00011), 4.5e-05),
    ((-0.00651, -0.00001), 3.3e-05),
    ((-0.00639, 0.0), 3.5e-05),
    ((-0.00618, 0.0), 3.6e-05),
    ((-0.00597, 0.0), 3.7e-05),
    ((-0.00563, 0.0), 3.8e-05),
    ((-0.00519, 0.0), 3.9e-05),
    ((-0.00504, 0.0), 3.6e-05),
    ((-0.00477, 0.0), 3.7e-05),
    ((-0.00401, 0.0), 3.8e-05),
)


def _tail() -> list[_Body]:
    bodies: list[_Body] = []
    parent = "pelvis"
    for index, ((x, z), mass) in enumerate(_TAIL, start=1):
        name = f"vertebra_C{index}"
        joints: list[tuple[str, str, Any]] = []
        if index <= 6:
            joints = [
                (f"{name}_extend", "caudal_extend", _Y),
                (f"{name}_bend", "caudal_bend", (0.0, 0.0, -1.0)),
            ]
        elif index % 2 == 1 and index <= 29:
            # C7, C11, ..., C27 extend; C9, C13, ..., C29 bend.
            if (index - 7) % 4 == 0:
                joints = [(f"{name}_extend", "caudal_extend", _Y)]
            else:
                joints = [(f"{name}_bend", "caudal_bend", (0.0, 0.0, -1.0))]
        bodies.append((name, parent, (x, 0.0, z), mass, tuple(joints)))
        parent = name
    return bodies


_CERVICAL = (
    ("vertebra_cervical_5", (0.02771, 0.0, -0.001), 0.000916, "extend", _Y),
    ("vertebra_cervical_4", (0.00241, 0.0, 0.00081), 0.000745, "bend", (-0.3186, 0.0, 0.9479)),
    ("vertebra_cervical_3", (0.00215, 0.0, 0.00094), 0.000596, "twist", (0.916, 0.0, 0.4011)),
    ("vertebra_cervical_2", (0.0019, 0.0, 0.00087), 0.000469, "extend", _Y),
    ("vertebra_cervical_1", (0.00178, 0.0, 0.00094), 0.000361, "bend", (-0.4656, 0.0, 0.885)),
    ("vertebra_axis", (0.00188, 0.0, 0.00171), 0.000271, "twist", (0.741, -0.0007, 0.6715)),
    ("vertebra_atlant", (0.00245, 0.0, 0.00137), 0.000198, "extend", _Y),
)


def _bodies() -> list[_Body]:
    bodies: list[_Body] = [("torso", "", (0.031, 0.0, 0.0651), 0.061196, ())]
    parent = "torso"
    lumbar = (
        ((-0.01918, 0.0, 0.01685), "extend", _Y),
        ((-0.00563, 0.0, 0.00053), "bend", _Z),
        ((-0.00652, 0.0, -0.00009), "twist", _X),
        ((-0.00678, 0.0, -0.0013), "extend", _Y),
        ((-0.00689, 0.0, -0.0025), "bend", _Z),
        ((-0.00619, 0.0, -0.00364), "twist", _X),
    )
    for index, (position, kind, axis) in enumerate(lumbar, start=1):
        name = f"vertebra_{index}"
        bodies.append(
            (name, parent, position, 0.002094, ((f"{name}_{kind}", f"lumbar_{kind}", axis),))
        )
        parent = name
    bodies.append(("pelvis", parent, (-0.01307, 0.0, -0.00812), 0.14427, ()))
    bodies += _leg("L", 1.0) + _leg("R", -1.0)
    bodies += _tail()
    parent = "torso"
    for name, position, mass, kind, axis in _CERVICAL:
        bodies.append(
            (name, parent, position, mass, ((f"{name}_{kind}", f"cervical_{kind}", axis),))
        )
        parent = name
    bodies.append(
        (
            "skull",
            parent,
            (0.02596, 0.0, 0.00177),
            0.023932,
            (("atlas", "atlas", (0.0, -1.0, 0.0)),),
        )
    )
    bodies.append(
        ("jaw", "skull", (0.00045, 0.0, -0.0164), 0.003896, (("mandible", "mandible", _Y),))
    )
    bodies += _arm("L", 1.0) + _arm("R", -1.0)
    return bodies


# One collision primitive per body: (geom name, type, size, position, quaternion).
def _geom(body: str) -> tuple[str, Any, Sequence[float], Sequence[float], Sequence[float]]:
    identity = (1.0, 0.0, 0.0, 0.0)
    if body == "torso":
        return (
            "collision_torso",
            _ELLIPSOID,
            (0.05, 0.024, 0.026),
            (-0.0082, 0, 0),
            (0.9962, 0, 0.0872, 0),
        )
    if re.fullmatch(r"vertebra_\d", body):
        return (f"{body}_collision", _SPHERE, (0.01,), (0, 0, -0.00164), identity)
    if body == "pelvis":
        return (
            "collision_pelvis_gut",
            _ELLIPSOID,
            (0.02, 0.02, 0.018),
            (0.0205, 0, -0.0164),
            (0.9659, 0, -0.2588, 0),
        )
    match = re.fullmatch(r"vertebra_C(\d+)", body)
    if match:
        # A capsule along the tail, thinning towards the tip.
        index = int(match.group(1))
        radius = max(0.0013, 0.0045 * 0.93 ** (index - 1))
        return (f"{body}_collision", _CAPSULE, (radius, 0.003), (0, 0, 0), (0.7071, 0, 0.7071, 0))
    if body.startswith("vertebra_") or body == "vertebra_axis":
        cervical_radius = {
            "vertebra_cervical_5": 0.009,
            "vertebra_cervical_4": 0.0084,
            "vertebra_cervical_3": 0.0078,
            "vertebra_cervical_2": 0.0072,
            "vertebra_cervical_1": 0.0066,
            "vertebra_axis": 0.006,
            "vertebra_atlant": 0.0054,
        }[body]
        return (f"{body}_collision", _SPHERE, (cervical_radius,), (0, 0, 0), identity)
    if body == "skull":
        return (
            "skull_0_collision",
            _ELLIPSOID,
            (0.0221, 0.0167, 0.01),
            (-0.00906, 0, 0.00082),
            (0.9962, 0, 0.0872, 0),
        )
    if body == "jaw":
        return (
            "jaw_back_collision",
            _ELLIPSOID,
            (0.01215, 0.01336, 0.007),
            (-0.01087, 0, 0.00205),
            (0.887, 0, 0.4617, 0),
        )
    side = body[-1]
    sign = 1.0 if side == "L" else -1.0
    kind = body[:-2]
    limb = {
        "upper_leg": (
            f"upper_leg_{side}0_collision",
            _CAPSULE,
            (0.00874, 0.01748),
            (0.0086, sign * 0.01075, -0.0129),
            (0.8962, sign * 0.2826, -0.3262, sign * -0.1028),
        ),
        "lower_leg": (
            f"lower_leg_{side}_collision",
            _CAPSULE,
            (0.00656, 0.01923),
            (-0.01226, 0.0, -0.01072),
            (0.5844, sign * 0.2786, 0.39, sign * 0.6548),
        ),
        "foot": (
            f"foot_{side}_collision",
            _CAPSULE,
            (0.00321, 0.01238),
            (0.00827, sign * 0.00226, -0.00226),
            (0.5792, 0.5792, sign * -0.4056, sign * -0.4056),
        ),
        "toe": (
            f"toe_{side}1_collision",
            _CAPSULE,
            (0.00238, 0.00777),
            (0.00807, sign * 0.00255, 0.0),
            (0.5792, 0.5792, sign * -0.4056, sign * -0.4056),
        ),
        "scapula": (
            f"scapula_{side}_collision",
            _ELLIPSOID,
            (0.005, 0.01463, 0.02431),
            (0.01757, sign * 0.00864, -0.01523),
            (0.1844, 0.7692, 0.474, 0.3868) if side == "L" else (0.3868, 0.474, 0.7692, 0.1844),
        ),
        "upper_arm": (
            f"humerus_{side}_collision",
            _CAPSULE,
            (0.00777, 0.01554),
            (-0.00774, sign * 0.00579, -0.01198),
            (0.4726, 0.345, 0.0007, 0.811) if side == "L" else (0.811, 0.0007, 0.345, 0.4726),
        ),
        "lower_arm": (
            f"radius_{side}_collision",
            _CAPSULE,
            (0.00373, 0.01592),
            (0.01151, sign * 0.00685, -0.01223),
            (0.0238, 0.7918, 0.4232, 0.4398) if side == "L" else (0.4398, 0.4232, 0.7918, 0.0238),
        ),
        "hand": (
            f"hand_{side}_collision",
            _ELLIPSOID,
            (0.00647, 0.0037, 0.00222),
            (0.00152, sign * 0.00076, -0.00455),
            (0.8421, sign * -0.1344, 0.4855, sign * 0.1924),
        ),
        "finger": (
            f"finger_{side}1_collision",
            _CAPSULE,
            (0.00185, 0.0037),
            (0.00455, sign * 0.0019, 0.0),
            (0.6029, 0.6029, sign * -0.3695, sign * -0.3695),
        ),
    }
    return limb[kind]


# Bodies whose geoms do not attract others (conaffinity 0), and those that grip.
_NO_AFFINITY = re.compile(
    r"torso|pelvis|vertebra_\d|vertebra_cervical_\d|vertebra_axis|vertebra_atlant|scapula_[LR]"
)
_GRIPPING = re.compile(r"(foot|toe|hand|finger)_[LR]")

# Pairs of bodies that never collide (dm_control rodent.xml's exclusions).
_EXCLUDES = (
    ("torso", "upper_arm_L"),
    ("torso", "upper_arm_R"),
    ("pelvis", "lower_leg_L"),
    ("pelvis", "lower_leg_R"),
    *(("pelvis", f"vertebra_C{i}") for i in range(2, 7)),
    ("upper_leg_L", "vertebra_C1"),
    ("upper_leg_L", "vertebra_C2"),
    ("upper_leg_R", "vertebra_C1"),
    ("upper_leg_R", "vertebra_C2"),
    *((f"vertebra_C{i}", f"vertebra_C{i + k}") for i in range(1, 5) for k in (2, 3)),
    ("vertebra_C5", "vertebra_C7"),
    ("vertebra_cervical_2", "skull"),
    ("vertebra_cervical_1", "skull"),
    ("vertebra_axis", "skull"),
    ("upper_arm_L", "upper_arm_R"),
)

# Tendons coupling joints: name -> ((joint, coefficient), ...).
_TENDONS: dict[str, tuple[tuple[str, float], ...]] = {
    "lumbar_extend": (("vertebra_1_extend", 0.605), ("vertebra_4_extend", 0.395)),
    "lumbar_bend": (("vertebra_2_bend", 0.6582), ("vertebra_5_bend", 0.3418)),
    "lumbar_twist": (("vertebra_3_twist", 0.5707), ("vertebra_6_twist", 0.4293)),
    "cervical_extend": (
        ("vertebra_cervical_5_extend", 0.3417),
        ("vertebra_cervical_2_extend", 0.3324),
        ("vertebra_atlant_extend", 0.3259),
    ),
    "cervical_bend": (("vertebra_cervical_4_bend", 0.5074), ("vertebra_cervical_1_bend", 0.4926)),
    "cervical_twist": (("vertebra_cervical_3_twist", 0.4961), ("vertebra_axis_twist", 0.5039)),
    "caudal_extend": tuple(
        zip(
            [f"vertebra_C{i}_extend" for i in (1, 2, 3, 4, 5, 6, 7, 11, 15, 19, 23, 27)],
            (
                0.2901,
                0.2077,
                0.1516,
                0.1154,
                0.0875,
                0.0693,
                0.0559,
                0.0175,
                0.0041,
                7.5e-4,
                8.6e-5,
                1.4e-5,
            ),
        )
    ),
    "caudal_bend": tuple(
        zip(
            [f"vertebra_C{i}_bend" for i in (1, 2, 3, 4, 5, 6, 9, 13, 17, 21, 25, 29)],
            (
                0.3708,
                0.2335,
                0.1509,
                0.1019,
                0.0672,
                0.044,
                0.0188,
                0.01,
                0.0025,
                3.8e-4,
                4.1e-5,
                1.4e-5,
            ),
        )
    ),
}

# Position actuators: (target, stiffness kp, force limit) in dm_control's order;
# the gain and bias map a control in [-1, 1] onto the target's range.
_TENDON_ACTUATORS = (
    ("lumbar_extend", 20.0, 20.0),
    ("lumbar_bend", 20.0, 20.0),
    ("lumbar_twist", 20.0, 20.0),
    ("cervical_extend", 20.0, 20.0),
    ("cervical_bend", 20.0, 20.0),
    ("cervical_twist", 20.0, 20.0),
    ("caudal_extend", 0.1, 0.1),
    ("caudal_bend", 0.1, 0.1),
)
_LEG_GAINS = (
    ("hip_{}_supinate", 0.4, 0.2),
    ("hip_{}_abduct", 0.4, 0.2),
    ("hip_{}_extend", 0.6, 0.3),
    ("knee_{}", 0.4, 0.2),
    ("ankle_{}", 0.4, 0.2),
    ("toe_{}", 0.05, 0.025),
)
_ARM_GAINS = (
    ("scapula_{}_supinate", 0.5, 0.25),
    ("scapula_{}_abduct", 0.5, 0.25),
    ("scapula_{}_extend", 0.5, 0.25),
    ("shoulder_{}", 0.3, 0.15),
    ("shoulder_sup_{}", 0.3, 0.15),
    ("elbow_{}", 0.3, 0.15),
    ("wrist_{}", 0.1, 0.05),
    ("finger_{}", 0.05, 0.025),
)
_JOINT_ACTUATORS = (
    *((name.format(side), kp, force) for side in "LR" for name, kp, force in _LEG_GAINS),
    ("atlas", 0.05, 0.025),
    ("mandible", 0.05, 0.025),
    *((name.format(side), kp, force) for side in "LR" for name, kp, force in _ARM_GAINS),
)
# The actuators' activation filter time constant, s.
_ACTUATOR_TIME_CONSTANT_S = 0.04

# Sites: (name, body, type, size, position, group).
_SITES = (
    *(
        (name, body, kind, size, position, group)
        for side, sign in (("L", 1.0), ("R", -1.0))
        for name, body, kind, size, position, group in (
            (f"hip_{side}", "pelvis", _SPHERE, (0.0022,), (-0.0048, sign * 0.0115, -0.0099), 3),
            (
                f"knee_{side}",
                f"upper_leg_{side}",
                _CYLINDER,
                (0.0006, 0.004),
                (0.0154, sign * 0.0175, -0.0257),
                3,
            ),
            (
                f"ankle_{side}",
                f"lower_leg_{side}",
                _CYLINDER,
                (0.0006, 0.0026),
                (-0.0323, sign * -0.0047, -0.0221),
                3,
            ),
            (
                f"toe_{side}",
                f"foot_{side}",
                _CYLINDER,
                (0.0006, 0.005),
                (0.0211, sign * 0.0076, -0.0028),
                3,
            ),
            (
                f"sole_{side}",
                f"toe_{side}",
                _BOX,
                (0.006, 0.004, 0.002),
                (0.0082, sign * 0.0025, -0.0016),
                4,
            ),
        )
    ),
    ("head", "skull", _BOX, (0.002, 0.002, 0.002), (0.0, 0.0, 0.0), 4),
    *(
        (name, body, kind, size, position, group)
        for side, sign in (("L", 1.0), ("R", -1.0))
        for name, body, kind, size, position, group in (
            (
                f"shoulder_{side}",
                f"scapula_{side}",
                _SPHERE,
                (0.002,),
                (0.0287, sign * 0.0098, -0.0254),
                3,
            ),
            (
                f"elbow_{side}",
                f"upper_arm_{side}",
                _CYLINDER,
                (0.0006, 0.004),
                (-0.0159, sign * 0.0104, -0.0223),
                3,
            ),
            (
                f"wrist_{side}",
                f"lower_arm_{side}",
                _CYLINDER,
                (0.0008, 0.0034),
                (0.0216, sign * 0.0126, -0.0198),
                3,
            ),
            (
                f"finger_{side}",
                f"hand_{side}",
                _CYLINDER,
                (0.0006, 0.005),
                (0.003, sign * 0.0015, -0.0083),
                3,
            ),
            (
                f"palm_{side}",
                f"finger_{side}",
                _BOX,
                (0.004, 0.004, 0.002),
                (0.0049, sign * 0.0025, -0.0016),
                4,
            ),
        )
    ),
)

# dm_control rodent.py's mocap joint order.
_RAT_MOCAP_JOINTS = (
    "vertebra_1_extend", "vertebra_2_bend", "vertebra_3_twist", "vertebra_4_extend",
    "vertebra_5_bend", "vertebra_6_twist", "hip_L_supinate", "hip_L_abduct", "hip_L_extend",
    "knee_L", "ankle_L", "toe_L", "hip_R_supinate", "hip_R_abduct", "hip_R_extend", "knee_R",
    "ankle_R", "toe_R", "vertebra_C1_extend", "vertebra_C1_bend", "vertebra_C2_extend",
    "vertebra_C2_bend", "vertebra_C3_extend", "vertebra_C3_bend", "vertebra_C4_extend",
    "vertebra_C4_bend", "vertebra_C5_extend", "vertebra_C5_bend", "vertebra_C6_extend",
    "vertebra_C6_bend", "vertebra_C7_extend", "vertebra_C9_bend", "vertebra_C11_extend",
    "vertebra_C13_bend", "vertebra_C15_extend", "vertebra_C17_bend", "vertebra_C19_extend",
    "vertebra_C21_bend", "vertebra_C23_extend", "vertebra_C25_bend", "vertebra_C27_extend",
    "vertebra_C29_bend", "vertebra_cervical_5_extend", "vertebra_cervical_4_bend",
    "vertebra_cervical_3_twist", "vertebra_cervical_2_extend", "vertebra_cervical_1_bend",
    "vertebra_axis_twist", "vertebra_atlant_extend", "atlas", "mandible", "scapula_L_supinate",
    "scapula_L_abduct", "scapula_L_extend", "shoulder_L", "shoulder_sup_L", "elbow_L",
    "wrist_L", "finger_L", "scapula_R_supinate", "scapula_R_abduct", "scapula_R_extend",
    "shoulder_R", "shoulder_sup_R", "elbow_R", "wrist_R", "finger_R",
)  # fmt: skip

# The order dm_control's rodent.xml writes the joints in, which is the order of
# PyMJCF's `find_all("joint")` and so of dm_control's `primary_joints` and
# `vertebra_joints`: the file lists some spine and tail joints after the bodies
# nested in theirs, so it is not the compiled model's order.
_RAT_DOCUMENT_JOINTS = (
    "vertebra_6_twist", "hip_L_supinate", "hip_L_abduct", "hip_L_extend", "knee_L", "ankle_L",
    "toe_L", "hip_R_supinate", "hip_R_abduct", "hip_R_extend", "knee_R", "ankle_R", "toe_R",
    "vertebra_C29_bend", "vertebra_C27_extend", "vertebra_C25_bend", "vertebra_C23_extend",
    "vertebra_C21_bend", "vertebra_C19_extend", "vertebra_C17_bend", "vertebra_C15_extend",
    "vertebra_C13_bend", "vertebra_C11_extend", "vertebra_C9_bend", "vertebra_C7_extend",
    "vertebra_C6_extend", "vertebra_C6_bend", "vertebra_C5_extend", "vertebra_C5_bend",
    "vertebra_C4_extend", "vertebra_C4_bend", "vertebra_C3_extend", "vertebra_C3_bend",
    "vertebra_C2_extend", "vertebra_C2_bend", "vertebra_C1_extend", "vertebra_C1_bend",
    "vertebra_5_bend", "vertebra_4_extend", "vertebra_3_twist", "vertebra_2_bend",
    "vertebra_1_extend", "vertebra_atlant_extend", "atlas", "mandible", "vertebra_axis_twist",
    "vertebra_cervical_1_bend", "vertebra_cervical_2_extend", "vertebra_cervical_3_twist",
    "vertebra_cervical_4_bend", "vertebra_cervical_5_extend", "scapula_L_supinate",
    "scapula_L_abduct", "scapula_L_extend", "shoulder_L", "shoulder_sup_L", "elbow_L",
    "wrist_L", "finger_L", "scapula_R_supinate", "scapula_R_abduct", "scapula_R_extend",
    "shoulder_R", "shoulder_sup_R", "elbow_R", "wrist_R", "finger_R",
)  # fmt: skip
_PRIMARY_JOINTS = tuple(name for name in _RAT_DOCUMENT_JOINTS if "vertebra" not in name)
_VERTEBRA_JOINTS = tuple(name for name in _RAT_DOCUMENT_JOINTS if "vertebra" in name)

_TORSO_HEIGHT_M = 0.0651
# dm_control's rat cameras (rodent.xml): (name, position in m, xyaxes, zaxis, fovy
# in degrees or None for MuJoCo's 45).
_TRACKING_CAMERAS = (
    ("back", (-1.0, 0.0, 0.5), (0.0, -1.0, 0.0, 1.0, 0.0, 2.0), None, None),
    ("side", (0.0, -1.0, 0.5), (1.0, 0.0, 0.0, 0.0, 1.0, 2.0), None, None),
    ("side_alt", (0.5, -0.561, 0.199), (0.766, 0.643, 0.0, -0.162, 0.192, 0.968), None, None),
    ("top", (0.0, 0.0, 1.0), None, (0.0, -0.2, 1.0), 100.0),
)


class RodentObservables(legacy_base.LegacyWalkerObservables):
    """The legacy walker observables and the rat's: head height, tendon lengths and
    velocities, actuator activations, appendage positions, squashed torques."""

    _entity: Rat

    @composer.observable
    def head_height(self) -> observable.Observable:
        """World z of the skull, metres."""
        return observable.MJCFFeature("xpos", self._entity._head, index=2)

    @composer.observable
    def sensors_torque(self) -> observable.Observable:
        """The torque sensors squashed by tanh(2 v / 60) (the rat has none: (0,))."""
        sensors = list(self._entity._torque_sensors)
        if not sensors:
            return observable.Generic(lambda physics: np.zeros(0))
        return observable.MJCFFeature(
            "sensordata",
            sensors,
            corruptor=lambda value, random_state: np.tanh(2 * value / _TORQUE_THRESHOLD),
        )

    @composer.observable
    def tendons_pos(self) -> observable.Observable:
        """Lengths of the 8 coupling tendons (radians of their joints)."""
        return _TendonFeature("length", self._entity)

    @composer.observable
    def tendons_vel(self) -> observable.Observable:
        """Rates of the 8 coupling tendons."""
        return _TendonFeature("velocity", self._entity)

    @composer.observable
    def actuator_activation(self) -> observable.Observable:
        """The actuators' filtered activations, one per actuator."""
        return observable.MJCFFeature("act", list(self._entity._actuators))

    @composer.observable
    def appendages_pos(self) -> observable.Observable:
        """End effectors and head relative to the torso, egocentric, metres (15,)."""
        entity = self._entity

        def relative_positions(physics: Physics) -> np.ndarray:
            bodies = [*entity._end_effectors, entity._head]
            positions = np.reshape(physics.bind(bodies).xpos, (-1, 3))
            torso = np.reshape(physics.bind(entity._root_body).xpos, 3)
            rotation = np.reshape(physics.bind(entity._root_body).xmat, (3, 3))
            return np.reshape((positions - torso) @ rotation, -1)

        return observable.Generic(relative_positions)

    @composer.observable
    def egocentric_camera(self) -> observable.Observable:
        """64 x 64 RGB from the skull, the rat's own geoms hidden."""
        option = mujoco.MjvOption()
        option.geomgroup[_COLLISION_GROUP] = 0
        option.geomgroup[_COSMETIC_GROUP] = 0
        return observable.MJCFCamera(
            self._entity._egocentric_camera, width=64, height=64, scene_option=option
        )

    @property
    def proprioception(self) -> list[observable.Observable]:
        """dm_control's rat order: joints, tendons, activations, body height, end
        effectors, appendages, the world's z axis."""
        return [
            self.joints_pos,
            self.joints_vel,
            self.tendons_pos,
            self.tendons_vel,
            self.actuator_activation,
            self.body_height,
            self.end_effectors_pos,
            self.appendages_pos,
            self.world_zaxis,
        ]


class Rat(legacy_base.LegacyWalker):
    """dm_control's position-controlled rat, controls in [-1, 1] (see the module
    docstring).

    Args:
      params: dm_control's parameter dict (`_STAND_HEIGHT`, `_XML_PATH`); kept
        for `standing_height`'s dm_control form; None uses the torso's height.
      name: the entity's name.
      torque_actuators: make the actuators torque motors (gain = force limit,
        no bias), as dm_control's option.
      foot_mods: dm_control's narrower ankle (-0.1, 2) and toe (-0.7, 0.87) ranges.
      initializer: None, a pose initializer or a sequence of them.
    """

    def _build(
        self,
        params: dict[str, Any] | None = None,
        name: str = "walker",
        torque_actuators: bool = False,
        foot_mods: bool = False,
        initializer: Any = None,
    ) -> None:
        self.params = params
        spec = mujoco.MjSpec()
        spec.modelname = name
        spec.compiler.degree = False
        classes = dict(_JOINT_CLASSES)
        if foot_mods:
            classes["ankle"] = ((-0.1, 2.0), *classes["ankle"][1:])
            classes["toe"] = ((-0.7, 0.87), *classes["toe"][1:])
        bodies: dict[str, mujoco.MjsBody] = {}
        joints: dict[str, mujoco.MjsJoint] = {}
        geoms: dict[str, list[mujoco.MjsGeom]] = {}
        order: list[str] = []
        for body_name, parent_name, position, mass, body_joints in _bodies():
            parent = spec.worldbody if not parent_name else bodies[parent_name]
            body = parent.add_body(name=body_name, pos=list(position))
            bodies[body_name] = body
            order.append(body_name)
            for joint_name, joint_class, axis in body_joints:
                joint_range, stiffness, damping, armature = classes[joint_class]
                joints[joint_name] = body.add_joint(
                    name=joint_name,
                    type=mujoco.mjtJoint.mjJNT_HINGE,
                    axis=list(axis),
                    range=list(joint_range),
                    limited=mujoco.mjtLimited.mjLIMITED_TRUE,
                    stiffness=stiffness,
                    damping=damping,
                    armature=armature,
                )
            geom_name, geom_type, size, geom_pos, geom_quat = _geom(body_name)
            grips = bool(_GRIPPING.fullmatch(body_name))
            geoms[body_name] = [
                body.add_geom(
                    name=geom_name,
                    type=geom_type,
                    size=[*size, *([0.0] * (3 - len(size)))],
                    pos=list(geom_pos),
                    quat=list(geom_quat),
                    mass=mass,
                    group=_COLLISION_GROUP,
                    contype=1,
                    conaffinity=0 if _NO_AFFINITY.fullmatch(body_name) else 1,
                    friction=list(_GRIP_FRICTION if grips else _DEFAULT_FRICTION),
                    condim=3 if grips else 1,
                    rgba=[0.6, 0.5, 0.45, 1.0],
                )
            ]
        for first, second in _EXCLUDES:
            spec.add_exclude(bodyname1=first, bodyname2=second)
        tendons = []
        tendon_ranges = {}
        for tendon_name, couplings in _TENDONS.items():
            tendon = spec.add_tendon(name=tendon_name)
            low = high = 0.0
            for joint_name, coefficient in couplings:
                tendon.wrap_joint(joint_name, coefficient)
                joint_low, joint_high = joints[joint_name].range
                low += coefficient * joint_low
                high += coefficient * joint_high
            tendon_ranges[tendon_name] = (low, high)
            tendons.append(tendon)
        for site_name, body_name, site_type, size, site_pos, group in _SITES:
            bodies[body_name].add_site(
                name=site_name,
                type=site_type,
                size=[*size, *([0.0] * (3 - len(size)))],
                pos=list(site_pos),
                group=group,
                rgba=[0.0, 0.0, 1.0, 0.3],
            )
        actuators = []
        for target, kp, force, trntype, target_range in (
            *(
                (name, kp, force, mujoco.mjtTrn.mjTRN_TENDON, tendon_ranges[name])
                for name, kp, force in _TENDON_ACTUATORS
            ),
            *(
                (name, kp, force, mujoco.mjtTrn.mjTRN_JOINT, tuple(joints[name].range))
                for name, kp, force in _JOINT_ACTUATORS
            ),
        ):
            low, high = target_range
            actuator = spec.add_actuator(
                name=target,
                target=target,
                trntype=trntype,
                dyntype=mujoco.mjtDyn.mjDYN_FILTER,
                dynprm=[_ACTUATOR_TIME_CONSTANT_S] + [0.0] * 9,
                gaintype=mujoco.mjtGain.mjGAIN_FIXED,
                biastype=mujoco.mjtBias.mjBIAS_AFFINE,
                ctrlrange=[-1.0, 1.0],
                ctrllimited=mujoco.mjtLimited.mjLIMITED_TRUE,
                forcerange=[-force, force],
                forcelimited=mujoco.mjtLimited.mjLIMITED_FALSE,
            )
            if torque_actuators:
                actuator.gainprm = [force] + [0.0] * 9
                actuator.biastype = mujoco.mjtBias.mjBIAS_NONE
                actuator.biasprm = [0.0] * 10
            else:
                # Control u in [-1, 1] targets the middle of the range plus u half-widths.
                actuator.gainprm = [kp * (high - low) / 2] + [0.0] * 9
                actuator.biasprm = [kp * (high + low) / 2, -kp, 0.0] + [0.0] * 7
            actuators.append(actuator)
        head_site = dict(objtype=_SITE, objname="head")
        accelerometer = spec.add_sensor(
            name="accelerometer", type=mujoco.mjtSensor.mjSENS_ACCELEROMETER, **head_site
        )
        velocimeter = spec.add_sensor(
            name="velocimeter", type=mujoco.mjtSensor.mjSENS_VELOCIMETER, **head_site
        )
        gyro = spec.add_sensor(name="gyro", type=mujoco.mjtSensor.mjSENS_GYRO, **head_site)
        touch_sensors = [
            spec.add_sensor(
                name=site_name, type=mujoco.mjtSensor.mjSENS_TOUCH, objtype=_SITE, objname=site_name
            )
            for site_name in ("palm_L", "palm_R", "sole_L", "sole_R")
        ]
        spec.add_sensor(
            name="torso",
            type=mujoco.mjtSensor.mjSENS_SUBTREELINVEL,
            objtype=mujoco.mjtObj.mjOBJ_BODY,
            objname="torso",
        )
        # dm_control's light above the rat (rodent.xml): 3 m over the torso, following
        # the centre of mass.
        bodies["torso"].add_light(
            name="tracking_light", pos=[0.0, 0.0, 3.0], mode=mujoco.mjtCamLight.mjCAMLIGHT_TRACKCOM
        )
        # dm_control's rat cameras (rodent.xml), `trackcom`, in the torso.
        tracking = [
            base.add_camera(bodies["torso"], name, pos, xyaxes=xyaxes, zaxis=zaxis, fovy=fovy)
            for name, pos, xyaxes, zaxis, fovy in _TRACKING_CAMERAS
        ]
        egocentric = bodies["skull"].add_camera(
            name="egocentric", pos=[0.01, 0.0, 0.005], quat=[0.5, 0.5, -0.5, -0.5], fovy=80.0
        )
        self._spec = spec
        self._bodies = tuple(bodies[name] for name in order)
        self._joints = joints
        self._tendon_names = tuple(tendon.name for tendon in tendons)
        self._head = bodies["skull"]
        self._pelvis = bodies["pelvis"]
        self._arm_roots = (bodies["scapula_L"], bodies["scapula_R"])
        self._joint_actuator_joints = tuple(joints[name] for name, _, _ in _JOINT_ACTUATORS)
        contact_roots = ("foot_L", "foot_R", "hand_L", "hand_R", "vertebra_C1")
        contact_geoms = [
            geom
            for root in contact_roots
            for body_name in self._subtree(root)
            for geom in geoms[body_name]
        ]
        all_joints = [joints[name] for name in _joint_order()]
        self._set_parts(
            root_body=bodies["torso"],
            observable_joints=self._joint_actuator_joints,
            pose_joints=all_joints,
            initial_qpos=np.zeros(len(all_joints)),
            standing_height=_TORSO_HEIGHT_M,
            end_effectors=[bodies[n] for n in ("lower_arm_R", "lower_arm_L", "foot_R", "foot_L")],
            egocentric_camera=egocentric,
            tracking_cameras=tracking,
            root_sensors=(velocimeter, accelerometer, gyro),
            touch_sensors=touch_sensors,
            torque_sensors=(),
            ground_contact_geoms=contact_geoms,
            mocap_tracking_bodies=[
                body for name, body in bodies.items() if not re.match(r"(vertebra|hand|toe)", name)
            ],
        )
        self._init_legacy(marker_geoms=(), initializer=initializer)

    def _subtree(self, root: str) -> list[str]:
        """Names of `root` and its descendant bodies, in model order."""
        parents = {name: parent for name, parent, _, _, _ in _bodies()}
        names = []
        for name in parents:
            ancestor = name
            while ancestor and ancestor != root:
                ancestor = parents[ancestor]
            if ancestor == root:
                names.append(name)
        return names

    def _build_observables(self) -> RodentObservables:
        return RodentObservables(self)

    @property
    def upright_pose(self) -> base.WalkerPose:
        """dm_control's rat upright pose: at the origin, unrotated."""
        return base.WalkerPose(xpos=np.zeros(3), xquat=np.array([1.0, 0.0, 0.0, 0.0]))

    @property
    def standing_height(self) -> float:
        """dm_control's `params['_STAND_HEIGHT']` when `params` has it, else the
        torso's height above the walker's origin (0.065 m)."""
        if self.params and "_STAND_HEIGHT" in self.params:
            return float(self.params["_STAND_HEIGHT"])
        return self._standing_height

    @property
    def pelvis_body(self) -> mjcf.Element:
        return self._handle(self._pelvis)

    @property
    def head(self) -> mjcf.Element:
        return self._handle(self._head)

    @property
    def left_arm_root(self) -> mjcf.Element:
        return self._handle(self._arm_roots[0])

    @property
    def right_arm_root(self) -> mjcf.Element:
        return self._handle(self._arm_roots[1])

    @property
    def bodies(self) -> tuple[mjcf.Element, ...]:
        """All 65 bodies, in model order."""
        return self._handles(self._bodies)

    @property
    def _tendons(self) -> tuple[mujoco.MjsTendon, ...]:
        # Found by name each time: renaming an attached Rat makes its tendons anew
        # (composer_tasks/mjcf/renaming.py).
        model = self.mjcf_model
        spec = model.root_model.spec
        prefix = model.full_identifier
        tendons = tuple(spec.tendon(prefix + name) for name in self._tendon_names)
        if any(tendon is None for tendon in tendons):
            raise RuntimeError(f"the tendons of Rat {model.model!r} are no longer in its model")
        return tendons

    @property
    def observable_tendons(self) -> tuple[mujoco.MjsTendon, ...]:
        """The 8 coupling tendons, as `mujoco.MjsTendon`s (this project's PyMJCF
        handles do not cover tendons; `physics.bind` takes these). Renaming an
        attached Rat (`mjcf_model.model = ...`) makes them anew: read them again."""
        return self._tendons

    @property
    def mocap_joints(self) -> tuple[mjcf.Element, ...]:
        """The 67 joints in dm_control's mocap order."""
        return self._handles(self._joints[name] for name in _RAT_MOCAP_JOINTS)

    @property
    def mocap_joint_order(self) -> tuple[str, ...]:
        return _RAT_MOCAP_JOINTS

    @property
    def primary_joints(self) -> tuple[mjcf.Element, ...]:
        """Joints outside the spine and tail, in the order dm_control lists them
        (its rodent.xml's)."""
        return self._handles(self._joints[name] for name in _PRIMARY_JOINTS)

    @property
    def vertebra_joints(self) -> tuple[mjcf.Element, ...]:
        """The spine's and tail's joints, in the order dm_control lists them (its
        rodent.xml's, not the model's: the file writes some after nested bodies)."""
        return self._handles(self._joints[name] for name in _VERTEBRA_JOINTS)

    @property
    def primary_joint_order(self) -> list[int]:
        """Where each of `primary_joints` sits in `mocap_joint_order`: indices into
        a pose given in mocap order (a list, as dm_control's)."""
        return [_RAT_MOCAP_JOINTS.index(name) for name in _PRIMARY_JOINTS]

    @property
    def vertebra_joint_order(self) -> list[int]:
        """Where each of `vertebra_joints` sits in `mocap_joint_order`."""
        return [_RAT_MOCAP_JOINTS.index(name) for name in _VERTEBRA_JOINTS]

    @property
    def joint_actuators(self) -> tuple[mjcf.Element, ...]:
        """The 30 actuators that drive one joint each."""
        return self._handles(self._actuators[len(_TENDON_ACTUATORS) :])

    @property
    def joint_actuators_range(self) -> list[tuple[float, float]]:
        return [tuple(joint.range) for joint in self._joint_actuator_joints]

    @property
    def joint_actuator_order(self) -> list[int]:
        return [_RAT_MOCAP_JOINTS.index(name) for name, _, _ in _JOINT_ACTUATORS]

    def pose_to_actuation(self, pose: Any) -> np.ndarray:
        """Controls that hold `pose` (joint angles in mocap order): zero for the
        tendon actuators, and each joint actuator's control for its angle."""
        pose = np.asarray(pose, dtype=np.float64)
        if pose.shape != (len(_RAT_MOCAP_JOINTS),):
            raise ValueError(
                f"pose must hold {len(_RAT_MOCAP_JOINTS)} joint angles in mocap order, "
                f"got shape {pose.shape}"
            )
        ranges = np.array(self.joint_actuators_range)
        low, high = ranges[:, 0], ranges[:, 1]
        joint_controls = (2 * pose[self.joint_actuator_order] - (low + high)) / (high - low)
        return np.concatenate([np.zeros(len(_TENDON_ACTUATORS)), joint_controls])


class _TendonFeature(observable.MJCFFeature):
    """An `MJCFFeature` of the Rat's tendons that finds them again when it is read
    for a new physics: renaming an attached Rat makes its tendons anew."""

    def __init__(self, kind: str, walker: Rat) -> None:
        super().__init__(kind, list(walker.observable_tendons))
        self._walker = walker

    def _feature_reader(self, physics: Physics, leading_axis: bool) -> Any:
        tendons = list(self._walker.observable_tendons)
        if any(new is not old for new, old in zip(tendons, self._element_list)):
            self._elements = self._element_list = tendons
        return super()._feature_reader(physics, leading_axis)


def _joint_order() -> list[str]:
    return [joint[0] for _, _, _, _, joints in _bodies() for joint in joints]
