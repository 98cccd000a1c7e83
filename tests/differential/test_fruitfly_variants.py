"""dm_control's fruit fly, slow cases: the standalone default fly, the construction
options (legs retracted; wings with another body pitch and stroke plane, no
filters, other eye field of view), `change_body_frame`, the eye cameras, 20 steps
on the floor, and a 100-step run that shows where the two simulations part.
Compared with dm-control 1.0.50 in its own venv; helpers from test_fruitfly.py.
"""

import pytest

from tests.differential.surface_cases import PRELUDE, assert_case
from tests.differential.test_fruitfly import HELPERS, TOLERANCES

pytestmark = pytest.mark.slow
_MARK = pytest.mark

XFAIL_LONG = (
    "chaotic, not a model difference: every dynamic quantity of the compiled models agrees "
    "(body, joint, dof, actuator, tendon and option arrays), and the free-falling fly's qvel "
    "agrees to 1e-7 after one step and 1e-5 after 20; from about step 40 the legs touch each "
    "other and the self-contacts amplify those differences (MuJoCo 4.0 against 3.17, "
    "inertials to eight digits) until, at step 100, joint angles differ by 0.02 rad"
)

PROGRAM = (
    PRELUDE
    + HELPERS
    + r"""

@case("fly_standalone")
def _(put):
    fly = fruitfly_v2.FruitFly()
    physics = mjcf.Physics.from_mjcf_model(fly.mjcf_model)
    model_facts(put, fly, physics)
    options = physics.model.opt
    put("options", [options.timestep, np.asarray(options.gravity), options.density,
                    options.viscosity, int(options.cone), options.noslip_iterations])
    put("observable_joints", names(fly.observable_joints))
    spec = fly.get_action_spec(physics)
    put("action_spec", [spec.shape, spec.minimum, spec.maximum, spec.name])


@case("fly_options")
def _(put):
    variants = {
        "no_legs": dict(use_legs=False),
        "pitched": dict(use_wings=True, body_pitch_angle=30.0, stroke_plane_angle=10.0,
                        joint_filter=0.0, adhesion_filter=0.0, eye_camera_fovy=100.0),
    }
    for key, kwargs in variants.items():
        fly = fruitfly_v2.FruitFly(**kwargs)
        physics = mjcf.Physics.from_mjcf_model(fly.mjcf_model)
        model_facts(lambda k, v: put(key + "/" + k, v), fly, physics)
        put(key + "/observable_joints", names(fly.observable_joints))
        spec = fly.get_action_spec(physics)
        put(key + "/action_spec", [spec.shape, spec.minimum, spec.maximum, spec.name])
        put(key + "/eye_fovy", list(physics.bind([fly.left_eye, fly.right_eye]).fovy))


@case("fly_change_body_frame")
def _(put):
    fly = fruitfly_v2.FruitFly()
    body = fly.mjcf_model.find("body", "antenna_left")
    fruitfly_v2.change_body_frame(body, np.array([-0.01, 0.04, 0.01]),
                                  np.array([0.8, 0.0, 0.6, 0.0]))
    physics = mjcf.Physics.from_mjcf_model(fly.mjcf_model)
    model = physics.named.model
    put("changed_frame", [np.asarray(model.body_pos["antenna_left"]),
                          np.asarray(model.body_quat["antenna_left"]),
                          np.asarray(model.jnt_pos["antenna_twist_left"]),
                          np.asarray(model.geom_pos["antenna_left_collision"]),
                          np.asarray(model.geom_quat["antenna_left_collision"]),
                          np.asarray(physics.named.data.geom_xpos["antenna_left_collision"])])


@case("fly_eyes")
def _(put):
    fly, physics = floor_fly(eye_camera_size=24)
    by_name = fly.observables.as_dict(fully_qualified=False)
    put("eye_shapes", [np.asarray(by_name[k].observation_callable(physics)()).shape
                       for k in ("left_eye", "right_eye")])
    put("eye_dtypes", [np.asarray(by_name[k].observation_callable(physics)()).dtype.name
                       for k in ("left_eye", "right_eye")])


@case("fly_motion")
def _(put):
    # Standing on the floor, driven for 20 steps: floor contacts and adhesion.
    fly, physics = floor_fly(use_wings=True)
    fly.set_pose(physics, position=[0.0, 0.0, 0.1278])
    physics.forward()
    run(fly, physics, 20, (1, 10, 20), put)


@case("fly_motion_long")
def _(put):
    fly, physics = floor_fly(use_wings=True, use_mouth=True, use_antennae=True)
    fly.set_pose(physics, position=[0.0, 0.0, 1.0])
    physics.forward()
    run(fly, physics, 100, (100,), put)
"""
)

CASES = [
    pytest.param("fly_standalone", id="fly_standalone"),
    pytest.param(
        "fly_options",
        marks=_MARK.dm_control_api("locomotion.walkers.fruitfly_v2.FruitFly"),
        id="fly_options",
    ),
    pytest.param(
        "fly_change_body_frame",
        marks=_MARK.dm_control_api("locomotion.walkers.fruitfly_v2.change_body_frame"),
        id="fly_change_body_frame",
    ),
    pytest.param(
        "fly_eyes",
        marks=_MARK.dm_control_api(
            "locomotion.walkers.fruitfly_v2.FruitFlyObservables.left_eye",
            "locomotion.walkers.fruitfly_v2.FruitFlyObservables.right_eye",
        ),
        id="fly_eyes",
    ),
    pytest.param("fly_motion", id="fly_motion"),
    pytest.param(
        "fly_motion_long", marks=_MARK.xfail(strict=True, reason=XFAIL_LONG), id="fly_motion_long"
    ),
]


@pytest.fixture(scope="module")
def variants_run(differential):
    return differential.compare(
        PROGRAM, "fruitfly_variants", rtol=1e-6, atol=1e-9, tolerances=TOLERANCES, timeout_s=600
    )


@pytest.mark.parametrize("case", CASES)
def test_fruitfly_variants_match_dm_control(variants_run, case):
    assert_case(variants_run, case)
