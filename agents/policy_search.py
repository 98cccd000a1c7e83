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
  3. `collect`: complete trajectories from a batched environment (agents/vector.py's
     interface), each copy sampling episode after episode on its own (see
     `run_episodes`), later flattened into one fixed-size, masked `Batch` so that
     jitted updates compile once.
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
_FIRST, _LAST = 0, 2  # dm_env.StepType.FIRST, dm_env.StepType.LAST
# What each copy of the batch is doing in `run_episodes`: recording an episode;
# waiting for the FIRST step the batch's auto-reset gives after a LAST one;
# finishing (unrecorded) an environment episode that the sampler already cut at
# the horizon; or done (no further episode wanted).
_RUNNING, _RESETTING, _DRAINING, _IDLE = range(4)


@dataclasses.dataclass(frozen=True)
class Sampling:
    """How each iteration samples the environment.

    Attributes:
      steps_per_iteration: simulation steps per iteration, summed over trajectories
        (50,000 in the paper's Table 2): `collect` starts episodes until this many
        steps are simulated and then lets the started ones finish (`run_episodes`).
      horizon: steps per trajectory at most (Table 2: 500 basic, locomotion and
        hierarchical tasks; 100 partially observable ones).
      num_envs: copies of the batched environment (episodes sampled at once).
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


# Maps (N, D) flat observations and the (N,) episode index of each copy (-1 where
# a copy records no episode) to (N, A) actions in unit space.
Actor = Callable[[np.ndarray, np.ndarray], np.ndarray]


def gaussian_actor(params: dict, key: jax.Array) -> Actor:
    """An `act(observations, episodes)` sampling a ~ pi(.|s) for every copy; keys split per call."""
    state = {"key": key}

    def act(observations: np.ndarray, episodes: np.ndarray) -> np.ndarray:
        state["key"], step_key = jax.random.split(state["key"])
        return np.asarray(_sample_actions(params, jnp.asarray(observations), step_key))

    return act


def masked_mean(values: jax.Array, mask: jax.Array) -> jax.Array:
    """The mean of `values` where `mask` is 1 (0 when the mask is empty)."""
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


def run_episodes(env, act: Actor, horizon: int, want_episode: Callable[[int, int], bool]) -> Paths:
    """Complete episodes from a batched environment, every copy sampling on its own.

    The batch is reset once; from then on each copy runs episode after episode,
    never waiting for the others. When a copy is free (at the start, and at the
    FIRST step that the batch's auto-reset gives after the copy's LAST step),
    `want_episode(episodes_started, steps_recorded)` decides whether it starts
    another episode; steps_recorded counts the steps of all started episodes so
    far, finished or not. Every started episode is recorded to its end, at the
    environment's termination or time limit or after `horizon` steps, whichever
    comes first; none is cut short or dropped because enough steps were collected
    (as rllab's samplers let each worker finish the path it is on), so the
    episodes are unbiased draws from the policy: whether an episode is sampled is
    decided before it begins. Sampling stops once no copy records an episode and
    `want_episode` says no.

    A copy's steps cost nothing extra between its episodes except the one step
    whose action the auto-reset ignores. A copy that reaches `horizon` before its
    environment's own episode ends keeps stepping, unrecorded, until that episode
    ends (the batched interface resets copies only through their LAST step), or
    until no copy records an episode, when the whole batch is reset: give the
    environment an episode length of `horizon` steps to avoid those wasted steps.

    Args:
      env: a batched environment (agents/vector.py).
      act: maps (N, D) flat observations and the (N,) index of the episode each
        copy records (-1 for none) to (N, A) actions in unit space; they are clipped
        to [-1, 1] and scaled to the action box.
      horizon: T, the most steps of one episode.
      want_episode: whether a free copy starts the next episode (see above).

    Returns:
      The episodes in the order they started (episode index k is row k), padded to T.
    """
    layout = specs.observation_layout(env.observation_spec())
    bounds = specs.action_bounds(env.action_spec())
    n = env.num_envs
    observations = np.zeros((n, horizon, layout.size), np.float32)
    actions = np.zeros((n, horizon, bounds.size), np.float32)
    rewards = np.zeros((n, horizon), np.float32)
    lengths = np.zeros(n, np.int64)
    episodes = np.full(n, -1, np.int64)
    states = np.full(n, _RESETTING)
    finished: list[tuple[int, np.ndarray, np.ndarray, np.ndarray]] = []
    started = recorded = 0
    copies = np.arange(n)
    timestep = env.reset()
    while True:
        step_type = np.asarray(timestep.step_type)
        for index in np.flatnonzero((states == _RESETTING) & (step_type == _FIRST)):
            if want_episode(started, recorded):
                states[index], episodes[index], lengths[index] = _RUNNING, started, 0
                started += 1
            else:
                states[index], episodes[index] = _IDLE, -1
        running = np.flatnonzero(states == _RUNNING)
        if not running.size:
            if not want_episode(started, recorded):
                break
            if np.any(states == _DRAINING):
                # Nothing is recorded: restart every copy rather than step out the
                # episodes that were cut at the horizon.
                timestep = env.reset()
                states[:] = _RESETTING
                continue
        observation = specs.flatten_observation(layout, timestep.observation, n)
        action = np.asarray(act(observation, episodes), np.float32).reshape(n, bounds.size)
        timestep = env.step(bounds.to_env(action))
        step_type = np.asarray(timestep.step_type)
        at = lengths[running]
        observations[running, at] = observation[running]
        actions[running, at] = action[running]
        rewards[running, at] = np.asarray(timestep.reward, np.float32)[running]
        lengths[running] += 1
        recorded += running.size
        ended = step_type == _LAST
        states[(states == _DRAINING) & ended] = _RESETTING
        done = np.zeros(n, bool)
        done[running] = ended[running] | (lengths[running] >= horizon)
        for index in copies[done]:
            length = lengths[index]
            finished.append(
                (
                    int(episodes[index]),
                    observations[index, :length].copy(),
                    actions[index, :length].copy(),
                    rewards[index, :length].copy(),
                )
            )
            states[index] = _RESETTING if ended[index] else _DRAINING
            episodes[index] = -1
    finished.sort(key=lambda episode: episode[0])
    count = len(finished)
    paths = Paths(
        observations=np.zeros((count, horizon, layout.size), np.float32),
        actions=np.zeros((count, horizon, bounds.size), np.float32),
        rewards=np.zeros((count, horizon), np.float32),
        valid=np.zeros((count, horizon), bool),
    )
    for row, (_, episode_observations, episode_actions, episode_rewards) in enumerate(finished):
        length = len(episode_rewards)
        paths.observations[row, :length] = episode_observations
        paths.actions[row, :length] = episode_actions
        paths.rewards[row, :length] = episode_rewards
        paths.valid[row, :length] = True
    return paths


def concatenate(paths: list[Paths]) -> Paths:
    """Joins batches of trajectories along the trajectory axis."""
    return Paths(*(np.concatenate(parts, axis=0) for parts in zip(*paths)))


def collect(env, act: Actor, sampling: Sampling) -> Paths:
    """Complete episodes until at least `sampling.steps_per_iteration` steps.

    `run_episodes` with this rule: a free copy starts another episode while the
    steps of all started episodes (finished or in progress) are fewer than
    steps_per_iteration. Episodes in progress when the count is reached run to
    their end and are kept, so the total is at least steps_per_iteration and at
    most steps_per_iteration - 1 + num_envs x horizon (`Sampling.max_samples`).
    """
    if env.num_envs != sampling.num_envs:
        raise ValueError(
            f"environment has {env.num_envs} copies; sampling.num_envs is {sampling.num_envs}."
        )
    target = sampling.steps_per_iteration
    return run_episodes(env, act, sampling.horizon, lambda _, steps: steps < target)


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
    """The `Iteration` record of one iteration's trajectories and update metrics."""
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
def _candidate_means(population: list, candidates: jax.Array, observations: jax.Array) -> jax.Array:
    """Per-copy mean actions: copy k acts with candidate candidates[k] of the stacked
    mean-network parameters `population` (leading axis P)."""
    params = jax.tree.map(lambda leaf: leaf[candidates], population)
    return jax.vmap(lambda p, o: policy_mean({"mean": p}, o))(params, observations)


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
      sampling: the horizon and the number of copies. Candidate k is the k-th
        episode `run_episodes` starts: a copy that finishes one candidate's episode
        takes the next candidate not yet started, until all P have started.

    Returns:
      The (P,) undiscounted returns and the trajectories (P of them, row k candidate k).
    """
    check_env(env, sampling)
    size = population.shape[0]
    stacked = jax.vmap(unflatten)(jnp.asarray(population, jnp.float32))

    def act(observations: np.ndarray, episodes: np.ndarray) -> np.ndarray:
        # A copy recording no episode (-1) acts with candidate 0; its action is unused.
        candidates = jnp.asarray(np.maximum(episodes, 0))
        return np.asarray(_candidate_means(stacked, candidates, jnp.asarray(observations)))

    paths = run_episodes(env, act, sampling.horizon, lambda started, _: started < size)
    return paths.episode_returns, paths


def population_size(sampling: Sampling) -> int:
    """N trajectories per iteration: steps_per_iteration / horizon (100 in the paper)."""
    return max(2, sampling.steps_per_iteration // sampling.horizon)
