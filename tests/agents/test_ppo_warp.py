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

pytest.importorskip("mujoco_warp")
warp = pytest.importorskip("warp")

from agents import checkpoint, environments, experiment, loop, ppo, vector  # noqa: E402
from composer_tasks import batch_warp  # noqa: E402
from suites import suite  # noqa: E402

warp.config.quiet = True

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


def test_same_seed_same_device_run(device_run):
    """The first rollout and update again, bit for bit."""
    _, state, updates = device_run
    _, again_state, again_updates = _train(on_device=True, steps=_CONFIG.rollout_steps)
    assert again_updates == updates[:1]
    assert again_state.finished_returns == state.finished_returns[:_NUM_ENVS]


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


def test_a_rollout_step_reads_back_only_the_backends_flags(monkeypatch):
    """Counts what leaves the device during act, step and observe, away from a
    rollout's end and episode ends: `jax.device_get`, the Python conversions of JAX
    arrays, and `np.asarray` / `np.array` / `np.asanyarray` of JAX arrays (on Warp's
    CPU device JAX's transfer guard sees no transfer, so the calls are counted). The
    reads are the backend's: one scalar (were the actions in bounds) and the (2, N)
    flags (which copies ended, which may have diverged)."""
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
    expected = [("device_get", [()]), ("device_get", [(2, _NUM_ENVS)])] * 3
    assert reads == expected, reads
    env.close()


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
