"""Reacher domain: published model facts, hand-computed rewards, initial states."""

import math

import mujoco
import numpy as np
import pytest

from mjcf_models import reacher as reacher_model
from suites import reacher
from suites import suite


def _env(task="easy", seed=0):
    env = suite.load("reacher", task, task_kwargs={"random": seed})
    env.reset()
    return env


def _pose(physics, shoulder, wrist, target_xy):
    """Sets the arm's angles (rad) and the target's centre (world x, y in m)."""
    physics.model.geom("target").pos[:2] = target_xy
    with physics.reset_context():
        physics.data.qpos[:] = shoulder, wrist
    return physics


def test_published_dimensions_and_layout():
    # dm_control paper §6.2: reacher has state 4, action 2, observation 6.
    env = _env()
    model = env.physics.model
    assert model.nq + model.nv == 4
    assert env.action_spec().shape == (2,)
    observation_spec = env.observation_spec()
    assert list(observation_spec) == ["position", "to_target", "velocity"]
    assert [spec.shape for spec in observation_spec.values()] == [(2,), (2,), (2,)]
    assert [model.joint(i).name for i in range(model.njnt)] == ["shoulder", "wrist"]
    assert [model.actuator(i).name for i in range(model.nu)] == ["shoulder", "wrist"]


def test_published_physical_parameters():
    model = reacher_model.make_spec().compile()
    assert model.opt.timestep == 0.02
    assert model.opt.disableflags & mujoco.mjtDisableBit.mjDSBL_CONTACT
    np.testing.assert_allclose(model.actuator_gear[:, 0], [0.05, 0.05])
    np.testing.assert_allclose(model.dof_damping, [0.01, 0.01])
    assert not model.jnt_limited[0]
    np.testing.assert_allclose(model.jnt_range[1], np.radians([-160, 160]))
    # Links of 0.12 m each: straight, the finger is 0.24 m from the shoulder axis.
    data = mujoco.MjData(model)
    mujoco.mj_forward(model, data)
    np.testing.assert_allclose(data.geom("finger").xpos, [0.24, 0, 0.01], atol=1e-15)
    assert {model.camera(i).name for i in range(model.ncam)} == {"fixed", "hand"}
    assert model.camera("hand").mode == mujoco.mjtCamLight.mjCAMLIGHT_TRACK


def test_control_timestep_is_one_physics_step_and_episodes_last_1000_steps():
    env = _env()
    assert env.task.control_timestep == pytest.approx(0.02)
    assert env.task.physics_steps_per_control_step == 1
    steps, timestep = 0, env.reset()
    while not timestep.last():
        timestep = env.step(np.zeros(2))
        steps += 1
    assert steps == 1000


def test_finger_to_target_by_hand():
    env = _env()
    # Shoulder at 90 degrees puts the upper arm along +y; the wrist at -90 degrees
    # turns the forearm back to +x: the finger is at (0.12, 0.12).
    physics = _pose(env.physics, math.pi / 2, -math.pi / 2, target_xy=(0.05, -0.1))
    np.testing.assert_allclose(physics.finger_to_target(), [-0.07, -0.22], atol=1e-12)
    assert physics.finger_to_target_dist() == pytest.approx(math.hypot(0.07, 0.22))


@pytest.mark.parametrize("task, target_radius", [("easy", 0.05), ("hard", 0.015)])
def test_reward_is_one_while_finger_and_target_overlap(task, target_radius):
    env = _env(task)
    physics = env.physics
    assert physics.model.geom("target").size[0] == target_radius
    reach = target_radius + 0.01  # plus the finger's radius
    # Straight arm: the finger is at (0.24, 0).
    for gap, expected in ((0.0, 1.0), (0.999 * reach, 1.0), (1.001 * reach, 0.0), (0.1, 0.0)):
        _pose(physics, 0.0, 0.0, target_xy=(0.24 - gap, 0.0))
        assert env.task.get_reward(physics) == expected, gap


def test_initial_states_are_within_the_published_ranges():
    env = suite.load("reacher", "easy", task_kwargs={"random": 3})
    wrist_limit = math.radians(160)
    for _ in range(200):
        env.reset()
        data, model = env.physics.data, env.physics.model
        assert -math.pi <= data.qpos[0] < math.pi
        assert -wrist_limit <= data.qpos[1] < wrist_limit
        np.testing.assert_array_equal(data.qvel, 0.0)
        target = model.geom("target").pos
        assert 0.05 <= math.hypot(target[0], target[1]) < 0.2
        assert target[2] == 0.01


def test_physics_class_is_the_domain_one():
    assert isinstance(_env().physics, reacher.Physics)


def test_target_size_must_be_positive():
    with pytest.raises(ValueError, match="target_size"):
        reacher.Reacher(target_size=0.0)
