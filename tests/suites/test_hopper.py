"""Hopper domain: published layout and model facts, hand-computed rewards, initial states."""

import numpy as np
import pytest

from suites import hopper
from suites import suite

_TASKS = ["stand", "hop"]
_JOINTS = ["rootx", "rootz", "rooty", "waist", "hip", "knee", "ankle"]
_ROOTX, _ROOTZ, _ROOTY = 0, 1, 2
# The straight leg's foot capsule (radius 0.04 m) lies along a line 0.1 m above the
# floor, so lowering the hopper by 0.065 m sinks it 5 mm into the floor.
_ON_THE_FLOOR_ROOTZ = -0.065


def _pose(env, rootz=0.0, pitch=0.0, forward_velocity=0.0, control=0.0):
    """The straight-legged initial pose, raised by `rootz` m, pitched by `pitch` rad,
    moving forward at `forward_velocity` m/s, with the given control."""
    physics = env.physics
    physics.reset()
    physics.data.qpos[_ROOTZ] = rootz
    physics.data.qpos[_ROOTY] = pitch
    physics.data.qvel[_ROOTX] = forward_velocity
    physics.data.ctrl[:] = control
    physics.forward()
    return physics


def test_published_dimensions_and_layout():
    # dm_control paper §6.2: hopper has state 14, action 4, observation 15.
    env = suite.load("hopper", "hop", task_kwargs={"random": 0})
    model = env.physics.model
    assert model.nq + model.nv == 14
    assert env.action_spec().shape == (4,)
    observation_spec = env.observation_spec()
    assert list(observation_spec) == ["position", "velocity", "touch"]
    assert [spec.shape for spec in observation_spec.values()] == [(6,), (7,), (2,)]
    assert [model.joint(i).name for i in range(model.njnt)] == _JOINTS
    assert [model.actuator(i).name for i in range(model.nu)] == _JOINTS[3:]


@pytest.mark.parametrize("task", _TASKS)
def test_timing(task):
    env = suite.load("hopper", task, task_kwargs={"random": 0})
    assert env.physics.model.opt.timestep == 0.005
    assert env.task.control_timestep == pytest.approx(0.02)
    assert env.task.physics_steps_per_control_step == 4


def test_height_is_torso_over_foot_centre_of_mass():
    env = suite.load("hopper", "stand", task_kwargs={"random": 0})
    physics = _pose(env, rootz=0.3)
    xipos = physics.data.xipos
    torso, foot = physics.model.body("torso").id, physics.model.body("foot").id
    assert physics.height() == pytest.approx(xipos[torso, 2] - xipos[foot, 2], abs=1e-12)
    # Relative height: raising the whole hopper changes nothing.
    assert physics.height() == pytest.approx(_pose(env).height(), abs=1e-12)
    # Lying flat (pitched a quarter turn) puts the torso and foot at about one height.
    assert abs(_pose(env, pitch=np.pi / 2).height()) < 0.2


@pytest.mark.parametrize(
    "control, small_control", [(0.0, 1.0), (1.0, 0.0), (-1.0, 0.0), (0.5, 0.75)]
)
def test_stand_reward_by_hand(control, small_control):
    env = suite.load("hopper", "stand", task_kwargs={"random": 0})
    physics = _pose(env, control=control)
    # The straight hopper's torso is ~0.97 m above its foot: standing = 1.
    assert 0.6 < physics.height() < 2
    # The quadratic sigmoid of the control: 1 - control^2 per actuator.
    assert env.task.get_reward(physics) == pytest.approx((small_control + 4) / 5, abs=1e-12)
    fallen = _pose(env, pitch=np.pi / 2, control=control)
    assert env.task.get_reward(fallen) == 0.0


@pytest.mark.parametrize(
    "speed, hopping", [(2.0, 1.0), (3.0, 1.0), (1.5, 0.75), (1.0, 0.5), (0.0, 0.0), (-1.0, 0.0)]
)
def test_hop_reward_by_hand(speed, hopping):
    env = suite.load("hopper", "hop", task_kwargs={"random": 0})
    physics = _pose(env, forward_velocity=speed)
    assert physics.speed() == pytest.approx(speed, abs=1e-12)
    assert env.task.get_reward(physics) == pytest.approx(hopping, abs=1e-12)


def test_touch_is_the_log_of_one_plus_the_foot_contact_forces():
    env = suite.load("hopper", "stand", task_kwargs={"random": 0})
    assert np.array_equal(_pose(env).touch(), [0.0, 0.0])
    physics = _pose(env, rootz=_ON_THE_FLOOR_ROOTZ)
    sensordata = physics.data.sensordata
    forces = [sensordata[physics.model.sensor(name).adr[0]] for name in ("touch_toe", "touch_heel")]
    assert min(forces) > 0.0
    np.testing.assert_allclose(physics.touch(), np.log1p(forces), rtol=0, atol=1e-15)


def test_observations_are_positions_without_rootx_velocities_and_touch():
    env = suite.load("hopper", "hop", task_kwargs={"random": 0})
    observation = env.reset().observation
    physics = env.physics
    np.testing.assert_array_equal(observation["position"], physics.data.qpos[1:])
    np.testing.assert_array_equal(observation["velocity"], physics.data.qvel)
    np.testing.assert_array_equal(observation["touch"], physics.touch())


def test_physics_class_is_the_domain_one():
    env = suite.load("hopper", "hop", task_kwargs={"random": 0})
    assert isinstance(env.physics, hopper.Physics)
