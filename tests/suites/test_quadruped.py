"""Quadruped domain: layout, hand-computed rewards and observations, escape's terrain,
fetch's ball, initial states, determinism and bad inputs."""

import mujoco
import numpy as np
import pytest

from mjcf_models import quadruped as quadruped_model
from suites import quadruped, suite

_TASKS = ("walk", "run", "escape", "fetch")


def _pose(env, position=(0.0, 0.0, 1.0), quaternion=(1.0, 0.0, 0.0, 0.0), velocity=None):
    """Writes the root pose (and linear velocity) from reset data and recomputes."""
    physics = env.physics
    mujoco.mj_resetData(physics.model, physics.data)
    physics.data.qpos[:7] = (*position, *quaternion)
    if velocity is not None:
        physics.data.qvel[:3] = velocity
    physics.forward()
    return physics


def test_registered_as_extra_tasks():
    assert suite.TASKS_BY_DOMAIN["quadruped"] == _TASKS
    for task in _TASKS:
        assert ("quadruped", task) in suite.EXTRA
        assert ("quadruped", task) not in suite.BENCHMARKING


@pytest.mark.parametrize(
    "task, extra",
    [
        ("walk", ()),
        ("escape", ("origin", "rangefinder")),
        ("fetch", ("ball_state", "target_position")),
    ],
)
def test_observations_in_published_order(task, extra):
    env = suite.load("quadruped", task, task_kwargs={"random": 0})
    observation = env.reset().observation
    keys = ("egocentric_state", "torso_velocity", "torso_upright", "imu", "force_torque") + extra
    assert tuple(observation) == keys
    shapes = {
        "egocentric_state": (44,),
        "torso_velocity": (3,),
        "torso_upright": (),
        "imu": (6,),
        "force_torque": (24,),
        "origin": (3,),
        "rangefinder": (20,),
        "ball_state": (9,),
        "target_position": (3,),
    }
    for key, value in observation.items():
        assert value.shape == shapes[key], key
    spec = env.action_spec()
    np.testing.assert_array_equal(spec.minimum, [-1, -1, -0.8] * 4)
    np.testing.assert_array_equal(spec.maximum, [1, 1.1, 0.8] * 4)
    assert env.task.control_timestep == pytest.approx(0.02)


def test_floor_sizes_follow_the_task():
    sizes = {
        task: suite.load("quadruped", task).physics.model.geom("floor").size[0] for task in _TASKS
    }
    assert sizes == {"walk": 10, "run": 100, "escape": 40, "fetch": 15}


def test_move_reward_upright_at_speed_and_upside_down():
    env = suite.load("quadruped", "walk", task_kwargs={"random": 0})
    physics = _pose(env, velocity=(0.5, 0, 0))
    assert env.task.get_reward(physics) == pytest.approx(1.0)
    # Half the speed: the linear move term is 0.5 at its margin's end (0.5 m/s below).
    physics = _pose(env, velocity=(0.25, 0, 0))
    assert env.task.get_reward(physics) == pytest.approx(0.75)
    # Upside down (180 degrees about x): the upright term is 0.
    physics = _pose(env, quaternion=(0.0, 1.0, 0.0, 0.0), velocity=(0.5, 0, 0))
    assert env.task.get_reward(physics) == pytest.approx(0.0)


def test_torso_frame_observations():
    env = suite.load("quadruped", "escape", task_kwargs={"random": 0})
    # Turned 90 degrees about z at (1, 2, 3): the origin lies at -(1, 2, 3) in world
    # axes, which are (y, -x, z) in the torso's.
    half = np.sqrt(0.5)
    physics = _pose(env, position=(1.0, 2.0, 3.0), quaternion=(half, 0, 0, half))
    np.testing.assert_allclose(physics.origin(), [-2.0, 1.0, -3.0], atol=1e-12)
    # Nothing under the rangefinders up there except the far-away terrain: values in (0, 1].
    assert np.all((physics.rangefinder() > 0) & (physics.rangefinder() <= 1))


def test_escape_terrain_follows_the_published_bowl():
    env = suite.load("quadruped", "escape", task_kwargs={"random": 3})
    env.reset()
    model = env.physics.model
    samples = quadruped_model.HFIELD_SAMPLES
    terrain = model.hfield_data.reshape(samples, samples)
    # Bowl times bumps in [0.15, 1] (the spline may overshoot the bumps a little):
    # low at the clipped centre, highest on the unit circle, 0 beyond the bowl's
    # rim only where the bowl itself is 0 (the corners are at radius sqrt(2)).
    centre = terrain[samples // 2, samples // 2]
    bowl_at_centre = 0.5 - np.cos(2 * np.pi * 0.04) / 2
    assert 0.1 * bowl_at_centre < centre < 1.2 * bowl_at_centre
    assert terrain.max() <= 1.2 and terrain.min() >= 0
    first = terrain.copy()
    env.reset()
    assert not np.array_equal(first, model.hfield_data.reshape(samples, samples))
    again = suite.load("quadruped", "escape", task_kwargs={"random": 3})
    again.reset()
    np.testing.assert_array_equal(again.physics.model.hfield_data.reshape(samples, samples), first)


def test_escape_reward_grows_out_of_the_bowl():
    env = suite.load("quadruped", "escape", task_kwargs={"random": 0})
    env.reset()
    # The workspace site is 0.8 m ahead of and 0.2 m below the torso: with the torso
    # at (29.2, 0, 0.2) it is 30 m from the origin, at (14.2, 0, 0.2) 15 m.
    physics = _pose(env, position=(29.2, 0, 0.2))
    assert env.task.get_reward(physics) == pytest.approx(1.0)
    physics = _pose(env, position=(14.2, 0, 0.2))
    assert env.task.get_reward(physics) == pytest.approx(0.5)
    # Up to 20 degrees of tilt the upright term stays 1; at 90 degrees the linear
    # term is 1 - cos(20 deg) / (1 + cos(20 deg)) below 1.
    cosine = np.cos(np.deg2rad(20))
    for tilt_deg, upright in ((19.9, 1.0), (90, 1 - cosine / (1 + cosine))):
        angle = np.deg2rad(tilt_deg) / 2
        physics = _pose(env, position=(40, 0, 0.2), quaternion=(np.cos(angle), 0, np.sin(angle), 0))
        assert env.task.get_reward(physics) == pytest.approx(upright)


def test_fetch_reward_reach_then_fetch():
    env = suite.load("quadruped", "fetch", task_kwargs={"random": 0})
    env.reset()
    physics = env.physics
    # Ball in the workspace (0.8 m ahead of the torso) and on the target: 1.
    mujoco.mj_resetData(physics.model, physics.data)
    physics.data.qpos[:7] = (-0.8, 0, 0.6, 1, 0, 0, 0)
    physics.ball_qpos()[:] = (0, 0, 0.15, 1, 0, 0, 0)
    physics.forward()
    assert env.task.get_reward(physics) == pytest.approx(1.0)
    np.testing.assert_allclose(physics.target_position(), [0.8, 0, 0.05 - 0.6], atol=1e-12)
    np.testing.assert_allclose(physics.ball_state()[:3], [0.8, 0, 0.15 - 0.6], atol=1e-12)
    # Reached but 15 * sqrt(2) / 2 + 0.4 m from the target: fetch term 0.5 -> 0.75.
    arena_radius = 15 * np.sqrt(2)
    offset = 0.4 + arena_radius / 2
    physics.data.qpos[:3] = (offset - 0.8, 0, 0.6)
    physics.ball_qpos()[:3] = (offset, 0, 0.15)
    physics.forward()
    assert env.task.get_reward(physics) == pytest.approx(0.75)


def test_fetch_initial_state_distribution():
    env = suite.load("quadruped", "fetch", task_kwargs={"random": 5})
    for _ in range(5):
        env.reset()
        physics = env.physics
        assert abs(physics.data.qpos[0]) <= 13.5 and abs(physics.data.qpos[1]) <= 13.5
        # Upright with a heading: the quaternion turns about z only.
        np.testing.assert_array_equal(physics.data.qpos[4:6], 0)
        np.testing.assert_array_equal(physics.ball_qpos()[2], 2)
        assert physics.data.ncon == 0 or physics.data.qpos[2] > 0


@pytest.mark.parametrize("task", _TASKS)
def test_rewards_in_unit_interval_and_deterministic(task):
    def rollout(seed):
        env = suite.load("quadruped", task, task_kwargs={"random": seed, "time_limit": 0.4})
        spec = env.action_spec()
        actions = np.random.RandomState(0).uniform(spec.minimum, spec.maximum, (20,) + spec.shape)
        time_step = env.reset()
        states, rewards = [np.array(env.physics.data.qpos)], []
        for action in actions:
            time_step = env.step(action)
            states.append(np.array(env.physics.data.qpos))
            rewards.append(time_step.reward)
        assert time_step.last()
        return np.array(states), np.array(rewards)

    states, rewards = rollout(4)
    assert np.all((rewards >= 0) & (rewards <= 1))
    again_states, again_rewards = rollout(4)
    np.testing.assert_array_equal(states, again_states)
    np.testing.assert_array_equal(rewards, again_rewards)


def test_bad_inputs_raise():
    with pytest.raises(ValueError, match="desired_speed"):
        quadruped.Move(desired_speed=0)
    with pytest.raises(ValueError, match="floor_size"):
        quadruped_model.make_spec(floor_size=-1)
