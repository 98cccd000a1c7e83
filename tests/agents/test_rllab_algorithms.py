"""Known-answer tests of the rllab algorithms (agents/policy_search.py and one file each).

Fast tests run on synthetic batches and on `DoubleIntegrator` (conftest.py) behind
`agents.vector.LoopedBatch`; the slow tests check that every algorithm improves
on the Control Suite's cart-pole balance.
"""

import dm_env
import jax
import jax.numpy as jnp
import numpy as np
import pytest
import scipy.optimize
from dm_env import specs as dm_specs

from agents import (
    cem,
    cmaes,
    ddpg,
    policy_search,
    reinforce,
    replay,
    reps,
    rwr,
    tnpg,
    trpo,
    vector,
)

from .conftest import DoubleIntegrator


def _batch(rng, num_samples=256, observation_size=3, action_size=2, length=300):
    observations = rng.standard_normal((num_samples, observation_size)).astype(np.float32)
    actions = rng.standard_normal((num_samples, action_size)).astype(np.float32)
    advantages = rng.standard_normal(num_samples).astype(np.float32)
    return policy_search.Batch(
        observations=jnp.asarray(policy_search.pad(observations, length)),
        actions=jnp.asarray(policy_search.pad(actions, length)),
        returns=jnp.asarray(policy_search.pad(advantages, length)),
        advantages=jnp.asarray(policy_search.pad(advantages, length)),
        mask=jnp.asarray(policy_search.pad(np.ones(num_samples, np.float32), length)),
    )


def _integrators(num_envs, time_limit=20):
    return vector.LoopedBatch(
        [lambda seed=seed: DoubleIntegrator(seed, time_limit) for seed in range(num_envs)]
    )


# ------------------------------------------------------------------ policy_search core


def test_discounted_returns_known_answer():
    rewards = np.array([[1.0, 1.0, 1.0, 5.0]])
    valid = np.array([[True, True, True, False]])
    np.testing.assert_allclose(
        policy_search.discounted_returns(rewards, valid, 0.5), [[1.75, 1.5, 1.0, 0.0]]
    )


def test_baseline_features_and_least_squares_fit():
    rng = np.random.default_rng(0)
    observations = rng.uniform(-2, 2, (6, 30, 3))
    features = policy_search.baseline_features(observations)
    assert features.shape == (6, 30, 2 * 3 + 4)
    np.testing.assert_allclose(
        features[:, 7, 6:], np.broadcast_to([0.07, 0.07**2, 0.07**3, 1.0], (6, 4))
    )
    np.testing.assert_allclose(features[..., 3:6], observations**2)
    truth = rng.standard_normal(features.shape[-1])
    valid = np.ones((6, 30), bool)
    valid[2, 20:] = False
    returns = features @ truth
    returns[~valid] = 1e6  # padding must not enter the fit
    coefficients = policy_search.fit_baseline(observations, returns, valid)
    # The 1e-5 ridge term pulls the poorly conditioned time-polynomial coefficients slightly.
    np.testing.assert_allclose(coefficients, truth, atol=5e-3)
    np.testing.assert_allclose(
        policy_search.predict_baseline(coefficients, observations)[valid],
        (features @ truth)[valid],
        atol=1e-4,
    )
    assert not policy_search.predict_baseline(None, observations).any()


def test_sampling_rejects_bad_values():
    with pytest.raises(ValueError, match="num_envs"):
        policy_search.Sampling(num_envs=0)
    with pytest.raises(ValueError, match="horizon"):
        policy_search.Sampling(horizon=2.5)


class _Scripted(dm_env.Environment):
    """Episode k lasts lengths[k] steps (then a termination); observes (episode k,
    step t) (or only t with `observe_episode=False`); the reward of a step is its
    clipped action."""

    def __init__(self, lengths, observe_episode=True):
        self._lengths = list(lengths)
        self._observe_episode = observe_episode
        self._episode, self._t = -1, 0

    def _observation(self):
        values = [self._episode, self._t] if self._observe_episode else [self._t]
        return {"state": np.array(values, np.float64)}

    def reset(self):
        self._episode, self._t = self._episode + 1, 0
        return dm_env.restart(self._observation())

    def step(self, action):
        self._t += 1
        reward = float(np.clip(np.asarray(action).reshape(-1)[0], -1.0, 1.0))
        if self._t >= self._lengths[self._episode]:
            return dm_env.termination(reward, self._observation())
        return dm_env.transition(reward, self._observation())

    def observation_spec(self):
        size = 2 if self._observe_episode else 1
        return {"state": dm_specs.Array((size,), np.float64, "state")}

    def action_spec(self):
        return dm_specs.BoundedArray((1,), np.float64, -1.0, 1.0, "action")


def _scripted(*lengths_per_copy, observe_episode=True):
    return vector.LoopedBatch(
        [
            lambda lengths=lengths: _Scripted(lengths, observe_episode)
            for lengths in lengths_per_copy
        ]
    )


def test_collect_samples_each_copy_on_its_own_and_finishes_started_episodes():
    # Copy 0's episodes last 3 steps, copy 1's 10. Copy 0 starts a second episode
    # (after 7 steps are recorded) while copy 1 is still in its first; after that
    # episode 14 >= 12 steps are recorded, so copy 0 stops, and copy 1's episode,
    # in progress, runs to its end: 3 + 10 + 3 steps, in the order they started.
    env = _scripted([3] * 10, [10] * 10)
    sampling = policy_search.Sampling(steps_per_iteration=12, horizon=50, num_envs=2)
    paths = policy_search.collect(env, lambda o, e: np.zeros((2, 1)), sampling)
    np.testing.assert_array_equal(paths.valid.sum(axis=1), [3, 10, 3])
    # Rows: copy 0's first episode, copy 1's first, copy 0's second, each from its start.
    np.testing.assert_array_equal(paths.observations[:, 0], [[0, 0], [0, 0], [1, 0]])
    np.testing.assert_array_equal(paths.observations[2, :3, 1], [0, 1, 2])
    assert sampling.steps_per_iteration <= paths.valid.sum() <= sampling.max_samples


def test_collect_cuts_episodes_at_the_horizon_and_skips_the_rest_of_them():
    # Episodes of 10 steps (copy 0) and 6 steps (copy 1), horizon 4: each trajectory
    # is an episode's first 4 steps. Copy 0 steps out its cut episode unrecorded
    # while copy 1 records its second; then nothing is recorded and the batch is
    # reset rather than stepped to copy 0's episode end.
    env = _scripted([10] * 5, [2, 6, 6, 6])
    steps = []

    def act(observations, episodes):
        steps.append(episodes.copy())
        return np.zeros((2, 1))

    sampling = policy_search.Sampling(steps_per_iteration=12, horizon=4, num_envs=2)
    paths = policy_search.collect(env, act, sampling)
    np.testing.assert_array_equal(paths.valid.sum(axis=1), [4, 2, 4, 4, 4])
    # (episode of its copy, step) at each trajectory's start: copy 0's first, copy
    # 1's first and second, then after the batch reset each copy's next episode.
    np.testing.assert_array_equal(
        paths.observations[:, 0], [[0, 0], [0, 0], [1, 0], [1, 0], [2, 0]]
    )
    np.testing.assert_array_equal(paths.observations[0, :, 1], [0, 1, 2, 3])
    # The episode each copy recorded at each step (-1: none): copy 1's reset step,
    # copy 0 stepping out its cut episode, then the reset (9 < 12 steps recorded).
    np.testing.assert_array_equal(
        np.stack(steps),
        [[0, 1], [0, 1], [0, -1], [0, 2], [-1, 2], [-1, 2], [-1, 2]] + [[3, 4]] * 4,
    )


def test_actor_is_told_which_episode_each_copy_records():
    env = _scripted([2] * 5, [5] * 5)
    seen = []

    def act(observations, episodes):
        seen.append(episodes.copy())
        return np.zeros((2, 1))

    policy_search.collect(
        env, act, policy_search.Sampling(steps_per_iteration=6, horizon=10, num_envs=2)
    )
    # Copy 0: episode 0 (2 steps), its reset step (-1, action ignored), episode 2
    # (started with 5 < 6 steps recorded); copy 1: episode 1 for its 5 steps.
    np.testing.assert_array_equal(np.stack(seen), [[0, 1], [0, 1], [-1, 1], [2, 1], [2, 1]])


def test_population_candidates_get_one_whole_episode_each_in_order():
    # 5 candidates on 2 copies; candidate k's return is its own, whichever copy ran it.
    env = _scripted([4, 2, 3, 4, 2], [2, 4, 3, 2, 4], observe_episode=False)
    sampling = policy_search.Sampling(steps_per_iteration=8, horizon=4, num_envs=2)
    params = policy_search.init_policy(np.random.default_rng(0), 1, 1, hidden_sizes=(3,))
    flat, unflatten = policy_search.flat(params["mean"])
    population = np.asarray(flat)[None] + np.random.default_rng(1).normal(0.0, 1.0, (5, flat.size))
    returns, paths = policy_search.evaluate_population(env, population, unflatten, sampling)
    assert returns.shape == (5,) and paths.valid.shape == (5, 4)
    lengths = paths.valid.sum(axis=1)
    for k in range(5):
        mean = policy_search.policy_mean(
            {"mean": unflatten(jnp.asarray(population[k], jnp.float32))},
            jnp.arange(lengths[k], dtype=jnp.float32)[:, None],
        )
        np.testing.assert_allclose(
            returns[k], np.clip(np.asarray(mean)[:, 0], -1, 1).sum(), rtol=1e-5
        )
    # Copy 1 runs candidate 1 (2 steps), then 2 (4 steps); copy 0 runs candidate 0
    # (4 steps), then 3 (2 steps), then, free at the same step as copy 1 but first
    # in copy order, candidate 4 (3 steps): the lengths follow who ran which.
    np.testing.assert_array_equal(lengths, [4, 2, 4, 2, 3])


def test_collect_on_a_vectorised_rllab_batch_is_deterministic():
    from suites import rllab  # pylint: disable=import-outside-toplevel

    def run():
        env = rllab.load_batch("cartpole_balancing", 4, seed=2, horizon=30)
        assert env.vectorized
        params = policy_search.init_policy(np.random.default_rng(0), 4, 1)
        sampling = policy_search.Sampling(steps_per_iteration=150, horizon=30, num_envs=4)
        return policy_search.collect(
            env, policy_search.gaussian_actor(params, jax.random.key(5)), sampling
        )

    first, second = run(), run()
    for a, b in zip(first, second):
        np.testing.assert_array_equal(a, b)
    # Balancing episodes end at a termination or at the horizon, never in between.
    lengths = first.valid.sum(axis=1)
    assert np.all(first.valid[np.arange(len(lengths)), lengths - 1])
    assert first.valid.sum() >= 150


def test_collect_masks_ended_episodes_and_reaches_the_budget():
    env = _integrators(3, time_limit=7)
    sampling = policy_search.Sampling(steps_per_iteration=40, horizon=10, num_envs=3)
    params = policy_search.init_policy(np.random.default_rng(0), 2, 1)
    paths = policy_search.collect(
        env, policy_search.gaussian_actor(params, jax.random.key(0)), sampling
    )
    # Episodes end after 7 steps (or earlier, out of bounds): rounds of 3 until >= 40 steps.
    assert paths.valid.sum() >= 40
    assert paths.valid[:, 7:].sum() == 0
    assert paths.observations.shape[1:] == (10, 2)
    with pytest.raises(ValueError, match="copies"):
        policy_search.collect(
            env,
            lambda o, t: np.zeros((3, 1)),
            policy_search.Sampling(steps_per_iteration=10, horizon=5, num_envs=2),
        )


def test_same_seed_same_run():
    sampling = policy_search.Sampling(steps_per_iteration=60, horizon=15, num_envs=2)
    runs = [
        reinforce.train(_integrators(2), sampling=sampling, num_iterations=2, seed=3)
        for _ in range(2)
    ]
    for first, second in zip(jax.tree.leaves(runs[0][0]), jax.tree.leaves(runs[1][0])):
        np.testing.assert_array_equal(np.asarray(first), np.asarray(second))
    assert [log.average_return for log in runs[0][1]] == [log.average_return for log in runs[1][1]]


# --------------------------------------------------------------------------- REINFORCE


def test_reinforce_gradient_on_a_one_step_bandit():
    """r(a) = -(a - 2)^2 with a ~ N(mu, sigma): d/dmu E r = -2 (mu - 2), d/dlog sigma = -2 sigma^2."""
    rng = np.random.default_rng(0)
    params = policy_search.init_policy(rng, 1, 1, hidden_sizes=(4,))
    observations = np.zeros((200_000, 1), np.float32)
    mu = float(policy_search.policy_mean(params, jnp.asarray(observations[:1]))[0, 0])
    actions = (mu + rng.standard_normal((200_000, 1))).astype(np.float32)
    rewards = -((actions[:, 0] - 2.0) ** 2)
    batch = policy_search.Batch(
        jnp.asarray(observations),
        jnp.asarray(actions),
        jnp.asarray(rewards),
        jnp.asarray(rewards),
        jnp.ones(200_000, jnp.float32),
    )
    gradient = reinforce.policy_gradient(params, batch, batch.advantages)
    # The output bias moves the mean one for one.
    np.testing.assert_allclose(float(gradient["mean"][-1]["b"][0]), -2 * (mu - 2), rtol=0.05)
    np.testing.assert_allclose(float(gradient["log_std"][0]), -2.0, rtol=0.05)


# ------------------------------------------------------------------------- TNPG, TRPO


def test_tnpg_direction_is_the_inverse_fisher_times_the_gradient():
    rng = np.random.default_rng(1)
    params = policy_search.init_policy(rng, 2, 1, hidden_sizes=(3,))
    batch = _batch(rng, observation_size=2, action_size=1)
    gradient = reinforce.policy_gradient(params, batch, batch.advantages)
    damping = 1e-2
    flat_params, unflatten = policy_search.flat(params)
    fisher = jax.hessian(lambda flat: tnpg.mean_kl(params, unflatten(flat), batch))(flat_params)
    flat_gradient, _ = policy_search.flat(gradient)
    expected = np.linalg.solve(
        np.asarray(fisher, np.float64) + damping * np.eye(fisher.shape[0]),
        np.asarray(flat_gradient, np.float64),
    )
    direction, _ = tnpg.natural_direction(
        params, batch, gradient, cg_iterations=200, damping=damping
    )
    np.testing.assert_allclose(
        np.asarray(direction), expected, rtol=2e-3, atol=2e-4 * np.abs(expected).max()
    )


def test_tnpg_step_meets_the_quadratic_kl_model():
    rng = np.random.default_rng(2)
    params = policy_search.init_policy(rng, 3, 2, hidden_sizes=(8,))
    batch = _batch(rng)
    config = tnpg.Config(step_size=1e-5)
    step, _, _ = tnpg.natural_step(params, batch, config)
    curvature = step @ tnpg.fisher_vector_product(params, batch, config.cg_damping)(step)
    np.testing.assert_allclose(float(curvature) / 2, 1e-5, rtol=1e-4)
    # For a small step the true KL is close to its quadratic model (the cubic term
    # shrinks with the step's length, sqrt(delta_KL)).
    _, kl = tnpg._update(params, batch, config)
    np.testing.assert_allclose(float(kl), 1e-5, rtol=0.15)


def test_trpo_step_respects_the_kl_bound_and_improves_the_surrogate():
    step_size = 5e-2
    rng = np.random.default_rng(3)
    params = policy_search.init_policy(rng, 3, 2, hidden_sizes=(16, 8))
    batch = _batch(rng)
    new_params, metrics = trpo.update(params, batch, trpo.Config(step_size=step_size))
    assert 0 < float(metrics["kl"]) <= step_size
    assert float(metrics["surrogate_improvement"]) > 0
    kl = tnpg.mean_kl(params, new_params, batch)
    np.testing.assert_allclose(float(kl), float(metrics["kl"]), rtol=1e-4)


def test_configs_reject_bad_values():
    with pytest.raises(ValueError, match="step_size"):
        trpo.Config(step_size=0.0)
    with pytest.raises(ValueError, match="backtrack_ratio"):
        trpo.Config(backtrack_ratio=1.5)
    with pytest.raises(ValueError, match="learning_rate"):
        reinforce.Config(learning_rate=-1.0)
    with pytest.raises(ValueError, match="elite_fraction"):
        cem.Config(elite_fraction=0.0)
    with pytest.raises(ValueError, match="init_std"):
        cmaes.Config(init_std=0.0)
    with pytest.raises(ValueError, match="target_update"):
        ddpg.Config(target_update="periodic")
    with pytest.raises(ValueError, match="step_size"):
        reps.Config(step_size=-1.0)


def test_presets_are_the_papers_tables():
    assert reinforce.PRESETS["swimmer"] == {"learning_rate": 1e-2}  # Table 3
    assert tnpg.PRESETS["ant"] == {"step_size": 3e-1}  # Table 4
    assert trpo.PRESETS["double_pendulum_balancing"] == {"step_size": 1e-3}  # Table 5
    assert reps.PRESETS["double_pendulum_balancing"] == {"step_size": 8e-1}  # Table 6
    assert cem.PRESETS["cartpole_swing_up"] == {"extra_std": 1e-2}  # Table 7
    assert cmaes.PRESETS["cartpole_swing_up"] == {"init_std": 1e3}  # Table 8
    for module in (reinforce, tnpg, trpo, reps, cem, cmaes):
        for overrides in module.PRESETS.values():
            module.Config(**overrides)


# --------------------------------------------------------------------------- RWR, REPS


def test_weighted_regression_fits_the_weighted_mean_and_std():
    """With one observation the weighted maximum-likelihood Gaussian is the weighted moments."""
    rng = np.random.default_rng(5)
    params = policy_search.init_policy(rng, 2, 1, hidden_sizes=(8,))
    observations = jnp.ones((500, 2), jnp.float32)
    actions = rng.normal(0.7, 0.4, (500, 1)).astype(np.float32)
    weights = rng.uniform(0, 1, 500).astype(np.float32)
    fitted = policy_search.weighted_max_likelihood(
        params, observations, jnp.asarray(actions), jnp.asarray(weights), iterations=100
    )
    mean = np.sum(weights * actions[:, 0]) / weights.sum()
    std = np.sqrt(np.sum(weights * (actions[:, 0] - mean) ** 2) / weights.sum())
    np.testing.assert_allclose(
        float(policy_search.policy_mean(fitted, observations[:1])[0, 0]), mean, atol=1e-3
    )
    np.testing.assert_allclose(float(np.exp(fitted["log_std"][0])), std, rtol=1e-3)
    with pytest.raises(ValueError, match="non-negative"):
        policy_search.weighted_max_likelihood(
            params, observations, jnp.asarray(actions), -jnp.asarray(weights), iterations=1
        )


def test_rwr_weights_shift_advantages_to_their_minimum():
    rng = np.random.default_rng(6)
    batch = _batch(rng, num_samples=10, length=15)
    weights = np.asarray(rwr.weights(batch))
    advantages = np.asarray(batch.advantages)[:10]
    np.testing.assert_allclose(weights[:10], advantages - advantages.min(), rtol=1e-6)
    assert not weights[10:].any()


def test_reps_dual_minimiser_meets_the_kl_bound_and_matches_features():
    rng = np.random.default_rng(7)
    rewards = rng.standard_normal(400)
    differences = rng.standard_normal((400, 3))
    initial = -differences.mean(axis=0) + 0.05
    value, grad = reps.dual(1.3, np.array([0.1, -0.2, 0.3]), rewards, differences, 0.1, initial)
    error = scipy.optimize.check_grad(
        lambda x: reps.dual(x[0], x[1:], rewards, differences, 0.1, initial)[0],
        lambda x: reps.dual(x[0], x[1:], rewards, differences, 0.1, initial)[1],
        np.array([1.3, 0.1, -0.2, 0.3]),
    )
    assert error < 1e-5 * (1 + np.abs(grad).max())
    del value
    eta, nu = reps.solve_dual(rewards, differences, 0.1, iterations=500, initial_features=initial)
    weights = reps.sample_weights(rewards, differences, eta, nu)
    # d g / d eta = 0: the normalised weights are exactly delta_KL away from uniform.
    np.testing.assert_allclose(np.sum(weights * np.log(weights * weights.size)), 0.1, rtol=1e-3)
    # d g / d nu = 0: the weighted features match.
    np.testing.assert_allclose(initial + weights @ differences, 0.0, atol=1e-4)


def test_reps_transitions_telescope_to_the_initial_features():
    rng = np.random.default_rng(8)
    valid = np.ones((2, 5), bool)
    valid[1, 3:] = False
    paths = policy_search.Paths(
        rng.standard_normal((2, 5, 2)).astype(np.float32),
        np.zeros((2, 5, 1), np.float32),
        rng.standard_normal((2, 5)).astype(np.float32),
        valid,
    )
    rewards, differences, initial = reps.transitions(paths)
    assert rewards.shape == (8,) and differences.shape == (8, 2 * 2 + 4)
    features = policy_search.baseline_features(paths.observations)
    np.testing.assert_allclose(differences.sum(axis=0), -features[:, 0].sum(axis=0), atol=1e-5)
    np.testing.assert_allclose(initial, features[:, 0].sum(axis=0) / 8, rtol=1e-6)


# ----------------------------------------------------------------------- CEM, CMA-ES


def _quadratic(x):
    return float(np.sum((x - np.array([1.0, -2.0, 0.5])) ** 2))


def test_cem_minimises_a_quadratic():
    config = cem.Config(extra_std=0.1, extra_decay_iterations=40, elite_fraction=0.2)
    x = cem.minimize(_quadratic, np.zeros(3), config, num_samples=100, num_iterations=80, seed=0)
    np.testing.assert_allclose(x, [1.0, -2.0, 0.5], atol=1e-3)


def test_cem_update_refits_the_elite_with_decaying_extra_noise():
    samples = np.array([[0.0], [1.0], [2.0], [3.0]])
    scores = np.array([0.0, 3.0, 1.0, 2.0])
    config = cem.Config(elite_fraction=0.5, extra_std=0.3, extra_decay_iterations=10)
    mean, std = cem.update(np.zeros(1), np.ones(1), samples, scores, iteration=5, config=config)
    # Elite: samples 1 and 3 -> mean 2, variance 1, plus 0.3^2 * (1 - 5/10).
    np.testing.assert_allclose(mean, [2.0])
    np.testing.assert_allclose(std, [np.sqrt(1.0 + 0.09 * 0.5)])


def test_cmaes_minimises_a_quadratic():
    x = cmaes.minimize(
        _quadratic, np.zeros(3), cmaes.Config(init_std=1.0), num_iterations=150, seed=0
    )
    np.testing.assert_allclose(x, [1.0, -2.0, 0.5], atol=1e-4)


def test_parameter_search_runs_on_a_batch():
    sampling = policy_search.Sampling(steps_per_iteration=60, horizon=15, num_envs=2)
    for module in (cem, cmaes):
        _, logs = module.train(
            _integrators(2), module.Config(), sampling=sampling, num_iterations=1, seed=0
        )
        assert logs[0].num_trajectories == policy_search.population_size(sampling) == 4


# ------------------------------------------------------------------------------ DDPG


def test_ddpg_update_shapes_and_soft_target_update():
    rng = np.random.default_rng(9)
    config = ddpg.Config(hidden_sizes=(16, 8), target_update_rate=0.1)
    state = ddpg.init_learner(rng, config, 3, 2)
    assert state.critic["joint"][0]["w"].shape == (16 + 2, 8)
    batch = replay.Transitions(
        observation=rng.standard_normal((5, 3)).astype(np.float32),
        action=rng.uniform(-1, 1, (5, 2)).astype(np.float32),
        reward=rng.standard_normal(5).astype(np.float32),
        discount=np.full(5, 0.99, np.float32),
        next_observation=rng.standard_normal((5, 3)).astype(np.float32),
    )
    new_state, metrics = ddpg.update(state, batch, config)
    assert set(metrics) == {"critic_loss", "q_mean"}
    assert ddpg.critic_apply(new_state.critic, batch.observation, batch.action).shape == (5,)
    for old, new in zip(jax.tree.leaves(state), jax.tree.leaves(new_state)):
        assert np.shape(old) == np.shape(new)
    for target, old, online in zip(
        jax.tree.leaves(new_state.target_critic),
        jax.tree.leaves(state.target_critic),
        jax.tree.leaves(new_state.critic),
    ):
        np.testing.assert_allclose(target, 0.9 * old + 0.1 * online, rtol=1e-5, atol=1e-7)
    assert not np.allclose(new_state.actor[0]["w"], state.actor[0]["w"])


def test_ddpg_runs_on_a_batch():
    sampling = policy_search.Sampling(steps_per_iteration=40, horizon=10, num_envs=2)
    _, logs = ddpg.train(
        _integrators(2),
        ddpg.Config(hidden_sizes=(8, 8), min_replay_size=10),
        sampling=sampling,
        num_iterations=2,
        seed=0,
    )
    assert [log.env_steps >= 40 for log in logs] == [True, True]
    assert "critic_loss" in logs[1].metrics


# --------------------------------------------------------------- learning (slow)


def _cartpole(num_envs):
    suite = pytest.importorskip("suites.suite")
    return suite.load_batch("cartpole", "balance", num_envs, seed=0)


LEARNING = {
    "reinforce": (reinforce, reinforce.Config(learning_rate=1e-2)),
    "tnpg": (tnpg, tnpg.Config(step_size=5e-2)),
    "trpo": (trpo, trpo.Config(step_size=5e-2)),
    "rwr": (rwr, rwr.Config()),
    "reps": (reps, reps.Config(step_size=0.5)),
    "cem": (cem, cem.Config(extra_std=0.1, elite_fraction=0.2)),
    "cmaes": (cmaes, cmaes.Config(init_std=0.3)),
    # tau = 0.01 instead of 0.001: the targets must move within this test's 16,000 steps.
    "ddpg": (
        ddpg,
        ddpg.Config(min_replay_size=500, hidden_sizes=(64, 64), target_update_rate=0.01),
    ),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(LEARNING))
def test_improves_on_cartpole_balance(name):
    module, config = LEARNING[name]
    sampling = policy_search.Sampling(steps_per_iteration=2000, horizon=100, num_envs=10)
    _, logs = module.train(_cartpole(10), config, sampling=sampling, num_iterations=8, seed=0)
    returns = [log.average_return for log in logs]
    assert max(returns[-3:]) > returns[0] + 5.0, returns
