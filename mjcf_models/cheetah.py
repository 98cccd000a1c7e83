"""The Control Suite half-cheetah: a planar runner with a torso and two three-segment legs.

Physical facts (sizes, placements, the 14 kg total mass, joint ranges, spring
stiffness, damping, armature, friction, gears, timestep, cameras, colours) are those
of dm_control 1.0.50's `suite/cheetah.xml` and `suite/common/*.xml`; element names
are the published ones, so states and names mean the same thing in both.

Frames and units: world z is up and the cheetah moves in the world x-z plane,
every leg joint turning about world y; lengths in metres, masses in kilograms,
angles in degrees in the spec (the compiled model holds radians).
"""

import math

import mujoco

from mjcf_models import common

_TIMESTEP_S = 0.01
# The published model has the compiler scale the geom-derived masses so that the
# whole body weighs 14 kg; a uniform density over the capsules' volume does the same.
_TOTAL_MASS_KG = 14.0
_CAPSULE_RADIUS_M = 0.046
_TORSO_HALF_LENGTH_M = 0.5
_HEAD_HALF_LENGTH_M = 0.15
_TORSO_HEIGHT_M = 0.7
# Every leg joint has its own spring and damping (below) and this armature; the
# root joints have none of the three.
_LEG_JOINT_ARMATURE = 0.1
_FRICTION = (0.4, 0.1, 0.1)

# One row per leg segment, from hip to foot, in the published kinematic order:
# (name of body, joint and geom; body position in the parent frame;
#  joint range in degrees; joint stiffness in N m/rad; joint damping in N m s/rad;
#  geom position; geom euler angles in degrees; capsule half-length).
# Each segment's body is a child of the segment before it (the first of the torso).
_LEGS = (
    (
        ("bthigh", (-0.5, 0, 0), (-30, 60), 240, 6.0, (0.1, 0, -0.13), (0, -218, 0), 0.145),
        ("bshin", (0.16, 0, -0.25), (-50, 50), 180, 4.5, (-0.14, 0, -0.07), (0, -116, 0), 0.15),
        ("bfoot", (-0.28, 0, -0.14), (-230, 50), 120, 3.0, (0.03, 0, -0.097), (0, -15, 0), 0.094),
    ),
    (
        ("fthigh", (0.5, 0, 0), (-57, 0.4), 180, 4.5, (-0.07, 0, -0.12), (0, 30, 0), 0.133),
        ("fshin", (-0.14, 0, -0.24), (-70, 50), 120, 3.0, (0.065, 0, -0.09), (0, -34, 0), 0.106),
        ("ffoot", (0.13, 0, -0.18), (-28, 28), 60, 1.5, (0.045, 0, -0.07), (0, -34, 0), 0.07),
    ),
)

# Motor gears in N m per unit of control, in the published actuator order.
_GEARS = (
    ("bthigh", 120),
    ("bshin", 90),
    ("bfoot", 60),
    ("fthigh", 90),
    ("fshin", 60),
    ("ffoot", 30),
)


def make_spec():
    """Returns the cheetah model.

    Joint order (qpos/qvel layout): rootx (slide along x), rootz (slide along z),
    rooty (hinge about y), bthigh, bshin, bfoot, fthigh, fshin, ffoot. Actuators
    drive the six leg joints in the same order. The sensor `torso_subtreelinvel` is
    the centre-of-mass velocity of the whole cheetah in the world frame (m/s).
    """
    spec = mujoco.MjSpec()
    spec.modelname = "cheetah"
    spec.compiler.degree = True
    spec.option.timestep = _TIMESTEP_S
    spec.stat.center = [0, 0, _TORSO_HEIGHT_M]
    spec.stat.extent = 2
    common.add_suite_look(spec, ("self",))

    spec.default.actuator.set_to_motor()
    spec.default.actuator.ctrllimited = mujoco.mjtLimited.mjLIMITED_TRUE
    spec.default.actuator.ctrlrange = [-1, 1]
    body_class = spec.add_default("cheetah", spec.default)
    body_class.joint.type = mujoco.mjtJoint.mjJNT_HINGE
    body_class.joint.axis = [0, 1, 0]
    body_class.joint.limited = mujoco.mjtLimited.mjLIMITED_TRUE
    body_class.joint.armature = _LEG_JOINT_ARMATURE
    body_class.geom.contype = 1
    body_class.geom.conaffinity = 1
    body_class.geom.condim = 3
    body_class.geom.friction = list(_FRICTION)
    body_class.geom.material = "self"
    body_class.geom.density = _density_for_total_mass()
    root_class = spec.add_default("free", spec.default)
    root_class.joint.limited = mujoco.mjtLimited.mjLIMITED_FALSE

    world = spec.worldbody
    # A 200 m x 1.6 m strip starting 2 m behind the origin: the cheetah runs along +x.
    world.add_geom(
        name="ground",
        type=mujoco.mjtGeom.mjGEOM_PLANE,
        conaffinity=1,
        pos=[98, 0, 0],
        size=[100, 0.8, 0.5],
        material="grid",
    )

    torso = world.add_body(name="torso", pos=[0, 0, _TORSO_HEIGHT_M], childclass="cheetah")
    track = mujoco.mjtCamLight.mjCAMLIGHT_TRACKCOM
    torso.add_light(name="light", pos=[0, 0, 2], mode=track)
    torso.add_camera(name="side", pos=[0, -3, 0], quat=[0.707, 0.707, 0, 0], mode=track)
    torso.add_camera(
        name="back", pos=[-1.8, -1.3, 0.8], xyaxes=[0.45, -0.9, 0, 0.3, 0.15, 0.94], mode=track
    )
    for name, joint_type, axis in (
        ("rootx", mujoco.mjtJoint.mjJNT_SLIDE, [1, 0, 0]),
        ("rootz", mujoco.mjtJoint.mjJNT_SLIDE, [0, 0, 1]),
        ("rooty", mujoco.mjtJoint.mjJNT_HINGE, [0, 1, 0]),
    ):
        torso.add_joint(root_class, name=name, type=joint_type, axis=axis)
    capsule = mujoco.mjtGeom.mjGEOM_CAPSULE
    half_length = _TORSO_HALF_LENGTH_M
    torso.add_geom(
        name="torso",
        type=capsule,
        fromto=[-half_length, 0, 0, half_length, 0, 0],
        size=[_CAPSULE_RADIUS_M, 0, 0],
    )
    torso.add_geom(
        name="head",
        type=capsule,
        pos=[0.6, 0, 0.1],
        euler=[0, 50, 0],
        size=[_CAPSULE_RADIUS_M, _HEAD_HALF_LENGTH_M, 0],
    )

    for leg in _LEGS:
        parent = torso
        for (
            name,
            body_pos,
            joint_range,
            stiffness,
            damping,
            geom_pos,
            geom_euler,
            half_length,
        ) in leg:
            body = parent.add_body(name=name, pos=list(body_pos))
            body.add_joint(
                name=name,
                range=list(joint_range),
                stiffness=[stiffness, 0, 0],
                damping=[damping, 0, 0],
            )
            body.add_geom(
                name=name,
                type=capsule,
                pos=list(geom_pos),
                euler=list(geom_euler),
                size=[_CAPSULE_RADIUS_M, half_length, 0],
            )
            parent = body

    spec.add_sensor(
        name="torso_subtreelinvel",
        type=mujoco.mjtSensor.mjSENS_SUBTREELINVEL,
        objtype=mujoco.mjtObj.mjOBJ_BODY,
        objname="torso",
    )
    for name, gear in _GEARS:
        spec.add_actuator(
            name=name, target=name, trntype=mujoco.mjtTrn.mjTRN_JOINT, gear=[gear, 0, 0, 0, 0, 0]
        )
    return spec


def _density_for_total_mass():
    """Density (kg/m^3) that makes the cheetah's capsules weigh `_TOTAL_MASS_KG`."""
    half_lengths = [_TORSO_HALF_LENGTH_M, _HEAD_HALF_LENGTH_M]
    half_lengths += [segment[-1] for leg in _LEGS for segment in leg]
    radius = _CAPSULE_RADIUS_M
    volume = sum(math.pi * radius**2 * 2 * h + 4 / 3 * math.pi * radius**3 for h in half_lengths)
    return _TOTAL_MASS_KG / volume
