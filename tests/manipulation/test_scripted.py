"""Scripted inverse-kinematics controllers solve the tasks: proof that the arm,
the hand, the bricks and the rewards work together.

Success rates over seeds 0-9 are recorded in docs/manipulation.md (reach_site
10/10, lift_brick 10/10, stack_2_bricks 6/10). The stacking checks use seeds on
which the script snaps the bricks; the simulation is deterministic, so they stay
fixed.
"""

import numpy as np
import pytest

from composer_tasks import composer
from composer_tasks.tasks.manipulation import scripted
from suites import manipulation


def _controller(name, seed, time_limit=manipulation.TIME_LIMIT_S):
    env = composer.Environment(
        manipulation.make_task(name), time_limit=time_limit, random_state=seed
    )
    timestep = env.reset()
    return env, scripted.CartesianController(env), timestep


@pytest.mark.parametrize("seed", [0, 1])
def test_reach_site_gets_within_1_cm(seed):
    env, controller, timestep = _controller("reach_site_features", seed)
    timestep, rewards = controller.run(
        scripted.reach_site_waypoints(controller, env.task), timestep
    )
    distance = np.linalg.norm(controller.pinch_position() - env.physics.bind(env.task.target).xpos)
    assert distance < 0.01
    assert rewards[-1] == pytest.approx(1.0)
    assert timestep.last()


@pytest.mark.parametrize("seed", [0, 1])
def test_lift_brick_reaches_full_reward(seed):
    env, controller, timestep = _controller("lift_brick_features", seed)
    task = env.task
    _, rewards = controller.run(
        scripted.lift_waypoints(controller, task, task.prop, lift_to_m=task.target_height + 0.05),
        timestep,
    )
    assert max(rewards) == 1.0
    assert rewards[-1] >= 0.99
    assert task.lowest_vertex_height(env.physics) >= task.target_height - 0.003


@pytest.mark.parametrize("seed", [0, 3])
def test_stack_2_bricks_snaps_the_brick_on(seed):
    env, controller, timestep = _controller("stack_2_bricks_features", seed=seed)
    top, bottom = env.task.bricks[1], env.task.bricks[0]
    _, rewards = controller.run(
        scripted.stack_waypoints(controller, env.task, top, bottom), timestep
    )
    assert rewards[-1] >= 0.99
    # Released and snapped: the top brick sits at the stacked height, level.
    offset = top.get_pose(env.physics)[0] - bottom.get_pose(env.physics)[0]
    assert offset[2] == pytest.approx(0.0192, abs=5e-4)
    assert np.linalg.norm(offset[:2]) < 1e-3


@pytest.mark.slow
def test_lifting_the_snapped_top_brick_lifts_both():
    # A 20 s episode: 10 s to stack, then the top brick is grasped and lifted.
    env, controller, timestep = _controller(
        "stack_2_bricks_moveable_base_features", seed=0, time_limit=20.0
    )
    task = env.task
    top, bottom = task.bricks[1], task.bricks[0]
    timestep, rewards = controller.run(
        scripted.stack_waypoints(controller, task, top, bottom), timestep
    )
    assert rewards[-1] >= 0.99
    _, rewards = controller.run(
        scripted.lift_waypoints(controller, task, top, lift_to_m=0.2), timestep
    )
    assert bottom.get_pose(env.physics)[0][2] > 0.15
    assert rewards[-1] >= 0.99  # Still snapped together in the air.


@pytest.mark.slow
def test_lift_brick_reaches_full_reward_on_every_seed():
    for seed in range(10):
        env, controller, timestep = _controller("lift_brick_features", seed)
        task = env.task
        _, rewards = controller.run(
            scripted.lift_waypoints(
                controller, task, task.prop, lift_to_m=task.target_height + 0.05
            ),
            timestep,
        )
        assert rewards[-1] >= 0.99, seed


@pytest.mark.slow
def test_stack_2_bricks_snaps_on_most_seeds():
    # The recorded rate: the brick snaps (last reward 1.0) on 6 of seeds 0-9 with
    # dm_control's brick (8 with the earlier radii tuned without its collision flags).
    solved = 0
    for seed in range(10):
        env, controller, timestep = _controller("stack_2_bricks_features", seed=seed)
        top, bottom = env.task.bricks[1], env.task.bricks[0]
        _, rewards = controller.run(
            scripted.stack_waypoints(controller, env.task, top, bottom), timestep
        )
        solved += rewards[-1] >= 0.99
    assert solved >= 6


def test_controller_rejects_a_task_without_an_arm():
    from composer_tasks.examples import press_button

    env = press_button.make_environment(seed=0)
    with pytest.raises(TypeError, match="manipulation task"):
        scripted.CartesianController(env)


def test_example_script_runs(tmp_path):
    import os
    import subprocess
    import sys

    repository = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    result = subprocess.run(
        [
            sys.executable,
            os.path.join(repository, "examples", "manipulation_scripted.py"),
            "--task",
            "reach_site_features",
            "--seeds",
            "1",
        ],
        cwd=repository,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert "solved 1 of 1 episodes" in result.stdout
