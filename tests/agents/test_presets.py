"""Presets: every preset builds a valid Config; bad names and agents give clear errors;
--preset and --samples_per_insert reach the run's settings; PPO's fixed reward scale."""

import math

import numpy as np
import pytest

from agents import d4pg, experiment, ppo, presets, train


@pytest.mark.parametrize(
    "agent, name", [(agent, name) for agent, table in presets.PRESETS.items() for name in table]
)
def test_every_preset_builds_a_valid_config(agent, name):
    preset = presets.get(agent, name)
    config = preset.config()
    assert isinstance(config, {"ppo": ppo.Config, "d4pg": d4pg.Config}[agent])
    assert preset.source
    # The overrides are real Config fields with their own types (apply_overrides checks).
    assert experiment.make_config(agent, preset.overrides) == config
    if agent == "ppo":
        ppo.check_sizes(config, preset.num_envs)


def test_ppo_presets_carry_the_published_numbers():
    swingup = presets.get("ppo", "cartpole_swingup").config()
    # mujoco_playground brax_ppo_config: discounting, learning_rate, entropy_cost,
    # num_updates_per_batch, num_minibatches; Brax defaults: clipping_epsilon, no
    # gradient clipping.
    assert (swingup.discount, swingup.learning_rate, swingup.entropy_coefficient) == (
        0.995,
        1e-3,
        1e-2,
    )
    assert (swingup.update_epochs, swingup.num_minibatches, swingup.clip_epsilon) == (16, 32, 0.3)
    assert math.isinf(swingup.max_grad_norm)
    # 2048 copies x 480 steps, scaled by 1/32: 64 copies x 480 steps.
    assert presets.get("ppo", "cartpole_swingup").num_envs == 64
    assert swingup.rollout_steps == 64 * 480
    assert swingup.reward_normalization == "running_std"
    # The file's per-task changes.
    assert presets.get("ppo", "finger_spin").config().discount == 0.95
    assert presets.get("ppo", "pendulum_swingup").config().update_epochs == 4
    assert sorted(preset.task for preset in presets.PRESETS["ppo"].values()) == sorted(
        presets.EASY_TASKS + presets.LOCOMOTION_TASKS
    )


def test_task_picks_the_preset_of_the_environment():
    assert presets.get("ppo", "task", "walker:walk").name == "walker_walk"
    with pytest.raises(ValueError, match="has no ppo preset"):
        presets.get("ppo", "task", "humanoid:run")
    with pytest.raises(ValueError, match="has no d4pg preset"):
        presets.get("d4pg", "task", "cartpole:swingup")


@pytest.mark.parametrize(
    "agent, name, message",
    [
        ("ppo", "cartpole_swing", "unknown"),
        ("ppo", "batched", "preset of 'd4pg', not of 'ppo'"),
        ("d4pg", "cartpole_swingup", "preset of 'ppo', not of 'd4pg'"),
        ("trpo", "cartpole_swingup", "has no presets"),
    ],
)
def test_unknown_and_foreign_presets_are_refused(agent, name, message):
    with pytest.raises(ValueError, match=message):
        presets.get(agent, name)


def test_train_flags_combine_preset_set_and_samples_per_insert():
    overrides, num_envs = train.single_process_settings(
        "ppo", "cartpole:swingup", "task", None, ["learning_rate=3e-4"], None
    )
    assert num_envs == 64 and overrides["learning_rate"] == "3e-4"
    assert experiment.make_config("ppo", overrides).learning_rate == 3e-4
    # An explicit --num-envs wins over the preset's.
    assert train.single_process_settings("ppo", "cartpole:swingup", "task", None, [], 32)[1] == 32
    assert train.single_process_settings("ppo", "cartpole:swingup", None, None, [], None) == ({}, 1)

    overrides, num_envs = train.single_process_settings(
        "d4pg", "cartpole:swingup", "batched", 64.0, ["batch_size=128"], None
    )
    config = experiment.make_config("d4pg", overrides)
    assert num_envs == 8 and config.updates_per_call == 8
    assert config.updates_per_transition == 0.5 and config.samples_per_insert == 64.0


@pytest.mark.parametrize(
    "agent, spi, set_items, message",
    [
        ("ppo", 64.0, [], "D4PG setting"),
        ("d4pg", 64.0, ["updates_per_transition=2"], "give one"),
        ("d4pg", 0.0, [], "expected > 0"),
    ],
)
def test_samples_per_insert_errors(agent, spi, set_items, message):
    with pytest.raises(ValueError, match=message):
        train.single_process_settings(agent, "cartpole:swingup", None, spi, set_items, None)


def test_ppo_reward_settings_are_validated():
    with pytest.raises(ValueError, match="has no effect"):
        ppo.Config(reward_scale=10.0)
    with pytest.raises(ValueError, match="reward_normalization"):
        ppo.Config(reward_normalization="sometimes")
    with pytest.raises(ValueError, match="value_hidden_sizes"):
        ppo.Config(value_hidden_sizes=(0,))
    assert ppo.Config(hidden_sizes=(8,)).value_layers == (8,)
    assert ppo.Config(value_hidden_sizes=(4, 4)).value_layers == (4, 4)


class _Step:
    def __init__(self, reward, first=False, last=False):
        self.reward = np.asarray(reward, np.float32)
        self.discount = np.ones_like(self.reward)
        self.observation = {"x": np.zeros((len(self.reward), 1), np.float32)}
        self._first, self._last = first, last

    def first(self):
        return np.full(self.reward.shape, self._first)

    def last(self):
        return np.full(self.reward.shape, self._last)


def test_fixed_reward_scale_multiplies_the_stored_rewards(double_integrator):
    env = double_integrator(0)
    config = ppo.Config(
        hidden_sizes=(4,),
        rollout_steps=8,
        num_minibatches=1,
        update_epochs=1,
        reward_normalization="fixed",
        reward_scale=10.0,
    )
    agent = ppo.PPO(config, env.observation_spec(), env.action_spec(), 2, 0)
    observation = {"position": np.zeros((2, 1)), "velocity": np.zeros((2, 1))}
    agent.act(observation)
    step = _Step([0.25, 0.5], first=True)
    step.observation = observation
    agent.observe(step, None, _Step([0.25, 0.5]))
    np.testing.assert_array_equal(agent.state_dict()["rollout"][0]["reward"], [2.5, 5.0])
