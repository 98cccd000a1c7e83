"""The Control Suite planar walker: a torso on two legs of thigh, leg and foot.

Physical facts (sizes, placements, joint ranges and limit softness, damping,
armature, friction, gears, timestep, cameras, colours) are those of dm_control
1.0.50's `suite/walker.xml` and `suite/common/*.xml`; element names are the
published ones, so states and names mean the same thing in both.

Frames and units: world z is up and the walker moves in the world x-z plane;
leg joints turn about world -y (so positive angles swing a limb forward); lengths in
metres, angles in degrees in the spec (the compiled model holds radians). Masses
come from the geoms at the default density of 1000 kg/m^3.
"""

import mujoco

from mjcf_models import common

_TIMESTEP_S = 0.0025
_TORSO_HEIGHT_M = 1.3
_JOINT_DAMPING = 0.1
_JOINT_ARMATURE = 0.01
# Soft joint limits: solimp (0, 0.99, 0.01) lets the limit constraint start from zero
# impedance, as the published model sets.
_JOINT_SOLIMP_LIMIT = (0, 0.99, 0.01, 0.5, 2)
_FRICTION = (0.7, 0.1, 0.1)

# One leg, from hip to foot: (body, joint and geom base name; body position in the
# parent frame; joint position in the body frame; joint range in degrees;
# geom position; capsule radius and half-length; whether the capsule lies along x).
# The right leg sits at y = -0.05 m and the left at y = +0.05 m.
_LEG = (
    ("thigh", "hip", (0, 0, -0.3), (0, 0, 0), (-20, 100), (0, 0, -0.225), (0.05, 0.225), False),
    ("leg", "knee", (0, 0, -0.7), (0, 0, 0.25), (-150, 0), (0, 0, 0), (0.04, 0.25), False),
    ("foot", "ankle", (0.06, 0, -0.25), (-0.06, 0, 0), (-45, 45), (0, 0, 0), (0.05, 0.1), True),
)
_SIDES = (("right", -0.05), ("left", 0.05))

# Motor gears in N m per unit of control, per leg joint (both sides alike).
_GEARS = {"hip": 100, "knee": 50, "ankle": 20}


def make_spec():
    """Returns the walker model.

    Joint order (qpos/qvel layout): rootz (slide along z), rootx (slide along x),
    rooty (hinge about y), right_hip, right_knee, right_ankle, left_hip, left_knee,
    left_ankle. Actuators drive the six leg joints in the same order. The sensor
    `torso_subtreelinvel` is the centre-of-mass velocity of the whole walker in the
    world frame (m/s).
    """
    spec = mujoco.MjSpec()
    spec.modelname = "planar walker"
    spec.compiler.degree = True
    spec.option.timestep = _TIMESTEP_S
    spec.stat.center = [0, 0, 1]
    spec.stat.extent = 2
    common.add_suite_look(spec, ("self",))

    main = spec.default
    main.joint.damping = [_JOINT_DAMPING, 0, 0]
    main.joint.armature = _JOINT_ARMATURE
    main.joint.limited = mujoco.mjtLimited.mjLIMITED_TRUE
    main.joint.solimp_limit = list(_JOINT_SOLIMP_LIMIT)
    # Only the floor collides with the body parts: they never touch each other.
    main.geom.contype = 1
    main.geom.conaffinity = 0
    main.geom.friction = list(_FRICTION)
    main.actuator.set_to_motor()
    main.actuator.ctrllimited = mujoco.mjtLimited.mjLIMITED_TRUE
    main.actuator.ctrlrange = [-1, 1]
    body_class = spec.add_default("walker", main)
    body_class.geom.material = "self"
    body_class.geom.type = mujoco.mjtGeom.mjGEOM_CAPSULE
    body_class.joint.axis = [0, -1, 0]

    world = spec.worldbody
    # A 500 m x 1.6 m strip starting 2 m behind the origin: the walker moves along +x.
    world.add_geom(
        name="floor",
        type=mujoco.mjtGeom.mjGEOM_PLANE,
        conaffinity=1,
        pos=[248, 0, 0],
        size=[250, 0.8, 0.2],
        material="grid",
        zaxis=[0, 0, 1],
    )

    torso = world.add_body(name="torso", pos=[0, 0, _TORSO_HEIGHT_M], childclass="walker")
    track = mujoco.mjtCamLight.mjCAMLIGHT_TRACKCOM
    torso.add_light(name="light", pos=[0, 0, 2], mode=track)
    torso.add_camera(name="side", pos=[0, -2, 0.7], euler=[60, 0, 0], mode=track)
    torso.add_camera(name="back", pos=[-2, 0, 0.5], xyaxes=[0, -1, 0, 1, 0, 3], mode=track)
    unlimited = mujoco.mjtLimited.mjLIMITED_FALSE
    for name, joint_type, axis in (
        ("rootz", mujoco.mjtJoint.mjJNT_SLIDE, [0, 0, 1]),
        ("rootx", mujoco.mjtJoint.mjJNT_SLIDE, [1, 0, 0]),
        ("rooty", mujoco.mjtJoint.mjJNT_HINGE, [0, 1, 0]),
    ):
        torso.add_joint(
            name=name, type=joint_type, axis=axis, limited=unlimited, armature=0, damping=[0, 0, 0]
        )
    torso.add_geom(name="torso", size=[0.07, 0.3, 0])

    for side, y_offset in _SIDES:
        parent = torso
        for (
            body_name,
            joint_name,
            body_pos,
            joint_pos,
            joint_range,
            geom_pos,
            geom_size,
            along_x,
        ) in _LEG:
            if parent is torso:
                body_pos = (body_pos[0], y_offset, body_pos[2])
            body = parent.add_body(name=f"{side}_{body_name}", pos=list(body_pos))
            body.add_joint(
                name=f"{side}_{joint_name}", pos=list(joint_pos), range=list(joint_range)
            )
            orientation = {"zaxis": [1, 0, 0]} if along_x else {}
            body.add_geom(
                name=f"{side}_{body_name}", pos=list(geom_pos), size=[*geom_size, 0], **orientation
            )
            parent = body

    spec.add_sensor(
        name="torso_subtreelinvel",
        type=mujoco.mjtSensor.mjSENS_SUBTREELINVEL,
        objtype=mujoco.mjtObj.mjOBJ_BODY,
        objname="torso",
    )
    for side, _ in _SIDES:
        for _, joint_name, *_ in _LEG:
            name = f"{side}_{joint_name}"
            spec.add_actuator(
                name=name,
                target=name,
                trntype=mujoco.mjtTrn.mjTRN_JOINT,
                gear=[_GEARS[joint_name], 0, 0, 0, 0, 0],
            )
    return spec
