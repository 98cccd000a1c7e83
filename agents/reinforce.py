"""REINFORCE (Williams 1992) as rllab benchmarks it, in one file.

Duan et al., "Benchmarking Deep Reinforcement Learning for Continuous Control",
ICML 2016, section 4.1. The gradient of the expected return is estimated with
the likelihood-ratio trick,

    g = 1/(N T) sum_i sum_t grad_theta log pi(a_t^i | s_t^i; theta) (R_t^i - b_t^i),

with discounted returns R and the linear time-varying baseline b
(agents/policy_search.py), and an ascent step is taken along g. rllab's VPG
takes that step with Adam; so does this file, with the learning rate of the
paper's Table 3. Advantages are centred and scaled (rllab's center_adv).
"""

import dataclasses
import functools

import jax
import jax.numpy as jnp
import optax

from agents import policy_search

# Table 3 of the supplement: best learning rate per task (search range [1e-4, 1e-1]).
PRESETS = {
    "cartpole_swing_up": {"learning_rate": 5e-3},
    "double_pendulum_balancing": {"learning_rate": 5e-3},
    "swimmer": {"learning_rate": 1e-2},
    "ant": {"learning_rate": 5e-3},
}


@dataclasses.dataclass(frozen=True)
class Config:
    """REINFORCE settings.

    learning_rate: Adam step size alpha (Table 3; 5e-3 is the best on both basic
      tasks searched, cart-pole swing-up and the double inverted pendulum).
    discount: gamma (Table 2).
    """

    learning_rate: float = 5e-3
    discount: float = 0.99

    def __post_init__(self):
        if not self.learning_rate > 0:
            raise ValueError(f"learning_rate is {self.learning_rate}; expected > 0.")
        if not 0 < self.discount <= 1:
            raise ValueError(f"discount is {self.discount}; expected in (0, 1].")


def surrogate(params: dict, batch: policy_search.Batch, advantages: jax.Array) -> jax.Array:
    """mean over real steps of log pi(a|s) A: its gradient is the estimator g."""
    log_probs = policy_search.log_prob(params, batch.observations, batch.actions)
    return policy_search.masked_mean(log_probs * advantages, batch.mask)


def policy_gradient(params: dict, batch: policy_search.Batch, advantages: jax.Array) -> dict:
    """The likelihood-ratio estimate g of grad_theta eta, a pytree like `params`."""
    return jax.grad(surrogate)(params, batch, advantages)


@functools.partial(jax.jit, static_argnames="learning_rate")
def _update(params: dict, optimizer_state, batch: policy_search.Batch, learning_rate: float):
    advantages = policy_search.normalized_advantages(batch)
    gradient = policy_gradient(params, batch, advantages)
    # optax minimises: ascend the return by descending -g.
    updates, optimizer_state = optax.adam(learning_rate).update(
        jax.tree.map(jnp.negative, gradient), optimizer_state
    )
    gradient_norm = optax.tree.norm(gradient)
    return optax.apply_updates(params, updates), optimizer_state, gradient_norm


def train(
    env,
    config: Config | None = None,
    sampling: policy_search.Sampling | None = None,
    num_iterations: int = 500,
    seed: int = 0,
    on_iteration=None,
) -> tuple[dict, list[policy_search.Iteration]]:
    """Runs REINFORCE on a batched environment; returns final parameters and iteration logs."""
    config = Config() if config is None else config
    sampling = policy_search.Sampling() if sampling is None else sampling
    optimizer = {"state": None}

    def update(params, batch, paths, rng):
        if optimizer["state"] is None:
            optimizer["state"] = optax.adam(config.learning_rate).init(params)
        params, optimizer["state"], gradient_norm = _update(
            params, optimizer["state"], batch, config.learning_rate
        )
        return params, {"gradient_norm": gradient_norm}

    return policy_search.train_stochastic_policy(
        env, sampling, num_iterations, seed, config.discount, update, on_iteration
    )
