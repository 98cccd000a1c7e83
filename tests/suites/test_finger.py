"""Finger domain: published model facts, hand-computed rewards and sensors, initial states."""

import math

import mujoco
import numpy as np
import pytest

from mjcf_models import finger as finger_model
from suites import finger
from suites import suite

_HINGE_XZ = (0.2, 0.4)  # the spinner's axis in the world x-z plane (m)
_TIP_RADIUS = 0.13  # capsule radius 0.04 + half-length 0.09 (m)


def _env(task="turn_easy", seed=0):
    env = suite.load("finger", task, task_kwargs={"random": seed})
    env.reset()
    return env


def _set_state(physics, qpos, qvel=(0.0, 0.0, 0.0)):
    with physics.reset_context():
        physics.data.qpos[:] = qpos
        physics.data.qvel[:] = qvel
    return physics


def test_published_dimensions_and_layout():
    # dm_control paper §6.2: finger has state 6, action 2, observation 12 (turn).
    env = _env("turn_easy")
    model = env.physics.model
    assert model.nq + model.nv == 6
    assert env.action_spec().shape == (2,)
    observation_spec = env.observation_spec()
    assert list(observation_spec) == [
        "position",
        "velocity",
        "touch",
        "target_position",
        "dist_to_target",
    ]
    assert [spec.shape for spec in observation_spec.values()] == [(4,), (3,), (2,), (2,), ()]
    assert [model.joint(i).name for i in range(model.njnt)] == ["proximal", "distal", "hinge"]
    assert [model.actuator(i).name for i in range(model.nu)] == ["proximal", "distal"]
    spin_spec = _env("spin").observation_spec()
    assert [(k, s.shape) for k, s in spin_spec.items()] == [
        ("position", (4,)),
        ("velocity", (3,)),
        ("touch", (2,)),
    ]


def test_published_physical_parameters():
    model = finger_model.make_spec().compile()
    assert model.opt.timestep == 0.01
    assert model.opt.iterations == 200
    assert model.opt.cone == mujoco.mjtCone.mjCONE_ELLIPTIC
    assert model.opt.disableflags & mujoco.mjtDisableBit.mjDSBL_GRAVITY
    np.testing.assert_allclose(model.actuator_gear[:, 0], [30, 15])
    np.testing.assert_allclose(model.dof_damping, [2.5, 2.5, 0.5])
    np.testing.assert_allclose(model.dof_frictionloss, [0, 0, 0.1])
    np.testing.assert_allclose(model.jnt_range[:2], np.radians([[-110, 110]] * 2))
    assert not model.jnt_limited[2]
    # The proximal joint's reference angle of -90 degrees is its zero.
    np.testing.assert_allclose(model.qpos0, [-math.pi / 2, 0, 0])
    np.testing.assert_allclose(model.geom("cap1").size[:2], [0.04, 0.09])
    np.testing.assert_allclose(model.body("spinner").pos, [_HINGE_XZ[0], 0, _HINGE_XZ[1]])
    # Only the fingertip of the distal link collides.
    assert model.geom("distal").contype == 0 and model.geom("distal").conaffinity == 0


def test_control_timestep_is_two_physics_steps():
    env = _env()
    assert env.task.control_timestep == pytest.approx(0.02)
    assert env.task.physics_steps_per_control_step == 2


def test_position_velocity_and_touch_by_hand():
    env = _env("turn_easy")
    theta = 0.7
    # The proximal angle swings the finger away from the spinner.
    physics = _set_state(env.physics, qpos=(-2.0, -0.4, theta), qvel=(1.0, -2.0, 3.0))
    # The spinner turns about -y: its tip, 0.13 m up the body's z axis, goes to
    # (-0.13 sin(theta), 0.13 cos(theta)) from the hinge.
    tip = [-_TIP_RADIUS * math.sin(theta), _TIP_RADIUS * math.cos(theta)]
    np.testing.assert_allclose(physics.tip_position(), tip, atol=1e-12)
    np.testing.assert_allclose(physics.bounded_position(), [-2.0, -0.4, *tip], atol=1e-12)
    np.testing.assert_allclose(physics.sensed_velocity(), [1.0, -2.0, 3.0], atol=1e-12)
    assert physics.data.ncon == 0
    np.testing.assert_array_equal(physics.touch(), [0.0, 0.0])


def test_spin_reward_is_one_beyond_15_rad_per_s_in_the_negative_sense():
    env = _env("spin")
    physics = env.physics
    for velocity, expected in ((-15.01, 1.0), (-20.0, 1.0), (-14.99, 0.0), (20.0, 0.0)):
        _set_state(physics, qpos=physics.data.qpos.copy(), qvel=(0.0, 0.0, velocity))
        assert env.task.get_reward(physics) == expected, velocity


def test_spin_lowers_hinge_damping_and_hides_the_target():
    physics = _env("spin").physics
    assert physics.model.dof_damping[2] == 0.03
    assert physics.model.site("target").rgba[3] == 0
    assert physics.model.site("tip").rgba[3] == 0


@pytest.mark.parametrize("task, radius", [("turn_easy", 0.07), ("turn_hard", 0.03)])
def test_turn_target_lies_on_the_tip_circle_and_reward_is_one_inside_it(task, radius):
    env = suite.load("finger", task, task_kwargs={"random": 5})
    for _ in range(20):
        env.reset()
        physics = env.physics
        target = physics.model.site("target")
        assert target.size[0] == radius
        offset = (target.pos[0] - _HINGE_XZ[0], target.pos[2] - _HINGE_XZ[1])
        assert math.hypot(*offset) == pytest.approx(_TIP_RADIUS, abs=1e-12)
        np.testing.assert_allclose(physics.target_position(), offset, atol=1e-12)
        # The tip at hinge angle theta is at (-sin, cos) * 0.13: aim it at the target.
        target_theta = math.atan2(-offset[0], offset[1])
        qpos = physics.data.qpos.copy()
        qpos[2] = target_theta
        _set_state(physics, qpos)
        assert physics.dist_to_target() == pytest.approx(-radius, abs=1e-12)
        assert env.task.get_reward(physics) == 1.0
        # Turned by an arc longer than the target's diameter, the tip is outside.
        qpos[2] = target_theta + 2.2 * radius / _TIP_RADIUS
        _set_state(physics, qpos)
        assert physics.dist_to_target() > 0
        assert env.task.get_reward(physics) == 0.0


def test_initial_states_are_contact_free_and_at_rest():
    env = suite.load("finger", "turn_hard", task_kwargs={"random": 2})
    limit = math.radians(110)
    for _ in range(100):
        env.reset()
        data = env.physics.data
        assert data.ncon == 0
        assert np.all(np.abs(data.qpos[:2]) <= limit)
        assert -math.pi <= data.qpos[2] < math.pi
        np.testing.assert_array_equal(data.qvel, 0.0)


def test_physics_class_is_the_domain_one():
    assert isinstance(_env().physics, finger.Physics)


def test_target_radius_must_be_positive():
    with pytest.raises(ValueError, match="target_radius"):
        finger.Turn(target_radius=-0.1)
