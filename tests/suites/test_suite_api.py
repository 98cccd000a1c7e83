"""The suite's dm_control-compatible module API: tag lists, `flat_observation`,
`task.random`, `task.get_observation`, unnamed action specs and the action wrappers
(their values against dm_control: tests/differential/test_suite.py)."""

import collections

import numpy as np
import pytest
from dm_env import specs

from suites import base, control, suite
from suites.cartpole import Balance
from suites.wrappers import action_noise, action_scale


def test_tag_lists_and_sorted_complements():
    assert suite.EASY == (("ball_in_cup", "catch"), ("point_mass", "easy"), ("reacher", "easy"))
    assert ("dog", "fetch") in suite.HARD and ("dog", "fetch") in suite.NO_REWARD_VIZ
    assert list(suite.EXTRA) == sorted(suite.EXTRA)
    assert set(suite.REWARD_VIZ) == set(suite.ALL_TASKS) - set(suite.NO_REWARD_VIZ)
    assert suite.cartpole.SUITE is not None and suite.build_environment is not None


def test_flat_observation_concatenates_in_order():
    flat = suite.load(
        "walker", "walk", task_kwargs={"random": 0}, environment_kwargs={"flat_observation": True}
    )
    nested = suite.load("walker", "walk", task_kwargs={"random": 0})
    spec = flat.observation_spec()
    assert list(spec) == [control.FLAT_OBSERVATION_KEY]
    assert spec["observations"].shape == (24,) and spec["observations"].name == "observations"
    expected = np.concatenate([np.ravel(v) for v in nested.reset().observation.values()])
    np.testing.assert_array_equal(flat.reset().observation["observations"], expected)
    assert flat.flat_observation and not nested.flat_observation
    # As dm_control takes it: by its truth.
    truthy = suite.load("walker", "walk", environment_kwargs={"flat_observation": 1})
    assert list(truthy.observation_spec()) == [control.FLAT_OBSERVATION_KEY]


def test_flatten_observation_orders_plain_dicts_by_key():
    flat = control.flatten_observation({"b": np.ones(2), "a": np.zeros(1)})
    assert list(flat) == ["observations"] and type(flat) is dict
    np.testing.assert_array_equal(flat["observations"], [0.0, 1.0, 1.0])
    ordered = control.flatten_observation(
        collections.OrderedDict(b=np.ones(2), a=np.zeros(1)), output_key="x"
    )
    np.testing.assert_array_equal(ordered["x"], [1.0, 1.0, 0.0])
    with pytest.raises(ValueError, match="can only flatten dict-like observations, got list"):
        control.flatten_observation([np.zeros(1)])


def test_task_random_is_the_environments_generator():
    env = suite.load("cartpole", "balance", task_kwargs={"random": 4})
    assert env.task.random is env.random_state
    # Before an Environment, as in dm_control: the constructor's `random` (a seed, a
    # RandomState, or None for one seeded by the operating system).
    assert isinstance(Balance(swing_up=False, sparse=False).random, np.random.RandomState)
    state = np.random.RandomState(3)
    assert Balance(False, False, state).random is state
    assert Balance(False, False, random=5).random.uniform() == np.random.RandomState(5).uniform()


def test_get_observation_and_unnamed_action_spec():
    env = suite.load("cartpole", "balance", task_kwargs={"random": 4})
    observation = env.reset().observation
    direct = env.task.get_observation(env.physics)
    assert list(direct) == list(observation)
    for name in observation:
        np.testing.assert_array_equal(direct[name], observation[name])
    assert env.action_spec().name is None
    assert isinstance(env.task, base.SuiteTask)


def test_action_scale_maps_the_new_range_onto_the_old():
    env = action_scale.Wrapper(suite.load("cartpole", "balance"), minimum=0.0, maximum=4.0)
    spec = env.action_spec()
    assert spec.minimum == 0.0 and spec.maximum == 4.0 and spec.shape == (1,)
    np.testing.assert_allclose(env._transform(np.array([0.0, 2.0, 4.0])), [-1.0, 0.0, 1.0])
    with pytest.raises(ValueError, match="minimum must be finite"):
        action_scale.Wrapper(env, minimum=-np.inf, maximum=1.0)
    with pytest.raises(ValueError, match="does not broadcast to the action shape"):
        action_scale.Wrapper(env, minimum=np.zeros(2), maximum=1.0)
    with pytest.raises(ValueError, match="one specs.BoundedArray"):
        action_scale.Wrapper(_UnboundedEnv(), minimum=0.0, maximum=1.0)


def test_action_noise_draws_from_the_task_and_clips():
    env = action_noise.Wrapper(
        suite.load("cartpole", "balance", task_kwargs={"random": 0}), scale=10.0
    )
    env.reset()
    env.step(np.array([0.9]))
    assert np.abs(env.physics.data.ctrl).max() <= 1.0
    with pytest.raises(ValueError, match="finite action bounds"):
        action_noise.Wrapper(_UnboundedEnv(bounded=True))


class _UnboundedEnv:
    def __init__(self, bounded=False):
        self._bounded = bounded

    def action_spec(self):
        if self._bounded:
            return specs.BoundedArray((1,), np.float64, -np.inf, np.inf)
        return specs.Array((1,), np.float64)
