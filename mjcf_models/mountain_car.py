"""rllab's mountain car, authored in MuJoCo: a car pushed along a sine-shaped valley.

rllab (Duan et al. 2016, §3.1) simulates it in Box2D (`mountain_car.xml.mako`): a
0.4 x 0.2 m box of density 5 (0.4 kg) on a static chain of 201 points
(x, y) = (W u / 2, 1 + sin((u - 1/2) pi)) for u in [-1, 1] (parser.py `sine_chain`,
height 1 m, width W = 4 m), pushed by a horizontal force in [-1, 1] N, with
friction 0.0005. Here the car is a frictionless sphere (two slide joints, no
rotation) in contact with a height field of the same profile: the valley floor is
at height 0 at x = 0, its rims 2 m high at x = +-W/2.

Frames and units: world z is up (Box2D's y), x along the valley; metres, kilograms,
newtons.
"""

import mujoco
import numpy as np

from mjcf_models import common

_TIMESTEP_S = 0.005
# mountain_car.xml.mako: track width 4 m, height 1 m (sine_chain), car density 5
# over a 0.4 x 0.2 m box = 0.4 kg, force ctrllimit [-1, 1] N.
VALLEY_WIDTH_M = 4.0
_VALLEY_HEIGHT_M = 1.0
_CAR_MASS_KG = 0.4
# The sphere's radius is the Box2D box's half-height, so the car's centre sits as
# high above the track as rllab's does.
CAR_RADIUS_M = 0.1
_FORCE_LIMIT_N = 1.0
# Resolution of the track: rllab's chain has 201 points.
_TRACK_POINTS = 201
# Height fields need a positive base depth and a second row.
_TRACK_BASE_M = 0.1
_TRACK_HALF_DEPTH_M = 0.5


def track_height(x, width=VALLEY_WIDTH_M):
    """Height of the valley floor (m) at horizontal position x (m), |x| <= width / 2."""
    return _VALLEY_HEIGHT_M * (1.0 + np.sin((2.0 * np.asarray(x) / width - 0.5) * np.pi))


def make_spec():
    """Returns the mountain car model.

    Joints (qpos/qvel layout): car_x (slide along x), car_z (slide along z). One
    actuator, "push": a horizontal force in newtons. The height field "track" has
    `size[0]` = half the valley width (the system-identification variant scales it).
    """
    spec = mujoco.MjSpec()
    spec.modelname = "mountain_car"
    spec.option.timestep = _TIMESTEP_S
    common.add_suite_look(spec, ("self", "decoration"))
    u = np.linspace(-1.0, 1.0, _TRACK_POINTS)
    heights = track_height(u * VALLEY_WIDTH_M / 2)
    top = 2 * _VALLEY_HEIGHT_M
    track = spec.add_hfield(
        name="track",
        nrow=2,
        ncol=_TRACK_POINTS,
        size=[VALLEY_WIDTH_M / 2, _TRACK_HALF_DEPTH_M, top, _TRACK_BASE_M],
    )
    track.userdata = list(np.tile(heights / top, 2))

    world = spec.worldbody
    world.add_light(name="light", pos=[0, 0, 6], dir=[0, 0, -1])
    fixed = world.add_camera(name="fixed", pos=[0, -5, 1])
    fixed.alt.type = mujoco.mjtOrientation.mjORIENTATION_ZAXIS
    fixed.alt.zaxis = [0, -1, 0]
    world.add_geom(
        name="track",
        type=mujoco.mjtGeom.mjGEOM_HFIELD,
        hfieldname="track",
        material="decoration",
        condim=1,
    )

    car = world.add_body(name="car", pos=[0, 0, 0])
    car.add_joint(name="car_x", type=mujoco.mjtJoint.mjJNT_SLIDE, axis=[1, 0, 0])
    car.add_joint(name="car_z", type=mujoco.mjtJoint.mjJNT_SLIDE, axis=[0, 0, 1])
    car.add_geom(
        name="car",
        type=mujoco.mjtGeom.mjGEOM_SPHERE,
        size=[CAR_RADIUS_M, 0, 0],
        mass=_CAR_MASS_KG,
        material="self",
        condim=1,
    )
    spec.add_actuator(
        name="push",
        target="car_x",
        trntype=mujoco.mjtTrn.mjTRN_JOINT,
        gear=[1, 0, 0, 0, 0, 0],
        ctrllimited=mujoco.mjtLimited.mjLIMITED_TRUE,
        ctrlrange=[-_FORCE_LIMIT_N, _FORCE_LIMIT_N],
    )
    return spec
