"""Trust Region Policy Optimization (TRPO) as rllab benchmarks it, in one file.

Schulman, Levine, Moritz, Jordan and Abbeel, ICML 2015; Duan et al., ICML 2016,
section 4.1. Each iteration solves

    maximise_theta  E[pi_theta(a|s) / pi_old(a|s) A(s, a)]
    subject to      E[KL(pi_old(.|s) || pi_theta(.|s))] <= delta_KL

with A the discounted return minus the linear baseline. As the paper says, the
search direction is TNPG's (agents/tnpg.py: the natural gradient by conjugate
gradient, scaled to the KL bound of the quadratic model); TRPO adds a
backtracking line search on the real objective and constraint: the step is
shrunk by `backtrack_ratio` until the surrogate improves and the mean KL is at
most delta_KL, and no step is taken if `max_backtracks` shrinks do not get there.
"""

import dataclasses
import functools

import jax
import jax.numpy as jnp

from agents import policy_search, tnpg

# Table 5 of the supplement: best delta_KL per task (search range [1e-3, 5]).
PRESETS = {
    "cartpole_swing_up": {"step_size": 5e-2},
    "double_pendulum_balancing": {"step_size": 1e-3},
    "swimmer": {"step_size": 5e-2},
    "ant": {"step_size": 8e-2},
}


@dataclasses.dataclass(frozen=True)
class Config:
    """TRPO settings.

    step_size: delta_KL (Table 5; 5e-2 is the best on cart-pole swing-up).
    cg_iterations, cg_damping: as tnpg.Config (10 steps, damping 0.1).
    backtrack_ratio, max_backtracks: the line search shrinks the step by 0.8 up to
      15 times (rllab's ConjugateGradientOptimizer).
    discount: gamma (Table 2).
    """

    step_size: float = 5e-2
    cg_iterations: int = 10
    cg_damping: float = 0.1
    backtrack_ratio: float = 0.8
    max_backtracks: int = 15
    discount: float = 0.99

    def __post_init__(self):
        tnpg.Config(
            step_size=self.step_size,
            cg_iterations=self.cg_iterations,
            cg_damping=self.cg_damping,
            discount=self.discount,
        )
        if not 0 < self.backtrack_ratio < 1:
            raise ValueError(f"backtrack_ratio is {self.backtrack_ratio}; expected in (0, 1).")
        if self.max_backtracks < 1:
            raise ValueError(f"max_backtracks is {self.max_backtracks}; expected >= 1.")


def surrogate(
    params: dict, old_params: dict, batch: policy_search.Batch, advantages: jax.Array
) -> jax.Array:
    """Mean over real steps of pi_theta(a|s) / pi_old(a|s) A."""
    ratio = jnp.exp(
        policy_search.log_prob(params, batch.observations, batch.actions)
        - policy_search.log_prob(old_params, batch.observations, batch.actions)
    )
    return policy_search.masked_mean(ratio * advantages, batch.mask)


@functools.partial(jax.jit, static_argnames="config")
def update(params: dict, batch: policy_search.Batch, config: Config) -> tuple[dict, dict]:
    """One TRPO step: the natural step, then the backtracking line search."""
    full_step, _, advantages = tnpg.natural_step(params, batch, config)
    flat_params, unflatten = policy_search.flat(params)
    old_surrogate = surrogate(params, params, batch, advantages)
    fractions = config.backtrack_ratio ** jnp.arange(config.max_backtracks)

    def evaluate(fraction):
        candidate = unflatten(flat_params + fraction * full_step)
        return (
            surrogate(candidate, params, batch, advantages),
            tnpg.mean_kl(params, candidate, batch),
        )

    # Sequentially (lax.map), so memory stays that of one candidate.
    surrogates, kls = jax.lax.map(evaluate, fractions)
    acceptable = (surrogates > old_surrogate) & (kls <= config.step_size)
    # The largest acceptable step: fractions decrease, so the first acceptable one.
    first = jnp.argmax(acceptable)
    fraction = jnp.where(jnp.any(acceptable), fractions[first], 0.0)
    new_params = unflatten(flat_params + fraction * full_step)
    metrics = {
        "kl": tnpg.mean_kl(params, new_params, batch),
        "step_fraction": fraction,
        "surrogate_improvement": surrogate(new_params, params, batch, advantages) - old_surrogate,
    }
    return new_params, metrics


def train(
    env,
    config: Config | None = None,
    sampling: policy_search.Sampling | None = None,
    num_iterations: int = 500,
    seed: int = 0,
    on_iteration=None,
) -> tuple[dict, list[policy_search.Iteration]]:
    """Runs TRPO on a batched environment; returns final parameters and iteration logs."""
    config = Config() if config is None else config
    sampling = policy_search.Sampling() if sampling is None else sampling

    def step(params, batch, paths, rng):
        return update(params, batch, config)

    return policy_search.train_stochastic_policy(
        env, sampling, num_iterations, seed, config.discount, step, on_iteration
    )
