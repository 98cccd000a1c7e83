"""Cart-pole domain: published model facts, hand-computed rewards, initial states."""

import math

import mujoco
import numpy as np
import pytest

from mjcf_models import cartpole as cartpole_model
from suites import cartpole
from suites import suite


def _set_state(env, cart_position=0.0, pole_angles=(0.0,), velocities=None, control=0.0):
    """Writes a state and control, then recomputes derived quantities."""
    physics = env.physics
    physics.data.qpos[:] = (cart_position,) + tuple(pole_angles)
    physics.data.qvel[:] = 0.0 if velocities is None else velocities
    physics.data.ctrl[:] = control
    physics.forward()
    return physics


def _initial_positions(task, count, seed):
    """qpos of `count` episode starts, drawn by the task itself (without the
    Environment's per-reset bookkeeping, to keep the test fast)."""
    env = suite.load("cartpole", task)
    physics, random_state = env.physics, np.random.RandomState(seed)
    positions = []
    for _ in range(count):
        with physics.reset_context():
            env.task.initialize_episode(physics, random_state)
        positions.append(physics.data.qpos.copy())
    return np.array(positions)


def test_published_dimensions_and_layout():
    # dm_control paper §6.2: cartpole has state 4, action 1, observation 5.
    env = suite.load("cartpole", "swingup", task_kwargs={"random": 0})
    model = env.physics.model
    assert model.nq + model.nv == 4
    assert env.action_spec().shape == (1,)
    observation_spec = env.observation_spec()
    assert list(observation_spec) == ["position", "velocity"]
    assert [spec.shape for spec in observation_spec.values()] == [(3,), (2,)]
    assert [model.joint(i).name for i in range(model.njnt)] == ["slider", "hinge_1"]
    assert model.actuator(0).name == "slide"
    assert model.jnt_type.tolist() == [mujoco.mjtJoint.mjJNT_SLIDE, mujoco.mjtJoint.mjJNT_HINGE]


def test_published_physical_parameters():
    model = cartpole_model.make_spec().compile()
    assert model.opt.timestep == 0.01
    assert model.opt.integrator == mujoco.mjtIntegrator.mjINT_RK4
    assert model.opt.disableflags & mujoco.mjtDisableBit.mjDSBL_CONTACT
    np.testing.assert_allclose(model.body_mass, [0.0, 1.0, 0.1])
    np.testing.assert_allclose(model.jnt_range[0], [-1.8, 1.8])
    np.testing.assert_allclose(model.dof_damping, [5e-4, 2e-6])
    np.testing.assert_allclose(model.actuator_gear[0, 0], 10.0)
    # A 1 m pole: its centre of mass is half way up.
    np.testing.assert_allclose(model.body_ipos[2], [0.0, 0.0, 0.5])
    assert {model.camera(i).name for i in range(model.ncam)} == {"fixed", "lookatcart"}


def test_control_and_episode_timing():
    env = suite.load("cartpole", "balance", task_kwargs={"random": 0})
    assert env.task.control_timestep == pytest.approx(0.01)
    assert env.task.physics_steps_per_control_step == 1
    timestep = env.reset()
    steps = 0
    while not timestep.last():
        timestep = env.step(np.zeros(1))
        steps += 1
    assert steps == 1000


def test_bounded_position_is_cart_position_then_cosine_and_sine():
    env = suite.load("cartpole", "swingup", task_kwargs={"random": 0})
    env.reset()
    physics = _set_state(env, cart_position=0.3, pole_angles=(0.4,), velocities=(1.5, -2.0))
    np.testing.assert_allclose(
        physics.bounded_position(), [0.3, math.cos(0.4), math.sin(0.4)], atol=1e-12
    )
    np.testing.assert_array_equal(physics.velocity(), [1.5, -2.0])


def test_dense_reward_of_upright_centred_still_pole_is_one():
    env = suite.load("cartpole", "swingup", task_kwargs={"random": 0})
    env.reset()
    physics = _set_state(env)
    assert env.task.get_reward(physics) == pytest.approx(1.0)


def test_dense_reward_at_the_margins_by_hand():
    env = suite.load("cartpole", "swingup", task_kwargs={"random": 0})
    env.reset()
    # Pole horizontal: upright = (cos(pi/2) + 1) / 2 = 0.5. Cart 2 m off centre, at
    # the Gaussian's margin (value 0.1): centred = (1 + 0.1) / 2. Control 0.5 with a
    # quadratic of margin 1 reaching 0: 1 - 0.5**2 = 0.75, so (4 + 0.75) / 5. Hinge
    # speed 5 rad/s, at the margin: (1 + 0.1) / 2.
    physics = _set_state(
        env, cart_position=2.0, pole_angles=(math.pi / 2,), velocities=(0.0, 5.0), control=0.5
    )
    expected = 0.5 * 0.55 * 0.95 * 0.55
    assert env.task.get_reward(physics) == pytest.approx(expected, rel=1e-9)


@pytest.mark.parametrize("task", ["balance_sparse", "swingup_sparse"])
def test_sparse_reward_is_an_indicator_of_the_target_region(task):
    env = suite.load("cartpole", task, task_kwargs={"random": 0})
    env.reset()
    # Cart within 0.25 m and pole within arccos(0.995) = 5.73 degrees: reward 1.
    assert env.task.get_reward(_set_state(env, 0.2, (math.radians(5.0),))) == 1.0
    assert env.task.get_reward(_set_state(env, 0.3, (0.0,))) == 0.0
    assert env.task.get_reward(_set_state(env, 0.0, (math.radians(6.0),))) == 0.0


def test_swingup_starts_hanging_down_near_the_centre():
    qpos = _initial_positions("swingup", 500, seed=3)
    # Cart ~ N(0, 0.01) m and hinge ~ pi + N(0, 0.01) rad.
    assert np.all(np.abs(qpos[:, 0]) < 0.05)
    assert np.all(np.abs(qpos[:, 1] - np.pi) < 0.05)
    assert np.std(qpos[:, 1]) == pytest.approx(0.01, rel=0.2)


def test_balance_starts_near_upright():
    qpos = _initial_positions("balance", 500, seed=3)
    # Cart ~ U(-0.1, 0.1) m and hinge ~ U(-0.034, 0.034) rad.
    assert np.all(np.abs(qpos[:, 0]) <= 0.1) and np.max(np.abs(qpos[:, 0])) > 0.08
    assert np.all(np.abs(qpos[:, 1]) <= 0.034) and np.max(np.abs(qpos[:, 1])) > 0.03


@pytest.mark.parametrize("task, num_poles", [("two_poles", 2), ("three_poles", 3)])
def test_multi_pole_variants(task, num_poles):
    env = suite.load("cartpole", task, task_kwargs={"random": 0})
    model = env.physics.model
    assert [model.joint(i).name for i in range(model.njnt)] == (
        ["slider"] + [f"hinge_{i}" for i in range(1, num_poles + 1)]
    )
    assert env.observation_spec()["position"].shape == (1 + 2 * num_poles,)
    assert env.observation_spec()["velocity"].shape == (1 + num_poles,)
    # The published variant lowers the floor so the hanging chain clears it.
    assert model.geom("floor").pos[2] == pytest.approx(1 - num_poles - 0.05)
    env.reset()
    _set_state(env, pole_angles=(0.0,) * num_poles)
    np.testing.assert_allclose(env.physics.pole_angle_cosine(), np.ones(num_poles))
    assert env.task.get_reward(env.physics) == pytest.approx(1.0)


def test_three_poles_accepts_a_pole_count():
    env = suite.load("cartpole", "three_poles", task_kwargs={"random": 0, "num_poles": 4})
    assert env.physics.model.nq == 5


def test_make_spec_rejects_bad_pole_counts():
    for bad in (0, -1, 1.5, True):
        with pytest.raises(ValueError, match="num_poles must be an integer >= 1"):
            cartpole_model.make_spec(bad)


def test_physics_class_is_the_domain_one():
    env = suite.load("cartpole", "balance", task_kwargs={"random": 0})
    assert isinstance(env.physics, cartpole.Physics)
