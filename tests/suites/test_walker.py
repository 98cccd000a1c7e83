"""Walker domain: published layout and model facts, hand-computed rewards, initial states."""

import numpy as np
import pytest

from suites import suite
from suites import walker

_TASKS = ["stand", "walk", "run"]
_JOINTS = [
    "rootz",
    "rootx",
    "rooty",
    "right_hip",
    "right_knee",
    "right_ankle",
    "left_hip",
    "left_knee",
    "left_ankle",
]
_ROOTZ, _ROOTX, _ROOTY = 0, 1, 2


def _pose(env, drop=0.0, pitch=0.0, forward_velocity=0.0):
    """The model's initial pose (torso frame 1.3 m high, legs straight) lowered by
    `drop` metres, pitched by `pitch` radians, moving forward at `forward_velocity` m/s."""
    physics = env.physics
    physics.reset()
    physics.data.qpos[_ROOTZ] = -drop
    physics.data.qpos[_ROOTY] = pitch
    physics.data.qvel[_ROOTX] = forward_velocity
    physics.forward()
    return physics


def test_published_dimensions_and_layout():
    # dm_control paper §6.2: walker has state 18, action 6, observation 24.
    env = suite.load("walker", "walk", task_kwargs={"random": 0})
    model = env.physics.model
    assert model.nq + model.nv == 18
    assert env.action_spec().shape == (6,)
    observation_spec = env.observation_spec()
    assert list(observation_spec) == ["orientations", "height", "velocity"]
    assert [spec.shape for spec in observation_spec.values()] == [(14,), (), (9,)]
    assert [model.joint(i).name for i in range(model.njnt)] == _JOINTS
    assert [model.actuator(i).name for i in range(model.nu)] == _JOINTS[3:]


@pytest.mark.parametrize("task", _TASKS)
def test_timing(task):
    env = suite.load("walker", task, task_kwargs={"random": 0})
    assert env.physics.model.opt.timestep == 0.0025
    assert env.task.control_timestep == pytest.approx(0.025)
    assert env.task.physics_steps_per_control_step == 10


@pytest.mark.parametrize("pitch", [0.0, 0.3, -2.0])
def test_orientations_are_each_bodys_pitch_cosine_and_sine(pitch):
    env = suite.load("walker", "stand", task_kwargs={"random": 0})
    physics = _pose(env, pitch=pitch)
    # With straight legs every body shares the torso's pitch about world y, whose
    # rotation matrix has xx = cos(pitch) and xz = sin(pitch).
    expected = np.tile([np.cos(pitch), np.sin(pitch)], 7)
    np.testing.assert_allclose(physics.orientations(), expected, atol=1e-12)
    assert physics.torso_upright() == pytest.approx(np.cos(pitch), abs=1e-12)


def test_height_is_the_torso_frame_height_as_a_numpy_float():
    # dm_control's walker gives np.float64 (its observation "height" too).
    env = suite.load("walker", "stand", task_kwargs={"random": 0})
    physics = _pose(env, drop=0.4)
    for height in (physics.height(), physics.torso_height()):
        assert type(height) is np.float64
        assert height == pytest.approx(0.9, abs=1e-12)
    assert type(env.step(np.zeros(6)).observation["height"]) is np.float64


@pytest.mark.parametrize(
    "drop, pitch, expected",
    [
        # Upright at 1.3 m: standing = 1, upright = 1.
        (0.0, 0.0, 1.0),
        # 0.6 m (one margin) below 1.2 m the gaussian is 0.1; upside down upright = 0.
        (0.7, np.pi, (3 * 0.1 + 0.0) / 4),
        # Horizontal at 1.3 m: upright = 1/2.
        (0.0, np.pi / 2, (3 + 0.5) / 4),
    ],
)
def test_stand_reward_by_hand(drop, pitch, expected):
    env = suite.load("walker", "stand", task_kwargs={"random": 0})
    physics = _pose(env, drop=drop, pitch=pitch)
    assert env.task.get_reward(physics) == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize(
    "task, speed, move",
    [
        ("walk", 1.0, 1.0),
        ("walk", 0.5, 0.5),
        ("walk", 0.0, 0.0),
        ("walk", 3.0, 1.0),
        # Half the margin (2 m/s) below 8 m/s: the linear sigmoid is half way to 0.5.
        ("run", 6.0, 0.75),
        ("run", 4.0, 0.5),
        ("run", 8.0, 1.0),
    ],
)
def test_move_reward_by_hand(task, speed, move):
    env = suite.load("walker", task, task_kwargs={"random": 0})
    physics = _pose(env, forward_velocity=speed)
    assert physics.horizontal_velocity() == pytest.approx(speed, abs=1e-12)
    # Standing upright (stand reward 1) times (5 * move + 1) / 6.
    assert env.task.get_reward(physics) == pytest.approx((5 * move + 1) / 6, abs=1e-12)


def test_physics_class_is_the_domain_one():
    env = suite.load("walker", "stand", task_kwargs={"random": 0})
    assert isinstance(env.physics, walker.Physics)
