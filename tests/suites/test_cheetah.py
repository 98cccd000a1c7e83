"""Cheetah domain: published layout and model facts, hand-computed rewards, initial states."""

import numpy as np
import pytest

from suites import cheetah
from suites import suite

_JOINTS = ["rootx", "rootz", "rooty", "bthigh", "bshin", "bfoot", "fthigh", "fshin", "ffoot"]


def _still_pose(env, forward_velocity=0.0):
    """The model's initial pose with every body moving forward at `forward_velocity` m/s."""
    physics = env.physics
    physics.reset()
    physics.data.qvel[0] = forward_velocity
    physics.forward()
    return physics


def test_published_dimensions_and_layout():
    # dm_control paper §6.2: cheetah has state 18, action 6, observation 17.
    env = suite.load("cheetah", "run", task_kwargs={"random": 0})
    model = env.physics.model
    assert model.nq + model.nv == 18
    assert env.action_spec().shape == (6,)
    observation_spec = env.observation_spec()
    assert list(observation_spec) == ["position", "velocity"]
    assert [spec.shape for spec in observation_spec.values()] == [(8,), (9,)]
    assert [model.joint(i).name for i in range(model.njnt)] == _JOINTS
    assert [model.actuator(i).name for i in range(model.nu)] == _JOINTS[3:]


def test_timing():
    env = suite.load("cheetah", "run", task_kwargs={"random": 0})
    assert env.physics.model.opt.timestep == 0.01
    assert env.task.control_timestep == pytest.approx(0.01)
    assert env.task.physics_steps_per_control_step == 1


@pytest.mark.parametrize(
    "speed, expected", [(-3.0, 0.0), (0.0, 0.0), (2.5, 0.25), (7.0, 0.7), (10.0, 1.0), (14.0, 1.0)]
)
def test_reward_grows_linearly_with_speed_up_to_ten(speed, expected):
    env = suite.load("cheetah", "run", task_kwargs={"random": 0})
    physics = _still_pose(env, forward_velocity=speed)
    # Every body moves at rootx's velocity, so the centre of mass does too.
    assert physics.speed() == pytest.approx(speed, abs=1e-12)
    assert env.task.get_reward(physics) == pytest.approx(expected, abs=1e-12)


def test_observations_are_positions_without_rootx_and_velocities():
    env = suite.load("cheetah", "run", task_kwargs={"random": 0})
    observation = env.reset().observation
    physics = env.physics
    np.testing.assert_array_equal(observation["position"], physics.data.qpos[1:])
    np.testing.assert_array_equal(observation["velocity"], physics.data.qvel)
    # Translational invariance: the horizontal position is not observed.
    physics.data.qpos[0] += 50.0
    physics.forward()
    np.testing.assert_array_equal(physics.position_without_rootx(), observation["position"])


def test_episodes_start_settled_at_time_zero():
    env = suite.load("cheetah", "run", task_kwargs={"random": 0})
    poses = []
    for _ in range(3):
        env.reset()
        physics = env.physics
        assert physics.time() == 0.0
        # Two seconds of settling leave the cheetah nearly at rest on the ground.
        assert np.max(np.abs(physics.data.qvel)) < 1.0
        poses.append(physics.data.qpos.copy())
    assert not np.allclose(poses[0], poses[1])


def test_physics_class_is_the_domain_one():
    env = suite.load("cheetah", "run", task_kwargs={"random": 0})
    assert isinstance(env.physics, cheetah.Physics)
