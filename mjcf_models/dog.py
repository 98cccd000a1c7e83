"""The Control Suite dog: a 73-hinge skeletal dog with 38 filtered actuators.

`make_spec(floor_size, with_ball)` builds the model as a `mujoco.MjSpec`. It is
the suite's dog (dm_control 1.0.50, `suite/dog.xml`) with the same bodies,
joints, tendons, actuators, sensors, contact shapes and exclusions, in the same
order. The published bones are meshes, which may not be copied and which also
set the bodies' masses; here every body's mass, centre of mass and principal
inertia are set explicitly to the published compiled values, the bones are left
out, and the dog is drawn with its collision primitives (the published model
hides them in geom group 3; here they are in group 0 with the suite's `self`
material). Since no bone mesh collides in the published model (contype and
conaffinity 0), contacts are the published ones.

The numbers come from `mjcf_models.dog_facts`, written from the compiled
published model by `tests/conformance/extract_dog_facts.py` (metres, radians,
kilograms). Model-wide settings are the published defaults, cited below.
"""

import mujoco

from mjcf_models import common, dog_facts

# suite/dog.xml <option>: 5 ms physics steps and 4 no-slip solver iterations.
_TIMESTEP = 0.005
_NOSLIP_ITERATIONS = 4
# suite/dog.xml <default>: every hinge is limited with these limit solver parameters.
_JOINT_SOLREF_LIMIT = (0.01, 1)
_JOINT_SOLIMP_LIMIT = (0.9, 0.99, 0.01, 0.5, 2)
# suite/dog.xml <default><general>: controls in [-1, 1] pass a first-order filter
# with a 50 ms time constant; the force is gain * activation.
_CONTROL_RANGE = (-1, 1)
_FILTER_TIME_CONSTANT = 0.05
# suite/dog.xml <statistic> and <visual>.
_MEAN_SIZE = 0.01
_EXTENT = 1.0
_ZNEAR = 0.001
_OFFSCREEN_SIZE = (1920, 1080)
# The published tennis ball is textured; here it is plain yellow-green.
_BALL_RGBA = (0.8, 0.9, 0.2, 1)

# Elements only the fetch task has (the published `make_model(remove_ball=True)`
# removes them for stand and the move tasks).
_FETCH_BODIES = ("ball",)
_FETCH_GEOMS = ("target", "wall_px", "wall_py", "wall_nx", "wall_ny")
_FETCH_CAMERAS = ("ball", "head")
_WALL_GEOMS = ("wall_px", "wall_py", "wall_nx", "wall_ny")

# Published geom groups: 3 collision primitives (hidden), 1 visible details.
_HIDDEN_COLLISION_GROUP = 3
# MuJoCo's default geom colour, which lets a material's colour show.
_DEFAULT_GEOM_RGBA = (0.5, 0.5, 0.5, 1)

# Sensors in the published order: (name, type, object type, object).
_SENSOR = mujoco.mjtSensor
_SITE, _BODY = mujoco.mjtObj.mjOBJ_SITE, mujoco.mjtObj.mjOBJ_BODY
SENSORS = (
    ("accelerometer", _SENSOR.mjSENS_ACCELEROMETER, _SITE, "head"),
    ("velocimeter", _SENSOR.mjSENS_VELOCIMETER, _SITE, "head"),
    ("gyro", _SENSOR.mjSENS_GYRO, _SITE, "head"),
    ("torso_linvel", _SENSOR.mjSENS_SUBTREELINVEL, _BODY, "torso"),
    ("torso_angmom", _SENSOR.mjSENS_SUBTREEANGMOM, _BODY, "torso"),
    ("palm_L", _SENSOR.mjSENS_TOUCH, _SITE, "palm_L"),
    ("palm_R", _SENSOR.mjSENS_TOUCH, _SITE, "palm_R"),
    ("sole_L", _SENSOR.mjSENS_TOUCH, _SITE, "sole_L"),
    ("sole_R", _SENSOR.mjSENS_TOUCH, _SITE, "sole_R"),
    ("foot_L", _SENSOR.mjSENS_FORCE, _SITE, "foot_anchor_L"),
    ("foot_R", _SENSOR.mjSENS_FORCE, _SITE, "foot_anchor_R"),
    ("hand_L", _SENSOR.mjSENS_FORCE, _SITE, "hand_anchor_L"),
    ("hand_R", _SENSOR.mjSENS_FORCE, _SITE, "hand_anchor_R"),
)


def make_spec(floor_size: float = 10, with_ball: bool = False) -> mujoco.MjSpec:
    """Returns the dog as a new `mujoco.MjSpec`.

    Args:
      floor_size: half-width (m) of the square floor; the published tasks use the
        target speed times the 15 s episode (15, 45, 135 m) or 10 m for fetch.
      with_ball: add the fetch task's ball, target, walls and ball cameras.

    Raises:
      ValueError: if `floor_size` is not a positive number.
    """
    if not floor_size > 0:
        raise ValueError(f"floor_size must be a positive length in metres, got {floor_size!r}")
    spec = mujoco.MjSpec()
    spec.modelname = "dog"
    spec.compiler.degree = False  # The facts are in radians.
    spec.option.timestep = _TIMESTEP
    spec.option.noslip_iterations = _NOSLIP_ITERATIONS
    spec.stat.meansize = _MEAN_SIZE
    spec.stat.extent = _EXTENT
    common.add_suite_look(spec, ("self", "decoration", "target"))
    spec.add_material(name="ball", rgba=list(_BALL_RGBA))
    spec.visual.map.znear = _ZNEAR
    spec.visual.global_.offwidth, spec.visual.global_.offheight = _OFFSCREEN_SIZE
    spec.default.joint.limited = mujoco.mjtLimited.mjLIMITED_TRUE
    spec.default.joint.solref_limit = list(_JOINT_SOLREF_LIMIT)
    spec.default.joint.solimp_limit = list(_JOINT_SOLIMP_LIMIT)

    skipped_bodies = () if with_ball else _FETCH_BODIES
    skipped_geoms = () if with_ball else _FETCH_GEOMS
    bodies = {"world": spec.worldbody}
    for name, parent, pos, quat, mass, ipos, iquat, inertia in dog_facts.BODIES:
        if name in skipped_bodies:
            continue
        bodies[name] = bodies[parent].add_body(
            name=name,
            pos=list(pos),
            quat=list(quat),
            mass=mass,
            ipos=list(ipos),
            iquat=list(iquat),
            inertia=list(inertia),
            explicitinertial=True,
        )
    bodies["torso"].add_light(
        name="light", pos=[0, 0, 3], mode=mujoco.mjtCamLight.mjCAMLIGHT_TRACKCOM
    )

    for (
        name,
        body,
        joint_type,
        pos,
        axis,
        joint_range,
        stiffness,
        damping,
        armature,
        springref,
        group,
    ) in dog_facts.JOINTS:
        if body not in bodies:
            continue
        if joint_type == "free":
            bodies[body].add_freejoint(name=name, group=group)
            continue
        # MuJoCo 4 takes stiffness and damping as polynomials; the published are linear.
        bodies[body].add_joint(
            name=name,
            type=mujoco.mjtJoint.mjJNT_HINGE,
            pos=list(pos),
            axis=list(axis),
            range=list(joint_range),
            stiffness=[stiffness, 0, 0],
            damping=[damping, 0, 0],
            armature=armature,
            springref=springref,
            group=group,
        )

    for (
        name,
        body,
        geom_type,
        size,
        pos,
        quat,
        contype,
        conaffinity,
        condim,
        priority,
        friction,
        solref,
        solimp,
        group,
        rgba,
    ) in dog_facts.GEOMS:
        if body not in bodies or name in skipped_geoms:
            continue
        geom = bodies[body].add_geom(
            name=name,
            type=getattr(mujoco.mjtGeom, geom_type),
            size=list(size),
            pos=list(pos),
            quat=list(quat),
            contype=contype,
            conaffinity=conaffinity,
            condim=condim,
            priority=priority,
            friction=list(friction),
            solref=list(solref),
            solimp=list(solimp),
            group=group,
            rgba=list(rgba),
        )
        _set_look(geom, name, body)
    if not with_ball:
        spec.geom("floor").size = [floor_size, floor_size, spec.geom("floor").size[2]]
    elif floor_size != fetch_floor_size():
        raise ValueError(
            f"the fetch arena's floor is {fetch_floor_size()} m (its walls "
            f"stand at its edge), got floor_size={floor_size!r}"
        )

    for name, body, site_type, size, pos, quat, group in dog_facts.SITES:
        bodies[body].add_site(
            name=name,
            type=getattr(mujoco.mjtGeom, site_type),
            size=list(size),
            pos=list(pos),
            quat=list(quat),
            group=group,
        )

    tendons = {}
    for tendon, joint, coefficient in dog_facts.TENDON_JOINTS:
        if tendon not in tendons:
            tendons[tendon] = spec.add_tendon(name=tendon)
        tendons[tendon].wrap_joint(joint, coefficient)

    for name, transmission, target, gain in dog_facts.ACTUATORS:
        trntype = (
            mujoco.mjtTrn.mjTRN_TENDON if transmission == "tendon" else mujoco.mjtTrn.mjTRN_JOINT
        )
        spec.add_actuator(
            name=name,
            target=target,
            trntype=trntype,
            dyntype=mujoco.mjtDyn.mjDYN_FILTER,
            dynprm=[_FILTER_TIME_CONSTANT] + [0] * 9,
            gaintype=mujoco.mjtGain.mjGAIN_FIXED,
            gainprm=[gain] + [0] * 9,
            biastype=mujoco.mjtBias.mjBIAS_NONE,
            ctrllimited=mujoco.mjtLimited.mjLIMITED_TRUE,
            ctrlrange=list(_CONTROL_RANGE),
        )

    for first, second in dog_facts.EXCLUDES:
        spec.add_exclude(name=f"{first}:{second}", bodyname1=first, bodyname2=second)

    for name, body, mode, target, pos, quat, fovy in dog_facts.CAMERAS:
        if not with_ball and name in _FETCH_CAMERAS:
            continue
        camera = bodies[body].add_camera(
            name=name,
            mode=getattr(mujoco.mjtCamLight, mode),
            pos=list(pos),
            quat=list(quat),
            fovy=fovy,
        )
        if target is not None:
            camera.targetbody = target

    for name, sensor_type, object_type, object_name in SENSORS:
        spec.add_sensor(name=name, type=sensor_type, objtype=object_type, objname=object_name)
    return spec


def fetch_floor_size() -> float:
    """Half-width (m) of the published fetch arena's floor."""
    return next(size[0] for name, _, _, size, *_ in dog_facts.GEOMS if name == "floor")


def _set_look(geom, name, body):
    """Draws the dog with its collision primitives; colours the scenery."""
    if name == "floor":
        geom.material = "grid"
    elif name in _WALL_GEOMS:
        geom.material = "decoration"
    elif name == "target":
        geom.material = "target"
    elif name == "ball":
        geom.material = "ball"
    elif body != "world" and geom.group == _HIDDEN_COLLISION_GROUP:
        geom.group = 0
        geom.material = "self"
        # MuJoCo draws a geom's own rgba unless it is the default one.
        geom.rgba = list(_DEFAULT_GEOM_RGBA)
