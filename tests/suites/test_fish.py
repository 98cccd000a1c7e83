"""Fish domain: published model facts, the fluid, hand-computed rewards, initial states."""

import math

import mujoco
import numpy as np
import pytest

from mjcf_models import fish as fish_model
from suites import fish
from suites import suite

_TASKS = ("upright", "swim")
_TORSO_START = (0.0, 0.0, 0.1)  # m
# Centre of the mouth capsule in the torso frame (m): midway along its 'fromto'.
_MOUTH_IN_TORSO = np.array([0.0, 0.0745, 0.0])
_RADII = 0.005 + 0.04  # Mouth capsule radius plus target sphere radius (m).


def _set_state(
    env,
    root_quaternion=(1.0, 0.0, 0.0, 0.0),
    joint_angles=0.0,
    root_velocity=(0.0, 0.0, 0.0),
    target=None,
):
    """Writes a pose (torso at its start), a root velocity and optionally the target's
    centre, then recomputes derived quantities."""
    physics = env.physics
    mujoco.mj_resetData(physics.model, physics.data)
    physics.data.qpos[:3] = _TORSO_START
    physics.data.qpos[3:7] = root_quaternion
    physics.data.qpos[7:] = joint_angles
    physics.data.qvel[:3] = root_velocity
    if target is not None:
        physics.model.geom_pos[physics.model.geom("target").id] = target
    physics.forward()
    return physics


def test_published_dimensions_and_layout():
    # dm_control paper §6.2: fish has state 26 (13 degrees of freedom, positions and
    # velocities), action 5, observation 24 (swim).
    env = suite.load("fish", "swim", task_kwargs={"random": 0})
    model = env.physics.model
    assert (model.nq, model.nv) == (14, 13)
    assert 2 * model.nv == 26
    assert env.action_spec().shape == (5,)
    np.testing.assert_array_equal(env.action_spec().minimum, -1.0)
    np.testing.assert_array_equal(env.action_spec().maximum, 1.0)
    observation_spec = env.observation_spec()
    assert list(observation_spec) == ["joint_angles", "upright", "target", "velocity"]
    assert [spec.shape for spec in observation_spec.values()] == [(7,), (), (3,), (13,)]
    assert [model.joint(i).name for i in range(model.njnt)] == (
        ["root"] + list(fish_model.JOINT_NAMES)
    )
    assert [model.actuator(i).name for i in range(model.nu)] == [
        "tail",
        "tail_twist",
        "fins_flap",
        "finleft_pitch",
        "finright_pitch",
    ]
    upright_spec = suite.load("fish", "upright", task_kwargs={"random": 0}).observation_spec()
    assert list(upright_spec) == ["joint_angles", "upright", "velocity"]


def test_published_physical_parameters():
    model = fish_model.make_spec().compile()
    assert model.opt.timestep == 0.004
    assert model.opt.density == 5000 and model.opt.viscosity == 0
    assert model.opt.disableflags & mujoco.mjtDisableBit.mjDSBL_GRAVITY
    assert model.opt.disableflags & mujoco.mjtDisableBit.mjDSBL_CONSTRAINT
    # The fluid acts on equivalent inertia boxes: no geom uses the ellipsoid model.
    np.testing.assert_array_equal(model.geom_fluid, 0.0)
    # Only the hidden 4 x 120 x 60 mm box gives the torso mass, at 1000 kg/m^3.
    np.testing.assert_allclose(model.body("torso").mass, 1000 * 0.004 * 0.12 * 0.06)
    for name in ("eye", "mouth", "lower_mouth", "torso", "back_fin"):
        assert model.geom(name).group == 0
    assert model.geom("torso_massive").group == 4
    np.testing.assert_allclose(model.dof_damping[6:], 2e-5)
    assert model.joint("tail2").stiffness == 8e-5
    assert not model.jnt_limited.any()
    for index, (name, _, _, kp) in enumerate(fish_model.ACTUATORS):
        assert model.actuator(index).name == name
        assert model.actuator_gainprm[index, 0] == kp
        assert model.actuator_biasprm[index, 1] == -kp
    flap, symmetry = model.tendon("fins_flap").id, model.tendon("fins_sym").id
    np.testing.assert_allclose(model.wrap_prm[model.tendon_adr[flap] :][:2], [-0.5, 0.5])
    np.testing.assert_allclose(model.wrap_prm[model.tendon_adr[symmetry] :][:2], [0.5, 0.5])
    assert model.tendon_stiffness[symmetry] == 1e-4 and model.tendon_stiffness[flap] == 0
    assert model.ncam >= 2
    assert model.cam_mode[model.camera("fixed_top").id] == mujoco.mjtCamLight.mjCAMLIGHT_FIXED
    assert model.cam_mode[model.camera("tracking_top").id] == (
        mujoco.mjtCamLight.mjCAMLIGHT_TRACKCOM
    )
    assert {"self", "effector"} <= {model.material(i).name for i in range(model.nmat)}


def test_the_fluid_slows_a_gliding_fish_down():
    # With gravity and contacts off, only the fluid can change the root's momentum.
    env = suite.load("fish", "upright", task_kwargs={"random": 0})
    physics = _set_state(env, root_velocity=(0.0, 0.2, 0.0))
    physics.step(25)
    assert 0.0 < physics.data.qvel[1] < 0.2 * 0.99
    physics.model.opt.density = 0.0
    physics = _set_state(env, root_velocity=(0.0, 0.2, 0.0))
    physics.step(25)
    assert physics.data.qvel[1] == pytest.approx(0.2, abs=1e-9)


@pytest.mark.parametrize(
    "half_angle, expected",
    [
        (0.0, 1.0),  # Back up.
        (math.pi / 4, 0.1),  # Rolled 90 degrees: a margin (1) away, Gaussian 0.1.
        (math.pi / 2, 0.1**4),  # Upside down: two margins away, 0.1 ** (2 ** 2).
    ],
)
def test_upright_reward_by_hand(half_angle, expected):
    env = suite.load("fish", "upright", task_kwargs={"random": 0})
    physics = _set_state(env, root_quaternion=(math.cos(half_angle), 0, math.sin(half_angle), 0))
    assert physics.upright() == pytest.approx(math.cos(2 * half_angle), abs=1e-12)
    assert env.task.get_reward(physics) == pytest.approx(expected)


@pytest.mark.parametrize(
    "gap, upside_down, expected",
    [
        (0.0, False, 1.0),
        # Mouth inside the target, upside down: only the 1/8 upright share is lost.
        (0.0, True, 7 / 8),
        # Just touching (distance = the two radii) is still inside.
        (_RADII, False, 1.0),
        # A further 2 * radii (the margin) away: Gaussian 0.1, so (7 * 0.1 + 1) / 8.
        (3 * _RADII, False, (0.7 + 1) / 8),
    ],
)
def test_swim_reward_by_hand(gap, upside_down, expected):
    env = suite.load("fish", "swim", task_kwargs={"random": 0})
    quaternion = (0.0, 1.0, 0.0, 0.0) if upside_down else (1.0, 0.0, 0.0, 0.0)
    # Upside down (a half turn about x) the mouth's y and z offsets flip.
    mouth = _MOUTH_IN_TORSO * ([1, -1, -1] if upside_down else 1) + _TORSO_START
    target = mouth + [0.0, gap, 0.0]
    physics = _set_state(env, root_quaternion=quaternion, target=target)
    assert np.linalg.norm(physics.mouth_to_target()) == pytest.approx(gap, abs=1e-12)
    assert env.task.get_reward(physics) == pytest.approx(expected)


def test_mouth_to_target_is_in_the_mouth_frame():
    env = suite.load("fish", "swim", task_kwargs={"random": 0})
    angles = np.random.RandomState(0).uniform(-0.2, 0.2, 7)
    target = np.array([0.05, 0.3, 0.15])
    reference = _set_state(env, joint_angles=angles, target=target).mouth_to_target()
    # Turn the fish and the target together about the torso's vertical axis.
    yaw = math.radians(50)
    rotation = np.array(
        [[math.cos(yaw), -math.sin(yaw), 0], [math.sin(yaw), math.cos(yaw), 0], [0, 0, 1]]
    )
    turned_target = rotation @ (target - _TORSO_START) + _TORSO_START
    turned = _set_state(
        env,
        joint_angles=angles,
        target=turned_target,
        root_quaternion=(math.cos(yaw / 2), 0, 0, math.sin(yaw / 2)),
    )
    np.testing.assert_allclose(turned.mouth_to_target(), reference, atol=1e-12)


def test_joint_observations_follow_the_qpos_layout():
    env = suite.load("fish", "swim", task_kwargs={"random": 0})
    physics = env.physics
    angles = np.arange(1, 8) / 10
    _set_state(env, joint_angles=angles)
    np.testing.assert_array_equal(physics.joint_angles(), angles)
    physics.data.qvel[6:] = -angles
    np.testing.assert_array_equal(physics.joint_velocities(), -angles)


@pytest.mark.parametrize("task", _TASKS)
def test_initial_states_are_random_and_at_rest(task):
    env = suite.load("fish", task, task_kwargs={"random": 5})
    model = env.physics.model
    target = model.geom("target").id
    quaternions, targets = [], []
    for _ in range(20):
        env.reset()
        data = env.physics.data
        np.testing.assert_array_equal(data.qpos[:3], _TORSO_START)
        np.testing.assert_array_equal(data.qvel, 0.0)
        assert np.linalg.norm(data.qpos[3:7]) == pytest.approx(1.0)
        assert np.all(np.abs(data.qpos[7:]) <= 0.2)
        quaternions.append(data.qpos[3:7].copy())
        targets.append(model.geom_pos[target].copy())
    quaternions, targets = np.array(quaternions), np.array(targets)
    # A normalised Gaussian quaternion: every component takes both signs.
    assert np.all(quaternions.min(axis=0) < 0) and np.all(quaternions.max(axis=0) > 0)
    if task == "swim":
        assert np.all(targets >= [-0.4, -0.4, 0.1]) and np.all(targets <= [0.4, 0.4, 0.3])
        assert np.all(targets.std(axis=0) > 0.03)
    else:
        np.testing.assert_array_equal(targets, [[0.0, 0.4, 0.1]] * 20)
        assert model.geom_rgba[target, 3] == 0  # Hidden, as published.


def test_physics_class_is_the_domain_one():
    env = suite.load("fish", "swim", task_kwargs={"random": 0})
    assert isinstance(env.physics, fish.Physics)
    assert env.physics.torso_velocity().shape == (6,)
