"""The Control Suite acrobot: a two-link pendulum actuated only at the elbow.

Physical facts (masses, sizes, damping, gear, timestep, integrator, camera
placements, colours) are those of dm_control 1.0.50's `suite/acrobot.xml` and
`suite/common/*.xml`; element names are the published ones. The published model
follows Coulom's (2002) acrobot rather than Spong's (1995).

Frames and units: world z is up, both hinges turn about world y; the shoulder is
2 m above the floor and the target 4 m, so an upright acrobot's tip touches it.
Lengths in metres, masses in kilograms, angles in radians, torques in N m.
"""

import mujoco

from mjcf_models import common

# suite/acrobot.xml: <option timestep="0.01" integrator="RK4">, constraints
# disabled, energy computed.
_TIMESTEP_S = 0.01
_SHOULDER_HEIGHT_M = 2.0
# Both links are 1 m capsules of 1 kg; the lower one is slightly thinner. Joint
# damping 0.05 N m s/rad.
_LINK_LENGTH_M = 1.0
_LINK_MASS_KG = 1.0
_UPPER_RADIUS_M = 0.05
_LOWER_RADIUS_M = 0.049
_JOINT_DAMPING = 0.05
_TIP_SITE_RADIUS_M = 0.01
# The target: a 0.2 m sphere site 4 m up, in site group 3 (hidden by default).
_TARGET_HEIGHT_M = 4.0
_TARGET_RADIUS_M = 0.2
_TARGET_GROUP = 3
# A massless cylinder marks the shoulder axis.
_SHOULDER_MARK_RADIUS_M = 0.051
_SHOULDER_MARK_HALF_WIDTH_M = 0.06
# Elbow motor: control in [-1, 1] times gear 2 is the torque in N m.
_ELBOW_GEAR = 2.0


def make_spec():
    """Returns the acrobot model.

    Joint order (qpos/qvel layout): shoulder, elbow. One actuator, "elbow".
    """
    spec = mujoco.MjSpec()
    spec.modelname = "acrobot"
    spec.option.timestep = _TIMESTEP_S
    spec.option.integrator = mujoco.mjtIntegrator.mjINT_RK4
    spec.option.disableflags |= mujoco.mjtDisableBit.mjDSBL_CONSTRAINT
    spec.option.enableflags |= mujoco.mjtEnableBit.mjENBL_ENERGY
    common.add_suite_look(spec, ("self", "decoration", "target"))

    world = spec.worldbody
    world.add_light(name="light", pos=[0, 0, 6], dir=[0, 0, -1])
    world.add_geom(
        name="floor", type=mujoco.mjtGeom.mjGEOM_PLANE, size=[3, 3, 0.2], material="grid"
    )
    # Only a sphere's first size entry counts; the others keep MuJoCo's site default,
    # as in the published model.
    target = world.add_site(
        name="target",
        type=mujoco.mjtGeom.mjGEOM_SPHERE,
        pos=[0, 0, _TARGET_HEIGHT_M],
        material="target",
        group=_TARGET_GROUP,
    )
    target.size[0] = _TARGET_RADIUS_M
    fixed = world.add_camera(name="fixed", pos=[0, -6, 2])
    fixed.alt.type = mujoco.mjtOrientation.mjORIENTATION_ZAXIS
    fixed.alt.zaxis = [0, -1, 0]
    world.add_camera(
        name="lookat",
        pos=[0, -2, 3],
        mode=mujoco.mjtCamLight.mjCAMLIGHT_TARGETBODYCOM,
        targetbody="upper_arm",
    )

    upper_arm = world.add_body(name="upper_arm", pos=[0, 0, _SHOULDER_HEIGHT_M])
    upper_arm.add_joint(
        name="shoulder", type=mujoco.mjtJoint.mjJNT_HINGE, axis=[0, 1, 0], damping=_JOINT_DAMPING
    )
    upper_arm.add_geom(
        name="upper_arm_decoration",
        type=mujoco.mjtGeom.mjGEOM_CYLINDER,
        fromto=[0, -_SHOULDER_MARK_HALF_WIDTH_M, 0, 0, _SHOULDER_MARK_HALF_WIDTH_M, 0],
        size=[_SHOULDER_MARK_RADIUS_M, 0, 0],
        mass=0,
        material="decoration",
    )
    upper_arm.add_geom(
        name="upper_arm",
        type=mujoco.mjtGeom.mjGEOM_CAPSULE,
        fromto=[0, 0, 0, 0, 0, _LINK_LENGTH_M],
        size=[_UPPER_RADIUS_M, 0, 0],
        mass=_LINK_MASS_KG,
        material="self",
    )

    lower_arm = upper_arm.add_body(name="lower_arm", pos=[0, 0, _LINK_LENGTH_M])
    lower_arm.add_joint(
        name="elbow", type=mujoco.mjtJoint.mjJNT_HINGE, axis=[0, 1, 0], damping=_JOINT_DAMPING
    )
    lower_arm.add_geom(
        name="lower_arm",
        type=mujoco.mjtGeom.mjGEOM_CAPSULE,
        fromto=[0, 0, 0, 0, 0, _LINK_LENGTH_M],
        size=[_LOWER_RADIUS_M, 0, 0],
        mass=_LINK_MASS_KG,
        material="self",
    )
    tip = lower_arm.add_site(name="tip", pos=[0, 0, _LINK_LENGTH_M])
    tip.size[0] = _TIP_SITE_RADIUS_M

    spec.add_actuator(
        name="elbow",
        target="elbow",
        trntype=mujoco.mjtTrn.mjTRN_JOINT,
        gear=[_ELBOW_GEAR, 0, 0, 0, 0, 0],
        ctrllimited=mujoco.mjtLimited.mjLIMITED_TRUE,
        ctrlrange=[-1, 1],
    )
    return spec
