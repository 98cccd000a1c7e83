"""The Control Suite planar hopper: a torso on one leg of pelvis, thigh, calf and foot.

Physical facts (sizes, placements, joint ranges, damping, armature, gears,
timestep, touch sites, cameras, colours) are those of dm_control 1.0.50's
`suite/hopper.xml` and `suite/common/*.xml`; element names are the published ones,
so states and names mean the same thing in both.

Frames and units: world z is up and the hopper moves in the world x-z plane, every
joint of the leg turning about world y; lengths in metres, angles in degrees in the
spec (the compiled model holds radians). Masses come from the geoms at the default
density of 1000 kg/m^3.
"""

import mujoco

from mjcf_models import common

_TIMESTEP_S = 0.005
_TORSO_HEIGHT_M = 1.0
_JOINT_DAMPING = 0.05
_JOINT_ARMATURE = 0.2
_TOUCH_SITE_RADIUS_M = 0.05

# The leg, from the torso down: (body, joint and geom name of the segment; joint
# name; body position in the parent frame; joint range in degrees; capsule end
# points (from, to) in the body frame; capsule radius).
_LEG = (
    ("pelvis", "waist", (0, 0, -0.05), (-30, 30), (0, 0, 0, 0, 0, -0.15), 0.065),
    ("thigh", "hip", (0, 0, -0.2), (-170, 10), (0, 0, 0, 0, 0, -0.33), 0.04),
    ("calf", "knee", (0, 0, -0.33), (5, 150), (0, 0, 0, 0, 0, -0.32), 0.03),
    ("foot", "ankle", (0, 0, -0.32), (-45, 45), (-0.08, 0, 0, 0.17, 0, 0), 0.04),
)

# Motor gears in N m per unit of control, in the published actuator order.
_GEARS = (("waist", 30), ("hip", 40), ("knee", 30), ("ankle", 10))


def make_spec():
    """Returns the hopper model.

    Joint order (qpos/qvel layout): rootx (slide along x), rootz (slide along z),
    rooty (hinge about y), waist, hip, knee, ankle. Actuators drive the four leg
    joints in the same order. Sensors: `torso_subtreelinvel`, the centre-of-mass
    velocity of the whole hopper in the world frame (m/s); `touch_toe` and
    `touch_heel`, the normal contact force (N) within spheres of 5 cm at the two
    ends of the foot.
    """
    spec = mujoco.MjSpec()
    spec.modelname = "planar hopper"
    spec.compiler.degree = True
    spec.option.timestep = _TIMESTEP_S
    spec.stat.center = [0, 0, 0.5]
    spec.stat.extent = 2
    common.add_suite_look(spec, ("self",))

    spec.default.actuator.set_to_motor()
    spec.default.actuator.ctrllimited = mujoco.mjtLimited.mjLIMITED_TRUE
    spec.default.actuator.ctrlrange = [-1, 1]
    body_class = spec.add_default("hopper", spec.default)
    body_class.joint.type = mujoco.mjtJoint.mjJNT_HINGE
    body_class.joint.axis = [0, 1, 0]
    body_class.joint.limited = mujoco.mjtLimited.mjLIMITED_TRUE
    body_class.joint.damping = [_JOINT_DAMPING, 0, 0]
    body_class.joint.armature = _JOINT_ARMATURE
    body_class.geom.type = mujoco.mjtGeom.mjGEOM_CAPSULE
    body_class.geom.material = "self"
    body_class.site.type = mujoco.mjtGeom.mjGEOM_SPHERE
    body_class.site.size = [_TOUCH_SITE_RADIUS_M, 0.005, 0.005]
    body_class.site.group = 3
    root_class = spec.add_default("free", spec.default)
    root_class.joint.limited = mujoco.mjtLimited.mjLIMITED_FALSE

    world = spec.worldbody
    track = mujoco.mjtCamLight.mjCAMLIGHT_TRACKCOM
    world.add_camera(name="cam0", pos=[0, -2.8, 0.8], euler=[90, 0, 0], mode=track)
    world.add_camera(name="back", pos=[-2, -0.2, 1.2], xyaxes=[0.2, -1, 0, 0.5, 0, 2], mode=track)
    # A 100 m x 2 m strip starting 2 m behind the origin: the hopper moves along +x.
    world.add_geom(
        name="floor",
        type=mujoco.mjtGeom.mjGEOM_PLANE,
        conaffinity=1,
        pos=[48, 0, 0],
        size=[50, 1, 0.2],
        material="grid",
    )

    torso = world.add_body(name="torso", pos=[0, 0, _TORSO_HEIGHT_M], childclass="hopper")
    torso.add_light(name="top", pos=[0, 0, 2], mode=track)
    for name, joint_type, axis in (
        ("rootx", mujoco.mjtJoint.mjJNT_SLIDE, [1, 0, 0]),
        ("rootz", mujoco.mjtJoint.mjJNT_SLIDE, [0, 0, 1]),
        ("rooty", mujoco.mjtJoint.mjJNT_HINGE, [0, 1, 0]),
    ):
        torso.add_joint(root_class, name=name, type=joint_type, axis=axis)
    torso.add_geom(name="torso", fromto=[0, 0, -0.05, 0, 0, 0.2], size=[0.0653, 0, 0])
    torso.add_geom(name="nose", fromto=[0.08, 0, 0.13, 0.15, 0, 0.14], size=[0.03, 0, 0])

    parent = torso
    for name, joint_name, body_pos, joint_range, fromto, radius in _LEG:
        body = parent.add_body(name=name, pos=list(body_pos))
        body.add_joint(name=joint_name, range=list(joint_range))
        body.add_geom(name=name, fromto=list(fromto), size=[radius, 0, 0])
        parent = body
    foot = parent
    foot.add_site(name="touch_toe", pos=[0.17, 0, 0])
    foot.add_site(name="touch_heel", pos=[-0.08, 0, 0])

    spec.add_sensor(
        name="torso_subtreelinvel",
        type=mujoco.mjtSensor.mjSENS_SUBTREELINVEL,
        objtype=mujoco.mjtObj.mjOBJ_BODY,
        objname="torso",
    )
    for site in ("touch_toe", "touch_heel"):
        spec.add_sensor(
            name=site,
            type=mujoco.mjtSensor.mjSENS_TOUCH,
            objtype=mujoco.mjtObj.mjOBJ_SITE,
            objname=site,
        )
    for name, gear in _GEARS:
        spec.add_actuator(
            name=name, target=name, trntype=mujoco.mjtTrn.mjTRN_JOINT, gear=[gear, 0, 0, 0, 0, 0]
        )
    return spec
