"""Pendulum domain: published model facts, hand-computed rewards, initial states."""

import math

import mujoco
import numpy as np
import pytest

from mjcf_models import pendulum as pendulum_model
from suites import pendulum
from suites import suite


def _env():
    env = suite.load("pendulum", "swingup", task_kwargs={"random": 0})
    env.reset()
    return env


def _set_state(env, angle, angular_velocity=0.0):
    physics = env.physics
    physics.data.qpos[:] = angle
    physics.data.qvel[:] = angular_velocity
    physics.forward()
    return physics


def test_published_dimensions_and_layout():
    # dm_control paper §6.2: pendulum has state 2, action 1, observation 3.
    env = _env()
    model = env.physics.model
    assert model.nq + model.nv == 2
    assert env.action_spec().shape == (1,)
    observation_spec = env.observation_spec()
    assert list(observation_spec) == ["orientation", "velocity"]
    assert [spec.shape for spec in observation_spec.values()] == [(2,), (1,)]
    assert model.joint(0).name == "hinge" and model.actuator(0).name == "torque"


def test_published_physical_parameters():
    model = pendulum_model.make_spec().compile()
    assert model.opt.timestep == 0.02
    assert model.opt.integrator == mujoco.mjtIntegrator.mjINT_EULER
    assert model.opt.disableflags & mujoco.mjtDisableBit.mjDSBL_CONTACT
    # All of the 1 kg sits in the bob, 0.5 m from the hinge.
    np.testing.assert_allclose(model.body("pole").mass, [1.0])
    np.testing.assert_allclose(model.body("pole").ipos, [0.0, 0.0, 0.5])
    np.testing.assert_allclose(model.body("pole").pos, [0.0, 0.0, 0.6])
    np.testing.assert_allclose(model.dof_damping, [0.1])
    np.testing.assert_allclose(model.actuator_gear[0, 0], 1.0)
    np.testing.assert_allclose(model.actuator_ctrlrange[0], [-1.0, 1.0])
    assert {model.camera(i).name for i in range(model.ncam)} == {"fixed", "lookat"}


def test_control_timestep_and_episode_length():
    env = _env()
    assert env.task.control_timestep == pytest.approx(0.02)
    assert env.task.physics_steps_per_control_step == 1
    steps, timestep = 0, env.reset()
    while not timestep.last():
        timestep = env.step(np.zeros(1))
        steps += 1
    assert steps == 1000


def test_observations_are_cosine_sine_and_angular_velocity():
    env = _env()
    physics = _set_state(env, angle=0.7, angular_velocity=-1.25)
    np.testing.assert_allclose(
        physics.pole_orientation(), [math.cos(0.7), math.sin(0.7)], atol=1e-12
    )
    np.testing.assert_array_equal(physics.angular_velocity(), [-1.25])
    assert physics.pole_vertical() == pytest.approx(math.cos(0.7))


def test_reward_is_one_within_eight_degrees_of_upright():
    env = _env()
    for degrees, expected in (
        (0.0, 1.0),
        (7.9, 1.0),
        (-7.9, 1.0),
        (8.1, 0.0),
        (-8.1, 0.0),
        (90.0, 0.0),
        (180.0, 0.0),
    ):
        physics = _set_state(env, angle=math.radians(degrees))
        assert env.task.get_reward(physics) == expected, degrees


def test_initial_angle_is_uniform_and_velocity_zero():
    env = suite.load("pendulum", "swingup")
    physics, random_state = env.physics, np.random.RandomState(4)
    angles = []
    for _ in range(2000):
        with physics.reset_context():
            env.task.initialize_episode(physics, random_state)
        assert physics.data.qvel[0] == 0.0
        angles.append(physics.data.qpos[0])
    angles = np.array(angles)
    assert np.all((angles >= -np.pi) & (angles < np.pi))
    # Uniform on [-pi, pi): mean 0, standard deviation pi / sqrt(3).
    assert abs(np.mean(angles)) < 0.15
    assert np.std(angles) == pytest.approx(np.pi / np.sqrt(3), rel=0.05)


def test_torque_is_too_weak_to_hold_the_pole_horizontal():
    # Gravity torque of the horizontal bob, 1 kg * 9.81 m/s^2 * 0.5 m, exceeds the
    # motor's 1 N m: the task needs a swing.
    env = _env()
    physics = _set_state(env, angle=math.pi / 2)
    physics.data.ctrl[:] = -1.0
    mujoco.mj_forward(physics.model, physics.data)
    assert abs(physics.data.qfrc_actuator[0]) == pytest.approx(1.0)
    assert abs(physics.data.qfrc_bias[0]) == pytest.approx(9.81 * 0.5)


def test_physics_class_is_the_domain_one():
    assert isinstance(_env().physics, pendulum.Physics)
