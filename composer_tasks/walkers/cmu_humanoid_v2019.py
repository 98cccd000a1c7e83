"""The CMU humanoid "V2019" body: the published facts of dm-control 1.0.50's
`locomotion/walkers/assets/humanoid_CMU_V2019.xml` (the body of its `CMUHumanoid`
and `CMUHumanoidPositionControlled`), as tables that `build_v2019` turns into an
MjSpec body.

Frames and units: CMU convention (x to the subject's left, y up, z forward),
metres and radians, unscaled. Capsules are MuJoCo's (radius, half-length) about
their own z axis, placed by a position and a quaternion (w, x, y, z) in their body.
"""

from typing import Any

import mujoco

_CAPSULE = mujoco.mjtGeom.mjGEOM_CAPSULE
_SPHERE = mujoco.mjtGeom.mjGEOM_SPHERE
_ELLIPSOID = mujoco.mjtGeom.mjGEOM_ELLIPSOID
_BOX = mujoco.mjtGeom.mjGEOM_BOX

# Joint classes: (stiffness N m/rad, damping N m s/rad). "default" is the model's
# default joint; "medium", "medium_higher" and "high" its stiffer classes.
JOINT_CLASSES = {
    "default": (0.1, 1.0),
    "medium": (10.0, 2.0),
    "medium_higher": (50.0, 4.0),
    "high": (200.0, 5.0),
}
_D, _M, _H = "default", "medium", "high"
_SPINE = (("z", -0.523599, 0.523599), ("y", -0.523599, 0.523599), ("x", -0.349066, 0.785398))

# Bodies, parents first: (body, parent, position, quaternion or None, hinges). Each
# hinge is (axis letter, lower, upper, joint class); it is named body + "r" + axis.
BODIES: tuple[tuple[Any, ...], ...] = (
    ("lhipjoint", "root", (0, 0, 0), None, ()),
    (
        "lfemur",
        "lhipjoint",
        (0.101937, -0.0918074, 0.0494461),
        (0.984808, 0, 0, 0.173648),
        (("z", -1.0472, 1.22173, _M), ("y", -1.22173, 1.22173, _M), ("x", -2.79253, 0.349066, _M)),
    ),
    ("ltibia", "lfemur", (-1.01368e-07, -0.404945, 0), None, (("x", 0.01, 2.96706, _D),)),
    (
        "lfoot",
        "ltibia",
        (-1.06903e-07, -0.405693, 0),
        (0.707107, -0.707107, 0, 0),
        (("z", -1.22173, 0.349066, _M), ("x", -0.785398, 1.5708, _M)),
    ),
    ("ltoes", "lfoot", (4.99882e-09, -0.106372, -0.0227756), None, (("x", -1.5708, 0.349066, _D),)),
    ("rhipjoint", "root", (0, 0, 0), None, ()),
    (
        "rfemur",
        "rhipjoint",
        (-0.101937, -0.0918074, 0.0494461),
        (0.984808, 0, 0, -0.173648),
        (("z", -1.22173, 1.0472, _M), ("y", -1.22173, 1.22173, _M), ("x", -2.79253, 0.349066, _M)),
    ),
    ("rtibia", "rfemur", (1.0706e-07, -0.404945, 0), None, (("x", 0.01, 2.96706, _D),)),
    (
        "rfoot",
        "rtibia",
        (1.07257e-07, -0.405693, 0),
        (0.707107, -0.707107, 0, 0),
        (("z", -0.349066, 1.22173, _M), ("x", -0.785398, 1.5708, _M)),
    ),
    ("rtoes", "rfoot", (6.93672e-09, -0.106372, -0.0227756), None, (("x", -1.5708, 0.349066, _D),)),
    ("lowerback", "root", (0, 0, 0), None, tuple((*hinge, _H) for hinge in _SPINE)),
    (
        "upperback",
        "lowerback",
        (0.000565862, 0.113213, -0.00805298),
        None,
        tuple((*hinge, _H) for hinge in _SPINE),
    ),
    (
        "thorax",
        "upperback",
        (0.000512528, 0.11356, 0.000936821),
        None,
        tuple((*hinge, _H) for hinge in _SPINE),
    ),
    (
        "lowerneck",
        "thorax",
        (-4.17976e-05, 0.113945, 0.00468037),
        None,
        tuple((*hinge, _M) for hinge in _SPINE),
    ),
    (
        "upperneck",
        "lowerneck",
        (-0.00330143, 0.0904801, 0.0106872),
        None,
        tuple((*hinge, _M) for hinge in _SPINE),
    ),
    (
        "head",
        "upperneck",
        (0.00100175, 0.0899912, -0.00449288),
        None,
        tuple((*hinge, _M) for hinge in _SPINE),
    ),
    (
        "lclavicle",
        "thorax",
        (-4.17976e-05, 0.113945, 0.00468037),
        None,
        (("z", 0, 0.349066, _H), ("y", -0.349066, 0.174533, _H)),
    ),
    (
        "lhumerus",
        "lclavicle",
        (0.183763, 0.0765273, 0.0107141),
        (0.183013, 0.683013, -0.683013, 0.183013),
        (("z", -1.5708, 1.5708, _D), ("y", -1.5708, 1.5708, _D), ("x", -1.0472, 1.5708, _D)),
    ),
    ("lradius", "lhumerus", (0, -0.276843, 0), None, (("x", -0.174533, 2.96706, _D),)),
    ("lwrist", "lradius", (0, -0.181536, 0), (-0.5, 0, 0.866025, 0), (("y", 0, 3.14159, _D),)),
    (
        "lhand",
        "lwrist",
        (0, -0.0907676, 0),
        None,
        (("z", -0.785398, 0.785398, _D), ("x", -1.5708, 1.5708, _D)),
    ),
    ("lfingers", "lhand", (0, -0.0351944, 0), None, (("x", 0, 1.5708, _D),)),
    (
        "lthumb",
        "lhand",
        (-0.01, 0, 0),
        (0.92388, 0, 0, -0.382683),
        (("z", -0.785398, 0.785398, _D), ("x", 0, 1.57, _D)),
    ),
    (
        "rclavicle",
        "thorax",
        (-4.17976e-05, 0.113945, 0.00468037),
        None,
        (("z", -0.349066, 0, _H), ("y", -0.174533, 0.349066, _H)),
    ),
    (
        "rhumerus",
        "rclavicle",
        (-0.183763, 0.0765273, 0.0107141),
        (0.183013, 0.683013, 0.683013, -0.183013),
        (("z", -1.5708, 1.5708, _D), ("y", -1.5708, 1.5708, _D), ("x", -1.0472, 1.5708, _D)),
    ),
    ("rradius", "rhumerus", (0, -0.276843, 0), None, (("x", -0.174533, 2.96706, _D),)),
    ("rwrist", "rradius", (0, -0.181536, 0), (-0.5, 0, -0.866025, 0), (("y", -3.14159, 0, _D),)),
    (
        "rhand",
        "rwrist",
        (0, -0.0907676, 0),
        None,
        (("z", -0.785398, 0.785398, _D), ("x", -1.5708, 1.5708, _D)),
    ),
    ("rfingers", "rhand", (0, -0.0351944, 0), None, (("x", 0, 1.5708, _D),)),
    (
        "rthumb",
        "rhand",
        (0.01, 0, 0),
        (0.92388, 0, 0, 0.382683),
        (("z", -0.785398, 0.785398, _D), ("x", 0, 1.57, _D)),
    ),
)

_FEMUR_L = (0.696364, -0.696364, -0.122788, -0.122788)
_FEMUR_R = (0.696364, -0.696364, 0.122788, 0.122788)
_HUMERUS_L = (0.612372, -0.612372, 0.353553, 0.353553)
_FINGER = (0.707107, -0.707107, 0, 0)
_HAND_L = (1.05531e-11, -1.05529e-11, -0.707107, -0.707107)
_HAND_R = (2.00918e-11, -2.00916e-11, 0.707107, 0.707107)

# Geoms: (geom, body, type, size, position, quaternion or None). Density 1000 kg/m^3.
GEOMS: tuple[tuple[Any, ...], ...] = (
    ("root_geom", "root", _CAPSULE, (0.09, 0.06), (0, -0.05, 0), (1, 0, -1, 0)),
    (
        "lhipjoint",
        "lhipjoint",
        _CAPSULE,
        (0.008, 0.02187363),
        (0.0509685, -0.0459037, 0.024723),
        (0.5708, -0.566602, -0.594264, 0),
    ),
    ("lfemur", "lfemur", _CAPSULE, (0.06, 0.1822257), (-5.0684e-08, -0.202473, 0), _FEMUR_L),
    ("ltibia", "ltibia", _CAPSULE, (0.04, 0.1825614), (-5.34516e-08, -0.202846, 0), _FEMUR_L),
    (
        "lfoot",
        "lfoot",
        _CAPSULE,
        (0.03, 0.0543914),
        (-0.0269999975006, -0.0231859, -0.0113878),
        (0.76725516, -0.64051114, 0.02306487, -0.02306583),
    ),
    (
        "lfoot_ch",
        "lfoot",
        _CAPSULE,
        (0.03, 0.0543914),
        (0.0270000024994, -0.0231859, -0.0113878),
        (0.72887266, -0.59399462, -0.24074283, -0.2407425),
    ),
    ("ltoes0", "ltoes", _SPHERE, (0.03,), (0, -0.01, -0.01), None),
    ("ltoes1", "ltoes", _SPHERE, (0.03,), (0.03, -0.01, -0.01), None),
    ("ltoes2", "ltoes", _SPHERE, (0.03,), (-0.03, -0.01, -0.01), None),
    (
        "rhipjoint",
        "rhipjoint",
        _CAPSULE,
        (0.008, 0.02187363),
        (-0.0509685, -0.0459037, 0.024723),
        (0.574856, -0.547594, 0.608014, 0),
    ),
    ("rfemur", "rfemur", _CAPSULE, (0.06, 0.1822257), (5.35298e-08, -0.202473, 0), _FEMUR_R),
    ("rtibia", "rtibia", _CAPSULE, (0.04, 0.1825614), (5.36285e-08, -0.202846, 0), _FEMUR_R),
    (
        "rfoot",
        "rfoot",
        _CAPSULE,
        (0.03, 0.0543914),
        (-0.0269999965316, -0.0231859, -0.0113878),
        (0.73520687, -0.58633523, 0.24050108, 0.24050079),
    ),
    (
        "rfoot_ch",
        "rfoot",
        _CAPSULE,
        (0.03, 0.0543914),
        (0.0270000034684, -0.0231859, -0.0113878),
        (0.77312469, -0.633231, -0.02545846, 0.02545836),
    ),
    ("rtoes0", "rtoes", _SPHERE, (0.03,), (0, -0.01, -0.01), None),
    ("rtoes1", "rtoes", _SPHERE, (0.03,), (0.03, -0.01, -0.01), None),
    ("rtoes2", "rtoes", _SPHERE, (0.03,), (-0.03, -0.01, -0.01), None),
    (
        "lowerback",
        "lowerback",
        _CAPSULE,
        (0.06, 0.04540016),
        (0.000282931, 0.0566065, -0.00402649),
        (0.70836027, -0.02340173, 0.70495373, 0.02680827),
    ),
    (
        "upperback",
        "upperback",
        _CAPSULE,
        (0.06, 0.04542616),
        (0.000256264, 0.0567802, 0.00046841),
        (0.70869924, 0.00451524, 0.70549477, -0.00131076),
    ),
    (
        "thorax",
        "thorax",
        _CAPSULE,
        (0.06, 0.0570206),
        (-2.08988e-05, 0.0569725, 0.00234019),
        (0.70682567, 0.01438067, 0.70709033, -0.01464533),
    ),
    (
        "lowerneck",
        "lowerneck",
        _CAPSULE,
        (0.06, 0.02279225),
        (-0.00165071, 0.0452401, 0.00534359),
        (0.66437, 0.746906, 0.027253, 0),
    ),
    (
        "upperneck",
        "upperneck",
        _CAPSULE,
        (0.03, 0.0225272),
        (0.000500875, 0.0449956, -0.00224644),
        (0.724521, 0.68921, -0.00767204, 0),
    ),
    (
        "head",
        "head",
        _CAPSULE,
        (0.07, 0.024104),
        (0.000341465, 0.048184, -0.00148117),
        (0.717887, 0.696142, -0.00493334, 0),
    ),
    (
        "lclavicle",
        "lclavicle",
        _CAPSULE,
        (0.06, 0.03986988),
        (0.0918817, 0.0382636, 0.00535704),
        (0.674573, 0.274789, -0.685158, 0),
    ),
    ("lhumerus", "lhumerus", _CAPSULE, (0.035, 0.1245789), (0, -0.138421, 0), _HUMERUS_L),
    ("lradius", "lradius", _CAPSULE, (0.025, 0.08169111), (0, -0.0907679, 0), _HUMERUS_L),
    (
        "lwrist",
        "lwrist",
        _CAPSULE,
        (0.02, 0.03),
        (0, -0.03, 0),
        (1.59389e-11, -1.59388e-11, -0.707107, -0.707107),
    ),
    ("lhand", "lhand", _ELLIPSOID, (0.024, 0.01, 0.03), (0, -0.016752, 0), _HAND_L),
    ("lfinger0", "lfingers", _CAPSULE, (0.005, 0.02), (-0.015, -0.025, 0), _FINGER),
    ("lfinger1", "lfingers", _CAPSULE, (0.005, 0.02), (-0.004, -0.03, 0), _FINGER),
    ("lfinger2", "lfingers", _CAPSULE, (0.0045, 0.02), (0.007, -0.03, 0), _FINGER),
    ("lfinger3", "lfingers", _CAPSULE, (0.004, 0.02), (0.016, -0.025, 0), _FINGER),
    (
        "lthumb",
        "lthumb",
        _CAPSULE,
        (0.006, 0.02),
        (0, -0.03, 0),
        (4.53059e-11, -4.27268e-11, -0.707107, -0.707107),
    ),
    (
        "rclavicle",
        "rclavicle",
        _CAPSULE,
        (0.06, 0.03986988),
        (-0.0918817, 0.0382636, 0.00535704),
        (0.687843, 0.27905, 0.670077, 0),
    ),
    (
        "rhumerus",
        "rhumerus",
        _CAPSULE,
        (0.035, 0.1245789),
        (0, -0.138421, 0),
        (0.612372, -0.612372, -0.353553, -0.353553),
    ),
    (
        "rradius",
        "rradius",
        _CAPSULE,
        (0.025, 0.08169111),
        (0, -0.0907679, 0),
        (0.61238, -0.612372, -0.353554, -0.353541),
    ),
    (
        "rwrist",
        "rwrist",
        _CAPSULE,
        (0.02, 0.03),
        (0, -0.03, 0),
        (1.11127e-05, -1.21227e-06, 0.707101, 0.707113),
    ),
    ("rhand", "rhand", _ELLIPSOID, (0.024, 0.01, 0.03), (0, -0.016752, 0), _HAND_R),
    ("rfinger0", "rfingers", _CAPSULE, (0.005, 0.02), (0.015, -0.025, 0), _FINGER),
    ("rfinger1", "rfingers", _CAPSULE, (0.005, 0.02), (0.004, -0.03, 0), _FINGER),
    ("rfinger2", "rfingers", _CAPSULE, (0.0045, 0.02), (-0.007, -0.03, 0), _FINGER),
    ("rfinger3", "rfingers", _CAPSULE, (0.004, 0.02), (-0.016, -0.025, 0), _FINGER),
    (
        "rthumb",
        "rthumb",
        _CAPSULE,
        (0.006, 0.02),
        (0, -0.03, 0),
        (6.21773e-11, -6.35284e-11, 0.707107, 0.707107),
    ),
)

# Touch sites in the published sensor order: (site, body, type, size, position,
# orientation as ("zaxis", v), ("quat", q) or None). Sensors are "sensor_touch_"
# + the site's body.
_TOE_TOUCH = (_CAPSULE, (0.025, 0.03), (0, -0.01, -0.02), ("zaxis", (1, 0, 0)))
_FOOT_TOUCH = (_CAPSULE, (0.025, 0.01), (0, 0.02, -0.025), ("zaxis", (1, 0, 0)))
TOUCH_SITES: tuple[tuple[Any, ...], ...] = (
    (
        "lhand_touch",
        "lhand",
        _ELLIPSOID,
        (0.012, 0.005, 0.015),
        (0, -0.016752, -0.01),
        ("quat", _HAND_L),
    ),
    ("lfingers_touch", "lfingers", _BOX, (0.023, 0.013, 0.003), (0, -0.042, -0.003), None),
    ("lthumb_touch", "lthumb", _BOX, (0.006, 0.013, 0.003), (0, -0.043, -0.003), None),
    (
        "rhand_touch",
        "rhand",
        _ELLIPSOID,
        (0.012, 0.005, 0.015),
        (0, -0.016752, -0.01),
        ("quat", _HAND_R),
    ),
    ("rfingers_touch", "rfingers", _BOX, (0.023, 0.013, 0.003), (0, -0.042, -0.003), None),
    ("rthumb_touch", "rthumb", _BOX, (0.006, 0.013, 0.003), (0, -0.043, -0.003), None),
    ("ltoes_touch", "ltoes", *_TOE_TOUCH),
    ("rtoes_touch", "rtoes", *_TOE_TOUCH),
    ("rfoot_touch", "rfoot", *_FOOT_TOUCH),
    ("lfoot_touch", "lfoot", *_FOOT_TOUCH),
)

# Torque motors: joint -> gear (N m per unit control), controls in [-1, 1].
MOTOR_GEARS = {
    "headrx": 20, "headry": 20, "headrz": 20, "lclaviclery": 20, "lclaviclerz": 20,
    "lfemurrx": 120, "lfemurry": 40, "lfemurrz": 40, "lfingersrx": 20, "lfootrx": 20,
    "lfootrz": 20, "lhandrx": 20, "lhandrz": 20, "lhumerusrx": 40, "lhumerusry": 40,
    "lhumerusrz": 40, "lowerbackrx": 40, "lowerbackry": 40, "lowerbackrz": 40,
    "lowerneckrx": 20, "lowerneckry": 20, "lowerneckrz": 20, "lradiusrx": 40,
    "lthumbrx": 20, "lthumbrz": 20, "ltibiarx": 80, "ltoesrx": 20, "lwristry": 20,
    "rclaviclery": 20, "rclaviclerz": 20, "rfemurrx": 120, "rfemurry": 40, "rfemurrz": 40,
    "rfingersrx": 20, "rfootrx": 20, "rfootrz": 20, "rhandrx": 20, "rhandrz": 20,
    "rhumerusrx": 40, "rhumerusry": 40, "rhumerusrz": 40, "rradiusrx": 40, "rthumbrx": 20,
    "rthumbrz": 20, "rtibiarx": 80, "rtoesrx": 20, "rwristry": 20, "thoraxrx": 40,
    "thoraxry": 40, "thoraxrz": 40, "upperbackrx": 40, "upperbackry": 40,
    "upperbackrz": 40, "upperneckrx": 20, "upperneckry": 20, "upperneckrz": 20,
}  # fmt: skip

# dm_control's `include_face` on this body: a massless face capsule on the head and
# a "face" body whose nose (radius: the head capsule's / 4.75) only the egocentric
# camera does not see.
FACE_CAPSULE = ((0.065, 0.014), (0.000341465, 0.048184, 0.01), (0.717887, 0.696142, -0.00493334, 0))
NOSE_HALF_LENGTH_M = 0.01
NOSE_QUAT = (1, 0.7, 0, 0)
