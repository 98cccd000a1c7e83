"""The Control Suite humanoid: a 21-actuator, 27-degree-of-freedom walker.

`make_spec()` builds the model as a `mujoco.MjSpec`. Every number and element
name is a fact of the published model (dm_control 1.0.50, `suite/humanoid.xml`,
Tassa et al. 2018): geometry in metres, joint ranges in degrees (the spec keeps
MuJoCo's default `compiler.degree`), masses from the geoms' volumes at
MuJoCo's default density of 1000 kg/m^3, gears in N·m per unit of control.
Its qpos layout is the published one: the free root joint (x, y, z, quaternion)
followed by the 21 hinges in the order of `JOINT_NAMES`.
"""

import mujoco

from mjcf_models import common

# Joint order of the published model, which fixes the qpos/qvel layout.
JOINT_NAMES = (
    "abdomen_z",
    "abdomen_y",
    "abdomen_x",
    "right_hip_x",
    "right_hip_z",
    "right_hip_y",
    "right_knee",
    "right_ankle_y",
    "right_ankle_x",
    "left_hip_x",
    "left_hip_z",
    "left_hip_y",
    "left_knee",
    "left_ankle_y",
    "left_ankle_x",
    "right_shoulder1",
    "right_shoulder2",
    "right_elbow",
    "left_shoulder1",
    "left_shoulder2",
    "left_elbow",
)

# Actuator order and gears of the published model (a different order from the joints').
ACTUATOR_GEARS = (
    ("abdomen_y", 40),
    ("abdomen_z", 40),
    ("abdomen_x", 40),
    ("right_hip_x", 40),
    ("right_hip_z", 40),
    ("right_hip_y", 120),
    ("right_knee", 80),
    ("right_ankle_x", 20),
    ("right_ankle_y", 20),
    ("left_hip_x", 40),
    ("left_hip_z", 40),
    ("left_hip_y", 120),
    ("left_knee", 80),
    ("left_ankle_x", 20),
    ("left_ankle_y", 20),
    ("right_shoulder1", 20),
    ("right_shoulder2", 20),
    ("right_elbow", 40),
    ("left_shoulder1", 20),
    ("left_shoulder2", 20),
    ("left_elbow", 40),
)

# Touch sensors in the published order, each reading the site of the same name.
_TOUCH_SITES = (
    "torso",
    "head",
    "lower_waist",
    "butt",
    "right_thigh",
    "right_shin",
    "right_right_foot",
    "left_right_foot",
    "left_thigh",
    "left_shin",
    "right_left_foot",
    "left_left_foot",
    "right_upper_arm",
    "right_lower_arm",
    "right_hand",
    "left_upper_arm",
    "left_lower_arm",
    "left_hand",
)
# Force and torque sensors at these sites, each list in this published order.
_FORCE_TORQUE_SITES = (
    "left_ankle",
    "right_ankle",
    "left_knee",
    "right_knee",
    "left_hip",
    "right_hip",
)

_CAPSULE = mujoco.mjtGeom.mjGEOM_CAPSULE
_SPHERE = mujoco.mjtGeom.mjGEOM_SPHERE
_BOX = mujoco.mjtGeom.mjGEOM_BOX
_TRACK_COM = mujoco.mjtCamLight.mjCAMLIGHT_TRACKCOM


def _add_defaults(spec):
    """The published default classes: returns {class name: MjsDefault}."""
    spec.default.actuator.ctrlrange = [-1, 1]
    spec.default.actuator.ctrllimited = mujoco.mjtLimited.mjLIMITED_TRUE

    body = spec.add_default("body", spec.default)
    body.geom.type = _CAPSULE
    body.geom.condim = 1
    body.geom.friction = [0.7, 0.005, 0.0001]
    body.geom.solimp = [0.9, 0.99, 0.003, 0.5, 2]
    body.geom.solref = [0.015, 1]
    body.geom.material = "self"
    body.joint.type = mujoco.mjtJoint.mjJNT_HINGE
    # MuJoCo 4 takes damping and stiffness as polynomials (linear, quadratic,
    # cubic); the published model is linear.
    body.joint.damping = [0.2, 0, 0]
    body.joint.stiffness = [1, 0, 0]
    body.joint.armature = 0.01
    body.joint.limited = mujoco.mjtLimited.mjLIMITED_TRUE
    body.joint.solimp_limit = [0, 0.99, 0.01, 0.5, 2]
    body.site.size = [0.04, 0.005, 0.005]
    body.site.group = 3

    big_joint = spec.add_default("big_joint", body)
    big_joint.joint.damping = [5, 0, 0]
    big_joint.joint.stiffness = [10, 0, 0]
    big_stiff_joint = spec.add_default("big_stiff_joint", big_joint)
    big_stiff_joint.joint.stiffness = [20, 0, 0]

    force_torque = spec.add_default("force-torque", body)
    force_torque.site.type = _BOX
    force_torque.site.size = [0.01, 0.01, 0.02]
    force_torque.site.rgba = [1, 0, 0, 1]
    touch = spec.add_default("touch", body)
    touch.site.type = _CAPSULE
    touch.site.rgba = [0, 0, 1, 0.3]
    return {
        "body": body,
        "big_joint": big_joint,
        "big_stiff_joint": big_stiff_joint,
        "force-torque": force_torque,
        "touch": touch,
    }


def _add_leg(pelvis, classes, side):
    """One leg: thigh, shin and a two-capsule foot. `side` is 'right' or 'left';
    the left leg mirrors the right in y, with its hip x/z axes reversed."""
    body, big, big_stiff = classes["body"], classes["big_joint"], classes["big_stiff_joint"]
    touch, force_torque = classes["touch"], classes["force-torque"]
    mirror = -1 if side == "right" else 1
    hip_axis_sign = 1 if side == "right" else -1
    hip_y_min = -110 if side == "right" else -120

    thigh = pelvis.add_body(name=f"{side}_thigh", pos=[0, 0.1 * mirror, -0.04])
    thigh.add_site(force_torque, name=f"{side}_hip")
    thigh.add_joint(big, name=f"{side}_hip_x", axis=[hip_axis_sign, 0, 0], range=[-25, 5])
    thigh.add_joint(big, name=f"{side}_hip_z", axis=[0, 0, hip_axis_sign], range=[-60, 35])
    thigh.add_joint(big_stiff, name=f"{side}_hip_y", axis=[0, 1, 0], range=[hip_y_min, 20])
    thigh.add_geom(
        body, name=f"{side}_thigh", fromto=[0, 0, 0, 0, -0.01 * mirror, -0.34], size=[0.06, 0, 0]
    )
    thigh.add_site(
        touch,
        name=f"{side}_thigh",
        pos=[0, -0.005 * mirror, -0.17],
        size=[0.061, 0.17, 0.005],
        zaxis=[0, mirror, 34],
    )

    shin = thigh.add_body(name=f"{side}_shin", pos=[0, -0.01 * mirror, -0.403])
    shin.add_site(force_torque, name=f"{side}_knee", pos=[0, 0, 0.02])
    shin.add_joint(body, name=f"{side}_knee", pos=[0, 0, 0.02], axis=[0, -1, 0], range=[-160, 2])
    shin.add_geom(body, name=f"{side}_shin", fromto=[0, 0, 0, 0, 0, -0.3], size=[0.049, 0, 0])
    shin.add_site(touch, name=f"{side}_shin", pos=[0, 0, -0.15], size=[0.05, 0.15, 0.005])

    foot = shin.add_body(name=f"{side}_foot", pos=[0, 0, -0.39])
    foot.add_site(force_torque, name=f"{side}_ankle")
    foot.add_joint(
        body,
        name=f"{side}_ankle_y",
        pos=[0, 0, 0.08],
        axis=[0, 1, 0],
        range=[-50, 50],
        stiffness=[6, 0, 0],
    )
    foot.add_joint(
        body,
        name=f"{side}_ankle_x",
        pos=[0, 0, 0.04],
        axis=[1, 0, 0.5],
        range=[-50, 50],
        stiffness=[3, 0, 0],
    )
    # Each foot is two capsules toed out from the heel; the published names
    # ('<toe side>_<foot side>_foot') and the geom/site order are kept.
    outer, inner = ("right", "left") if side == "right" else ("left", "right")
    outer_y = (-0.02, -0.04) if side == "right" else (0.02, 0.04)
    inner_y = (0, 0.02) if side == "right" else (0, -0.02)
    foot.add_geom(
        body,
        name=f"{outer}_{side}_foot",
        fromto=[-0.07, outer_y[0], 0, 0.14, outer_y[1], 0],
        size=[0.027, 0, 0],
    )
    foot.add_geom(
        body,
        name=f"{inner}_{side}_foot",
        fromto=[-0.07, inner_y[0], 0, 0.14, inner_y[1], 0],
        size=[0.027, 0, 0],
    )
    for toe_side, site_y in (
        ("right", -0.03 if side == "right" else -0.01),
        ("left", 0.01 if side == "right" else 0.03),
    ):
        toe_out = -2 if toe_side == "right" else 2
        foot.add_site(
            touch,
            name=f"{toe_side}_{side}_foot",
            pos=[0.035, site_y, 0],
            size=[0.03, 0.11, 0.005],
            zaxis=[21, toe_out, 0],
        )


def _add_arm(torso, classes, side):
    """One arm: upper arm, lower arm and a spherical hand; the left mirrors the right."""
    body, touch = classes["body"], classes["touch"]
    m = -1 if side == "right" else 1
    # Published shoulder axes and ranges; the elbow axis mirrors in y and z.
    shoulder1_axis, shoulder2_axis = (
        ([2, 1, 1], [0, -1, 1]) if side == "right" else ([2, -1, 1], [0, 1, 1])
    )
    shoulder_range = [-85, 60] if side == "right" else [-60, 85]
    elbow_axis = [0, -1, 1] if side == "right" else [0, -1, -1]

    upper = torso.add_body(name=f"{side}_upper_arm", pos=[0, 0.17 * m, 0.06])
    upper.add_joint(body, name=f"{side}_shoulder1", axis=shoulder1_axis, range=shoulder_range)
    upper.add_joint(body, name=f"{side}_shoulder2", axis=shoulder2_axis, range=shoulder_range)
    upper.add_geom(
        body,
        name=f"{side}_upper_arm",
        fromto=[0, 0, 0, 0.16, 0.16 * m, -0.16],
        size=[0.04, 0.16, 0],
    )
    upper.add_site(
        touch,
        name=f"{side}_upper_arm",
        pos=[0.08, 0.08 * m, -0.08],
        size=[0.041, 0.14, 0.005],
        zaxis=[1, m, -1],
    )

    lower = upper.add_body(name=f"{side}_lower_arm", pos=[0.18, 0.18 * m, -0.18])
    lower.add_joint(
        body, name=f"{side}_elbow", axis=elbow_axis, range=[-90, 50], stiffness=[0, 0, 0]
    )
    lower.add_geom(
        body,
        name=f"{side}_lower_arm",
        fromto=[0.01, -0.01 * m, 0.01, 0.17, -0.17 * m, 0.17],
        size=[0.031, 0, 0],
    )
    lower.add_site(
        touch,
        name=f"{side}_lower_arm",
        pos=[0.09, -0.09 * m, 0.09],
        size=[0.032, 0.14, 0.005],
        zaxis=[1, -m, 1],
    )

    hand = lower.add_body(name=f"{side}_hand", pos=[0.18, -0.18 * m, 0.18])
    hand.add_geom(body, name=f"{side}_hand", type=_SPHERE, size=[0.04, 0, 0])
    hand.add_site(touch, name=f"{side}_hand", type=_SPHERE, size=[0.041, 0.005, 0.005])


def make_spec():
    """Returns the humanoid as a new `mujoco.MjSpec` (physics timestep 5 ms)."""
    spec = mujoco.MjSpec()
    spec.modelname = "humanoid"
    spec.option.timestep = 0.005
    spec.stat.extent = 2
    spec.stat.center = [0, 0, 1]
    common.add_suite_look(spec, ("self",))
    classes = _add_defaults(spec)
    body, touch = classes["body"], classes["touch"]
    force_torque = classes["force-torque"]

    world = spec.worldbody
    world.add_geom(
        name="floor",
        type=mujoco.mjtGeom.mjGEOM_PLANE,
        conaffinity=1,
        size=[100, 100, 0.2],
        material="grid",
    )

    torso = world.add_body(name="torso", pos=[0, 0, 1.5], childclass="body")
    torso.add_light(name="top", pos=[0, 0, 2], mode=_TRACK_COM)
    torso.add_camera(name="back", pos=[-3, 0, 1], xyaxes=[0, -1, 0, 1, 0, 2], mode=_TRACK_COM)
    torso.add_camera(name="side", pos=[0, -3, 1], xyaxes=[1, 0, 0, 0, 1, 2], mode=_TRACK_COM)
    torso.add_freejoint(name="root")
    torso.add_site(force_torque, name="root")
    torso.add_geom(body, name="torso", fromto=[0, -0.07, 0, 0, 0.07, 0], size=[0.07, 0, 0])
    torso.add_geom(
        body,
        name="upper_waist",
        fromto=[-0.01, -0.06, -0.12, -0.01, 0.06, -0.12],
        size=[0.06, 0, 0],
    )
    torso.add_site(touch, name="torso", type=_BOX, pos=[0, 0, -0.05], size=[0.075, 0.14, 0.13])

    head = torso.add_body(name="head", pos=[0, 0, 0.19])
    head.add_geom(body, name="head", type=_SPHERE, size=[0.09, 0, 0])
    head.add_site(touch, name="head", type=_SPHERE, size=[0.091, 0.005, 0.005])
    head.add_camera(name="egocentric", pos=[0.09, 0, 0], xyaxes=[0, -1, 0, 0.1, 0, 1], fovy=80)

    lower_waist = torso.add_body(name="lower_waist", pos=[-0.01, 0, -0.26], quat=[1, 0, -0.002, 0])
    lower_waist.add_geom(
        body, name="lower_waist", fromto=[0, -0.06, 0, 0, 0.06, 0], size=[0.06, 0, 0]
    )
    lower_waist.add_site(touch, name="lower_waist", size=[0.061, 0.06, 0.005], zaxis=[0, 1, 0])
    lower_waist.add_joint(
        classes["big_stiff_joint"],
        name="abdomen_z",
        pos=[0, 0, 0.065],
        axis=[0, 0, 1],
        range=[-45, 45],
    )
    lower_waist.add_joint(
        classes["big_joint"], name="abdomen_y", pos=[0, 0, 0.065], axis=[0, 1, 0], range=[-75, 30]
    )

    pelvis = lower_waist.add_body(name="pelvis", pos=[0, 0, -0.165], quat=[1, 0, -0.002, 0])
    pelvis.add_joint(
        classes["big_joint"], name="abdomen_x", pos=[0, 0, 0.1], axis=[1, 0, 0], range=[-35, 35]
    )
    pelvis.add_geom(body, name="butt", fromto=[-0.02, -0.07, 0, -0.02, 0.07, 0], size=[0.09, 0, 0])
    pelvis.add_site(
        touch, name="butt", pos=[-0.02, 0, 0], size=[0.091, 0.07, 0.005], zaxis=[0, 1, 0]
    )
    _add_leg(pelvis, classes, "right")
    _add_leg(pelvis, classes, "left")
    _add_arm(torso, classes, "right")
    _add_arm(torso, classes, "left")

    for name, gear in ACTUATOR_GEARS:
        spec.add_actuator(
            name=name, target=name, trntype=mujoco.mjtTrn.mjTRN_JOINT, gear=[gear, 0, 0, 0, 0, 0]
        )

    sensor = mujoco.mjtSensor
    site, body_obj = mujoco.mjtObj.mjOBJ_SITE, mujoco.mjtObj.mjOBJ_BODY
    spec.add_sensor(
        name="torso_subtreelinvel",
        type=sensor.mjSENS_SUBTREELINVEL,
        objtype=body_obj,
        objname="torso",
    )
    spec.add_sensor(
        name="torso_accel", type=sensor.mjSENS_ACCELEROMETER, objtype=site, objname="root"
    )
    spec.add_sensor(name="torso_vel", type=sensor.mjSENS_VELOCIMETER, objtype=site, objname="root")
    spec.add_sensor(name="torso_gyro", type=sensor.mjSENS_GYRO, objtype=site, objname="root")
    for kind, sensor_type in (("force", sensor.mjSENS_FORCE), ("torque", sensor.mjSENS_TORQUE)):
        for name in _FORCE_TORQUE_SITES:
            spec.add_sensor(name=f"{name}_{kind}", type=sensor_type, objtype=site, objname=name)
    for name in _TOUCH_SITES:
        spec.add_sensor(name=f"{name}_touch", type=sensor.mjSENS_TOUCH, objtype=site, objname=name)
    return spec
