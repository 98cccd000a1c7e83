"""DPPO's parts against Heess et al. (2017), Appendix A, without Ray.

The chief's average of the workers' gradients, the penalty's adaptation with its
thresholds, the squared hinge beyond 2 KL_target, and a worker (run in process: a
`dppo.Worker` is a plain class that Ray wraps) with its per-batch advantage
normalisation and its early stop beyond 4 KL_target.
"""

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from agents import dppo, normalizer, ppo

ENV = "cartpole:balance"


def _params(config: dppo.Config, observation_size: int = 3, action_size: int = 2) -> dict:
    return ppo.init_params(np.random.default_rng(0), config.as_ppo(), observation_size, action_size)


def _batch(rng: np.random.Generator, size: int, params: dict) -> dict:
    observation = rng.normal(size=(size, 3)).astype(np.float32)
    action = rng.normal(size=(size, 2)).astype(np.float32)
    mean = np.asarray(ppo.policy_mean(params, observation))
    return {
        "observation": observation,
        "action": action,
        "log_prob": np.asarray(ppo.gaussian_log_prob(mean, params["log_std"], action)),
        "old_mean": mean,
        "old_log_std": np.asarray(params["log_std"]),
        "advantage": rng.normal(size=size).astype(np.float32),
        "return": rng.normal(size=size).astype(np.float32),
        "valid": np.ones(size, np.float32),
    }


def _moved(params: dict, scale: float) -> dict:
    """The parameters with every policy weight shifted, so that KL[old | new] > 0."""
    return {
        **params,
        "policy": jax.tree.map(lambda leaf: leaf + scale, params["policy"]),
        "log_std": params["log_std"] - scale,
    }


def test_the_average_is_the_mean_of_the_workers_gradients_and_of_the_union_batch():
    # Without the hinge the objective is a mean over samples, linear in the KL: the
    # average of the workers' gradients on equal batches is then the gradient on
    # their union, which is what averaging is for.
    config = dppo.Config(hidden_sizes=(8,), kl_hinge=0.0)
    params = _params(config)
    rng = np.random.default_rng(1)
    batches = [_batch(rng, 16, params) for _ in range(3)]
    theta = _moved(dppo._policy_params(params), 0.05)
    gradients = [
        jax.device_get(dppo._policy_gradient(theta, batch, jnp.float32(0.7), config)[0])
        for batch in batches
    ]
    averaged = dppo.average_gradients(gradients)
    for leaf, *worker_leaves in zip(
        jax.tree.leaves(averaged), *(jax.tree.leaves(g) for g in gradients)
    ):
        np.testing.assert_allclose(leaf, np.mean(worker_leaves, axis=0), rtol=1e-6)
    union = {
        name: np.concatenate([batch[name] for batch in batches])
        for name in batches[0]
        if name != "old_log_std"
    }
    union["old_log_std"] = batches[0]["old_log_std"]
    whole = jax.device_get(dppo._policy_gradient(theta, union, jnp.float32(0.7), config)[0])
    for leaf, whole_leaf in zip(jax.tree.leaves(averaged), jax.tree.leaves(whole)):
        np.testing.assert_allclose(leaf, whole_leaf, rtol=2e-4, atol=1e-6)
    with pytest.raises(ValueError, match="at least one"):
        dppo.average_gradients([])


@pytest.mark.parametrize(
    "kl, expected", [(0.021, 1.25), (0.004, 1 / 1.25), (0.019, 1.0), (0.006, 1.0)]
)
def test_the_penalty_rises_above_beta_high_and_falls_below_beta_low(kl, expected):
    # KL_target 0.01, beta_high 2, beta_low 0.5, alpha 1.5 shared by W = 2: alpha~ = 1.25.
    config = dppo.Config(kl_target=0.01, kl_alpha=1.5, kl_beta_high=2.0, kl_beta_low=0.5)
    assert dppo.adapt_penalty(1.0, [kl], config, num_workers=2) == pytest.approx(expected)


def test_the_hinge_acts_only_beyond_twice_the_target():
    config = dppo.Config(hidden_sizes=(8,), kl_target=0.01, kl_hinge=1000.0)
    no_hinge = dppo.Config(hidden_sizes=(8,), kl_target=0.01, kl_hinge=0.0)
    params = _params(config)
    batch = _batch(np.random.default_rng(2), 32, params)
    theta = dppo._policy_params(params)
    for scale, hinged in ((0.002, False), (0.2, True)):
        moved = _moved(theta, scale)
        loss, metrics = dppo.policy_objective(moved, batch, jnp.float32(1.0), config)
        plain, _ = dppo.policy_objective(moved, batch, jnp.float32(1.0), no_hinge)
        excess = max(0.0, float(metrics["kl"]) - 0.02)
        assert (excess > 0) == hinged
        assert float(loss - plain) == pytest.approx(1000.0 * excess**2, rel=1e-4, abs=1e-7)


@pytest.fixture
def worker():
    pytest.importorskip("suites.suite")
    config = dppo.Config(hidden_sizes=(8,), kl_target=0.01)
    worker = dppo.Worker(ENV, 2, config)
    params = _params(config, observation_size=5, action_size=1)
    statistics = normalizer.RunningMeanStd((5,)).state_dict()
    result = worker.collect(jax.device_get(params), statistics, 60, 3, 4)
    return worker, params, statistics, result


def test_a_worker_normalises_its_advantages_per_batch(worker):
    worker, _, _, result = worker
    assert result["steps"] >= 60
    batch = worker._batch
    valid = batch["valid"] > 0
    assert np.mean(batch["advantage"][valid]) == pytest.approx(0.0, abs=1e-5)
    assert np.std(batch["advantage"][valid]) == pytest.approx(1.0, rel=1e-4)


def test_a_worker_stops_sending_once_its_kl_exceeds_four_times_the_target(worker):
    worker, params, statistics, _ = worker
    near = worker.policy_gradient(jax.device_get(params), 1.0)
    assert near is not None and near["kl"] == pytest.approx(0.0, abs=1e-6)
    far = _moved(params, 0.3)
    assert worker.kl(jax.device_get(far)) > 4 * 0.01
    assert worker.policy_gradient(jax.device_get(far), 1.0) is None
    # Stopped for the rest of the iteration, even back at the old parameters ...
    assert worker.policy_gradient(jax.device_get(params), 1.0) is None
    # ... but its value steps go on, and the next collection starts afresh.
    assert worker.value_gradient(jax.device_get(params)) is not None
    worker.collect(jax.device_get(params), statistics, 20, 3, 4)
    assert worker.policy_gradient(jax.device_get(params), 1.0) is not None
