"""FruitFly: dm_control's fruit fly walker (`locomotion.walkers.fruitfly_v2`), in primitives.

Drosophila melanogaster (Vaxenburg et al. 2024, flybody) as dm_control 1.0.50
builds it: 67 bodies (thorax, head with rostrum, haustellum and labella,
antennae, wings, a seven-segment abdomen, halteres and six legs of coxa, femur,
tibia and five tarsal segments), 102 hinge joints, joint and tendon actuators
for the head, mouth, antennae, wings, abdomen and legs (position servos with a
filter, the wings torque motors), adhesion actuators on the claws and labella,
force sensors on the tarsi, touch sensors on the claws, an accelerometer, gyro
and velocimeter in the thorax, two eye cameras, and the fluid (air) model that
lets the wings fly. Units are dm_control's: centimetres, grams, seconds
(gravity 981 cm/s^2, air density 0.00128 g/cm^3, viscosity 0.000185 g/(cm s)).

Facts carried over from dm_control 1.0.50's `walkers/assets/fruitfly_v2/fruitfly.xml`:
body positions and orientations, joint axes, ranges, stiffness, damping,
armature and spring references, tendon couplings, actuator gains, control and
force ranges, contact exclusions, the collision primitives (dm_control collides
through capsules, ellipsoids, cylinders and spheres already), sites, sensors,
cameras, lights and the physics options. dm_control's masses and inertias come
from 85 visual meshes of uniform density; here each body carries the explicit
inertial of dm_control's compiled model (mass, centre of mass, principal axes
and moments, to eight significant digits), and each wing, as there, the inertia
of its massive "inertial" box; so the dynamics, the fluid forces (MuJoCo's
inertia-box model works from the bodies' inertias) and the contacts equal
dm_control's (tests/differential/test_fruitfly.py compares the compiled arrays
and the first steps). Attached to an arena, the fly brings its physics options
and takes the arena's mass bounds, as PyMJCF's merge does (dm_control's arenas
bound masses at 1e-5 and inertias at 1e-11, which lifts the tarsi's masses and
the fly's weight by half, in dm_control too). What differs: the meshes are not
carried over; the fly is drawn with a cosmetic copy of each collision primitive
(geom group 1, no mass, no contacts), so renders, the eye cameras' images
included, differ; `change_body_frame` moves an explicit inertial with the
children, where dm_control moves the mesh geoms the inertia is computed from
(with unnormalised quaternions, so its centre of mass shifts slightly); every
walker here also carries a `front` tracking camera and a subtree-velocity sensor
on the thorax.

The construction options behave as dm_control's `FruitFly._build`: disabled legs
are folded to their spring-reference pose and lose their joints, tendons and
actuators; disabled wings, mouth and antennae keep their joints but lose their
actuators and leave `observable_joints`; with the wings in use, the body pitch
and the wings' stroke plane are set by rotating the `hover_up_dir` site and the
wing frames (`change_body_frame`). The action vector is ordered by action class
(adhesion, head, mouth, antennae, wings, abdomen, legs, user), not by actuator.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import mujoco
import numpy as np
from dm_env import specs
from numpy.typing import ArrayLike

from composer_tasks import composer
from composer_tasks import mjcf
from composer_tasks.composer.observation import observable
from composer_tasks.physics import Physics
from composer_tasks.walkers import base
from composer_tasks.walkers import legacy_base

# dm_control fruitfly_v2.py: the thorax's spawn position above the ground (cm).
_SPAWN_POS = np.array((0.0, 0.0, 0.1278))
# dm_control fruitfly_v2.py: the action classes, in the order of the action vector.
_ACTION_CLASSES = ("adhesion", "head", "mouth", "antennae", "wings", "abdomen", "legs", "user")
# Substrings of the joint, tendon and actuator names of each action class.
_NAME_SUBSTRINGS: dict[str, tuple[str, ...]] = {
    "adhesion": (),
    "head": ("head",),
    "mouth": ("rostrum", "haustellum", "labrum"),
    "antennae": ("antenna",),
    "wings": ("wing",),
    "abdomen": ("abdomen",),
    "legs": ("T1", "T2", "T3"),
    "user": (),
}
# The eye cameras render the fly's own cosmetic geoms (dm_control turns group 1 on).
_COSMETIC_GROUP = 1
_X, _Y, _Z = (1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)

# Physics options of fruitfly.xml (cgs units), merged into the model the fly is
# attached to as dm_control's PyMJCF merges <option>.
_TIMESTEP_S = 1e-4
_GRAVITY = (0.0, 0.0, -981.0)
_AIR_DENSITY = 0.00128
_AIR_VISCOSITY = 0.000185
_NOSLIP_ITERATIONS = 3

# Contact parameters of every geom (fruitfly.xml's top default class).
_FRICTION = 0.5
_ADHESION_FRICTION = 0.6
_ADHESION_MARGIN = 0.0005
_SOLREF = (0.0002, 1.0)
# (dmin, dmax, width; midpoint and power at MuJoCo's defaults).
_SOLIMP = (0.95, 0.99, 0.01, 0.5, 2.0)
# Joints: limit softness and armature of the "body" class.
_JOINT_SOLREFLIMIT = (0.001, 1.0)
_JOINT_ARMATURE = 1e-6
# Halteres: a spring-damper of time constant 0.005 s and damping ratio 0.1.
_HALTERE_SPRINGDAMPER = (0.005, 0.1)
# The wing-inertial boxes' mass (g); their bodies' inertials are explicit here.
_WING_INERTIAL_MASS = 8e-6

# Joint kinds: (stiffness, damping, group).
_JOINT_KINDS: dict[str, tuple[float, float, int]] = {
    "head": (0.03, 0.001, 0),
    "antenna": (0.0, 0.0003, 0),
    "wing": (0.01, 0.0005, 0),
    "abdomen": (0.05, 0.01, 3),
    "leg": (0.01, 0.01, 0),
    "tibia": (0.01, 0.004, 0),
    "tarsus": (0.1, 0.002, 3),
    "haltere": (0.0, 0.0, 0),
}

# Joint classes: (axis, range (rad), spring reference (rad), kind).
_JOINT_CLASSES: dict[str, tuple[tuple[float, float, float], tuple[float, float], float, str]] = {
    "head_abduct": (_Z, (-0.2, 0.2), 0.0, "head"),
    "head_twist": (_Y, (-3.0, 3.0), 0.0, "head"),
    "head": (_X, (-0.5, 0.3), 0.0, "head"),
    "rostrum": (_X, (-1.24, 0.183), 0.0, "head"),
    "haustellum_abduct": (_Z, (-0.0873, 0.0873), 0.0, "head"),
    "haustellum": (_X, (-1.59, 0.7), 0.8, "head"),
    "labrum": (_X, (-0.00524, 1.05), 0.0, "head"),
    "antenna_abduct": (_Z, (-0.4, 0.8), 0.0, "antenna"),
    "antenna_twist": (_Y, (-0.1, 0.09), 0.0, "antenna"),
    "antenna_extend": (_X, (-0.2, 0.5), 0.0, "antenna"),
    "yaw": (_Z, (-1.5, 1.5), 1.5, "wing"),
    "roll": (_X, (-1.0, 1.5), 0.7, "wing"),
    "pitch": (_Y, (-1.27, 2.92), -1.0, "wing"),
    "abduct_abdomen": (_Z, (-0.1, 0.1), 0.0, "abdomen"),
    "extend_abdomen": (_X, (-0.15, 0.1), 0.0, "abdomen"),
    "haltere": (_X, (-0.2, 0.2), 0.0, "haltere"),
    "abduct_coxa_T1": (_Z, (-1.0, 0.7), 0.0, "leg"),
    "twist_coxa_T1": (_Y, (-0.8, 0.8), 0.0, "leg"),
    "extend_coxa_T1": (_X, (-0.2, 1.7), 0.0584, "leg"),
    "abduct_coxa_T2": (_Z, (-0.5, 0.3), -0.292, "leg"),
    "twist_coxa_T2": (_Y, (-0.75, 0.8), -0.742, "leg"),
    "extend_coxa_T2": (_X, (-0.2, 0.9), 0.408, "leg"),
    "abduct_coxa_T3": (_Z, (-0.9, 0.25), 0.0, "leg"),
    "twist_coxa_T3": (_Y, (-0.15, 0.8), 0.00841, "leg"),
    "extend_coxa_T3": (_X, (-0.3, 1.3), 0.158, "leg"),
    "twist_femur_T1": (_Y, (-1.0, 1.0), 0.0, "leg"),
    "twist_femur_T2": (_Y, (-1.0, 1.0), 0.608, "leg"),
    "twist_femur_T3": (_Y, (-1.0, 1.0), 0.558, "leg"),
    "extend_femur_T1": (_X, (-0.15, 2.0), -0.142, "leg"),
    "extend_femur_T2": (_X, (-0.15, 2.0), 0.208, "leg"),
    "extend_femur_T3": (_X, (-0.7, 1.5), 0.258, "leg"),
    "extend_tibia_T1": (_X, (-1.35, 1.3), -1.29, "tibia"),
    "extend_tibia_T2": (_X, (-1.35, 1.3), -1.34, "tibia"),
    "extend_tibia_T3": (_X, (-1.35, 1.3), -0.292, "tibia"),
    "extend_tarsus_T1": (_X, (-0.7, 1.2), -0.242, "leg"),
    "extend_tarsus_T2": (_X, (-1.0, 1.8), 0.608, "leg"),
    "extend_tarsus_T3": (_X, (-0.8, 1.2), 0.258, "leg"),
    "extend_tarsus": (_X, (-0.36, 0.36), 0.0, "tarsus"),
}


def _joint_class(joint: str) -> str:
    """The class of joint `joint` (fruitfly.xml's naming: `coxa_abduct_T1_left`
    is an `abduct_coxa_T1`, `tarsus3_T2_right` an `extend_tarsus`)."""
    side_free = joint.removesuffix("_left").removesuffix("_right")
    if side_free in _JOINT_CLASSES and not side_free.startswith(("antenna", "wing")):
        return side_free
    if side_free.startswith("labrum"):
        return "labrum"
    if side_free.startswith("antenna"):
        return {"antenna_abduct": "antenna_abduct", "antenna_twist": "antenna_twist"}.get(
            side_free, "antenna_extend"
        )
    if side_free.startswith("wing_"):
        return side_free.removeprefix("wing_")
    if side_free.startswith("abdomen_abduct"):
        return "abduct_abdomen"
    if side_free.startswith("abdomen"):
        return "extend_abdomen"
    if side_free.startswith("haltere"):
        return "haltere"
    part, _, segment = side_free.rpartition("_")
    if part in ("coxa_abduct", "coxa_twist", "femur_twist"):
        bone, motion = part.split("_")
        return f"{motion}_{bone}_{segment}"
    if part in ("coxa", "femur", "tibia", "tarsus"):
        return f"extend_{part}_{segment}"
    if part.startswith("tarsus"):
        return "extend_tarsus"
    raise ValueError(f"fruit fly joint {joint!r} has no class")


# Actuated joints and tendons: (actuator, kind, gain, control range or None for
# the joint's range, force limit or None). Position servos have bias (0, -gain,
# 0); wing motors have none. dm_control fruitfly.xml's classes "head",
# "labrum", "antenna", "wing" ("yaw" 3, "roll" 2, "pitch" 1), "abdomen", "coxa",
# "femur" (0.8), "tibia" and "tarsus" (0.4).
_HEAD_ACTUATORS = (
    ("head_abduct", 0.1, 0.1),
    ("head_twist", 0.1, 0.1),
    ("head", 0.1, 0.1),
    ("rostrum", 0.1, 0.1),
    ("haustellum_abduct", 0.1, 0.1),
    ("haustellum", 0.1, 0.1),
    ("labrum_left", 0.01, 0.01),
    ("labrum_right", 0.01, 0.01),
    *(
        (f"{joint}_{side}", 0.01, 0.01)
        for side in ("left", "right")
        for joint in ("antenna_abduct", "antenna_twist", "antenna")
    ),
)
_WING_GAINS = {"yaw": 3.0, "roll": 2.0, "pitch": 1.0}
_ABDOMEN_ACTUATORS = (("abdomen_abduct", (-0.7, 0.7)), ("abdomen", (-1.05, 0.7)))
_ABDOMEN_GAIN = 0.1
_LEG_GAINS = (
    ("coxa_abduct", 0.8),
    ("coxa_twist", 0.8),
    ("coxa", 0.8),
    ("femur_twist", 0.8),
    ("femur", 0.8),
    ("tibia", 0.4),
    ("tarsus", 0.4),
)
_TARSUS_TENDON_GAIN = 0.4
_TARSUS_TENDON_RANGE = (-0.9, 0.9)
# The tarsal tendon couples tarsus2 (coefficient 1) with tarsus3..5 (0.5 each).
_TARSUS_TENDON_COEFFICIENTS = (
    ("tarsus2", 1.0),
    ("tarsus3", 0.5),
    ("tarsus4", 0.5),
    ("tarsus5", 0.5),
)
# Adhesion: (body, gain); control in [0, 1].
_ADHESION_GAINS = {"labrum": 1.0, "claw": 0.985}

_LEGS = tuple(f"{segment}_{side}" for segment in ("T1", "T2", "T3") for side in ("left", "right"))


def _x_rotation(angle: float) -> tuple[float, float, float, float]:
    """The quaternion of a rotation by `angle` (rad) about x (fruitfly.xml's
    `euler="angle 0 0"`)."""
    return (float(np.cos(angle / 2)), float(np.sin(angle / 2)), 0.0, 0.0)


# Bodies in model order: (name, parent, position, orientation, joints, mass (g),
# centre of mass, principal axes (quaternion), principal moments (g cm^2)). The
# inertials are dm_control 1.0.50's compiled `body_mass`, `body_ipos`,
# `body_iquat` and `body_inertia` (from its meshes); the wings have none: their
# inertia is, as in dm_control, their massive "inertial" box's.
_Body = tuple[
    str,
    str,
    tuple[float, float, float],
    tuple[float, float, float, float],
    tuple[str, ...],
    float | None,
    tuple[float, float, float] | None,
    tuple[float, float, float, float] | None,
    tuple[float, float, float] | None,
]
# Geoms: (name, body, kind, type, size, position, orientation, fromto); a capsule
# given by `fromto` has no position or orientation.
_Geom = tuple[str, str, str, str, tuple[float, ...], Any, Any, Any]

# fmt: off
_BODIES: tuple[_Body, ...] = (
    ("thorax", "", (0.0, 0.0, 0.0), (1.0, 0.0, 0.0, 0.0),
     (),
     0.00034, (1.7749687e-06, 3.7809673e-07, 9.602004e-05),
     (0.39257643, 0.58811882, -0.58811882, -0.39257643), (3.7198918e-07, 3.5362563e-07, 2.7739046e-07)),
    ("head", "thorax", (0.0567, 3.81e-07, -0.00305), (0.702, -0.087, 0.087, -0.702),
     ("head_abduct", "head_twist", "head"),
     0.00010107248, (3.1200498e-08, 0.016750815, 0.001251015),
     (0.46514376, 0.53257989, 0.46514389, 0.53257967), (6.6308798e-08, 5.7258714e-08, 3.0863215e-08)),
    ("rostrum", "head", (0.0, 0.0368, -0.0235), (2.2e-07, -1.21e-07, 0.192, -0.981),
     ("rostrum",),
     1.1566052e-05, (-2.0886342e-08, 0.019582994, -0.00061772694),
     (0.80754185, 0.58981027, -1.5013798e-07, 8.5483012e-08), (1.964517e-09, 1.5783498e-09, 1.3770906e-09)),
    ("haustellum", "rostrum", (0.0, 0.0377, 0.0), (2.33e-07, -1.56e-07, -0.347, 0.938),
     ("haustellum_abduct", "haustellum"),
     2.5676835e-06, (4.6089893e-08, 0.012366883, -0.0012227799),
     (0.63295552, 0.77418816, 0.0, 0.0), (1.4727787e-10, 1.4560908e-10, 8.1114352e-11)),
    ("labrum_left", "haustellum", (-0.00263, 0.0182, 0.0), (0.741, -0.0142, -0.591, 0.319),
     ("labrum_left",),
     1.6821377e-06, (-0.00027752776, 0.0087314861, -0.004082494),
     (-0.17447185, -0.7145507, 0.088406912, 0.67168526), (9.4544958e-11, 7.1551435e-11, 4.2517665e-11)),
    ("labrum_right", "haustellum", (0.00263, 0.0182, 0.0), (0.699, 0.00274, 0.642, -0.316),
     ("labrum_right",),
     1.6821381e-06, (0.00067420705, 0.0089192074, -0.0039935412),
     (-0.17574395, -0.66838664, -0.072658983, -0.71909251), (9.4544961e-11, 7.1551456e-11, 4.251767e-11)),
    ("antenna_left", "head", (-0.00795, 0.0378, 0.0129), (0.785, -0.59, -0.0128, 0.192),
     ("antenna_abduct_left", "antenna_twist_left", "antenna_left"),
     1.1619015e-06, (-0.0033311752, 0.011952354, 0.0024279448),
     (-0.19638279, 0.61632999, -0.38797382, -0.65654205), (1.067567e-10, 7.5388581e-11, 4.1001667e-11)),
    ("antenna_right", "head", (0.00861, 0.038, 0.0129), (0.59, 0.785, -0.192, -0.0128),
     ("antenna_abduct_right", "antenna_twist_right", "antenna_right"),
     1.1619047e-06, (0.0028304998, -0.011952137, -0.0024277987),
     (-0.65654123, 0.38797421, 0.61633034, 0.19638367), (1.0675739e-10, 7.5389248e-11, 4.1001735e-11)),
    ("wing_left", "thorax", (-0.00694, 0.0432, 0.0091), (0.0, -0.403, 0.0, -0.915),
     ("wing_yaw_left", "wing_roll_left", "wing_pitch_left"),
     None, None, None, None),
    ("wing_right", "thorax", (-0.00694, -0.0432, 0.0091), (0.0, 0.915, 0.0, -0.403),
     ("wing_yaw_right", "wing_roll_right", "wing_pitch_right"),
     None, None, None, None),
    ("abdomen", "thorax", (-0.0447, -0.000555, 0.00428), (-0.704, -0.0859, -0.0853, -0.7),
     ("abdomen_abduct", "abdomen"),
     1.2641767e-05, (-0.00017167625, 0.0064354376, -0.0095513719),
     (0.58985375, 0.38623838, 0.57496178, 0.4151041), (5.5276643e-09, 3.5191887e-09, 2.3977004e-09)),
    ("abdomen_2", "abdomen", (0.0, 0.0119, 0.0), (0.981, -0.192, -0.000269, 0.00144),
     ("abdomen_abduct_2", "abdomen_2"),
     4.4560748e-05, (-0.00016311616, 0.016574786, -0.013897979),
     (0.48371001, 0.51566724, 0.49919304, 0.50091739), (3.2028412e-08, 1.9495918e-08, 1.8543328e-08)),
    ("abdomen_3", "abdomen_2", (0.0, 0.0212, 0.0), (0.996, -0.0909, 6.69e-05, 0.000525),
     ("abdomen_abduct_3", "abdomen_3"),
     7.0795003e-05, (-1.6207017e-05, 0.019897311, -0.014479013),
     (0.67039612, -0.20569073, -0.33259845, 0.63058595), (5.8069984e-08, 3.8288439e-08, 3.7505586e-08)),
    ("abdomen_4", "abdomen_3", (0.0, 0.0313, 0.0), (0.999, -0.0332, 0.000147, -0.000229),
     ("abdomen_abduct_4", "abdomen_4"),
     6.5840114e-05, (-5.2758134e-05, 0.014915608, -0.014138636),
     (0.46378146, 0.52784414, 0.43686785, 0.56163493), (5.6222083e-08, 3.5080013e-08, 3.4762745e-08)),
    ("abdomen_5", "abdomen_4", (0.0, 0.0262, 0.0), (0.999, -0.0368, -4.72e-05, -0.000327),
     ("abdomen_abduct_5", "abdomen_5"),
     5.1647254e-05, (0.00034562761, 0.010472961, -0.01406679),
     (0.45957013, 0.5379414, 0.42225599, 0.56666942), (3.7741508e-08, 2.3896578e-08, 2.2652616e-08)),
    ("abdomen_6", "abdomen_5", (0.0, 0.0213, 0.0), (0.998, -0.0662, 0.000156, -0.000351),
     ("abdomen_abduct_6", "abdomen_6"),
     3.42793e-05, (-0.00012016725, 0.0093934555, -0.013264881),
     (0.41647778, 0.57128287, 0.4209243, 0.56833519), (1.9084145e-08, 1.2749762e-08, 1.0880714e-08)),
    ("abdomen_7", "abdomen_6", (0.0, 0.0182, 0.0), (0.995, -0.102, -1.79e-06, -0.000187),
     ("abdomen_abduct_7", "abdomen_7"),
     2.5084943e-05, (-9.343232e-05, 0.013495588, -0.010994991),
     (0.67810201, 0.16117706, -0.13743026, 0.70378444), (7.3750108e-09, 5.8709596e-09, 5.6878721e-09)),
    ("haltere_left", "thorax", (-0.0386, 0.0247, -0.00866), (0.291, -0.204, 0.826, 0.439),
     ("haltere_left",),
     8.2170426e-07, (0.00050091668, 0.017188874, 0.0011226743),
     (-0.67106981, 0.70080939, -0.16016066, -0.18132863), (5.4918727e-11, 5.1373876e-11, 9.278299e-12)),
    ("haltere_right", "thorax", (-0.0386, -0.0247, -0.00866), (-0.438, -0.829, 0.206, -0.28),
     ("haltere_right",),
     8.2170355e-07, (-0.00044717603, 0.017512736, 0.0011318951),
     (0.15959766, -0.14461472, 0.70414452, 0.67660599), (5.4918645e-11, 5.13738e-11, 9.2782844e-12)),
    ("coxa_T1_left", "thorax", (0.0317, 0.0209, -0.0272), (-0.532, 0.787, -0.311, -0.0229),
     ("coxa_abduct_T1_left", "coxa_twist_T1_left", "coxa_T1_left"),
     5.9026858e-06, (4.9156914e-06, 0.025696129, -0.00040364311),
     (-0.41744377, -0.38321831, -0.53148114, 0.62961276), (6.428688e-10, 6.2918265e-10, 1.3458173e-10)),
    ("femur_T1_left", "coxa_T1_left", (0.0, 0.0437, 0.0), (0.0, 0.0, 0.252, 0.968),
     ("femur_twist_T1_left", "femur_T1_left"),
     8.0697339e-06, (0.0021492072, 0.033346185, 0.0027763612),
     (0.66668057, -0.6760285, 0.22597657, 0.21784646), (2.9395441e-09, 2.9254311e-09, 1.2220955e-10)),
    ("tibia_T1_left", "femur_T1_left", (0.0, 0.0697, 0.0), (0.186, 0.162, 0.677, -0.694),
     ("tibia_T1_left",),
     2.0270945e-06, (-0.00053401885, -0.028791343, -0.00058505426),
     (-0.68652064, 0.72641703, -0.01556521, -0.027666517), (4.4054273e-10, 4.3886703e-10, 1.1859563e-11)),
    ("tarsus_T1_left", "tibia_T1_left", (0.0, -0.051, 0.00175), (0.039, 0.998, 0.00674, 0.0474),
     ("tarsus_T1_left",),
     2.7361164e-07, (-0.00048335662, 0.013096278, 0.0011179997),
     (-0.52996044, -0.54677459, -0.45481115, 0.46187259), (1.1577408e-11, 1.1567242e-11, 5.0696873e-13)),
    ("tarsus2_T1_left", "tarsus_T1_left", (-0.000165, 0.0235, 0.00174), (1.0, 0.0, 0.0, 0.0),
     ("tarsus2_T1_left",),
     1.0715044e-07, (-6.699739e-05, 0.0079863471, -0.00020914342),
     (0.49230747, 0.49957019, 0.50895648, -0.49902532), (1.7825281e-12, 1.7798395e-12, 1.2060998e-13)),
    ("tarsus3_T1_left", "tarsus2_T1_left", (0.000113, 0.0136, 0.000556), (1.0, 0.0, 0.0, 0.0),
     ("tarsus3_T1_left",),
     6.5339769e-08, (-0.00023223239, 0.0055558806, -0.00067665387),
     (-0.53115535, -0.50301099, -0.48045321, 0.48375473), (4.99303e-13, 4.98109e-13, 6.4304666e-14)),
    ("tarsus4_T1_left", "tarsus3_T1_left", (-0.000255, 0.00909, 0.0002), (1.0, 0.0, 0.0, 0.0),
     ("tarsus4_T1_left",),
     5.1039004e-08, (-0.00020806993, 0.0047920967, -0.00071455062),
     (0.52078657, 0.42965977, 0.49864902, -0.54362026), (2.5484529e-13, 2.5354078e-13, 4.9411363e-14)),
    ("claw_T1_left", "tarsus4_T1_left", (-7.12e-05, 0.00906, -0.00081), (1.0, 0.0, 0.0, 0.0),
     ("tarsus5_T1_left",),
     9.5666131e-08, (-0.00054573295, 0.0049731077, 1.0991275e-06),
     (-0.45864121, -0.41868867, -0.55524912, 0.55321465), (9.36552e-13, 8.7877105e-13, 1.7392699e-13)),
    ("coxa_T1_right", "thorax", (0.0317, -0.0209, -0.0272), (0.319, 0.011, -0.543, -0.777),
     ("coxa_abduct_T1_right", "coxa_twist_T1_right", "coxa_T1_right"),
     5.9026968e-06, (0.0007126369, -0.025952692, 0.0014655471),
     (-0.50756062, 0.62812676, 0.44670361, 0.38509074), (6.4287048e-10, 6.2918419e-10, 1.345822e-10)),
    ("femur_T1_right", "coxa_T1_right", (0.0, -0.0436, 0.0), (0.0, 0.0, 0.261, 0.965),
     ("femur_twist_T1_right", "femur_T1_right"),
     8.0747964e-06, (-0.0021911887, -0.03323515, -0.0026461592),
     (0.23166955, -0.23905816, -0.67153844, -0.66197926), (2.9421549e-09, 2.9278787e-09, 1.2236579e-10)),
    ("tibia_T1_right", "femur_T1_right", (0.0, -0.0698, 0.0), (0.163, 0.148, 0.688, -0.692),
     ("tibia_T1_right",),
     2.0256828e-06, (-7.3089226e-05, 0.028558173, 0.00026539177),
     (-0.7323752, -0.68042145, -0.024668372, 0.0066857586), (4.3992006e-10, 4.3825737e-10, 1.1846982e-11)),
    ("tarsus_T1_right", "tibia_T1_right", (0.0, 0.0515, -0.00175), (-0.0745, -0.995, 0.0133, 0.0704),
     ("tarsus_T1_right",),
     2.7361208e-07, (-0.00027570132, -0.012473718, -0.00069128149),
     (-0.53039367, 0.51589434, 0.45193414, 0.49828819), (1.1577462e-11, 1.1567294e-11, 5.0696933e-13)),
    ("tarsus2_T1_right", "tarsus_T1_right", (-0.000965, -0.0227, -0.00161), (1.0, 0.0, 0.0, 0.0),
     ("tarsus2_T1_right",),
     1.0715031e-07, (0.00034993968, -0.0080655962, -0.00031641426),
     (0.58734195, -0.53701052, -0.41585303, -0.44013111), (1.7825271e-12, 1.7798381e-12, 1.2060934e-13)),
    ("tarsus3_T1_right", "tarsus2_T1_right", (0.000143, -0.0136, -0.00168), (1.0, 0.0, 0.0, 0.0),
     ("tarsus3_T1_right",),
     6.533981e-08, (0.00035547793, -0.005482583, 0.00047159573),
     (-0.56756921, 0.51785653, 0.46168658, 0.44332303), (4.9930309e-13, 4.9810912e-13, 6.4304738e-14)),
    ("tarsus4_T1_right", "tarsus3_T1_right", (0.000437, -0.00899, -0.00063), (1.0, 0.0, 0.0, 0.0),
     ("tarsus4_T1_right",),
     5.103875e-08, (0.00050370768, -0.004884572, -7.2124864e-05),
     (0.58607423, -0.56582404, -0.45460426, -0.36013208), (2.5484478e-13, 2.5354018e-13, 4.9410801e-14)),
    ("claw_T1_right", "tarsus4_T1_right", (0.000765, -0.00899, 0.000134), (1.0, 0.0, 0.0, 0.0),
     ("tarsus5_T1_right",),
     9.5666532e-08, (0.00056204003, -0.0050302853, -0.00048006061),
     (-0.63438157, 0.57389063, 0.38639053, 0.34483609), (9.3655521e-13, 8.7877443e-13, 1.7392775e-13)),
    ("coxa_T2_left", "thorax", (-0.0144, 0.0241, -0.0425), (-0.371, 0.917, -0.126, -0.0722),
     ("coxa_abduct_T2_left", "coxa_twist_T2_left", "coxa_T2_left"),
     2.4200914e-06, (0.00045196652, 0.018079896, -0.0027485211),
     (-0.64143764, -0.46031342, -0.46402555, 0.40168347), (1.3065804e-10, 1.1651265e-10, 5.3230673e-11)),
    ("femur_T2_left", "coxa_T2_left", (0.0, 0.0281, 0.0), (0.0, 0.0, 0.128, 0.992),
     ("femur_twist_T2_left", "femur_T2_left"),
     8.2057798e-06, (-0.0013424348, 0.040544583, 0.0022867288),
     (0.66823094, -0.69068318, -0.20180431, -0.18894227), (4.274933e-09, 4.2599606e-09, 1.0956947e-10)),
    ("tibia_T2_left", "femur_T2_left", (0.0, 0.083, 0.0), (0.107, 0.0834, 0.656, -0.742),
     ("tibia_T2_left",),
     2.6881843e-06, (3.413587e-05, -0.033643479, -0.00086301578),
     (-0.028485339, 0.018244985, 0.72289667, 0.69012761), (1.1242867e-09, 1.1227192e-09, 1.4878243e-11)),
    ("tarsus_T2_left", "tibia_T2_left", (0.0, -0.0668, 0.00175), (-0.148, 0.978, -0.0216, -0.143),
     ("tarsus_T2_left",),
     4.9944886e-07, (-6.4553795e-05, 0.016665602, 2.3372803e-05),
     (-0.35753887, 0.34965666, 0.59980596, 0.62461107), (5.1986103e-11, 5.1966811e-11, 9.6132685e-13)),
    ("tarsus2_T2_left", "tarsus_T2_left", (0.000471, 0.0342, 0.00136), (1.0, 0.0, 0.0, 0.0),
     ("tarsus2_T2_left",),
     1.3969428e-07, (-0.00015542853, 0.010042488, -3.0726249e-05),
     (0.52036874, -0.51206048, -0.47581344, -0.49052218), (3.462933e-12, 3.458756e-12, 1.6227946e-13)),
    ("tarsus3_T2_left", "tarsus2_T2_left", (2.42e-05, 0.0178, 0.000203), (1.0, 0.0, 0.0, 0.0),
     ("tarsus3_T2_left",),
     6.9798736e-08, (-0.00013197208, 0.005833057, -0.00054543657),
     (-0.49586688, 0.50390341, 0.50260944, 0.49757526), (6.1879449e-13, 6.1705995e-13, 6.8427353e-14)),
    ("tarsus4_T2_left", "tarsus3_T2_left", (-3.11e-05, 0.00991, 0.000292), (1.0, 0.0, 0.0, 0.0),
     ("tarsus4_T2_left",),
     5.6495509e-08, (2.632016e-06, 0.0052132916, -0.00042653848),
     (0.51873173, -0.55442443, -0.48068718, -0.43871493), (3.2720299e-13, 3.2398517e-13, 5.3468491e-14)),
    ("claw_T2_left", "tarsus4_T2_left", (3.6e-05, 0.00991, -0.000254), (1.0, 0.0, 0.0, 0.0),
     ("tarsus5_T2_left",),
     1.0198964e-07, (1.6065336e-05, 0.0051041669, 0.00059070569),
     (-0.58319465, 0.52811658, 0.40848147, 0.46273077), (1.0724466e-12, 1.0129322e-12, 1.8644419e-13)),
    ("coxa_T2_right", "thorax", (-0.0144, -0.0241, -0.0425), (0.126, -0.0709, -0.374, -0.916),
     ("coxa_abduct_T2_right", "coxa_twist_T2_right", "coxa_T2_right"),
     2.4200922e-06, (-0.00037357354, -0.01806541, 0.0025603715),
     (-0.40249789, -0.46248874, 0.45823539, -0.64352151), (1.3065814e-10, 1.1651287e-10, 5.3230621e-11)),
    ("femur_T2_right", "coxa_T2_right", (0.0, -0.0282, 0.0), (0.0, 0.0, 0.134, 0.991),
     ("femur_twist_T2_right", "femur_T2_right"),
     8.2093799e-06, (0.0013711369, -0.0405245, -0.0019678686),
     (-0.18683651, 0.20253659, -0.69340597, -0.66577715), (4.2798929e-09, 4.2649322e-09, 1.0959131e-10)),
    ("tibia_T2_right", "femur_T2_right", (0.0, -0.084, 0.0), (0.0902, 0.103, 0.659, -0.739),
     ("tibia_T2_right",),
     2.6889975e-06, (-0.00031825238, 0.033081339, -0.00025817858),
     (-0.72034572, -0.69358105, -0.006552353, -0.002107677), (1.1248313e-09, 1.1232562e-09, 1.4887728e-11)),
    ("tarsus_T2_right", "tibia_T2_right", (0.0, 0.0665, -0.00175), (0.15, -0.982, 0.0172, 0.113),
     ("tarsus_T2_right",),
     4.9945302e-07, (6.0352099e-05, -0.016471627, 0.00054757201),
     (-0.62669369, 0.59933219, -0.34692928, -0.3573458), (5.1986709e-11, 5.1967414e-11, 9.6134269e-13)),
    ("tarsus2_T2_right", "tarsus_T2_right", (-0.000367, -0.0339, -0.00103), (1.0, 0.0, 0.0, 0.0),
     ("tarsus2_T2_right",),
     1.3969572e-07, (0.00016292172, -0.010142548, 0.00046647258),
     (0.49267402, -0.47610523, 0.50934915, 0.52072984), (3.4629665e-12, 3.4587889e-12, 1.6228291e-13)),
    ("tarsus3_T2_right", "tarsus2_T2_right", (1.72e-05, -0.0177, -0.000553), (1.0, 0.0, 0.0, 0.0),
     ("tarsus3_T2_right",),
     6.9799251e-08, (5.5429152e-05, -0.0063309529, -8.6300766e-05),
     (-0.49979005, 0.50280141, -0.50122521, -0.49615919), (6.1879943e-13, 6.1706449e-13, 6.8428329e-14)),
    ("tarsus4_T2_right", "tarsus3_T2_right", (5.07e-05, -0.00988, -0.000293), (1.0, 0.0, 0.0, 0.0),
     ("tarsus4_T2_right",),
     5.6495904e-08, (3.0317734e-05, -0.0057103618, 0.00074801745),
     (0.44100367, -0.48111471, 0.55182652, 0.51916461), (3.2720595e-13, 3.2398792e-13, 5.3469203e-14)),
    ("claw_T2_right", "tarsus4_T2_right", (-9.66e-05, -0.00988, 0.000252), (1.0, 0.0, 0.0, 0.0),
     ("tarsus5_T2_right",),
     1.0199048e-07, (3.1575438e-05, -0.0055961722, -0.0013192873),
     (-0.46474354, 0.40899035, -0.52533735, -0.58374738), (1.0724589e-12, 1.0129426e-12, 1.8644738e-13)),
    ("coxa_T3_left", "thorax", (-0.0377, 0.0192, -0.0402), (0.681, -0.529, -0.0882, 0.498),
     ("coxa_abduct_T3_left", "coxa_twist_T3_left", "coxa_T3_left"),
     3.0695725e-06, (-0.0034683723, 0.01333738, -0.0068705166),
     (0.3837505, 0.057361041, 0.51341258, -0.7654102), (1.5021121e-10, 1.3286235e-10, 7.3287501e-11)),
    ("femur_T3_left", "coxa_T3_left", (-0.00398, 0.0232, -0.00668), (0.0, 0.0, -0.668, -0.744),
     ("femur_twist_T3_left", "femur_T3_left"),
     1.1018779e-05, (-0.0024758545, 0.03318836, 0.0011560565),
     (0.67050729, -0.70453438, -0.17803314, -0.14951748), (5.483521e-09, 5.4605785e-09, 1.9753017e-10)),
    ("tibia_T3_left", "femur_T3_left", (0.0, 0.0779, 1.6e-07), (-0.117, -0.104, -0.711, 0.685),
     ("tibia_T3_left",),
     3.7325504e-06, (0.00016220359, -0.036761317, -0.0018299916),
     (0.12769258, -0.11144297, -0.7127134, -0.68067222), (1.6083071e-09, 1.602081e-09, 3.0382164e-11)),
    ("tarsus_T3_left", "tibia_T3_left", (0.0, -0.0715, 0.00175), (-0.23, 0.963, -0.033, -0.138),
     ("tarsus_T3_left",),
     6.5019756e-07, (3.1341145e-05, 0.015347038, 0.00046067698),
     (0.0087787895, -0.0079987216, -0.69214452, -0.72166122), (6.9270154e-11, 6.893063e-11, 1.5986445e-12)),
    ("tarsus2_T3_left", "tarsus_T3_left", (0.00027, 0.0337, 0.00102), (1.0, 0.0, 0.0, 0.0),
     ("tarsus2_T3_left",),
     1.7852009e-07, (-0.00018023736, 0.010134316, 0.0013869626),
     (-0.46070484, 0.43821262, 0.53138979, 0.55977284), (5.8295552e-12, 5.8251589e-12, 2.2388843e-13)),
    ("tarsus3_T3_left", "tarsus2_T3_left", (-7.97e-05, 0.0197, 0.00158), (1.0, 0.0, 0.0, 0.0),
     ("tarsus3_T3_left",),
     7.4383458e-08, (-8.1235452e-05, 0.0057390872, -0.00017257871),
     (0.43644765, -0.46009148, -0.55784124, -0.53538998), (7.9333028e-13, 7.9131001e-13, 6.9634526e-14)),
    ("tarsus4_T3_left", "tarsus3_T3_left", (8e-05, 0.0111, -2.78e-05), (1.0, 0.0, 0.0, 0.0),
     ("tarsus4_T3_left",),
     6.0939734e-08, (-0.00014277823, 0.0050926159, -0.00066703916),
     (-0.45411651, 0.51999464, 0.54266655, 0.47843159), (4.180822e-13, 4.1240647e-13, 5.714777e-14)),
    ("claw_T3_left", "tarsus4_T3_left", (0.000222, 0.0111, -0.00108), (1.0, 0.0, 0.0, 0.0),
     ("tarsus5_T3_left",),
     9.944988e-08, (-0.00041666887, 0.0054870307, 2.2788465e-05),
     (0.49918964, -0.51514828, -0.5030738, -0.48202562), (1.3213884e-12, 1.2621466e-12, 1.6460482e-13)),
    ("coxa_T3_right", "thorax", (-0.0377, -0.0192, -0.0402), (-0.0854, -0.505, -0.673, -0.534),
     ("coxa_abduct_T3_right", "coxa_twist_T3_right", "coxa_T3_right"),
     3.0695764e-06, (0.0033639115, -0.013465432, 0.0067897575),
     (0.064986976, -0.37522344, 0.76656314, 0.5170735), (1.5021155e-10, 1.3286264e-10, 7.3287677e-11)),
    ("femur_T3_right", "coxa_T3_right", (0.00383, -0.0232, 0.0066), (0.0, 0.0, 0.661, 0.751),
     ("femur_twist_T3_right", "femur_T3_right"),
     1.1022577e-05, (0.0026777426, -0.033304423, -0.0012428474),
     (0.15750118, -0.18350783, 0.70069717, 0.67122406), (5.489446e-09, 5.4665647e-09, 1.9755281e-10)),
    ("tibia_T3_right", "femur_T3_right", (0.0, -0.077, 1.96e-07), (-0.121, -0.111, -0.708, 0.686),
     ("tibia_T3_right",),
     3.7309589e-06, (-0.00016882823, 0.03745901, 0.0028196126),
     (-0.11031428, -0.12886945, 0.6753573, -0.71771578), (1.6067955e-09, 1.6006016e-09, 3.0348728e-11)),
    ("tarsus_T3_right", "tibia_T3_right", (0.0, 0.0721, -0.00175), (0.223, -0.965, 0.0313, 0.136),
     ("tarsus_T3_right",),
     6.5020021e-07, (-0.00059350424, -0.015369036, -0.00043225803),
     (0.0068901868, 0.0068664053, -0.72150837, 0.69233738), (6.9270546e-11, 6.8931023e-11, 1.5986522e-12)),
    ("tarsus2_T3_right", "tarsus_T3_right", (-0.00073, -0.0338, -0.00122), (1.0, 0.0, 0.0, 0.0),
     ("tarsus2_T3_right",),
     1.7852057e-07, (3.8329835e-05, -0.010156792, -0.0003678891),
     (0.53209411, 0.56099693, 0.45914287, -0.43743127), (5.8295994e-12, 5.8252039e-12, 2.2388944e-13)),
    ("tarsus3_T3_right", "tarsus2_T3_right", (0.000185, -0.0197, -0.00157), (1.0, 0.0, 0.0, 0.0),
     ("tarsus3_T3_right",),
     7.4383204e-08, (-0.00019228344, -0.0057618496, 0.00019138072),
     (-0.5583513, -0.53677205, -0.43488105, 0.45934525), (7.9332767e-13, 7.9130748e-13, 6.96341e-14)),
    ("tarsus4_T3_right", "tarsus3_T3_right", (1.98e-05, -0.011, 1.95e-05), (1.0, 0.0, 0.0, 0.0),
     ("tarsus4_T3_right",),
     6.0939913e-08, (-0.00024957401, -0.0051154358, 0.00068270034),
     (0.5430983, 0.48001365, 0.45267865, -0.51933916), (4.1808386e-13, 4.124082e-13, 5.7148076e-14)),
    ("claw_T3_right", "tarsus4_T3_right", (4.3e-05, -0.011, 0.00125), (1.0, 0.0, 0.0, 0.0),
     ("tarsus5_T3_right",),
     9.9450051e-08, (-0.00025566822, -0.0055101509, -1.1706216e-05),
     (-0.50361622, -0.48363577, -0.49782111, 0.51443298), (1.3213971e-12, 1.2621542e-12, 1.6460622e-13)),
)
_GEOMS: tuple[_Geom, ...] = (
    ("thorax_collision", "thorax", "collision", "ellipsoid", (0.0437, 0.0437, 0.0551),
     (0.00168, 0.0, -0.00262), (0.0, -0.479, 0.0, -0.878), None),
    ("thorax_collision2", "thorax", "collision", "ellipsoid", (0.0499, 0.028, 0.0114),
     (-0.00445, 0.0, 0.0219), (0.0, -0.199, 0.0, -0.98), None),
    ("head_collision", "head", "collision", "ellipsoid", (0.0455, 0.0262, 0.0324),
     (0.0, 0.0149, 0.000875), _x_rotation(0.3), None),
    ("rostrum_collision_right", "rostrum", "collision", "capsule", (0.0035,),
     None, None, (0.00613, 0.0324, 0.0, 0.0114, 0.0245, -0.0236)),
    ("rostrum_collision_left", "rostrum", "collision", "capsule", (0.0035,),
     None, None, (-0.00613, 0.0324, 0.0, -0.0114, 0.0245, -0.0236)),
    ("rostrum_collision", "rostrum", "collision", "ellipsoid", (0.0131, 0.0219, 0.0131),
     (0.0, 0.0175, 0.00263), _x_rotation(0.1), None),
    ("haustellum_collision", "haustellum", "collision", "capsule", (0.00788, 0.00788),
     (0.0, 0.0123, -0.000948), (0.633, 0.774, 0.0, 0.0), None),
    ("labrum_left_lower_collision", "labrum_left", "adhesion", "ellipsoid", (0.0035, 0.00875, 0.0131),
     (-0.000603, 0.0106, -0.00438), (-0.174, -0.715, 0.0876, 0.672), None),
    ("labrum_right_lower_collision", "labrum_right", "adhesion", "ellipsoid", (0.0035, 0.00875, 0.0131),
     (0.00116, 0.0106, -0.00414), (-0.175, -0.668, -0.0724, -0.719), None),
    ("antenna_left_collision", "antenna_left", "collision", "capsule", (0.00481, 0.00875),
     (0.0, 0.0114, 0.00263), (0.634, -0.773, 0.0, 0.0), None),
    ("antenna_right_collision", "antenna_right", "collision", "capsule", (0.00481, 0.00875),
     (-0.000616, -0.0114, -0.00231), (0.782, 0.623, -0.0258, -0.0164), None),
    ("wing_left_brown_collision", "wing_left", "collision", "ellipsoid", (0.00219, 0.0175, 0.114),
     (0.00186, -0.11, -0.00166), (-0.673, -0.647, 0.26, -0.248), None),
    ("wing_left_membrane_collision", "wing_left", "membrane", "ellipsoid", (0.00306, 0.0551, 0.114),
     (0.0263, -0.148, -0.0289), (-0.685, -0.634, 0.265, -0.243), None),
    ("wing_left_fluid", "wing_left", "fluid", "ellipsoid", (0.0005, 0.0551, 0.114),
     (0.0263, -0.148, -0.0289), (-0.685, -0.634, 0.265, -0.243), None),
    ("wing_left_inertial", "wing_left", "inertial", "box", (0.0005, 0.0551, 0.114),
     (0.0263, -0.148, -0.0289), (-0.685, -0.634, 0.265, -0.243), None),
    ("wing_right_brown_collision", "wing_right", "collision", "ellipsoid", (0.00219, 0.0175, 0.114),
     (-0.00186, 0.11, 0.00166), (0.248, 0.26, 0.647, -0.673), None),
    ("wing_right_membrane_collision", "wing_right", "membrane", "ellipsoid", (0.00306, 0.0551, 0.114),
     (-0.0263, 0.148, 0.0289), (0.243, 0.265, 0.634, -0.685), None),
    ("wing_right_fluid", "wing_right", "fluid", "ellipsoid", (0.0005, 0.0551, 0.114),
     (-0.0263, 0.148, 0.0289), (0.243, 0.265, 0.634, -0.685), None),
    ("wing_right_inertial", "wing_right", "inertial", "box", (0.0005, 0.0551, 0.114),
     (-0.0263, 0.148, 0.0289), (0.243, 0.265, 0.634, -0.685), None),
    ("abdomen_collision", "abdomen", "collision", "cylinder", (0.028, 0.00997, 0.0),
     (-0.000207, 0.00588, -0.0162), (0.019, -0.0329, 0.822, 0.568), None),
    ("abdomen_2_collision", "abdomen_2", "collision", "cylinder", (0.0365, 0.014, 0.0),
     (-0.00015, 0.0165, -0.0175), (0.49, -0.529, 0.509, 0.47), None),
    ("abdomen_3_collision", "abdomen_3", "collision", "cylinder", (0.0397, 0.019, 0.0),
     (6.47e-05, 0.02, -0.0165), (0.534, -0.504, 0.462, 0.497), None),
    ("abdomen_4_collision", "abdomen_4", "collision", "cylinder", (0.0406, 0.0172, 0.0),
     (0.000123, 0.0154, -0.0188), (0.519, -0.485, 0.475, 0.52), None),
    ("abdomen_5_collision", "abdomen_5", "collision", "cylinder", (0.0371, 0.0156, 0.0),
     (0.000281, 0.0111, -0.0184), (0.518, -0.463, 0.478, 0.537), None),
    ("abdomen_6_collision", "abdomen_6", "collision", "cylinder", (0.0316, 0.0138, 0.0),
     (-0.00013, 0.01, -0.0165), (-0.0443, 0.0302, 0.595, 0.802), None),
    ("abdomen_7_collision", "abdomen_7", "collision", "sphere", (0.0262,),
     (-3.05e-05, 0.0133, -0.0119), (1.0, 0.0, 0.0, 0.0), None),
    ("coxa_T1_left_collision", "coxa_T1_left", "collision", "ellipsoid", (0.00679, 0.00752, 0.0208),
     (-2.04e-05, 0.0261, -0.000454), (-0.417, -0.383, -0.532, 0.63), None),
    ("femur_T1_left_collision", "femur_T1_left", "collision", "capsule", (0.005,),
     None, None, (0.00263, 0.00263, 0.00438, 0.0, 0.0662, 0.0)),
    ("tibia_T1_left_collision", "tibia_T1_left", "collision", "capsule", (0.00362,),
     None, None, (0.0, 0.0, 0.0, 0.0, -0.051, 0.00175)),
    ("tarsus_T1_left_collision", "tarsus_T1_left", "collision", "capsule", (0.00204,),
     None, None, (0.0, 0.0, 0.0, -0.000165, 0.0235, 0.00174)),
    ("tarsus2_T1_left_collision", "tarsus2_T1_left", "collision", "capsule", (0.00159,),
     None, None, (0.0, 0.0, 0.0, 0.000113, 0.0136, 0.000556)),
    ("tarsus3_T1_left_collision", "tarsus3_T1_left", "collision", "capsule", (0.00149,),
     None, None, (0.0, 0.0, 0.0, -0.000255, 0.00909, 0.0002)),
    ("tarsus4_T1_left_collision", "tarsus4_T1_left", "collision", "capsule", (0.00148,),
     None, None, (0.0, 0.0, 0.0, -7.12e-05, 0.00906, -0.00081)),
    ("tarsal_claw_T1_left_collision", "claw_T1_left", "adhesion", "capsule", (0.00199,),
     None, None, (0.0, 0.0, 0.0, -7.12e-05, 0.00906, -0.00081)),
    ("coxa_T1_right_collision", "coxa_T1_right", "collision", "ellipsoid", (0.00679, 0.00752, 0.0208),
     (0.00061, -0.026, 0.00153), (-0.508, 0.628, 0.447, 0.385), None),
    ("femur_T1_right_collision", "femur_T1_right", "collision", "capsule", (0.005,),
     None, None, (-0.00263, -0.00263, -0.00438, 0.0, -0.0663, 0.0)),
    ("tibia_T1_right_collision", "tibia_T1_right", "collision", "capsule", (0.00362,),
     None, None, (0.0, 0.0, 0.0, 0.0, 0.0515, -0.00175)),
    ("tarsus_T1_right_collision", "tarsus_T1_right", "collision", "capsule", (0.00204,),
     None, None, (0.0, 0.0, 0.0, -0.000965, -0.0227, -0.00161)),
    ("tarsus2_T1_right_collision", "tarsus2_T1_right", "collision", "capsule", (0.00159,),
     None, None, (0.0, 0.0, 0.0, 0.000143, -0.0136, -0.00168)),
    ("tarsus3_T1_right_collision", "tarsus3_T1_right", "collision", "capsule", (0.00149,),
     None, None, (0.0, 0.0, 0.0, 0.000437, -0.00899, -0.00063)),
    ("tarsus4_T1_right_collision", "tarsus4_T1_right", "collision", "capsule", (0.00148,),
     None, None, (0.0, 0.0, 0.0, 0.000765, -0.00899, 0.000134)),
    ("tarsal_claw_T1_right_collision", "claw_T1_right", "adhesion", "capsule", (0.00199,),
     None, None, (0.0, 0.0, 0.0, 0.000765, -0.00899, 0.000134)),
    ("coxa_T2_left_collision", "coxa_T2_left", "collision", "ellipsoid", (0.00788, 0.007, 0.0149),
     (0.000349, 0.0143, -0.00216), (0.707, -0.707, 0.0, 0.0), None),
    ("femur_T2_left_collision", "femur_T2_left", "collision", "capsule", (0.00469,),
     None, None, (0.0, 0.00263, 0.00438, 0.0, 0.0789, 0.0)),
    ("tibia_T2_left_collision", "tibia_T2_left", "collision", "capsule", (0.00352,),
     None, None, (0.0, 0.0, 0.0, 0.0, -0.0668, 0.00175)),
    ("tarsus_T2_left_collision", "tarsus_T2_left", "collision", "capsule", (0.00208,),
     None, None, (0.0, 0.0, 0.0, 0.000471, 0.0342, 0.00136)),
    ("tarsus2_T2_left_collision", "tarsus2_T2_left", "collision", "capsule", (0.00162,),
     None, None, (0.0, 0.0, 0.0, 2.42e-05, 0.0178, 0.000203)),
    ("tarsus3_T2_left_collision", "tarsus3_T2_left", "collision", "capsule", (0.00149,),
     None, None, (0.0, 0.0, 0.0, -3.11e-05, 0.00991, 0.000292)),
    ("tarsus4_T2_left_collision", "tarsus4_T2_left", "collision", "capsule", (0.00146,),
     None, None, (0.0, 0.0, 0.0, 3.6e-05, 0.00991, -0.000254)),
    ("tarsal_claw_T2_left_collision", "claw_T2_left", "adhesion", "capsule", (0.002,),
     None, None, (0.0, 0.0, 0.0, 3.6e-05, 0.00991, -0.000254)),
    ("coxa_T2_right_collision", "coxa_T2_right", "collision", "ellipsoid", (0.00788, 0.007, 0.0149),
     (-0.000335, -0.0143, 0.00206), (0.707, 0.707, 0.0, 0.0), None),
    ("femur_T2_right_collision", "femur_T2_right", "collision", "capsule", (0.00469,),
     None, None, (0.0, -0.00263, -0.00438, 0.0, -0.0798, 0.0)),
    ("tibia_T2_right_collision", "tibia_T2_right", "collision", "capsule", (0.00353,),
     None, None, (0.0, 0.0, 0.0, 0.0, 0.0665, -0.00175)),
    ("tarsus_T2_right_collision", "tarsus_T2_right", "collision", "capsule", (0.00208,),
     None, None, (0.0, 0.0, 0.0, -0.000367, -0.0339, -0.00103)),
    ("tarsus2_T2_right_collision", "tarsus2_T2_right", "collision", "capsule", (0.00162,),
     None, None, (0.0, 0.0, 0.0, 1.72e-05, -0.0177, -0.000553)),
    ("tarsus3_T2_right_collision", "tarsus3_T2_right", "collision", "capsule", (0.00149,),
     None, None, (0.0, 0.0, 0.0, 5.07e-05, -0.00988, -0.000293)),
    ("tarsus4_T2_right_collision", "tarsus4_T2_right", "collision", "capsule", (0.00146,),
     None, None, (0.0, 0.0, 0.0, -9.66e-05, -0.00988, 0.000252)),
    ("tarsal_claw_T2_right_collision", "claw_T2_right", "adhesion", "capsule", (0.002,),
     None, None, (0.0, 0.0, 0.0, -9.66e-05, -0.00988, 0.000252)),
    ("coxa_T3_left_collision", "coxa_T3_left", "collision", "ellipsoid", (0.007, 0.00875, 0.0166),
     (-0.00348, 0.0116, -0.00687), (0.603, -0.786, -0.135, 0.0), None),
    ("femur_T3_left_collision", "femur_T3_left", "collision", "capsule", (0.00544,),
     None, None, (-0.00263, 0.00263, 0.00438, -0.00263, 0.0766, 1.52e-07)),
    ("tibia_T3_left_collision", "tibia_T3_left", "collision", "capsule", (0.00365,),
     None, None, (0.0, -0.003, -0.005, 0.0, -0.0715, 0.00175)),
    ("tarsus_T3_left_collision", "tarsus_T3_left", "collision", "capsule", (0.00234,),
     None, None, (0.0, 0.0, 0.0, 0.00027, 0.0337, 0.00102)),
    ("tarsus2_T3_left_collision", "tarsus2_T3_left", "collision", "capsule", (0.00168,),
     None, None, (0.0, 0.0, 0.0, -7.97e-05, 0.0197, 0.00158)),
    ("tarsus3_T3_left_collision", "tarsus3_T3_left", "collision", "capsule", (0.00145,),
     None, None, (0.0, 0.0, 0.0, 8e-05, 0.0111, -2.78e-05)),
    ("tarsus4_T3_left_collision", "tarsus4_T3_left", "collision", "capsule", (0.00145,),
     None, None, (0.0, 0.0, 0.0, 0.000222, 0.0111, -0.00108)),
    ("tarsal_claw_T3_left_collision", "claw_T3_left", "adhesion", "capsule", (0.0019,),
     None, None, (0.0, 0.0, 0.0, 0.000222, 0.0111, -0.00108)),
    ("coxa_T3_right_collision", "coxa_T3_right", "collision", "ellipsoid", (0.007, 0.00875, 0.0166),
     (0.00338, -0.0117, 0.00678), (0.797, 0.596, 0.0983, 0.0), None),
    ("femur_T3_right_collision", "femur_T3_right", "collision", "capsule", (0.00544,),
     None, None, (0.00263, -0.00263, -0.00438, 0.00263, -0.0758, 1.87e-07)),
    ("tibia_T3_right_collision", "tibia_T3_right", "collision", "capsule", (0.00365,),
     None, None, (0.0, 0.003, 0.005, 0.0, 0.0721, -0.00175)),
    ("tarsus_T3_right_collision", "tarsus_T3_right", "collision", "capsule", (0.00234,),
     None, None, (0.0, 0.0, 0.0, -0.00073, -0.0338, -0.00122)),
    ("tarsus2_T3_right_collision", "tarsus2_T3_right", "collision", "capsule", (0.00168,),
     None, None, (0.0, 0.0, 0.0, 0.000185, -0.0197, -0.00157)),
    ("tarsus3_T3_right_collision", "tarsus3_T3_right", "collision", "capsule", (0.00145,),
     None, None, (0.0, 0.0, 0.0, 1.98e-05, -0.011, 1.95e-05)),
    ("tarsus4_T3_right_collision", "tarsus4_T3_right", "collision", "capsule", (0.00145,),
     None, None, (0.0, 0.0, 0.0, 4.3e-05, -0.011, 0.00125)),
    ("tarsal_claw_T3_right_collision", "claw_T3_right", "adhesion", "capsule", (0.0019,),
     None, None, (0.0, 0.0, 0.0, 4.3e-05, -0.011, 0.00125)),
)
# fmt: on


# Sites: (name, body, position, orientation); plus a force site at the origin of
# each tarsus and an adhesion capsule (radius, fromto) on each claw.
_SITES = (
    ("thorax", "thorax", (0.0, 0.0, 0.0), (1.0, 0.0, 0.0, 0.0)),
    ("hover_up_dir", "thorax", (0.0262, 0.0, 0.0262), (0.915, 0.0, 0.403, 0.0)),
    ("head", "head", (0.0, 0.015, 0.0), (0.0, 0.0, 0.0, 1.0)),
)
_CLAW_SITES = {
    "T1_left": (0.00219, (0.0, 0.0, 0.0, -7.12e-05, 0.00906, -0.00081)),
    "T1_right": (0.00219, (0.0, 0.0, 0.0, 0.000765, -0.00899, 0.000134)),
    "T2_left": (0.0022, (0.0, 0.0, 0.0, 3.6e-05, 0.00991, -0.000254)),
    "T2_right": (0.0022, (0.0, 0.0, 0.0, -9.66e-05, -0.00988, 0.000252)),
    "T3_left": (0.00209, (0.0, 0.0, 0.0, 0.000222, 0.0111, -0.00108)),
    "T3_right": (0.00209, (0.0, 0.0, 0.0, 4.3e-05, -0.011, 0.00125)),
}
_SITE_SIZE = 0.01
_SITE_GROUP = 3

# Cameras: (name, body ("" for the world), mode, position, ("quat" | "xyaxes", values)).
_TRACKCOM = mujoco.mjtCamLight.mjCAMLIGHT_TRACKCOM
_TRACK = mujoco.mjtCamLight.mjCAMLIGHT_TRACK
_FIXED = mujoco.mjtCamLight.mjCAMLIGHT_FIXED
_CAMERAS = (
    ("track1", "thorax", _TRACKCOM, (0.6, 0.6, 0.22), ("quat", (0.312, 0.221, 0.533, 0.754))),
    ("track2", "thorax", _TRACKCOM, (0.0, -1.1, 0.1), ("quat", (0.707, 0.707, 0.0, 0.0))),
    ("track3", "thorax", _TRACKCOM, (-0.9, -0.9, 0.9), ("quat", (0.82, 0.425, -0.176, -0.34))),
    (
        "back",
        "thorax",
        _TRACK,
        (-0.462, 0.0, 0.297),
        ("xyaxes", (0.0, -1.0, 0.0, 0.707, 0.0, 0.707)),
    ),
    (
        "side",
        "thorax",
        _TRACK,
        (-0.055, 0.424, -0.064),
        ("xyaxes", (-1.0, 0.0, 0.0, 0.0, 0.0, 1.0)),
    ),
    (
        "bottom",
        "thorax",
        _TRACK,
        (0.01, 0.0, -0.516),
        ("xyaxes", (0.0, 1.0, 0.0, 0.991, 0.0, 0.136)),
    ),
    ("eye_right", "head", _FIXED, (0.0219, 0.0131, 0.0), ("quat", (0.474, 0.688, -0.344, -0.429))),
    ("eye_left", "head", _FIXED, (-0.0219, 0.0131, 0.0), ("quat", (0.474, 0.688, 0.344, 0.429))),
    (
        "hero",
        "",
        _FIXED,
        (0.271, 0.27, -0.044),
        ("xyaxes", (-0.641, 0.767, 0.0, -0.045, -0.037, 0.998)),
    ),
)
# Lights on the thorax, following the centre of mass: (name, position, direction, diffuse).
_LIGHTS = (
    ("right", (0.0, -1.0, 1.0), (0.0, 1.0, -1.0), (0.3, 0.3, 0.3)),
    ("left", (0.0, 1.0, 1.0), (0.0, -1.0, -1.0), (0.3, 0.3, 0.3)),
    ("tracking", (0.0, 0.0, 1.0), (0.0, 0.0, -1.0), (0.7, 0.7, 0.7)),
)

# Pairs of bodies that never collide.
_EXCLUDES = (
    ("abdomen", "abdomen_3"),
    *((f"abdomen_{i}", f"abdomen_{i + 2}") for i in (2, 3, 4, 5)),
    *(
        (f"wing_{side}", abdomen)
        for side in ("left", "right")
        for abdomen in ("abdomen", "abdomen_2", "abdomen_3")
    ),
    ("wing_left", "wing_right"),
    *(
        (f"{left}_{segment}_left", f"{right}_{segment}_right")
        for segment in ("T1", "T2", "T3")
        for left in ("coxa", "femur")
        for right in ("coxa", "femur")
    ),
    ("rostrum", "labrum_left"),
    ("rostrum", "labrum_right"),
)

# Cosmetic colours (fruitfly.xml's materials "body" and "membrane").
_BODY_RGBA = (0.674, 0.35, 0.143, 1.0)
_MEMBRANE_RGBA = (0.539, 0.686, 0.8, 0.4)


def _set_physics_options(spec: mujoco.MjSpec) -> None:
    """fruitfly.xml's <option>: 0.1 ms steps, cgs gravity, air, elliptic cones."""
    spec.option.timestep = _TIMESTEP_S
    spec.option.gravity = list(_GRAVITY)
    spec.option.density = _AIR_DENSITY
    spec.option.viscosity = _AIR_VISCOSITY
    spec.option.cone = mujoco.mjtCone.mjCONE_ELLIPTIC
    spec.option.noslip_iterations = _NOSLIP_ITERATIONS


def _set_visual_options(spec: mujoco.MjSpec) -> None:
    """fruitfly.xml's <visual> and <statistic> (a scene scaled to a 0.3 cm fly)."""
    visual = spec.visual
    visual.global_.offwidth = 3840
    visual.global_.offheight = 2160
    visual.quality.shadowsize = 8192
    visual.quality.offsamples = 24
    visual.headlight.ambient = [0.4, 0.4, 0.4]
    visual.headlight.diffuse = [0.8, 0.8, 0.8]
    visual.headlight.specular = [0.1, 0.1, 0.1]
    visual.map.stiffness = 1e4
    visual.map.stiffnessrot = 5e4
    visual.map.force = 2e-5
    visual.scale.jointwidth = 0.01
    visual.scale.framewidth = 0.01
    spec.stat.meansize = 0.02


def _add_bodies(
    spec: mujoco.MjSpec,
) -> tuple[dict[str, mujoco.MjsBody], dict[str, mujoco.MjsJoint]]:
    """The bodies with their explicit inertials and joints, in model order."""
    bodies: dict[str, mujoco.MjsBody] = {}
    joints: dict[str, mujoco.MjsJoint] = {}
    for name, parent, pos, quat, body_joints, mass, ipos, iquat, inertia in _BODIES:
        parent_body = spec.worldbody if not parent else bodies[parent]
        body = parent_body.add_body(name=name, pos=list(pos), quat=list(quat))
        if mass is not None and ipos is not None and iquat is not None and inertia is not None:
            body.explicitinertial = True
            body.mass = mass
            body.ipos = list(ipos)
            body.iquat = list(iquat)
            body.inertia = list(inertia)
        bodies[name] = body
        for joint_name in body_joints:
            axis, joint_range, springref, kind = _JOINT_CLASSES[_joint_class(joint_name)]
            stiffness, damping, group = _JOINT_KINDS[kind]
            joint = body.add_joint(
                name=joint_name,
                type=mujoco.mjtJoint.mjJNT_HINGE,
                axis=list(axis),
                range=list(joint_range),
                limited=mujoco.mjtLimited.mjLIMITED_TRUE,
                springref=springref,
                stiffness=stiffness,
                damping=damping,
                armature=_JOINT_ARMATURE,
                group=group,
                solref_limit=list(_JOINT_SOLREFLIMIT),
            )
            if kind == "haltere":
                joint.springdamper = list(_HALTERE_SPRINGDAMPER)
            joints[joint_name] = joint
    return bodies, joints


def _add_geoms(bodies: dict[str, mujoco.MjsBody]) -> dict[str, mujoco.MjsGeom]:
    """The collision primitives (and wing geoms) of `_GEOMS`, each with an
    unnamed cosmetic twin in group 1 that the eye cameras see."""
    geoms = {}
    types = {
        "capsule": mujoco.mjtGeom.mjGEOM_CAPSULE,
        "ellipsoid": mujoco.mjtGeom.mjGEOM_ELLIPSOID,
        "cylinder": mujoco.mjtGeom.mjGEOM_CYLINDER,
        "sphere": mujoco.mjtGeom.mjGEOM_SPHERE,
        "box": mujoco.mjtGeom.mjGEOM_BOX,
    }
    for name, body_name, kind, geom_type, size, pos, quat, fromto in _GEOMS:
        body = bodies[body_name]
        placement: dict[str, Any] = (
            dict(fromto=list(fromto))
            if fromto is not None
            else dict(pos=list(pos), quat=list(quat))
        )
        sizes = [*size, *([0.0] * (3 - len(size)))]
        collides = kind in ("collision", "adhesion", "membrane")
        geom = body.add_geom(
            name=name,
            type=types[geom_type],
            size=sizes,
            contype=int(collides),
            conaffinity=int(collides),
            condim=1 if collides else 3,
            group={"collision": 4, "adhesion": 4, "membrane": 5, "fluid": 3, "inertial": 1}[kind],
            friction=[_ADHESION_FRICTION if kind == "adhesion" else _FRICTION, 0.005, 0.0001],
            solref=list(_SOLREF),
            solimp=list(_SOLIMP),
            mass=_WING_INERTIAL_MASS if kind == "inertial" else 0.0,
            rgba=[0.0, 0.0, 0.0, 0.0] if kind == "inertial" else [0.2, 0.3, 1.0, 1.0],
            **placement,
        )
        if kind == "adhesion":
            geom.margin = _ADHESION_MARGIN
            geom.gap = _ADHESION_MARGIN
        geoms[name] = geom
        if collides:
            body.add_geom(
                type=types[geom_type],
                size=sizes,
                contype=0,
                conaffinity=0,
                group=_COSMETIC_GROUP,
                mass=0.0,
                rgba=list(_MEMBRANE_RGBA if kind == "membrane" else _BODY_RGBA),
                **placement,
            )
    return geoms


def _add_sites(bodies: dict[str, mujoco.MjsBody]) -> dict[str, mujoco.MjsSite]:
    sites = {}
    for name, body_name, pos, quat in _SITES:
        sites[name] = bodies[body_name].add_site(
            name=name,
            pos=list(pos),
            quat=list(quat),
            size=[_SITE_SIZE, 0.0, 0.0],
            group=_SITE_GROUP,
        )
    for leg in _LEGS:
        sites[f"tarsus_{leg}"] = bodies[f"tarsus_{leg}"].add_site(
            name=f"tarsus_{leg}", size=[_SITE_SIZE, 0.0, 0.0], group=_SITE_GROUP
        )
        radius, fromto = _CLAW_SITES[leg]
        sites[f"claw_{leg}"] = bodies[f"claw_{leg}"].add_site(
            name=f"claw_{leg}",
            type=mujoco.mjtGeom.mjGEOM_CAPSULE,
            size=[radius, 0.0, 0.0],
            fromto=list(fromto),
            group=_SITE_GROUP,
        )
    return sites


def _add_cameras(
    spec: mujoco.MjSpec, bodies: dict[str, mujoco.MjsBody], eye_fovy: float
) -> dict[str, mujoco.MjsCamera]:
    cameras = {}
    for name, body_name, mode, pos, (orientation, values) in _CAMERAS:
        body = spec.worldbody if not body_name else bodies[body_name]
        camera = body.add_camera(name=name, mode=mode, pos=list(pos), **{orientation: list(values)})
        if name.startswith("eye_"):
            camera.fovy = eye_fovy
        cameras[name] = camera
    return cameras


def _add_tendons(spec: mujoco.MjSpec) -> dict[str, mujoco.MjsTendon]:
    """The abdomen's two tendons (its seven abduction and extension joints) and
    each leg's tarsal tendon."""
    tendons = {}
    for tendon_name, joint_prefix in (("abduct_abdomen", "abdomen_abduct"), ("abdomen", "abdomen")):
        tendon = spec.add_tendon(name=tendon_name)
        for segment in ("", "_2", "_3", "_4", "_5", "_6", "_7"):
            tendon.wrap_joint(f"{joint_prefix}{segment}", 1.0)
        tendons[tendon_name] = tendon
    for leg in _LEGS:
        tendon = spec.add_tendon(name=f"tarsus2_{leg}")
        for segment, coefficient in _TARSUS_TENDON_COEFFICIENTS:
            tendon.wrap_joint(f"{segment}_{leg}", coefficient)
        tendons[f"tarsus2_{leg}"] = tendon
    return tendons


def _servo(
    spec: mujoco.MjSpec,
    name: str,
    target: str,
    transmission: mujoco.mjtTrn,
    gain: float,
    ctrlrange: Sequence[float],
    force_limit: float | None = None,
) -> mujoco.MjsActuator:
    """A position servo: force gain * (control - position), dm_control's
    affine-biased general actuator."""
    actuator = spec.add_actuator(
        name=name,
        target=target,
        trntype=transmission,
        gaintype=mujoco.mjtGain.mjGAIN_FIXED,
        gainprm=[gain] + [0.0] * 9,
        biastype=mujoco.mjtBias.mjBIAS_AFFINE,
        biasprm=[0.0, -gain] + [0.0] * 8,
        ctrlrange=list(ctrlrange),
        ctrllimited=mujoco.mjtLimited.mjLIMITED_TRUE,
    )
    if force_limit is not None:
        actuator.forcerange = [-force_limit, force_limit]
        actuator.forcelimited = mujoco.mjtLimited.mjLIMITED_TRUE
    return actuator


def _add_actuators(
    spec: mujoco.MjSpec, joints: dict[str, mujoco.MjsJoint]
) -> dict[str, mujoco.MjsActuator]:
    """Every actuator, in fruitfly.xml's order (head and mouth, antennae, wings,
    abdomen, legs, adhesion), keyed by name (joint actuators are named as their
    joint, tendon actuators as their tendon)."""
    joint_trn = mujoco.mjtTrn.mjTRN_JOINT
    tendon_trn = mujoco.mjtTrn.mjTRN_TENDON
    actuators = {}
    for joint_name, gain, force_limit in _HEAD_ACTUATORS:
        actuators[joint_name] = _servo(
            spec, joint_name, joint_name, joint_trn, gain, joints[joint_name].range, force_limit
        )
    for side in ("left", "right"):
        for motion, gain in _WING_GAINS.items():
            joint_name = f"wing_{motion}_{side}"
            actuators[joint_name] = spec.add_actuator(
                name=joint_name,
                target=joint_name,
                trntype=joint_trn,
                gaintype=mujoco.mjtGain.mjGAIN_FIXED,
                gainprm=[gain] + [0.0] * 9,
                ctrlrange=[-1.0, 1.0],
                ctrllimited=mujoco.mjtLimited.mjLIMITED_TRUE,
            )
    for (name, ctrlrange), tendon_name in zip(
        _ABDOMEN_ACTUATORS, ("abduct_abdomen", "abdomen"), strict=True
    ):
        actuators[tendon_name] = _servo(
            spec, name, tendon_name, tendon_trn, _ABDOMEN_GAIN, ctrlrange
        )
    for leg in _LEGS:
        for joint_prefix, gain in _LEG_GAINS:
            joint_name = f"{joint_prefix}_{leg}"
            actuators[joint_name] = _servo(
                spec, joint_name, joint_name, joint_trn, gain, joints[joint_name].range
            )
        tendon_name = f"tarsus2_{leg}"
        actuators[tendon_name] = _servo(
            spec, tendon_name, tendon_name, tendon_trn, _TARSUS_TENDON_GAIN, _TARSUS_TENDON_RANGE
        )
    adhering = [("labrum", side) for side in ("left", "right")]
    adhering += [("claw", leg) for leg in _LEGS]
    for part, where in adhering:
        name = f"adhere_{part}_{where}"
        actuators[name] = spec.add_actuator(
            name=name,
            target=f"{part}_{where}",
            trntype=mujoco.mjtTrn.mjTRN_BODY,
            gaintype=mujoco.mjtGain.mjGAIN_FIXED,
            gainprm=[_ADHESION_GAINS[part]] + [0.0] * 9,
            ctrlrange=[0.0, 1.0],
            ctrllimited=mujoco.mjtLimited.mjLIMITED_TRUE,
            group=3,
        )
    return actuators


def _add_sensors(spec: mujoco.MjSpec) -> dict[str, mujoco.MjsSensor]:
    """The thorax's accelerometer, gyro and velocimeter, a force sensor at each
    tarsus and a touch sensor on each claw, in fruitfly.xml's order."""
    site = mujoco.mjtObj.mjOBJ_SITE
    sensors = {}
    for name, kind in (
        ("accelerometer", mujoco.mjtSensor.mjSENS_ACCELEROMETER),
        ("gyro", mujoco.mjtSensor.mjSENS_GYRO),
        ("velocimeter", mujoco.mjtSensor.mjSENS_VELOCIMETER),
    ):
        sensors[name] = spec.add_sensor(name=name, type=kind, objtype=site, objname="thorax")
    for prefix, kind, site_prefix in (
        ("force_tarsus", mujoco.mjtSensor.mjSENS_FORCE, "tarsus"),
        ("touch_claw", mujoco.mjtSensor.mjSENS_TOUCH, "claw"),
    ):
        for leg in _LEGS:
            sensors[f"{prefix}_{leg}"] = spec.add_sensor(
                name=f"{prefix}_{leg}", type=kind, objtype=site, objname=f"{site_prefix}_{leg}"
            )
    return sensors


def _retract_legs(
    spec: mujoco.MjSpec,
    bodies: dict[str, mujoco.MjsBody],
    joints: dict[str, mujoco.MjsJoint],
    tendons: dict[str, mujoco.MjsTendon],
    actuators: dict[str, mujoco.MjsActuator],
    observed: list[mujoco.MjsJoint],
) -> None:
    """dm_control's `use_legs=False`: each leg body turned to its joints'
    spring-reference pose, then the legs' tendons, joints and actuators
    (adhesion included) removed."""
    legs = _NAME_SUBSTRINGS["legs"]
    for name, body in bodies.items():
        if any_substr_in_str(legs, name):
            quat = body_quat_from_springrefs(body)
            if quat is not None:
                body.quat = list(quat)
    for name in list(tendons):
        if any_substr_in_str(legs, name):
            if name in actuators:
                spec.delete(actuators.pop(name))
            spec.delete(tendons.pop(name))
    for name in list(joints):
        if any_substr_in_str(legs, name):
            if name in actuators:
                spec.delete(actuators.pop(name))
            observed.remove(joints[name])
            spec.delete(joints.pop(name))
    for name in list(actuators):
        if "adhere" in name and any_substr_in_str(legs, name):
            spec.delete(actuators.pop(name))


def _set_flight_pose(
    bodies: dict[str, mujoco.MjsBody],
    hover_up_dir: mujoco.MjsSite,
    body_pitch_angle: float,
    stroke_plane_angle: float,
) -> None:
    """dm_control's flight pose: the `hover_up_dir` site pitched to
    `body_pitch_angle` (degrees) and each wing's frame turned so that its stroke
    plane makes `stroke_plane_angle` (degrees) with the ground."""
    up_dir = np.array(hover_up_dir.quat, dtype=np.float64)
    delta = np.deg2rad(body_pitch_angle) - 2 * np.arccos(up_dir[0])
    up_dir = mul_quat(np.array([np.cos(delta / 2), 0.0, np.sin(delta / 2), 0.0]), up_dir)
    hover_up_dir.quat = list(up_dir)
    stroke = np.deg2rad(stroke_plane_angle)
    stroke_plane_quat = np.array([np.cos(stroke / 2), 0.0, np.sin(stroke / 2), 0.0])
    for wing_quat, wing in (
        ((0.0, 0.0, 0.0, 1.0), "wing_left"),
        ((0.0, -1.0, 0.0, 0.0), "wing_right"),
    ):
        turn = mul_quat(neg_quat(stroke_plane_quat), wing_quat)
        body = bodies[wing]
        change_body_frame(body, body.pos, mul_quat(turn, neg_quat(up_dir)))


def neg_quat(quat_a: ArrayLike) -> np.ndarray:
    """dm_control's `neg_quat`: a copy of `quat_a` (w, x, y, z) with w negated,
    which rotates as its inverse (it is minus the conjugate)."""
    quat_b = np.array(quat_a, dtype=np.float64)
    quat_b[0] *= -1
    return quat_b


def mul_quat(quat_a: ArrayLike, quat_b: ArrayLike) -> np.ndarray:
    """The product quat_a * quat_b of two quaternions (w, x, y, z), `mju_mulQuat`."""
    result = np.zeros(4)
    mujoco.mju_mulQuat(result, _vector(quat_a, 4, "quat_a"), _vector(quat_b, 4, "quat_b"))
    return result


def rot_vec_quat(vec: ArrayLike, quat: ArrayLike) -> np.ndarray:
    """`vec` (3,) rotated by the quaternion `quat` (w, x, y, z), `mju_rotVecQuat`."""
    result = np.zeros(3)
    mujoco.mju_rotVecQuat(result, _vector(vec, 3, "vec"), _vector(quat, 4, "quat"))
    return result


def mul_jac_t_vec(physics: Physics, efc: ArrayLike) -> np.ndarray:
    """Maps a vector of constraint-space forces (one per active constraint row,
    `data.nefc`) to joint space: J^T efc, (nv,), `mj_mulJacTVec`."""
    forces = _vector(efc, int(physics.data.nefc), "efc")
    qfrc = np.zeros(physics.model.nv)
    mujoco.mj_mulJacTVec(physics.model, physics.data, qfrc, forces)
    return qfrc


def any_substr_in_str(substrings: Sequence[str], string: str) -> bool:
    """Whether any of `substrings` occurs in `string`."""
    return any(substring in string for substring in substrings)


def body_quat_from_springrefs(body: Any) -> np.ndarray | None:
    """The orientation `body` (a `mujoco.MjsBody` or its mjcf handle) takes when
    its joints sit at their spring references: its quaternion times the joints'
    rotations (springref about the axis, the first joint outermost), as
    dm_control's `body_quat_from_springrefs`; None for a body without joints.
    Like dm_control's, it multiplies sin(springref / 2) by the axis as written,
    so an axis that is not of unit length gives an unnormalised quaternion."""
    element = getattr(body, "spec_element", body)
    if not isinstance(element, mujoco.MjsBody):
        raise TypeError(f"body must be a mujoco.MjsBody or its mjcf handle, got {body!r}")
    joints = list(element.joints)
    if not joints:
        return None
    quat = np.array([1.0, 0.0, 0.0, 0.0])
    for joint in reversed(joints):
        half_angle = joint.springref / 2
        rotation = np.hstack((np.cos(half_angle), np.sin(half_angle) * np.asarray(joint.axis)))
        quat = _quat_product(rotation, quat)
    return _quat_product(np.asarray(element.quat, dtype=np.float64), quat)


def change_body_frame(body: Any, frame_pos: ArrayLike | None, frame_quat: ArrayLike | None) -> None:
    """Moves the frame of `body` (a `mujoco.MjsBody` or its mjcf handle) to
    position `frame_pos` and orientation `frame_quat` in its parent (None: the
    parent's origin, identity) while its children stay where they are in the
    world: the geoms', sites', cameras', lights', frames' and child bodies'
    poses and the joints' positions are re-expressed in the new frame, as
    dm_control's `change_body_frame`, and so is an explicit inertial (dm_control
    moves the mesh geoms its inertia comes from). Joint axes are kept as
    written, as in dm_control, so they turn with the frame."""
    element = getattr(body, "spec_element", body)
    if not isinstance(element, mujoco.MjsBody):
        raise TypeError(f"body must be a mujoco.MjsBody or its mjcf handle, got {body!r}")
    new_pos = np.zeros(3) if frame_pos is None else _vector(frame_pos, 3, "frame_pos")
    new_quat = (
        np.array([1.0, 0.0, 0.0, 0.0])
        if frame_quat is None
        else _vector(frame_quat, 4, "frame_quat")
    )
    body_pos = np.array(element.pos, dtype=np.float64)
    body_quat = np.array(element.quat, dtype=np.float64)
    offset = body_pos - new_pos
    turn = mul_quat(neg_quat(new_quat), body_quat)
    inverse = neg_quat(new_quat)

    def moved(position: ArrayLike) -> list[float]:
        in_parent = rot_vec_quat(position, body_quat) + offset
        return list(rot_vec_quat(in_parent, inverse))

    element.pos = list(new_pos)
    element.quat = list(new_quat)
    oriented = [
        *element.geoms,
        *element.sites,
        *element.cameras,
        *element.lights,
        *element.bodies,
        *element.frames,
    ]
    for child in oriented:
        if not isinstance(child, mujoco.MjsLight):
            child.quat = list(mul_quat(turn, child.quat))
        child.pos = moved(child.pos)
    for joint in element.joints:
        joint.pos = moved(joint.pos)
    if element.explicitinertial:
        element.iquat = list(mul_quat(turn, element.iquat))
        element.ipos = moved(element.ipos)


def _quat_product(quat_a: np.ndarray, quat_b: np.ndarray) -> np.ndarray:
    """quat_a * quat_b, for quaternions that need not be of unit length."""
    w1, v1 = quat_a[0], quat_a[1:]
    w2, v2 = quat_b[0], quat_b[1:]
    return np.hstack((w1 * w2 - v1 @ v2, w1 * v2 + w2 * v1 + np.cross(v1, v2)))


def _vector(value: ArrayLike, size: int, name: str) -> np.ndarray:
    array = np.asarray(value, dtype=np.float64)
    if array.shape != (size,):
        raise ValueError(f"{name} must have shape ({size},), got {array.shape}")
    return array


class FruitFly(legacy_base.LegacyWalker):
    """dm_control's fruit fly (see the module docstring).

    Args:
      name: the walker's name (its model's name and prefix).
      use_legs: keep the legs; without, they are folded to their
        spring-reference pose and lose their joints and actuators.
      use_wings, use_mouth, use_antennae: actuate the wings, the proboscis and
        labella, the antennae (their joints stay, unobserved, without).
      joint_filter: time constant (s) of a filter on every joint and tendon
        actuator's control; 0 drives them directly.
      adhesion_filter: dm_control's time constant for the adhesion actuators;
        reported by `adhesion_filter`, but, as in dm_control 1.0.50 (whose
        adhesion classes set no dynamics of their own), the adhesion actuators
        act on their control directly.
      body_pitch_angle: the body's pitch in the initial flight pose, degrees
        (used with the wings).
      stroke_plane_angle: the wings' stroke plane angle to the ground, degrees
        (used with the wings).
      physics_timestep, control_timestep: the timesteps (s) whose ratio is the
        buffer size of the averaged sensor observables.
      num_user_actions: extra actions in [-1, 1] at the end of the action vector
        that drive no actuator (for a task's own use).
      eye_camera_fovy: vertical field of view of the eye cameras, degrees.
      eye_camera_size: height and width (pixels) of the eye cameras' images.
    """

    def _build(
        self,
        name: str = "walker",
        use_legs: bool = True,
        use_wings: bool = False,
        use_mouth: bool = False,
        use_antennae: bool = False,
        joint_filter: float = 0.01,
        adhesion_filter: float = 0.01,
        body_pitch_angle: float = 47.5,
        stroke_plane_angle: float = 0.0,
        physics_timestep: float = 1e-4,
        control_timestep: float = 2e-3,
        num_user_actions: int = 0,
        eye_camera_fovy: float = 150.0,
        eye_camera_size: int = 32,
    ) -> None:
        for option, value in (
            ("physics_timestep", physics_timestep),
            ("control_timestep", control_timestep),
        ):
            if not value > 0:
                raise ValueError(f"FruitFly {option} must be positive, got {value!r}")
        if int(num_user_actions) != num_user_actions or num_user_actions < 0:
            raise ValueError(
                f"FruitFly num_user_actions must be a non-negative integer, got {num_user_actions!r}"
            )
        for option, value in (("joint_filter", joint_filter), ("adhesion_filter", adhesion_filter)):
            if value < 0:
                raise ValueError(f"FruitFly {option} must be >= 0 (0 disables it), got {value!r}")
        self._adhesion_filter = adhesion_filter
        self._control_timestep = control_timestep
        self._buffer_size = int(round(control_timestep / physics_timestep))
        self._eye_camera_size = int(eye_camera_size)
        self._weight: float | None = None

        spec = mujoco.MjSpec()
        spec.modelname = name or "fruitfly"
        spec.compiler.degree = False
        spec.compiler.autolimits = True
        _set_physics_options(spec)
        _set_visual_options(spec)
        bodies, joints = _add_bodies(spec)
        geoms = _add_geoms(bodies)
        sites = _add_sites(bodies)
        cameras = _add_cameras(spec, bodies, eye_camera_fovy)
        for light_name, position, direction, diffuse in _LIGHTS:
            bodies["thorax"].add_light(
                name=light_name,
                mode=_TRACKCOM,
                pos=list(position),
                dir=list(direction),
                diffuse=list(diffuse),
            )
        for first, second in _EXCLUDES:
            spec.add_exclude(bodyname1=first, bodyname2=second)
        tendons = _add_tendons(spec)
        actuated = _add_actuators(spec, joints)
        sensors = _add_sensors(spec)

        observed = list(joints.values())
        disabled = [
            part
            for part, used in (
                ("wings", use_wings),
                ("mouth", use_mouth),
                ("antennae", use_antennae),
            )
            if not used
        ]
        if not use_legs:
            _retract_legs(spec, bodies, joints, tendons, actuated, observed)
        for part in disabled:
            for joint_name in list(joints):
                if any_substr_in_str(_NAME_SUBSTRINGS[part], joint_name):
                    spec.delete(actuated.pop(joint_name))
                    observed.remove(joints[joint_name])
            if part == "mouth":
                for actuator_name in list(actuated):
                    if "adhere" in actuator_name and "labrum" in actuator_name:
                        spec.delete(actuated.pop(actuator_name))
        if use_wings:
            _set_flight_pose(bodies, sites["hover_up_dir"], body_pitch_angle, stroke_plane_angle)
        if joint_filter > 0:
            for actuator in spec.actuators:
                if actuator.trntype != mujoco.mjtTrn.mjTRN_BODY:
                    actuator.dyntype = mujoco.mjtDyn.mjDYN_FILTER
                    actuator.dynprm = [joint_filter] + [0.0] * 9

        # Indices of each action class into the fly's actuators (by name, as
        # dm_control), and into the action vector.
        actuator_names = [actuator.name for actuator in spec.actuators]
        self._ctrl_indices: dict[str, list[int] | None] = {}
        for action_class in _ACTION_CLASSES:
            if action_class == "adhesion":
                indices = [i for i, n in enumerate(actuator_names) if "adhere" in n]
            else:
                indices = [
                    i
                    for i, n in enumerate(actuator_names)
                    if any_substr_in_str(_NAME_SUBSTRINGS[action_class], n) and "adhere" not in n
                ]
            self._ctrl_indices[action_class] = indices or None
        self._num_actions = {
            action_class: len(indices or ()) for action_class, indices in self._ctrl_indices.items()
        }
        self._num_actions["user"] = int(num_user_actions)
        self._action_indices: dict[str, list[int]] = {}
        counter = 0
        for action_class in _ACTION_CLASSES:
            count = self._num_actions[action_class]
            self._action_indices[action_class] = list(range(counter, counter + count))
            counter += count
        self._num_action_values = counter

        self._spec = spec
        self._bodies = bodies
        self._sites = sites
        self._cameras = cameras
        root_sensors = (sensors["velocimeter"], sensors["accelerometer"], sensors["gyro"])
        remaining_joints = list(spec.joints)
        self._set_parts(
            root_body=bodies["thorax"],
            observable_joints=observed,
            pose_joints=remaining_joints,
            initial_qpos=np.zeros(len(remaining_joints)),
            standing_height=float(_SPAWN_POS[2]),
            end_effectors=[sites[f"claw_{leg}"] for leg in _LEGS],
            egocentric_camera=cameras["eye_right"],
            root_sensors=root_sensors,
            touch_sensors=[sensors[f"touch_claw_{leg}"] for leg in _LEGS],
            torque_sensors=(),
            ground_contact_geoms=[geoms[f"tarsal_claw_{leg}_collision"] for leg in _LEGS],
            mocap_tracking_bodies=[
                bodies[n] for n in ("thorax", "abdomen", "head", *(f"claw_{leg}" for leg in _LEGS))
            ],
        )
        self._init_legacy(marker_geoms=())
        self._prev_action = np.zeros(self._num_action_values)

    # Episode.

    def initialize_episode(self, physics: Physics, random_state: np.random.RandomState) -> None:
        """dm_control's fly: records the fly's weight (`weight`) and nothing
        else; the joints keep their state (the task sets the pose). Clears
        `prev_action`."""
        del random_state
        body_mass = float(np.reshape(physics.bind(self._root_body).subtreemass, ()))
        self._weight = float(np.linalg.norm(physics.model.opt.gravity)) * body_mass
        self._prev_action = np.zeros(self._num_action_values)

    @property
    def upright_pose(self) -> base.WalkerPose:
        """dm_control's: the thorax 0.1278 cm above the walker's origin."""
        return base.WalkerPose(xpos=_SPAWN_POS)

    @property
    def weight(self) -> float | None:
        """The fly's weight (dyn = g cm / s^2): |gravity| times the mass of the
        thorax's subtree, recorded at `initialize_episode` (None before)."""
        return self._weight

    @property
    def adhesion_filter(self) -> float:
        """The `adhesion_filter` the fly was built with."""
        return self._adhesion_filter

    # Parts, as mjcf handles.

    @property
    def thorax(self) -> mjcf.Element:
        return self._handle(self._bodies["thorax"])

    @property
    def abdomen(self) -> mjcf.Element:
        return self._handle(self._bodies["abdomen"])

    @property
    def head(self) -> mjcf.Element:
        return self._handle(self._bodies["head"])

    @property
    def head_site(self) -> mjcf.Element:
        return self._handle(self._sites["head"])

    @property
    def appendages(self) -> tuple[mjcf.Element, ...]:
        """The claw sites (`end_effectors`) and the head site."""
        return (*self.end_effectors, self.head_site)

    @property
    def left_eye(self) -> mjcf.Element:
        return self._handle(self._cameras["eye_left"])

    @property
    def right_eye(self) -> mjcf.Element:
        return self._handle(self._cameras["eye_right"])

    def _build_observables(self) -> FruitFlyObservables:
        return FruitFlyObservables(self, self._buffer_size, self._eye_camera_size)

    # Actions.

    def get_action_spec(self, physics: Physics) -> specs.BoundedArray:
        """The fly's action spec: the actuators' control ranges by action class
        (adhesion, head, mouth, antennae, wings, abdomen, legs), then
        `num_user_actions` values in [-1, 1] named `user_<i>`; float64, named by
        the actuator names without the walker's prefix, joined with tabs."""
        del physics
        minimum: list[float] = []
        maximum: list[float] = []
        names: list[str] = []
        actuators = self._actuators
        for action_class in _ACTION_CLASSES:
            for index in self._ctrl_indices[action_class] or ():
                low, high = actuators[index].ctrlrange
                minimum.append(float(low))
                maximum.append(float(high))
                names.append(actuators[index].name.rsplit("/", 1)[-1])
        user = self._num_actions["user"]
        minimum += [-1.0] * user
        maximum += [1.0] * user
        names += [f"user_{i}" for i in range(user)]
        return specs.BoundedArray(
            shape=(len(names),),
            dtype=float,
            minimum=np.asarray(minimum),
            maximum=np.asarray(maximum),
            name="\t".join(names),
        )

    def apply_action(
        self, physics: Physics, action: ArrayLike, random_state: np.random.RandomState | None
    ) -> None:
        """Writes an action of `get_action_spec`'s layout into the fly's
        actuators' controls (the user actions drive none).

        dm_control writes a whole control vector, zero for the actuators of
        other entities; this writes the fly's own actuators only.

        Raises:
          ValueError: for an action of the wrong shape or with non-finite values.
        """
        del random_state
        action = np.asarray(action, dtype=np.float64)
        if action.shape != (self._num_action_values,) or not np.isfinite(action).all():
            raise ValueError(
                f"action must be {self._num_action_values} finite values (the fruit fly "
                f"{self.name!r}'s action spec), got shape {action.shape}"
            )
        if not self._actuators:
            return
        ctrl = np.zeros(len(self._actuators))
        for action_class, indices in self._action_indices.items():
            ctrl_indices = self._ctrl_indices[action_class]
            if ctrl_indices and indices:
                ctrl[ctrl_indices] = action[indices]
        physics.data.ctrl[physics.element_ids(self._actuators)] = ctrl
        physics.mark_as_dirty()
        self._prev_action = action.copy()


class FruitFlyObservables(legacy_base.LegacyWalkerObservables):
    """dm_control's fruit fly observables; all start disabled, as there.

    Besides the legacy walker's: `thorax_height`, `abdomen_height` (cm);
    `world_zaxis_hover`, `world_zaxis_abdomen`, `world_zaxis_head` (the world's z
    axis in the hover-direction site's, the abdomen's and the head's frames);
    `force` (18,), `touch` (6,), `accelerometer`, `gyro`, `velocimeter` (3,):
    sensor readings averaged over the control step's physics steps;
    `actuator_activation` (the filter states of the actuators that have one);
    `appendages_pos` (the claws and the head relative to the thorax, in its
    frame, (21,)); `self_contact` (the summed force norms of the contacts
    between the fly's own geoms, averaged over the control step, ());
    `right_eye`, `left_eye` (RGB images, eye_camera_size squared). The groups
    `vestibular`, `proprioception` and `orientation` are dm_control's (the last
    replaces the legacy `orientation` observable).
    """

    _entity: FruitFly

    def __init__(self, walker: FruitFly, buffer_size: int, eye_camera_size: int) -> None:
        self._buffer_size = buffer_size
        self._eye_camera_size = eye_camera_size
        super().__init__(walker)

    @composer.observable
    def thorax_height(self) -> observable.Observable:
        """World z of the thorax (cm)."""
        return observable.MJCFFeature("xpos", self._entity._bodies["thorax"], index=2)

    @composer.observable
    def abdomen_height(self) -> observable.Observable:
        """World z of the abdomen's first segment (cm)."""
        return observable.MJCFFeature("xpos", self._entity._bodies["abdomen"], index=2)

    @composer.observable
    def world_zaxis_hover(self) -> observable.Observable:
        """The world's z axis in the `hover_up_dir` site's frame."""
        site = self._entity._sites["hover_up_dir"]
        return observable.MJCFFeature("xmat", site, index=slice(6, 9))

    @composer.observable
    def world_zaxis_abdomen(self) -> observable.Observable:
        """The world's z axis in the abdomen's frame."""
        return observable.MJCFFeature("xmat", self._entity._bodies["abdomen"], index=slice(6, 9))

    @composer.observable
    def world_zaxis_head(self) -> observable.Observable:
        """The world's z axis in the head's frame."""
        return observable.MJCFFeature("xmat", self._entity._bodies["head"], index=slice(6, 9))

    def _averaged_sensors(self, kind: mujoco.mjtSensor) -> observable.Observable:
        reading = base.sensordata_of_type(self._entity, kind)
        reading.buffer_size = self._buffer_size
        reading.aggregator = "mean"
        return reading

    @composer.observable
    def force(self) -> observable.Observable:
        """The tarsi's force sensors (dyn, each in its site's frame), averaged."""
        return self._averaged_sensors(mujoco.mjtSensor.mjSENS_FORCE)

    @composer.observable
    def touch(self) -> observable.Observable:
        """The claws' touch sensors (dyn), averaged."""
        return self._averaged_sensors(mujoco.mjtSensor.mjSENS_TOUCH)

    @composer.observable
    def accelerometer(self) -> observable.Observable:
        """The thorax's accelerometer (cm/s^2), averaged."""
        return self._averaged_sensors(mujoco.mjtSensor.mjSENS_ACCELEROMETER)

    @composer.observable
    def gyro(self) -> observable.Observable:
        """The thorax's gyro (rad/s), averaged."""
        return self._averaged_sensors(mujoco.mjtSensor.mjSENS_GYRO)

    @composer.observable
    def velocimeter(self) -> observable.Observable:
        """The thorax's velocimeter (cm/s), averaged."""
        return self._averaged_sensors(mujoco.mjtSensor.mjSENS_VELOCIMETER)

    @composer.observable
    def end_effectors_pos(self) -> observable.Observable:
        """The claw sites relative to the thorax, in its frame (cm), (18,)."""
        entity = self._entity
        entity.end_effectors_pos_sensors[:] = [
            entity.spec.add_sensor(
                name=f"{site.name}_end_effector",
                type=mujoco.mjtSensor.mjSENS_FRAMEPOS,
                objtype=mujoco.mjtObj.mjOBJ_SITE,
                objname=site.name,
                reftype=mujoco.mjtObj.mjOBJ_XBODY,
                refname=entity._root_body.name,
            )
            for site in entity._end_effectors
        ]
        return observable.MJCFFeature("sensordata", list(entity.end_effectors_pos_sensors))

    @composer.observable
    def actuator_activation(self) -> observable.Observable:
        """The activations of the actuators with dynamics (the filtered joint and
        tendon actuators), in actuator order: (0,) without filters."""
        entity = self._entity
        cache: dict[str, Any] = {}

        def activations(physics: Physics) -> np.ndarray:
            model = physics.model
            if cache.get("model") is not model:
                ids = physics.element_ids(entity._actuators)
                columns = [
                    np.arange(
                        model.actuator_actadr[i],
                        model.actuator_actadr[i] + model.actuator_actnum[i],
                    )
                    for i in ids
                    if model.actuator_actnum[i] > 0
                ]
                cache["columns"] = np.concatenate(columns) if columns else np.zeros(0, dtype=int)
                cache["model"] = model
            return physics.data.act[cache["columns"]]

        return observable.Generic(activations)

    @composer.observable
    def appendages_pos(self) -> observable.Observable:
        """The claw sites and the head site relative to the thorax, in its frame (cm)."""
        entity = self._entity
        sites = [*entity._end_effectors, entity._sites["head"]]

        def relative_positions(physics: Physics) -> np.ndarray:
            positions = np.reshape(physics.bind(sites).xpos, (-1, 3))
            thorax = physics.bind(entity._root_body)
            rotation = np.reshape(thorax.xmat, (3, 3))
            return np.reshape((positions - np.reshape(thorax.xpos, 3)) @ rotation, -1)

        return observable.Generic(relative_positions)

    @composer.observable
    def self_contact(self) -> observable.Observable:
        """The sum over contacts between two of the fly's own geoms of the norm of
        their contact force (dyn), averaged over the control step, ()."""
        entity = self._entity

        def summed_self_contact_forces(physics: Physics) -> np.ndarray:
            model, data = physics.model, physics.data
            attachment = entity.attachment_body
            root_name = entity._root_body.name if attachment is None else attachment.name
            root = model.body(root_name).id
            force = np.array(0.0)
            force_torque = np.zeros(6)
            for index in range(data.ncon):
                contact = data.contact[index]
                roots = model.body_rootid[model.geom_bodyid[[contact.geom1, contact.geom2]]]
                if roots[0] != root or roots[1] != root:
                    continue
                mujoco.mj_contactForce(model, data, index, force_torque)
                force = force + np.linalg.norm(force_torque[:3])
            return force

        return observable.Generic(
            summed_self_contact_forces, buffer_size=self._buffer_size, aggregator="mean"
        )

    def _eye(self, camera: mujoco.MjsCamera) -> observable.Observable:
        option = mujoco.MjvOption()
        option.geomgroup[_COSMETIC_GROUP] = 1
        size = self._eye_camera_size
        return observable.MJCFCamera(camera, width=size, height=size, scene_option=option)

    @composer.observable
    def right_eye(self) -> observable.Observable:
        """RGB image of the right eye camera."""
        return self._eye(self._entity._cameras["eye_right"])

    @composer.observable
    def left_eye(self) -> observable.Observable:
        """RGB image of the left eye camera."""
        return self._eye(self._entity._cameras["eye_left"])

    @property
    def vestibular(self) -> list[observable.Observable]:
        """dm_control's group: gyro, accelerometer, velocimeter, world z axis."""
        return [self.gyro, self.accelerometer, self.velocimeter, self.world_zaxis]

    @property
    def proprioception(self) -> list[observable.Observable]:
        """dm_control's group: joint angles and velocities, actuator activations."""
        return [self.joints_pos, self.joints_vel, self.actuator_activation]

    @property
    def orientation(self) -> list[observable.Observable]:  # type: ignore[override]
        """dm_control's group: the world's z axis in the thorax's, the abdomen's and
        the head's frames."""
        return [self.world_zaxis, self.world_zaxis_abdomen, self.world_zaxis_head]
