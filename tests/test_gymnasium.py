"""Gymnasium adapters: env_checker, episode-end mapping, vector autoreset, registered ids."""

import gymnasium
from gymnasium.utils.env_checker import check_env
import numpy as np
import pytest

from composer_tasks import composer
from composer_tasks.batch import BatchEnvironment
from composer_tasks.wrappers.gymnasium import GymnasiumEnv, GymnasiumVectorEnv
import suites.gym_registration as registration
from suites import suite

from core_fixtures import RandomHeightTask


@pytest.mark.parametrize("flatten", [False, True])
def test_check_env_passes_on_a_suite_task(flatten):
    env = GymnasiumEnv(
        suite.load("cartpole", "swingup", task_kwargs={"random": 0}), flatten_observations=flatten
    )
    check_env(env, skip_render_check=True)
    if flatten:
        assert env.observation_space.shape == (5,)
    else:
        assert list(env.observation_space.spaces) == ["position", "velocity"]
    assert env.action_space.shape == (1,)
    np.testing.assert_array_equal(env.action_space.low, [-1.0])


def test_time_limit_is_truncation_and_termination_is_terminated():
    env = GymnasiumEnv(composer.Environment(RandomHeightTask(), time_limit=0.03, random_state=0))
    env.reset(seed=3)
    results = [env.step(np.zeros(2)) for _ in range(3)]
    assert [r[2] for r in results] == [False, False, False]
    assert [r[3] for r in results] == [False, False, True]
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(np.zeros(2))

    class Falling(RandomHeightTask):
        def should_terminate_episode(self, physics):
            return True

        def get_discount(self, physics):
            return 0.0  # a final step: Gymnasium's `terminated`

    env = GymnasiumEnv(composer.Environment(Falling(), random_state=0))
    env.reset()
    _, _, terminated, truncated, info = env.step(np.zeros(2))
    assert terminated and not truncated and info["discount"] == 0.0


def test_reset_seed_reproduces():
    env = GymnasiumEnv(suite.load("cartpole", "swingup"), flatten_observations=True)
    first, _ = env.reset(seed=4)
    env.reset(seed=5)
    again, _ = env.reset(seed=4)
    np.testing.assert_array_equal(first, again)


def test_vector_env_next_step_autoreset():
    vector = GymnasiumVectorEnv(BatchEnvironment(RandomHeightTask, 3, seed=0, time_limit=0.02))
    assert vector.metadata["autoreset_mode"] == gymnasium.vector.AutoresetMode.NEXT_STEP
    observation, _ = vector.reset(seed=0)
    assert observation["hips"].shape == (3, 1, 2)
    assert vector.observation_space.contains(observation)
    _, _, _, truncated, _ = vector.step(np.zeros((3, 2)))
    assert not truncated.any()
    _, _, terminated, truncated, _ = vector.step(np.zeros((3, 2)))
    assert truncated.all() and not terminated.any()
    # NEXT_STEP: this step resets every copy: reward 0, neither flag set.
    _, reward, terminated, truncated, _ = vector.step(np.zeros((3, 2)))
    np.testing.assert_array_equal(reward, 0.0)
    assert not terminated.any() and not truncated.any()
    with pytest.raises(ValueError, match="seed list has 2 entries"):
        vector.reset(seed=[1, 2])


def test_registered_ids_make_and_make_vec():
    name = registration.gymnasium_id("cartpole", "balance")
    assert name == "ComposerSuite/cartpole-balance-v0"
    assert all(registration.gymnasium_id(*pair) in gymnasium.registry for pair in suite.ALL_TASKS)
    env = gymnasium.make(name, task_kwargs={"random": 0}, flatten_observations=True)
    observation, _ = env.reset(seed=0)
    assert observation.shape == (5,)
    vector = gymnasium.make_vec(
        name, num_envs=2, vectorization_mode="vector_entry_point", flatten_observations=True
    )
    observation, _ = vector.reset(seed=0)
    assert observation.shape == (2, 5)
    vector.step(np.zeros((2, 1)))


def test_unbounded_bool_and_integer_specs_give_spaces_holding_their_values():
    from dm_env import specs as dm_specs

    from composer_tasks.wrappers import gymnasium as wrappers

    flag = wrappers._box(dm_specs.Array((2,), bool))
    assert flag.contains(np.array([False, True])) and flag.contains(np.array([True, True]))
    np.testing.assert_array_equal(flag.low, [False, False])
    count = wrappers._box(dm_specs.Array((), np.int32))
    assert count.low == np.iinfo(np.int32).min and count.high == np.iinfo(np.int32).max
    assert count.contains(np.int32(-5))
    assert wrappers._box(dm_specs.Array((1,), np.float64)).low[0] == -np.inf


def test_render_metadata_has_the_control_rate():
    env = GymnasiumEnv(suite.load("cartpole", "swingup", task_kwargs={"random": 0}))
    assert env.metadata["render_fps"] == 1.0 / env.dm_env.control_timestep()
    assert "render_fps" not in GymnasiumEnv.metadata  # The class's stays untouched.


@pytest.mark.parametrize("flatten", [False, True])
def test_reset_mask_restarts_only_the_masked_copies(flatten):
    # Gymnasium 1.x: reset(options={"reset_mask": m}) restarts the copies where m is
    # True; before, every copy restarted (issue 29).
    def make():
        return GymnasiumVectorEnv(
            suite.load_batch("cartpole", "swingup", 3, seed=2), flatten_observations=flatten
        )

    vector, twin = make(), make()
    rows = (lambda o: o) if flatten else (lambda o: o["position"])
    actions = np.full((3, 1), 0.4)
    for env in (vector, twin):
        env.reset(seed=0)
        for _ in range(5):
            observation, *_ = env.step(actions)
    start, _ = make().reset(seed=0)
    mask = np.array([False, True, False])
    reset_observation, _ = vector.reset(options={"reset_mask": mask})
    np.testing.assert_array_equal(rows(reset_observation)[~mask], rows(observation)[~mask])
    assert not np.array_equal(rows(reset_observation)[1], rows(observation)[1])
    assert vector.observation_space.contains(reset_observation)
    # The untouched copies continue exactly as the twin's that no reset touched.
    for _ in range(5):
        stepped, *_ = vector.step(actions)
        expected, *_ = twin.step(actions)
        np.testing.assert_array_equal(rows(stepped)[~mask], rows(expected)[~mask])
    # Copy 1 started over: not where it was, and on its own next draw.
    assert not np.array_equal(rows(reset_observation)[1], rows(start)[1])
    unchanged, _ = vector.reset(options={"reset_mask": np.zeros(3, bool)})
    np.testing.assert_array_equal(rows(unchanged), rows(stepped))
    everything, _ = vector.reset(seed=0, options={"reset_mask": np.ones(3, bool)})
    np.testing.assert_array_equal(rows(everything), rows(start))


def test_reset_mask_errors():
    vector = GymnasiumVectorEnv(suite.load_batch("cartpole", "swingup", 2, seed=0))
    with pytest.raises(ValueError, match="first reset must reset every copy"):
        vector.reset(options={"reset_mask": np.array([True, False])})
    vector.reset(seed=0)
    with pytest.raises(ValueError, match="cannot go with a reset_mask"):
        vector.reset(seed=1, options={"reset_mask": np.array([True, False])})
    for bad in ([1, 0], np.array([True]), np.array([[True, False]])):
        with pytest.raises(ValueError, match="reset_mask must be an array of 2 bools"):
            vector.reset(options={"reset_mask": bad})
    with pytest.raises(ValueError, match="options may hold only 'reset_mask'"):
        vector.reset(options={"other": 1})
