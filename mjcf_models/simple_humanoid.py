"""A simple humanoid for rllab's "Simple Humanoid" task (Duan et al. 2016, supplement
§1.2: head, body, arms and legs, 10 actuated joints).

rllab's `simple_humanoid.xml` is not reproduced here. This body is the Control
Suite humanoid (`mjcf_models.humanoid`, dm_control's `suite/humanoid.xml`)
reduced to planar-ish joints: its geometry, joint classes, ranges and gears are
that model's, with
- the waist as one body (lower waist and pelvis) turning about abdomen_z and abdomen_y,
- hips and shoulders hinged about one axis each (hip_y, shoulder1),
- the feet fixed to the shins and the hands to the lower arms, the head to the torso.
That leaves 10 bodies below the world and 10 hinges, so rllab's observation
(qpos 17, qvel 16, contact wrenches of the 11 bodies 66, torso centre of mass 3)
has the supplement's 102 entries.

Frames and units: world z up, the humanoid faces +x; metres, degrees in the
spec (MuJoCo's default `compiler.degree`), N m per unit of control.
"""

import mujoco

from mjcf_models import common, humanoid

JOINT_NAMES = (
    "abdomen_z",
    "abdomen_y",
    "right_hip_y",
    "right_knee",
    "left_hip_y",
    "left_knee",
    "right_shoulder1",
    "right_elbow",
    "left_shoulder1",
    "left_elbow",
)
# The suite humanoid's gears for these joints.
_GEARS = dict(humanoid.ACTUATOR_GEARS)
_CAPSULE = mujoco.mjtGeom.mjGEOM_CAPSULE
_SPHERE = mujoco.mjtGeom.mjGEOM_SPHERE
# Lower waist and pelvis merged: the pelvis hangs 0.165 m below the lower waist.
_PELVIS_BELOW_WAIST_M = 0.165
# Torso height (m) at which the straight legs' feet hang 5 mm above the floor.
_STANDING_TORSO_HEIGHT_M = 1.29


def _add_leg(pelvis, classes, side):
    body, big_stiff = classes["body"], classes["big_stiff_joint"]
    mirror = -1 if side == "right" else 1
    hip_y_min = -110 if side == "right" else -120
    thigh = pelvis.add_body(
        name=f"{side}_thigh", pos=[0, 0.1 * mirror, -_PELVIS_BELOW_WAIST_M - 0.04]
    )
    thigh.add_joint(big_stiff, name=f"{side}_hip_y", axis=[0, 1, 0], range=[hip_y_min, 20])
    thigh.add_geom(
        body, name=f"{side}_thigh", fromto=[0, 0, 0, 0, -0.01 * mirror, -0.34], size=[0.06, 0, 0]
    )
    shin = thigh.add_body(name=f"{side}_shin", pos=[0, -0.01 * mirror, -0.403])
    shin.add_joint(body, name=f"{side}_knee", pos=[0, 0, 0.02], axis=[0, -1, 0], range=[-160, 2])
    shin.add_geom(body, name=f"{side}_shin", fromto=[0, 0, 0, 0, 0, -0.3], size=[0.049, 0, 0])
    shin.add_geom(
        body,
        name=f"{side}_foot",
        fromto=[-0.07, 0, -0.39, 0.14, 0.02 * mirror, -0.39],
        size=[0.027, 0, 0],
    )


def _add_arm(torso, classes, side):
    body = classes["body"]
    m = -1 if side == "right" else 1
    shoulder1_axis = [2, 1, 1] if side == "right" else [2, -1, 1]
    shoulder_range = [-85, 60] if side == "right" else [-60, 85]
    elbow_axis = [0, -1, 1] if side == "right" else [0, -1, -1]
    upper = torso.add_body(name=f"{side}_upper_arm", pos=[0, 0.17 * m, 0.06])
    upper.add_joint(body, name=f"{side}_shoulder1", axis=shoulder1_axis, range=shoulder_range)
    upper.add_geom(
        body,
        name=f"{side}_upper_arm",
        fromto=[0, 0, 0, 0.16, 0.16 * m, -0.16],
        size=[0.04, 0.16, 0],
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
    lower.add_geom(
        body, name=f"{side}_hand", type=_SPHERE, pos=[0.18, -0.18 * m, 0.18], size=[0.04, 0, 0]
    )


def make_spec():
    """Returns the simple humanoid (physics timestep 5 ms, standing, torso 1.29 m up).

    Joint order (qpos): the free root, then `JOINT_NAMES`; one actuator per hinge,
    in that order, controls in [-1, 1].
    """
    spec = mujoco.MjSpec()
    spec.modelname = "simple_humanoid"
    spec.option.timestep = 0.005
    common.add_suite_look(spec, ("self",))
    classes = humanoid._add_defaults(spec)
    body = classes["body"]
    world = spec.worldbody
    world.add_light(name="light", pos=[0, 0, 4], dir=[0, 0, -1])
    world.add_geom(
        name="floor",
        type=mujoco.mjtGeom.mjGEOM_PLANE,
        conaffinity=1,
        size=[100, 100, 0.2],
        material="grid",
    )
    # Standing: the feet's capsules 5 mm above the floor.
    torso = world.add_body(name="torso", pos=[0, 0, _STANDING_TORSO_HEIGHT_M], childclass="body")
    torso.add_camera(
        name="side",
        pos=[0, -3, 1],
        xyaxes=[1, 0, 0, 0, 1, 2],
        mode=mujoco.mjtCamLight.mjCAMLIGHT_TRACKCOM,
    )
    torso.add_freejoint(name="root")
    torso.add_geom(body, name="torso", fromto=[0, -0.07, 0, 0, 0.07, 0], size=[0.07, 0, 0])
    torso.add_geom(
        body,
        name="upper_waist",
        fromto=[-0.01, -0.06, -0.12, -0.01, 0.06, -0.12],
        size=[0.06, 0, 0],
    )
    torso.add_geom(body, name="head", type=_SPHERE, pos=[0, 0, 0.19], size=[0.09, 0, 0])

    pelvis = torso.add_body(name="pelvis", pos=[-0.01, 0, -0.26])
    pelvis.add_joint(
        classes["big_stiff_joint"],
        name="abdomen_z",
        pos=[0, 0, 0.065],
        axis=[0, 0, 1],
        range=[-45, 45],
    )
    pelvis.add_joint(
        classes["big_joint"], name="abdomen_y", pos=[0, 0, 0.065], axis=[0, 1, 0], range=[-75, 30]
    )
    pelvis.add_geom(body, name="lower_waist", fromto=[0, -0.06, 0, 0, 0.06, 0], size=[0.06, 0, 0])
    pelvis.add_geom(
        body,
        name="butt",
        fromto=[-0.02, -0.07, -_PELVIS_BELOW_WAIST_M, -0.02, 0.07, -_PELVIS_BELOW_WAIST_M],
        size=[0.09, 0, 0],
    )
    _add_leg(pelvis, classes, "right")
    _add_leg(pelvis, classes, "left")
    _add_arm(torso, classes, "right")
    _add_arm(torso, classes, "left")
    for name in JOINT_NAMES:
        spec.add_actuator(
            name=name,
            target=name,
            trntype=mujoco.mjtTrn.mjTRN_JOINT,
            gear=[_GEARS[name], 0, 0, 0, 0, 0],
        )
    return spec
