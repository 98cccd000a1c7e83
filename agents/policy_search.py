"""The shared core of the rllab batch policy-search algorithms.

Duan, Chen, Houthooft, Schulman and Abbeel, "Benchmarking Deep Reinforcement
Learning for Continuous Control", ICML 2016 (rllab), section 4.1 and the
supplement's section 2. Every batch algorithm (REINFORCE, TNPG, RWR, REPS, TRPO,
CEM, CMA-ES) repeats: collect N trajectories with a batched environment, compute
discounted returns, subtract a baseline, update. This file holds those shared pieces:

  1. `Sampling`: how much to simulate per iteration (50,000 steps, horizon 500).
  2. The Gaussian MLP policy of the paper: hidden layers of 100, 50 and 25 units,
     tanh after the first two, mapping the flat observation to the mean of a
     Gaussian in unit action space [-1, 1]^A; the log standard deviation is one
     state-independent vector (Schulman et al. 2015a).
  3. `collect`: trajectories from a batched environment (agents/vector.py's
     interface), as one flat, fixed-size, masked `Batch` so that jitted updates
     compile once.
  4. `discounted_returns` R_t = sum_{t'>=t} gamma^(t'-t) r_t' (gamma = 0.99).
  5. The linear time-varying feature baseline of the supplement, fitted by
     least squares: phi(s, t) = concat(s, s*s, 0.01t, (0.01t)^2, (0.01t)^3, 1).
  6. `weighted_max_likelihood`: argmax_theta sum_i w_i log pi(a_i | s_i), the
     M-step shared by RWR and REPS, solved with optax's L-BFGS.
  7. `train_loop`: the iteration loop with its per-iteration log (the average
     undiscounted return of the iteration's trajectories, the paper's metric).

Agents see the environment only through its dm_env specs; the benchmark command
(agents/benchmark.py) builds the environments.
"""

import dataclasses
import functools
import time
from collections.abc import Callable
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
import optax
from jax import flatten_util

from agents import networks, specs

# The paper's policy network (section 5, "Policy Representation").
HIDDEN_SIZES = (100, 50, 25)
# The Gaussian's log standard deviation starts at 0: std 1 in unit action space.
INITIAL_LOG_STD = 0.0
# The baseline clips observations to this range before squaring them, as rllab's
# LinearFeatureBaseline does, so that one diverging state cannot dominate the fit.
BASELINE_OBSERVATION_CLIP = 10.0
# Ridge term of the least-squares fit, raised tenfold while the solution is not
# finite (rllab's LinearFeatureBaseline, reg_coeff 1e-5).
BASELINE_RIDGE = 1e-5
_LAST = 2  # dm_env.StepType.LAST


@dataclasses.dataclass(frozen=True)
class Sampling:
    """How each iteration samples the environment.

    Attributes:
      steps_per_iteration: simulation steps per iteration, summed over trajectories
        (50,000 in the paper's Table 2). Trajectories are collected in rounds of
        `num_envs` until the total reaches this; the last round is completed.
      horizon: steps per trajectory at most (Table 2: 500 basic, locomotion and
        hierarchical tasks; 100 partially observable ones).
      num_envs: copies of the batched environment (episodes per round).
    """

    steps_per_iteration: int = 50_000
    horizon: int = 500
    num_envs: int = 10

    def __post_init__(self):
        for name in ("steps_per_iteration", "horizon", "num_envs"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"Sampling.{name} is {value!r}; expected a positive int.")

    @property
    def max_samples(self) -> int:
        """The most steps one iteration can hold: the fixed length of a `Batch`."""
        return self.steps_per_iteration + self.num_envs * self.horizon


# ------------------------------------------------------------------------------ policy


def init_policy(
    rng: np.random.Generator,
    observation_size: int,
    action_size: int,
    hidden_sizes: tuple[int, ...] = HIDDEN_SIZES,
) -> dict:
    """Gaussian MLP policy parameters {'mean': MLP layers, 'log_std': (A,)}.

    Every layer's weights are U(-1/sqrt(fan_in), 1/sqrt(fan_in)), biases 0. The
    last layer is not shrunk: with a near-zero last layer the Fisher information
    of the earlier layers nearly vanishes, and natural-gradient steps (TNPG, TRPO)
    then move them so far that the quadratic KL model badly underestimates the KL.
    """
    sizes = (observation_size, *hidden_sizes, action_size)
    mean = networks.mlp_init(
        rng, sizes, scheme="fan_in_uniform", final_scale=1.0 / np.sqrt(sizes[-2])
    )
    return {"mean": mean, "log_std": jnp.full((action_size,), INITIAL_LOG_STD, jnp.float32)}


def policy_mean(params: dict, observation: jax.Array) -> jax.Array:
    """The mean action in unit space for flat observations (..., D).

    tanh follows the first two hidden layers and the third is linear, as the
    paper's section 5 states ("tanh nonlinearity at the first two hidden layers").
    """
    hidden = observation
    layers = params["mean"]
    for index, layer in enumerate(layers[:-1]):
        hidden = hidden @ layer["w"] + layer["b"]
        if index < 2:
            hidden = jnp.tanh(hidden)
    return hidden @ layers[-1]["w"] + layers[-1]["b"]


def log_prob(params: dict, observation: jax.Array, action: jax.Array) -> jax.Array:
    """log pi(a | s) of the diagonal Gaussian, summed over action dimensions."""
    mean = policy_mean(params, observation)
    log_std = params["log_std"]
    z = (action - mean) * jnp.exp(-log_std)
    return jnp.sum(-0.5 * z**2 - log_std - 0.5 * jnp.log(2.0 * jnp.pi), axis=-1)


def gaussian_kl(old_params: dict, new_params: dict, observation: jax.Array) -> jax.Array:
    """KL(pi_old(.|s) || pi_new(.|s)) per observation, summed over action dimensions."""
    old_mean, new_mean = policy_mean(old_params, observation), policy_mean(new_params, observation)
    old_log_std, new_log_std = old_params["log_std"], new_params["log_std"]
    kl = (
        new_log_std
        - old_log_std
        + (jnp.exp(2 * old_log_std) + (old_mean - new_mean) ** 2) / (2 * jnp.exp(2 * new_log_std))
        - 0.5
    )
    return jnp.sum(kl, axis=-1)


@jax.jit
def _sample_actions(params: dict, observation: jax.Array, key: jax.Array) -> jax.Array:
    mean = policy_mean(params, observation)
    return mean + jnp.exp(params["log_std"]) * jax.random.normal(key, mean.shape)


def gaussian_actor(params: dict, key: jax.Array) -> Callable[[np.ndarray, int], np.ndarray]:
    """An `act(observations, t)` sampling a ~ pi(.|s) for every copy; keys split per call."""
    state = {"key": key}

    def act(observations: np.ndarray, t: int) -> np.ndarray:
        state["key"], step_key = jax.random.split(state["key"])
        return np.asarray(_sample_actions(params, jnp.asarray(observations), step_key))

    return act


def masked_mean(values: jax.Array, mask: jax.Array) -> jax.Array:
    return jnp.sum(values * mask) / jnp.maximum(jnp.sum(mask), 1.0)


# ------------------------------------------------------------------------- trajectories


class Paths(NamedTuple):
    """E trajectories padded to the horizon T; `valid` marks the steps that happened.

    observations (E, T, D) flat observations s_t; actions (E, T, A) unit actions
    a_t as sampled (before clipping to [-1, 1]); rewards (E, T) r_t; valid (E, T).
    """

    observations: np.ndarray
    actions: np.ndarray
    rewards: np.ndarray
    valid: np.ndarray

    @property
    def episode_returns(self) -> np.ndarray:
        """Undiscounted return of each trajectory, (E,)."""
        return np.sum(self.rewards * self.valid, axis=1)


def rollout_round(env, act: Callable[[np.ndarray, int], np.ndarray], horizon: int) -> Paths:
    """One episode in every copy of a batched environment, at most `horizon` steps.

    The batch is reset first; a copy whose episode ended stays masked (its
    auto-reset steps are not recorded) until the slowest copy ends or the horizon.

    Args:
      env: a batched environment (agents/vector.py).
      act: maps (N, D) flat observations and the time index t to (N, A) actions
        in unit space; they are clipped to [-1, 1] and scaled to the action box.
      horizon: T.
    """
    layout = specs.observation_layout(env.observation_spec())
    bounds = specs.action_bounds(env.action_spec())
    n = env.num_envs
    observations = np.zeros((n, horizon, layout.size), np.float32)
    actions = np.zeros((n, horizon, bounds.size), np.float32)
    rewards = np.zeros((n, horizon), np.float32)
    valid = np.zeros((n, horizon), bool)
    alive = np.ones(n, bool)
    timestep = env.reset()
    observation = specs.flatten_observation(layout, timestep.observation, n)
    for t in range(horizon):
        action = np.asarray(act(observation, t), np.float32).reshape(n, bounds.size)
        timestep = env.step(bounds.to_env(action))
        observations[:, t] = observation
        actions[:, t] = action
        rewards[:, t] = np.where(alive, np.asarray(timestep.reward, np.float32), 0.0)
        valid[:, t] = alive
        alive &= np.asarray(timestep.step_type) != _LAST
        if not alive.any():
            break
        observation = specs.flatten_observation(layout, timestep.observation, n)
    return Paths(observations, actions, rewards, valid)


def concatenate(paths: list[Paths]) -> Paths:
    return Paths(*(np.concatenate(parts, axis=0) for parts in zip(*paths)))


def collect(env, act: Callable[[np.ndarray, int], np.ndarray], sampling: Sampling) -> Paths:
    """Rounds of `rollout_round` until `sampling.steps_per_iteration` steps are simulated."""
    if env.num_envs != sampling.num_envs:
        raise ValueError(
            f"environment has {env.num_envs} copies; sampling.num_envs is {sampling.num_envs}."
        )
    rounds, steps = [], 0
    while steps < sampling.steps_per_iteration:
        paths = rollout_round(env, act, sampling.horizon)
        rounds.append(paths)
        steps += int(paths.valid.sum())
    return concatenate(rounds)


# ------------------------------------------------------------------ returns and baseline


def discounted_returns(rewards: np.ndarray, valid: np.ndarray, discount: float) -> np.ndarray:
    """R_t = sum_{t' >= t} discount^(t' - t) r_t' along axis 1, 0 where not valid."""
    rewards = np.where(valid, rewards, 0.0).astype(np.float64)
    returns = np.zeros_like(rewards)
    running = np.zeros(rewards.shape[0])
    for t in range(rewards.shape[1] - 1, -1, -1):
        running = rewards[:, t] + discount * running
        returns[:, t] = running
    return np.where(valid, returns, 0.0).astype(np.float32)


def baseline_features(observations: np.ndarray) -> np.ndarray:
    """phi(s, t) = concat(s, s*s, 0.01t, (0.01t)^2, (0.01t)^3, 1) for (E, T, D) -> (E, T, 2D+4).

    The supplement's section 2; t is the step index within the trajectory.
    """
    s = np.clip(observations, -BASELINE_OBSERVATION_CLIP, BASELINE_OBSERVATION_CLIP)
    e, t_max = s.shape[:2]
    t = np.broadcast_to((0.01 * np.arange(t_max))[None, :, None], (e, t_max, 1))
    return np.concatenate([s, s * s, t, t**2, t**3, np.ones_like(t)], axis=-1)


def fit_baseline(observations: np.ndarray, returns: np.ndarray, valid: np.ndarray) -> np.ndarray:
    """Least-squares coefficients c minimising sum over valid steps (phi(s,t).c - R_t)^2.

    Solved through the ridge-regularised normal equations (phi'phi + lambda I) c = phi'R,
    lambda = 1e-5 raised tenfold while the solution is not finite.
    """
    features = baseline_features(observations)[valid].astype(np.float64)
    targets = returns[valid].astype(np.float64)
    gram = features.T @ features
    rhs = features.T @ targets
    ridge = BASELINE_RIDGE
    for _ in range(5):
        coefficients = np.linalg.solve(gram + ridge * np.eye(gram.shape[0]), rhs)
        if np.all(np.isfinite(coefficients)):
            return coefficients
        ridge *= 10.0
    raise FloatingPointError("the baseline's least-squares fit stayed non-finite.")


def predict_baseline(coefficients: np.ndarray | None, observations: np.ndarray) -> np.ndarray:
    """b(s, t) for (E, T, D) observations; zeros before the first fit (coefficients None)."""
    if coefficients is None:
        return np.zeros(observations.shape[:2], np.float32)
    return (baseline_features(observations) @ coefficients).astype(np.float32)


class Batch(NamedTuple):
    """The valid steps of `Paths` flattened and zero-padded to `Sampling.max_samples`.

    observations (M, D), actions (M, A), returns (M,) discounted returns R_t,
    advantages (M,) R_t - b(s_t, t), mask (M,) 1.0 for real steps.
    """

    observations: jax.Array
    actions: jax.Array
    returns: jax.Array
    advantages: jax.Array
    mask: jax.Array


def pad(values: np.ndarray, length: int) -> np.ndarray:
    """Zero-pads the leading axis of `values` to `length`."""
    if values.shape[0] > length:
        raise ValueError(f"{values.shape[0]} samples exceed the padded length {length}.")
    padding = np.zeros((length - values.shape[0], *values.shape[1:]), values.dtype)
    return np.concatenate([values, padding], axis=0)


def make_batch(paths: Paths, returns: np.ndarray, baseline: np.ndarray, length: int) -> Batch:
    """Flattens the valid steps of `paths` with their returns and advantages."""
    valid = paths.valid
    return Batch(
        observations=jnp.asarray(pad(paths.observations[valid], length)),
        actions=jnp.asarray(pad(paths.actions[valid], length)),
        returns=jnp.asarray(pad(returns[valid], length)),
        advantages=jnp.asarray(pad((returns - baseline)[valid], length)),
        mask=jnp.asarray(pad(np.ones(int(valid.sum()), np.float32), length)),
    )


def normalized_advantages(batch: Batch) -> jax.Array:
    """Advantages centred and scaled to unit standard deviation over the real steps.

    rllab's batch algorithms do this by default (center_adv=True); it makes the
    step size independent of the reward scale.
    """
    mean = masked_mean(batch.advantages, batch.mask)
    std = jnp.sqrt(masked_mean((batch.advantages - mean) ** 2, batch.mask))
    return (batch.advantages - mean) / (std + 1e-8) * batch.mask


# ---------------------------------------------------------------- weighted max likelihood


@jax.jit
def _weighted_log_likelihood(
    params: dict, observations: jax.Array, actions: jax.Array, weights: jax.Array
) -> jax.Array:
    return jnp.sum(weights * log_prob(params, observations, actions)) / jnp.sum(weights)


def weighted_max_likelihood(
    params: dict, observations: jax.Array, actions: jax.Array, weights: jax.Array, iterations: int
) -> dict:
    """argmax_theta sum_i w_i log pi(a_i | s_i; theta), from `params`, by L-BFGS.

    The weights must be non-negative with a positive sum; they are normalised.
    Runs `iterations` L-BFGS steps with a zoom line search (optax.lbfgs).
    """
    weights = jnp.asarray(weights, jnp.float32)
    if not bool(jnp.all(weights >= 0)) or not float(jnp.sum(weights)) > 0:
        raise ValueError("weights must be non-negative with a positive sum.")
    return _lbfgs(params, observations, actions, weights / jnp.sum(weights), iterations)


@functools.partial(jax.jit, static_argnames="iterations")
def _lbfgs(params, observations, actions, weights, iterations: int):
    def loss(p):
        return -_weighted_log_likelihood(p, observations, actions, weights)

    optimizer = optax.lbfgs()
    value_and_grad = optax.value_and_grad_from_state(loss)

    def step(carry, _):
        p, state = carry
        value, grad = value_and_grad(p, state=state)
        updates, state = optimizer.update(grad, state, p, value=value, grad=grad, value_fn=loss)
        return (optax.apply_updates(p, updates), state), None

    (params, _), _ = jax.lax.scan(step, (params, optimizer.init(params)), None, length=iterations)
    return params


def flat(params) -> tuple[jax.Array, Callable]:
    """The parameters as one vector, and the function that rebuilds the pytree."""
    return flatten_util.ravel_pytree(params)


# ------------------------------------------------------------------------- the loop


class Iteration(NamedTuple):
    """One iteration's log: the paper's metric is the mean of `returns` over all iterations."""

    iteration: int
    average_return: float
    num_trajectories: int
    env_steps: int
    wall_time_s: float
    metrics: dict


def log_iteration(iteration: int, paths: Paths, start: float, metrics: dict) -> Iteration:
    returns = paths.episode_returns
    return Iteration(
        iteration=iteration,
        average_return=float(np.mean(returns)),
        num_trajectories=int(returns.size),
        env_steps=int(paths.valid.sum()),
        wall_time_s=time.time() - start,
        metrics={key: float(value) for key, value in metrics.items()},
    )


def check_env(env, sampling: Sampling) -> tuple[int, int]:
    """(observation size D, action size A) of a batched environment, checked against sampling."""
    if env.num_envs != sampling.num_envs:
        raise ValueError(
            f"environment has {env.num_envs} copies; sampling.num_envs is {sampling.num_envs}."
        )
    layout = specs.observation_layout(env.observation_spec())
    return layout.size, specs.action_bounds(env.action_spec()).size


def train_stochastic_policy(
    env,
    sampling: Sampling,
    num_iterations: int,
    seed: int,
    discount: float,
    update: Callable[[dict, Batch, Paths, np.random.Generator], tuple[dict, dict]],
    on_iteration: Callable[[Iteration], None] | None = None,
    hidden_sizes: tuple[int, ...] = HIDDEN_SIZES,
) -> tuple[dict, list[Iteration]]:
    """The loop of the batch algorithms that act with the Gaussian policy.

    Each iteration: collect trajectories with pi_theta, compute discounted returns,
    advantages R_t - b(s_t, t) with the baseline fitted on the PREVIOUS iteration's
    data (as rllab does, so the baseline does not fit the returns it is subtracted
    from), refit the baseline, and call `update(params, batch, paths, rng) -> (params, metrics)`.

    Returns the final parameters and the per-iteration logs.
    """
    if num_iterations < 1:
        raise ValueError(f"num_iterations is {num_iterations}; expected at least 1.")
    observation_size, action_size = check_env(env, sampling)
    rng = np.random.default_rng(seed)
    params = init_policy(rng, observation_size, action_size, hidden_sizes)
    key = jax.random.key(seed)
    coefficients = None
    logs = []
    start = time.time()
    for iteration in range(num_iterations):
        key, act_key = jax.random.split(key)
        paths = collect(env, gaussian_actor(params, act_key), sampling)
        returns = discounted_returns(paths.rewards, paths.valid, discount)
        baseline = predict_baseline(coefficients, paths.observations)
        coefficients = fit_baseline(paths.observations, returns, paths.valid)
        batch = make_batch(paths, returns, baseline, sampling.max_samples)
        params, metrics = update(params, batch, paths, rng)
        logs.append(log_iteration(iteration, paths, start, metrics))
        if on_iteration is not None:
            on_iteration(logs[-1])
    return params, logs


# ------------------------------------------------------------ parameter-space search


@jax.jit
def _population_means(mean_params: list, observations: jax.Array) -> jax.Array:
    """Per-copy mean actions: copy k acts with mean_params[k] (a stacked pytree)."""
    return jax.vmap(lambda p, o: policy_mean({"mean": p}, o))(mean_params, observations)


def evaluate_population(
    env, population: np.ndarray, unflatten: Callable, sampling: Sampling
) -> tuple[np.ndarray, Paths]:
    """One trajectory per parameter vector, acting with the Gaussian policy's mean.

    The gradient-free methods explore in parameter space (the paper's section 4.1),
    so each candidate acts deterministically with the mean of the policy network
    whose flat parameters are the candidate's.

    Args:
      env: a batched environment with sampling.num_envs copies.
      population: (P, n) flat parameters of the mean network.
      unflatten: maps a flat vector to the mean network's layers.
      sampling: the horizon and the number of copies (P is evaluated in rounds of
        num_envs; the last round's spare copies repeat the last candidate and are dropped).

    Returns:
      The (P,) undiscounted returns and the trajectories (P of them).
    """
    check_env(env, sampling)
    size = population.shape[0]
    rounds = []
    for start in range(0, size, sampling.num_envs):
        indices = np.minimum(np.arange(start, start + sampling.num_envs), size - 1)
        stacked = jax.vmap(unflatten)(jnp.asarray(population[indices], jnp.float32))

        def act(observations, t, stacked=stacked):
            return np.asarray(_population_means(stacked, jnp.asarray(observations)))

        paths = rollout_round(env, act, sampling.horizon)
        keep = min(sampling.num_envs, size - start)
        rounds.append(Paths(*(field[:keep] for field in paths)))
    paths = concatenate(rounds)
    return paths.episode_returns, paths


def population_size(sampling: Sampling) -> int:
    """N trajectories per iteration: steps_per_iteration / horizon (100 in the paper)."""
    return max(2, sampling.steps_per_iteration // sampling.horizon)
