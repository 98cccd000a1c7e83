"""The Control Suite cart-pole: a cart on a rail carrying a chain of hinged poles.

Physical facts (masses, sizes, damping, ranges, gear, timestep, integrator, camera
placements, colours) are those of dm_control 1.0.50's `suite/cartpole.xml` and
`suite/common/*.xml`; names of bodies, joints, geoms, cameras and the actuator are
the published ones, so states and names mean the same thing in both.

Frames and units: world z is up, the rail runs along world x at height 1 m; lengths
in metres, masses in kilograms, angles in radians.
"""

import mujoco

from mjcf_models import common

# suite/cartpole.xml: <option timestep="0.01" integrator="RK4">, contacts disabled,
# energy computed.
_TIMESTEP_S = 0.01
# Cart: box of half-sizes 0.2 x 0.15 x 0.1 m and 1 kg whose centre rides 1 m high.
_CART_HALF_SIZE_M = (0.2, 0.15, 0.1)
_CART_MASS_KG = 1.0
_CART_HEIGHT_M = 1.0
# Slider: limited to +-1.8 m with a soft limit (solref 0.08 s, damping ratio 1) and
# 5e-4 N s/m damping.
_SLIDER_RANGE_M = (-1.8, 1.8)
_SLIDER_SOLREF_LIMIT = (0.08, 1.0)
_SLIDER_DAMPING = 5e-4
# Poles: 1 m capsules of radius 0.045 m and 0.1 kg, hinged about world y with
# 2e-6 N m s/rad damping; each pole hangs from the tip of the previous one.
_POLE_LENGTH_M = 1.0
_POLE_RADIUS_M = 0.045
_POLE_MASS_KG = 0.1
_POLE_DAMPING = 2e-6
# Motor on the slider: control in [-1, 1] times gear 10 gives the force in newtons.
_SLIDE_GEAR = 10.0
# Rails: two decorative capsules 0.07 m either side of the cart, radius 0.02 m,
# half-length 2 m.
_RAIL_OFFSET_M = 0.07
_RAIL_RADIUS_M = 0.02
_RAIL_HALF_LENGTH_M = 2.0


def make_spec(num_poles=1):
    """Returns the cart-pole model with `num_poles` poles chained on the cart.

    Joint order (and so qpos/qvel layout): slider, hinge_1, ..., hinge_<num_poles>.
    The one actuator, "slide", pushes the cart along world x.
    """
    if isinstance(num_poles, bool) or not isinstance(num_poles, int) or num_poles < 1:
        raise ValueError(f"num_poles must be an integer >= 1, got {num_poles!r}")
    spec = mujoco.MjSpec()
    spec.modelname = "cart-pole"
    spec.option.timestep = _TIMESTEP_S
    spec.option.integrator = mujoco.mjtIntegrator.mjINT_RK4
    spec.option.disableflags |= mujoco.mjtDisableBit.mjDSBL_CONTACT
    spec.option.enableflags |= mujoco.mjtEnableBit.mjENBL_ENERGY
    common.add_suite_look(spec, ("self", "decoration"))

    world = spec.worldbody
    world.add_light(name="light", pos=[0, 0, 6], dir=[0, 0, -1])
    # The published model puts the fixed camera 4 m back; its multi-pole variant
    # places the cameras 2 m further back per pole instead.
    fixed_distance_m = 4 if num_poles == 1 else 1 + 2 * num_poles
    fixed = world.add_camera(name="fixed", pos=[0, -fixed_distance_m, 1])
    fixed.alt.type = mujoco.mjtOrientation.mjORIENTATION_ZAXIS
    fixed.alt.zaxis = [0, -1, 0]
    world.add_camera(
        name="lookatcart",
        pos=[0, -2 * num_poles, 2],
        mode=mujoco.mjtCamLight.mjCAMLIGHT_TARGETBODY,
        targetbody="cart",
    )
    # The floor sits 5 cm below the lowest reach of the hanging poles.
    world.add_geom(
        name="floor",
        type=mujoco.mjtGeom.mjGEOM_PLANE,
        pos=[0, 0, 1 - num_poles - 0.05],
        size=[4, 4, 0.2],
        material="grid",
    )
    for name, offset in (("rail1", _RAIL_OFFSET_M), ("rail2", -_RAIL_OFFSET_M)):
        rail = world.add_geom(
            name=name,
            type=mujoco.mjtGeom.mjGEOM_CAPSULE,
            pos=[0, offset, _CART_HEIGHT_M],
            size=[_RAIL_RADIUS_M, _RAIL_HALF_LENGTH_M, 0],
            material="decoration",
        )
        rail.alt.type = mujoco.mjtOrientation.mjORIENTATION_ZAXIS
        rail.alt.zaxis = [1, 0, 0]

    cart = world.add_body(name="cart", pos=[0, 0, _CART_HEIGHT_M])
    cart.add_joint(
        name="slider",
        type=mujoco.mjtJoint.mjJNT_SLIDE,
        axis=[1, 0, 0],
        limited=mujoco.mjtLimited.mjLIMITED_TRUE,
        range=list(_SLIDER_RANGE_M),
        solref_limit=list(_SLIDER_SOLREF_LIMIT),
        damping=_SLIDER_DAMPING,
    )
    cart.add_geom(
        name="cart",
        type=mujoco.mjtGeom.mjGEOM_BOX,
        size=list(_CART_HALF_SIZE_M),
        material="self",
        mass=_CART_MASS_KG,
    )
    parent = cart
    for index in range(1, num_poles + 1):
        # The first pole is hinged at the cart's centre, the others at the previous tip.
        pos = [0, 0, 0] if index == 1 else [0, 0, _POLE_LENGTH_M]
        pole = parent.add_body(name=f"pole_{index}", pos=pos)
        pole.add_joint(
            name=f"hinge_{index}",
            type=mujoco.mjtJoint.mjJNT_HINGE,
            axis=[0, 1, 0],
            damping=_POLE_DAMPING,
        )
        pole.add_geom(
            name=f"pole_{index}",
            type=mujoco.mjtGeom.mjGEOM_CAPSULE,
            fromto=[0, 0, 0, 0, 0, _POLE_LENGTH_M],
            size=[_POLE_RADIUS_M, 0, 0],
            material="self",
            mass=_POLE_MASS_KG,
        )
        parent = pole

    spec.add_actuator(
        name="slide",
        target="slider",
        trntype=mujoco.mjtTrn.mjTRN_JOINT,
        gear=[_SLIDE_GEAR, 0, 0, 0, 0, 0],
        ctrllimited=mujoco.mjtLimited.mjLIMITED_TRUE,
        ctrlrange=[-1, 1],
    )
    return spec
