"""Every Control Suite task and every manipulation environment of dm_control, one
case each: loaded with a fixed seed, reset and stepped along a seeded random
policy, and its observations, rewards and discounts compared with dm_control's.

One program per side runs all cases once (module-scoped fixtures); each case is
its own test, so a divergence names the task it is in. Manipulation cases compare
the observations' keys, shapes and dtypes, the rewards and discounts, and the
values after a seeded reset (a strict xfail for the three tasks whose bottom brick
is drawn each episode, docs/manipulation.md). The vision environments render on the CPU, about a minute
and a half in all, so their cases are `slow`.
"""

import pytest

from tests.differential.surface_cases import PRELUDE, assert_case

_MARK = pytest.mark

SUITE_PROGRAM = (
    PRELUDE
    + """
import numpy as np
from dm_control import suite


def observed(observation):
    return {key: np.asarray(value) for key, value in observation.items()}


for domain, task in suite.ALL_TASKS:
    @case(f"{domain}.{task}")
    def _(put):
        env = suite.load(domain, task, task_kwargs={"random": 0})
        timestep = env.reset()
        # The Python types of the values, a case of their own (see SCALAR_OBSERVATION_TASKS).
        types = {k: type(v).__name__ for k, v in timestep.observation.items()}
        record(f"types/{domain}.{task}/observation", types)
        put("reset/observation", observed(timestep.observation))
        put("reset/dtypes", {k: np.asarray(v).dtype.str for k, v in timestep.observation.items()})
        put("reset/step_type", int(timestep.step_type))
        spec = env.action_spec()
        policy = np.random.RandomState(1)
        for step in range(4):
            timestep = env.step(policy.uniform(spec.minimum, spec.maximum))
            put(f"step{step}/observation", observed(timestep.observation))
            put(f"step{step}/reward", float(timestep.reward))
            put(f"step{step}/discount", float(timestep.discount))
        put("random_after", env.task.random.randint(1 << 30))
"""
)

_MANIPULATION_BODY = """
import numpy as np
from dm_control import manipulation


def structure(observation):
    return {key: (np.shape(value), np.asarray(value).dtype.str)
            for key, value in observation.items()}


for name in [name for name in manipulation.ALL if name.endswith("_" + KIND)]:
    @case(name)
    def _(put):
        env = manipulation.load(name, seed=0)
        timestep = env.reset()
        if name.endswith("_features"):
            # The values after a seeded reset, a case of their own (_SEEDED_MATCH and
            # _PER_EPISODE_BASE).
            values = {k: np.asarray(v) for k, v in timestep.observation.items()}
            record(f"values/{name}/reset", values)
        put("reset/structure", structure(timestep.observation))
        put("reset/reward", timestep.reward)
        spec = env.action_spec()
        policy = np.random.RandomState(1)
        timestep = env.step(policy.uniform(spec.minimum, spec.maximum))
        put("step/structure", structure(timestep.observation))
        put("step/reward_is_finite_float", bool(np.isfinite(timestep.reward)))
        put("step/discount", float(timestep.discount))
        put("step/step_type", int(timestep.step_type))
"""


def manipulation_program(kind: str) -> str:
    """The manipulation cases of the environments named `*_{kind}` ("features" or
    "vision": the vision ones render, about a minute in all, so they are `slow`)."""
    return PRELUDE + f"KIND = {kind!r}\n" + _MANIPULATION_BODY


SUITE_TASKS = [
    pytest.param(
        "acrobot.swingup",
        marks=_MARK.dm_control_api("suite.ALL_TASKS:acrobot.swingup"),
        id="acrobot.swingup",
    ),
    pytest.param(
        "acrobot.swingup_sparse",
        marks=_MARK.dm_control_api("suite.ALL_TASKS:acrobot.swingup_sparse"),
        id="acrobot.swingup_sparse",
    ),
    pytest.param(
        "ball_in_cup.catch",
        marks=_MARK.dm_control_api("suite.ALL_TASKS:ball_in_cup.catch"),
        id="ball_in_cup.catch",
    ),
    pytest.param(
        "cartpole.balance",
        marks=_MARK.dm_control_api("suite.ALL_TASKS:cartpole.balance"),
        id="cartpole.balance",
    ),
    pytest.param(
        "cartpole.balance_sparse",
        marks=_MARK.dm_control_api("suite.ALL_TASKS:cartpole.balance_sparse"),
        id="cartpole.balance_sparse",
    ),
    pytest.param(
        "cartpole.swingup",
        marks=_MARK.dm_control_api("suite.ALL_TASKS:cartpole.swingup"),
        id="cartpole.swingup",
    ),
    pytest.param(
        "cartpole.swingup_sparse",
        marks=_MARK.dm_control_api("suite.ALL_TASKS:cartpole.swingup_sparse"),
        id="cartpole.swingup_sparse",
    ),
    pytest.param(
        "cartpole.two_poles",
        marks=_MARK.dm_control_api("suite.ALL_TASKS:cartpole.two_poles"),
        id="cartpole.two_poles",
    ),
    pytest.param(
        "cartpole.three_poles",
        marks=_MARK.dm_control_api("suite.ALL_TASKS:cartpole.three_poles"),
        id="cartpole.three_poles",
    ),
    pytest.param(
        "cheetah.run", marks=_MARK.dm_control_api("suite.ALL_TASKS:cheetah.run"), id="cheetah.run"
    ),
    pytest.param(
        "dog.stand", marks=_MARK.dm_control_api("suite.ALL_TASKS:dog.stand"), id="dog.stand"
    ),
    pytest.param("dog.walk", marks=_MARK.dm_control_api("suite.ALL_TASKS:dog.walk"), id="dog.walk"),
    pytest.param("dog.trot", marks=_MARK.dm_control_api("suite.ALL_TASKS:dog.trot"), id="dog.trot"),
    pytest.param("dog.run", marks=_MARK.dm_control_api("suite.ALL_TASKS:dog.run"), id="dog.run"),
    pytest.param(
        "dog.fetch", marks=_MARK.dm_control_api("suite.ALL_TASKS:dog.fetch"), id="dog.fetch"
    ),
    pytest.param(
        "finger.spin", marks=_MARK.dm_control_api("suite.ALL_TASKS:finger.spin"), id="finger.spin"
    ),
    pytest.param(
        "finger.turn_easy",
        marks=_MARK.dm_control_api("suite.ALL_TASKS:finger.turn_easy"),
        id="finger.turn_easy",
    ),
    pytest.param(
        "finger.turn_hard",
        marks=_MARK.dm_control_api("suite.ALL_TASKS:finger.turn_hard"),
        id="finger.turn_hard",
    ),
    pytest.param(
        "fish.upright",
        marks=_MARK.dm_control_api("suite.ALL_TASKS:fish.upright"),
        id="fish.upright",
    ),
    pytest.param(
        "fish.swim", marks=_MARK.dm_control_api("suite.ALL_TASKS:fish.swim"), id="fish.swim"
    ),
    pytest.param(
        "hopper.stand",
        marks=_MARK.dm_control_api("suite.ALL_TASKS:hopper.stand"),
        id="hopper.stand",
    ),
    pytest.param(
        "hopper.hop", marks=_MARK.dm_control_api("suite.ALL_TASKS:hopper.hop"), id="hopper.hop"
    ),
    pytest.param(
        "humanoid.stand",
        marks=_MARK.dm_control_api("suite.ALL_TASKS:humanoid.stand"),
        id="humanoid.stand",
    ),
    pytest.param(
        "humanoid.walk",
        marks=_MARK.dm_control_api("suite.ALL_TASKS:humanoid.walk"),
        id="humanoid.walk",
    ),
    pytest.param(
        "humanoid.run",
        marks=_MARK.dm_control_api("suite.ALL_TASKS:humanoid.run"),
        id="humanoid.run",
    ),
    pytest.param(
        "humanoid.run_pure_state",
        marks=_MARK.dm_control_api("suite.ALL_TASKS:humanoid.run_pure_state"),
        id="humanoid.run_pure_state",
    ),
    pytest.param(
        "humanoid_CMU.stand",
        marks=_MARK.dm_control_api("suite.ALL_TASKS:humanoid_CMU.stand"),
        id="humanoid_CMU.stand",
    ),
    pytest.param(
        "humanoid_CMU.walk",
        marks=_MARK.dm_control_api("suite.ALL_TASKS:humanoid_CMU.walk"),
        id="humanoid_CMU.walk",
    ),
    pytest.param(
        "humanoid_CMU.run",
        marks=_MARK.dm_control_api("suite.ALL_TASKS:humanoid_CMU.run"),
        id="humanoid_CMU.run",
    ),
    pytest.param(
        "lqr.lqr_2_1", marks=_MARK.dm_control_api("suite.ALL_TASKS:lqr.lqr_2_1"), id="lqr.lqr_2_1"
    ),
    pytest.param(
        "lqr.lqr_6_2", marks=_MARK.dm_control_api("suite.ALL_TASKS:lqr.lqr_6_2"), id="lqr.lqr_6_2"
    ),
    pytest.param(
        "manipulator.bring_ball",
        marks=_MARK.dm_control_api("suite.ALL_TASKS:manipulator.bring_ball"),
        id="manipulator.bring_ball",
    ),
    pytest.param(
        "manipulator.bring_peg",
        marks=_MARK.dm_control_api("suite.ALL_TASKS:manipulator.bring_peg"),
        id="manipulator.bring_peg",
    ),
    pytest.param(
        "manipulator.insert_ball",
        marks=_MARK.dm_control_api("suite.ALL_TASKS:manipulator.insert_ball"),
        id="manipulator.insert_ball",
    ),
    pytest.param(
        "manipulator.insert_peg",
        marks=_MARK.dm_control_api("suite.ALL_TASKS:manipulator.insert_peg"),
        id="manipulator.insert_peg",
    ),
    pytest.param(
        "pendulum.swingup",
        marks=_MARK.dm_control_api("suite.ALL_TASKS:pendulum.swingup"),
        id="pendulum.swingup",
    ),
    pytest.param(
        "point_mass.easy",
        marks=_MARK.dm_control_api("suite.ALL_TASKS:point_mass.easy"),
        id="point_mass.easy",
    ),
    pytest.param(
        "point_mass.hard",
        marks=_MARK.dm_control_api("suite.ALL_TASKS:point_mass.hard"),
        id="point_mass.hard",
    ),
    pytest.param(
        "quadruped.walk",
        marks=_MARK.dm_control_api("suite.ALL_TASKS:quadruped.walk"),
        id="quadruped.walk",
    ),
    pytest.param(
        "quadruped.run",
        marks=_MARK.dm_control_api("suite.ALL_TASKS:quadruped.run"),
        id="quadruped.run",
    ),
    pytest.param(
        "quadruped.escape",
        marks=_MARK.dm_control_api("suite.ALL_TASKS:quadruped.escape"),
        id="quadruped.escape",
    ),
    pytest.param(
        "quadruped.fetch",
        marks=_MARK.dm_control_api("suite.ALL_TASKS:quadruped.fetch"),
        id="quadruped.fetch",
    ),
    pytest.param(
        "reacher.easy",
        marks=_MARK.dm_control_api("suite.ALL_TASKS:reacher.easy"),
        id="reacher.easy",
    ),
    pytest.param(
        "reacher.hard",
        marks=_MARK.dm_control_api("suite.ALL_TASKS:reacher.hard"),
        id="reacher.hard",
    ),
    pytest.param(
        "stacker.stack_2",
        marks=_MARK.dm_control_api("suite.ALL_TASKS:stacker.stack_2"),
        id="stacker.stack_2",
    ),
    pytest.param(
        "stacker.stack_4",
        marks=_MARK.dm_control_api("suite.ALL_TASKS:stacker.stack_4"),
        id="stacker.stack_4",
    ),
    pytest.param(
        "swimmer.swimmer6",
        marks=_MARK.dm_control_api("suite.ALL_TASKS:swimmer.swimmer6"),
        id="swimmer.swimmer6",
    ),
    pytest.param(
        "swimmer.swimmer15",
        marks=_MARK.dm_control_api("suite.ALL_TASKS:swimmer.swimmer15"),
        id="swimmer.swimmer15",
    ),
    pytest.param(
        "walker.stand",
        marks=_MARK.dm_control_api("suite.ALL_TASKS:walker.stand"),
        id="walker.stand",
    ),
    pytest.param(
        "walker.walk", marks=_MARK.dm_control_api("suite.ALL_TASKS:walker.walk"), id="walker.walk"
    ),
    pytest.param(
        "walker.run", marks=_MARK.dm_control_api("suite.ALL_TASKS:walker.run"), id="walker.run"
    ),
]

MANIPULATION_ENVIRONMENTS = [
    pytest.param(
        "stack_2_bricks_features",
        marks=_MARK.dm_control_api("manipulation.ALL:stack_2_bricks_features"),
        id="stack_2_bricks_features",
    ),
    pytest.param(
        "stack_2_bricks_vision",
        marks=[_MARK.slow, _MARK.dm_control_api("manipulation.ALL:stack_2_bricks_vision")],
        id="stack_2_bricks_vision",
    ),
    pytest.param(
        "stack_2_bricks_moveable_base_features",
        marks=_MARK.dm_control_api("manipulation.ALL:stack_2_bricks_moveable_base_features"),
        id="stack_2_bricks_moveable_base_features",
    ),
    pytest.param(
        "stack_2_bricks_moveable_base_vision",
        marks=[
            _MARK.slow,
            _MARK.dm_control_api("manipulation.ALL:stack_2_bricks_moveable_base_vision"),
        ],
        id="stack_2_bricks_moveable_base_vision",
    ),
    pytest.param(
        "stack_3_bricks_features",
        marks=_MARK.dm_control_api("manipulation.ALL:stack_3_bricks_features"),
        id="stack_3_bricks_features",
    ),
    pytest.param(
        "stack_3_bricks_vision",
        marks=[_MARK.slow, _MARK.dm_control_api("manipulation.ALL:stack_3_bricks_vision")],
        id="stack_3_bricks_vision",
    ),
    pytest.param(
        "stack_3_bricks_random_order_features",
        marks=_MARK.dm_control_api("manipulation.ALL:stack_3_bricks_random_order_features"),
        id="stack_3_bricks_random_order_features",
    ),
    pytest.param(
        "stack_2_of_3_bricks_random_order_features",
        marks=_MARK.dm_control_api("manipulation.ALL:stack_2_of_3_bricks_random_order_features"),
        id="stack_2_of_3_bricks_random_order_features",
    ),
    pytest.param(
        "stack_2_of_3_bricks_random_order_vision",
        marks=[
            _MARK.slow,
            _MARK.dm_control_api("manipulation.ALL:stack_2_of_3_bricks_random_order_vision"),
        ],
        id="stack_2_of_3_bricks_random_order_vision",
    ),
    pytest.param(
        "reassemble_3_bricks_fixed_order_features",
        marks=_MARK.dm_control_api("manipulation.ALL:reassemble_3_bricks_fixed_order_features"),
        id="reassemble_3_bricks_fixed_order_features",
    ),
    pytest.param(
        "reassemble_3_bricks_fixed_order_vision",
        marks=[
            _MARK.slow,
            _MARK.dm_control_api("manipulation.ALL:reassemble_3_bricks_fixed_order_vision"),
        ],
        id="reassemble_3_bricks_fixed_order_vision",
    ),
    pytest.param(
        "reassemble_5_bricks_random_order_features",
        marks=_MARK.dm_control_api("manipulation.ALL:reassemble_5_bricks_random_order_features"),
        id="reassemble_5_bricks_random_order_features",
    ),
    pytest.param(
        "reassemble_5_bricks_random_order_vision",
        marks=[
            _MARK.slow,
            _MARK.dm_control_api("manipulation.ALL:reassemble_5_bricks_random_order_vision"),
        ],
        id="reassemble_5_bricks_random_order_vision",
    ),
    pytest.param(
        "lift_brick_features",
        marks=_MARK.dm_control_api("manipulation.ALL:lift_brick_features"),
        id="lift_brick_features",
    ),
    pytest.param(
        "lift_brick_vision",
        marks=[_MARK.slow, _MARK.dm_control_api("manipulation.ALL:lift_brick_vision")],
        id="lift_brick_vision",
    ),
    pytest.param(
        "lift_large_box_features",
        marks=_MARK.dm_control_api("manipulation.ALL:lift_large_box_features"),
        id="lift_large_box_features",
    ),
    pytest.param(
        "lift_large_box_vision",
        marks=[_MARK.slow, _MARK.dm_control_api("manipulation.ALL:lift_large_box_vision")],
        id="lift_large_box_vision",
    ),
    pytest.param(
        "place_brick_features",
        marks=_MARK.dm_control_api("manipulation.ALL:place_brick_features"),
        id="place_brick_features",
    ),
    pytest.param(
        "place_brick_vision",
        marks=[_MARK.slow, _MARK.dm_control_api("manipulation.ALL:place_brick_vision")],
        id="place_brick_vision",
    ),
    pytest.param(
        "place_cradle_features",
        marks=_MARK.dm_control_api("manipulation.ALL:place_cradle_features"),
        id="place_cradle_features",
    ),
    pytest.param(
        "place_cradle_vision",
        marks=[_MARK.slow, _MARK.dm_control_api("manipulation.ALL:place_cradle_vision")],
        id="place_cradle_vision",
    ),
    pytest.param(
        "reach_duplo_features",
        marks=_MARK.dm_control_api("manipulation.ALL:reach_duplo_features"),
        id="reach_duplo_features",
    ),
    pytest.param(
        "reach_duplo_vision",
        marks=[_MARK.slow, _MARK.dm_control_api("manipulation.ALL:reach_duplo_vision")],
        id="reach_duplo_vision",
    ),
    pytest.param(
        "reach_site_features",
        marks=_MARK.dm_control_api("manipulation.ALL:reach_site_features"),
        id="reach_site_features",
    ),
    pytest.param(
        "reach_site_vision",
        marks=[_MARK.slow, _MARK.dm_control_api("manipulation.ALL:reach_site_vision")],
        id="reach_site_vision",
    ),
]

SCALAR_OBSERVATION_TASKS = (
    "suite.ALL_TASKS:finger.turn_easy",
    "suite.ALL_TASKS:finger.turn_hard",
    "suite.ALL_TASKS:fish.upright",
    "suite.ALL_TASKS:fish.swim",
    "suite.ALL_TASKS:humanoid.stand",
    "suite.ALL_TASKS:humanoid.walk",
    "suite.ALL_TASKS:humanoid.run",
    "suite.ALL_TASKS:humanoid_CMU.stand",
    "suite.ALL_TASKS:humanoid_CMU.walk",
    "suite.ALL_TASKS:humanoid_CMU.run",
    "suite.ALL_TASKS:walker.stand",
    "suite.ALL_TASKS:walker.walk",
    "suite.ALL_TASKS:walker.run",
)


@pytest.fixture(scope="module")
def suite_run(differential):
    return differential.compare(SUITE_PROGRAM, "surface_suite", rtol=1e-6, atol=1e-8, timeout_s=600)


@pytest.fixture(scope="module")
def manipulation_features_run(differential):
    return differential.compare(
        manipulation_program("features"),
        "surface_manipulation_features",
        rtol=1e-6,
        atol=1e-6,
        timeout_s=600,
    )


@pytest.fixture(scope="module")
def manipulation_vision_run(differential):
    return differential.compare(
        manipulation_program("vision"),
        "surface_manipulation_vision",
        rtol=1e-6,
        atol=1e-6,
        timeout_s=600,
    )


@pytest.mark.parametrize("task", SUITE_TASKS)
def test_suite_task_matches_dm_control(suite_run, task):
    assert_case(suite_run, task)


@pytest.mark.dm_control_api(*SCALAR_OBSERVATION_TASKS)
def test_suite_scalar_observations_are_numpy_scalars(suite_run):
    for name in SCALAR_OBSERVATION_TASKS:
        assert_case(suite_run, "types/" + name.split(":", 1)[1])


@pytest.mark.parametrize("name", MANIPULATION_ENVIRONMENTS)
def test_manipulation_environment_observes_as_dm_control(request, name):
    # Structure, rewards and discounts; the values after a seeded reset are below.
    kind = name.rsplit("_", 1)[1]
    assert_case(request.getfixturevalue(f"manipulation_{kind}_run"), name)


# The random-order brick tasks draw their bottom brick each episode: dm_control removes
# its free joint and recompiles, this project welds it to the table with a heavy mass
# (docs/manipulation.md, "Fixing the bottom brick without recompiling").
_PER_EPISODE_BASE = (
    "manipulation.ALL:stack_3_bricks_random_order_features",
    "manipulation.ALL:stack_2_of_3_bricks_random_order_features",
    "manipulation.ALL:reassemble_5_bricks_random_order_features",
)
_SEEDED_MATCH = (
    "manipulation.ALL:stack_2_bricks_features",
    "manipulation.ALL:stack_2_bricks_moveable_base_features",
    "manipulation.ALL:stack_3_bricks_features",
    "manipulation.ALL:reassemble_3_bricks_fixed_order_features",
    "manipulation.ALL:lift_brick_features",
    "manipulation.ALL:lift_large_box_features",
    "manipulation.ALL:place_brick_features",
    "manipulation.ALL:place_cradle_features",
    "manipulation.ALL:reach_duplo_features",
    "manipulation.ALL:reach_site_features",
)


@pytest.mark.dm_control_api(*_SEEDED_MATCH)
def test_manipulation_seeded_initial_states_match_dm_control(manipulation_features_run):
    for name in _SEEDED_MATCH:
        assert_case(manipulation_features_run, "values/" + name.split(":", 1)[1])


@pytest.mark.dm_control_api(*_PER_EPISODE_BASE)
@pytest.mark.xfail(
    strict=True,
    reason="the bottom brick drawn each episode keeps its free joint, welded to the table and "
    "made heavy, where dm_control removes the joint and recompiles: its velocity after the "
    "settling reset is not zero, and the arm's joint torques differ (docs/manipulation.md)",
)
def test_manipulation_random_base_initial_states_match_dm_control(manipulation_features_run):
    for name in _PER_EPISODE_BASE:
        assert_case(manipulation_features_run, "values/" + name.split(":", 1)[1])
