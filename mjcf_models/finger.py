"""The Control Suite's finger: a two-link planar finger flicks a free-spinning body.

Facts (names, dimensions, gears, damping, friction, solver settings, sensors)
are those of dm_control 1.0.50 `suite/finger.xml` and `suite/common/*.xml`.
Lengths are in metres, angles in degrees (the spec's compiler setting). Every
joint turns about the world's -y axis, so the motion is in the x-z plane.
"""

import mujoco

from mjcf_models import common

_TIMESTEP = 0.01  # seconds
_SOLVER_ITERATIONS = 200
# Soft contacts shared by every geom: (dmin, dmax, width) and (timeconst, dampratio).
_GEOM_SOLIMP = [0, 0.9, 0.01, 0.5, 2]
_GEOM_SOLREF = [0.02, 1]
_FINGER_DAMPING = 2.5
_FINGER_RANGE_DEG = [-110.0, 110.0]
_PROXIMAL_REF_DEG = -90.0  # the proximal joint's zero hangs the finger straight down
_PROXIMAL_GEAR = 30.0
_DISTAL_GEAR = 15.0
_HINGE_DAMPING = 0.5
_HINGE_FRICTIONLOSS = 0.1
SPINNER_HALF_LENGTH = 0.09
SPINNER_RADIUS = 0.04
DEFAULT_TARGET_RADIUS = 0.03


def make_spec():
    """Returns the finger model: a proximal and a distal hinge (limited, damped)
    driven by motors, and a spinner on a passive hinge with dry friction."""
    spec = mujoco.MjSpec()
    spec.modelname = "finger"
    spec.compiler.degree = True
    spec.option.timestep = _TIMESTEP
    spec.option.cone = mujoco.mjtCone.mjCONE_ELLIPTIC
    spec.option.iterations = _SOLVER_ITERATIONS
    spec.option.disableflags |= mujoco.mjtDisableBit.mjDSBL_GRAVITY
    common.add_suite_look(spec, ("self", "effector", "decoration", "target", "site"))

    default = spec.default
    default.geom.solimp = _GEOM_SOLIMP
    default.geom.solref = _GEOM_SOLREF
    default.joint.type = mujoco.mjtJoint.mjJNT_HINGE
    default.joint.axis = [0, -1, 0]
    default.actuator.ctrllimited = mujoco.mjtLimited.mjLIMITED_TRUE
    default.actuator.ctrlrange = [-1, 1]
    finger_class = spec.add_default("finger", default)
    finger_class.joint.damping = [_FINGER_DAMPING, 0, 0]
    finger_class.joint.limited = mujoco.mjtLimited.mjLIMITED_TRUE
    # Touch-sensor volumes around the fingertip, hidden in group 3.
    finger_class.site.type = mujoco.mjtGeom.mjGEOM_ELLIPSOID
    finger_class.site.size = [0.025, 0.03, 0.025]
    finger_class.site.material = "site"
    finger_class.site.group = 3

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

    capsule = mujoco.mjtGeom.mjGEOM_CAPSULE
    cylinder = mujoco.mjtGeom.mjGEOM_CYLINDER
    proximal = world.add_body(name="proximal", pos=[-0.2, 0, 0.4], childclass="finger")
    proximal.add_geom(
        name="proximal_decoration",
        type=cylinder,
        fromto=[0, -0.033, 0, 0, 0.033, 0],
        size=[0.034, 0, 0],
        material="decoration",
    )
    proximal.add_joint(name="proximal", range=_FINGER_RANGE_DEG, ref=_PROXIMAL_REF_DEG)
    proximal.add_geom(
        name="proximal",
        type=capsule,
        size=[0.03, 0, 0],
        fromto=[0, 0, 0, 0, 0, -0.17],
        material="self",
    )
    distal = proximal.add_body(name="distal", pos=[0, 0, -0.18], childclass="finger")
    distal.add_joint(name="distal", range=_FINGER_RANGE_DEG)
    # Only the fingertip collides; the rest of the distal link is visual.
    distal.add_geom(
        name="distal",
        type=capsule,
        size=[0.028, 0, 0],
        fromto=[0, 0, 0, 0, 0, -0.16],
        contype=0,
        conaffinity=0,
        material="self",
    )
    distal.add_geom(
        name="fingertip",
        type=capsule,
        size=[0.03, 0, 0],
        fromto=[0, 0, -0.13, 0, 0, -0.161],
        material="effector",
    )
    distal.add_site(name="touchtop", pos=[0.01, 0, -0.17])
    distal.add_site(name="touchbottom", pos=[-0.01, 0, -0.17])

    spinner = world.add_body(name="spinner", pos=[0.2, 0, 0.4])
    spinner.add_joint(
        name="hinge", frictionloss=_HINGE_FRICTIONLOSS, damping=[_HINGE_DAMPING, 0, 0]
    )
    for name, x in (("cap1", 0.02), ("cap2", -0.02)):
        spinner.add_geom(
            name=name,
            type=capsule,
            size=[SPINNER_RADIUS, SPINNER_HALF_LENGTH, 0],
            pos=[x, 0, 0],
            material="self",
        )
    # Sphere sites set only their radius; the other sizes keep MuJoCo's defaults.
    tip = spinner.add_site(
        name="tip", type=mujoco.mjtGeom.mjGEOM_SPHERE, pos=[0, 0, 0.13], material="target"
    )
    tip.size[0] = 0.02
    spinner.add_geom(
        name="spinner_decoration",
        type=cylinder,
        fromto=[0, -0.045, 0, 0, 0.045, 0],
        size=[0.02, 0, 0],
        material="decoration",
    )
    # The turn tasks move the target onto the tip's circle and set its radius.
    target = world.add_site(
        name="target", type=mujoco.mjtGeom.mjGEOM_SPHERE, pos=[0, 0, 0.4], material="target"
    )
    target.size[0] = DEFAULT_TARGET_RADIUS

    joint = mujoco.mjtTrn.mjTRN_JOINT
    spec.add_actuator(
        name="proximal", target="proximal", trntype=joint, gear=[_PROXIMAL_GEAR, 0, 0, 0, 0, 0]
    )
    spec.add_actuator(
        name="distal", target="distal", trntype=joint, gear=[_DISTAL_GEAR, 0, 0, 0, 0, 0]
    )

    # Every observation is a function of sensors (published design: finite differences
    # of the observation need only the sensor stage).
    sensor = mujoco.mjtSensor
    site, xbody = mujoco.mjtObj.mjOBJ_SITE, mujoco.mjtObj.mjOBJ_XBODY
    joint_obj = mujoco.mjtObj.mjOBJ_JOINT
    for name, kind, objtype, objname in (
        ("proximal", sensor.mjSENS_JOINTPOS, joint_obj, "proximal"),
        ("distal", sensor.mjSENS_JOINTPOS, joint_obj, "distal"),
        ("proximal_velocity", sensor.mjSENS_JOINTVEL, joint_obj, "proximal"),
        ("distal_velocity", sensor.mjSENS_JOINTVEL, joint_obj, "distal"),
        ("hinge_velocity", sensor.mjSENS_JOINTVEL, joint_obj, "hinge"),
        ("tip", sensor.mjSENS_FRAMEPOS, site, "tip"),
        ("target", sensor.mjSENS_FRAMEPOS, site, "target"),
        ("spinner", sensor.mjSENS_FRAMEPOS, xbody, "spinner"),
        ("touchtop", sensor.mjSENS_TOUCH, site, "touchtop"),
        ("touchbottom", sensor.mjSENS_TOUCH, site, "touchbottom"),
        ("touchtop_pos", sensor.mjSENS_FRAMEPOS, site, "touchtop"),
        ("touchbottom_pos", sensor.mjSENS_FRAMEPOS, site, "touchbottom"),
    ):
        spec.add_sensor(name=name, type=kind, objtype=objtype, objname=objname)
    return spec
