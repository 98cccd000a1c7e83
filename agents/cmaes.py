"""CMA-ES as rllab benchmarks it, in one file, on the `cma` package.

Hansen and Ostermeier, "Completely Derandomized Self-Adaptation in Evolution
Strategies", 2001; Duan et al., ICML 2016, section 4.1. Like CEM
(agents/cem.py), CMA-ES searches the parameters of the policy's mean network
directly, maximising the sampled return of one trajectory per candidate; unlike
CEM it adapts a full covariance matrix along evolution paths. The strategy
itself is Hansen's reference implementation, the `cma` package
(`cma.CMAEvolutionStrategy`, ask and tell); this file only connects it to the
rollouts. Table 8 tunes the initial standard deviation sigma_0.
"""

import dataclasses
import time

import cma
import jax.numpy as jnp
import numpy as np

from agents import policy_search

# Table 8 of the supplement: best initial standard deviation per task (range [1e-3, 1e3]).
PRESETS = {
    "cartpole_swing_up": {"init_std": 1e3},
    "double_pendulum_balancing": {"init_std": 3e-1},
    "swimmer": {"init_std": 1e-1},
    "ant": {"init_std": 1e-1},
}


@dataclasses.dataclass(frozen=True)
class Config:
    """CMA-ES settings.

    init_std: sigma_0 (Table 8). The default 3e-1 is the best on the double
      inverted pendulum; Table 8's 1e3 for cart-pole swing-up is in PRESETS.
    population_size: candidates per iteration; None uses one trajectory's worth of
      the iteration's simulation budget each (steps_per_iteration / horizon, 100 in
      the paper), as the other batch algorithms do.
    """

    init_std: float = 3e-1
    population_size: int | None = None

    def __post_init__(self):
        if not self.init_std > 0:
            raise ValueError(f"init_std is {self.init_std}; expected > 0.")
        if self.population_size is not None and self.population_size < 2:
            raise ValueError(f"population_size is {self.population_size}; expected >= 2.")


def strategy(
    x0: np.ndarray, init_std: float, population_size: int, seed: int
) -> cma.CMAEvolutionStrategy:
    """A `cma` strategy minimising from x0, quiet, seeded (cma seeds must be positive)."""
    return cma.CMAEvolutionStrategy(
        np.asarray(x0, np.float64),
        init_std,
        {
            "popsize": population_size,
            "seed": int(seed) + 1,
            "verbose": -9,
            "verb_log": 0,
            "verb_disp": 0,
            "tolfun": 0,
            "tolx": 0,
            "tolfunhist": 0,
        },
    )


def minimize(
    function, x0: np.ndarray, config: Config, num_iterations: int, seed: int
) -> np.ndarray:
    """CMA-ES on a function of a vector (lowest wins); for tests and other searches."""
    es = strategy(x0, config.init_std, config.population_size or 10, seed)
    for _ in range(num_iterations):
        candidates = es.ask()
        es.tell(candidates, [float(function(candidate)) for candidate in candidates])
    return np.asarray(es.result.xfavorite)


def train(
    env,
    config: Config | None = None,
    sampling: policy_search.Sampling | None = None,
    num_iterations: int = 500,
    seed: int = 0,
    on_iteration=None,
) -> tuple[dict, list[policy_search.Iteration]]:
    """Runs CMA-ES on a batched environment; returns the final mean policy and iteration logs."""
    config = Config() if config is None else config
    sampling = policy_search.Sampling() if sampling is None else sampling
    if num_iterations < 1:
        raise ValueError(f"num_iterations is {num_iterations}; expected at least 1.")
    observation_size, action_size = policy_search.check_env(env, sampling)
    params = policy_search.init_policy(np.random.default_rng(seed), observation_size, action_size)
    x0, unflatten = policy_search.flat(params["mean"])
    es = strategy(
        np.asarray(x0),
        config.init_std,
        config.population_size or policy_search.population_size(sampling),
        seed,
    )
    logs, start = [], time.time()
    for iteration in range(num_iterations):
        candidates = np.asarray(es.ask())
        returns, paths = policy_search.evaluate_population(env, candidates, unflatten, sampling)
        es.tell(list(candidates), list(-returns.astype(np.float64)))
        logs.append(policy_search.log_iteration(iteration, paths, start, {"sigma": es.sigma}))
        if on_iteration is not None:
            on_iteration(logs[-1])
    params = {
        "mean": unflatten(jnp.asarray(es.result.xfavorite, jnp.float32)),
        "log_std": params["log_std"],
    }
    return params, logs
