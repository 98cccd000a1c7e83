"""The Control Suite point mass: a 0.3 kg ball sliding in a walled 0.6 m square,
pushed along x and y by two tendon motors.

Physical facts (mass, sizes, damping, joint ranges, gears, timestep, camera
placements, colours) are those of dm_control 1.0.50's `suite/point_mass.xml` and
`suite/common/*.xml`; element names are the published ones.

Each motor drives a fixed tendon whose length is a linear combination of the two
slide joints (coefficients in `model.wrap_prm`): "t1" = root_x, "t2" = root_y as
built; the hard task re-mixes them per episode.

Frames and units: world z is up, the ball slides in the world x-y plane; lengths
in metres, masses in kilograms, forces in newtons.
"""

import mujoco

from mjcf_models import common

# suite/point_mass.xml: <option timestep="0.02">, Euler integrator (the default),
# contacts disabled (the walls are decoration: the joint limits keep the ball in).
_TIMESTEP_S = 0.02
_BALL_MASS_KG = 0.3
_BALL_RADIUS_M = 0.01
_BALL_HEIGHT_M = 0.01
_TARGET_RADIUS_M = 0.015
# Slide joints: limited to +-0.29 m (the walls stand at +-0.3 m), 1 N s/m damping.
_JOINT_RANGE_M = (-0.29, 0.29)
_JOINT_DAMPING = 1.0
# Motors: control in [-1, 1] times gear 0.1 is the tendon force in newtons.
_MOTOR_GEAR = 0.1
# Arena: a 0.6 m square floor; walls are 2 cm high planes at its edges.
_ARENA_HALF_SIZE_M = 0.3
_WALL_HALF_HEIGHT_M = 0.02


def make_spec():
    """Returns the point-mass model.

    Joint order (qpos/qvel layout): root_x, root_y. Actuator order: t1, t2, each
    driving the tendon of the same name.
    """
    spec = mujoco.MjSpec()
    spec.modelname = "planar point mass"
    spec.option.timestep = _TIMESTEP_S
    spec.option.disableflags |= mujoco.mjtDisableBit.mjDSBL_CONTACT
    common.add_suite_look(spec, ("self", "decoration", "target"))

    world = spec.worldbody
    world.add_light(name="light", pos=[0, 0, 1], dir=[0, 0, -1])
    world.add_camera(name="fixed", pos=[0, 0, 0.75], quat=[1, 0, 0, 0])
    half = _ARENA_HALF_SIZE_M
    world.add_geom(
        name="ground",
        type=mujoco.mjtGeom.mjGEOM_PLANE,
        pos=[0, 0, 0],
        size=[half, half, 0.1],
        material="grid",
    )
    # Each wall is a plane facing the arena's centre.
    for name, pos, normal, size in (
        ("wall_x", [-half, 0, 0], [1, 0, 0], [0.02, half]),
        ("wall_y", [0, -half, 0], [0, 1, 0], [half, 0.02]),
        ("wall_neg_x", [half, 0, 0], [-1, 0, 0], [0.02, half]),
        ("wall_neg_y", [0, half, 0], [0, -1, 0], [half, 0.02]),
    ):
        pos[2] = _WALL_HALF_HEIGHT_M
        wall = world.add_geom(
            name=name,
            type=mujoco.mjtGeom.mjGEOM_PLANE,
            pos=pos,
            size=size + [_WALL_HALF_HEIGHT_M],
            material="decoration",
        )
        wall.alt.type = mujoco.mjtOrientation.mjORIENTATION_ZAXIS
        wall.alt.zaxis = normal

    ball = world.add_body(name="pointmass", pos=[0, 0, _BALL_HEIGHT_M])
    # A camera riding with the ball, looking at it from behind and above.
    follow = ball.add_camera(name="cam0", pos=[0, -0.3, 0.3])
    follow.alt.type = mujoco.mjtOrientation.mjORIENTATION_XYAXES
    follow.alt.xyaxes = [1, 0, 0, 0, 0.7, 0.7]
    for name, axis in (("root_x", [1, 0, 0]), ("root_y", [0, 1, 0])):
        ball.add_joint(
            name=name,
            type=mujoco.mjtJoint.mjJNT_SLIDE,
            pos=[0, 0, 0],
            axis=axis,
            limited=mujoco.mjtLimited.mjLIMITED_TRUE,
            range=list(_JOINT_RANGE_M),
            damping=_JOINT_DAMPING,
        )
    ball.add_geom(
        name="pointmass",
        type=mujoco.mjtGeom.mjGEOM_SPHERE,
        size=[_BALL_RADIUS_M, 0, 0],
        mass=_BALL_MASS_KG,
        material="self",
    )
    world.add_geom(
        name="target",
        type=mujoco.mjtGeom.mjGEOM_SPHERE,
        pos=[0, 0, _BALL_HEIGHT_M],
        size=[_TARGET_RADIUS_M, 0, 0],
        material="target",
    )

    for name, coefficients in (("t1", (1, 0)), ("t2", (0, 1))):
        tendon = spec.add_tendon(name=name)
        # Both joints appear in both tendons, even with coefficient 0, so that
        # `wrap_prm` holds a full 2x2 mixing matrix the hard task can rewrite.
        tendon.wrap_joint("root_x", coefficients[0])
        tendon.wrap_joint("root_y", coefficients[1])
        spec.add_actuator(
            name=name,
            target=name,
            trntype=mujoco.mjtTrn.mjTRN_TENDON,
            gear=[_MOTOR_GEAR, 0, 0, 0, 0, 0],
            ctrllimited=mujoco.mjtLimited.mjLIMITED_TRUE,
            ctrlrange=[-1, 1],
        )
    return spec
