"""The Control Suite's CMU humanoid: 56 torque-driven hinges on a free root.

`make_spec()` builds the model as a `mujoco.MjSpec`. This is the suite's
`humanoid_CMU` (dm_control 1.0.50, `suite/humanoid_CMU.xml`; Tassa et al. 2018,
§6.2 and Merel et al. 2017), not the locomotion walker of
`composer_tasks.walkers.cmu_humanoid`: the suite's body has its own segment
lengths (e.g. the shin is 0.405693 m, the walker's unscaled CMU skeleton has
0.415693 m), neck and arm offsets, capsule sizes, joint stiffnesses and dampings,
masses from geom volumes at 1000 kg/m^3 (the walker is rescaled to 70 kg), and
direct torque motors (the walker has filtered position servos). So the skeleton
is authored here; every number and name below is a fact of the published model.

Frames and units: the skeleton follows the CMU convention (y along the bone,
the root turned by a 90-degree x rotation so that y points up in the world);
lengths in metres, angles in degrees (the spec keeps MuJoCo's default
`compiler.degree`), gears in N·m per unit of control. The qpos layout is the
free root (x, y, z, quaternion) followed by the 56 hinges in the order of the
bodies and joints of `_SKELETON`.
"""

import mujoco

from mjcf_models import common

_CAPSULE = mujoco.mjtGeom.mjGEOM_CAPSULE
_SPHERE = mujoco.mjtGeom.mjGEOM_SPHERE
_ELLIPSOID = mujoco.mjtGeom.mjGEOM_ELLIPSOID
_BOX = mujoco.mjtGeom.mjGEOM_BOX
_TRACK_COM = mujoco.mjtCamLight.mjCAMLIGHT_TRACKCOM

# Joint classes of the published model: (stiffness N·m/rad, damping N·m·s/rad).
# None is the humanoid default (0.1, 1).
_LOW, _MEDIUM, _HIGH = "stiff_low", "stiff_medium", "stiff_high"
_JOINT_CLASSES = {_LOW: (0.5, 4), _MEDIUM: (10, 5), _HIGH: (30, 10)}

# The spine and neck joints' published ranges (degrees), with the class given.
_SPINE = (("z", -30, 30), ("y", -30, 30), ("x", -20, 45))


def _spine(joint_class):
    return tuple(axis_range + (joint_class,) for axis_range in _SPINE)


def _capsule(name, size, **frame):
    return (name, _CAPSULE, size, frame)


def _sphere(name, pos):
    return (name, _SPHERE, (0.02,), {"pos": pos})


# The published bodies, parents first: (name, parent, frame in the parent
# (keyword arguments of add_body), hinges, geoms). A hinge is (axis letter,
# lower, upper (degrees), class) and is named body + "r" + axis, turning about
# that axis of the body frame. A geom is (name, type, size, frame keywords).
# Capsule sizes are (radius, half-length).
_SKELETON = (
    (
        "lhipjoint",
        "root",
        {},
        (),
        (
            _capsule(
                "lhipjoint",
                (0.008, 0.022),
                pos=(0.051, -0.046, 0.025),
                quat=(0.5708, -0.566602, -0.594264, 0),
            ),
        ),
    ),
    (
        "lfemur",
        "lhipjoint",
        {"pos": (0.102, -0.092, 0.05), "quat": (1, 0, 0, 0.17365)},
        (("z", -60, 70, _MEDIUM), ("y", -70, 70, _MEDIUM), ("x", -160, 20, _MEDIUM)),
        (
            _capsule(
                "lfemur", (0.06, 0.17), pos=(-0.01, -0.202473, 0), quat=(0.7, -0.7, -0.1228, -0.07)
            ),
        ),
    ),
    (
        "ltibia",
        "lfemur",
        {"pos": (0, -0.404945, 0)},
        (("x", 1, 170, _LOW),),
        (
            _capsule(
                "ltibia",
                (0.03, 0.1825614),
                pos=(0, -0.202846, 0),
                quat=(0.7, -0.7, -0.1228, -0.1228),
            ),
            _capsule(
                "lcalf", (0.045, 0.08), pos=(0, -0.1, -0.01), quat=(0.7, -0.7, -0.1228, -0.1228)
            ),
        ),
    ),
    (
        "lfoot",
        "ltibia",
        {"pos": (0, -0.405693, 0), "quat": (0.707107, -0.707107, 0, 0)},
        (("z", -70, 20, _MEDIUM), ("x", -45, 90, _MEDIUM)),
        (
            _capsule("lfoot0", (0.02, 0.06), pos=(-0.02, -0.023, -0.01), euler=(100, -2, 0)),
            _capsule("lfoot1", (0.02, 0.06), pos=(0, -0.023, -0.01), euler=(100, 0, 0)),
            _capsule("lfoot2", (0.02, 0.06), pos=(0.01, -0.023, -0.01), euler=(100, 10, 0)),
        ),
    ),
    (
        "ltoes",
        "lfoot",
        {"pos": (0, -0.106372, -0.0227756)},
        (("x", -90, 20, None),),
        (
            _sphere("ltoes0", (-0.025, -0.01, -0.01)),
            _sphere("ltoes1", (0, -0.005, -0.01)),
            _sphere("ltoes2", (0.02, 0.001, -0.01)),
        ),
    ),
    (
        "rhipjoint",
        "root",
        {},
        (),
        (
            _capsule(
                "rhipjoint",
                (0.008, 0.022),
                pos=(-0.051, -0.046, 0.025),
                quat=(0.574856, -0.547594, 0.608014, 0),
            ),
        ),
    ),
    (
        "rfemur",
        "rhipjoint",
        {"pos": (-0.102, -0.092, 0.05), "quat": (1, 0, 0, -0.17365)},
        (("z", -70, 60, _MEDIUM), ("y", -70, 70, _MEDIUM), ("x", -160, 20, _MEDIUM)),
        (
            _capsule(
                "rfemur", (0.06, 0.17), pos=(0.01, -0.202473, 0), quat=(0.7, -0.7, 0.1228, 0.07)
            ),
        ),
    ),
    (
        "rtibia",
        "rfemur",
        {"pos": (0, -0.404945, 0)},
        (("x", 1, 170, _LOW),),
        (
            _capsule(
                "rtibia", (0.03, 0.1825614), pos=(0, -0.202846, 0), quat=(0.7, -0.7, 0.1228, 0.1228)
            ),
            # The published right calf has the left calf's orientation.
            _capsule(
                "rcalf", (0.045, 0.08), pos=(0, -0.1, -0.01), quat=(0.7, -0.7, -0.1228, -0.1228)
            ),
        ),
    ),
    (
        "rfoot",
        "rtibia",
        {"pos": (0, -0.405693, 0), "quat": (0.707107, -0.707107, 0, 0)},
        (("z", -20, 70, _MEDIUM), ("x", -45, 90, _MEDIUM)),
        (
            _capsule("rfoot0", (0.02, 0.06), pos=(0.02, -0.023, -0.01), euler=(100, 2, 0)),
            _capsule("rfoot1", (0.02, 0.06), pos=(0, -0.023, -0.01), euler=(100, 0, 0)),
            _capsule("rfoot2", (0.02, 0.06), pos=(-0.01, -0.023, -0.01), euler=(100, -10, 0)),
        ),
    ),
    (
        "rtoes",
        "rfoot",
        {"pos": (0, -0.106372, -0.0227756)},
        (("x", -90, 20, None),),
        (
            _sphere("rtoes0", (0.025, -0.01, -0.01)),
            _sphere("rtoes1", (0, -0.005, -0.01)),
            _sphere("rtoes2", (-0.02, 0.001, -0.01)),
        ),
    ),
    (
        "lowerback",
        "root",
        {},
        _spine(_HIGH),
        (_capsule("lowerback", (0.065, 0.055), pos=(0, 0.056, 0.03), quat=(1, 0, 1, 0)),),
    ),
    (
        "upperback",
        "lowerback",
        {"pos": (0, 0.1, -0.01)},
        _spine(_HIGH),
        (_capsule("upperback", (0.06, 0.06), pos=(0, 0.06, 0.02), quat=(1, 0, 1, 0)),),
    ),
    (
        "thorax",
        "upperback",
        {"pos": (0.000512528, 0.11356, 0.000936821)},
        _spine(_HIGH),
        (_capsule("thorax", (0.08, 0.07), pos=(0, 0.05, 0), quat=(1, 0, 1, 0)),),
    ),
    (
        "lowerneck",
        "thorax",
        {"pos": (0, 0.113945, 0.00468037)},
        _spine(_MEDIUM),
        (_capsule("lowerneck", (0.08, 0.02), pos=(0, 0.04, -0.02), quat=(1, 1, 0, 0)),),
    ),
    (
        "upperneck",
        "lowerneck",
        {"pos": (0, 0.09, 0.01)},
        _spine(_MEDIUM),
        (_capsule("upperneck", (0.05, 0.03), pos=(0, 0.05, 0), quat=(0.8, 1, 0, 0)),),
    ),
    (
        "head",
        "upperneck",
        {"pos": (0, 0.09, 0)},
        _spine(_MEDIUM),
        (
            _capsule("head", (0.085, 0.035), pos=(0, 0.11, 0.03), quat=(1, 0.9, 0, 0)),
            _sphere("leye", (0.03, 0.11, 0.1)),
            _sphere("reye", (-0.03, 0.11, 0.1)),
        ),
    ),
    (
        "lclavicle",
        "thorax",
        {"pos": (0, 0.113945, 0.00468037)},
        (("z", 0, 20, _HIGH), ("y", -20, 10, _HIGH)),
        (_capsule("lclavicle", (0.08, 0.04), pos=(0.09, 0.05, -0.01), quat=(1, 0, -1, -0.4)),),
    ),
    (
        "lhumerus",
        "lclavicle",
        {"pos": (0.183, 0.076, 0.01), "quat": (0.18, 0.68, -0.68, 0.18)},
        (("z", -90, 90, _LOW), ("y", -90, 90, _LOW), ("x", -60, 90, _LOW)),
        (
            _capsule(
                "lhumerus", (0.035, 0.124), pos=(0, -0.138, 0), quat=(0.612, -0.612, 0.35, 0.35)
            ),
        ),
    ),
    (
        "lradius",
        "lhumerus",
        {"pos": (0, -0.277, 0)},
        (("x", -10, 170, _LOW),),
        (_capsule("lradius", (0.03, 0.06), pos=(0, -0.08, 0), quat=(0.612, -0.612, 0.35, 0.35)),),
    ),
    (
        "lwrist",
        "lradius",
        {"pos": (0, -0.17, 0), "quat": (-0.5, 0, 0.866, 0)},
        (("y", -180, 0, None),),
        (_capsule("lwrist", (0.025, 0.03), pos=(0, -0.02, 0), quat=(0, 0, -1, -1)),),
    ),
    (
        "lhand",
        "lwrist",
        {"pos": (0, -0.08, 0)},
        (("z", -45, 45, None), ("x", -90, 90, None)),
        (
            (
                "lhand",
                _ELLIPSOID,
                (0.048, 0.02, 0.06),
                {"pos": (0, -0.047, 0), "quat": (0, 0, -1, -1)},
            ),
        ),
    ),
    (
        "lfingers",
        "lhand",
        {"pos": (0, -0.08, 0)},
        (("x", 0, 90, None),),
        (
            _capsule("lfinger0", (0.01, 0.04), pos=(-0.03, -0.05, 0), quat=(1, -1, 0, 0)),
            _capsule("lfinger1", (0.01, 0.04), pos=(-0.008, -0.06, 0), quat=(1, -1, 0, 0)),
            _capsule("lfinger2", (0.009, 0.04), pos=(0.014, -0.06, 0), quat=(1, -1, 0, 0)),
            _capsule("lfinger3", (0.008, 0.04), pos=(0.032, -0.05, 0), quat=(1, -1, 0, 0)),
        ),
    ),
    (
        "lthumb",
        "lhand",
        {"pos": (-0.02, -0.03, 0), "quat": (0.92388, 0, 0, -0.382683)},
        (("z", -45, 45, None), ("x", 0, 90, None)),
        (_capsule("lthumb", (0.012, 0.04), pos=(0, -0.06, 0), quat=(0, 0, -1, -1)),),
    ),
    (
        "rclavicle",
        "thorax",
        {"pos": (0, 0.113945, 0.00468037)},
        (("z", -20, 0, _HIGH), ("y", -10, 20, _HIGH)),
        (_capsule("rclavicle", (0.08, 0.04), pos=(-0.09, 0.05, -0.01), quat=(1, 0, -1, 0.4)),),
    ),
    (
        "rhumerus",
        "rclavicle",
        {"pos": (-0.183, 0.076, 0.01), "quat": (0.18, 0.68, 0.68, -0.18)},
        (("z", -90, 90, _LOW), ("y", -90, 90, _LOW), ("x", -60, 90, _LOW)),
        (
            _capsule(
                "rhumerus", (0.035, 0.124), pos=(0, -0.138, 0), quat=(0.61, -0.61, -0.35, -0.35)
            ),
        ),
    ),
    (
        "rradius",
        "rhumerus",
        {"pos": (0, -0.277, 0)},
        (("x", -10, 170, _LOW),),
        (_capsule("rradius", (0.03, 0.06), pos=(0, -0.08, 0), quat=(0.612, -0.612, -0.35, -0.35)),),
    ),
    (
        "rwrist",
        "rradius",
        {"pos": (0, -0.17, 0), "quat": (-0.5, 0, -0.866, 0)},
        (("y", -180, 0, None),),
        (_capsule("rwrist", (0.025, 0.03), pos=(0, -0.02, 0), quat=(0, 0, 1, 1)),),
    ),
    (
        "rhand",
        "rwrist",
        {"pos": (0, -0.08, 0)},
        (("z", -45, 45, None), ("x", -90, 90, None)),
        (
            (
                "rhand",
                _ELLIPSOID,
                (0.048, 0.02, 0.06),
                {"pos": (0, -0.047, 0), "quat": (0, 0, 1, 1)},
            ),
        ),
    ),
    (
        "rfingers",
        "rhand",
        {"pos": (0, -0.08, 0)},
        (("x", 0, 90, None),),
        (
            _capsule("rfinger0", (0.01, 0.04), pos=(0.03, -0.05, 0), quat=(1, -1, 0, 0)),
            _capsule("rfinger1", (0.01, 0.04), pos=(0.008, -0.06, 0), quat=(1, -1, 0, 0)),
            _capsule("rfinger2", (0.009, 0.04), pos=(-0.014, -0.06, 0), quat=(1, -1, 0, 0)),
            _capsule("rfinger3", (0.008, 0.04), pos=(-0.032, -0.05, 0), quat=(1, -1, 0, 0)),
        ),
    ),
    (
        "rthumb",
        "rhand",
        {"pos": (0.02, -0.03, 0), "quat": (0.92388, 0, 0, 0.382683)},
        (("z", -45, 45, None), ("x", 0, 90, None)),
        (_capsule("rthumb", (0.012, 0.04), pos=(0, -0.06, 0), quat=(0, 0, 1, 1)),),
    ),
)

# Foot and toe touch sites: (body, site, type, size, frame keywords). A foot's
# site is its first element, a toe's its last (the published order).
_TOUCH_SITES = {
    "lfoot": (
        "lfoot_touch",
        _BOX,
        (0.04, 0.08, 0.02),
        {"pos": (-0.005, -0.02, -0.025), "euler": (10, 0, 0)},
    ),
    "ltoes": (
        "ltoes_touch",
        _CAPSULE,
        (0.025, 0.02),
        {"pos": (-0.005, -0.005, -0.01), "zaxis": (1, 0.2, 0)},
    ),
    "rfoot": (
        "rfoot_touch",
        _BOX,
        (0.04, 0.08, 0.02),
        {"pos": (0.005, -0.02, -0.025), "euler": (10, 0, 0)},
    ),
    "rtoes": (
        "rtoes_touch",
        _CAPSULE,
        (0.025, 0.02),
        {"pos": (0.005, -0.005, -0.01), "zaxis": (1, -0.2, 0)},
    ),
}

# Body pairs that never collide (the published <contact> excludes).
_EXCLUDED_PAIRS = (
    ("lclavicle", "rclavicle"),
    ("lowerneck", "lclavicle"),
    ("lowerneck", "rclavicle"),
    ("upperneck", "lclavicle"),
    ("upperneck", "rclavicle"),
)


def _gear(joint_name):
    """Published motor gear (N·m per unit of control) of a joint's actuator."""
    if joint_name.endswith("femurrx"):
        return 120
    if joint_name.endswith("tibiarx"):
        return 80
    big = ("femurry", "femurrz", "humerus", "radiusrx", "back", "thorax")
    return 40 if any(part in joint_name for part in big) else 20


JOINT_NAMES = tuple(f"{body}r{axis}" for body, _, _, hinges, _ in _SKELETON for axis, *_ in hinges)
# The published motors: one per hinge, in alphabetical order of joint names.
ACTUATOR_NAMES = tuple(sorted(JOINT_NAMES))
# Sensors in the published order: the thorax subtree's linear velocity, the root
# site's velocimeter, gyro and accelerometer, and the four touch sensors.
_TOUCH_SENSORS = ("ltoes", "rtoes", "rfoot", "lfoot")


def _add_defaults(spec):
    """The published default classes: returns {class name: MjsDefault}."""
    main = spec.default
    main.joint.limited = mujoco.mjtLimited.mjLIMITED_TRUE
    main.joint.solimp_limit = [0, 0.99, 0.01, 0.5, 2]
    # MuJoCo 4 takes stiffness and damping as polynomials; the published are linear.
    main.joint.stiffness = [0.1, 0, 0]
    main.joint.armature = 0.01
    main.joint.damping = [1, 0, 0]
    main.geom.friction = [0.7, 0.005, 0.0001]
    main.geom.solref = [0.015, 1]
    main.geom.solimp = [0.95, 0.99, 0.003, 0.5, 2]
    main.actuator.ctrllimited = mujoco.mjtLimited.mjLIMITED_TRUE
    main.actuator.ctrlrange = [-1, 1]

    humanoid = spec.add_default("humanoid", main)
    humanoid.geom.type = _CAPSULE
    humanoid.geom.material = "self"
    classes = {"humanoid": humanoid}
    for name, (stiffness, damping) in _JOINT_CLASSES.items():
        joint_class = spec.add_default(name, humanoid)
        joint_class.joint.stiffness = [stiffness, 0, 0]
        joint_class.joint.damping = [damping, 0, 0]
        classes[name] = joint_class
    touch = spec.add_default("touch", humanoid)
    touch.site.group = 3
    touch.site.rgba = [0, 0, 1, 0.5]
    classes["touch"] = touch
    return classes


def make_spec() -> mujoco.MjSpec:
    """Returns the suite's CMU humanoid as a new `mujoco.MjSpec` (timestep 2 ms,
    MuJoCo's default, as published)."""
    spec = mujoco.MjSpec()
    spec.modelname = "humanoid_CMU"
    spec.stat.extent = 2
    spec.stat.center = [0, 0, 1]
    common.add_suite_look(spec, ("self",))
    classes = _add_defaults(spec)
    humanoid, touch = classes["humanoid"], classes["touch"]

    world = spec.worldbody
    world.add_geom(
        name="floor",
        type=mujoco.mjtGeom.mjGEOM_PLANE,
        conaffinity=1,
        size=[100, 100, 0.2],
        material="grid",
    )
    world.add_light(name="tracking_light", pos=[0, 0, 7], dir=[0, 0, -1], mode=_TRACK_COM)
    world.add_camera(name="back", pos=[0, 3, 2.4], xyaxes=[-1, 0, 0, 0, -1, 2], mode=_TRACK_COM)
    world.add_camera(name="side", pos=[-3, 0, 2.4], xyaxes=[0, -1, 0, 1, 0, 2], mode=_TRACK_COM)

    root = world.add_body(name="root", childclass="humanoid", pos=[0, 0, 1], euler=[90, 0, 0])
    root.add_site(humanoid, name="root", size=[0.01, 0.005, 0.005], rgba=[0.5, 0.5, 0.5, 0])
    root.add_freejoint(name="root")
    root.add_geom(
        humanoid, name="root_geom", size=[0.09, 0.06, 0], pos=[0, -0.05, 0], quat=[1, 0, -1, 0]
    )
    bodies = {"root": root}
    for name, parent, frame, hinges, geoms in _SKELETON:
        body = bodies[parent].add_body(name=name, **frame)
        bodies[name] = body
        if name == "head":
            body.add_camera(name="egocentric", xyaxes=[-1, 0, 0, 0, 1, 0], fovy=80)
        if name.endswith("foot"):
            _add_touch_site(body, touch, name)
        for axis, lower, upper, joint_class in hinges:
            body.add_joint(
                classes[joint_class or "humanoid"],
                name=f"{name}r{axis}",
                type=mujoco.mjtJoint.mjJNT_HINGE,
                axis=[float(axis == letter) for letter in "xyz"],
                range=[lower, upper],
            )
        for geom_name, geom_type, size, geom_frame in geoms:
            body.add_geom(
                humanoid,
                name=geom_name,
                type=geom_type,
                size=list(size) + [0] * (3 - len(size)),
                **geom_frame,
            )
        if name.endswith("toes"):
            _add_touch_site(body, touch, name)

    for first, second in _EXCLUDED_PAIRS:
        spec.add_exclude(bodyname1=first, bodyname2=second)
    for name in ACTUATOR_NAMES:
        spec.add_actuator(
            name=name,
            target=name,
            trntype=mujoco.mjtTrn.mjTRN_JOINT,
            gear=[_gear(name), 0, 0, 0, 0, 0],
        )

    sensor, site = mujoco.mjtSensor, mujoco.mjtObj.mjOBJ_SITE
    spec.add_sensor(
        name="thorax_subtreelinvel",
        type=sensor.mjSENS_SUBTREELINVEL,
        objtype=mujoco.mjtObj.mjOBJ_BODY,
        objname="thorax",
    )
    spec.add_sensor(
        name="sensor_root_veloc", type=sensor.mjSENS_VELOCIMETER, objtype=site, objname="root"
    )
    spec.add_sensor(name="sensor_root_gyro", type=sensor.mjSENS_GYRO, objtype=site, objname="root")
    spec.add_sensor(
        name="sensor_root_accel", type=sensor.mjSENS_ACCELEROMETER, objtype=site, objname="root"
    )
    for name in _TOUCH_SENSORS:
        spec.add_sensor(
            name=f"sensor_touch_{name}",
            type=sensor.mjSENS_TOUCH,
            objtype=site,
            objname=f"{name}_touch",
        )
    return spec


def _add_touch_site(body, touch, body_name):
    site_name, site_type, size, frame = _TOUCH_SITES[body_name]
    body.add_site(
        touch, name=site_name, type=site_type, size=list(size) + [0.005] * (3 - len(size)), **frame
    )
