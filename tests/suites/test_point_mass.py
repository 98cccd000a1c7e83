"""Point-mass domain: published model facts, hand-computed rewards, initial states,
the actuation directions of the hard task."""

import mujoco
import numpy as np
import pytest

from mjcf_models import point_mass as point_mass_model
from suites import point_mass
from suites import suite


def _env(task="easy", seed=0):
    env = suite.load("point_mass", task, task_kwargs={"random": seed})
    env.reset()
    return env


def _set_state(env, position, velocity=(0.0, 0.0), control=(0.0, 0.0)):
    physics = env.physics
    physics.data.qpos[:] = position
    physics.data.qvel[:] = velocity
    physics.data.ctrl[:] = control
    physics.forward()
    return physics


def test_published_dimensions_and_layout():
    # dm_control paper §6.2: point_mass has state 4, action 2, observation 4.
    env = _env()
    model = env.physics.model
    assert model.nq + model.nv == 4
    assert env.action_spec().shape == (2,)
    observation_spec = env.observation_spec()
    assert list(observation_spec) == ["position", "velocity"]
    assert [spec.shape for spec in observation_spec.values()] == [(2,), (2,)]
    assert [model.joint(i).name for i in range(model.njnt)] == ["root_x", "root_y"]
    assert [model.actuator(i).name for i in range(model.nu)] == ["t1", "t2"]


def test_published_physical_parameters():
    model = point_mass_model.make_spec().compile()
    assert model.opt.timestep == 0.02
    assert model.opt.disableflags & mujoco.mjtDisableBit.mjDSBL_CONTACT
    np.testing.assert_allclose(model.body("pointmass").mass, [0.3])
    np.testing.assert_allclose(model.jnt_range, [[-0.29, 0.29], [-0.29, 0.29]])
    np.testing.assert_allclose(model.dof_damping, [1.0, 1.0])
    np.testing.assert_allclose(model.actuator_gear[:, 0], [0.1, 0.1])
    np.testing.assert_allclose(model.geom("target").size[0], 0.015)
    np.testing.assert_allclose(model.wrap_prm, [1.0, 0.0, 0.0, 1.0])
    assert {model.camera(i).name for i in range(model.ncam)} == {"fixed", "cam0"}


def test_motors_push_along_world_x_and_y():
    env = _env()
    physics = _set_state(env, (0.0, 0.0), control=(1.0, -0.5))
    # Force = control * gear 0.1 N along each tendon's direction.
    np.testing.assert_allclose(physics.data.qfrc_actuator, [0.1, -0.05], atol=1e-12)


def test_observations_are_position_and_velocity():
    env = _env()
    physics = _set_state(env, (0.1, -0.2), velocity=(0.3, 0.4))
    np.testing.assert_array_equal(physics.position(), [0.1, -0.2])
    np.testing.assert_array_equal(physics.velocity(), [0.3, 0.4])
    np.testing.assert_allclose(physics.mass_to_target(), [-0.1, 0.2, 0.0], atol=1e-12)


def test_reward_by_hand():
    env = _env()
    # At the target without control: 1.
    assert env.task.get_reward(_set_state(env, (0.0, 0.0))) == pytest.approx(1.0)
    # Inside the 0.015 m target, full control on one motor: the control term of that
    # motor is 0, so small_control = (mean(0, 1) + 4) / 5 = 0.9.
    physics = _set_state(env, (0.01, 0.0), control=(1.0, 0.0))
    assert env.task.get_reward(physics) == pytest.approx(0.9)
    # 0.03 m away, one margin (0.015 m) outside the target: Gaussian value 0.1.
    # Controls 0.5: each control term 1 - 0.5**2 = 0.75, small_control = 0.95.
    physics = _set_state(env, (0.0, 0.03), control=(0.5, -0.5))
    assert env.task.get_reward(physics) == pytest.approx(0.1 * 0.95)


def test_initial_position_is_uniform_within_the_joint_limits():
    env = suite.load("point_mass", "easy")
    physics, random_state = env.physics, np.random.RandomState(2)
    positions = []
    for _ in range(1000):
        with physics.reset_context():
            env.task.initialize_episode(physics, random_state)
        np.testing.assert_array_equal(physics.data.qvel, [0.0, 0.0])
        positions.append(physics.data.qpos.copy())
    positions = np.array(positions)
    assert np.all(np.abs(positions) <= 0.29)
    # Uniform on [-0.29, 0.29]: standard deviation 0.58 / sqrt(12).
    np.testing.assert_allclose(np.std(positions, axis=0), 0.58 / np.sqrt(12), rtol=0.1)


def test_hard_task_draws_unit_directions_that_are_not_nearly_parallel():
    env = suite.load("point_mass", "hard")
    physics, random_state = env.physics, np.random.RandomState(9)
    seen = set()
    for _ in range(50):
        with physics.reset_context():
            env.task.initialize_episode(physics, random_state)
        first, second = physics.model.wrap_prm[:2], physics.model.wrap_prm[2:]
        assert np.linalg.norm(first) == pytest.approx(1.0)
        assert np.linalg.norm(second) == pytest.approx(1.0)
        assert abs(np.dot(first, second)) <= 0.9
        seen.add(tuple(np.round(physics.model.wrap_prm, 6)))
        # Motor t1 now pushes along the first direction.
        physics.data.ctrl[:] = (1.0, 0.0)
        mujoco.mj_forward(physics.model, physics.data)
        np.testing.assert_allclose(physics.data.qfrc_actuator, 0.1 * first, atol=1e-12)
    assert len(seen) == 50


def test_easy_task_keeps_the_axis_aligned_motors():
    env = _env()
    for _ in range(3):
        env.reset()
        np.testing.assert_array_equal(env.physics.model.wrap_prm, [1.0, 0.0, 0.0, 1.0])


def test_physics_class_is_the_domain_one():
    assert isinstance(_env().physics, point_mass.Physics)
