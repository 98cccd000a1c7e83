"""CMUHumanoid: the position-controlled CMU humanoid "V2020" of the dm_control paper.

The dm_control paper (Tunyasuvunakool et al. 2020, §7.1) describes a humanoid whose
skeleton follows the CMU motion-capture subjects: 56 actuated hinge joints (legs,
spine, neck, head, clavicles, arms, wrists, hands, fingers, thumbs, toes) driven by
position servos. Its "V2020" version rescales the original skeleton by 1.2 (lengths
and sizes) to a total mass of 70 kg, raises the servo gains, and low-pass filters
the controls (30 ms). This module builds that body with MjSpec: the proportions,
joint axes and ranges, stiffnesses, contact parameters, masses, servo gains, force
limits and joint dampings are the published facts (dm_control 1.0.50,
`locomotion/walkers/cmu_humanoid.py` and `assets/humanoid_CMU_V2020.xml`, cited by
number below); the capsule geometry is authored here as segments between points.

Frames and units: the skeleton's numbers are given in the CMU convention (x to the
subject's left, y up, z forward; metres before the 1.2 rescale, radians). The root
body's frame is the egocentric frame, x forward, y left, z up: the skeleton hangs
from it through `CMU_SKELETON_QUATERNION`, the rotation of dm_control's upright
pose, so a walker at the identity pose stands upright. In the initial pose the
joints are at zero (clipped into their ranges) and the feet rest on the walker's
ground plane.

Control: `action[i]` in [-1, 1] maps linearly onto the range of joint i, in the
actuators' (alphabetical) order: the servo drives the joint toward
`lower + (action + 1) / 2 * (upper - lower)` with gain kp (N m/rad) and force limit
(N m), after a first-order filter of time constant 30 ms.
"""

from collections.abc import Iterable

import mujoco
import numpy as np
from numpy.typing import ArrayLike

from composer_tasks import composer
from composer_tasks.composer.observation import observable
from composer_tasks.physics import Physics
from composer_tasks import mjcf
from composer_tasks.walkers import base, legacy_base

# V2020 rescales lengths and sizes by 1.2 (dm_control `rescale_humanoid(walker, 1.2,
# 1.2, 70)`), then scales the geoms' density so that the body weighs 70 kg. The
# rescaled geometry below weighs 115.697... kg at 1000 kg/m^3.
_SCALE = 1.2
_TOTAL_MASS_KG = 70.0
_MASS_AT_WATER_DENSITY_KG = 115.69735041450569
_DENSITY_KG_M3 = 1000.0 * _TOTAL_MASS_KG / _MASS_AT_WATER_DENSITY_KG

# dm_control's upright pose turns the CMU skeleton (y up, z forward) onto the world
# (z up, x forward): the quaternion (0.859, 1, 1, 0.859), normalised.
CMU_SKELETON_QUATERNION = tuple(
    np.array([0.859, 1.0, 1.0, 0.859]) / np.linalg.norm([0.859, 1.0, 1.0, 0.859])
)

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
# non-colliding capsule on the face and a nose, hidden from the egocentric camera.
_FACE = ("face", "head", 0.065, (0.000441, 0.062177, 0.00957), (0.000242, 0.034191, 0.01043))
_NOSE = ("nose", "head", 0.02, (0, 0.048396, 0.106577), (0, 0.029604, 0.113423))

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

# V2020 position servos: joint -> (gain kp in N m/rad, joint damping in N m s/rad).
# The force limit of each servo equals its gain in N m (the published values).
_SERVOS = {
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


class CMUHumanoid(base.Walker):
    """The CMU humanoid V2020: 56 position-controlled hinges, 70 kg, 1.2x CMU scale.

    Args:
      name: the entity's name (its prefix in the model).
    """

    def _build(self, name: str = "walker") -> None:
        spec = mujoco.MjSpec()
        spec.modelname = name
        spec.compiler.degree = False
        _set_defaults(spec)
        spec.add_material(name="self", rgba=[0.7, 0.5, 0.3, 1.0])
        root = spec.worldbody.add_body(name="root")
        _, root_sensors = base.add_root_sensors(spec, root)
        # The skeleton (and the pelvis capsule, "root_geom") hangs from the root
        # through the upright rotation.
        bodies = {"root": root.add_frame(quat=list(CMU_SKELETON_QUATERNION))}
        joints = {}
        for body_name, parent, position, orientation, hinges in _SKELETON:
            body = bodies[parent].add_body(name=body_name, pos=_scaled(position))
            if orientation is not None:
                body.quat = list(orientation)
            for axis, lower, upper, stiffness in hinges:
                joint_name = f"{body_name}r{axis}"
                kp, damping = _SERVOS[joint_name]
                joints[joint_name] = body.add_joint(
                    name=joint_name,
                    axis=list(_AXES[axis]),
                    range=[lower, upper],
                    pos=_scaled(_JOINT_POSITIONS.get(joint_name, (0, 0, 0))),
                    stiffness=[stiffness, 0.0, 0.0],
                    damping=[damping, 0.0, 0.0],
                )
            bodies[body_name] = body
        for geom_name, body_name, radius, start, end in _CAPSULES:
            geom = bodies[body_name].add_geom(
                name=geom_name,
                type=_CAPSULE,
                size=[_SCALE * radius, 0, 0],
                fromto=_scaled(start) + _scaled(end),
            )
            if geom_name in _CONTACT_GEOMS:
                _make_contact_geom(geom)
            if geom_name in _MASSLESS_GEOMS:
                geom.mass = 0.0
        for geom_name, body_name, radius, centre in _TOE_SPHERES:
            _make_contact_geom(
                bodies[body_name].add_geom(
                    name=geom_name,
                    type=mujoco.mjtGeom.mjGEOM_SPHERE,
                    size=[_SCALE * radius, 0, 0],
                    pos=_scaled(centre),
                )
            )
        for geom_name, body_name, semi_axes, centre, orientation in _HANDS:
            _make_contact_geom(
                bodies[body_name].add_geom(
                    name=geom_name,
                    type=_ELLIPSOID,
                    size=_scaled(semi_axes),
                    pos=_scaled(centre),
                    quat=list(orientation),
                )
            )
        for (geom_name, body_name, radius, start, end), group in (
            (_FACE, _BODY_GROUP),
            (_NOSE, _HIDDEN_FROM_EGOCENTRIC_GROUP),
        ):
            bodies[body_name].add_geom(
                name=geom_name,
                type=_CAPSULE,
                size=[_SCALE * radius, 0, 0],
                fromto=_scaled(start) + _scaled(end),
                mass=0.0,
                contype=0,
                conaffinity=0,
                group=group,
            )
        touch_sensors = []
        for site_name, body_name, site_type, size, centre, orientation in _TOUCH_SITES:
            attributes = dict(type=site_type, size=_scaled(size), pos=_scaled(centre))
            if orientation is not None:
                attributes[orientation[0]] = list(orientation[1])
            # dm_control names the sensor of site "lhand_touch" "sensor_touch_lhand".
            sensor_name = "sensor_touch_" + site_name[: -len("_touch")]
            touch_sensors.append(
                base.add_touch_sensor(spec, bodies[body_name], site_name, sensor_name, **attributes)
            )
        torque_sensors = []
        for site_name in _TORQUE_SITES:
            bodies[site_name[: -len("_ft")]].add_site(name=site_name, size=[0.01, 0, 0], group=4)
            torque_sensors.append(
                spec.add_sensor(
                    name=site_name,
                    type=mujoco.mjtSensor.mjSENS_TORQUE,
                    objtype=mujoco.mjtObj.mjOBJ_SITE,
                    objname=site_name,
                )
            )
        camera = bodies["head"].add_camera(name="egocentric", xyaxes=[-1, 0, 0, 0, 1, 0], fovy=80.0)
        for first, second in _CONTACT_EXCLUSIONS:
            spec.add_exclude(bodyname1=first, bodyname2=second)
        # Actuators in alphabetical order of their joints, as published.
        actuated = [joints[joint_name] for joint_name in sorted(_SERVOS)]
        for joint in actuated:
            _add_servo(spec, joint)
        initial_qpos = np.clip(
            0.0, [joint.range[0] for joint in actuated], [joint.range[1] for joint in actuated]
        )
        standing_height = base.height_above_lowest_point(
            spec, root, [(joint.name, q) for joint, q in zip(actuated, initial_qpos)]
        )
        root.pos = [0.0, 0.0, standing_height]
        self._spec = spec
        self._head = bodies["head"]
        self._set_parts(
            root_body=root,
            observable_joints=actuated,
            pose_joints=actuated,
            initial_qpos=initial_qpos,
            standing_height=standing_height,
            end_effectors=[bodies[body] for body in _END_EFFECTORS],
            egocentric_camera=camera,
            root_sensors=root_sensors,
            touch_sensors=touch_sensors,
            torque_sensors=torque_sensors,
            ground_contact_geoms=[geom for geom in spec.geoms if geom.parent.name in _FOOT_BODIES],
        )

    def _build_observables(self) -> "CMUHumanoidObservables":
        return CMUHumanoidObservables(self)

    def _egocentric_scene_option(self) -> mujoco.MjvOption:
        option = mujoco.MjvOption()
        option.geomgroup[_HIDDEN_FROM_EGOCENTRIC_GROUP] = 0
        return option

    # dm_control's CMU humanoid is a legacy walker: the same action spec.
    action_spec = legacy_base.LegacyWalker.action_spec

    @property
    def head(self) -> mjcf.Element:
        return self._handle(self._head)

    def cmu_pose_to_actuation(self, target_pose: ArrayLike) -> np.ndarray:
        """Controls that drive the joints to `target_pose` (radians, one per actuator
        in actuator order): the inverse of the servos' range mapping."""
        target = np.asarray(target_pose, dtype=np.float64)
        if target.shape != (len(self._observable_joints),):
            raise ValueError(
                f"target_pose must have shape ({len(self._observable_joints)},), got {target.shape}"
            )
        lower = np.array([joint.range[0] for joint in self._observable_joints])
        upper = np.array([joint.range[1] for joint in self._observable_joints])
        return (2.0 * target - (upper + lower)) / (upper - lower)


# dm_control's legacy observables of its CMU humanoid that this walker adds
# disabled (dm_control's start disabled; this walker's others start enabled).
_LEGACY_OBSERVABLES = (
    "head_height",
    "position",
    "orientation",
    "veloc_forward",
    "veloc_strafe",
    "veloc_up",
    "gyro_backward_roll",
    "gyro_rightward_roll",
    "gyro_anticlockwise_spin",
    "torso_xvel",
    "torso_yvel",
    "sensors_framequat",
    "sensors_rangefinder",
)


class CMUHumanoidObservables(legacy_base.RootMotionObservables):
    """The walker observables plus the servo filters' states, the appendages, and
    (disabled) dm_control's legacy scalars of the root's pose and velocities."""

    def __init__(self, entity: "CMUHumanoid") -> None:
        super().__init__(entity)
        for name in _LEGACY_OBSERVABLES:
            self[name].enabled = False

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
        """Filtered controls of the 56 servos (actuator order), in [-1, 1]."""
        actuators = self._entity._actuators
        cache = {}

        def read(physics: Physics) -> np.ndarray:
            model = physics.model
            if cache.get("model") is not model:
                ids = [physics.bind(actuator).id for actuator in actuators]
                cache["addresses"] = model.actuator_actadr[ids].copy()
                cache["model"] = model
            return physics.data.act[cache["addresses"]]

        return observable.Generic(read)

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


def _scaled(vector: Iterable[float]) -> list[float]:
    return [_SCALE * float(value) for value in vector]


def _set_defaults(spec: mujoco.MjSpec) -> None:
    """The published joint and geom defaults of the CMU humanoid."""
    main = spec.default
    main.joint.limited = mujoco.mjtLimited.mjLIMITED_TRUE
    main.joint.solimp_limit = [0.0, 0.99, 0.01, 0.5, 2.0]
    main.joint.armature = 0.01
    main.geom.condim = 1
    main.geom.friction = [0.7, 0.005, 0.0001]
    main.geom.solref = [0.015, 1.0]
    main.geom.solimp = [0.99, 0.99, 0.003, 0.5, 2.0]
    main.geom.density = _DENSITY_KG_M3
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


def _add_servo(spec: mujoco.MjSpec, joint: mujoco.MjsJoint) -> None:
    """A position servo on `joint` whose control in [-1, 1] spans the joint's range.

    force = kp * (target - q) with target = lower + (act + 1) / 2 * (upper - lower),
    written as MuJoCo's affine bias: gain kp * slope, bias kp * (centre, -1, 0),
    act being the control after the 30 ms filter.
    """
    kp = float(_SERVOS[joint.name][0])
    lower, upper = joint.range
    slope = (upper - lower) / 2.0
    actuator = spec.add_actuator(
        name=joint.name, target=joint.name, trntype=mujoco.mjtTrn.mjTRN_JOINT
    )
    actuator.dyntype = mujoco.mjtDyn.mjDYN_FILTER
    actuator.dynprm[0] = _CONTROL_FILTER_S
    actuator.gaintype = mujoco.mjtGain.mjGAIN_FIXED
    actuator.gainprm[0] = kp * slope
    actuator.biastype = mujoco.mjtBias.mjBIAS_AFFINE
    actuator.biasprm[0] = kp * (upper + lower) / 2.0
    actuator.biasprm[1] = -kp
    actuator.biasprm[2] = 0.0
    actuator.ctrllimited = mujoco.mjtLimited.mjLIMITED_TRUE
    actuator.ctrlrange = [-1.0, 1.0]
    actuator.forcelimited = mujoco.mjtLimited.mjLIMITED_TRUE
    actuator.forcerange = [-kp, kp]


# dm_control's name for this walker (its `locomotion.walkers` exports it so).
CMUHumanoidPositionControlledV2020 = CMUHumanoid
