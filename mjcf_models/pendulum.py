"""The Control Suite pendulum: a 1 kg point-like bob on a massless 0.5 m rod,
driven by a weak torque motor at its hinge.

Physical facts (masses, sizes, damping, gear, timestep, camera placements,
colours) are those of dm_control 1.0.50's `suite/pendulum.xml` and
`suite/common/*.xml`; element names are the published ones.

Frames and units: world z is up, the hinge turns about world y at height 0.6 m;
lengths in metres, masses in kilograms, angles in radians, torques in N m.
"""

import mujoco

from mjcf_models import common

# suite/pendulum.xml: <option timestep="0.02">, Euler integrator (the default),
# contacts disabled, energy computed.
_TIMESTEP_S = 0.02
_HINGE_HEIGHT_M = 0.6
_HINGE_DAMPING = 0.1
# The rod and the hinge's decorative cylinder are massless; all the mass is the bob.
_ROD_LENGTH_M = 0.5
_ROD_RADIUS_M = 0.02
_BOB_RADIUS_M = 0.05
_BOB_MASS_KG = 1.0
_BASE_RADIUS_M = 0.021
_BASE_HALF_WIDTH_M = 0.03
# Motor: control in [-1, 1] times gear 1 is the torque in N m, too weak to lift the
# bob straight up (1 kg * 9.81 m/s^2 * 0.5 m = 4.9 N m), so it must swing up.
_TORQUE_GEAR = 1.0


def make_spec():
    """Returns the pendulum model: one hinge ("hinge"), one motor ("torque")."""
    spec = mujoco.MjSpec()
    spec.modelname = "pendulum"
    spec.option.timestep = _TIMESTEP_S
    spec.option.disableflags |= mujoco.mjtDisableBit.mjDSBL_CONTACT
    spec.option.enableflags |= mujoco.mjtEnableBit.mjENBL_ENERGY
    common.add_suite_look(spec, ("self", "effector", "decoration"))

    world = spec.worldbody
    world.add_light(name="light", pos=[0, 0, 2], dir=[0, 0, -1])
    world.add_geom(
        name="floor", type=mujoco.mjtGeom.mjGEOM_PLANE, size=[2, 2, 0.2], material="grid"
    )
    fixed = world.add_camera(name="fixed", pos=[0, -1.5, 2])
    fixed.alt.type = mujoco.mjtOrientation.mjORIENTATION_XYAXES
    fixed.alt.xyaxes = [1, 0, 0, 0, 1, 1]
    world.add_camera(
        name="lookat",
        pos=[0, -2, 1],
        mode=mujoco.mjtCamLight.mjCAMLIGHT_TARGETBODYCOM,
        targetbody="pole",
    )

    pole = world.add_body(name="pole", pos=[0, 0, _HINGE_HEIGHT_M])
    pole.add_joint(
        name="hinge", type=mujoco.mjtJoint.mjJNT_HINGE, axis=[0, 1, 0], damping=_HINGE_DAMPING
    )
    pole.add_geom(
        name="base",
        type=mujoco.mjtGeom.mjGEOM_CYLINDER,
        fromto=[0, -_BASE_HALF_WIDTH_M, 0, 0, _BASE_HALF_WIDTH_M, 0],
        size=[_BASE_RADIUS_M, 0, 0],
        mass=0,
        material="decoration",
    )
    pole.add_geom(
        name="pole",
        type=mujoco.mjtGeom.mjGEOM_CAPSULE,
        fromto=[0, 0, 0, 0, 0, _ROD_LENGTH_M],
        size=[_ROD_RADIUS_M, 0, 0],
        mass=0,
        material="self",
    )
    pole.add_geom(
        name="mass",
        type=mujoco.mjtGeom.mjGEOM_SPHERE,
        pos=[0, 0, _ROD_LENGTH_M],
        size=[_BOB_RADIUS_M, 0, 0],
        mass=_BOB_MASS_KG,
        material="effector",
    )

    spec.add_actuator(
        name="torque",
        target="hinge",
        trntype=mujoco.mjtTrn.mjTRN_JOINT,
        gear=[_TORQUE_GEAR, 0, 0, 0, 0, 0],
        ctrllimited=mujoco.mjtLimited.mjLIMITED_TRUE,
        ctrlrange=[-1, 1],
    )
    return spec
