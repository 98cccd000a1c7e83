"""The Control Suite's ball-in-cup: a cup on two springy actuated slides, a ball tied
to it by a string.

Facts (names, dimensions, gears, springs, damping, string length) are those of
dm_control 1.0.50 `suite/ball_in_cup.xml` and `suite/common/*.xml`. Lengths are
in metres; everything moves in the world's x-z plane. The physics timestep is
MuJoCo's default, 2 ms, as in the published model.
"""

import mujoco

from mjcf_models import common

_MOTOR_GEAR = 5.0  # N per unit control
_CUP_SLIDE_DAMPING = 3.0  # N s/m
_CUP_SLIDE_STIFFNESS = 20.0  # N/m: pulls the cup back to its rest position
_CUP_WALL_RADIUS = 0.008
_STRING_LENGTH = 0.3  # maximum ball-to-cup-bottom distance
_STRING_WIDTH = 0.003
BALL_RADIUS = 0.025
# Half-extents (x, y, z) of the box inside the cup the ball's centre must reach.
TARGET_HALF_SIZE = (0.05, 0.006, 0.05)


def make_spec():
    """Returns the ball-in-cup model: cup slides `cup_x`, `cup_z` (actuated) and
    ball slides `ball_x`, `ball_z`, in that order."""
    spec = mujoco.MjSpec()
    spec.modelname = "ball_in_cup"
    spec.compiler.degree = True
    common.add_suite_look(spec, ("self", "effector"))

    default = spec.default
    default.actuator.ctrllimited = mujoco.mjtLimited.mjLIMITED_TRUE
    default.actuator.ctrlrange = [-1, 1]
    default.actuator.gear = [_MOTOR_GEAR, 0, 0, 0, 0, 0]
    cup_class = spec.add_default("cup", default)
    cup_class.joint.type = mujoco.mjtJoint.mjJNT_SLIDE
    cup_class.joint.damping = [_CUP_SLIDE_DAMPING, 0, 0]
    cup_class.joint.stiffness = [_CUP_SLIDE_STIFFNESS, 0, 0]
    cup_class.geom.type = mujoco.mjtGeom.mjGEOM_CAPSULE
    cup_class.geom.size = [_CUP_WALL_RADIUS, 0, 0]
    cup_class.geom.material = "self"

    world = spec.worldbody
    world.add_light(
        name="light",
        type=mujoco.mjtLightType.mjLIGHT_DIRECTIONAL,
        pos=[0, 0, 2],
        dir=[0, 0, -1],
        diffuse=[0.6, 0.6, 0.6],
        specular=[0.3, 0.3, 0.3],
    )
    world.add_geom(
        name="ground", type=mujoco.mjtGeom.mjGEOM_PLANE, size=[0.6, 0.2, 10], material="grid"
    )
    world.add_camera(name="cam0", pos=[0, -1, 0.8], xyaxes=[1, 0, 0, 0, 1, 2])
    world.add_camera(name="cam1", pos=[0, -1, 0.4], xyaxes=[1, 0, 0, 0, 0, 1])

    cup = world.add_body(name="cup", pos=[0, 0, 0.6], childclass="cup")
    cup.add_joint(name="cup_x", axis=[1, 0, 0])
    cup.add_joint(name="cup_z", axis=[0, 0, 1])
    # The cup's cross-section: two walls, two chamfers and a bottom.
    outline = [
        (-0.05, 0),
        (-0.05, -0.075),
        (-0.025, -0.1),
        (0.025, -0.1),
        (0.05, -0.075),
        (0.05, 0),
    ]
    for index, ((x0, z0), (x1, z1)) in enumerate(zip(outline[:-1], outline[1:])):
        cup.add_geom(name=f"cup_part_{index}", fromto=[x0, 0, z0, x1, 0, z1])
    # String anchors are MuJoCo's default 5 mm sites.
    cup.add_site(name="cup", pos=[0, 0, -0.108])
    cup.add_site(
        name="target",
        type=mujoco.mjtGeom.mjGEOM_BOX,
        pos=[0, 0, -0.05],
        size=list(TARGET_HALF_SIZE),
        group=4,
    )
    ball = world.add_body(name="ball", pos=[0, 0, 0.2])
    ball.add_joint(name="ball_x", type=mujoco.mjtJoint.mjJNT_SLIDE, axis=[1, 0, 0])
    ball.add_joint(name="ball_z", type=mujoco.mjtJoint.mjJNT_SLIDE, axis=[0, 0, 1])
    ball.add_geom(
        name="ball",
        type=mujoco.mjtGeom.mjGEOM_SPHERE,
        size=[BALL_RADIUS, 0, 0],
        material="effector",
    )
    ball.add_site(name="ball")

    joint = mujoco.mjtTrn.mjTRN_JOINT
    spec.add_actuator(name="x", target="cup_x", trntype=joint)
    spec.add_actuator(name="z", target="cup_z", trntype=joint)

    # The string is a length-limited spatial tendon: slack below 0.3 m, taut at it.
    string = spec.add_tendon(
        name="string",
        limited=mujoco.mjtLimited.mjLIMITED_TRUE,
        range=[0, _STRING_LENGTH],
        width=_STRING_WIDTH,
    )
    string.wrap_site("ball")
    string.wrap_site("cup")
    return spec
