"""rllab's locomotion + food collection: object placement, catching, range
readings, terminations."""

import numpy as np
import pytest

from suites import rllab


@pytest.fixture(scope="module")
def env():
    environment = rllab.load("swimmer_food", seed=0)
    environment.reset()
    return environment


def test_specs_and_placement(env):
    assert rllab.HORIZON["swimmer_food"] == 500
    assert env.observation_spec()["observations"].shape == (13 + 20,)
    assert rllab.load("ant_food", seed=0).observation_spec()["observations"].shape == (107 + 20,)
    objects = env.task.objects
    assert objects.shape == (16, 3)
    assert np.sum(objects[:, 2] == 0) == 8 and np.sum(objects[:, 2] == 1) == 8
    assert len({tuple(p) for p in objects[:, :2]}) == 16
    assert np.all(np.isin(objects[:, :2], [-6, -4, -2, 0, 2, 4]))
    assert np.all(np.sum(objects[:, :2] ** 2, axis=1) >= 4)


def test_catching_food_and_bombs(env):
    task = env.task
    physics = env.physics
    position = task.inner.center_of_mass(physics)[:2]
    task.objects = np.array(
        [
            [position[0] + 0.5, position[1], 0.0],
            [position[0], position[1] - 0.9, 0.0],
            [position[0] - 0.3, position[1], 1.0],
            [position[0] + 1.5, position[1], 1.0],
        ]
    )
    task.after_step(physics, np.random.RandomState(0))
    assert task.get_reward(physics) == 1.0
    np.testing.assert_array_equal(task.objects, [[position[0] + 1.5, position[1], 1.0]])
    assert not task.should_terminate_episode(physics)
    task.objects = task.objects[:0]
    assert task.should_terminate_episode(physics) and task.get_discount(physics) == 0.0


def test_readings(env):
    task = env.task
    physics = env.physics
    position = task.inner.center_of_mass(physics)[:2]
    heading = task.inner.heading(physics)
    ahead = np.array([np.cos(heading), np.sin(heading)])
    left = np.array([-np.sin(heading), np.cos(heading)])
    task.objects = np.array(
        [
            [*(position + 3.0 * ahead), 0.0],  # straight ahead: the middle bin (index 5)
            [*(position + 1.5 * ahead), 0.0],  # nearer, same bin: overwrites
            [*(position + 2.0 * (left * 0.999 + ahead * 0.04)), 1.0],  # almost fully left: last bin
            [*(position - 2.0 * ahead), 1.0],  # behind: unseen
            [*(position + 7.0 * ahead), 1.0],  # out of range
        ]
    )
    food, bombs = task.readings(physics)
    expected_food = np.zeros(10)
    expected_food[5] = 1 - 1.5 / 6
    np.testing.assert_allclose(food, expected_food)
    expected_bombs = np.zeros(10)
    expected_bombs[9] = 1 - 2.0 * np.hypot(0.999, 0.04) / 6
    np.testing.assert_allclose(bombs, expected_bombs)


def test_dying_cost_when_the_walker_falls():
    env = rllab.load("ant_food", seed=0)
    env.reset()
    task = env.task
    physics = env.physics
    physics.data.qpos[2] = 0.7  # torso above 1 m: the ant's own termination
    physics.forward()
    task.after_step(physics, np.random.RandomState(0))
    assert task.get_reward(physics) == -10.0 and task.should_terminate_episode(physics)


def test_determinism():
    def rollout():
        env = rllab.load("swimmer_food", seed=4, horizon=30)
        random = np.random.RandomState(0)
        out = [env.reset().observation["observations"]]
        while True:
            ts = env.step(random.uniform(-1, 1, 2))
            out.append(np.append(ts.observation["observations"], ts.reward))
            if ts.last():
                return np.concatenate(out)

    np.testing.assert_array_equal(rollout(), rollout())


def test_the_objects_left_resume_from_a_snapshot():
    import pickle

    env = rllab.load("swimmer_food", seed=0)
    env.reset()
    env.task.objects = env.task.objects[3:]  # three caught
    snapshot = pickle.loads(pickle.dumps(env.snapshot()))
    fresh = rllab.load("swimmer_food", seed=1)
    fresh.restore(snapshot)
    np.testing.assert_array_equal(fresh.task.objects, env.task.objects)
    action = np.zeros(2)
    np.testing.assert_array_equal(
        fresh.step(action).observation["observations"], env.step(action).observation["observations"]
    )
    with pytest.raises(ValueError, match=r"objects must be \(count, 3\) rows, got shape \(4,\)"):
        fresh.task.restore_state({"objects": np.zeros(4), "step_reward": 0.0})
