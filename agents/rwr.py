"""Reward-Weighted Regression (RWR) as rllab benchmarks it, in one file.

Peters and Schaal 2007; Kober and Peters 2009; Duan et al., ICML 2016, section
4.1. Policy search as expectation-maximisation: each iteration maximises the
lower bound

    L(theta) = 1/(N T) sum_i sum_t log pi(a_t^i | s_t^i; theta) rho(R_t^i - b_t^i),

a weighted maximum-likelihood regression of the sampled actions, with
rho(x) = x - min x (Deisenroth et al. 2013; the minimum over the iteration's
samples) turning advantages into non-negative weights. There is no step size;
the M-step runs `lbfgs_iterations` L-BFGS steps (rllab fits with L-BFGS too).
"""

import dataclasses

import jax.numpy as jnp

from agents import policy_search


@dataclasses.dataclass(frozen=True)
class Config:
    """RWR settings.

    lbfgs_iterations: L-BFGS steps of each weighted regression (rllab's
      LbfgsOptimizer default, 20).
    discount: gamma (Table 2).
    """

    lbfgs_iterations: int = 20
    discount: float = 0.99

    def __post_init__(self):
        if self.lbfgs_iterations < 1:
            raise ValueError(f"lbfgs_iterations is {self.lbfgs_iterations}; expected >= 1.")
        if not 0 < self.discount <= 1:
            raise ValueError(f"discount is {self.discount}; expected in (0, 1].")


PRESETS: dict[str, dict] = {}  # the paper tunes no RWR parameter.


def weights(batch: policy_search.Batch):
    """rho(R - b) = (R - b) - min over real steps of (R - b); 0 on padding."""
    advantages = jnp.where(batch.mask > 0, batch.advantages, jnp.inf)
    return (batch.advantages - jnp.min(advantages)) * batch.mask


def update(params: dict, batch: policy_search.Batch, config: Config) -> tuple[dict, dict]:
    """The M-step: the weighted regression of the batch's actions."""
    w = weights(batch)
    if not float(jnp.sum(w)) > 0:
        # Every advantage equal: the bound is flat in the weights; keep the policy.
        return params, {"weight_sum": 0.0}
    new_params = policy_search.weighted_max_likelihood(
        params, batch.observations, batch.actions, w, config.lbfgs_iterations
    )
    return new_params, {"weight_sum": jnp.sum(w)}


def train(
    env,
    config: Config | None = None,
    sampling: policy_search.Sampling | None = None,
    num_iterations: int = 500,
    seed: int = 0,
    on_iteration=None,
) -> tuple[dict, list[policy_search.Iteration]]:
    """Runs RWR on a batched environment; returns final parameters and iteration logs."""
    config = Config() if config is None else config
    sampling = policy_search.Sampling() if sampling is None else sampling

    def step(params, batch, paths, rng):
        return update(params, batch, config)

    return policy_search.train_stochastic_policy(
        env, sampling, num_iterations, seed, config.discount, step, on_iteration
    )
