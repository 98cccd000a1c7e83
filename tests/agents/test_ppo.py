"""PPO: GAE by hand, DPPO's gradient averaging, and training smoke tests."""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from agents import experiment, ppo

TINY = dict(hidden_sizes=(16, 16), rollout_steps=64, num_minibatches=4, update_epochs=2)


def _rollout(reward, value, discount, next_is_last):
    shape = (len(reward), 1)
    column = lambda values: jnp.asarray(values, jnp.float32).reshape(shape)
    return ppo.Rollout(
        observation=jnp.zeros(shape + (1,)),
        action=jnp.zeros(shape + (1,)),
        log_prob=jnp.zeros(shape),
        value=column(value),
        reward=column(reward),
        discount=column(discount),
        next_is_last=column(next_is_last),
        valid=jnp.ones(shape, bool),
    )


def test_gae_by_hand_without_episode_ends():
    rollout = _rollout([1, 1, 1], [0.5, 0.5, 0.5], [1, 1, 1], [0, 0, 0])
    advantages, returns = ppo.gae(rollout, jnp.array([0.5]), gamma=0.9, lambda_=0.8)
    delta = 1 + 0.9 * 0.5 - 0.5
    expected = [delta + 0.72 * (delta + 0.72 * delta), delta + 0.72 * delta, delta]
    np.testing.assert_allclose(advantages[:, 0], expected, rtol=1e-6)
    np.testing.assert_allclose(returns[:, 0], np.array(expected) + 0.5, rtol=1e-6)


def test_gae_stops_at_termination_and_bootstraps_at_time_limits():
    # Row 1 ends the episode; row 2 is the automatic reset, holding V(last observation) = 2.
    terminated = _rollout([1, 1, 0], [0.5, 0.5, 2.0], [1, 0, 1], [0, 1, 0])
    advantages, _ = ppo.gae(terminated, jnp.array([0.0]), gamma=0.9, lambda_=0.8)
    np.testing.assert_allclose(advantages[:2, 0], [0.95 + 0.72 * 0.5, 0.5], rtol=1e-6)
    truncated = _rollout([1, 1, 0], [0.5, 0.5, 2.0], [1, 1, 1], [0, 1, 0])
    advantages, _ = ppo.gae(truncated, jnp.array([0.0]), gamma=0.9, lambda_=0.8)
    cut = 1 + 0.9 * 2.0 - 0.5
    np.testing.assert_allclose(advantages[:2, 0], [0.95 + 0.72 * cut, cut], rtol=1e-6)


def test_dppo_averages_the_workers_gradients():
    config = ppo.Config(hidden_sizes=(8,), num_workers=2)
    params = ppo.init_params(np.random.default_rng(0), config, observation_size=3, action_size=2)
    rng = np.random.default_rng(1)
    minibatches = {
        "observation": rng.normal(size=(2, 6, 3)).astype(np.float32),
        "action": rng.normal(size=(2, 6, 2)).astype(np.float32),
        "log_prob": rng.normal(size=(2, 6)).astype(np.float32),
        "advantage": rng.normal(size=(2, 6)).astype(np.float32),
        "return": rng.normal(size=(2, 6)).astype(np.float32),
        "valid": np.ones((2, 6), np.float32),
    }
    averaged, metrics = jax.jit(ppo.averaged_gradient, static_argnames="config")(
        params, minibatches, config=config
    )
    gradient = jax.jit(jax.grad(ppo.ppo_loss, has_aux=True), static_argnames="config")
    per_worker = [
        gradient(params, jax.tree.map(lambda a, w=w: a[w], minibatches), config=config)[0]
        for w in range(2)
    ]
    expected = jax.tree.map(lambda a, b: (a + b) / 2, *per_worker)
    for mine, theirs in zip(jax.tree.leaves(averaged), jax.tree.leaves(expected)):
        np.testing.assert_allclose(mine, theirs, rtol=1e-5, atol=1e-7)
    # Workers normalise advantages on their own data, so this is not the gradient
    # of one big minibatch: both halves matter separately.
    assert np.isfinite(float(metrics["policy_loss"]))


def test_config_and_agent_reject_inconsistent_sizes(double_integrator):
    env = double_integrator(0)
    with pytest.raises(ValueError, match="num_workers"):
        ppo.PPO(ppo.Config(num_workers=2), env.observation_spec(), env.action_spec(), 3, 0)
    with pytest.raises(ValueError, match="rollout_steps"):
        ppo.PPO(ppo.Config(rollout_steps=100), env.observation_spec(), env.action_spec(), 3, 0)
    with pytest.raises(ValueError, match="num_minibatches"):
        ppo.PPO(
            ppo.Config(rollout_steps=96, num_minibatches=64),
            env.observation_spec(),
            env.action_spec(),
            1,
            0,
        )
    with pytest.raises(ValueError, match="gae_lambda"):
        ppo.Config(gae_lambda=1.5)


@pytest.mark.parametrize("num_envs, num_workers", [(1, 1), (4, 2)])
def test_ppo_trains_single_and_batched(make_env, check_run, tmp_path, num_envs, num_workers):
    result = experiment.train(
        "ppo",
        make_env,
        num_steps=300,
        seed=0,
        out_dir=str(tmp_path),
        num_envs=num_envs,
        config_overrides={**TINY, "num_workers": num_workers},
        eval_every=1000,
        eval_episodes=1,
        progress=False,
    )
    assert result.env_steps >= 300
    assert result.agent.num_updates >= 4 * TINY["update_epochs"] * TINY["num_minibatches"]
    check_run(result, ppo.PPO.metric_names)


def test_ppo_resume_repeats_the_uninterrupted_run(double_integrator, assert_same_run, tmp_path):
    make_env = lambda seed: double_integrator(seed)
    settings = dict(
        seed=5, num_envs=1, config_overrides=TINY, eval_every=150, eval_episodes=1, progress=False
    )
    whole = experiment.train("ppo", make_env, 300, out_dir=str(tmp_path / "whole"), **settings)
    experiment.train("ppo", make_env, 150, out_dir=str(tmp_path / "split"), **settings)
    resumed = experiment.train(
        "ppo", make_env, 300, out_dir=str(tmp_path / "split"), resume=True, **settings
    )
    # 150 is not a rollout boundary: the partial rollout must survive the checkpoint.
    assert_same_run(whole, resumed)
