"""Stacker domain: layout, hand-computed rewards, initial states, determinism and
bad inputs."""

import mujoco
import numpy as np
import pytest

from mjcf_models import stacker as stacker_model
from suites import stacker, suite


def _state(env, box_positions, hand_far=True):
    """Boxes at world (x, z) positions, the arm pointing up (its grasp site about
    0.4 + 0.18 + 0.15 + 0.12 + 0.065 m high) or folded down next to the target."""
    physics = env.physics
    mujoco.mj_resetData(physics.model, physics.data)
    for index, (x, z) in enumerate(box_positions):
        physics.data.joint(f"box{index}_x").qpos = x
        physics.data.joint(f"box{index}_z").qpos = z
    if not hand_far:
        physics.data.joint("arm_root").qpos = np.pi
    physics.forward()
    return physics


def test_registered_as_extra_tasks():
    assert suite.TASKS_BY_DOMAIN["stacker"] == ("stack_2", "stack_4")
    assert ("stacker", "stack_2") in suite.EXTRA and ("stacker", "stack_4") in suite.EXTRA


@pytest.mark.parametrize("task, boxes", [("stack_2", 2), ("stack_4", 4)])
def test_observations_and_specs(task, boxes):
    env = suite.load("stacker", task, task_kwargs={"random": 0})
    observation = env.reset().observation
    assert {key: value.shape for key, value in observation.items()} == {
        "arm_pos": (8, 2),
        "arm_vel": (8,),
        "touch": (5,),
        "hand_pos": (4,),
        "box_pos": (boxes, 4),
        "box_vel": (3 * boxes,),
        "target_pos": (2,),
    }
    assert list(observation) == [
        "arm_pos",
        "arm_vel",
        "touch",
        "hand_pos",
        "box_pos",
        "box_vel",
        "target_pos",
    ]
    assert env.action_spec().shape == (5,)
    assert env.task.control_timestep == pytest.approx(0.01)
    partial = suite.load("stacker", task, task_kwargs={"fully_observable": False})
    assert list(partial.reset().observation) == ["arm_pos", "arm_vel", "touch"]


def test_reward_box_on_target_hand_away():
    env = suite.load("stacker", "stack_2", task_kwargs={"random": 0})
    env.reset()
    target = env.physics.model.body("target").pos.copy()
    # The target sits 1 mm behind the plane of motion.
    physics = _state(env, [(target[0], target[2]), (0.3, 0.6)])
    assert env.task.get_reward(physics) == pytest.approx(np.exp(np.log(0.1) * (0.001 / 0.044) ** 2))
    # Both boxes far away: the gaussian closeness is tiny.
    physics = _state(env, [(target[0] + 0.3, 0.6), (target[0] + 0.4, 0.6)])
    assert env.task.get_reward(physics) < 1e-6


def test_reward_zero_ish_with_the_hand_on_the_target():
    env = suite.load("stacker", "stack_2", task_kwargs={"random": 0})
    env.reset()
    physics = _state(env, [(0.3, 0.6), (0.2, 0.6)])
    grasp = physics.data.site("grasp").xpos.copy()
    # The target under the grasp site (a model change, as the task's reset makes)
    # with a box on it: the box term is about 1, the hand term about 0.
    physics.model.body("target").pos[[0, 2]] = grasp[[0, 2]]
    physics = _state(env, [(grasp[0], grasp[2]), (0.2, 0.6)])
    hand = np.linalg.norm(physics.data.site("grasp").xpos - physics.data.site("target").xpos)
    assert hand < 0.1 - 0.01
    assert env.task.get_reward(physics) < 1e-3


def test_initial_states_follow_the_published_ranges():
    env = suite.load("stacker", "stack_4", task_kwargs={"random": 3})
    levels = set()
    for _ in range(20):
        env.reset()
        physics = env.physics
        assert physics.data.ncon == 0
        target = physics.model.body("target").pos
        assert -0.37 <= target[0] <= 0.37
        levels.add(round(target[2] / stacker_model.BOX_HALF_SIZE))
        assert physics.data.joint("finger").qpos == physics.data.joint("thumb").qpos
        for index in range(4):
            assert 0.1 <= physics.data.joint(f"box{index}_x").qpos[0] <= 0.3
            assert 0.0 <= physics.data.joint(f"box{index}_z").qpos[0] <= 0.7
    assert levels <= {1, 3, 5, 7} and len(levels) > 1


@pytest.mark.parametrize("task", ["stack_2", "stack_4"])
def test_rewards_in_unit_interval_and_deterministic(task):
    def rollout(seed):
        env = suite.load("stacker", task, task_kwargs={"random": seed, "time_limit": 0.2})
        actions = np.random.RandomState(0).uniform(-1, 1, (20, 5))
        env.reset()
        states, rewards = [], []
        for action in actions:
            time_step = env.step(action)
            states.append(np.array(env.physics.data.qpos))
            rewards.append(time_step.reward)
        return np.array(states), np.array(rewards)

    states, rewards = rollout(2)
    assert np.all((rewards >= 0) & (rewards <= 1))
    again = rollout(2)
    np.testing.assert_array_equal(states, again[0])
    np.testing.assert_array_equal(rewards, again[1])


def test_bad_inputs_raise():
    with pytest.raises(ValueError, match="num_boxes"):
        stacker_model.make_spec(5)
    with pytest.raises(ValueError, match="num_boxes"):
        stacker_model.make_spec(True)
    with pytest.raises(TypeError, match="fully_observable"):
        stacker.Stack(n_boxes=2, fully_observable="yes")
