"""Relative Entropy Policy Search (REPS) as rllab benchmarks it, in one file.

Peters, Muelling and Altun, AAAI 2010; Duan et al., ICML 2016, section 4.1.
Each iteration takes the dataset D = {(s_i, a_i, r_i, s'_i)} of all M steps and

  1. minimises the dual
         g(eta, nu) = eta delta_KL + eta log(1/M sum_i exp(delta_i(nu) / eta)),  eta > 0,
     with the sample Bellman errors delta_i(nu) = r_i + nu^T (phi(s'_i) - phi(s_i)),
     phi the linear time-varying features of the baseline (agents/policy_search.py;
     phi(s') = 0 after a trajectory's last step, as rllab does). L-BFGS-B from
     scipy minimises it, with its closed-form gradient in float64;
  2. fits the policy by weighted maximum likelihood with weights
     exp(delta_i(nu*) / eta*) (L-BFGS, `policy_search.weighted_max_likelihood`).

At the optimum the normalised weights w have KL(w || uniform) = delta_KL (the
derivative in eta vanishes) and match the features, sum_i w_i (phi(s'_i) - phi(s_i)) = 0
(the derivative in nu): the unit tests check both. REPS uses no baseline.

One term is added to the paper's dual: nu^T (1/M) sum over trajectories of
phi(s_0), the initial-state term of REPS's feature-matching constraint for
episodes (the state distribution's features equal the initial ones plus those
flowing in). Without it the dual of episodic data is unbounded below: along each
trajectory the differences phi(s') - phi(s) telescope to -phi(s_0), and with
the time features some nu makes every Bellman error negative (e.g. a value
falling in t with a large constant), so minimising drives eta and nu to infinity
(as L-BFGS-B does on cart-pole data). With the term, g >= eta delta_KL + mean(r)
by Jensen's inequality.
"""

import dataclasses

import jax.numpy as jnp
import numpy as np
import scipy.optimize

from agents import policy_search

# Table 6 of the supplement: best delta_KL per task (search range [1e-3, 5]).
PRESETS = {
    "cartpole_swing_up": {"step_size": 1e-2},
    "double_pendulum_balancing": {"step_size": 8e-1},
    "swimmer": {"step_size": 3e-1},
    "ant": {"step_size": 8e-1},
}
# eta is kept above this so exp(delta / eta) stays finite in float64.
_MIN_ETA = 1e-6


@dataclasses.dataclass(frozen=True)
class Config:
    """REPS settings.

    step_size: delta_KL (Table 6; 1e-2 is the best on cart-pole swing-up).
    dual_iterations: L-BFGS-B iterations on the dual (rllab: 50).
    lbfgs_iterations: L-BFGS steps of the weighted policy regression (rllab: 50).
    discount: gamma (Table 2); REPS's dual uses the undiscounted Bellman error of
      the paper's formula, the discount only enters the logged returns.
    """

    step_size: float = 1e-2
    dual_iterations: int = 50
    lbfgs_iterations: int = 50
    discount: float = 0.99

    def __post_init__(self):
        if not self.step_size > 0:
            raise ValueError(f"step_size is {self.step_size}; expected delta_KL > 0.")
        if self.dual_iterations < 1 or self.lbfgs_iterations < 1:
            raise ValueError("dual_iterations and lbfgs_iterations must be >= 1.")


def dual(
    eta: float,
    nu: np.ndarray,
    rewards: np.ndarray,
    feature_differences: np.ndarray,
    step_size: float,
    initial_features: np.ndarray | None = None,
) -> tuple[float, np.ndarray]:
    """g(eta, nu) and its gradient in (eta, nu), in float64.

    rewards (M,), feature_differences (M, F) = phi(s') - phi(s), and
    initial_features (F,) = (1/M) sum over trajectories of phi(s_0) (None: 0, the
    paper's formula). With the errors x_i = delta_i(nu) and w = softmax(x / eta):
    g = eta delta_KL + nu^T initial_features + eta log(1/M sum_i exp(x_i / eta)),
    dg/deta = delta_KL + log(1/M sum_i exp(x_i / eta)) - sum_i w_i x_i / eta and
    dg/dnu = initial_features + sum_i w_i (phi(s'_i) - phi(s_i)).
    """
    if initial_features is None:
        initial_features = np.zeros(feature_differences.shape[1])
    errors = rewards + feature_differences @ nu
    shift = errors.max()
    scaled = np.exp((errors - shift) / eta)
    log_mean_exp = np.log(scaled.mean()) + shift / eta
    weights = scaled / scaled.sum()
    value = eta * step_size + nu @ initial_features + eta * log_mean_exp
    grad_eta = step_size + log_mean_exp - weights @ errors / eta
    return float(value), np.concatenate(
        [[grad_eta], initial_features + weights @ feature_differences]
    )


def solve_dual(
    rewards: np.ndarray,
    feature_differences: np.ndarray,
    step_size: float,
    iterations: int,
    initial_features: np.ndarray | None = None,
) -> tuple[float, np.ndarray]:
    """(eta*, nu*) minimising the dual subject to eta >= _MIN_ETA, by L-BFGS-B."""
    rewards = np.asarray(rewards, np.float64)
    differences = np.asarray(feature_differences, np.float64)

    def objective(x):
        return dual(x[0], x[1:], rewards, differences, step_size, initial_features)

    x0 = np.zeros(1 + differences.shape[1])
    x0[0] = 1.0
    bounds = [(_MIN_ETA, None)] + [(None, None)] * differences.shape[1]
    result = scipy.optimize.minimize(
        objective, x0, jac=True, method="L-BFGS-B", bounds=bounds, options={"maxiter": iterations}
    )
    return float(result.x[0]), result.x[1:]


def sample_weights(
    rewards: np.ndarray, feature_differences: np.ndarray, eta: float, nu: np.ndarray
) -> np.ndarray:
    """exp(delta_i(nu) / eta), normalised to sum to 1."""
    errors = rewards + feature_differences @ nu
    weights = np.exp((errors - errors.max()) / eta)
    return weights / weights.sum()


def transitions(paths: policy_search.Paths) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Of every real step, in `Batch` order: rewards (M,) and phi(s') - phi(s) (M, F);
    and (1/M) sum over trajectories of phi(s_0), (F,)."""
    features = policy_search.baseline_features(paths.observations)
    next_features = np.concatenate([features[:, 1:], np.zeros_like(features[:, :1])], axis=1)
    # phi(s') = 0 after the last real step of each trajectory.
    next_valid = np.concatenate([paths.valid[:, 1:], np.zeros_like(paths.valid[:, :1])], axis=1)
    next_features = next_features * next_valid[..., None]
    num_steps = int(paths.valid.sum())
    return (
        paths.rewards[paths.valid].astype(np.float64),
        (next_features - features)[paths.valid].astype(np.float64),
        features[:, 0].sum(axis=0).astype(np.float64) / num_steps,
    )


def update(
    params: dict, batch: policy_search.Batch, paths: policy_search.Paths, config: Config
) -> tuple[dict, dict]:
    """Solves the dual on the iteration's steps, then the weighted policy regression."""
    rewards, differences, initial = transitions(paths)
    eta, nu = solve_dual(rewards, differences, config.step_size, config.dual_iterations, initial)
    weights = sample_weights(rewards, differences, eta, nu)
    padded = jnp.asarray(policy_search.pad(weights.astype(np.float32), batch.mask.shape[0]))
    new_params = policy_search.weighted_max_likelihood(
        params, batch.observations, batch.actions, padded, config.lbfgs_iterations
    )
    kl_to_uniform = float(np.sum(weights * np.log(weights * weights.size + 1e-300)))
    return new_params, {"eta": eta, "weights_kl": kl_to_uniform}


def train(
    env,
    config: Config | None = None,
    sampling: policy_search.Sampling | None = None,
    num_iterations: int = 500,
    seed: int = 0,
    on_iteration=None,
) -> tuple[dict, list[policy_search.Iteration]]:
    """Runs REPS on a batched environment; returns final parameters and iteration logs."""
    config = Config() if config is None else config
    sampling = policy_search.Sampling() if sampling is None else sampling

    def step(params, batch, paths, rng):
        return update(params, batch, paths, config)

    return policy_search.train_stochastic_policy(
        env, sampling, num_iterations, seed, config.discount, step, on_iteration
    )
