"""LQR domain and solver: the generated model, reward, termination, initial states,
and the optimal policy scoring what the published solver scores."""

import json
import os

import mujoco
import numpy as np
import pytest

from mjcf_models import lqr as lqr_model
from suites import lqr, lqr_solver, suite

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
