"""The PettingZoo ParallelEnv adapter, checked with PettingZoo's own API test."""

import numpy as np
import pytest
from pettingzoo.test import parallel_api_test

from composer_tasks import composer
from composer_tasks.wrappers import pettingzoo as pettingzoo_wrapper
from tests import core_fixtures
from tests.test_multi_agent import TwoCreatures


def _parallel_env(**kwargs):
    return pettingzoo_wrapper.ParallelEnv(
        composer.Environment(TwoCreatures(), random_state=0, time_limit=0.1), **kwargs
    )


@pytest.mark.parametrize("flatten", [False, True])
def test_passes_pettingzoo_parallel_api_test(flatten):
    parallel_api_test(_parallel_env(flatten_observations=flatten), num_cycles=30)


def test_steps_map_to_the_dm_env_steps():
    env = _parallel_env()
    single = composer.Environment(TwoCreatures(), random_state=4, time_limit=0.1)
    observations, infos = env.reset(seed=4)
    first = single.reset()
    assert env.agents == ["agent_0", "agent_1"] and set(infos) == set(env.agents)
    np.testing.assert_array_equal(
        observations["agent_1"]["own_hips"], first.observation[1]["own_hips"]
    )
    for step in range(10):
        actions = {name: np.full(2, 0.1 * (index + 1)) for index, name in enumerate(env.agents)}
        observations, rewards, terminations, truncations, infos = env.step(actions)
        expected = single.step([actions["agent_0"], actions["agent_1"]])
        assert rewards == {
            "agent_0": float(expected.reward[0]),
            "agent_1": float(expected.reward[1]),
        }
        assert not any(terminations.values())
        assert all(truncations.values()) == expected.last()
    # The 0.1 s time limit is 10 control steps of 0.01 s: a truncation.
    assert env.agents == [] and all(truncations.values())
    with pytest.raises(RuntimeError, match="call reset"):
        env.step({})


def test_termination_ends_every_agent():
    env = pettingzoo_wrapper.ParallelEnv(
        composer.Environment(TwoCreatures(floor_m=10.0), random_state=0), agent_names=["a", "b"]
    )
    env.reset()
    _, _, terminations, truncations, infos = env.step({"a": np.zeros(2), "b": np.zeros(2)})
    assert terminations == {"a": True, "b": True} and truncations == {"a": False, "b": False}
    assert infos["a"]["discount"] == 0.0 and env.agents == []


def test_bad_inputs():
    with pytest.raises(TypeError, match="multi-agent task"):
        pettingzoo_wrapper.ParallelEnv(composer.Environment(core_fixtures.RandomHeightTask()))
    with pytest.raises(ValueError, match="2 unique strings"):
        _parallel_env(agent_names=["a", "a"])
    with pytest.raises(ValueError, match="render_mode"):
        _parallel_env(render_mode="human")
    env = _parallel_env()
    env.reset()
    with pytest.raises(
        ValueError, match=r"every agent's action \['agent_0', 'agent_1'\], got \['agent_0'\]"
    ):
        env.step({"agent_0": np.zeros(2)})
    with pytest.raises(ValueError, match="agent 1 has shape"):
        env.step({"agent_0": np.zeros(2), "agent_1": np.zeros(3)})


def test_the_gymnasium_adapters_refuse_a_multi_agent_environment_naming_this_adapter():
    from composer_tasks.batch import BatchEnvironment
    from composer_tasks.wrappers import gymnasium as gymnasium_wrapper

    with pytest.raises(TypeError, match="several agents.*pettingzoo"):
        gymnasium_wrapper.GymnasiumEnv(composer.Environment(TwoCreatures(), random_state=0))
    with pytest.raises(TypeError, match="several agents.*pettingzoo"):
        gymnasium_wrapper.GymnasiumVectorEnv(BatchEnvironment(TwoCreatures, num_envs=2, seed=0))


@pytest.mark.parametrize("team_size", [1, 2])
def test_every_soccer_observation_lies_in_its_space(team_size):
    # Soccer observes bools (e.g. stage flags): their spaces were Box(True, True)
    # (the unbounded spec's -inf cast to bool), which no False lay in (issue 29).
    from suites import soccer

    env = pettingzoo_wrapper.ParallelEnv(soccer.load(team_size, time_limit=0.2, random_state=0))
    observations, _ = env.reset(seed=0)
    kinds = set()
    for step in range(6):
        for name, observation in observations.items():
            space = env.observation_space(name)
            for key, value in observation.items():
                kinds.add(np.asarray(value).dtype.kind)
                assert space[key].contains(value), (step, name, key, value, space[key])
        actions = {name: env.action_space(name).sample() for name in env.agents}
        observations, *_ = env.step(actions)
    assert "b" in kinds, "soccer observed no bool here: the test no longer covers bool spaces"


def test_render_fps_is_one_frame_per_control_step():
    env = _parallel_env()
    assert env.metadata["render_fps"] == 1.0 / env.dm_env.control_timestep()
    assert env.metadata["render_modes"] == ["rgb_array"]
