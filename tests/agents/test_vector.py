"""The batched-environment convention: LoopedBatch, specs flattening, loop and evaluation."""

import dm_env
import numpy as np
import pytest
from dm_env import specs as dm_specs

from agents import evaluation, loop, specs, vector


@pytest.fixture
def make_batch(double_integrator):
    def make(num_envs, time_limit=3):
        return vector.LoopedBatch(
            [
                lambda seed=seed: double_integrator(seed, time_limit=time_limit)
                for seed in range(num_envs)
            ]
        )

    return make


def test_looped_batch_shapes_and_next_step_auto_reset(make_batch):
    batch = make_batch(2, time_limit=2)
    assert batch.num_envs == 2
    timestep = batch.reset()
    np.testing.assert_array_equal(timestep.step_type, [dm_env.StepType.FIRST] * 2)
    assert timestep.observation["position"].shape == (2, 1)
    zeros = np.zeros((2, 1))
    assert batch.step(zeros).mid().all()
    last = batch.step(zeros)
    assert last.last().all()
    np.testing.assert_array_equal(last.discount, [1.0, 1.0])
    # The step after LAST restarts each copy and ignores its action, even a NaN one.
    restarted = batch.step(np.full((2, 1), np.nan))
    assert restarted.first().all()
    np.testing.assert_array_equal(restarted.reward, [0.0, 0.0])
    assert batch.step(zeros).mid().all()


def test_looped_batch_copies_follow_their_single_environments(make_batch, double_integrator):
    batch = make_batch(2, time_limit=2)
    singles = [double_integrator(seed, time_limit=2) for seed in range(2)]
    timestep = batch.reset()
    single_steps = [env.reset() for env in singles]
    for step in range(7):
        action = np.array([[0.3], [-0.7]])
        timestep = batch.step(action)
        for index, env in enumerate(singles):
            if single_steps[index].last():
                single_steps[index] = env.reset()
            else:
                single_steps[index] = env.step(action[index])
            assert timestep.step_type[index] == single_steps[index].step_type
            np.testing.assert_array_equal(
                timestep.observation["position"][index], single_steps[index].observation["position"]
            )


def test_looped_batch_rejects_bad_actions_and_mixed_specs(make_batch, double_integrator):
    batch = make_batch(2)
    batch.reset()
    with pytest.raises(ValueError, match=r"expected \(2, 1\)"):
        batch.step(np.zeros((3, 1)))
    with pytest.raises(ValueError, match="copy 1"):
        batch.step(np.array([[0.0], [np.nan]]))

    class OtherAction(double_integrator):
        def action_spec(self):
            return dm_specs.BoundedArray((2,), np.float64, -1.0, 1.0)

    with pytest.raises(ValueError, match="environment 1 has action spec"):
        vector.LoopedBatch([lambda: double_integrator(0), lambda: OtherAction(1)])
    with pytest.raises(ValueError, match="empty"):
        vector.LoopedBatch([])


def test_as_batched_wraps_single_environments_only(make_batch, double_integrator):
    single = double_integrator(0)
    wrapped = vector.as_batched(single)
    assert wrapped.num_envs == 1 and wrapped.environments[0] is single
    batch = make_batch(2)
    assert vector.as_batched(batch) is batch
    with pytest.raises(TypeError, match="dm_env.Environment"):
        vector.as_batched(object())


def test_flatten_uses_the_spec_key_order():
    spec = {"b": dm_specs.Array((2,), np.float64), "a": dm_specs.Array((), np.float64)}
    layout = specs.observation_layout(spec)
    assert layout.keys == ("b", "a") and layout.size == 3
    flat = specs.flatten_observation(layout, {"a": np.array([9.0]), "b": np.array([[1.0, 2.0]])}, 1)
    np.testing.assert_array_equal(flat, [[1.0, 2.0, 9.0]])
    assert flat.dtype == np.float32
    with pytest.raises(ValueError, match="lacks keys"):
        specs.flatten_observation(layout, {"b": np.zeros((1, 2))}, 1)
    with pytest.raises(ValueError, match="shape"):
        specs.flatten_observation(layout, {"a": np.zeros((1,)), "b": np.zeros((1, 3))}, 1)


def test_action_bounds_map_unit_actions_both_ways():
    bounds = specs.action_bounds(dm_specs.BoundedArray((2,), np.float64, [0.0, -2.0], [1.0, 2.0]))
    env_actions = bounds.to_env(np.array([[-1.0, 0.5], [1.0, 3.0]]))
    np.testing.assert_allclose(env_actions, [[0.0, 1.0], [1.0, 2.0]])
    assert env_actions.dtype == np.float64
    np.testing.assert_allclose(bounds.to_unit(env_actions), [[-1.0, 0.5], [1.0, 1.0]])
    with pytest.raises(TypeError, match="BoundedArray"):
        specs.action_bounds(dm_specs.Array((1,), np.float64))
    with pytest.raises(ValueError, match="finite"):
        specs.action_bounds(dm_specs.BoundedArray((1,), np.float64, -np.inf, 1.0))


class _Recorder:
    """A stand-in agent that pushes with a fixed force and records what it sees."""

    metric_names = ("calls",)

    def __init__(self):
        self.observed = 0

    def act(self, observation):
        return np.full((observation["position"].shape[0], 1), 0.5)

    def observe(self, timestep, actions, next_timestep):
        self.observed += 1
        return {"calls": float(self.observed)}


def test_loop_counts_transitions_not_reset_steps_and_fires_periodic_callbacks(make_batch):
    fired = []
    state = loop.run(
        _Recorder(),
        make_batch(2, time_limit=3),
        num_steps=12,
        progress=False,
        periodic=[loop.Periodic(5, lambda s: fired.append(s.env_steps))],
    )
    # Each copy: 3 transitions, then 1 reset step; 12 transitions take 7 calls.
    assert state.env_steps == 12
    assert fired == [6, 10]
    returns, metrics = state.drain()
    assert len(returns) == 4 and metrics == {"calls": 4.0}
    assert state.drain() == ([], {})


def test_loop_runs_a_single_environment_as_a_batch_of_one(double_integrator):
    agent = _Recorder()
    state = loop.run(agent, double_integrator(0, time_limit=4), num_steps=8, progress=False)
    assert state.env_steps == 8 and agent.observed == 9
    assert len(state.finished_returns) == 2


def test_evaluate_takes_each_copys_first_episodes(make_batch, double_integrator):
    policy = lambda observation: np.zeros((observation["position"].shape[0], 1))
    returns = evaluation.evaluate(policy, make_batch(2, time_limit=3), num_episodes=3)
    single = evaluation.evaluate(policy, double_integrator(0, time_limit=3), num_episodes=2)
    other = evaluation.evaluate(policy, double_integrator(1, time_limit=3), num_episodes=1)
    np.testing.assert_allclose(returns, np.concatenate([single, other]))
    fresh = evaluation.evaluate_on_fresh_envs(
        policy, lambda seed: double_integrator(seed, time_limit=3), seeds=[0, 1]
    )
    np.testing.assert_allclose(fresh, [single[0], other[0]])
    with pytest.raises(ValueError, match="num_episodes"):
        evaluation.evaluate(policy, double_integrator(0), num_episodes=0)


def test_attribute_state_records_plain_environments_as_data(double_integrator):
    env, twin = double_integrator(5), double_integrator(9)
    env.reset()
    env.step(np.array([0.5]))
    state = vector.attribute_state(env)
    vector.restore_attribute_state(twin, state)
    np.testing.assert_array_equal(
        twin.step(np.array([0.2])).observation["position"],
        env.step(np.array([0.2])).observation["position"],
    )
    # The recorded values are copies: later steps do not change them.
    assert state["_steps"] == {"value": 1}
    generator_env = double_integrator(0)
    generator_env._random = np.random.default_rng(4)
    other = double_integrator(0)
    with pytest.raises(ValueError, match="holds a generator for DoubleIntegrator._random"):
        vector.restore_attribute_state(other, vector.attribute_state(generator_env))
    with pytest.raises(ValueError, match="holds the attributes"):
        vector.restore_attribute_state(other, {"_steps": {"value": 0}})
    # `len`, not `print`: a test run may have replaced `print` (wandb's console capture).
    other._callback = len
    with pytest.raises(TypeError, match="DoubleIntegrator._callback is a builtin_function"):
        vector.attribute_state(other)


def test_looped_batch_snapshot_uses_attribute_state_without_snapshot(double_integrator):
    batch = vector.LoopedBatch([lambda: double_integrator(1), lambda: double_integrator(2)])
    batch.reset()
    snapshot = batch.snapshot()
    expected = batch.step(np.full((2, 1), 0.3))
    twin = vector.LoopedBatch([lambda: double_integrator(7), lambda: double_integrator(8)])
    twin.restore(snapshot)
    np.testing.assert_array_equal(twin.step(np.full((2, 1), 0.3)).reward, expected.reward)
