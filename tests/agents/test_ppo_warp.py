"""PPO trained on the Warp batch without leaving the device (`ppo.DevicePPO`), on
Warp's CPU device, against the host path (`ppo.PPO` on the CPU batch).

MuJoCo Warp compiles its kernels once per model and process (cached on disk under
WARP_CACHE_PATH), and the jitted PPO functions once per configuration and process: the
runs share one small configuration, and one module-scoped run serves several tests.
"""

import os
import subprocess
import sys

import jax
import numpy as np
import pytest

from agents import checkpoint, environments, experiment, loop, normalizer, ppo, specs, vector
from composer_tasks import batch_warp
from suites import suite

try:
    import mujoco_warp  # noqa: F401
    import warp
except ImportError:
    warp = None
else:
    warp.config.quiet = True

# The tests that step MuJoCo Warp; the device agent's pieces are checked without it.
needs_warp = pytest.mark.skipif(warp is None, reason="needs mujoco-warp and warp-lang")

# Warp's CPU device by default; COMPOSER_TASKS_WARP_DEVICE=cuda:0 runs the same tests
# on a GPU (as tests/test_batch_warp.py; the bit-exact checks assume a deterministic
# device).
_DEVICE = os.environ.get("COMPOSER_TASKS_WARP_DEVICE", "cpu")
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_NUM_ENVS = 8
# Updates of 32 steps per copy; 0.3 s episodes (30 control steps), so copies end and
# reset within each rollout.
_CONFIG = ppo.Config(hidden_sizes=(32, 32), rollout_steps=256, num_minibatches=4, update_epochs=2)
_STEPS = 2 * _CONFIG.rollout_steps
_TASK_KWARGS = {"time_limit": 0.3}


def _batch(on_device: bool, seed: int = 0):
    if on_device:
        options = batch_warp.WarpOptions(device=_DEVICE, array_module="jax", return_jax=True)
        return suite.load_batch(
            "cartpole", "balance", _NUM_ENVS, seed=seed, task_kwargs=_TASK_KWARGS, backend=options
        )
    return suite.load_batch("cartpole", "balance", _NUM_ENVS, seed=seed, task_kwargs=_TASK_KWARGS)


def _train(on_device: bool, seed: int = 0, steps: int = _STEPS):
    """(agent, loop state, per-update metrics) of `steps` steps of PPO."""
    env = _batch(on_device, seed)
    agent_class = ppo.DevicePPO if on_device else ppo.PPO
    agent = agent_class(_CONFIG, env.observation_spec(), env.action_spec(), _NUM_ENVS, seed)
    updates = []
    original_observe = agent.observe

    def observe(timestep, actions, next_timestep):
        metrics = original_observe(timestep, actions, next_timestep)
        if metrics:
            updates.append(metrics)
        return metrics

    agent.observe = observe
    state = loop.run(agent, env, steps, progress=False)
    env.close()
    return agent, state, updates


@pytest.fixture(scope="module")
def device_run():
    return _train(on_device=True)


@needs_warp
def test_device_ppo_acts_on_jax_arrays_and_updates_with_finite_losses(device_run):
    agent, state, updates = device_run
    assert len(updates) == 2
    for metrics in updates:
        assert set(metrics) == set(ppo.PPO.metric_names)
        assert all(np.isfinite(value) for value in metrics.values()), metrics
    assert isinstance(state.timestep.observation["position"], jax.Array)
    assert isinstance(state.episode_returns, jax.Array)
    # 30-step episodes of 8 copies over 64 steps: each copy ended two.
    assert len(state.finished_returns) == 2 * _NUM_ENVS
    assert state.env_steps == _STEPS


@needs_warp
def test_device_run_matches_the_host_run_in_distribution(device_run):
    """Same seed, same hyperparameters: the network's initialisation and noise are the
    same, the physics and statistics float32 on the device, so the runs stay close."""
    device_agent, device_state, device_updates = device_run
    host_agent, host_state, host_updates = _train(on_device=False)
    np.testing.assert_allclose(
        sorted(device_state.finished_returns), sorted(host_state.finished_returns), rtol=2e-2
    )
    for device_metrics, host_metrics in zip(device_updates, host_updates):
        for name in ("value_loss", "entropy"):
            np.testing.assert_allclose(device_metrics[name], host_metrics[name], rtol=2e-2)
    device_statistics = device_agent.state_dict()["observations"]
    host_statistics = host_agent.state_dict()["observations"]
    assert device_statistics["count"] == host_statistics["count"]
    np.testing.assert_allclose(
        device_statistics["mean"], host_statistics["mean"], rtol=2e-2, atol=1e-3
    )
    np.testing.assert_allclose(device_statistics["m2"], host_statistics["m2"], rtol=2e-2, atol=1e-3)
    np.testing.assert_allclose(
        device_agent.state_dict()["rewards"]["statistics"]["m2"],
        host_agent.state_dict()["rewards"]["statistics"]["m2"],
        rtol=2e-2,
    )


@needs_warp
def test_same_seed_same_device_run(device_run):
    """The first rollout and update again, bit for bit."""
    _, state, updates = device_run
    _, again_state, again_updates = _train(on_device=True, steps=_CONFIG.rollout_steps)
    assert again_updates == updates[:1]
    assert again_state.finished_returns == state.finished_returns[:_NUM_ENVS]


@needs_warp
def test_checkpoints_are_the_host_agents(device_run):
    """A device agent's state loads into the host agent (evaluation, `load_agent`)
    and back, through a checkpoint file."""
    agent, _, _ = device_run
    env = _batch(on_device=False)
    specs = env.observation_spec(), env.action_spec()
    env.close()
    host = ppo.PPO(_CONFIG, *specs, _NUM_ENVS, seed=1)
    state = agent.state_dict()
    host.load_state_dict(checkpoint.restore(host.state_dict(), state))
    assert host.state_dict()["observations"]["count"] == state["observations"]["count"]
    again = ppo.DevicePPO(_CONFIG, *specs, _NUM_ENVS, seed=1)
    again.load_state_dict(host.state_dict())
    reloaded = again.state_dict()
    np.testing.assert_allclose(
        reloaded["observations"]["m2"], state["observations"]["m2"], rtol=1e-6
    )
    np.testing.assert_array_equal(reloaded["key"], state["key"])


# The reads from the device a call may make, by what reads them.
_CONVERSIONS = ("__float__", "__int__", "__bool__", "__index__", "tolist", "item", "__iter__")


@needs_warp
def test_a_rollout_step_reads_back_only_the_backends_flags(monkeypatch):
    """Counts what leaves the device during act, step and observe, away from a
    rollout's end and episode ends: `jax.device_get`, the Python conversions of JAX
    arrays, `np.asarray` / `np.array` / `np.asanyarray` of JAX arrays and Warp
    arrays' `numpy()` (on Warp's CPU device JAX's transfer guard sees no transfer, so
    the calls are counted). One read per step, the backend's (4, N) flags: which
    copies ended, which may have diverged, which overflowed a buffer, and whether the
    actions were out of bounds."""
    env = _batch(on_device=True)
    agent = ppo.DevicePPO(_CONFIG, env.observation_spec(), env.action_spec(), _NUM_ENVS, 0)
    timestep = env.reset()
    for _ in range(2):  # Compiles everything first.
        actions = agent.act(timestep.observation)
        next_timestep = env.step(actions)
        agent.observe(timestep, actions, next_timestep)
        timestep = next_timestep
    reads = []

    def is_jax(value):
        return any(isinstance(leaf, jax.Array) for leaf in jax.tree.leaves(value))

    device_get = jax.device_get

    def counted_device_get(value):
        reads.append(("device_get", [np.shape(leaf) for leaf in jax.tree.leaves(value)]))
        return device_get(value)

    monkeypatch.setattr(jax, "device_get", counted_device_get)
    for name in ("asarray", "array", "asanyarray"):
        original = getattr(np, name)

        def counted(value, *args, _name=name, _original=original, **kwargs):
            if is_jax(value):
                reads.append((f"np.{_name}", [np.shape(value)]))
            return _original(value, *args, **kwargs)

        monkeypatch.setattr(np, name, counted)
    array_type = type(timestep.reward)
    for name in _CONVERSIONS:
        original = getattr(array_type, name)

        def converted(self, *args, _name=name, _original=original, **kwargs):
            reads.append((_name, [self.shape]))
            return _original(self, *args, **kwargs)

        monkeypatch.setattr(array_type, name, converted)
    warp_numpy = warp.array.numpy

    def counted_warp_numpy(self):
        reads.append(("warp.array.numpy", [self.shape]))
        return warp_numpy(self)

    monkeypatch.setattr(warp.array, "numpy", counted_warp_numpy)
    returns = np.zeros(_NUM_ENVS)
    for _ in range(3):
        actions = agent.act(timestep.observation)
        assert isinstance(actions, jax.Array)
        next_timestep = env.step(actions)
        assert agent.observe(timestep, actions, next_timestep) == {}
        valid = ~np.asarray(timestep.last())
        ended = np.asarray(next_timestep.last()) & valid
        assert not ended.any()
        returns, finished = vector.accumulate_returns(returns, next_timestep.reward, valid, ended)
        assert finished == []
        timestep = next_timestep
    monkeypatch.undo()
    expected = [("device_get", [(4, _NUM_ENVS)])] * 3
    assert reads == expected, reads
    env.close()


@needs_warp
def test_a_diverged_copy_ends_its_episode_on_the_device_path():
    """DevicePPO's calls (JAX actions, JAX TimeSteps) with the one read per step: a copy
    whose state turns non-finite ends its episode (LAST, reward and discount 0, its
    previous observation) and resets at the next step; the agent sees finite values."""
    options = batch_warp.WarpOptions(device=_DEVICE, array_module="jax", return_jax=True)
    env = suite.load_batch(
        "cartpole",
        "balance",
        _NUM_ENVS,
        seed=0,
        task_kwargs=_TASK_KWARGS,
        backend=options,
        environment_kwargs={"raise_exception_on_physics_error": False},
    )
    agent = ppo.DevicePPO(_CONFIG, env.observation_spec(), env.action_spec(), _NUM_ENVS, 0)
    timestep = env.reset()
    kinds = []
    for step in range(4):
        if step == 2:
            with env.copy_physics(3) as physics:
                physics.data.qvel[:] = np.nan
        actions = agent.act(timestep.observation)
        next_timestep = env.step(actions)
        assert agent.observe(timestep, actions, next_timestep) == {}
        kinds.append(np.asarray(next_timestep.step_type).tolist())
        if step == 2:
            assert float(next_timestep.discount[3]) == 0.0
            assert float(next_timestep.reward[3]) == 0.0
            for name, value in timestep.observation.items():
                np.testing.assert_array_equal(
                    np.asarray(next_timestep.observation[name][3]), np.asarray(value[3])
                )
        for value in next_timestep.observation.values():
            assert np.all(np.isfinite(np.asarray(value)))
        timestep = next_timestep
    assert kinds[2] == [1, 1, 1, 2, 1, 1, 1, 1]
    assert kinds[3] == [1, 1, 1, 0, 1, 1, 1, 1]
    env.close()


@needs_warp
def test_experiment_trains_on_device_through_the_environment_name(tmp_path):
    result = experiment.train(
        "ppo",
        environments.factory("cartpole:balance"),
        _CONFIG.rollout_steps,
        0,
        str(tmp_path / "run"),
        env_name="cartpole:balance",
        num_envs=_NUM_ENVS,
        config_overrides={
            name: getattr(_CONFIG, name)
            for name in ("hidden_sizes", "rollout_steps", "num_minibatches", "update_epochs")
        },
        eval_every=_CONFIG.rollout_steps,
        eval_episodes=1,
        progress=False,
        make_batch=environments.batch_factory(
            "cartpole:balance", "warp", _DEVICE, jax_timesteps=True
        ),
        on_device=True,
    )
    assert isinstance(result.agent, ppo.DevicePPO)
    assert result.env_steps == _CONFIG.rollout_steps
    rows = list(experiment.csv_log.read_rows(result.metrics_path))
    assert np.isfinite(float(rows[-1]["value_loss"]))
    agent, _ = experiment.load_agent(
        result.checkpoint_path, *_specs(environments.load("cartpole:balance", 0))
    )
    assert isinstance(agent, ppo.PPO)


def _specs(env):
    return env.observation_spec(), env.action_spec()


def test_on_device_is_ppos_and_warps():
    with pytest.raises(ValueError, match="agent 'd4pg' has no such path"):
        experiment.train("d4pg", lambda seed: None, 0, 0, "/nonexistent", on_device=True)
    with pytest.raises(ValueError, match="jax_timesteps=True is for backend='warp'"):
        environments.load("cartpole:balance", 0, 2, jax_timesteps=True)


@needs_warp
@pytest.mark.slow
def test_the_command_line_trains_ppo_on_the_device(tmp_path):
    completed = subprocess.run(
        [
            sys.executable,
            "-m",
            "agents.train",
            "--noprogress",
            "--agent",
            "ppo",
            "--env",
            "cartpole:balance",
            "--backend",
            "warp",
            "--device",
            _DEVICE,
            "--num-envs",
            str(_NUM_ENVS),
            "--steps",
            str(_STEPS),
            "--eval-episodes",
            "1",
            "--set",
            f"rollout_steps={_CONFIG.rollout_steps}",
            "--set",
            "num_minibatches=4",
            "--out",
            str(tmp_path / "run"),
        ],
        cwd=ROOT,
        env=dict(os.environ, PYTHONPATH=ROOT),
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert completed.returncode == 0, completed.stderr[-3000:]
    rows = list(experiment.csv_log.read_rows(str(tmp_path / "run" / "metrics.csv")))
    assert np.isfinite(float(rows[-1]["policy_loss"]))


@needs_warp
@pytest.mark.slow
def test_a_resumed_device_run_repeats_the_uninterrupted_one(tmp_path):
    """Checkpointed after one update and resumed (the Warp batch's snapshot, the
    agent's state through `PPO`'s layout): the parameters equal the run's that did not
    stop, bit for bit."""
    settings = dict(
        env_name="cartpole:balance",
        num_envs=_NUM_ENVS,
        config_overrides={
            name: getattr(_CONFIG, name)
            for name in ("hidden_sizes", "rollout_steps", "num_minibatches", "update_epochs")
        },
        eval_every=_CONFIG.rollout_steps,
        eval_episodes=1,
        progress=False,
        make_batch=environments.batch_factory(
            "cartpole:balance", "warp", _DEVICE, jax_timesteps=True
        ),
        on_device=True,
    )
    make_env = environments.factory("cartpole:balance")
    steps = _CONFIG.rollout_steps
    experiment.train("ppo", make_env, steps, 0, str(tmp_path / "a"), **settings)
    resumed = experiment.train(
        "ppo", make_env, 2 * steps, 0, str(tmp_path / "a"), resume=True, **settings
    )
    straight = experiment.train("ppo", make_env, 2 * steps, 0, str(tmp_path / "b"), **settings)
    for first, second in zip(
        jax.tree.leaves(resumed.agent.learner.params),
        jax.tree.leaves(straight.agent.learner.params),
    ):
        np.testing.assert_array_equal(np.asarray(first), np.asarray(second))


# The device agent's pieces against the host's, without MuJoCo Warp.


def test_device_statistics_follow_the_host_running_statistics():
    rng = np.random.default_rng(0)
    host = normalizer.RunningMeanStd((3,))
    count, statistics = 0.0, ppo.DeviceStatistics(jax.numpy.zeros(3), jax.numpy.ones(3))
    for size in (5, 1, 17, 64):
        batch = rng.normal([100.0, 0.0, -3.0], [1.0, 0.01, 30.0], size=(size, 3))
        host.update(batch)
        count += size
        statistics = ppo.merge_statistics(
            statistics,
            jax.numpy.asarray(batch.mean(0), jax.numpy.float32),
            jax.numpy.asarray(batch.var(0), jax.numpy.float32),
            jax.numpy.float32(size / count),
        )
        np.testing.assert_allclose(statistics.mean, host.mean, rtol=1e-6, atol=1e-6)
        np.testing.assert_allclose(statistics.variance, host.variance, rtol=1e-4)
    values = rng.normal(100.0, 5.0, size=(4, 3))
    np.testing.assert_allclose(
        ppo.device_normalize(statistics, jax.numpy.asarray(values, jax.numpy.float32), 10.0),
        host.normalize(values, 10.0),
        rtol=1e-4,
        atol=1e-4,
    )


@pytest.mark.parametrize("running_std", [True, False])
def test_device_rewards_follow_the_host_reward_scale(running_std):
    rng = np.random.default_rng(1)
    num_envs, discount, clip = 6, 0.9, 3.0
    host = normalizer.DiscountedReturnScale(num_envs, discount)
    returns = jax.numpy.zeros(num_envs)
    statistics = ppo.DeviceStatistics(jax.numpy.zeros(()), jax.numpy.ones(()))
    count = 0.0
    for step in range(12):
        reward = rng.normal(0.0, 5.0, size=num_envs)
        first = rng.random(num_envs) < 0.2 if step else np.ones(num_envs, bool)
        valid = rng.random(num_envs) < 0.8
        weight = 0.0
        if running_std and valid.any():
            count += int(valid.sum())
            weight = valid.sum() / count
        got, returns, statistics = ppo.device_rewards(
            returns,
            statistics,
            jax.numpy.asarray(reward, jax.numpy.float32),
            jax.numpy.asarray(first),
            jax.numpy.asarray(valid),
            jax.numpy.float32(weight),
            jax.numpy.asarray(count >= 2),
            discount=discount,
            running_std=running_std,
            reward_scale=1.0 if running_std else 0.5,
            reward_clip=clip,
        )
        if running_std:
            expected = host.scale(reward.astype(np.float32), first, valid)
        else:
            expected = 0.5 * np.where(valid, reward.astype(np.float32), 0.0)
        np.testing.assert_allclose(got, np.clip(expected, -clip, clip), rtol=1e-4, atol=1e-5)


def test_device_action_box_lies_within_the_spec():
    """Bounds float32 cannot hold are rounded inward, so every float32 action the
    device maps into the box passes the environment's float64 bounds check."""
    from dm_env import specs as dm_specs

    spec = dm_specs.BoundedArray((3,), np.float64, [-0.1, 0.0, -1.0], [0.1, 0.3, 1.0])
    low, high = ppo.device_action_box(specs.action_bounds(spec))
    low, high = np.asarray(low, np.float64), np.asarray(high, np.float64)
    assert np.all(low >= spec.minimum) and np.all(high <= spec.maximum)
    # The nearest float32 values inside: one step further out is outside.
    assert np.all(np.nextafter(low.astype(np.float32), np.float32(-np.inf)) < spec.minimum)
    assert np.all(np.nextafter(high.astype(np.float32), np.float32(np.inf)) > spec.maximum)


def test_a_non_finite_observation_is_left_out_and_raises_at_the_rollouts_end():
    """The statistics leave the batch out; the rollout's end raises (where the
    environment took the copy's NaN action; this project's batches refuse it)."""
    import dm_env
    from dm_env import specs as dm_specs

    observation_spec = {"x": dm_specs.Array((2,), np.float64, "x")}
    action_spec = dm_specs.BoundedArray((1,), np.float64, -1.0, 1.0)
    config = ppo.Config(hidden_sizes=(4,), rollout_steps=4, num_minibatches=1, update_epochs=1)
    agent = ppo.DevicePPO(config, observation_spec, action_spec, 2, seed=0)

    def timestep(step_type, x):
        return dm_env.TimeStep(
            np.full(2, step_type), np.ones(2), np.ones(2), {"x": np.asarray(x, np.float64)}
        )

    first = timestep(0, [[1.0, 2.0], [3.0, 4.0]])
    agent.act(first.observation)
    statistics = agent.state_dict()["observations"]
    middle = timestep(1, [[np.nan, 0.0], [1.0, 1.0]])
    assert agent.observe(first, None, middle) == {}
    # The copy's action is NaN, which a batch of this project refuses, naming the copy.
    actions = np.asarray(agent.act(middle.observation))
    assert np.isnan(actions[0]).all() and np.isfinite(actions[1]).all()
    after = agent.state_dict()["observations"]
    np.testing.assert_array_equal(after["mean"], statistics["mean"])
    with pytest.raises(ValueError, match="held NaN or infinite values"):
        agent.observe(middle, None, timestep(1, [[0.0, 0.0], [1.0, 1.0]]))
