"""The Control Suite swimmer: a chain of `n_links` hinged links in a viscous fluid.

Physical facts (link geometry and mass, fluid density, joint ranges and limit
softness, armature, gear, timestep, sensors, cameras, colours) are those of
dm_control 1.0.50's `suite/swimmer.xml`, its procedural extension in
`suite/swimmer.py` (`_make_model`) and `suite/common/*.xml`; element names are the
published ones, so states and names mean the same thing in both.

Frames and units: world z is up and the swimmer moves in the world x-y plane, its
links lying along their body's +y axis (the head's nose points along -y) and every
joint turning about z; lengths in metres, masses in kilograms, angles in degrees in
the spec (the compiled model holds radians).
"""

import numbers

import mujoco

from mjcf_models import common

_TIMESTEP_S = 0.002
# The fluid: 3000 kg/m^3 and no viscosity; contacts are disabled, so the links only
# feel the fluid's drag (MuJoCo's inertia-box fluid model).
_FLUID_DENSITY = 3000.0
_LINK_LENGTH_M = 0.1
_LINK_MASS_KG = 0.01
# Each link's inertia comes from a thin invisible box; its capsule is only drawn.
_INERTIAL_BOX_HALF_SIZE_M = (0.001, 0.05, 0.01)
_VISUAL_CAPSULE_RADIUS_M = 0.01
_JOINT_ARMATURE = 1e-6
# Soft joint limits (time constant 0.05 s, damping ratio 1; impedance from 0 to 0.8).
_JOINT_SOLREF_LIMIT = (0.05, 1)
_JOINT_SOLIMP_LIMIT = (0, 0.8, 0.1, 0.5, 2)
_MOTOR_GEAR = 5e-4
_HEAD_HEIGHT_M = 0.05
_TARGET_RADIUS_M = 0.1
_TARGET_POS = (1, 1, 0.05)
# The published tracking cameras are placed for 6 links and move away in proportion
# to the number of links.
_CAMERA_REFERENCE_LINKS = 6


MIN_LINKS = 3


def make_spec(n_links=6):
    """Returns a swimmer of `n_links` links (the head and `n_links - 1` segments).

    Joint order (qpos/qvel layout): rootx, rooty (slides along world x, y), rootz
    (hinge about z), then joint_0 ... joint_<n_links - 2> from the head backwards,
    each limited to +-360 / n_links degrees. Actuators motor_<i> drive joint_<i>.
    Sensors, in order: nose_pos and target_pos (world positions, m), head_xaxis and
    head_yaxis (the head's axes in the world frame), head_vel and head_gyro (the
    head's linear (m/s) and angular (rad/s) velocity in its own frame), then
    velocimeter_<i> and gyro_<i> of each segment, in its own frame.

    Raises:
      ValueError: if `n_links` is not an integer >= 3.
    """
    if (
        isinstance(n_links, bool)
        or not isinstance(n_links, numbers.Integral)
        or n_links < MIN_LINKS
    ):
        raise ValueError(f"n_links must be an integer >= {MIN_LINKS}, got {n_links!r}")
    n_links = int(n_links)
    spec = mujoco.MjSpec()
    spec.modelname = "swimmer"
    spec.compiler.degree = True
    spec.option.timestep = _TIMESTEP_S
    spec.option.density = _FLUID_DENSITY
    spec.option.disableflags |= mujoco.mjtDisableBit.mjDSBL_CONTACT
    common.add_suite_look(spec, ("self", "effector", "eye", "target"))

    spec.default.actuator.set_to_motor()
    spec.default.actuator.gear = [_MOTOR_GEAR, 0, 0, 0, 0, 0]
    spec.default.actuator.ctrllimited = mujoco.mjtLimited.mjLIMITED_TRUE
    spec.default.actuator.ctrlrange = [-1, 1]
    # Joints sit at the front end (-y) of their link.
    body_class = spec.add_default("swimmer", spec.default)
    body_class.joint.type = mujoco.mjtJoint.mjJNT_HINGE
    body_class.joint.pos = [0, -_LINK_LENGTH_M / 2, 0]
    body_class.joint.axis = [0, 0, 1]
    body_class.joint.limited = mujoco.mjtLimited.mjLIMITED_TRUE
    body_class.joint.solref_limit = list(_JOINT_SOLREF_LIMIT)
    body_class.joint.solimp_limit = list(_JOINT_SOLIMP_LIMIT)
    body_class.joint.armature = _JOINT_ARMATURE
    body_class.site.size = [0.01, 0.005, 0.005]
    body_class.site.rgba = [0, 0, 0, 0]
    inertial_class = spec.add_default("inertial", body_class)
    inertial_class.geom.type = mujoco.mjtGeom.mjGEOM_BOX
    inertial_class.geom.size = list(_INERTIAL_BOX_HALF_SIZE_M)
    inertial_class.geom.rgba = [0, 0, 0, 0]
    inertial_class.geom.mass = _LINK_MASS_KG
    visual_class = spec.add_default("visual", body_class)
    visual_class.geom.type = mujoco.mjtGeom.mjGEOM_CAPSULE
    visual_class.geom.size = [_VISUAL_CAPSULE_RADIUS_M, 0, 0]
    visual_class.geom.fromto = [0, -_LINK_LENGTH_M / 2, 0, 0, _LINK_LENGTH_M / 2, 0]
    visual_class.geom.material = "self"
    visual_class.geom.mass = 0
    root_class = spec.add_default("free", spec.default)
    root_class.joint.limited = mujoco.mjtLimited.mjLIMITED_FALSE

    world = spec.worldbody
    world.add_geom(
        name="ground", type=mujoco.mjtGeom.mjGEOM_PLANE, size=[2, 2, 0.1], material="grid"
    )
    head = world.add_body(name="head", pos=[0, 0, _HEAD_HEIGHT_M], childclass="swimmer")
    head.add_light(name="light_1", diffuse=[0.8, 0.8, 0.8], pos=[0, 0, 1.5])
    # The head's shape is drawn by massless geoms; its mass is the inertial box's.
    head.add_geom(
        name="head",
        type=mujoco.mjtGeom.mjGEOM_ELLIPSOID,
        size=[0.02, 0.04, 0.017],
        pos=[0, -0.022, 0],
        material="self",
        mass=0,
    )
    head.add_geom(
        name="nose",
        type=mujoco.mjtGeom.mjGEOM_SPHERE,
        pos=[0, -0.06, 0],
        size=[0.004, 0, 0],
        material="effector",
        mass=0,
    )
    head.add_geom(
        name="eyes",
        type=mujoco.mjtGeom.mjGEOM_CAPSULE,
        fromto=[-0.006, -0.054, 0.005, 0.006, -0.054, 0.005],
        size=[0.004, 0, 0],
        material="eye",
        mass=0,
    )
    scale = n_links / _CAMERA_REFERENCE_LINKS
    track = mujoco.mjtCamLight.mjCAMLIGHT_TRACKCOM
    head.add_camera(
        name="tracking1",
        pos=[0, -0.2 * scale, 0.5 * scale],
        xyaxes=[1, 0, 0, 0, 1, 1],
        mode=track,
        fovy=60,
    )
    head.add_camera(
        name="tracking2",
        pos=[-0.9 * scale, 0.5 * scale, 0.15 * scale],
        xyaxes=[0, -1, 0, 0.3, 0, 1],
        mode=track,
        fovy=60,
    )
    head.add_camera(name="eyes", pos=[0, -0.058, 0.005], xyaxes=[-1, 0, 0, 0, 0, 1])
    joint_pos = [0, -_LINK_LENGTH_M / 2, 0]
    for name, joint_type, axis in (
        ("rootx", mujoco.mjtJoint.mjJNT_SLIDE, [1, 0, 0]),
        ("rooty", mujoco.mjtJoint.mjJNT_SLIDE, [0, 1, 0]),
        ("rootz", mujoco.mjtJoint.mjJNT_HINGE, [0, 0, 1]),
    ):
        head.add_joint(root_class, name=name, type=joint_type, axis=axis, pos=joint_pos)
    head.add_geom(inertial_class, name="inertial")
    head.add_geom(visual_class, name="visual")
    head.add_site(name="head")

    world.add_geom(
        name="target",
        type=mujoco.mjtGeom.mjGEOM_SPHERE,
        pos=list(_TARGET_POS),
        size=[_TARGET_RADIUS_M, 0, 0],
        material="target",
    )
    world.add_light(
        name="target_light", diffuse=[1, 1, 1], pos=[_TARGET_POS[0], _TARGET_POS[1], 1.5]
    )

    sensor = mujoco.mjtSensor
    for name, sensor_type, objtype, objname in (
        ("nose_pos", sensor.mjSENS_FRAMEPOS, mujoco.mjtObj.mjOBJ_GEOM, "nose"),
        ("target_pos", sensor.mjSENS_FRAMEPOS, mujoco.mjtObj.mjOBJ_GEOM, "target"),
        ("head_xaxis", sensor.mjSENS_FRAMEXAXIS, mujoco.mjtObj.mjOBJ_XBODY, "head"),
        ("head_yaxis", sensor.mjSENS_FRAMEYAXIS, mujoco.mjtObj.mjOBJ_XBODY, "head"),
        ("head_vel", sensor.mjSENS_VELOCIMETER, mujoco.mjtObj.mjOBJ_SITE, "head"),
        ("head_gyro", sensor.mjSENS_GYRO, mujoco.mjtObj.mjOBJ_SITE, "head"),
    ):
        spec.add_sensor(name=name, type=sensor_type, objtype=objtype, objname=objname)

    joint_limit_deg = 360 / n_links
    parent = head
    for index in range(n_links - 1):
        segment = parent.add_body(name=f"segment_{index}", pos=[0, _LINK_LENGTH_M, 0])
        segment.add_geom(visual_class, name=f"visual_{index}")
        segment.add_geom(inertial_class, name=f"inertial_{index}")
        segment.add_site(name=f"site_{index}")
        segment.add_joint(name=f"joint_{index}", range=[-joint_limit_deg, joint_limit_deg])
        spec.add_actuator(
            name=f"motor_{index}", target=f"joint_{index}", trntype=mujoco.mjtTrn.mjTRN_JOINT
        )
        for kind, sensor_type in (
            ("velocimeter", sensor.mjSENS_VELOCIMETER),
            ("gyro", sensor.mjSENS_GYRO),
        ):
            spec.add_sensor(
                name=f"{kind}_{index}",
                type=sensor_type,
                objtype=mujoco.mjtObj.mjOBJ_SITE,
                objname=f"site_{index}",
            )
        parent = segment
    return spec
