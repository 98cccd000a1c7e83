"""The two-link planar reacher of the Control Suite, built as an MjSpec.

Facts (names, dimensions, gears, damping, ranges, timestep) are those of
dm_control 1.0.50 `suite/reacher.xml` and `suite/common/*.xml`. Lengths are in
metres, angles in degrees (the spec's compiler setting), the arm moves in the
world's horizontal x-y plane.
"""

import mujoco

from mjcf_models import common

_TIMESTEP = 0.02  # seconds; one physics step per control step
_ARENA_HALF_WIDTH = 0.3
_UPPER_ARM_LENGTH = 0.12
_FOREARM_LENGTH = 0.1
_FINGER_OFFSET = 0.12  # from the wrist: the finger sits beyond the forearm capsule's end
_LINK_RADIUS = 0.01
_JOINT_DAMPING = 0.01
_MOTOR_GEAR = 0.05
_WRIST_RANGE_DEG = (-160.0, 160.0)
DEFAULT_TARGET_RADIUS = 0.05


def make_spec():
    """Returns the reacher model: a fixed base, a shoulder hinge and a limited wrist
    hinge about the world z axis, a finger sphere at the tip and a target sphere."""
    spec = mujoco.MjSpec()
    spec.modelname = "reacher"
    spec.compiler.degree = True
    spec.option.timestep = _TIMESTEP
    spec.option.disableflags |= mujoco.mjtDisableBit.mjDSBL_CONTACT
    common.add_suite_look(spec, ("self", "effector", "decoration", "target"))

    default = spec.default
    default.joint.type = mujoco.mjtJoint.mjJNT_HINGE
    default.joint.axis = [0, 0, 1]
    default.joint.damping = [_JOINT_DAMPING, 0, 0]
    default.actuator.set_to_motor()
    default.actuator.gear = [_MOTOR_GEAR, 0, 0, 0, 0, 0]
    default.actuator.ctrlrange = [-1, 1]
    default.actuator.ctrllimited = mujoco.mjtLimited.mjLIMITED_TRUE

    world = spec.worldbody
    world.add_light(name="light", pos=[0, 0, 1])
    world.add_camera(name="fixed", pos=[0, 0, 0.75], quat=[1, 0, 0, 0])
    plane = mujoco.mjtGeom.mjGEOM_PLANE
    half = _ARENA_HALF_WIDTH
    world.add_geom(name="ground", type=plane, size=[half, half, 10], material="grid")
    # Walls are thin vertical planes facing the arena's centre.
    for name, pos, zaxis, size in (
        ("wall_x", [-half, 0, 0.02], [1, 0, 0], [0.02, half, 0.02]),
        ("wall_y", [0, -half, 0.02], [0, 1, 0], [half, 0.02, 0.02]),
        ("wall_neg_x", [half, 0, 0.02], [-1, 0, 0], [0.02, half, 0.02]),
        ("wall_neg_y", [0, half, 0.02], [0, -1, 0], [half, 0.02, 0.02]),
    ):
        world.add_geom(
            name=name, type=plane, pos=pos, zaxis=zaxis, size=size, material="decoration"
        )

    world.add_geom(
        name="root",
        type=mujoco.mjtGeom.mjGEOM_CYLINDER,
        fromto=[0, 0, 0, 0, 0, 0.02],
        size=[0.011, 0, 0],
        material="decoration",
    )
    capsule = mujoco.mjtGeom.mjGEOM_CAPSULE
    arm = world.add_body(name="arm", pos=[0, 0, 0.01])
    arm.add_geom(
        name="arm",
        type=capsule,
        fromto=[0, 0, 0, _UPPER_ARM_LENGTH, 0, 0],
        size=[_LINK_RADIUS, 0, 0],
        material="self",
    )
    arm.add_joint(name="shoulder")
    hand = arm.add_body(name="hand", pos=[_UPPER_ARM_LENGTH, 0, 0])
    hand.add_geom(
        name="hand",
        type=capsule,
        fromto=[0, 0, 0, _FOREARM_LENGTH, 0, 0],
        size=[_LINK_RADIUS, 0, 0],
        material="self",
    )
    hand.add_joint(
        name="wrist", limited=mujoco.mjtLimited.mjLIMITED_TRUE, range=list(_WRIST_RANGE_DEG)
    )
    finger = hand.add_body(name="finger", pos=[_FINGER_OFFSET, 0, 0])
    finger.add_camera(name="hand", pos=[0, 0, 0.2], mode=mujoco.mjtCamLight.mjCAMLIGHT_TRACK)
    finger.add_geom(
        name="finger",
        type=mujoco.mjtGeom.mjGEOM_SPHERE,
        size=[_LINK_RADIUS, 0, 0],
        material="effector",
    )

    # The task moves the target and sets its radius every episode.
    world.add_geom(
        name="target",
        type=mujoco.mjtGeom.mjGEOM_SPHERE,
        pos=[0, 0, 0.01],
        size=[DEFAULT_TARGET_RADIUS, 0, 0],
        material="target",
    )

    spec.add_actuator(name="shoulder", target="shoulder", trntype=mujoco.mjtTrn.mjTRN_JOINT)
    spec.add_actuator(name="wrist", target="wrist", trntype=mujoco.mjtTrn.mjTRN_JOINT)
    return spec
