"""Ball-in-cup domain: published model facts, hand-computed rewards, the string, initial states."""

import math

import mujoco
import numpy as np
import pytest

from mjcf_models import ball_in_cup as ball_in_cup_model
from suites import ball_in_cup
from suites import suite

# At rest, the target box's centre is at world z 0.6 - 0.05 and the ball body's
# origin at z 0.2, so ball_z = 0.35 puts the ball's centre on the target's.
_BALL_Z_IN_CUP = 0.35
# Half-extent of the target box (0.05 m) less the ball's radius (0.025 m).
_SLACK = 0.025


def _env(seed=0):
    env = suite.load("ball_in_cup", "catch", task_kwargs={"random": seed})
    env.reset()
    return env


def _set_state(physics, qpos, qvel=(0.0, 0.0, 0.0, 0.0)):
    with physics.reset_context():
        physics.data.qpos[:] = qpos
        physics.data.qvel[:] = qvel
    return physics


def test_published_dimensions_and_layout():
    # dm_control paper §6.2: ball_in_cup has state 8, action 2, observation 8.
    env = _env()
    model = env.physics.model
    assert model.nq + model.nv == 8
    assert env.action_spec().shape == (2,)
    observation_spec = env.observation_spec()
    assert [(k, s.shape) for k, s in observation_spec.items()] == [
        ("position", (4,)),
        ("velocity", (4,)),
    ]
    assert [model.joint(i).name for i in range(model.njnt)] == [
        "cup_x",
        "cup_z",
        "ball_x",
        "ball_z",
    ]
    assert [model.actuator(i).name for i in range(model.nu)] == ["x", "z"]


def test_published_physical_parameters():
    model = ball_in_cup_model.make_spec().compile()
    assert model.opt.timestep == 0.002  # MuJoCo's default, as published
    np.testing.assert_allclose(model.actuator_gear[:, 0], [5, 5])
    np.testing.assert_allclose(model.jnt_stiffness, [20, 20, 0, 0])
    np.testing.assert_allclose(model.dof_damping, [3, 3, 0, 0])
    assert all(model.jnt_type == mujoco.mjtJoint.mjJNT_SLIDE)
    # A 2.5 cm sphere of water density.
    assert model.body("ball").mass[0] == pytest.approx(1000 * 4 / 3 * math.pi * 0.025**3)
    string = model.tendon("string").id
    assert model.tendon_limited[string]
    np.testing.assert_array_equal(model.tendon_range[string], [0.0, 0.3])
    # dm_control's two fixed cameras, and no other.
    assert [model.camera(i).name for i in range(model.ncam)] == ["cam0", "cam1"]


def test_control_timestep_is_ten_physics_steps():
    env = _env()
    assert env.task.control_timestep == pytest.approx(0.02)
    assert env.task.physics_steps_per_control_step == 10


def test_observations_are_the_slide_positions_and_velocities():
    physics = _set_state(_env().physics, qpos=(0.01, -0.02, 0.1, 0.3), qvel=(1, 2, 3, 4))
    np.testing.assert_array_equal(physics.joint_positions(), [0.01, -0.02, 0.1, 0.3])
    np.testing.assert_array_equal(physics.joint_velocities(), [1, 2, 3, 4])


def test_reward_is_one_while_the_whole_ball_is_inside_the_target_box():
    env = _env()
    physics = env.physics
    for cup_x, cup_z in ((0.0, 0.0), (0.1, -0.05)):
        for dx, dz, expected in (
            (0, 0, 1.0),
            (0.99 * _SLACK, 0, 1.0),
            (0, -0.99 * _SLACK, 1.0),
            (1.01 * _SLACK, 0, 0.0),
            (0, 1.01 * _SLACK, 0.0),
            (0, -0.3, 0.0),
        ):
            _set_state(physics, (cup_x, cup_z, cup_x + dx, _BALL_Z_IN_CUP + cup_z + dz))
            np.testing.assert_allclose(physics.ball_to_target(), [-dx, -dz], atol=1e-12)
            assert env.task.get_reward(physics) == expected, (cup_x, cup_z, dx, dz)


def test_string_is_a_30_cm_limit_between_the_ball_and_the_cup_bottom():
    physics = _env().physics
    # The string runs from the ball's centre to a site 0.108 m below the cup's origin.
    for ball_z, taut in ((0.0, False), (-0.1, True)):
        _set_state(physics, (0.0, 0.0, 0.0, ball_z))
        length = (0.6 - 0.108) - (0.2 + ball_z)
        assert physics.data.ten_length[0] == pytest.approx(length, abs=1e-12)
        limits = physics.data.efc_type == mujoco.mjtConstraint.mjCNSTR_LIMIT_TENDON
        assert bool(np.any(limits)) == taut, ball_z


def test_initial_states_put_the_ball_in_the_published_box_away_from_the_cup():
    env = suite.load("ball_in_cup", "catch", task_kwargs={"random": 4})
    for _ in range(100):
        env.reset()
        data = env.physics.data
        assert data.ncon == 0
        np.testing.assert_array_equal(data.qpos[:2], 0.0)
        assert -0.2 <= data.qpos[2] < 0.2 and 0.2 <= data.qpos[3] < 0.5
        np.testing.assert_array_equal(data.qvel, 0.0)


def test_physics_class_is_the_domain_one():
    assert isinstance(_env().physics, ball_in_cup.Physics)
