"""The Control Suite's planar manipulator: a four-link arm with a two-finger hand,
a prop to carry (ball or peg), its target ghost and optionally a receptacle.

Facts (names, element order, dimensions, densities, damping, stiffness, ranges,
gears, contact parameters, tendons, the coupling constraint, sensors) are those
of dm_control 1.0.50 `suite/manipulator.xml` and `suite/common/*.xml`. Lengths
are in metres, angles in degrees (the spec's compiler setting). Every hinge
turns about the world's y axis, so all motion is in the x-z plane.

The published domain builds its four tasks from one file by deleting the props
a task does not use; `make_spec(use_peg, insert)` adds only the props it needs,
in the published order, so element ids and the qpos layout are the same.
"""

import mujoco

from mjcf_models import common

_TIMESTEP = 0.001  # seconds
# Contact softness shared by every geom; limits are stiffer than contacts.
_GEOM_FRICTION = 0.7
_GEOM_SOLIMP = [0.9, 0.97, 0.001, 0.5, 2]
_GEOM_SOLREF = [0.005, 1]
_LIMIT_SOLIMP = [0, 0.99, 0.01, 0.5, 2]
_LIMIT_SOLREF = [0.005, 1]
_ARM_DENSITY = 500.0  # kg/m^3
_SITE_SIZE = [0.003, 0.003, 0.003]
# (link name, joint name, capsule radius, link length, joint damping, range in degrees);
# range None is the unlimited root joint.
_ARM_LINKS = (
    ("upper_arm", "arm_root", 0.02, 0.18, 2.0, None),
    ("middle_arm", "arm_shoulder", 0.017, 0.15, 1.5, (-160, 160)),
    ("lower_arm", "arm_elbow", 0.014, 0.12, 1.0, (-160, 160)),
)
_ARM_BASE_HEIGHT = 0.4
_WRIST_DAMPING = 0.5
_WRIST_RANGE_DEG = (-140, 140)
# (actuator, joint or tendon, gear); every control is in [-1, 1].
_MOTORS = (
    ("root", "arm_root", 12.0),
    ("shoulder", "arm_shoulder", 8.0),
    ("elbow", "arm_elbow", 4.0),
    ("wrist", "arm_wrist", 2.0),
    ("grasp", "grasp", 2.0),
)
_TOUCH_SITES = ("palm_touch", "finger_touch", "thumb_touch", "fingertip_touch", "thumbtip_touch")


def make_spec(use_peg=False, insert=False):
    """Returns the manipulator model.

    Args:
      use_peg: carry a peg (`peg`, `target_peg`) instead of a ball (`ball`, `target_ball`).
      insert: add the receptacle the prop goes into (`slot` for the peg, `cup` for
        the ball).

    The qpos layout is the eight arm joints (`arm_root`, `arm_shoulder`, `arm_elbow`,
    `arm_wrist`, `thumb`, `thumbtip`, `finger`, `fingertip`) then the prop's
    `<prop>_x`, `<prop>_z` (slides, world metres) and `<prop>_y` (hinge).
    """
    if not isinstance(use_peg, bool) or not isinstance(insert, bool):
        raise TypeError(f"use_peg and insert must be bools, got {use_peg!r} and {insert!r}")
    spec = make_arm_spec("manipulator", _GEOM_SOLREF)
    world = spec.worldbody
    if use_peg:
        _add_peg(world, "peg", ghost=False)
        if insert:
            _add_slot(world)
        _add_peg(world, "target_peg", ghost=True)
    else:
        _add_ball(world)
        if insert:
            _add_cup(world)
        _add_target_ball(world)
    return spec


def make_arm_spec(model_name, geom_solref):
    """The arena and the arm, with its tendons, finger coupling, touch sensors and
    motors, without props: what the manipulator and the stacker (dm_control's
    `suite/stacker.xml`, the same arm and arena) share. Props are added to
    `spec.worldbody` after the arm.

    Args:
      model_name: the spec's model name.
      geom_solref: default contact (timeconst s, dampratio): the manipulator's
        (0.005, 1), the stacker's (0.01, 1).
    """
    spec = mujoco.MjSpec()
    spec.modelname = model_name
    spec.compiler.degree = True
    spec.option.timestep = _TIMESTEP
    spec.option.cone = mujoco.mjtCone.mjCONE_ELLIPTIC
    common.add_suite_look(
        spec, ("self", "effector", "decoration", "target", "site"), backdrop_rgb=(0.2, 0.3, 0.4)
    )
    spec.visual.map.shadowclip = 0.5
    _add_defaults(spec, geom_solref)
    world = spec.worldbody
    _add_arena(world)
    _add_arm(spec, world)

    # `grasp` closes both fingers together; `coupling` (held at zero by an equality
    # constraint) keeps them symmetric.
    grasp = spec.add_tendon(name="grasp")
    grasp.wrap_joint("thumb", 0.5)
    grasp.wrap_joint("finger", 0.5)
    coupling = spec.add_tendon(name="coupling")
    coupling.wrap_joint("thumb", -0.5)
    coupling.wrap_joint("finger", 0.5)
    spec.add_equality(
        name="coupling",
        type=mujoco.mjtEq.mjEQ_TENDON,
        objtype=mujoco.mjtObj.mjOBJ_TENDON,
        name1="coupling",
        solimp=[0.95, 0.99, 0.001, 0.5, 2],
        solref=[0.005, 0.5],
    )

    for site in _TOUCH_SITES:
        spec.add_sensor(
            name=site,
            type=mujoco.mjtSensor.mjSENS_TOUCH,
            objtype=mujoco.mjtObj.mjOBJ_SITE,
            objname=site,
        )

    for name, target, gear in _MOTORS:
        trntype = mujoco.mjtTrn.mjTRN_TENDON if target == "grasp" else mujoco.mjtTrn.mjTRN_JOINT
        spec.add_actuator(
            name=name, target=target, trntype=trntype, ctrlrange=[-1, 1], gear=[gear, 0, 0, 0, 0, 0]
        )
    return spec


def _add_defaults(spec, geom_solref):
    main = spec.default
    main.geom.friction = [_GEOM_FRICTION, 0.005, 0.0001]
    main.geom.solimp = _GEOM_SOLIMP
    main.geom.solref = list(geom_solref)
    main.joint.solimp_limit = _LIMIT_SOLIMP
    main.joint.solref_limit = _LIMIT_SOLREF
    main.actuator.ctrllimited = mujoco.mjtLimited.mjLIMITED_TRUE
    main.tendon.width = 0.01
    main.site.size = _SITE_SIZE
    main.site.material = "site"
    main.site.group = 3

    arm = spec.add_default("arm", main)
    arm.geom.type = mujoco.mjtGeom.mjGEOM_CAPSULE
    arm.geom.material = "self"
    arm.geom.density = _ARM_DENSITY
    arm.joint.type = mujoco.mjtJoint.mjJNT_HINGE
    arm.joint.axis = [0, -1, 0]
    arm.joint.limited = mujoco.mjtLimited.mjLIMITED_TRUE

    # The hand's fingers; their touch sites are boxes over the inner faces.
    hand = spec.add_default("hand", arm)
    hand.joint.damping = [0.5, 0, 0]
    hand.joint.range = [-10, 60]
    hand.geom.size = [0.008, 0, 0]
    hand.site.type = mujoco.mjtGeom.mjGEOM_BOX
    hand.site.size = [0.018, 0.005, 0.005]
    hand.site.pos = [0.022, 0, -0.002]
    hand.site.alt.type = mujoco.mjtOrientation.mjORIENTATION_EULER
    hand.site.alt.euler = [0, 15, 0]
    hand.site.group = 4

    fingertip = spec.add_default("fingertip", hand)
    fingertip.geom.type = mujoco.mjtGeom.mjGEOM_SPHERE
    fingertip.geom.size = [0.008, 0, 0]
    fingertip.geom.material = "effector"
    fingertip.joint.damping = [0.01, 0, 0]
    fingertip.joint.stiffness = [0.01, 0, 0]
    fingertip.joint.range = [-40, 20]
    fingertip.site.size = [0.012, 0.005, 0.008]
    fingertip.site.pos = [0.003, 0, 0.003]
    fingertip.site.alt.euler = [0, 0, 0]

    spec.add_default("object", main).geom.material = "self"
    obstacle = spec.add_default("obstacle", main)
    obstacle.geom.material = "decoration"
    obstacle.geom.friction = [0, 0.005, 0.0001]
    ghost = spec.add_default("ghost", main)
    ghost.geom.material = "target"
    ghost.geom.contype = 0
    ghost.geom.conaffinity = 0


def _add_arena(world):
    world.add_light(
        name="light",
        type=mujoco.mjtLightType.mjLIGHT_DIRECTIONAL,
        pos=[0, 0, 1],
        dir=[0, 0, -1],
        diffuse=[0.6, 0.6, 0.6],
        specular=[0.3, 0.3, 0.3],
    )
    plane = mujoco.mjtGeom.mjGEOM_PLANE
    world.add_geom(name="floor", type=plane, size=[0.4, 0.2, 10], material="grid")
    # Two walls at 45 degrees meet the floor's edges and close the workspace.
    world.add_geom(
        name="wall1",
        type=plane,
        pos=[-0.682843, 0, 0.282843],
        size=[0.4, 0.2, 10],
        zaxis=[1, 0, 1],
        material="grid",
    )
    world.add_geom(
        name="wall2",
        type=plane,
        pos=[0.682843, 0, 0.282843],
        size=[0.4, 0.2, 10],
        zaxis=[-1, 0, 1],
        material="grid",
    )
    world.add_geom(
        name="background",
        type=plane,
        pos=[0, 0.2, 0.5],
        size=[1, 0.5, 10],
        zaxis=[0, -1, 0],
        material="background",
    )
    # A far camera with a narrow field of view: a near-orthographic side view.
    world.add_camera(name="fixed", pos=[0, -16, 0.4], xyaxes=[1, 0, 0, 0, 0, 1], fovy=4)


def _add_arm(spec, world):
    world.add_geom(
        name="arm_root",
        type=mujoco.mjtGeom.mjGEOM_CYLINDER,
        fromto=[0, -0.022, _ARM_BASE_HEIGHT, 0, 0.022, _ARM_BASE_HEIGHT],
        size=[0.024, 0, 0],
        material="decoration",
        contype=0,
        conaffinity=0,
    )
    parent, pos = world, [0, 0, _ARM_BASE_HEIGHT]
    for link, joint, radius, length, damping, limits in _ARM_LINKS:
        body = parent.add_body(name=link, pos=pos, childclass="arm")
        if limits is None:
            body.add_joint(
                name=joint, damping=[damping, 0, 0], limited=mujoco.mjtLimited.mjLIMITED_FALSE
            )
        else:
            body.add_joint(name=joint, damping=[damping, 0, 0], range=list(limits))
        body.add_geom(name=link, size=[radius, 0, 0], fromto=[0, 0, 0, 0, 0, length])
        parent, pos = body, [0, 0, length]

    hand = parent.add_body(name="hand", pos=pos, childclass="arm")
    hand.add_joint(name="arm_wrist", damping=[_WRIST_DAMPING, 0, 0], range=list(_WRIST_RANGE_DEG))
    hand.add_geom(name="hand", size=[0.011, 0, 0], fromto=[0, 0, 0, 0, 0, 0.03])
    hand_class = spec.find_default("hand")
    hand.add_geom(name="palm1", fromto=[0, 0, 0.03, 0.03, 0, 0.045], default=hand_class)
    hand.add_geom(name="palm2", fromto=[0, 0, 0.03, -0.03, 0, 0.045], default=hand_class)
    hand.add_site(name="grasp", pos=[0, 0, 0.065])
    # A massless body marks the point between the fingertips; the hand camera follows it.
    pinch = hand.add_body(
        name="pinch site",
        pos=[0, 0, 0.09],
        mass=1e-6,
        ipos=[0, 0, 0],
        inertia=[1e-12, 1e-12, 1e-12],
        explicitinertial=1,
    )
    pinch.add_site(name="pinch")
    pinch.add_camera(
        name="hand",
        pos=[0, -0.3, 0],
        xyaxes=[1, 0, 0, 0, 0, 1],
        mode=mujoco.mjtCamLight.mjCAMLIGHT_TRACK,
    )
    hand.add_site(
        name="palm_touch",
        type=mujoco.mjtGeom.mjGEOM_BOX,
        group=4,
        size=[0.025, 0.005, 0.008],
        pos=[0, 0, 0.043],
    )

    # The thumb and the finger mirror each other across the hand's axis.
    for digit, pos, euler in (
        ("thumb", [0.03, 0, 0.045], [0, -90, 0]),
        ("finger", [-0.03, 0, 0.045], [0, 90, 180]),
    ):
        body = hand.add_body(name=digit, pos=pos, euler=euler, childclass="hand")
        body.add_joint(name=digit)
        body.add_geom(name=f"{digit}1", fromto=[0, 0, 0, 0.02, 0, -0.01], size=[0.007, 0, 0])
        body.add_geom(name=f"{digit}2", fromto=[0.02, 0, -0.01, 0.04, 0, -0.01], size=[0.007, 0, 0])
        body.add_site(name=f"{digit}_touch", group=4)
        tip = body.add_body(name=f"{digit}tip", pos=[0.05, 0, -0.01], childclass="fingertip")
        tip.add_joint(name=f"{digit}tip")
        tip.add_geom(name=f"{digit}tip1", pos=[-0.003, 0, 0])
        tip.add_geom(name=f"{digit}tip2", pos=[0.003, 0, 0])
        tip.add_site(name=f"{digit}tip_touch", group=4)


def _add_prop_joints(body, name, x, z):
    """Planar freedom: slides along world x and z (qpos = world position) and a hinge."""
    slide = mujoco.mjtJoint.mjJNT_SLIDE
    body.add_joint(name=f"{name}_x", type=slide, axis=[1, 0, 0], ref=x)
    body.add_joint(name=f"{name}_z", type=slide, axis=[0, 0, 1], ref=z)
    body.add_joint(name=f"{name}_y", type=mujoco.mjtJoint.mjJNT_HINGE, axis=[0, 1, 0])


def _add_ball(world):
    ball = world.add_body(name="ball", pos=[0.4, 0, 0.4], childclass="object")
    _add_prop_joints(ball, "ball", 0.4, 0.4)
    ball.add_geom(name="ball", type=mujoco.mjtGeom.mjGEOM_SPHERE, size=[0.022, 0, 0])
    ball.add_site(name="ball", type=mujoco.mjtGeom.mjGEOM_SPHERE)


def _add_target_ball(world):
    # Slightly behind the plane of motion so it never hides the ball.
    target = world.add_body(name="target_ball", pos=[0.4, 0.001, 0.4], childclass="ghost")
    target.add_geom(name="target_ball", type=mujoco.mjtGeom.mjGEOM_SPHERE, size=[0.02, 0, 0])
    target.add_site(name="target_ball", type=mujoco.mjtGeom.mjGEOM_SPHERE)


def _add_peg(world, name, ghost):
    """The peg (a small sword: blade, guard and pommel) or its target ghost."""
    capsule, sphere = mujoco.mjtGeom.mjGEOM_CAPSULE, mujoco.mjtGeom.mjGEOM_SPHERE
    if ghost:
        body = world.add_body(name=name, pos=[-0.2, 0.001, 0.4], childclass="ghost")
        prefix = "target_"
    else:
        body = world.add_body(name=name, pos=[-0.4, 0, 0.4], childclass="object")
        _add_prop_joints(body, name, -0.4, 0.4)
        prefix = ""
    body.add_geom(
        name=f"{prefix}blade", type=capsule, size=[0.005, 0, 0], fromto=[0, 0, -0.013, 0, 0, -0.113]
    )
    body.add_geom(
        name=f"{prefix}guard",
        type=capsule,
        size=[0.005, 0, 0],
        fromto=[-0.017, 0, -0.043, 0.017, 0, -0.043],
    )
    if ghost:
        body.add_geom(name="target_pommel", type=sphere, size=[0.009, 0, 0], pos=[0, 0, -0.013])
    else:
        pommel = body.add_body(name="pommel", pos=[0, 0, -0.013], childclass="object")
        pommel.add_geom(name="pommel", type=sphere, size=[0.009, 0, 0])
    box = mujoco.mjtGeom.mjGEOM_BOX
    for suffix, z in (("", -0.063), ("_pinch", -0.025), ("_grasp", 0), ("_tip", -0.113)):
        body.add_site(name=f"{name}{suffix}", type=box, pos=[0, 0, z])


def _add_slot(world):
    slot = world.add_body(
        name="slot", pos=[-0.405, 0, 0.2], euler=[0, 20, 0], childclass="obstacle"
    )
    box = mujoco.mjtGeom.mjGEOM_BOX
    slot.add_geom(name="slot_0", type=box, pos=[-0.0252, 0, -0.083], size=[0.0198, 0.01, 0.035])
    slot.add_geom(name="slot_1", type=box, pos=[0.0252, 0, -0.083], size=[0.0198, 0.01, 0.035])
    slot.add_geom(name="slot_2", type=box, pos=[0, 0, -0.138], size=[0.045, 0.01, 0.02])
    slot.add_site(name="slot", type=box, pos=[0, 0, 0])
    slot.add_site(name="slot_end", type=box, pos=[0, 0, -0.05])


def _add_cup(world):
    cup = world.add_body(name="cup", pos=[0.3, 0, 0.4], euler=[0, -15, 0], childclass="obstacle")
    outline = [(-0.03, 0.06), (-0.03, -0.015), (0, -0.04), (0.03, -0.015), (0.03, 0.06)]
    for index, ((x0, z0), (x1, z1)) in enumerate(zip(outline[:-1], outline[1:])):
        cup.add_geom(
            name=f"cup_{index}",
            type=mujoco.mjtGeom.mjGEOM_CAPSULE,
            size=[0.008, 0, 0],
            fromto=[x0, 0, z0, x1, 0, z1],
        )
    cup_site = cup.add_site(name="cup")
    cup_site.size[0] = 0.005
