"""dm_control's fruit fly (`locomotion.walkers.fruitfly_v2`), compared with dm-control
1.0.50 run in its own venv: one fly with every option on, in the Floor arena (the
compiled model's names, counts, ranges, gains, masses, inertias and options; the
parts; the action spec and `apply_action`; the module's helper functions; the
weight; the observables at rest; 20 steps of free fall with every actuator
driven). `test_fruitfly_variants.py` (slow) covers the other construction
options, the eye cameras and longer runs.
"""

import pytest

from tests.differential.surface_cases import PRELUDE, assert_case

_MARK = pytest.mark

# The program's helpers, shared with test_fruitfly_variants.py.
HELPERS = r"""
import numpy as np
from dm_control import mjcf
from dm_control.locomotion import arenas
from dm_control.locomotion.walkers import fruitfly_v2


def names(elements):
    return [element.name for element in elements]


def model_facts(put, fly, physics, prefix=""):
    model = physics.named.model
    bodies = [prefix + body.name for body in fly.mjcf_model.find_all("body")]
    put("bodies", [name[len(prefix):] for name in bodies])
    put("body_mass", [float(model.body_mass[name]) for name in bodies])
    put("body_pos", [np.asarray(model.body_pos[name]) for name in bodies])
    put("body_quat", [np.asarray(model.body_quat[name]) for name in bodies])
    put("body_ipos", [np.asarray(model.body_ipos[name]) for name in bodies])
    # The inertia tensor in the body's frame (principal axes may be ordered
    # differently by MuJoCo's eigen-decomposition of a mesh).
    tensors = []
    for name in bodies:
        rotation = np.zeros(9)
        mjcf_quat = np.asarray(model.body_iquat[name], dtype=float)
        rotation = np.array([
            [1 - 2 * (mjcf_quat[2] ** 2 + mjcf_quat[3] ** 2),
             2 * (mjcf_quat[1] * mjcf_quat[2] - mjcf_quat[0] * mjcf_quat[3]),
             2 * (mjcf_quat[1] * mjcf_quat[3] + mjcf_quat[0] * mjcf_quat[2])],
            [2 * (mjcf_quat[1] * mjcf_quat[2] + mjcf_quat[0] * mjcf_quat[3]),
             1 - 2 * (mjcf_quat[1] ** 2 + mjcf_quat[3] ** 2),
             2 * (mjcf_quat[2] * mjcf_quat[3] - mjcf_quat[0] * mjcf_quat[1])],
            [2 * (mjcf_quat[1] * mjcf_quat[3] - mjcf_quat[0] * mjcf_quat[2]),
             2 * (mjcf_quat[2] * mjcf_quat[3] + mjcf_quat[0] * mjcf_quat[1]),
             1 - 2 * (mjcf_quat[1] ** 2 + mjcf_quat[2] ** 2)]])
        inertia = np.asarray(model.body_inertia[name], dtype=float)
        tensors.append(rotation @ np.diag(inertia) @ rotation.T)
    put("body_inertia_tensor", tensors)
    joints = [prefix + joint.name for joint in fly.mjcf_model.find_all("joint")]
    put("joints", [name[len(prefix):] for name in joints])
    for field in ("jnt_axis", "jnt_range", "jnt_stiffness", "jnt_group", "jnt_pos"):
        put(field, [np.asarray(getattr(model, field)[name]) for name in joints])
    put("qpos_spring", [float(np.ravel(model.qpos_spring[name])[0]) for name in joints])
    dofs = [physics.model.jnt_dofadr[physics.model.name2id(name, "joint")] for name in joints]
    put("dof_damping", physics.model.dof_damping[dofs])
    put("dof_armature", physics.model.dof_armature[dofs])
    actuators = fly.mjcf_model.find_all("actuator")
    put("actuators", names(actuators))
    bound = physics.bind(actuators)
    for field in ("ctrlrange", "forcerange", "gainprm", "biasprm", "dynprm", "gear"):
        put("actuator_" + field, np.asarray(getattr(bound, field)))
    for field in ("trntype", "dyntype", "gaintype", "biastype", "ctrllimited", "forcelimited"):
        put("actuator_" + field, np.asarray(getattr(bound, field)).astype(int))
    put("tendons", [physics.model.id2name(i, "tendon")[len(prefix):]
                    for i in range(physics.model.ntendon)])
    # Not compared: the end effectors' sensors that `end_effectors_pos` adds, and the
    # thorax's subtree velocity sensor every walker here carries.
    put("sensors", [sensor.name for sensor in fly.mjcf_model.find_all("sensor")
                    if not sensor.name.endswith(("_end_effector", "_subtreelinvel"))])
    put("sites", names(fly.mjcf_model.find_all("site")))
    put("site_pos", [np.asarray(model.site_pos[prefix + s.name])
                     for s in fly.mjcf_model.find_all("site")])
    put("site_quat", [np.asarray(model.site_quat[prefix + s.name])
                      for s in fly.mjcf_model.find_all("site")])
    named_geoms = [g.name for g in fly.mjcf_model.find_all("geom")
                   if g.name and ("collision" in g.name or "fluid" in g.name
                                  or "inertial" in g.name)]
    put("collision_geoms", named_geoms)
    for field in ("geom_type", "geom_size", "geom_pos", "geom_quat", "geom_contype",
                  "geom_conaffinity", "geom_condim", "geom_friction", "geom_margin",
                  "geom_gap", "geom_solref", "geom_solimp"):
        put(field, [np.asarray(getattr(model, field)[prefix + name]) for name in named_geoms])
    put("exclude_pairs", int(physics.model.nexclude))


def floor_fly(**kwargs):
    fly = fruitfly_v2.FruitFly(**kwargs)
    arena = arenas.Floor()
    arena.add_free_entity(fly)
    physics = mjcf.Physics.from_mjcf_model(arena.mjcf_model)
    return fly, physics


OBSERVED = ("thorax_height", "abdomen_height", "world_zaxis", "world_zaxis_hover",
            "world_zaxis_abdomen", "world_zaxis_head", "force", "touch", "accelerometer",
            "gyro", "velocimeter", "actuator_activation", "appendages_pos", "self_contact",
            "end_effectors_pos", "joints_pos", "joints_vel", "body_height", "sensors_touch",
            "sensors_force", "sensors_velocimeter", "sensors_gyro", "sensors_accelerometer",
            "position", "torso_xvel", "torso_yvel", "veloc_forward", "gyro_backward_roll")


ACCELERATION_LEVEL = ("force", "touch", "accelerometer", "sensors_force", "sensors_touch",
                      "sensors_accelerometer")


def observe(fly, physics):
    by_name = fly.observables.as_dict(fully_qualified=False)
    return {key: np.asarray(by_name[key].observation_callable(physics)()) for key in OBSERVED}


def names_of(fly, observables):
    by_id = {id(item): key for key, item in fly.observables.as_dict(fully_qualified=False).items()}
    return [by_id[id(item)] for item in observables]


def run(fly, physics, steps, record_at, put):
    spec = fly.get_action_spec(physics)
    action = 0.5 * (spec.minimum + spec.maximum) + 0.2 * (spec.maximum - spec.minimum)
    for step in range(1, steps + 1):
        fly.apply_action(physics, action, None)
        physics.step()
        if step in record_at:
            put(f"qpos/{step}", np.asarray(physics.data.qpos))
            put(f"qvel/{step}", np.asarray(physics.data.qvel))
            put(f"act/{step}", np.asarray(physics.data.act))
            put(f"ncon/{step}", int(physics.data.ncon))
    # Not torso_xvel/yvel: outside an Environment dm_control's subtree_linvel is
    # never computed (its walkers call mj_subtreeVel after each substep). Nor the
    # acceleration-level sensors (force, touch, accelerometer): stiff joint limits
    # and contacts turn the 1e-7 differences of the velocities into percent
    # differences of the accelerations (compared at rest in fly_observables).
    for key, value in observe(fly, physics).items():
        if not key.startswith("torso_") and key not in ACCELERATION_LEVEL:
            put("final/" + key, value)
"""

PROGRAM = (
    PRELUDE
    + HELPERS
    + r"""
FLY, PHYSICS = floor_fly(use_wings=True, use_mouth=True, use_antennae=True, num_user_actions=2)


@case("fly_model")
def _(put):
    options = PHYSICS.model.opt
    put("options", [options.timestep, np.asarray(options.gravity), options.density,
                    options.viscosity, int(options.cone), options.noslip_iterations])
    model_facts(put, FLY, PHYSICS, prefix="walker/")
    put("counts", [PHYSICS.model.nq, PHYSICS.model.nv, PHYSICS.model.nu, PHYSICS.model.na,
                   PHYSICS.model.nbody, PHYSICS.model.njnt, PHYSICS.model.ntendon])
    # In compiled order; "walker/front" is the tracking camera every walker here adds.
    put("cameras", [PHYSICS.model.id2name(i, "camera") for i in range(PHYSICS.model.ncam)
                    if PHYSICS.model.id2name(i, "camera") != "walker/front"])


@case("fly_parts")
def _(put):
    fly = FLY
    put("observable_joints", names(fly.observable_joints))
    put("actuators", names(fly.actuators))
    put("end_effectors", names(fly.end_effectors))
    put("appendages", names(fly.appendages))
    put("mocap_tracking_bodies", names(fly.mocap_tracking_bodies))
    put("ground_contact_geoms", names(fly.ground_contact_geoms))
    put("parts", [fly.root_body.name, fly.thorax.name, fly.abdomen.name, fly.head.name,
                  fly.head_site.name, fly.left_eye.name, fly.right_eye.name,
                  fly.egocentric_camera.name])
    pose = fly.upright_pose
    put("upright_pose", [np.asarray(pose.xpos), np.asarray(pose.xquat), pose.qpos])
    put("adhesion_filter", fly.adhesion_filter)
    put("model", fly.mjcf_model.model)


@case("fly_action")
def _(put):
    spec = FLY.get_action_spec(PHYSICS)
    put("action_spec", [spec.shape, spec.dtype.name, spec.minimum, spec.maximum, spec.name])
    action = np.linspace(0.0, 1.0, spec.shape[0]) * (spec.maximum - spec.minimum) + spec.minimum
    FLY.apply_action(PHYSICS, action, np.random.RandomState(0))
    put("ctrl", np.asarray(PHYSICS.bind(FLY.actuators).ctrl))


@case("fly_functions")
def _(put):
    put("neg_quat", fruitfly_v2.neg_quat(np.array([0.5, 0.5, -0.5, 0.5])))
    put("mul_quat", fruitfly_v2.mul_quat(np.array([0.9, 0.1, 0.3, 0.2]),
                                         np.array([0.2, -0.4, 0.8, 0.1])))
    put("rot_vec_quat", fruitfly_v2.rot_vec_quat(np.array([1.0, 2.0, 3.0]),
                                                 np.array([0.9, 0.1, 0.3, 0.2])))
    put("any_substr", [fruitfly_v2.any_substr_in_str(["T1", "T2"], "coxa_T2_left"),
                       fruitfly_v2.any_substr_in_str(["wing"], "coxa_T2_left")])
    put("springref_quats", [
        fruitfly_v2.body_quat_from_springrefs(FLY.mjcf_model.find("body", name))
        for name in ("coxa_T1_left", "femur_T2_right", "tibia_T3_left", "tarsus_T2_left",
                     "claw_T1_right", "thorax")])


@case("fly_in_arena")
def _(put):
    FLY.initialize_episode(PHYSICS, np.random.RandomState(0))
    put("weight", FLY.weight)
    FLY.set_pose(PHYSICS, position=[0.0, 0.0, 0.1278])
    PHYSICS.data.ctrl[:] = 0.0
    PHYSICS.forward()
    put("nefc", int(PHYSICS.data.nefc))
    efc = np.linspace(-1.0, 1.0, PHYSICS.data.nefc)
    put("mul_jac_t_vec", fruitfly_v2.mul_jac_t_vec(PHYSICS, efc))


@case("fly_observables")
def _(put):
    by_name = FLY.observables.as_dict(fully_qualified=False)
    put("keys", sorted(by_name))
    put("enabled", sorted(key for key, item in by_name.items() if item.enabled))
    put("groups", [names_of(FLY, group) for group in (FLY.observables.vestibular,
                   FLY.observables.proprioception, FLY.observables.orientation)])
    put("buffered", sorted((key, item.buffer_size, item.aggregator is not None)
                           for key, item in by_name.items() if item.buffer_size))
    for key, value in observe(FLY, PHYSICS).items():
        put("at_rest/" + key, value)


@case("fly_held")
def _(put):
    # Released 1 cm above the floor: for 20 steps (2 ms) the fly falls freely, its
    # legs, wings, head and mouth moving under their actuators, springs and the air.
    FLY.set_pose(PHYSICS, position=[0.0, 0.0, 1.0])
    PHYSICS.forward()
    run(FLY, PHYSICS, 20, (1, 10, 20), put)
"""
)

# Compared more loosely: the inertials here are dm_control's compiled ones to eight
# significant digits, and MuJoCo 4.0 and 3.17 round differently over the steps.
TOLERANCES = (
    ("body_mass|body_ipos|body_inertia|weight|jnt_stiffness|dof_damping", 2e-6, 1e-14),
    ("fly_motion|fly_held/|at_rest/|mul_jac_t_vec", 1e-3, 1e-6),
)

PARTS_NAMES = (
    "locomotion.walkers.fruitfly_v2.FruitFly.observable_joints",
    "locomotion.walkers.fruitfly_v2.FruitFly.actuators",
    "locomotion.walkers.fruitfly_v2.FruitFly.end_effectors",
    "locomotion.walkers.fruitfly_v2.FruitFly.appendages",
    "locomotion.walkers.fruitfly_v2.FruitFly.mocap_tracking_bodies",
    "locomotion.walkers.fruitfly_v2.FruitFly.ground_contact_geoms",
    "locomotion.walkers.fruitfly_v2.FruitFly.root_body",
    "locomotion.walkers.fruitfly_v2.FruitFly.thorax",
    "locomotion.walkers.fruitfly_v2.FruitFly.abdomen",
    "locomotion.walkers.fruitfly_v2.FruitFly.head",
    "locomotion.walkers.fruitfly_v2.FruitFly.head_site",
    "locomotion.walkers.fruitfly_v2.FruitFly.left_eye",
    "locomotion.walkers.fruitfly_v2.FruitFly.right_eye",
    "locomotion.walkers.fruitfly_v2.FruitFly.egocentric_camera",
    "locomotion.walkers.fruitfly_v2.FruitFly.upright_pose",
    "locomotion.walkers.fruitfly_v2.FruitFly.adhesion_filter",
)
OBSERVABLES_NAMES = (
    "locomotion.walkers.fruitfly_v2.FruitFlyObservables",
    "locomotion.walkers.fruitfly_v2.FruitFlyObservables.abdomen_height",
    "locomotion.walkers.fruitfly_v2.FruitFlyObservables.accelerometer",
    "locomotion.walkers.fruitfly_v2.FruitFlyObservables.actuator_activation",
    "locomotion.walkers.fruitfly_v2.FruitFlyObservables.appendages_pos",
    "locomotion.walkers.fruitfly_v2.FruitFlyObservables.force",
    "locomotion.walkers.fruitfly_v2.FruitFlyObservables.gyro",
    "locomotion.walkers.fruitfly_v2.FruitFlyObservables.orientation",
    "locomotion.walkers.fruitfly_v2.FruitFlyObservables.proprioception",
    "locomotion.walkers.fruitfly_v2.FruitFlyObservables.self_contact",
    "locomotion.walkers.fruitfly_v2.FruitFlyObservables.thorax_height",
    "locomotion.walkers.fruitfly_v2.FruitFlyObservables.touch",
    "locomotion.walkers.fruitfly_v2.FruitFlyObservables.velocimeter",
    "locomotion.walkers.fruitfly_v2.FruitFlyObservables.vestibular",
    "locomotion.walkers.fruitfly_v2.FruitFlyObservables.world_zaxis",
    "locomotion.walkers.fruitfly_v2.FruitFlyObservables.world_zaxis_abdomen",
    "locomotion.walkers.fruitfly_v2.FruitFlyObservables.world_zaxis_head",
    "locomotion.walkers.fruitfly_v2.FruitFlyObservables.world_zaxis_hover",
)

CASES = [
    pytest.param(
        "fly_model",
        marks=_MARK.dm_control_api(
            "locomotion.walkers.fruitfly_v2.FruitFly",
            "locomotion.walkers.fruitfly_v2.FruitFly.mjcf_model",
        ),
        id="fly_model",
    ),
    pytest.param("fly_parts", marks=_MARK.dm_control_api(*PARTS_NAMES), id="fly_parts"),
    pytest.param(
        "fly_action",
        marks=_MARK.dm_control_api(
            "locomotion.walkers.fruitfly_v2.FruitFly.get_action_spec",
            "locomotion.walkers.fruitfly_v2.FruitFly.apply_action",
        ),
        id="fly_action",
    ),
    pytest.param(
        "fly_functions",
        marks=_MARK.dm_control_api(
            "locomotion.walkers.fruitfly_v2.neg_quat",
            "locomotion.walkers.fruitfly_v2.mul_quat",
            "locomotion.walkers.fruitfly_v2.rot_vec_quat",
            "locomotion.walkers.fruitfly_v2.any_substr_in_str",
            "locomotion.walkers.fruitfly_v2.body_quat_from_springrefs",
        ),
        id="fly_functions",
    ),
    pytest.param(
        "fly_in_arena",
        marks=_MARK.dm_control_api(
            "locomotion.walkers.fruitfly_v2.FruitFly.initialize_episode",
            "locomotion.walkers.fruitfly_v2.FruitFly.weight",
            "locomotion.walkers.fruitfly_v2.mul_jac_t_vec",
        ),
        id="fly_in_arena",
    ),
    pytest.param(
        "fly_observables", marks=_MARK.dm_control_api(*OBSERVABLES_NAMES), id="fly_observables"
    ),
    pytest.param("fly_held", id="fly_held"),
]


@pytest.fixture(scope="module")
def fruitfly_run(differential):
    return differential.compare(
        PROGRAM, "fruitfly", rtol=1e-6, atol=1e-9, tolerances=TOLERANCES, timeout_s=600
    )


@pytest.mark.parametrize("case", CASES)
def test_fruitfly_matches_dm_control(fruitfly_run, case):
    assert_case(fruitfly_run, case)
