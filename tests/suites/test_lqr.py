"""LQR domain and solver: the generated model, reward, termination, initial states,
and the optimal policy scoring what the published solver scores."""

import json
import os

import mujoco
import numpy as np
import pytest

from composer_tasks import batch as batch_module
from composer_tasks.batch import copy_seed
from mjcf_models import lqr as lqr_model
from suites import base, lqr, lqr_solver, suite

_SOLVER_REFERENCE = os.path.join(
    os.path.dirname(__file__), os.pardir, "conformance", "lqr_solver_reference.json"
)


def _solver_records():
    with open(_SOLVER_REFERENCE) as file:
        return json.load(file)["records"]


def test_registered_as_extra_tasks():
    assert suite.TASKS_BY_DOMAIN["lqr"] == ("lqr_2_1", "lqr_6_2")
    assert ("lqr", "lqr_2_1") in suite.EXTRA and ("lqr", "lqr_6_2") in suite.EXTRA


@pytest.mark.parametrize("task, bodies, actuators", [("lqr_2_1", 2, 1), ("lqr_6_2", 6, 2)])
def test_generated_model_and_specs(task, bodies, actuators):
    env = suite.load("lqr", task, task_kwargs={"random": 4})
    model = env.physics.model
    assert (model.nq, model.nu) == (bodies, actuators)
    assert np.all((model.jnt_stiffness >= 15) & (model.jnt_stiffness <= 25))
    np.testing.assert_array_equal(model.dof_damping, 0)
    assert model.opt.disableflags & mujoco.mjtDisableBit.mjDSBL_CONSTRAINT
    np.testing.assert_array_equal(env.action_spec().minimum, -1e10)
    np.testing.assert_array_equal(env.action_spec().maximum, 1e10)
    assert env.task.control_timestep == pytest.approx(0.03)
    observation = env.reset().observation
    assert list(observation) == ["position", "velocity"]
    # Another seed draws other stiffnesses; the same seed the same ones.
    other = suite.load("lqr", task, task_kwargs={"random": 5}).physics.model.jnt_stiffness
    same = suite.load("lqr", task, task_kwargs={"random": 4}).physics.model.jnt_stiffness
    assert not np.array_equal(other, model.jnt_stiffness)
    np.testing.assert_array_equal(same, model.jnt_stiffness)


def test_initial_states_on_the_sphere_at_rest():
    env = suite.load("lqr", "lqr_6_2", task_kwargs={"random": 1})
    for _ in range(5):
        env.reset()
        assert np.linalg.norm(env.physics.data.qpos) == pytest.approx(np.sqrt(2))
        np.testing.assert_array_equal(env.physics.data.qvel, 0)


def test_reward_and_termination():
    env = suite.load("lqr", "lqr_2_1", task_kwargs={"random": 1})
    env.reset()
    physics = env.physics
    physics.data.qpos[:] = [0.6, 0.8]
    physics.data.ctrl[:] = [2.0]
    # 1 - (|q|^2 / 2 + 0.1 |u|^2 / 2) = 1 - (0.5 + 0.2).
    assert env.task.get_reward(physics) == pytest.approx(0.3)
    assert not env.task.should_terminate_episode(physics)
    physics.data.qpos[:] = 1e-7
    physics.data.qvel[:] = 0
    assert env.task.should_terminate_episode(physics)


def test_one_environments_sums_are_the_batchs_bits():
    # The single-environment path sums up to 7 squares in Python floats; a batch's
    # vectorised path reduces its (N, n) rows with numpy. Bit-identical copies need
    # the two to agree exactly, which they do as long as numpy adds fewer than 8
    # numbers in order; this fails if a numpy release changes that.
    rng = np.random.default_rng(0)
    for size in range(1, lqr._SEQUENTIAL_SUM_MAX + 1):
        rows = rng.normal(size=(2000, size)) * rng.uniform(0, 100, size=(2000, 1))
        batch = lqr._sum_of_squares(rows)
        single = np.array([lqr._sum_of_squares(row) for row in rows])
        np.testing.assert_array_equal(single, batch)
        np.testing.assert_array_equal(single, np.add.reduce(rows * rows, axis=-1))
    long_row = rng.normal(size=12)
    assert lqr._sum_of_squares(long_row) == np.add.reduce(long_row * long_row)


@pytest.mark.parametrize(
    "record", _solver_records(), ids=lambda record: f"{record['task']}-{record['seed']}"
)
def test_solver_policy_scores_what_the_published_solver_scores(record):
    env = suite.load("lqr", record["task"], task_kwargs={"random": record["seed"]})
    env.reset()
    p, k, beta = lqr_solver.solve(env)
    physics = env.physics
    state = np.concatenate([physics.data.qpos, physics.data.qvel])
    np.testing.assert_allclose(k, record["k"], rtol=1e-9, atol=1e-12)
    assert beta == pytest.approx(record["beta"], rel=1e-12)
    assert state @ p @ state / 2 == pytest.approx(record["initial_value"], rel=1e-9)
    total = 0.0
    for _ in range(record["rollout_steps"]):
        total += env.step(k @ np.concatenate([physics.data.qpos, physics.data.qvel])).reward
    assert total == pytest.approx(record["return"], rel=1e-9)


def test_solver_rejects_other_tasks():
    with pytest.raises(TypeError, match="LQR"):
        lqr_solver.solve(suite.load("cartpole", "balance"))


def test_bad_inputs_raise():
    random_state = np.random.RandomState(0)
    with pytest.raises(ValueError, match="at most one actuator"):
        lqr_model.make_spec(2, 3, random_state)
    with pytest.raises(ValueError, match="at least 1 body"):
        lqr_model.make_spec(0, 1, random_state)
    with pytest.raises(ValueError, match="control_cost_coef"):
        lqr.LqrLevel(2, 1, 0.0, random_state)


def test_squared_termination_bound_is_the_published_norm_test():
    # sqrt(s) < 1e-6 exactly when s < the bound: around the bound ulp by ulp, and on
    # random squared norms of every scale.
    bound = lqr._TERMINAL_SQUARED_NORM
    below = above = bound
    for _ in range(2000):
        below = np.nextafter(below, 0.0)
        above = np.nextafter(above, np.inf)
        assert np.sqrt(below) < lqr._TERMINAL_TOLERANCE and below < bound
        assert not np.sqrt(above) < lqr._TERMINAL_TOLERANCE and not above < bound
    assert not np.sqrt(bound) < lqr._TERMINAL_TOLERANCE
    squares = np.concatenate(
        [10.0 ** np.random.default_rng(0).uniform(-20, 2, 100_000), [0.0, np.inf, np.nan]]
    )
    np.testing.assert_array_equal(np.sqrt(squares) < lqr._TERMINAL_TOLERANCE, squares < bound)


def _set_state(physics, qpos, qvel, ctrl):
    physics.data.qpos[:] = qpos
    physics.data.qvel[:] = qvel
    physics.data.ctrl[:] = ctrl


@pytest.mark.parametrize("task", ["lqr_2_1", "lqr_6_2"])
def test_get_outcome_is_the_three_methods(task):
    env = suite.load("lqr", task, task_kwargs={"random": 3})
    env.reset()
    physics, level = env.physics, env.task
    rng = np.random.default_rng(1)
    nq, nu = physics.model.nq, physics.model.nu
    scales = [1.0, 1e-3, 4e-7, 1e-7, 1e-9, 0.0]
    for scale in scales:
        for _ in range(50):
            _set_state(
                physics,
                scale * rng.normal(size=nq),
                scale * rng.normal(size=nq),
                rng.normal(size=nu),
            )
            reward, terminated, discount = level.get_outcome(physics)
            assert reward == level.get_reward(physics)
            assert terminated == level.should_terminate_episode(physics)
            assert terminated == (physics.state_norm() < lqr._TERMINAL_TOLERANCE)
            assert discount == level.get_discount(physics) == (0.0 if terminated else 1.0)


@pytest.mark.parametrize("task", ["lqr_2_1", "lqr_6_2"])
def test_batched_outcome_is_each_copys(task):
    # A batch's physics with copies far from, near and at the origin, against each
    # copy's own physics in the same state: the same bits, with and without a copy
    # that terminates.
    num_envs = 6
    batch = suite.load_batch("lqr", task, num_envs, seed=2)
    batch.reset()
    physics = batch._batch_physics
    level = batch.envs[0].task
    rng = np.random.default_rng(4)
    nq, nu = physics.model.nq, physics.model.nu
    for scales in ([1.0, 0.3, 1e-3, 2.0, 1e-2, 5.0], [1.0, 4e-7, 1e-9, 0.0, 1e-7, 3.0]):
        qpos = np.asarray(scales)[:, None] * rng.normal(size=(num_envs, nq))
        qvel = np.asarray(scales)[:, None] * rng.normal(size=(num_envs, nq))
        ctrl = rng.normal(size=(num_envs, nu))
        _set_state(physics, qpos, qvel, ctrl)
        rewards, terminated, discounts = level.get_outcome(physics)
        single = batch.envs[0].physics
        for index in range(num_envs):
            _set_state(single, qpos[index], qvel[index], ctrl[index])
            reward, ended, discount = level.get_outcome(single)
            assert rewards[index] == reward
            assert np.broadcast_to(terminated, (num_envs,))[index] == ended
            assert np.broadcast_to(discounts, (num_envs,))[index] == discount
            assert reward == level.get_reward(single)


class _NearOrigin(lqr.LqrLevel):
    """lqr_2_1 whose episodes start at rest at a random distance of 1e-8 to 1e-5 m from
    the origin, so that some end (discount 0) within a few steps."""

    def __init__(self, random_state):
        super().__init__(2, 1, lqr._CONTROL_COST_COEF, random_state)

    def initialize_episode(self, physics, random_state):
        unit = random_state.randn(physics.model.nq)
        radius = 10.0 ** random_state.uniform(-8, -5)
        physics.data.qpos[:] = radius * unit / np.linalg.norm(unit)


def _near_origin_environment(seed):
    random_state = np.random.RandomState(seed)
    return base.make_environment(_NearOrigin(random_state), lqr._DEFAULT_TIME_LIMIT, random_state)


def test_batched_copies_terminate_at_the_origin_as_single_environments():
    num_envs, steps = 6, 12
    batch = batch_module.BatchEnvironment.from_environments(
        _near_origin_environment, num_envs, seed=6
    )
    assert batch.vectorized
    singles = [_near_origin_environment(copy_seed(6, i)) for i in range(num_envs)]
    batched = batch.reset()
    alone = [env.reset() for env in singles]
    actions = np.zeros((num_envs, 1))
    terminations = restarts = 0
    for step in range(steps + 1):
        for index, timestep in enumerate(alone):
            assert batched.step_type[index] == timestep.step_type, (step, index)
            assert batched.reward[index] == (timestep.reward or 0.0)
            assert batched.discount[index] == (
                1.0 if timestep.discount is None else timestep.discount
            )
            for name, value in timestep.observation.items():
                np.testing.assert_array_equal(batched.observation[name][index], value)
        if step:
            terminations += int(np.sum(batched.last() & (batched.discount == 0.0)))
            restarts += int(np.sum(batched.first()))
        if step == steps:
            break
        batched = batch.step(actions)
        alone = [env.step(actions[index]) for index, env in enumerate(singles)]
    assert terminations >= 3 and restarts >= 3


def test_batched_copies_share_one_model_with_their_own_stiffnesses():
    batch = suite.load_batch("lqr", "lqr_6_2", 4, seed=1)
    batch.reset()
    assert batch.batch.models is None  # One model, not one per copy.
    np.testing.assert_array_equal(
        batch.batch.expanded("jnt_stiffness"),
        np.stack([batch.copy_model(index).jnt_stiffness for index in range(batch.num_envs)]),
    )
    assert len({batch.copy_model(index).jnt_stiffness.tobytes() for index in range(4)}) == 4


class _UndeclaredStiffness(lqr.LqrLevel):
    batch_model_fields = ()


class _UnexpandableField(lqr.LqrLevel):
    batch_model_fields = ("jnt_stiffness", "hfield_data")


def _level_environment(task_class):
    def make(seed):
        random_state = np.random.RandomState(seed)
        task = task_class(2, 1, lqr._CONTROL_COST_COEF, random_state)
        return base.make_environment(task, lqr._DEFAULT_TIME_LIMIT, random_state)

    return make


def test_a_model_difference_the_task_does_not_declare_is_found_and_expanded():
    batch = batch_module.BatchEnvironment.from_environments(
        _level_environment(_UndeclaredStiffness), 2, seed=0
    )
    batch.reset()
    assert batch.batch.models is None
    np.testing.assert_array_equal(
        batch.batch.expanded("jnt_stiffness"),
        np.stack([batch.copy_model(index).jnt_stiffness for index in range(batch.num_envs)]),
    )
    with pytest.raises(ValueError, match="hfield_data"):
        batch_module.BatchEnvironment.from_environments(
            _level_environment(_UnexpandableField), 2, seed=0
        )
