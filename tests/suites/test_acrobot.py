"""Acrobot domain: published model facts, hand-computed rewards, initial states."""

import math

import mujoco
import numpy as np
import pytest

from mjcf_models import acrobot as acrobot_model
from suites import acrobot
from suites import suite


def _env(task="swingup"):
    env = suite.load("acrobot", task, task_kwargs={"random": 0})
    env.reset()
    return env


def _set_state(env, shoulder, elbow, velocities=(0.0, 0.0)):
    physics = env.physics
    physics.data.qpos[:] = (shoulder, elbow)
    physics.data.qvel[:] = velocities
    physics.forward()
    return physics


def _elbow_for_tip_distance(distance):
    """Elbow angle putting the tip `distance` metres from the target when the upper
    arm is upright: the tip then lies on a unit circle through the target, at
    chord length 2 sin(elbow / 2)."""
    return 2 * math.asin(distance / 2)


def test_published_dimensions_and_layout():
    # dm_control paper §6.2: acrobot has state 4, action 1, observation 6.
    env = _env()
    model = env.physics.model
    assert model.nq + model.nv == 4
    assert env.action_spec().shape == (1,)
    observation_spec = env.observation_spec()
    assert list(observation_spec) == ["orientations", "velocity"]
    assert [spec.shape for spec in observation_spec.values()] == [(4,), (2,)]
    assert [model.joint(i).name for i in range(model.njnt)] == ["shoulder", "elbow"]
    assert model.actuator(0).name == "elbow"


def test_published_physical_parameters():
    model = acrobot_model.make_spec().compile()
    assert model.opt.timestep == 0.01
    assert model.opt.integrator == mujoco.mjtIntegrator.mjINT_RK4
    assert model.opt.disableflags & mujoco.mjtDisableBit.mjDSBL_CONSTRAINT
    np.testing.assert_allclose(model.body_mass[1:], [1.0, 1.0])
    np.testing.assert_allclose(model.body_ipos[1:], [[0, 0, 0.5], [0, 0, 0.5]])
    np.testing.assert_allclose(model.dof_damping, [0.05, 0.05])
    np.testing.assert_allclose(model.actuator_gear[0, 0], 2.0)
    np.testing.assert_allclose(model.site("target").pos, [0.0, 0.0, 4.0])
    np.testing.assert_allclose(model.site("target").size[0], 0.2)
    assert {model.camera(i).name for i in range(model.ncam)} == {"fixed", "lookat"}


def test_only_the_elbow_is_actuated():
    physics = _set_state(_env(), 0.3, -0.4)
    physics.data.ctrl[:] = 1.0
    mujoco.mj_forward(physics.model, physics.data)
    np.testing.assert_allclose(physics.data.qfrc_actuator, [0.0, 2.0])


def test_orientations_are_link_sines_then_cosines():
    env = _env()
    shoulder, elbow = 0.5, -1.2
    physics = _set_state(env, shoulder, elbow, velocities=(0.7, -0.8))
    # The lower link's angle from upright is the sum of the joint angles.
    expected = [
        math.sin(shoulder),
        math.sin(shoulder + elbow),
        math.cos(shoulder),
        math.cos(shoulder + elbow),
    ]
    np.testing.assert_allclose(physics.orientations(), expected, atol=1e-12)
    np.testing.assert_allclose(physics.horizontal(), expected[:2], atol=1e-12)
    np.testing.assert_allclose(physics.vertical(), expected[2:], atol=1e-12)
    np.testing.assert_array_equal(physics.velocity(), [0.7, -0.8])


def test_rewards_by_hand():
    dense, sparse = _env("swingup"), _env("swingup_sparse")
    # Upright: the tip is at the target's centre, 4 m up.
    for env in (dense, sparse):
        physics = _set_state(env, 0.0, 0.0)
        assert physics.to_target() == pytest.approx(0.0, abs=1e-12)
        assert env.task.get_reward(physics) == 1.0
    # 0.15 m away: inside the 0.2 m target.
    for env in (dense, sparse):
        physics = _set_state(env, 0.0, _elbow_for_tip_distance(0.15))
        assert physics.to_target() == pytest.approx(0.15)
        assert env.task.get_reward(physics) == 1.0
    # 1.2 m away: one margin (1 m) outside the target. The dense Gaussian gives 0.1.
    physics = _set_state(dense, 0.0, _elbow_for_tip_distance(1.2))
    assert dense.task.get_reward(physics) == pytest.approx(0.1)
    assert sparse.task.get_reward(_set_state(sparse, 0.0, _elbow_for_tip_distance(1.2))) == 0.0
    # Hanging straight down: 4 m away.
    physics = _set_state(dense, math.pi, 0.0)
    assert physics.to_target() == pytest.approx(4.0)
    assert dense.task.get_reward(physics) == pytest.approx(0.1 ** (3.8**2))


def test_initial_angles_are_uniform_and_velocities_zero():
    env = suite.load("acrobot", "swingup")
    physics, random_state = env.physics, np.random.RandomState(6)
    angles = []
    for _ in range(2000):
        with physics.reset_context():
            env.task.initialize_episode(physics, random_state)
        np.testing.assert_array_equal(physics.data.qvel, [0.0, 0.0])
        angles.append(physics.data.qpos.copy())
    angles = np.array(angles)
    assert np.all((angles >= -np.pi) & (angles < np.pi))
    np.testing.assert_allclose(np.std(angles, axis=0), np.pi / np.sqrt(3), rtol=0.05)
    # Independent joints: the correlation is near zero.
    assert abs(np.corrcoef(angles.T)[0, 1]) < 0.1


def test_physics_class_is_the_domain_one():
    assert isinstance(_env().physics, acrobot.Physics)
