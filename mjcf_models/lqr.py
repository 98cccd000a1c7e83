"""The Control Suite's procedurally generated LQR model: a chain of point masses on
springs, each sliding along world y.

Facts are those of dm_control 1.0.50 `suite/lqr.xml` and `suite/lqr.py`
(`_make_model`): a 0.03 s timestep with constraints disabled; per body a sphere of
radius 0.1 m (MuJoCo's default density, 1000 kg/m^3), a slide joint along y with a
stiffness drawn uniformly from [15, 25] N/m and a damping drawn from [0, 0]
N s/m (i.e. 0, but drawn, which advances the random stream as published); bodies
0.25 m apart along x, the first 0.1 m up; unlimited motors (gear 1) on the first
joints; spatial tendons between consecutive bodies, for display only.
"""

import mujoco
import numpy as np

from mjcf_models import common

_TIMESTEP_S = 0.03
STIFFNESS_RANGE = (15, 25)  # N/m
DAMPING_RANGE = (0, 0)  # N s/m
_BODY_SPACING_M = 0.25
_FIRST_BODY_HEIGHT_M = 0.1
_SPHERE_RADIUS_M = 0.1


def make_spec(
    num_bodies: int, num_actuators: int, random_state: np.random.RandomState
) -> mujoco.MjSpec:
    """Returns an LQR model with `num_bodies` joints, the first `num_actuators` actuated.

    Draws, per body in order, the joint's stiffness then its damping from
    `random_state` (as the published generator does, so a seed gives the
    published model).

    Raises:
      ValueError: unless 1 <= num_actuators <= num_bodies.
    """
    if num_bodies < 1 or num_actuators < 1:
        raise ValueError(
            f"need at least 1 body and 1 actuator, got {num_bodies} bodies and "
            f"{num_actuators} actuators"
        )
    if num_actuators > num_bodies:
        raise ValueError(
            f"at most one actuator per body: {num_actuators} actuators for {num_bodies} bodies"
        )
    spec = mujoco.MjSpec()
    spec.modelname = "LQR"
    spec.option.timestep = _TIMESTEP_S
    spec.option.disableflags |= mujoco.mjtDisableBit.mjDSBL_CONSTRAINT
    common.add_suite_look(spec, ("self",))
    main = spec.default
    main.joint.type = mujoco.mjtJoint.mjJNT_SLIDE
    main.joint.axis = [0, 1, 0]
    main.geom.type = mujoco.mjtGeom.mjGEOM_SPHERE
    main.geom.size = [_SPHERE_RADIUS_M, 0, 0]
    main.geom.material = "self"
    main.site.size = [0.01, 0.005, 0.005]
    main.tendon.width = 0.02
    main.tendon.material = "self"

    world = spec.worldbody
    world.add_light(name="light", pos=[0, 0, 2])
    world.add_camera(
        name="cam0", pos=[-1.428, -0.311, 0.856], xyaxes=[0.099, -0.995, 0.000, 0.350, 0.035, 0.936]
    )
    world.add_camera(name="cam1", pos=[1.787, 2.452, 4.331], xyaxes=[-1, 0, 0, 0, -0.868, 0.497])
    world.add_geom(
        name="floor", size=[4, 1, 0.2], type=mujoco.mjtGeom.mjGEOM_PLANE, material="grid"
    )
    world.add_geom(
        name="origin",
        pos=[2, 0, 0.05],
        size=[2, 0.003, 0.05],
        type=mujoco.mjtGeom.mjGEOM_BOX,
        rgba=[0.5, 0.5, 0.5, 0.5],
    )

    parent = world
    for index in range(num_bodies):
        pos = [_BODY_SPACING_M, 0, _FIRST_BODY_HEIGHT_M if index == 0 else 0]
        body = parent.add_body(name=f"body_{index}", pos=pos)
        stiffness = random_state.uniform(*STIFFNESS_RANGE)
        damping = random_state.uniform(*DAMPING_RANGE)
        body.add_joint(name=f"joint_{index}", stiffness=[stiffness, 0, 0], damping=[damping, 0, 0])
        body.add_geom(name=f"geom_{index}")
        body.add_site(name=f"site_{index}")
        parent = body
    for index in range(num_actuators):
        spec.add_actuator(
            name=f"motor_{index}", target=f"joint_{index}", trntype=mujoco.mjtTrn.mjTRN_JOINT
        )
    for index in range(num_bodies - 1):
        tendon = spec.add_tendon(name=f"tendon_{index}")
        tendon.wrap_site(f"site_{index}")
        tendon.wrap_site(f"site_{index + 1}")
    return spec
