"""The Control Suite fish: a neutrally buoyant swimmer with a two-part tail and two fins.

`make_spec()` builds the model as a `mujoco.MjSpec`. Every number and element
name is a fact of the published model (dm_control 1.0.50, `suite/fish.xml`,
Tassa et al. 2018): lengths in metres, joint ranges in degrees (MuJoCo's
default `compiler.degree`), position-servo gains `kp` in N·m per radian of
error. The fluid is MuJoCo's built-in one, as published: `option.density` 5000
kg/m^3 with no viscosity, acting on each body's equivalent inertia box (no geom
uses the ellipsoid fluid model); gravity and constraints are disabled.
Its qpos layout is the published one: the free root joint (x, y, z, quaternion)
followed by the hinges of `JOINT_NAMES`, in that order.
"""

import mujoco

from mjcf_models import common

# The fish's hinges in model (qpos) order.
JOINT_NAMES = (
    "tail1",
    "tail_twist",
    "tail2",
    "finright_roll",
    "finright_pitch",
    "finleft_roll",
    "finleft_pitch",
)

# Actuators in the published order: (name, transmission target, kind, kp).
ACTUATORS = (
    ("tail", "tail1", mujoco.mjtTrn.mjTRN_JOINT, 5e-4),
    ("tail_twist", "tail_twist", mujoco.mjtTrn.mjTRN_JOINT, 1e-4),
    ("fins_flap", "fins_flap", mujoco.mjtTrn.mjTRN_TENDON, 3e-4),
    ("finleft_pitch", "finleft_pitch", mujoco.mjtTrn.mjTRN_JOINT, 1e-4),
    ("finright_pitch", "finright_pitch", mujoco.mjtTrn.mjTRN_JOINT, 1e-4),
)

_ELLIPSOID = mujoco.mjtGeom.mjGEOM_ELLIPSOID
_CAPSULE = mujoco.mjtGeom.mjGEOM_CAPSULE
_TRACK_COM = mujoco.mjtCamLight.mjCAMLIGHT_TRACKCOM


def _add_fish_default(spec):
    """The published 'fish' class: free-spinning, lightly damped hinges."""
    spec.default.actuator.ctrllimited = mujoco.mjtLimited.mjLIMITED_TRUE
    fish = spec.add_default("fish", spec.default)
    fish.joint.type = mujoco.mjtJoint.mjJNT_HINGE
    fish.joint.limited = mujoco.mjtLimited.mjLIMITED_FALSE
    fish.joint.range = [-60, 60]
    # MuJoCo 4 takes damping as a 3-vector whose first entry is the published
    # linear coefficient.
    fish.joint.damping = [2e-5, 0, 0]
    fish.joint.solref_limit = [0.1, 1]
    fish.joint.solimp_limit = [0, 0.8, 0.1, 0.5, 2]
    fish.geom.material = "self"
    return fish


def make_spec():
    """Returns the fish as a new `mujoco.MjSpec` (physics timestep 4 ms)."""
    spec = mujoco.MjSpec()
    spec.modelname = "fish"
    spec.option.timestep = 0.004
    spec.option.density = 5000
    spec.option.disableflags = (
        mujoco.mjtDisableBit.mjDSBL_GRAVITY | mujoco.mjtDisableBit.mjDSBL_CONSTRAINT
    )
    common.add_suite_look(spec, ("self", "effector", "eye", "target"), grid_texture_first=True)
    fish = _add_fish_default(spec)

    world = spec.worldbody
    world.add_camera(name="tracking_top", pos=[0, 0, 1], xyaxes=[1, 0, 0, 0, 1, 0], mode=_TRACK_COM)
    world.add_camera(
        name="tracking_x",
        pos=[-0.3, 0, 0.2],
        xyaxes=[0, -1, 0, 0.342, 0, 0.94],
        fovy=60,
        mode=_TRACK_COM,
    )
    world.add_camera(
        name="tracking_y",
        pos=[0, -0.3, 0.2],
        xyaxes=[1, 0, 0, 0, 0.342, 0.94],
        fovy=60,
        mode=_TRACK_COM,
    )
    world.add_camera(name="fixed_top", pos=[0, 0, 5.5], fovy=10)
    world.add_geom(
        name="ground", type=mujoco.mjtGeom.mjGEOM_PLANE, size=[0.5, 0.5, 0.1], material="grid"
    )
    world.add_geom(
        name="target",
        type=mujoco.mjtGeom.mjGEOM_SPHERE,
        pos=[0, 0.4, 0.1],
        size=[0.04, 0, 0],
        material="target",
    )

    torso = world.add_body(name="torso", pos=[0, 0, 0.1], childclass="fish")
    torso.add_light(
        name="light",
        pos=[0, 0, 0.5],
        dir=[0, 0, -1],
        diffuse=[0.6, 0.6, 0.6],
        specular=[0.3, 0.3, 0.3],
        mode=mujoco.mjtCamLight.mjCAMLIGHT_TRACK,
    )
    torso.add_joint(
        fish,
        name="root",
        type=mujoco.mjtJoint.mjJNT_FREE,
        damping=[0, 0, 0],
        limited=mujoco.mjtLimited.mjLIMITED_FALSE,
    )
    torso.add_site(name="torso", size=[0.01, 0.005, 0.005], rgba=[0, 0, 0, 0])
    # Only the hidden box carries the torso's mass; the visible shapes are massless.
    torso.add_geom(
        fish,
        name="eye",
        type=_ELLIPSOID,
        pos=[0, 0.055, 0.015],
        size=[0.008, 0.012, 0.008],
        euler=[-10, 0, 0],
        material="eye",
        mass=0,
    )
    torso.add_camera(name="eye", pos=[0, 0.06, 0.02], xyaxes=[1, 0, 0, 0, 0, 1])
    torso.add_geom(
        fish,
        name="mouth",
        type=_CAPSULE,
        fromto=[0, 0.079, 0, 0, 0.07, 0],
        size=[0.005, 0, 0],
        material="effector",
        mass=0,
    )
    torso.add_geom(
        fish,
        name="lower_mouth",
        type=_CAPSULE,
        fromto=[0, 0.079, -0.004, 0, 0.07, -0.003],
        size=[0.0045, 0, 0],
        material="effector",
        mass=0,
    )
    torso.add_geom(fish, name="torso", type=_ELLIPSOID, size=[0.01, 0.08, 0.04], mass=0)
    torso.add_geom(
        fish,
        name="back_fin",
        type=_ELLIPSOID,
        pos=[0, -0.03, 0.03],
        size=[0.001, 0.03, 0.015],
        material="effector",
        mass=0,
    )
    torso.add_geom(
        fish,
        name="torso_massive",
        type=mujoco.mjtGeom.mjGEOM_BOX,
        size=[0.002, 0.06, 0.03],
        group=4,
    )

    tail1 = torso.add_body(name="tail1", pos=[0, -0.09, 0])
    tail1.add_joint(fish, name="tail1", axis=[0, 0, 1], pos=[0, 0.01, 0])
    tail1.add_joint(fish, name="tail_twist", axis=[0, 1, 0], pos=[0, 0.01, 0], range=[-30, 30])
    tail1.add_geom(fish, name="tail1", type=_ELLIPSOID, size=[0.001, 0.008, 0.016])
    tail2 = tail1.add_body(name="tail2", pos=[0, -0.028, 0])
    tail2.add_joint(fish, name="tail2", axis=[0, 0, 1], pos=[0, 0.02, 0], stiffness=[8e-5, 0, 0])
    tail2.add_geom(fish, name="tail2", type=_ELLIPSOID, size=[0.001, 0.018, 0.035])

    for side, sign in (("right", 1), ("left", -1)):
        fin = torso.add_body(name=f"fin{side}", pos=[0.01 * sign, 0, 0])
        fin.add_joint(fish, name=f"fin{side}_roll", axis=[0, 1, 0])
        fin.add_joint(fish, name=f"fin{side}_pitch", axis=[1, 0, 0], pos=[0, 0.005, 0])
        fin.add_geom(
            fish,
            name=f"fin{side}",
            type=_ELLIPSOID,
            pos=[0.015 * sign, 0, 0],
            size=[0.02, 0.015, 0.001],
        )

    # Flapping moves both fins' roll angles in opposition; a spring keeps them
    # symmetric.
    flap = spec.add_tendon(name="fins_flap")
    flap.wrap_joint("finleft_roll", -0.5)
    flap.wrap_joint("finright_roll", 0.5)
    symmetry = spec.add_tendon(name="fins_sym", stiffness=[1e-4, 0, 0])
    symmetry.wrap_joint("finleft_roll", 0.5)
    symmetry.wrap_joint("finright_roll", 0.5)

    for name, target, transmission, kp in ACTUATORS:
        actuator = spec.add_actuator(
            name=name, target=target, trntype=transmission, ctrlrange=[-1, 1]
        )
        actuator.set_to_position(kp=kp)

    site = mujoco.mjtObj.mjOBJ_SITE
    spec.add_sensor(
        name="velocimeter", type=mujoco.mjtSensor.mjSENS_VELOCIMETER, objtype=site, objname="torso"
    )
    spec.add_sensor(name="gyro", type=mujoco.mjtSensor.mjSENS_GYRO, objtype=site, objname="torso")
    return spec
