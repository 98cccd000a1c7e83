"""The cross-entropy method (CEM) as rllab benchmarks it, in one file.

Rubinstein 1999; Szita and Lorincz 2006 ("noisy CEM"); Duan et al., ICML 2016,
section 4.1. CEM searches the parameters of the policy's mean network directly:
each iteration draws N perturbations theta_i ~ N(mu_k, diag(sigma_k^2)), runs one
trajectory with each (acting with the network's output, see
`policy_search.evaluate_population`), and refits mu and the diagonal covariance
to the parameters of the top `elite_fraction` returns. Following Szita and
Lorincz, extra noise is added to the refitted variance so that it does not
collapse early: sigma^2 += extra_std^2 max(1 - k / extra_decay_iterations, 0);
Table 7 tunes extra_std ("initial extra noise").
"""

import dataclasses
import time

import jax.numpy as jnp
import numpy as np

from agents import policy_search

# Table 7 of the supplement: best initial extra noise per task (range [1e-3, 1]).
PRESETS = {
    "cartpole_swing_up": {"extra_std": 1e-2},
    "double_pendulum_balancing": {"extra_std": 1e-1},
    "swimmer": {"extra_std": 1e-1},
    "ant": {"extra_std": 1e-1},
}


@dataclasses.dataclass(frozen=True)
class Config:
    """CEM settings.

    extra_std: the initial extra noise (Table 7; 1e-2 is the best on cart-pole swing-up).
    extra_decay_iterations: iterations over which the extra noise decays to 0
      linearly (rllab: 100).
    init_std: sigma_0 of every parameter (rllab: 1).
    elite_fraction: q, the top quantile refitted (rllab: 0.05).
    """

    extra_std: float = 1e-2
    extra_decay_iterations: int = 100
    init_std: float = 1.0
    elite_fraction: float = 0.05

    def __post_init__(self):
        if self.extra_std < 0 or not self.init_std > 0:
            raise ValueError("extra_std must be >= 0 and init_std > 0.")
        if self.extra_decay_iterations < 1:
            raise ValueError(
                f"extra_decay_iterations is {self.extra_decay_iterations}; expected >= 1."
            )
        if not 0 < self.elite_fraction <= 1:
            raise ValueError(f"elite_fraction is {self.elite_fraction}; expected in (0, 1].")


def update(
    mean: np.ndarray,
    std: np.ndarray,
    samples: np.ndarray,
    scores: np.ndarray,
    iteration: int,
    config: Config,
) -> tuple[np.ndarray, np.ndarray]:
    """The refitted (mean, std) from samples (P, n) and their scores (P,), higher better."""
    num_elite = max(1, round(config.elite_fraction * samples.shape[0]))
    elite = samples[np.argsort(-scores, kind="stable")[:num_elite]]
    extra_variance = config.extra_std**2 * max(1.0 - iteration / config.extra_decay_iterations, 0.0)
    return elite.mean(axis=0), np.sqrt(elite.var(axis=0) + extra_variance)


def minimize(
    function, x0: np.ndarray, config: Config, num_samples: int, num_iterations: int, seed: int
) -> np.ndarray:
    """CEM on a function of a vector (lowest wins); for tests and other searches."""
    rng = np.random.default_rng(seed)
    mean, std = np.asarray(x0, np.float64), np.full(np.shape(x0), config.init_std)
    for iteration in range(num_iterations):
        samples = mean + std * rng.standard_normal((num_samples, mean.size))
        scores = -np.array([function(sample) for sample in samples])
        mean, std = update(mean, std, samples, scores, iteration, config)
    return mean


def train(
    env,
    config: Config | None = None,
    sampling: policy_search.Sampling | None = None,
    num_iterations: int = 500,
    seed: int = 0,
    on_iteration=None,
) -> tuple[dict, list[policy_search.Iteration]]:
    """Runs CEM on a batched environment; returns the final mean policy and iteration logs."""
    config = Config() if config is None else config
    sampling = policy_search.Sampling() if sampling is None else sampling
    if num_iterations < 1:
        raise ValueError(f"num_iterations is {num_iterations}; expected at least 1.")
    observation_size, action_size = policy_search.check_env(env, sampling)
    rng = np.random.default_rng(seed)
    params = policy_search.init_policy(rng, observation_size, action_size)
    mean, unflatten = policy_search.flat(params["mean"])
    mean = np.asarray(mean, np.float64)
    std = np.full(mean.shape, config.init_std)
    num_samples = policy_search.population_size(sampling)
    logs, start = [], time.time()
    for iteration in range(num_iterations):
        samples = mean + std * rng.standard_normal((num_samples, mean.size))
        returns, paths = policy_search.evaluate_population(env, samples, unflatten, sampling)
        mean, std = update(mean, std, samples, returns, iteration, config)
        logs.append(policy_search.log_iteration(iteration, paths, start, {"std_mean": std.mean()}))
        if on_iteration is not None:
            on_iteration(logs[-1])
    params = {"mean": unflatten(jnp.asarray(mean, jnp.float32)), "log_std": params["log_std"]}
    return params, logs
