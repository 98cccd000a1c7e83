"""rllab's locomotion + maze: geometry, ray readings, goal reward, terminations."""

import numpy as np
import pytest

from suites import rllab


@pytest.fixture(scope="module")
def env():
    environment = rllab.load("ant_maze", seed=0)
    environment.reset()
    return environment


def _pose_at(env, x, y):
    physics = env.physics
    physics.data.qpos[:] = physics.model.qpos0
    physics.data.qpos[:2] = [x, y]
    physics.data.qvel[:] = 0
    physics.forward()
    return physics


def test_specs_and_walls():
    assert rllab.load("swimmer_maze", seed=0).observation_spec()["observations"].shape == (13 + 40,)
    env = rllab.load("ant_maze", seed=0)
    assert env.observation_spec()["observations"].shape == (107 + 40,)
    model = env.physics.model
    blocks = [
        model.geom(i).name for i in range(model.ngeom) if model.geom(i).name.startswith("block_")
    ]
    assert len(blocks) == 18
    # Cell (row 2, col 2) is a wall 3 m cells, 2 cells high, the start cell at the origin.
    np.testing.assert_allclose(model.geom_pos[model.geom("block_2_2").id], [3.0, 3.0, 3.0])
    np.testing.assert_allclose(model.geom_size[model.geom("block_2_2").id], [1.5, 1.5, 3.0])


def test_ray_readings(env):
    physics = _pose_at(env, 0.0, 0.0)
    origin = env.task.inner.center_of_mass(physics)[:2]
    walls, goal = env.task.readings(physics)
    # Ray 10 points pi/40 left of the heading (+x) down the corridor to the wall at x = 7.5 m.
    distance = (7.5 - origin[0]) / np.cos(np.pi / 40)
    assert walls[10] == pytest.approx((10 - distance) / 10)
    # Ray 19 points 0.475 pi left, to the wall block whose edge is at y = 1.5 m.
    distance = (1.5 - origin[1]) / np.sin(0.475 * np.pi)
    assert walls[19] == pytest.approx((10 - distance) / 10)
    np.testing.assert_array_equal(goal, 0.0)


def test_goal_reward_and_termination(env):
    physics = _pose_at(env, 0.0, 0.0)
    assert env.task.get_reward(physics) == 0.0 and not env.task.should_terminate_episode(physics)
    physics = _pose_at(env, 0.5, 6.2)
    assert env.task.get_reward(physics) == 1.0 and env.task.should_terminate_episode(physics)
    assert env.task.get_discount(physics) == 0.0


def test_goal_seen_from_its_corridor(env):
    # Standing in cell (3, 2) facing -x, the goal square is straight ahead 1.5 m away.
    physics = _pose_at(env, 3.0, 6.0)
    physics.data.qpos[3:7] = [0.0, 0.0, 0.0, 1.0]  # turned by pi about z
    physics.forward()
    origin = env.task.inner.center_of_mass(physics)[:2]
    walls, goal = env.task.readings(physics)
    distance = (origin[0] - 1.5) / np.cos(np.pi / 40)
    assert goal[10] == pytest.approx((10 - distance) / 10)
    assert walls[10] == 0.0
