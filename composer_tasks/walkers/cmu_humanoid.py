"""The CMU humanoids of dm_control (dm-control 1.0.50, `locomotion/walkers/cmu_humanoid.py`).

dm_control's module defines, and this one too, with the same names and arguments:

* `CMUHumanoid`: the "V2019" body (`cmu_humanoid_v2019`, 39.6 kg) with 56 torque
  motors. As dm_control reads its file, the V2019 joint ranges are in degrees
  when the walker is compiled alone (the file writes radians without saying so:
  the joints barely move) and in radians once it is attached to an arena that
  reads radians (PyMJCF's one <compiler>), as every locomotion arena does.
* `CMUHumanoidPositionControlled(model_version="2019" | "2020", scale_default=False)`:
  position servos (`_POSITION_ACTUATORS`, or `_POSITION_ACTUATORS_V2020` with a
  30 ms control filter and the table's joint dampings); `scale_default` rescales
  the body 1.2x to 70 kg as dm_control's `rescale_humanoid(walker, 1.2, 1.2, 70)`.
* `CMUHumanoidPositionControlledV2020`: the dm_control paper's humanoid
  (Tunyasuvunakool et al. 2020, §7.1): V2020, rescaled to 70 kg, with a face.
* `CMUHumanoidObservables`, `PositionActuatorParams`, `PositionActuatorParamsV2020`.

The V2020 body is built here from its published facts (dm_control's
`assets/humanoid_CMU_V2020.xml`, cited by number below): the proportions, joint
axes and ranges, stiffnesses, contact parameters, masses, servo gains, force
limits and joint dampings; its capsule geometry is authored as segments between
points.

Frames and units: the skeleton's numbers are given in the CMU convention (x to the
subject's left, y up, z forward; metres before any rescale, radians). As in
dm_control, the root body sits at the walker's frame origin and its frame is that
CMU pelvis frame, so a walker at the identity pose lies on its back, head to +y;
`upright_pose` stands it up: the root 0.94 m up (1.143 m for
`CMUHumanoidPositionControlledV2020`) turned by the quaternion (0.859, 1, 1, 0.859)
(unnormalised, as dm_control gives it; `set_pose` normalises). The root sensors
(velocimeter, accelerometer, gyro) read in that pelvis frame, and every
egocentric observation (`world_zaxis`, `end_effectors_pos`, `appendages_pos`) is
in it, as in dm_control. The locomotion tasks place the walker through
`upright_pose` (`composer_tasks/tasks/walker_state.py`).

Position control: `action[i]` in [-1, 1] maps linearly onto the written range of
joint i, in the actuators' (alphabetical) order: the servo drives the joint toward
`lower + (action + 1) / 2 * (upper - lower)` with gain kp (N m/rad) and force limit
(N m), for V2020 after a first-order filter of time constant 30 ms.
"""

import collections
from collections.abc import Iterable
from typing import Any

import mujoco
import numpy as np
from numpy.typing import ArrayLike

from composer_tasks import composer
from composer_tasks.composer.observation import observable
from composer_tasks.physics import Physics
from composer_tasks import mjcf
from composer_tasks.walkers import base, cmu_humanoid_v2019, legacy_base
from composer_tasks.walkers import initializers as walker_initializers

# V2020 rescales lengths and sizes by 1.2 (dm_control `rescale_humanoid(walker, 1.2,
# 1.2, 70)`), then scales the geoms' density so that the body weighs 70 kg. The
# rescaled geometry below weighs 115.697... kg at 1000 kg/m^3.
_SCALE = 1.2
_TOTAL_MASS_KG = 70.0
_WATER_DENSITY_KG_M3 = 1000.0
_MASS_AT_WATER_DENSITY_KG = 115.69735041450569
_DENSITY_KG_M3 = _WATER_DENSITY_KG_M3 * _TOTAL_MASS_KG / _MASS_AT_WATER_DENSITY_KG
# dm_control's names of the root's velocimeter, accelerometer and gyro.
# The names of the (velocimeter, accelerometer, gyro) root sensors.
_ROOT_SENSOR_NAMES = ("sensor_root_veloc", "sensor_root_accel", "sensor_root_gyro")
# dm_control's body camera: 0.3 m in front of the pelvis (CMU frame, unscaled).
_BODY_CAMERA_POS_M = (0.0, 0.3, 0.1)
# dm_control's tracking cameras (humanoid_CMU_V2020.xml, humanoid_CMU_V2019.xml):
# (name, position in m, xyaxes, fovy in degrees or None for MuJoCo's 45), in the
# walker's world body; the 2020 body's rescale moves them too, as there.
_TRACKING_CAMERAS_V2020 = (
    ("back", (0.0, 3.0, 1.4), (-1.0, 0.0, 0.0, 0.0, -1.0, 2.0), None),
    ("side", (-3.0, 0.0, 1.4), (0.0, -1.0, 0.0, 1.0, 0.0, 2.0), None),
    ("front_side", (-2.0, -2.0, 0.5), (0.5, -0.5, 0.0, 0.1, 0.1, 1.0), None),
)
_TRACKING_CAMERAS_V2019 = _TRACKING_CAMERAS_V2020 + (
    ("float_far", (-3.0, 0.0, 1.5), (0.0, -1.0, 0.0, 0.5, 0.0, 1.0), 75.0),
    ("float_far_flip", (3.0, 0.0, 1.5), (0.0, 1.0, 0.0, -0.5, 0.0, 1.0), 75.0),
)
# The 56 hinges in the CMU motion-capture order (dm_control's `_CMU_MOCAP_JOINTS`).
_CMU_MOCAP_JOINTS = tuple(
    f"{body}r{axis}"
    for body, axes in (
        ("lfemur", "zyx"), ("ltibia", "x"), ("lfoot", "zx"), ("ltoes", "x"),
        ("rfemur", "zyx"), ("rtibia", "x"), ("rfoot", "zx"), ("rtoes", "x"),
        ("lowerback", "zyx"), ("upperback", "zyx"), ("thorax", "zyx"),
        ("lowerneck", "zyx"), ("upperneck", "zyx"), ("head", "zyx"),
        ("lclavicle", "zy"), ("lhumerus", "zyx"), ("lradius", "x"), ("lwrist", "y"),
        ("lhand", "zx"), ("lfingers", "x"), ("lthumb", "zx"),
        ("rclavicle", "zy"), ("rhumerus", "zyx"), ("rradius", "x"), ("rwrist", "y"),
        ("rhand", "zx"), ("rfingers", "x"), ("rthumb", "zx"),
    )
    for axis in axes
)  # fmt: skip

# dm_control's upright pose (`_UPRIGHT_POS`, `_UPRIGHT_POS_V2020`, `_UPRIGHT_QUAT` of
# its cmu_humanoid.py): where the root goes (m) and how it turns to stand the CMU
# pelvis frame (y up, z forward) upright in the world (z up, x forward). The
# quaternion is unnormalised, as dm_control's.
_UPRIGHT_POS_M = (0.0, 0.0, 0.94)
_UPRIGHT_POS_V2020_M = (0.0, 0.0, 1.143)
_UPRIGHT_QUAT = (0.859, 1.0, 1.0, 0.859)
# dm_control's `standing_height` of the CMU humanoids: the head height (m) above
# which the humanoid counts as standing (`_STAND_HEIGHT`).
_STAND_HEIGHT_M = 1.5

# Joint stiffness (N m/rad) of the published default classes.
_SOFT, _MEDIUM, _MEDIUM_HIGHER, _HIGH = 1.0, 10.0, 50.0, 200.0

# The skeleton, parents first: (body, parent, position in the parent (m), orientation
# (w, x, y, z; None for none), hinges). Each hinge is (axis letter, lower, upper (rad),
# stiffness); it is named body + "r" + axis, as in the CMU data, and turns about the
# body's own axis. Bodies under "root" hang from the root body's skeleton frame; all
# numbers are CMU-frame.
_SKELETON = (
    ("lhipjoint", "root", (0, 0, 0), None, ()),
    (
        "lfemur",
        "lhipjoint",
        (0.101937, -0.0918074, 0.0494461),
        (0.984808, 0, 0, 0.173648),
        (
            ("z", -1.0472, 1.22173, _MEDIUM),
            ("y", -1.22173, 1.22173, _MEDIUM),
            ("x", -2.79253, 0.349066, _MEDIUM),
        ),
    ),
    ("ltibia", "lfemur", (0, -0.404945, 0), None, (("x", 0.01, 2.96706, _SOFT),)),
    (
        "lfoot",
        "ltibia",
        (0, -0.415693, 0),
        (1, -1, 0, 0),
        (("z", -1.22173, 0.349066, _MEDIUM), ("x", -0.785398, 0.8, _MEDIUM)),
    ),
    ("ltoes", "lfoot", (0, -0.156372, -0.0227756), None, (("x", -1.5708, 0.349066, _SOFT),)),
    ("rhipjoint", "root", (0, 0, 0), None, ()),
    (
        "rfemur",
        "rhipjoint",
        (-0.101937, -0.0918074, 0.0494461),
        (0.984808, 0, 0, -0.173648),
        (
            ("z", -1.22173, 1.0472, _MEDIUM),
            ("y", -1.22173, 1.22173, _MEDIUM),
            ("x", -2.79253, 0.349066, _MEDIUM),
        ),
    ),
    ("rtibia", "rfemur", (0, -0.404945, 0), None, (("x", 0.01, 2.96706, _SOFT),)),
    (
        "rfoot",
        "rtibia",
        (0, -0.415693, 0),
        (0.707107, -0.707107, 0, 0),
        (("z", -0.349066, 1.22173, _MEDIUM), ("x", -0.785398, 0.8, _MEDIUM)),
    ),
    ("rtoes", "rfoot", (0, -0.156372, -0.0227756), None, (("x", -1.5708, 0.349066, _SOFT),)),
    (
        "lowerback",
        "root",
        (0, 0, 0),
        None,
        (
            ("z", -0.523599, 0.523599, _HIGH),
            ("y", -0.523599, 0.523599, _HIGH),
            ("x", -0.349066, 0.785398, _MEDIUM),
        ),
    ),
    (
        "upperback",
        "lowerback",
        (0.000565862, 0.113213, -0.00805298),
        None,
        (
            ("z", -0.523599, 0.523599, _HIGH),
            ("y", -0.523599, 0.523599, _HIGH),
            ("x", -0.349066, 0.785398, _MEDIUM),
        ),
    ),
    (
        "thorax",
        "upperback",
        (0.000512528, 0.11356, 0.000936821),
        None,
        (
            ("z", -0.523599, 0.523599, _HIGH),
            ("y", -0.523599, 0.523599, _HIGH),
            ("x", -0.349066, 0.785398, _MEDIUM),
        ),
    ),
    (
        "lowerneck",
        "thorax",
        (0, 0.113945, 0.00468037),
        None,
        (
            ("z", -0.523599, 0.523599, _MEDIUM_HIGHER),
            ("y", -0.523599, 0.523599, _MEDIUM_HIGHER),
            ("x", -0.349066, 0.785398, _MEDIUM_HIGHER),
        ),
    ),
    (
        "upperneck",
        "lowerneck",
        (-0.00330143, 0.0904801, 0.0106872),
        None,
        (
            ("z", -0.523599, 0.523599, _MEDIUM_HIGHER),
            ("y", -0.523599, 0.523599, _MEDIUM_HIGHER),
            ("x", -0.349066, 0.785398, _MEDIUM_HIGHER),
        ),
    ),
    (
        "head",
        "upperneck",
        (0.00100175, 0.13, -0.00449288),
        None,
        (
            ("z", -0.523599, 0.523599, _MEDIUM_HIGHER),
            ("y", -0.523599, 0.523599, _MEDIUM_HIGHER),
            ("x", -0.349066, 0.785398, _MEDIUM_HIGHER),
        ),
    ),
    (
        "lclavicle",
        "thorax",
        (0, 0.113945, 0.00468037),
        None,
        (("z", 0, 0.349066, _HIGH), ("y", -0.349066, 0.174533, _HIGH)),
    ),
    (
        "lhumerus",
        "lclavicle",
        (0.18, 0.09, 0.0107141),
        (0.183013, 0.683013, -0.683013, 0.183013),
        (
            ("z", -1.1, 1.5708, _MEDIUM),
            ("y", -1.5708, 1.5708, _MEDIUM),
            ("x", -1.0472, 1.5708, _MEDIUM),
        ),
    ),
    ("lradius", "lhumerus", (0, -0.276843, 0), None, (("x", -0.174533, 2.96706, _SOFT),)),
    ("lwrist", "lradius", (0, -0.181536, 0), (-0.5, 0, 0.866025, 0), (("y", 0, 3.14159, _SOFT),)),
    (
        "lhand",
        "lwrist",
        (0, -0.0907676, 0),
        None,
        (("z", -0.785398, 0.785398, _SOFT), ("x", -1.5708, 1.5708, _SOFT)),
    ),
    ("lfingers", "lhand", (0, -0.075, 0), None, (("x", 0, 1.5708, _SOFT),)),
    (
        "lthumb",
        "lhand",
        (-0.025, 0, 0),
        (0.92388, 0, 0, -0.382683),
        (("z", -0.785398, 0.785398, _SOFT), ("x", 0, 1.57, _SOFT)),
    ),
    (
        "rclavicle",
        "thorax",
        (0, 0.113945, 0.00468037),
        None,
        (("z", -0.349066, 0, _HIGH), ("y", -0.174533, 0.349066, _HIGH)),
    ),
    (
        "rhumerus",
        "rclavicle",
        (-0.18, 0.09, 0.0107141),
        (0.183013, 0.683013, 0.683013, -0.183013),
        (
            ("z", -1.1, 1.5708, _MEDIUM),
            ("y", -1.5708, 1.5708, _MEDIUM),
            ("x", -1.0472, 1.5708, _MEDIUM),
        ),
    ),
    ("rradius", "rhumerus", (0, -0.276843, 0), None, (("x", -0.174533, 2.96706, _SOFT),)),
    ("rwrist", "rradius", (0, -0.181536, 0), (-0.5, 0, -0.866025, 0), (("y", -3.14159, 0, _SOFT),)),
    (
        "rhand",
        "rwrist",
        (0, -0.0907676, 0),
        None,
        (("z", -0.785398, 0.785398, _SOFT), ("x", -1.5708, 1.5708, _SOFT)),
    ),
    ("rfingers", "rhand", (0, -0.075, 0), None, (("x", 0, 1.5708, _SOFT),)),
    (
        "rthumb",
        "rhand",
        (0.025, 0, 0),
        (0.92388, 0, 0, 0.382683),
        (("z", -0.785398, 0.785398, _SOFT), ("x", 0, 1.57, _SOFT)),
    ),
)
# The finger hinges sit 0.015 m behind their body's origin (CMU frame, unscaled).
_JOINT_POSITIONS = {"lfingersrx": (0, 0.015, 0), "rfingersrx": (0, 0.015, 0)}

# Capsules as segments between two points of their body's frame (CMU frame, m,
# unscaled): (geom, body, radius, from, to). "contact" marks the feet, toes, hands
# and fingers, which collide with condim 3 and more friction; `mass 0` geoms add
# bulk for collisions but no mass.
_CAPSULES = (
    ("root_geom", "root", 0.1, (0.07, -0.05, 0), (-0.07, -0.05, 0)),
    (
        "lhipjoint",
        "lhipjoint",
        0.008,
        (0.065808, -0.060052, 0.032343),
        (0.036129, -0.031755, 0.017103),
    ),
    ("lfemur_upper", "lfemur", 0.085, (0, -0.198473, 0), (0, -0.032473, 0)),
    ("lfemur", "lfemur", 0.07, (0, -0.384699, 0), (0, -0.020247, 0)),
    ("ltibia", "ltibia", 0.04, (0, -0.385407, 0), (0, -0.020285, 0)),
    ("lfoot", "lfoot", 0.025, (-0.032195, -0.128545, -0.025662), (-0.021805, 0.028545, 0.002886)),
    ("lfoot_ch", "lfoot", 0.025, (0.032195, -0.128545, -0.025662), (0.021805, 0.028545, 0.002886)),
    (
        "rhipjoint",
        "rhipjoint",
        0.008,
        (-0.066259, -0.059675, 0.03214),
        (-0.035678, -0.032133, 0.017306),
    ),
    ("rfemur_upper", "rfemur", 0.085, (0, -0.198473, 0), (0, -0.032473, 0)),
    ("rfemur", "rfemur", 0.07, (0, -0.384699, 0), (0, -0.020247, 0)),
    ("rtibia", "rtibia", 0.04, (0, -0.385407, 0), (0, -0.020285, 0)),
    ("rfoot", "rfoot", 0.025, (-0.032729, -0.128227, -0.027127), (-0.021271, 0.028227, 0.004351)),
    ("rfoot_ch", "rfoot", 0.025, (0.032729, -0.128227, -0.027127), (0.021271, 0.028227, 0.004351)),
    ("lowerback", "lowerback", 0.085, (-0.042571, 0.056606, 0.01), (0.048229, 0.056606, 0.01)),
    ("upperback", "upperback", 0.09, (-0.04517, 0.05678, 0.02), (0.045682, 0.05678, 0.02)),
    ("thorax", "thorax", 0.095, (-0.057021, 0.056972, 0.02), (0.057021, 0.056972, 0.02)),
    (
        "lowerneck",
        "lowerneck",
        0.075,
        (-0.001651, 0.068032, 0.005344),
        (-0.001651, 0.022448, 0.005344),
    ),
    (
        "upperneck",
        "upperneck",
        0.05,
        (0.000501, 0.067523, -0.002246),
        (0.000501, 0.022468, -0.002246),
    ),
    ("head", "head", 0.095, (0.000341, 0.072288, 0.025), (0.000341, 0.02408, 0.025)),
    (
        "lclavicle",
        "lclavicle",
        0.075,
        (0.147192, 0.061296, 0.008561),
        (0.036571, 0.015231, 0.002153),
    ),
    ("lhumerus", "lhumerus", 0.042, (0, -0.263, 0), (0, -0.013842, 0)),
    ("lradius", "lradius", 0.03, (0, -0.172459, 0), (0, -0.009077, 0)),
    ("lwrist", "lwrist", 0.02, (0, -0.06, 0), (0, 0, 0)),
    ("lfinger0", "lfingers", 0.0065, (-0.024, -0.065, 0), (-0.024, 0.015, 0)),
    ("lfinger1", "lfingers", 0.0065, (-0.008, -0.07, 0), (-0.008, 0.01, 0)),
    ("lfinger2", "lfingers", 0.006, (0.008, -0.07, 0), (0.008, 0.01, 0)),
    ("lfinger3", "lfingers", 0.0055, (0.024, -0.065, 0), (0.024, 0.015, 0)),
    ("lthumb", "lthumb", 0.008, (0, -0.06, 0), (0, 0, 0)),
    (
        "rclavicle",
        "rclavicle",
        0.075,
        (-0.147192, 0.061296, 0.008561),
        (-0.036571, 0.015231, 0.002153),
    ),
    ("rhumerus", "rhumerus", 0.042, (0, -0.263, 0), (0, -0.013842, 0)),
    ("rradius", "rradius", 0.03, (0.000002, -0.172459, 0), (-0.000002, -0.009077, 0)),
    ("rwrist", "rwrist", 0.02, (0, -0.06, 0), (0, 0, 0)),
    ("rfinger0", "rfingers", 0.0065, (0.024, -0.065, 0), (0.024, 0.015, 0)),
    ("rfinger1", "rfingers", 0.0065, (0.008, -0.07, 0), (0.008, 0.01, 0)),
    ("rfinger2", "rfingers", 0.006, (-0.008, -0.07, 0), (-0.008, 0.01, 0)),
    ("rfinger3", "rfingers", 0.0055, (-0.024, -0.065, 0), (-0.024, 0.015, 0)),
    ("rthumb", "rthumb", 0.008, (0, -0.06, 0), (0, 0, 0)),
)
_CONTACT_GEOMS = frozenset(
    (
        "lfoot",
        "lfoot_ch",
        "rfoot",
        "rfoot_ch",
        "lfinger0",
        "lfinger1",
        "lfinger2",
        "lfinger3",
        "rfinger0",
        "rfinger1",
        "rfinger2",
        "rfinger3",
        "lthumb",
        "rthumb",
    )
)
_MASSLESS_GEOMS = frozenset(("lfemur_upper", "rfemur_upper"))
# Spheres under the toes: (geom, body, radius, centre), CMU frame, unscaled.
_TOE_SPHERES = tuple(
    (f"{side}toes{index}", f"{side}toes", 0.025, (x, -0.01, -0.01))
    for side in "lr"
    for index, x in enumerate((0.0, 0.03, -0.03))
)
# Ellipsoid hands: (geom, body, semi-axes, centre, orientation), CMU frame, unscaled.
_HANDS = (
    ("lhand", "lhand", (0.035, 0.02, 0.045), (0, -0.016752, 0), (0, 0, -1, -1)),
    ("rhand", "rhand", (0.035, 0.02, 0.045), (0, -0.016752, 0), (0, 0, 1, 1)),
)
# The face dm_control adds to V2020 to show the head's heading: a massless,
# non-colliding capsule on the face, and a "face" body 0.02 m short of the head's
# y offset holding a nose hidden from the egocentric camera.
_FACE = ("face", "head", 0.065, (0.000441, 0.062177, 0.00957), (0.000242, 0.034191, 0.01043))
_FACE_BODY_POS = (0.0, 0.039, 0.11)
_NOSE = ("nose", "face", 0.02, (0, 0.009396, -0.003423), (0, -0.009396, 0.003423))

# Touch sites, in the published sensor order: (site, body, type, size, centre,
# orientation as ("zaxis", v) or ("quat", q)), CMU frame, unscaled.
_CAPSULE = mujoco.mjtGeom.mjGEOM_CAPSULE
_BOX = mujoco.mjtGeom.mjGEOM_BOX
_ELLIPSOID = mujoco.mjtGeom.mjGEOM_ELLIPSOID
_TOUCH_SITES = (
    (
        "lhand_touch",
        "lhand",
        _ELLIPSOID,
        (0.012, 0.005, 0.015),
        (0, -0.016752, -0.02),
        ("quat", (0, 0, -1, -1)),
    ),
    ("lfingers_touch", "lfingers", _BOX, (0.023, 0.013, 0.003), (0, -0.042, -0.007), None),
    ("lthumb_touch", "lthumb", _BOX, (0.006, 0.013, 0.003), (0, -0.043, -0.007), None),
    (
        "rhand_touch",
        "rhand",
        _ELLIPSOID,
        (0.012, 0.005, 0.015),
        (0, -0.016752, -0.02),
        ("quat", (0, 0, 1, 1)),
    ),
    ("rfingers_touch", "rfingers", _BOX, (0.023, 0.013, 0.003), (0, -0.042, -0.007), None),
    ("rthumb_touch", "rthumb", _BOX, (0.006, 0.013, 0.003), (0, -0.043, -0.007), None),
    ("ltoes_touch", "ltoes", _CAPSULE, (0.025, 0.03, 0), (0, -0.01, -0.02), ("zaxis", (1, 0, 0))),
    ("rtoes_touch", "rtoes", _CAPSULE, (0.025, 0.03, 0), (0, -0.01, -0.02), ("zaxis", (1, 0, 0))),
    ("rfoot_touch", "rfoot", _CAPSULE, (0.025, 0.01, 0), (0, 0.02, -0.015), ("zaxis", (1, 0, 0))),
    ("lfoot_touch", "lfoot", _CAPSULE, (0.025, 0.01, 0), (0, 0.02, -0.015), ("zaxis", (1, 0, 0))),
)
# Torque sensors of the published model, at the shoulders (humerus origins).
_TORQUE_SITES = ("lhumerus_ft", "rhumerus_ft")
_CONTACT_EXCLUSIONS = (
    ("lclavicle", "rclavicle"),
    ("lowerneck", "lclavicle"),
    ("lowerneck", "rclavicle"),
    ("upperneck", "lclavicle"),
    ("upperneck", "rclavicle"),
)

# dm_control's servo parameters: (joint, force range (N m), gain kp (N m/rad)) for
# the V2019 position-controlled walker, and with the joint's damping (N m s/rad)
# for V2020. Alphabetical by joint, as the actuators.
PositionActuatorParams = collections.namedtuple(
    "PositionActuatorParams", ["name", "forcerange", "kp"]
)
PositionActuatorParamsV2020 = collections.namedtuple(
    "PositionActuatorParamsV2020", ["name", "forcerange", "kp", "damping"]
)
_V2019_SERVOS = {
    "headrx": 20, "headry": 20, "headrz": 20, "lclaviclery": 20, "lclaviclerz": 20,
    "lfemurrx": 120, "lfemurry": 80, "lfemurrz": 80, "lfingersrx": 20, "lfootrx": 50,
    "lfootrz": 50, "lhandrx": 20, "lhandrz": 20, "lhumerusrx": 60, "lhumerusry": 60,
    "lhumerusrz": 60, "lowerbackrx": 150, "lowerbackry": 150, "lowerbackrz": 150,
    "lowerneckrx": 20, "lowerneckry": 20, "lowerneckrz": 20, "lradiusrx": 60,
    "lthumbrx": 20, "lthumbrz": 20, "ltibiarx": 80, "ltoesrx": 20, "lwristry": 20,
    "rclaviclery": 20, "rclaviclerz": 20, "rfemurrx": 120, "rfemurry": 80, "rfemurrz": 80,
    "rfingersrx": 20, "rfootrx": 50, "rfootrz": 50, "rhandrx": 20, "rhandrz": 20,
    "rhumerusrx": 60, "rhumerusry": 60, "rhumerusrz": 60, "rradiusrx": 60, "rthumbrx": 20,
    "rthumbrz": 20, "rtibiarx": 80, "rtoesrx": 20, "rwristry": 20, "thoraxrx": 100,
    "thoraxry": 100, "thoraxrz": 100, "upperbackrx": 80, "upperbackry": 80,
    "upperbackrz": 80, "upperneckrx": 20, "upperneckry": 20, "upperneckrz": 20,
}  # fmt: skip
# The V2019 force limits equal the gains but for the lower back (+-120 N m) and the
# thorax (+-80 N m).
_V2019_FORCE_LIMITS = {
    **{name: 120 for name in ("lowerbackrx", "lowerbackry", "lowerbackrz")},
    **{name: 80 for name in ("thoraxrx", "thoraxry", "thoraxrz")},
}
_POSITION_ACTUATORS = [
    PositionActuatorParams(name, [-limit, limit], kp)
    for name, kp in _V2019_SERVOS.items()
    for limit in [_V2019_FORCE_LIMITS.get(name, kp)]
]
# V2020 position servos: joint -> (gain kp in N m/rad, joint damping in N m s/rad).
# The force limit of each servo equals its gain in N m (the published values).
_V2020_SERVOS = {
    "headrx": (40, 2),
    "headry": (40, 2),
    "headrz": (40, 2),
    "lclaviclery": (80, 20),
    "lclaviclerz": (80, 20),
    "lfemurrx": (300, 15),
    "lfemurry": (200, 10),
    "lfemurrz": (200, 10),
    "lfingersrx": (20, 1),
    "lfootrx": (120, 6),
    "lfootrz": (50, 3),
    "lhandrx": (20, 1),
    "lhandrz": (20, 1),
    "lhumerusrx": (120, 6),
    "lhumerusry": (120, 6),
    "lhumerusrz": (120, 6),
    "lowerbackrx": (300, 15),
    "lowerbackry": (180, 20),
    "lowerbackrz": (200, 20),
    "lowerneckrx": (120, 20),
    "lowerneckry": (120, 20),
    "lowerneckrz": (120, 20),
    "lradiusrx": (90, 5),
    "lthumbrx": (20, 1),
    "lthumbrz": (20, 1),
    "ltibiarx": (160, 8),
    "ltoesrx": (20, 1),
    "lwristry": (20, 1),
    "rclaviclery": (80, 20),
    "rclaviclerz": (80, 20),
    "rfemurrx": (300, 15),
    "rfemurry": (200, 10),
    "rfemurrz": (200, 10),
    "rfingersrx": (20, 1),
    "rfootrx": (120, 6),
    "rfootrz": (50, 3),
    "rhandrx": (20, 1),
    "rhandrz": (20, 1),
    "rhumerusrx": (120, 6),
    "rhumerusry": (120, 6),
    "rhumerusrz": (120, 6),
    "rradiusrx": (90, 5),
    "rthumbrx": (20, 1),
    "rthumbrz": (20, 1),
    "rtibiarx": (160, 8),
    "rtoesrx": (20, 1),
    "rwristry": (20, 1),
    "thoraxrx": (300, 15),
    "thoraxry": (80, 8),
    "thoraxrz": (200, 12),
    "upperbackrx": (300, 15),
    "upperbackry": (80, 8),
    "upperbackrz": (200, 12),
    "upperneckrx": (60, 10),
    "upperneckry": (60, 10),
    "upperneckrz": (60, 10),
}
_POSITION_ACTUATORS_V2020 = [
    PositionActuatorParamsV2020(name, [-kp, kp], kp, damping)
    for name, (kp, damping) in _V2020_SERVOS.items()
]
# dm_control squashes the CMU humanoid's torque readings as tanh(2 torque / 60 N m).
_TORQUE_THRESHOLD_NM = 60.0
# Time constant (s) of the first-order filter between control and servo target.
_CONTROL_FILTER_S = 0.03
# Geom groups: the body is drawn in group 2, the nose in group 1, which the
# egocentric camera hides.
_BODY_GROUP = 2
_HIDDEN_FROM_EGOCENTRIC_GROUP = 1
# Hands and feet, in the published end-effector order.
_END_EFFECTORS = ("rradius", "lradius", "rfoot", "lfoot")
_FOOT_BODIES = ("lfoot", "ltoes", "rfoot", "rtoes")
_AXES = {"x": (1, 0, 0), "y": (0, 1, 0), "z": (0, 0, 1)}


class _CMUHumanoidBase(legacy_base.LegacyMembers, base.Walker):
    """The API shared by dm_control's CMU humanoids (`_CMUHumanoidBase` there).

    Subclasses choose the body and its actuators through `_body_version`
    ("2019" or "2020"), `_actuation` ("torque" or "position"), `_scale_default`
    and `_default_face`.
    """

    _body_version = "2019"
    mjcf_file_site_sizes = True  # an MJCF file in dm_control (base.Walker)

    _actuation = "torque"
    _scale_default = False
    _default_face = False

    @property
    def prev_action(self) -> np.ndarray:
        """Not recorded, as dm_control's CMU humanoid does not record it (its legacy
        base class leaves it to concrete walkers): the `prev_action` observable exists
        and reading it raises.

        Raises:
          NotImplementedError: always.
        """
        raise NotImplementedError(
            f"{type(self).__name__} does not record its previous action (as dm_control's "
            "CMU humanoid): leave the prev_action observable disabled"
        )

    def _build(
        self,
        name: str = "walker",
        marker_rgba: ArrayLike | None = None,
        include_face: bool | None = None,
        initializer: Any = None,
    ) -> None:
        if not isinstance(name, str) or not name or "/" in name:
            raise ValueError(f"name must be a non-empty string without '/', got {name!r}")
        if include_face is None:
            include_face = self._default_face
        if self._body_version not in ("2019", "2020"):
            raise ValueError(f"model_version must be '2019' or '2020', got {self._body_version!r}")
        spec = mujoco.MjSpec()
        spec.modelname = name
        version_2019 = self._body_version == "2019"
        # dm_control's V2019 file gives its joint ranges in radians but sets no
        # `angle="radian"`, so MuJoCo reads them as degrees (+-0.52 becomes +-0.52
        # degrees); its servos map their controls onto the written numbers. Both
        # quirks are kept: the V2019 spec is in degrees, its ranges as written.
        spec.compiler.degree = version_2019
        # ... and attached to an arena it reads them in the arena's unit (radians there,
        # as dm_control's single <compiler> does): the joints move as intended.
        self.angle_unit_from_parent = version_2019
        scale = _SCALE if self._scale_default else 1.0
        _set_defaults(spec, 0.1 if version_2019 else 1.0, _WATER_DENSITY_KG_M3)
        spec.add_material(name="self", rgba=[0.7, 0.5, 0.3, 1.0])
        # dm_control's light above the walker (humanoid_CMU_V2019.xml and V2020.xml:
        # 7 m up, pointing down, following the centre of mass; rescaled with the body).
        spec.worldbody.add_light(
            name="tracking_light",
            pos=_scaled((0.0, 0.0, 7.0), scale),
            dir=[0.0, 0.0, -1.0],
            mode=mujoco.mjtCamLight.mjCAMLIGHT_TRACKCOM,
        )
        # dm_control's cameras of the walker's world body, all `trackcom`.
        tracking = [
            base.add_camera(spec.worldbody, name, _scaled(pos, scale), xyaxes=xyaxes, fovy=fovy)
            for name, pos, xyaxes, fovy in (
                _TRACKING_CAMERAS_V2019 if version_2019 else _TRACKING_CAMERAS_V2020
            )
        ]
        root = spec.worldbody.add_body(name="root")
        # dm_control's order (velocimeter, gyro, accelerometer); the centre-of-mass
        # velocity sensor, this project's, comes after every sensor of dm_control's.
        root_site, root_sensors = base.add_root_sensors(
            spec,
            root,
            com_velocity=False,
            order=("velocimeter", "gyro", "accelerometer"),
        )
        # The published files' root site (0.01 m), rescaled with the 2020 body.
        root_site.size = [0.01 * scale, 0.0, 0.0]
        for sensor, sensor_name in zip(root_sensors, _ROOT_SENSOR_NAMES):
            sensor.name = sensor_name
        # The root's frame is the CMU pelvis frame, as dm_control's: the skeleton's
        # numbers apply in it directly.
        skeleton = root
        if version_2019:
            parts = _build_v2019(spec, skeleton, include_face, scale)
        else:
            parts = _build_v2020(spec, skeleton, include_face, scale)
        if self._scale_default:
            # dm_control's rescale_humanoid(walker, 1.2, 1.2, 70): the densities
            # scale so that the rescaled body weighs 70 kg.
            density = (
                _DENSITY_KG_M3
                if not version_2019
                else _density_for_mass(spec, "root", _TOTAL_MASS_KG)
            )
            for geom in spec.geoms:
                geom.density = density
        bodies, joints = parts["bodies"], parts["joints"]
        for first, second in _CONTACT_EXCLUSIONS:
            spec.add_exclude(bodyname1=first, bodyname2=second)
        actuated = [joints[joint_name] for joint_name in sorted(joints)]
        if self._actuation == "torque":
            gears = cmu_humanoid_v2019.MOTOR_GEARS
            for joint in actuated:
                _add_motor(spec, joint, gears[joint.name])
        else:
            table = (
                _POSITION_ACTUATORS_V2020 if self._body_version == "2020" else _POSITION_ACTUATORS
            )
            for params in table:
                joint = joints[params.name]
                if isinstance(params, PositionActuatorParamsV2020):
                    joint.damping = [float(params.damping), 0.0, 0.0]
                _add_position_servo(spec, joint, params, filtered=self._body_version == "2020")
        marker_geoms = [parts["geoms"][geom_name] for geom_name in ("rradius", "lradius")]
        if marker_rgba is not None:
            rgba = np.asarray(marker_rgba, dtype=np.float64)
            if rgba.shape != (4,) or not np.all(np.isfinite(rgba)):
                raise ValueError(f"marker_rgba must be 4 finite values, got {marker_rgba!r}")
            for geom in marker_geoms:
                geom.rgba = rgba.tolist()
        # dm_control's UprightInitializer sets every joint to qpos0 (zero here), the
        # knees' included though their range starts at 0.01 (rad, or degrees in 2019).
        initial_qpos = np.zeros(len(actuated))
        # The root stays at the frame origin (dm_control's); the standing height is
        # the root's height above the feet in the upright initial pose.
        root_height = _root_height_when_upright(spec, root, actuated, initial_qpos)
        self._spec = spec
        self._head = bodies["head"]
        self._arm_roots = (bodies["lclavicle"], bodies["rclavicle"])
        self._cmu_marker_geoms = tuple(marker_geoms)
        self._mocap_joints = tuple(joints[joint_name] for joint_name in _CMU_MOCAP_JOINTS)
        self._actuator_order = np.argsort(_CMU_MOCAP_JOINTS)
        self._inverse_order = np.argsort(self._actuator_order)
        lower = np.array([joint.range[0] for joint in actuated])
        upper = np.array([joint.range[1] for joint in actuated])
        self._joint_scale = upper - lower
        self._joint_offset = upper + lower
        self._set_parts(
            root_body=root,
            observable_joints=actuated,
            pose_joints=actuated,
            initial_qpos=initial_qpos,
            standing_height=root_height,
            end_effectors=[bodies[body] for body in _END_EFFECTORS],
            egocentric_camera=parts["egocentric_camera"],
            root_sensors=root_sensors,
            touch_sensors=parts["touch_sensors"],
            torque_sensors=parts["torque_sensors"],
            ground_contact_geoms=[geom for geom in spec.geoms if geom.parent.name in _FOOT_BODIES],
            tracking_cameras=tracking,
        )
        # The body camera looks at the walker from 0.3 m in front of the pelvis.
        self._body_camera = skeleton.add_camera(
            name="bodycam",
            pos=_scaled(_BODY_CAMERA_POS_M, scale),
            xyaxes=[-1, 0, 0, 0, 1, 0],
            fovy=80.0,
        )
        # dm_control's legacy walkers default to its UprightInitializer (the joints at
        # qpos0, the walker at `upright_pose`, at rest): `reinitialize_pose` runs it
        # while the walker has no initializer.
        if initializer is not None:
            for item in initializer if isinstance(initializer, (list, tuple)) else [initializer]:
                self.add_initializer(item)

    def _build_observables(self) -> "CMUHumanoidObservables":
        return CMUHumanoidObservables(self)

    def _egocentric_scene_option(self) -> mujoco.MjvOption:
        option = mujoco.MjvOption()
        option.geomgroup[_HIDDEN_FROM_EGOCENTRIC_GROUP] = 0
        return option

    # dm_control's CMU humanoid is a legacy walker: the same action spec.
    action_spec = legacy_base.LegacyWalker.action_spec

    # The walker's frame origin is its root body, lying in the CMU pelvis frame:
    # tasks that place the walker stand it up through `upright_pose` first
    # (`walker_state.place_walker`), as dm_control's tasks do.
    root_at_frame_origin = True
    # The root-frame axis that points forward (the CMU pelvis frame's z), for tasks
    # that follow the walker's heading (`walker_state.heading_rotation`).
    root_forward_axis = 2

    def initialize_episode(self, physics: Physics, random_state: np.random.RandomState) -> None:
        """The joints in the initial pose and the added initializers, as every
        walker here; the root stays where the task put it (dm_control's walker
        does nothing here, and its tasks call `reinitialize_pose` themselves)."""
        self._in_initialize_episode = True
        try:
            super().initialize_episode(physics, random_state)
        finally:
            self._in_initialize_episode = False

    def reinitialize_pose(self, physics: Physics, random_state: np.random.RandomState) -> None:
        """dm_control's `reinitialize_pose`: the joints in the initial pose (qpos0),
        then the initializers; while the walker has none (none given at
        construction or added), dm_control's default `UprightInitializer`, which
        puts the walker at `upright_pose` at rest (it needs the walker attached
        with a free joint)."""
        super().reinitialize_pose(physics, random_state)
        if not self._initializers and not self._in_initialize_episode:
            walker_initializers.UprightInitializer().initialize_pose(physics, self, random_state)

    _in_initialize_episode = False

    @property
    def upright_pose(self) -> base.WalkerPose:
        """dm_control's upright pose: the root 0.94 m up, turned by the unnormalised
        quaternion (0.859, 1, 1, 0.859) that stands the CMU pelvis frame upright;
        all joints at qpos0 (`qpos` None). `CMUHumanoidPositionControlledV2020`
        puts the root 1.143 m up (dm_control's other `CMUHumanoidPositionControlled`
        versions keep 0.94 m, the V2019 height, even with `model_version="2020"`)."""
        return base.WalkerPose(xpos=np.array(_UPRIGHT_POS_M), xquat=np.array(_UPRIGHT_QUAT))

    @property
    def standing_height(self) -> float:
        """dm_control's `standing_height` of the CMU humanoids: 1.5 m, the head
        height above which it counts as standing (not the root's height)."""
        return _STAND_HEIGHT_M

    @property
    def head(self) -> mjcf.Element:
        return self._handle(self._head)

    @property
    def left_arm_root(self) -> mjcf.Element:
        """The left clavicle, where the left arm hangs."""
        return self._handle(self._arm_roots[0])

    @property
    def right_arm_root(self) -> mjcf.Element:
        """The right clavicle, where the right arm hangs."""
        return self._handle(self._arm_roots[1])

    @property
    def body_camera(self) -> mjcf.Element:
        """The camera 0.3 m in front of the pelvis, looking back at the walker."""
        return self._handle(self._body_camera)

    @property
    def bodies(self) -> tuple[mjcf.Element, ...]:
        """Every body of the walker (the root first), as handles."""
        return tuple(self.mjcf_model.find_all("body"))

    @property
    def marker_geoms(self) -> tuple[mjcf.Element, ...]:
        """The forearm capsules (right, left), coloured by `marker_rgba`."""
        return self._handles(self._cmu_marker_geoms)

    @property
    def mocap_joints(self) -> tuple[mjcf.Element, ...]:
        """The 56 hinges in the CMU motion-capture order (`_CMU_MOCAP_JOINTS`)."""
        return self._handles(self._mocap_joints)

    @property
    def actuator_order(self) -> np.ndarray:
        """For each actuator (alphabetical), the index of its joint in the CMU
        motion-capture order: `mocap_pose[actuator_order]` is in actuator order."""
        return self._actuator_order

    @property
    def actuator_to_joint_order(self) -> np.ndarray:
        """For each joint in the CMU motion-capture order, the index of its
        actuator (the inverse permutation of `actuator_order`)."""
        return self._inverse_order


class CMUHumanoid(_CMUHumanoidBase):
    """dm_control's `CMUHumanoid`: the V2019 CMU body (unscaled, water density) with
    56 torque motors (gears 20 to 120 N m, controls in [-1, 1], alphabetical).

    Args:
      name: the entity's name (its prefix in the model).
      marker_rgba: RGBA of the forearm capsules (`marker_geoms`), or None.
      include_face: adds the face capsule and the nose (hidden from the
        egocentric camera) that show the head's heading.
      initializer: a pose initializer or a sequence of them; None (dm_control's
        default) is `UprightInitializer()`, which stands the walker at
        `upright_pose`.
    """


class CMUHumanoidPositionControlled(CMUHumanoid):
    """dm_control's `CMUHumanoidPositionControlled`: the CMU body with position
    servos whose controls in [-1, 1] span each joint's range (`scaled_actuators`).

    Args:
      model_version: "2019" (servo gains and force limits `_POSITION_ACTUATORS`)
        or "2020" (`_POSITION_ACTUATORS_V2020`, with the joint dampings of that
        table and a 30 ms filter on each control).
      scale_default: the body rescaled 1.2x in lengths and sizes, to 70 kg
        (dm_control's `rescale_humanoid(walker, 1.2, 1.2, 70)`).
      name, marker_rgba, include_face, initializer: as `CMUHumanoid`.
    """

    _actuation = "position"

    def _build(  # type: ignore[override]
        self, model_version: str = "2019", scale_default: bool = False, **kwargs: Any
    ) -> None:
        if model_version not in ("2019", "2020"):
            raise ValueError(f"model_version must be '2019' or '2020', got {model_version!r}")
        self._body_version = model_version
        self._scale_default = bool(scale_default)
        super()._build(**kwargs)

    def cmu_pose_to_actuation(self, target_pose: ArrayLike) -> np.ndarray:
        """Controls (actuator order) that drive the joints to `target_pose`, given in
        the CMU motion-capture order (`mocap_joints`), radians: the inverse of the
        servos' range mapping."""
        target = np.asarray(target_pose, dtype=np.float64)
        if target.shape != (len(self._observable_joints),):
            raise ValueError(
                f"target_pose must have shape ({len(self._observable_joints)},), got {target.shape}"
            )
        return (2.0 * target[self._actuator_order] - self._joint_offset) / self._joint_scale


class CMUHumanoidPositionControlledV2020(CMUHumanoidPositionControlled):
    """The CMU humanoid V2020 of the dm_control paper (§7.1): 56 position servos
    with filtered controls, 1.2x the CMU scale, 70 kg, with a face and nose.

    Args:
      name, marker_rgba, initializer: as `CMUHumanoid`.
    """

    _default_face = True

    def _build(self, **kwargs: Any) -> None:  # type: ignore[override]
        for fixed in ("model_version", "scale_default", "include_face"):
            if fixed in kwargs:
                raise TypeError(f"CMUHumanoidPositionControlledV2020 sets {fixed} itself")
        super()._build(model_version="2020", scale_default=True, include_face=True, **kwargs)

    @property
    def upright_pose(self) -> base.WalkerPose:
        """dm_control's V2020 upright pose: the root 1.143 m up, turned by the
        unnormalised quaternion (0.859, 1, 1, 0.859)."""
        return base.WalkerPose(xpos=np.array(_UPRIGHT_POS_V2020_M), xquat=np.array(_UPRIGHT_QUAT))


class CMUHumanoidObservables(legacy_base.RootMotionObservables):
    """The walker observables plus the servo filters' states, the appendages, and
    dm_control's legacy scalars of the root's pose and velocities; all disabled at
    first, as dm_control's."""

    def __init__(self, entity: "_CMUHumanoidBase") -> None:
        super().__init__(entity)
        # As dm_control's: every observable starts disabled (a task enables what its
        # agent sees, as `WalkerTask` enables proprioception and the sensors), so a
        # task of one's own observes nothing of the walker it did not ask for.
        self.disable_all()

    @composer.observable
    def head_height(self) -> observable.Observable:
        """World z of the head body (m), a scalar."""
        return observable.MJCFFeature("xpos", self._entity._head, index=2)

    @composer.observable
    def sensors_framequat(self) -> observable.Observable:
        """Frame-orientation sensors' quaternions: (0,), as the humanoid has none."""
        return base.sensordata_of_type(self._entity, mujoco.mjtSensor.mjSENS_FRAMEQUAT)

    @composer.observable
    def sensors_rangefinder(self) -> observable.Observable:
        """Rangefinder readings: (0,), as the humanoid has none."""
        return base.sensordata_of_type(self._entity, mujoco.mjtSensor.mjSENS_RANGEFINDER)

    @composer.observable
    def actuator_activation(self) -> observable.Observable:
        """Filtered controls of the servos with a filter (actuator order), in
        [-1, 1]: (56,) for V2020, (0,) for the unfiltered V2019 actuators."""
        actuators = self._entity._actuators
        cache = {}

        def read(physics: Physics) -> np.ndarray:
            model = physics.model
            if cache.get("model") is not model:
                ids = [physics.bind(actuator).id for actuator in actuators]
                addresses = model.actuator_actadr[ids]
                cache["addresses"] = addresses[addresses >= 0].copy()
                cache["model"] = model
            return physics.data.act[cache["addresses"]]

        return observable.Generic(read)

    @composer.observable
    def body_camera(self) -> observable.Observable:
        """RGB image (64, 64, 3) uint8 from `body_camera`, which does not draw the
        walker's own geoms (group 2)."""
        option = mujoco.MjvOption()
        option.geomgroup[_BODY_GROUP] = 0
        return observable.MJCFCamera(
            self._entity._body_camera,
            height=base.EGOCENTRIC_CAMERA_PIXELS,
            width=base.EGOCENTRIC_CAMERA_PIXELS,
            scene_option=option,
        )

    @composer.observable
    def sensors_torque(self) -> observable.Observable:
        """The shoulder torque sensors (N m), squashed as dm_control's CMU humanoid
        reads them: tanh(2 torque / 60 N m), (6,)."""
        return observable.MJCFFeature(
            "sensordata", list(self._entity._torque_sensors), corruptor=_squash_torque
        )

    @composer.observable
    def appendages_pos(self) -> observable.Observable:
        """`end_effectors_pos` with the head appended: positions (m) of the end
        effectors and the head relative to the root body, in its frame, (15,)."""
        entity = self._entity
        bodies = list(entity._end_effectors) + [entity._head]

        def relative_to_root(physics: Physics) -> np.ndarray:
            positions = np.asarray(physics.bind(bodies).xpos).reshape(-1, 3)
            root = physics.bind(entity._root_body)
            rotation = np.asarray(root.xmat).reshape(3, 3)
            return ((positions - np.asarray(root.xpos)) @ rotation).reshape(-1)

        return observable.Generic(relative_to_root)

    @composer.observable
    def sensors_force(self) -> observable.Observable:
        """Force sensor readings (N), flattened: (0,), as the humanoid has none."""
        return base.sensordata_of_type(self._entity, mujoco.mjtSensor.mjSENS_FORCE)

    @property
    def proprioception(self) -> list[observable.Observable]:
        """dm_control's order: joints, actuator activations, body height, end
        effectors, appendages, world z axis."""
        return [
            self.joints_pos,
            self.joints_vel,
            self.actuator_activation,
            self.body_height,
            self.end_effectors_pos,
            self.appendages_pos,
            self.world_zaxis,
        ]

    @property
    def dynamic_sensors(self) -> list[observable.Observable]:
        """dm_control's group: force (none here), torque and touch."""
        return [self.sensors_force, self.sensors_torque, self.sensors_touch]


def _squash_torque(value: np.ndarray, random_state: Any = None) -> np.ndarray:
    del random_state  # Deterministic.
    return np.tanh(2.0 * value / _TORQUE_THRESHOLD_NM)


def _scaled(vector: Iterable[float], scale: float) -> list[float]:
    return [scale * float(value) for value in vector]


def _set_defaults(spec: mujoco.MjSpec, stiffness: float, density: float) -> None:
    """The published joint and geom defaults of the CMU humanoid (both versions;
    the default joint stiffness is 0.1 N m/rad in V2019, 1 in V2020)."""
    main = spec.default
    main.joint.limited = mujoco.mjtLimited.mjLIMITED_TRUE
    main.joint.solimp_limit = [0.0, 0.99, 0.01, 0.5, 2.0]
    main.joint.stiffness = [stiffness, 0.0, 0.0]
    main.joint.armature = 0.01
    main.joint.damping = [1.0, 0.0, 0.0]
    main.geom.condim = 1
    main.geom.friction = [0.7, 0.005, 0.0001]
    main.geom.solref = [0.015, 1.0]
    main.geom.solimp = [0.99, 0.99, 0.003, 0.5, 2.0]
    main.geom.density = density
    main.geom.material = "self"
    main.geom.group = _BODY_GROUP


def _make_contact_geom(geom: mujoco.MjsGeom) -> None:
    """Feet, toes, hands and fingers: full friction cones and firmer contacts that
    take priority over the ground's parameters."""
    geom.condim = 3
    geom.friction = [1.0, 0.005, 0.0001]
    geom.solref = [0.015, 1.0]
    geom.solimp = [0.98, 0.98, 0.001, 0.5, 2.0]
    geom.priority = 1


def _add_motor(spec: mujoco.MjSpec, joint: mujoco.MjsJoint, gear: float) -> None:
    """A torque motor on `joint`: torque = gear * control, control in [-1, 1]."""
    spec.add_actuator(
        name=joint.name,
        target=joint.name,
        trntype=mujoco.mjtTrn.mjTRN_JOINT,
        gear=[float(gear), 0, 0, 0, 0, 0],
        ctrllimited=mujoco.mjtLimited.mjLIMITED_TRUE,
        ctrlrange=[-1.0, 1.0],
    )


def _add_position_servo(
    spec: mujoco.MjSpec, joint: mujoco.MjsJoint, params: Any, filtered: bool
) -> None:
    """A position servo on `joint` whose control in [-1, 1] spans the joint's range
    (`scaled_actuators.add_position_actuator`'s affine map), with the force
    limits of `params`; `filtered` puts the V2020 30 ms filter on the control.

    force = kp * (target - q) with target = lower + (u + 1) / 2 * (upper - lower):
    gain kp * slope, bias kp * (lower + slope, -1, 0), u the (filtered) control.
    """
    kp = float(params.kp)
    lower, upper = joint.range
    slope = (upper - lower) / 2.0
    actuator = spec.add_actuator(
        name=joint.name, target=joint.name, trntype=mujoco.mjtTrn.mjTRN_JOINT
    )
    if filtered:
        actuator.dyntype = mujoco.mjtDyn.mjDYN_FILTER
        actuator.dynprm[0] = _CONTROL_FILTER_S
    actuator.gaintype = mujoco.mjtGain.mjGAIN_FIXED
    actuator.gainprm[0] = kp * slope
    actuator.biastype = mujoco.mjtBias.mjBIAS_AFFINE
    actuator.biasprm[0] = kp * (lower + slope)
    actuator.biasprm[1] = -kp
    actuator.biasprm[2] = 0.0
    actuator.ctrllimited = mujoco.mjtLimited.mjLIMITED_TRUE
    actuator.ctrlrange = [-1.0, 1.0]
    actuator.forcelimited = mujoco.mjtLimited.mjLIMITED_TRUE
    actuator.forcerange = [float(value) for value in params.forcerange]


def _add_touch_and_torque(
    spec: mujoco.MjSpec, bodies: dict, touch_sites: Any, scale: float, torque_names: tuple
) -> tuple[list, list]:
    """The touch sites and sensors (published order) and the shoulder torque
    sensors (named `torque_names`)."""
    touch_sensors = []
    for site_name, body_name, site_type, size, centre, orientation in touch_sites:
        attributes: dict[str, Any] = dict(
            type=site_type, size=_scaled(size, scale), pos=_scaled(centre, scale)
        )
        if orientation is not None:
            kind, value = orientation
            attributes["quat"] = list(
                _zaxis_quaternion(value) if kind == "zaxis" else np.asarray(value, dtype=float)
            )
        # dm_control names the sensor of site "lhand_touch" "sensor_touch_lhand".
        sensor_name = "sensor_touch_" + site_name[: -len("_touch")]
        touch_sensors.append(
            base.add_touch_sensor(spec, bodies[body_name], site_name, sensor_name, **attributes)
        )
    torque_sensors = []
    for site_name, sensor_name in zip(_TORQUE_SITES, torque_names):
        bodies[site_name[: -len("_ft")]].add_site(
            # dm_control adds these after rescaling the body: 0.01 m in both versions.
            name=site_name,
            size=[0.01, 0, 0],
            group=4,
        )
        torque_sensors.append(
            spec.add_sensor(
                name=sensor_name,
                type=mujoco.mjtSensor.mjSENS_TORQUE,
                objtype=mujoco.mjtObj.mjOBJ_SITE,
                objname=site_name,
            )
        )
    return touch_sensors, torque_sensors


def _zaxis_quaternion(zaxis: Iterable[float]) -> np.ndarray:
    """MuJoCo's `zaxis` orientation: the shortest rotation taking z onto `zaxis`."""
    quaternion = np.empty(4)
    mujoco.mju_quatZ2Vec(quaternion, np.asarray(list(zaxis), dtype=np.float64))
    return quaternion


def _add_hinges(body: mujoco.MjsBody, body_name: str, hinges: Any, scale: float) -> dict:
    joints = {}
    for axis, lower, upper, joint_class in hinges:
        joint_name = f"{body_name}r{axis}"
        stiffness, damping = cmu_humanoid_v2019.JOINT_CLASSES[joint_class]
        joints[joint_name] = body.add_joint(
            name=joint_name,
            axis=list(_AXES[axis]),
            range=[lower, upper],
            stiffness=[stiffness, 0.0, 0.0],
            damping=[damping, 0.0, 0.0],
        )
    return joints


def _build_v2019(spec: mujoco.MjSpec, skeleton: Any, include_face: bool, scale: float) -> dict:
    """The V2019 body under `skeleton` (the root's upright frame), lengths and sizes
    times `scale`; returns its parts. The geoms' density is set by the caller."""
    table = cmu_humanoid_v2019
    bodies: dict[str, Any] = {"root": skeleton}
    joints: dict[str, mujoco.MjsJoint] = {}
    for body_name, parent, position, orientation, hinges in table.BODIES:
        body = bodies[parent].add_body(name=body_name, pos=_scaled(position, scale))
        if orientation is not None:
            body.quat = list(orientation)
        joints.update(_add_hinges(body, body_name, hinges, scale))
        bodies[body_name] = body
    geoms = {}
    for geom_name, body_name, geom_type, size, position, orientation in table.GEOMS:
        geom = bodies[body_name].add_geom(
            name=geom_name,
            type=geom_type,
            size=_scaled(size, scale) + [0.0] * (3 - len(size)),
            pos=_scaled(position, scale),
        )
        if orientation is not None:
            geom.quat = list(orientation)
        geoms[geom_name] = geom
    if include_face:
        head = bodies["head"]
        size, position, orientation = table.FACE_CAPSULE
        head.add_geom(
            name="face",
            type=_CAPSULE,
            size=_scaled(size, scale) + [0.0],
            pos=_scaled(position, scale),
            quat=list(orientation),
            mass=0.0,
            contype=0,
            conaffinity=0,
        )
        # dm_control: the face body sits 0.02 m short of the head's y offset.
        head_y = table.BODIES[[row[0] for row in table.BODIES].index("head")][2][1]
        face = head.add_body(name="face", pos=_scaled((0.0, 0.039, head_y - 0.02), scale))
        face.add_geom(
            name="nose",
            type=_CAPSULE,
            size=[geoms["head"].size[0] / 4.75, scale * table.NOSE_HALF_LENGTH_M, 0.0],
            quat=list(table.NOSE_QUAT),
            mass=0.0,
            contype=0,
            conaffinity=0,
            group=_HIDDEN_FROM_EGOCENTRIC_GROUP,
        )
    camera = bodies["head"].add_camera(name="egocentric", xyaxes=[-1, 0, 0, 0, 1, 0], fovy=80.0)
    touch_sensors, torque_sensors = _add_touch_and_torque(
        spec,
        bodies,
        table.TOUCH_SITES,
        scale,
        ("sensor_torque_lhumerus", "sensor_torque_rhumerus"),
    )
    return dict(
        bodies=bodies,
        joints=joints,
        geoms=geoms,
        egocentric_camera=camera,
        touch_sensors=touch_sensors,
        torque_sensors=torque_sensors,
    )


def _build_v2020(spec: mujoco.MjSpec, skeleton: Any, include_face: bool, scale: float) -> dict:
    """The V2020 body under `skeleton`, lengths and sizes times `scale`."""
    bodies: dict[str, Any] = {"root": skeleton}
    joints: dict[str, mujoco.MjsJoint] = {}
    for body_name, parent, position, orientation, hinges in _SKELETON:
        body = bodies[parent].add_body(name=body_name, pos=_scaled(position, scale))
        if orientation is not None:
            body.quat = list(orientation)
        for axis, lower, upper, stiffness in hinges:
            joint_name = f"{body_name}r{axis}"
            joints[joint_name] = body.add_joint(
                name=joint_name,
                axis=list(_AXES[axis]),
                range=[lower, upper],
                pos=_scaled(_JOINT_POSITIONS.get(joint_name, (0, 0, 0)), scale),
                stiffness=[stiffness, 0.0, 0.0],
            )
        bodies[body_name] = body
    geoms = {}
    for geom_name, body_name, radius, start, end in _CAPSULES:
        geom = bodies[body_name].add_geom(
            name=geom_name,
            type=_CAPSULE,
            size=[scale * radius, 0, 0],
            fromto=_scaled(start, scale) + _scaled(end, scale),
        )
        if geom_name in _CONTACT_GEOMS:
            _make_contact_geom(geom)
        if geom_name in _MASSLESS_GEOMS:
            geom.mass = 0.0
        geoms[geom_name] = geom
    for geom_name, body_name, radius, centre in _TOE_SPHERES:
        _make_contact_geom(
            bodies[body_name].add_geom(
                name=geom_name,
                type=mujoco.mjtGeom.mjGEOM_SPHERE,
                size=[scale * radius, 0, 0],
                pos=_scaled(centre, scale),
            )
        )
    for geom_name, body_name, semi_axes, centre, orientation in _HANDS:
        _make_contact_geom(
            bodies[body_name].add_geom(
                name=geom_name,
                type=_ELLIPSOID,
                size=_scaled(semi_axes, scale),
                pos=_scaled(centre, scale),
                quat=list(orientation),
            )
        )
    if include_face:
        for (geom_name, body_name, radius, start, end), group in (
            (_FACE, _BODY_GROUP),
            (_NOSE, _HIDDEN_FROM_EGOCENTRIC_GROUP),
        ):
            if body_name not in bodies:
                bodies[body_name] = bodies["head"].add_body(
                    name=body_name, pos=_scaled(_FACE_BODY_POS, scale)
                )
            bodies[body_name].add_geom(
                name=geom_name,
                type=_CAPSULE,
                size=[scale * radius, 0, 0],
                fromto=_scaled(start, scale) + _scaled(end, scale),
                mass=0.0,
                contype=0,
                conaffinity=0,
                group=group,
            )
    camera = bodies["head"].add_camera(name="egocentric", xyaxes=[-1, 0, 0, 0, 1, 0], fovy=80.0)
    touch_sensors, torque_sensors = _add_touch_and_torque(
        spec, bodies, _TOUCH_SITES, scale, ("sensor_torque_lhumerus", "sensor_torque_rhumerus")
    )
    # dm_control's 2020 file also has a site at the left wrist's frame (no sensor
    # reads it; MuJoCo's default size).
    bodies["lradius"].add_site(
        name="lwrist",
        pos=_scaled((0.0, -0.181536, 0.0), scale),
        quat=[-0.5, 0.0, 0.866025, 0.0],
        size=[0.005, 0.005, 0.005],
    )
    return dict(
        bodies=bodies,
        joints=joints,
        geoms=geoms,
        egocentric_camera=camera,
        touch_sensors=touch_sensors,
        torque_sensors=torque_sensors,
    )


def _root_height_when_upright(
    spec: mujoco.MjSpec, root: mujoco.MjsBody, joints: list, qpos: np.ndarray
) -> float:
    """Height (m) of the root above the lowest colliding point with the root turned
    by the upright quaternion and the joints at `qpos`."""
    upright = mujoco.MjSpec()
    upright.compiler.degree = spec.compiler.degree
    frame = upright.worldbody.add_frame(
        quat=list(np.array(_UPRIGHT_QUAT) / np.linalg.norm(_UPRIGHT_QUAT))
    )
    upright.attach(spec.copy(), frame=frame, prefix="upright/")
    return base.height_above_lowest_point(
        upright,
        upright.body(f"upright/{root.name}"),
        [(f"upright/{joint.name}", q) for joint, q in zip(joints, qpos)],
    )


def _density_for_mass(spec: mujoco.MjSpec, root_name: str, mass_kg: float) -> float:
    """The geom density (kg/m^3) at which the body under `root_name` weighs
    `mass_kg`, given that its geoms now have water's density (dm_control's
    `rescale_humanoid` mass step: every density-weighted geom scales alike)."""
    model = spec.copy().compile()
    body_id = mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_BODY, root_name)
    data = mujoco.MjData(model)
    mujoco.mj_forward(model, data)
    subtree_mass = float(model.body_subtreemass[body_id])
    return _WATER_DENSITY_KG_M3 * mass_kg / subtree_mass
