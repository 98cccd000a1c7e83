"""The Control Suite quadruped: a torso on four three-joint legs with tendon-driven actuators.

`make_spec(...)` builds the model as a `mujoco.MjSpec`. Every number and element
name is a fact of the published model (dm_control 1.0.50, `suite/quadruped.xml`
and the variants `suite/quadruped.py:make_model` derives from it): geometry in
metres, joint ranges in degrees (`compiler.degree`), masses from the geoms at the
published densities (500 kg/m^3 for the legs, 1000 for the torso and the ball),
actuator gains in N (or N m) per unit of activation.

Frames: world z up; the torso's x axis points forward. Each leg has a yaw hinge
(about the hip's z), a pitch hinge and knee and ankle hinges (about the hip's y);
the hip frames are turned by +-45 and +-135 degrees about z so that the legs point
diagonally away from the torso. An equality constraint on the tendon
`coupling_<leg>` holds (pitch + knee + ankle)/3 at zero, so each leg has two
actuated shape coordinates besides its yaw: `lift` (pitch - ankle)/2 and `extend`
(pitch/4 - knee/2 + ankle/4), both driven by first-order filtered actuators
(time constant 0.1 s) with a position-like affine bias.

qpos layout: the free root joint (x, y, z, quaternion), then per leg (front_left,
front_right, back_right, back_left) yaw, pitch, knee, ankle; with the ball
(`walls_and_ball`), its free joint `ball_root` after them.
"""

import mujoco

from mjcf_models import common

_TIMESTEP_S = 0.005
# Leg order of the published model (fixes joint, actuator and sensor order) and
# each hip's place on the torso (m) and heading about z (degrees).
LEGS = (
    ("front_left", (0.2, 0.2, 0), 45),
    ("front_right", (0.2, -0.2, 0), -45),
    ("back_right", (-0.2, -0.2, 0), -135),
    ("back_left", (-0.2, 0.2, 0), 135),
)
# Sensors at the toes, by kind, in the published order (differs from LEGS').
_TOE_SENSOR_ORDER = ("front_left", "front_right", "back_right", "back_left")
_TORSO_HEIGHT_M = 0.57
# Heightfield of the escape terrain: 201 x 201 samples over 60 m x 60 m, 5 m of
# elevation range and a 0.1 m base below it (suite/quadruped.xml).
HFIELD_SAMPLES = 201
_HFIELD_SIZE = (30, 30, 5, 0.1)
# Published floor half-size (m) when a task does not set one.
_DEFAULT_FLOOR_SIZE_M = 15
# Twenty rangefinders looking ahead from the torso's front, each a capsule site
# from (x0, y0, z0) to (x1, 0, z1) (m, torso frame): four rows of five.
_RANGEFINDERS = tuple(
    (f"rf_{row}{column}", (0.41, y, z0, x1, 0, z1))
    for row, (z0, x1, z1, ys) in enumerate(
        (
            (0.11, 0.34, 0.115, (-0.02, -0.01, 0, 0.01, 0.02)),
            # The published second row repeats -0.02 where -0.01 would continue the pattern.
            (0.1, 0.36, 0.11, (-0.02, -0.02, 0, 0.01, 0.02)),
            (0.09, 0.38, 0.105, (-0.02, -0.01, 0, 0.01, 0.02)),
            (0.08, 0.4, 0.1, (-0.02, -0.01, 0, 0.01, 0.02)),
        )
    )
    for column, y in enumerate(ys)
)
# Walls of the fetch arena: (name, position (m), outward normal of the plane).
_WALLS = (
    ("wall_px", (-15.7, 0, 0.7), (1, 0, 1), (1, 15, 0.5)),
    ("wall_py", (0, -15.7, 0.7), (0, 1, 1), (15, 1, 0.5)),
    ("wall_nx", (15.7, 0, 0.7), (-1, 0, 1), (1, 15, 0.5)),
    ("wall_ny", (0, 15.7, 0.7), (0, -1, 1), (15, 1, 0.5)),
)
# Actuator kinds per leg, in the published order, with their control ranges.
_ACTUATOR_CTRLRANGE = (("yaw", (-1, 1)), ("lift", (-1, 1.1)), ("extend", (-0.8, 0.8)))
# Filtered actuators: activation time constant (s), gain and position bias (N or N m).
_ACTUATOR_TIME_CONSTANT_S = 0.1
_ACTUATOR_GAIN = 1000

# Rangefinder data specification (sensor intprm[0]): the distance only.
_RANGEFINDER_DISTANCE = 1

_HINGE = mujoco.mjtJoint.mjJNT_HINGE
_CAPSULE = mujoco.mjtGeom.mjGEOM_CAPSULE
_SPHERE = mujoco.mjtGeom.mjGEOM_SPHERE
_TRACK_COM = mujoco.mjtCamLight.mjCAMLIGHT_TRACKCOM


def _add_defaults(spec):
    """The published default classes: returns {class name: MjsDefault}."""
    main = spec.default
    main.geom.solimp = [0.9, 0.99, 0.003, 0.5, 2]
    main.geom.solref = [0.01, 1]
    main.actuator.ctrllimited = mujoco.mjtLimited.mjLIMITED_TRUE
    main.actuator.dyntype = mujoco.mjtDyn.mjDYN_FILTER
    main.actuator.dynprm[0] = _ACTUATOR_TIME_CONSTANT_S
    main.actuator.gaintype = mujoco.mjtGain.mjGAIN_FIXED
    main.actuator.gainprm[0] = _ACTUATOR_GAIN
    main.actuator.biastype = mujoco.mjtBias.mjBIAS_AFFINE
    main.actuator.biasprm[:3] = [0, -_ACTUATOR_GAIN, 0]

    body = spec.add_default("body", main)
    body.geom.type = _CAPSULE
    body.geom.size = [0.08, 0, 0]
    body.geom.condim = 1
    body.geom.material = "self"
    body.geom.density = 500
    body.joint.type = _HINGE
    body.joint.damping = [30, 0, 0]
    body.joint.armature = 0.01
    body.joint.limited = mujoco.mjtLimited.mjLIMITED_TRUE
    body.joint.solimp_limit = [0, 0.99, 0.01, 0.5, 2]
    hip = spec.add_default("hip", body)
    hip.geom.fromto = [0, 0, 0, 0.3, 0, 0.11]
    yaw = spec.add_default("yaw", hip)
    yaw.joint.axis = [0, 0, 1]
    yaw.joint.range = [-50, 50]
    pitch = spec.add_default("pitch", hip)
    pitch.joint.axis = [0, 1, 0]
    pitch.joint.range = [-20, 60]
    knee = spec.add_default("knee", body)
    knee.joint.axis = [0, 1, 0]
    knee.joint.range = [-60, 50]
    knee.geom.size = [0.065, 0, 0]
    knee.geom.fromto = [0, 0, 0, 0.25, 0, -0.25]
    ankle = spec.add_default("ankle", body)
    ankle.joint.axis = [0, 1, 0]
    ankle.joint.range = [-45, 55]
    ankle.geom.size = [0.055, 0, 0]
    ankle.geom.fromto = [0, 0, 0, 0, 0, -0.25]
    toe = spec.add_default("toe", body)
    toe.geom.type = _SPHERE
    toe.geom.size = [0.08, 0, 0]
    toe.geom.material = "effector"
    toe.geom.friction = [1.5, 0.005, 0.0001]
    toe.site.type = _SPHERE
    toe.site.size = [0.084, 0.005, 0.005]
    toe.site.material = "site"
    toe.site.group = 4
    rangefinder = spec.add_default("rangefinder", main)
    rangefinder.site.type = _CAPSULE
    rangefinder.site.size = [0.005, 0.1, 0.005]
    rangefinder.site.material = "site"
    rangefinder.site.group = 4
    wall = spec.add_default("wall", main)
    wall.geom.type = mujoco.mjtGeom.mjGEOM_PLANE
    wall.geom.material = "decoration"
    coupling = spec.add_default("coupling", main)
    coupling.equality.solimp = [0.95, 0.99, 0.01, 0.5, 2]
    coupling.equality.solref = [0.005, 0.5]
    classes = {
        "body": body,
        "hip": hip,
        "yaw": yaw,
        "pitch": pitch,
        "knee": knee,
        "ankle": ankle,
        "toe": toe,
        "rangefinder": rangefinder,
        "wall": wall,
        "coupling": coupling,
    }
    for name, ctrlrange in _ACTUATOR_CTRLRANGE:
        classes[f"{name}_act"] = spec.add_default(f"{name}_act", main)
        classes[f"{name}_act"].actuator.ctrlrange = list(ctrlrange)
    return classes


def _add_leg(torso, classes, leg, hip_pos, heading_deg):
    hip = torso.add_body(
        name=f"hip_{leg}", pos=list(hip_pos), euler=[0, 0, heading_deg], childclass="hip"
    )
    hip.add_joint(name=f"yaw_{leg}", default=classes["yaw"])
    hip.add_joint(name=f"pitch_{leg}", default=classes["pitch"])
    hip.add_geom(name=f"thigh_{leg}")
    knee = hip.add_body(name=f"knee_{leg}", pos=[0.3, 0, 0.11], childclass="knee")
    knee.add_joint(name=f"knee_{leg}")
    knee.add_geom(name=f"shin_{leg}")
    ankle = knee.add_body(name=f"ankle_{leg}", pos=[0.25, 0, -0.25], childclass="ankle")
    ankle.add_joint(name=f"ankle_{leg}")
    ankle.add_geom(name=f"foot_{leg}")
    toe = ankle.add_body(name=f"toe_{leg}", pos=[0, 0, -0.3], childclass="toe")
    toe.add_geom(name=f"toe_{leg}")
    toe.add_site(name=f"toe_{leg}")


def make_spec(floor_size=None, terrain=False, rangefinders=False, walls_and_ball=False):
    """Returns the quadruped model.

    Args:
      floor_size: half-size (m) of the square floor plane; None for the published 15.
      terrain: add the `terrain` heightfield geom (flat until a task draws it).
      rangefinders: add the twenty rangefinder sensors (their sites are always there).
      walls_and_ball: add the fetch arena's four inclined walls, the ball (a free
        body) and the `target` site at the origin.

    Raises:
      ValueError: if `floor_size` is given and not a positive number.
    """
    if floor_size is not None and not floor_size > 0:
        raise ValueError(f"floor_size must be a positive number of metres, got {floor_size!r}")
    spec = mujoco.MjSpec()
    spec.modelname = "quadruped"
    spec.compiler.degree = True
    spec.option.timestep = _TIMESTEP_S
    common.add_suite_look(spec, ("self", "effector", "decoration", "eye", "target", "site"))
    spec.visual.map.znear = 0.005
    spec.visual.map.zfar = 20
    spec.visual.rgba.rangefinder = [1, 1, 0.1, 0.1]
    classes = _add_defaults(spec)
    # Every variant has the heightfield, as the published model (which removes the
    # terrain geom, not its asset, when there is no terrain).
    # Flat: the escape task draws the elevations at each episode's start.
    spec.add_hfield(
        name="terrain",
        nrow=HFIELD_SAMPLES,
        ncol=HFIELD_SAMPLES,
        size=list(_HFIELD_SIZE),
        userdata=[0.0] * HFIELD_SAMPLES**2,
    )
    # The ball's texture and material exist in every variant, as in the published
    # model, which removes the fetch arena's elements but keeps its assets.
    spec.add_texture(
        name="ball",
        # The published texture gives no type: MuJoCo's default, a cube.
        type=mujoco.mjtTexture.mjTEXTURE_CUBE,
        builtin=mujoco.mjtBuiltin.mjBUILTIN_CHECKER,
        mark=mujoco.mjtMark.mjMARK_CROSS,
        width=151,
        height=151,
        rgb1=[0.1, 0.1, 0.1],
        rgb2=[0.9, 0.9, 0.9],
        markrgb=[1, 1, 1],
    )
    ball_material = spec.add_material(name="ball")
    ball_material.textures[mujoco.mjtTextureRole.mjTEXROLE_RGB] = "ball"

    world = spec.worldbody
    half = _DEFAULT_FLOOR_SIZE_M if floor_size is None else floor_size
    world.add_geom(
        name="floor", type=mujoco.mjtGeom.mjGEOM_PLANE, size=[half, half, 0.5], material="grid"
    )
    if walls_and_ball:
        for name, pos, normal, size in _WALLS:
            world.add_geom(
                name=name,
                default=classes["wall"],
                pos=list(pos),
                zaxis=list(normal),
                size=list(size),
            )
        world.add_site(
            name="target",
            type=mujoco.mjtGeom.mjGEOM_CYLINDER,
            size=[0.4, 0.06, 0.005],
            pos=[0, 0, 0.05],
            material="target",
        )
    if terrain:
        world.add_geom(
            name="terrain",
            type=mujoco.mjtGeom.mjGEOM_HFIELD,
            hfieldname="terrain",
            rgba=[0.2, 0.3, 0.4, 1],
            pos=[0, 0, -0.01],
        )
    world.add_camera(name="global", pos=[-10, 10, 10], xyaxes=[-1, -1, 0, 1, 0, 1], mode=_TRACK_COM)

    torso = world.add_body(name="torso", pos=[0, 0, _TORSO_HEIGHT_M], childclass="body")
    torso.add_freejoint(name="root")
    torso.add_camera(name="x", pos=[-1.7, 0, 1], xyaxes=[0, -1, 0, 0.75, 0, 1], mode=_TRACK_COM)
    torso.add_camera(name="y", pos=[0, 4, 2], xyaxes=[-1, 0, 0, 0, -0.5, 1], mode=_TRACK_COM)
    torso.add_camera(name="egocentric", pos=[0.3, 0, 0.11], xyaxes=[0, -1, 0, 0.4, 0, 1], fovy=60)
    torso.add_light(name="light", pos=[0, 0, 4], mode=_TRACK_COM)
    for side, y in (("r", -0.07), ("l", 0.07)):
        torso.add_geom(
            name=f"eye_{side}",
            type=mujoco.mjtGeom.mjGEOM_CYLINDER,
            size=[0.05, 0, 0],
            fromto=[0.1, y, 0.12, 0.31, y, 0.08],
            mass=0,
        )
        torso.add_site(
            name=f"pupil_{side}",
            type=_SPHERE,
            size=[0.033, 0.005, 0.005],
            pos=[0.3, y, 0.08],
            zaxis=[1, 0, 0],
            material="eye",
        )
    torso.add_site(
        name="workspace",
        type=_SPHERE,
        size=[0.3, 0.3, 0.3],
        material="site",
        pos=[0.8, 0, -0.2],
        group=3,
    )
    for name, fromto in _RANGEFINDERS:
        torso.add_site(name=name, default=classes["rangefinder"], fromto=list(fromto))
    torso.add_geom(
        name="torso", type=mujoco.mjtGeom.mjGEOM_ELLIPSOID, size=[0.3, 0.27, 0.2], density=1000
    )
    torso.add_site(
        name="torso_touch",
        type=mujoco.mjtGeom.mjGEOM_BOX,
        size=[0.26, 0.26, 0.26],
        rgba=[0, 0, 1, 0],
    )
    torso.add_site(name="torso", size=[0.05, 0.005, 0.005], rgba=[1, 0, 0, 1])
    for leg, hip_pos, heading in LEGS:
        _add_leg(torso, classes, leg, hip_pos, heading)

    if walls_and_ball:
        ball = world.add_body(name="ball", pos=[0, 0, 3])
        ball.add_freejoint(name="ball_root")
        ball.add_geom(
            name="ball",
            type=_SPHERE,
            size=[0.15, 0, 0],
            material="ball",
            priority=1,
            condim=6,
            friction=[0.7, 0.005, 0.005],
            solref=[-10000, -30],
        )
        ball.add_light(name="ball_light", pos=[0, 0, 4], mode=_TRACK_COM)

    # Tendons: the coupling of each leg (held at zero by an equality), then per leg
    # its `extend` and `lift` shape coordinates (coefficients per joint).
    for leg, *_ in LEGS:
        coupling = spec.add_tendon(name=f"coupling_{leg}")
        for joint in ("pitch", "knee", "ankle"):
            coupling.wrap_joint(f"{joint}_{leg}", 0.333)
    for leg, *_ in LEGS:
        extend = spec.add_tendon(name=f"extend_{leg}")
        for joint, coefficient in (("pitch", 0.25), ("knee", -0.5), ("ankle", 0.25)):
            extend.wrap_joint(f"{joint}_{leg}", coefficient)
        lift = spec.add_tendon(name=f"lift_{leg}")
        for joint, coefficient in (("pitch", 0.5), ("ankle", -0.5)):
            lift.wrap_joint(f"{joint}_{leg}", coefficient)
    # Equality data: the polynomial (0, 1, 0, 0, 0) of a tendon equality (length =
    # 0 for a tendon without a partner), then MJCF's default weld torque scale of
    # 1 at index 10 that the published compiled model carries (unused here).
    equality_data = [0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0]
    for leg, *_ in LEGS:
        spec.add_equality(
            name=f"coupling_{leg}",
            default=classes["coupling"],
            type=mujoco.mjtEq.mjEQ_TENDON,
            objtype=mujoco.mjtObj.mjOBJ_TENDON,
            name1=f"coupling_{leg}",
            data=equality_data,
        )
    for leg, *_ in LEGS:
        for kind, _ in _ACTUATOR_CTRLRANGE:
            is_joint = kind == "yaw"
            spec.add_actuator(
                name=f"{kind}_{leg}",
                default=classes[f"{kind}_act"],
                target=f"{kind}_{leg}",
                trntype=mujoco.mjtTrn.mjTRN_JOINT if is_joint else mujoco.mjtTrn.mjTRN_TENDON,
            )

    site_sensor = mujoco.mjtObj.mjOBJ_SITE
    for name, kind in (
        ("imu_accel", mujoco.mjtSensor.mjSENS_ACCELEROMETER),
        ("imu_gyro", mujoco.mjtSensor.mjSENS_GYRO),
        ("velocimeter", mujoco.mjtSensor.mjSENS_VELOCIMETER),
    ):
        spec.add_sensor(name=name, type=kind, objtype=site_sensor, objname="torso")
    for kind, sensor_type in (
        ("force", mujoco.mjtSensor.mjSENS_FORCE),
        ("torque", mujoco.mjtSensor.mjSENS_TORQUE),
    ):
        for leg in _TOE_SENSOR_ORDER:
            spec.add_sensor(
                name=f"{kind}_toe_{leg}",
                type=sensor_type,
                objtype=site_sensor,
                objname=f"toe_{leg}",
            )
    spec.add_sensor(
        name="center_of_mass",
        type=mujoco.mjtSensor.mjSENS_SUBTREECOM,
        objtype=mujoco.mjtObj.mjOBJ_BODY,
        objname="torso",
    )
    if rangefinders:
        for name, _ in _RANGEFINDERS:
            # intprm[0] selects the outputs; 1 is the distance alone (MJCF's default).
            spec.add_sensor(
                name=name,
                type=mujoco.mjtSensor.mjSENS_RANGEFINDER,
                objtype=site_sensor,
                objname=name,
                intprm=[_RANGEFINDER_DISTANCE, 0, 0],
            )
    return spec
