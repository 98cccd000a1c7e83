"""PPO with GAE and running normalisation, and DPPO's synchronous gradient averaging.

Schulman, Wolski, Dhariwal, Radford and Klimov, "Proximal Policy Optimization
Algorithms", 2017; Schulman, Moritz, Levine, Jordan and Abbeel, "High-Dimensional
Continuous Control Using Generalized Advantage Estimation", ICLR 2016; Heess et al.,
"Emergence of Locomotion Behaviours in Rich Environments", 2017 (DPPO).

What this file implements, in reading order:

  1. `Config`: hyperparameters (Schulman et al. 2017, Table 3, for the MuJoCo tasks).
  2. Networks: a Gaussian policy, mean = MLP(s) with tanh hidden units and a
     state-independent log standard deviation, and a separate value MLP.
  3. `gae`: generalised advantage estimation over a (T, K) rollout.
  4. `ppo_loss`: the clipped surrogate objective, a value regression and an entropy
     bonus, as masked means (steps that were automatic resets carry no transition).
  5. `update`: `update_epochs` passes over the rollout in `num_minibatches` gradient
     steps each, with DPPO's worker averaging (below).
  6. The roles, as Acme separates them: the pure `behaviour_policy` (a Gaussian
     sample) and `evaluation_policy` (the mean action), and the `Learner`, which
     owns parameters and optimiser state and performs `update`.
  7. `PPO`: the single-process agent composing them: acting, running normalisation of observations (mean/std, clipped) and
     of rewards (divided by the running std of the discounted return), the rollout
     buffer, and the update once `rollout_steps` environment steps are collected
     (Heess et al. 2017, appendix A, normalise both with running statistics).

DPPO here is synchronous gradient averaging on one machine: the K environment
copies are split into `num_workers` = W groups of K/W, each the data of one
worker. Every gradient step, each worker computes the gradient of the loss on its
own minibatch (advantages normalised within it) with the shared parameters;
`jax.lax.pmean` over a vmapped worker axis averages the W gradients, and one Adam
step applies the average, so all W parameter copies stay identical. The same
`pmean` runs across devices under `jax.pmap`; across processes and machines,
with the paper's KL penalty and straggler tolerance, see agents/dppo.py (Ray). With W = 1 this is plain PPO. Observation and reward statistics are
shared by all workers.
"""

import dataclasses
import functools
from collections.abc import Callable
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
import optax

from agents import networks, normalizer, specs


@dataclasses.dataclass(frozen=True)
class Config:
    """PPO hyperparameters.

    From Schulman et al. (2017), Table 3 (MuJoCo): 2048 steps per rollout, Adam at
    3e-4, 10 epochs, minibatches of 64 (2048 / 32), discount 0.99, GAE lambda 0.95;
    clip epsilon 0.2 (section 6.1); (64, 64) tanh networks. Observations clipped to
    +-10 after normalisation, gradients clipped at global norm 0.5, Adam epsilon
    1e-5 and value-loss weight 0.5 are the OpenAI Baselines values that Andrychowicz
    et al. (2021) and Engstrom et al. (2020) study.

    Attributes:
      learning_rate: Adam step size (epsilon 1e-5).
      rollout_steps: environment steps per update, summed over the K copies.
      num_minibatches: gradient steps per epoch; each worker's share of the
        rollout is split into this many minibatches.
      update_epochs: passes over each rollout.
      discount: gamma per environment step, in [0, 1].
      gae_lambda: lambda of generalised advantage estimation, in [0, 1].
      clip_epsilon: the surrogate's ratio clip, [1 - eps, 1 + eps].
      value_coefficient: weight of the value regression in the loss.
      entropy_coefficient: weight of the entropy bonus (subtracted from the loss).
      max_grad_norm: global-norm clip of the (averaged) gradient.
      hidden_sizes: hidden widths of the policy MLP (tanh), and of the value MLP
        unless value_hidden_sizes is given.
      value_hidden_sizes: hidden widths of the value MLP (tanh); empty (the
        default) means the same as hidden_sizes.
      initial_log_std: the state-independent log standard deviation at the start,
        in unit action space.
      observation_clip: normalised observations are clipped to +-this.
      reward_clip: scaled rewards are clipped to +-this.
      reward_normalization: 'running_std' divides rewards by the running standard
        deviation of the discounted return (Heess et al. 2017, appendix A,
        normalisation step 2); 'fixed' multiplies them by reward_scale (Brax's
        and mujoco_playground's `reward_scaling`).
      reward_scale: the constant factor of 'fixed' reward normalisation; must be
        1.0 with 'running_std', where a constant factor would divide out.
      num_workers: W, DPPO workers averaging gradients (1 is plain PPO).
    """

    learning_rate: float = 3e-4
    rollout_steps: int = 2048
    num_minibatches: int = 32
    update_epochs: int = 10
    discount: float = 0.99
    gae_lambda: float = 0.95
    clip_epsilon: float = 0.2
    value_coefficient: float = 0.5
    entropy_coefficient: float = 0.0
    max_grad_norm: float = 0.5
    hidden_sizes: tuple[int, ...] = (64, 64)
    value_hidden_sizes: tuple[int, ...] = ()
    initial_log_std: float = 0.0
    observation_clip: float = 10.0
    reward_clip: float = 10.0
    reward_normalization: str = "running_std"
    reward_scale: float = 1.0
    num_workers: int = 1

    def __post_init__(self):
        for name in ("rollout_steps", "num_minibatches", "update_epochs", "num_workers"):
            value = getattr(self, name)
            if not isinstance(value, int) or value < 1:
                raise ValueError(f"Config.{name} = {value!r}; expected a positive int.")
        for name in ("discount", "gae_lambda"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise ValueError(f"Config.{name} = {getattr(self, name)}; expected [0, 1].")
        for name in (
            "learning_rate",
            "clip_epsilon",
            "max_grad_norm",
            "observation_clip",
            "reward_clip",
        ):
            if not getattr(self, name) > 0:
                raise ValueError(f"Config.{name} = {getattr(self, name)}; expected > 0.")
        if self.value_coefficient < 0 or self.entropy_coefficient < 0:
            raise ValueError(
                f"Config.value_coefficient {self.value_coefficient} and entropy_coefficient "
                f"{self.entropy_coefficient} must be >= 0."
            )
        if not self.hidden_sizes or any(not isinstance(s, int) or s < 1 for s in self.hidden_sizes):
            raise ValueError(
                f"Config.hidden_sizes = {self.hidden_sizes!r}; expected a tuple of positive ints."
            )
        if any(not isinstance(s, int) or s < 1 for s in self.value_hidden_sizes):
            raise ValueError(
                f"Config.value_hidden_sizes = {self.value_hidden_sizes!r}; expected a tuple of "
                "positive ints (or empty: the same as hidden_sizes)."
            )
        if self.reward_normalization not in ("running_std", "fixed"):
            raise ValueError(
                f"Config.reward_normalization = {self.reward_normalization!r}; expected "
                "'running_std' or 'fixed'."
            )
        if not self.reward_scale > 0:
            raise ValueError(f"Config.reward_scale = {self.reward_scale}; expected > 0.")
        if self.reward_normalization == "running_std" and self.reward_scale != 1.0:
            raise ValueError(
                f"Config.reward_scale = {self.reward_scale} has no effect with "
                "reward_normalization='running_std' (dividing by the running std cancels "
                "a constant factor); set reward_normalization='fixed' to scale rewards."
            )

    @property
    def value_layers(self) -> tuple[int, ...]:
        """The value MLP's hidden widths: value_hidden_sizes, or hidden_sizes if empty."""
        return self.value_hidden_sizes or self.hidden_sizes


# ----------------------------------------------------------------------------- networks


def init_params(
    rng: np.random.Generator, config: Config, observation_size: int, action_size: int
) -> dict:
    """Fresh policy and value parameters and the log standard deviation."""
    # A small last policy layer starts every action near the middle of the box
    # (Andrychowicz et al. 2021, recommendation on the last-layer scale).
    return {
        "policy": networks.mlp_init(
            rng,
            (observation_size, *config.hidden_sizes, action_size),
            scheme="orthogonal",
            final_scale=0.01,
        ),
        "log_std": jnp.full((action_size,), config.initial_log_std, jnp.float32),
        "value": networks.mlp_init(
            rng, (observation_size, *config.value_layers, 1), scheme="orthogonal", final_scale=1.0
        ),
    }


def policy_mean(params: dict, observation: jax.Array) -> jax.Array:
    """Mean action (B, A) in unit action space, before exploration noise."""
    return networks.mlp_apply(params["policy"], observation, jnp.tanh)


def value_apply(params: dict, observation: jax.Array) -> jax.Array:
    """The value network's estimate for each observation (batch shape)."""
    return networks.mlp_apply(params["value"], observation, jnp.tanh)[..., 0]


def gaussian_log_prob(mean: jax.Array, log_std: jax.Array, action: jax.Array) -> jax.Array:
    """log N(action; mean, exp(log_std)^2), summed over action dimensions."""
    z = (action - mean) * jnp.exp(-log_std)
    return jnp.sum(-0.5 * jnp.square(z) - log_std - 0.5 * jnp.log(2.0 * jnp.pi), axis=-1)


def gaussian_entropy(log_std: jax.Array) -> jax.Array:
    """The entropy of a diagonal Gaussian with these log standard deviations."""
    return jnp.sum(log_std + 0.5 * jnp.log(2.0 * jnp.pi * jnp.e))


# ------------------------------------------------------------------------------ targets


class Rollout(NamedTuple):
    """T step calls of K copies. All arrays are (T, K, ...).

    observation: normalised observations the actions were taken in.
    action: the sampled, unclipped unit-space actions; log_prob: their log-density.
    value: V(observation) when acting.
    reward: scaled rewards of the step; discount: the environment's discounts.
    next_is_last: whether the step ended an episode.
    valid: False for steps that were automatic resets (no transition).
    """

    observation: jax.Array
    action: jax.Array
    log_prob: jax.Array
    value: jax.Array
    reward: jax.Array
    discount: jax.Array
    next_is_last: jax.Array
    valid: jax.Array


def gae(
    rollout: Rollout, bootstrap_value: jax.Array, gamma: float, lambda_: float
) -> tuple[jax.Array, jax.Array]:
    """Generalised advantage estimates and value targets (T, K).

    delta_t = r_t + gamma d_t V(s_{t+1}) - V(s_t), and
    A_t = delta_t + gamma lambda d_t (1 - last_{t+1}) A_{t+1}: a time-limit end
    (d = 1) still bootstraps from V of the final observation, but no advantage
    flows across an episode boundary. Rows of reset steps get meaningless values
    that the loss masks out.
    """
    next_values = jnp.concatenate([rollout.value[1:], bootstrap_value[None]], axis=0)
    deltas = rollout.reward + gamma * rollout.discount * next_values - rollout.value
    continues = gamma * lambda_ * rollout.discount * (1.0 - rollout.next_is_last)

    def backwards(advantage, inputs):
        delta, keep = inputs
        advantage = delta + keep * advantage
        return advantage, advantage

    _, advantages = jax.lax.scan(
        backwards, jnp.zeros_like(bootstrap_value), (deltas, continues), reverse=True
    )
    return advantages, advantages + rollout.value


# --------------------------------------------------------------------------------- loss


def masked_mean(values: jax.Array, mask: jax.Array) -> jax.Array:
    """The mean of `values` where `mask` is 1 (0 when the mask is empty)."""
    return jnp.sum(values * mask) / jnp.maximum(jnp.sum(mask), 1.0)


def ppo_loss(params: dict, minibatch: dict, config: Config) -> tuple[jax.Array, dict]:
    """The negated clipped surrogate plus value and entropy terms, on one minibatch."""
    mask = minibatch["valid"]
    advantages = minibatch["advantage"]
    mean_advantage = masked_mean(advantages, mask)
    std_advantage = jnp.sqrt(masked_mean(jnp.square(advantages - mean_advantage), mask))
    advantages = (advantages - mean_advantage) / (std_advantage + 1e-8)

    log_prob = gaussian_log_prob(
        policy_mean(params, minibatch["observation"]), params["log_std"], minibatch["action"]
    )
    log_ratio = log_prob - minibatch["log_prob"]
    ratio = jnp.exp(log_ratio)
    clipped_ratio = jnp.clip(ratio, 1.0 - config.clip_epsilon, 1.0 + config.clip_epsilon)
    surrogate = jnp.minimum(ratio * advantages, clipped_ratio * advantages)
    policy_loss = -masked_mean(surrogate, mask)

    value_error = value_apply(params, minibatch["observation"]) - minibatch["return"]
    value_loss = 0.5 * masked_mean(jnp.square(value_error), mask)
    entropy = gaussian_entropy(params["log_std"])
    loss = (
        policy_loss + config.value_coefficient * value_loss - config.entropy_coefficient * entropy
    )
    metrics = {
        "policy_loss": policy_loss,
        "value_loss": value_loss,
        "entropy": entropy,
        # The (ratio - 1) - log ratio estimator of KL(old || new), always >= 0.
        "approx_kl": masked_mean((ratio - 1.0) - log_ratio, mask),
        "clip_fraction": masked_mean(
            (jnp.abs(ratio - 1.0) > config.clip_epsilon).astype(jnp.float32), mask
        ),
    }
    return loss, metrics


def _optimizer(config: Config) -> optax.GradientTransformation:
    return optax.chain(
        optax.clip_by_global_norm(config.max_grad_norm), optax.adam(config.learning_rate, eps=1e-5)
    )


@functools.partial(jax.jit, static_argnames="config")
def _init_optimizer(params: dict, config: Config) -> optax.OptState:
    return _optimizer(config).init(params)


# ------------------------------------------------------------------------------- update


def averaged_gradient(params: dict, minibatches: dict, config: Config) -> tuple[dict, dict]:
    """DPPO's synchronous step: each worker's gradient on its own minibatch, averaged.

    Args:
      params: the shared parameters.
      minibatches: the minibatch of each worker, every array (W, M, ...).

    Returns:
      The mean over workers of the gradients of `ppo_loss`, and of its metrics.
    """

    def worker_gradient(minibatch):
        grads, metrics = jax.grad(ppo_loss, has_aux=True)(params, minibatch, config)
        return jax.lax.pmean((grads, metrics), axis_name="workers")

    return jax.vmap(worker_gradient, out_axes=None, axis_name="workers")(minibatches)


@functools.partial(jax.jit, static_argnames="config")
def update(
    params: dict,
    optimizer_state,
    rollout: Rollout,
    bootstrap_value: jax.Array,
    key: jax.Array,
    config: Config,
):
    """`update_epochs` x `num_minibatches` gradient steps on one rollout.

    Returns new parameters, optimiser state, and metrics averaged over all steps.
    """
    advantages, returns = gae(rollout, bootstrap_value, config.discount, config.gae_lambda)
    steps, num_envs = rollout.reward.shape
    workers = config.num_workers
    per_worker = steps * (num_envs // workers)

    def by_worker(array):
        # (T, K, ...) -> (W, T * K / W, ...): worker w owns copies [w K/W, (w+1) K/W).
        array = array.reshape(steps, workers, num_envs // workers, *array.shape[2:])
        return jnp.moveaxis(array, 1, 0).reshape(workers, per_worker, *array.shape[3:])

    data = {
        "observation": by_worker(rollout.observation),
        "action": by_worker(rollout.action),
        "log_prob": by_worker(rollout.log_prob),
        "advantage": by_worker(advantages),
        "return": by_worker(returns),
        "valid": by_worker(rollout.valid.astype(jnp.float32)),
    }
    optimizer = _optimizer(config)
    minibatch_size = per_worker // config.num_minibatches

    def gradient_step(carry, minibatch):
        params, optimizer_state = carry
        grads, metrics = averaged_gradient(params, minibatch, config)
        updates, optimizer_state = optimizer.update(grads, optimizer_state, params)
        return (optax.apply_updates(params, updates), optimizer_state), metrics

    def epoch(carry, epoch_key):
        # Each worker shuffles its own data with its own key.
        permutations = jax.vmap(lambda k: jax.random.permutation(k, per_worker))(
            jax.random.split(epoch_key, workers)
        )
        shuffled = jax.tree.map(
            lambda array: jax.vmap(lambda a, p: a[p])(array, permutations), data
        )
        minibatches = jax.tree.map(
            lambda array: jnp.moveaxis(
                array.reshape(workers, config.num_minibatches, minibatch_size, *array.shape[2:]),
                1,
                0,
            ),
            shuffled,
        )
        return jax.lax.scan(gradient_step, carry, minibatches)

    (params, optimizer_state), metrics = jax.lax.scan(
        epoch, (params, optimizer_state), jax.random.split(key, config.update_epochs)
    )
    return params, optimizer_state, jax.tree.map(jnp.mean, metrics)


# ---------------------------------------------------------------------------- policies


@jax.jit
def behaviour_policy(params: dict, observation: jax.Array, key: jax.Array):
    """Sampled actions a ~ N(mean(s), std^2) for normalised flat observations (N, D).

    Pure: returns the unclipped unit-space actions (N, A), their log-densities (N,),
    the values V(s) (N,) and the key to use next.
    """
    key, noise_key = jax.random.split(key)
    mean = policy_mean(params, observation)
    std = jnp.exp(params["log_std"])
    action = mean + std * jax.random.normal(noise_key, mean.shape, mean.dtype)
    return (
        action,
        gaussian_log_prob(mean, params["log_std"], action),
        value_apply(params, observation),
        key,
    )


_value = jax.jit(value_apply)
_greedy = jax.jit(policy_mean)


def evaluation_policy(
    boundary: specs.Boundary,
    params: dict,
    statistics: normalizer.RunningMeanStd,
    observation_clip: float,
) -> Callable[[object], np.ndarray]:
    """The deterministic (mean) policy of these parameters and observation statistics."""

    def act_greedily(observation) -> np.ndarray:
        flat = boundary.observations(observation)
        return boundary.actions(_greedy(params, statistics.normalize(flat, observation_clip)))

    return act_greedily


# ----------------------------------------------------------------------------- learner


class Learner:
    """Owns the parameters, the optimiser state and the update counter; updates them.

    Acme's learner role: it sees rollouts, never environments.

    Args:
      config: hyperparameters.
      observation_size, action_size: D and A of the flat vectors.
      seed: initialises the networks.
    """

    def __init__(self, config: Config, observation_size: int, action_size: int, seed: int):
        self._config = config
        self.params = init_params(
            np.random.default_rng(seed), config, observation_size, action_size
        )
        self.optimizer_state = _init_optimizer(self.params, config)
        self.num_updates = 0

    def step(self, rollout: Rollout, bootstrap_value: jax.Array, key: jax.Array) -> dict:
        """`update_epochs` x `num_minibatches` gradient steps on one rollout; its metrics."""
        self.params, self.optimizer_state, metrics = update(
            self.params, self.optimizer_state, rollout, bootstrap_value, key, config=self._config
        )
        self.num_updates += self._config.update_epochs * self._config.num_minibatches
        return metrics

    def state_dict(self) -> dict:
        return {
            "params": jax.device_get(self.params),
            "optimizer": jax.device_get(self.optimizer_state),
            "num_updates": self.num_updates,
        }

    def load_state_dict(self, state: dict) -> None:
        params = jax.tree.map(jnp.asarray, state["params"])
        if jax.tree.map(jnp.shape, params) != jax.tree.map(jnp.shape, self.params):
            raise ValueError(
                "checkpointed PPO parameters do not match this configuration's network shapes."
            )
        self.params = params
        self.optimizer_state = jax.tree.map(jnp.asarray, state["optimizer"])
        self.num_updates = int(state["num_updates"])


# ------------------------------------------------------------------------------- agent


def _set_up(agent, config: Config, observation_spec, action_spec, num_envs, seed: int) -> None:
    """What `PPO` and `DevicePPO` set alike: the checked config, the spec boundary, the
    rollout length per copy, the learner and the sampling key."""
    if not isinstance(config, Config):
        raise TypeError(f"config is {type(config).__name__}; expected agents.ppo.Config.")
    num_envs = int(num_envs)
    check_sizes(config, num_envs)
    agent.config = config
    agent.boundary = specs.boundary(observation_spec, action_spec)
    agent.layout, agent.bounds = agent.boundary.layout, agent.boundary.bounds
    agent.num_envs = num_envs
    agent._rollout_length = config.rollout_steps // num_envs
    agent.learner = Learner(config, agent.layout.size, agent.bounds.size, seed)
    agent._key = jax.random.PRNGKey(seed)


class PPO:
    """The acting and learning agent, run by agents.loop over a batched environment.

    Args:
      config: hyperparameters.
      observation_spec, action_spec: the environment's dm_env specs (of one copy).
      num_envs: K; must be a multiple of config.num_workers, and K must divide
        config.rollout_steps.
      seed: seeds the network initialisation, action sampling and minibatch order.
    """

    metric_names = ("policy_loss", "value_loss", "entropy", "approx_kl", "clip_fraction")

    def __init__(self, config: Config, observation_spec, action_spec, num_envs: int, seed: int):
        _set_up(self, config, observation_spec, action_spec, num_envs, seed)
        self._observations = normalizer.RunningMeanStd((self.layout.size,))
        # Only 'running_std' reads its statistics; 'fixed' keeps it (empty) so that
        # checkpoints have one layout.
        self._rewards = normalizer.DiscountedReturnScale(self.num_envs, config.discount)
        self._rollout = []
        self._acted = None

    @property
    def num_updates(self) -> int:
        return self.learner.num_updates

    def act(self, observation) -> np.ndarray:
        """Sampled actions (N, *action_shape) in the environment's units."""
        flat = self.boundary.observations(observation, self.num_envs)
        self._observations.update(flat)
        normalized = self._observations.normalize(flat, self.config.observation_clip)
        action, log_prob, value, self._key = behaviour_policy(
            self.learner.params, normalized, self._key
        )
        self._acted = (normalized, np.asarray(action), np.asarray(log_prob), np.asarray(value))
        return self.boundary.actions(self._acted[1])

    def observe(self, timestep, actions, next_timestep) -> dict[str, float]:
        """Stores the step; after `rollout_steps` environment steps, updates.

        `actions` must be what `act` returned for `timestep`; the sampled unclipped
        actions and their log-probabilities are taken from that call.
        """
        if self._acted is None:
            raise ValueError("observe() was called without a preceding act().")
        normalized, action, log_prob, value = self._acted
        self._acted = None
        valid = ~np.asarray(timestep.last())
        if self.config.reward_normalization == "running_std":
            reward = self._rewards.scale(next_timestep.reward, np.asarray(timestep.first()), valid)
        else:
            reward = self.config.reward_scale * np.where(
                valid, np.asarray(next_timestep.reward, np.float32), 0.0
            )
        self._rollout.append(
            Rollout(
                observation=normalized,
                action=action,
                log_prob=log_prob,
                value=value,
                reward=np.clip(reward, -self.config.reward_clip, self.config.reward_clip),
                discount=np.asarray(next_timestep.discount, np.float32),
                next_is_last=np.asarray(next_timestep.last(), np.float32),
                valid=valid,
            )
        )
        if len(self._rollout) < self._rollout_length:
            return {}
        rollout = Rollout(*(np.stack(field) for field in zip(*self._rollout)))
        self._rollout = []
        next_flat = self.boundary.observations(next_timestep.observation, self.num_envs)
        bootstrap_value = _value(
            self.learner.params,
            self._observations.normalize(next_flat, self.config.observation_clip),
        )
        self._key, update_key = jax.random.split(self._key)
        metrics = self.learner.step(rollout, bootstrap_value, update_key)
        return {name: float(metrics[name]) for name in self.metric_names}

    def policy(self) -> Callable[[object], np.ndarray]:
        """The deterministic (mean) policy of a snapshot of parameters and statistics."""
        statistics = normalizer.RunningMeanStd((self.layout.size,))
        statistics.load_state_dict(self._observations.state_dict())
        return evaluation_policy(
            self.boundary, self.learner.params, statistics, self.config.observation_clip
        )

    def load_observation_statistics(self, state: dict) -> None:
        """Sets the running observation statistics (e.g. a DPPO chief's, for evaluation)."""
        self._observations.load_state_dict(state)

    def state_dict(self) -> dict:
        """Everything needed to continue exactly, including a partly collected rollout."""
        learner = self.learner.state_dict()
        return {
            "params": learner["params"],
            "optimizer": learner["optimizer"],
            "key": np.asarray(self._key),
            "observations": self._observations.state_dict(),
            "rewards": self._rewards.state_dict(),
            "rollout": [step._asdict() for step in self._rollout],
            "num_updates": learner["num_updates"],
        }

    def load_state_dict(self, state: dict) -> None:
        self.learner.load_state_dict(state)
        self._key = jnp.asarray(state["key"])
        self._observations.load_state_dict(state["observations"])
        self._rewards.load_state_dict(state["rewards"])
        self._rollout = [Rollout(**step) for step in state["rollout"]]


# ------------------------------------------------------------------- on the device


class DeviceStatistics(NamedTuple):
    """Running mean and population variance kept on the device (float32 unless
    jax_enable_x64); the sample count, which only grows by numbers the host knows,
    stays on the host (`DevicePPO`)."""

    mean: jax.Array
    variance: jax.Array


def merge_statistics(
    statistics: DeviceStatistics,
    batch_mean: jax.Array,
    batch_variance: jax.Array,
    batch_weight: jax.Array,
) -> DeviceStatistics:
    """Chan, Golub and LeVeque's merge (agents/normalizer.py) written with variances:
    w = batch count / (count + batch count) is computed on the host from the counts,
    mean' = mean + w delta and var' = (1 - w) var + w batch_var + w (1 - w) delta^2."""
    delta = batch_mean - statistics.mean
    return DeviceStatistics(
        mean=statistics.mean + batch_weight * delta,
        variance=(1.0 - batch_weight) * statistics.variance
        + batch_weight * batch_variance
        + batch_weight * (1.0 - batch_weight) * jnp.square(delta),
    )


def device_normalize(statistics: DeviceStatistics, values: jax.Array, clip: float) -> jax.Array:
    """(values - mean) / sqrt(variance + 1e-8), clipped to [-clip, clip], as float32
    (`RunningMeanStd.normalize` on the device)."""
    scaled = (values - statistics.mean) / jnp.sqrt(statistics.variance + 1e-8)
    return jnp.clip(scaled, -clip, clip).astype(jnp.float32)


def flatten_on_device(observation, keys: tuple[str, ...] | None, num_envs: int) -> jax.Array:
    """A batched observation (dict in `keys` order, or one array) as (N, D) float32,
    in the order of `specs.flatten_observation`, with JAX operations."""
    parts = [observation] if keys is None else [observation[key] for key in keys]
    return jnp.concatenate(
        [jnp.reshape(jnp.asarray(part, jnp.float32), (num_envs, -1)) for part in parts], axis=1
    )


def device_action_box(bounds: specs.ActionBounds) -> tuple[jax.Array, jax.Array]:
    """The action box in float32 with its bounds rounded inward: every float32 value
    in it lies within the spec's (float64) bounds, so the environment accepts it."""
    low = bounds.minimum.astype(np.float32)
    high = bounds.maximum.astype(np.float32)
    low = np.where(low < bounds.minimum, np.nextafter(low, np.float32(np.inf)), low)
    high = np.where(high > bounds.maximum, np.nextafter(high, np.float32(-np.inf)), high)
    return jnp.asarray(low), jnp.asarray(high)


@functools.partial(jax.jit, static_argnames=("keys", "num_envs", "observation_clip"))
def device_act(
    params: dict,
    statistics: DeviceStatistics,
    observation,
    batch_weight: jax.Array,
    key: jax.Array,
    box: tuple[jax.Array, jax.Array],
    *,
    keys: tuple[str, ...] | None,
    num_envs: int,
    observation_clip: float,
):
    """`PPO.act` as one function on the device: the observation statistics take the
    batch in (unless it holds a value that is not finite: then they stay, and
    `finite` says so), the batch is normalised with them, and the behaviour policy
    samples. Returns (normalised observations, unit actions, log-densities, values,
    next key, statistics, finite, actions in the environment's box (N, A))."""
    flat = flatten_on_device(observation, keys, num_envs)
    finite = jnp.all(jnp.isfinite(flat))
    merged = merge_statistics(statistics, flat.mean(axis=0), flat.var(axis=0), batch_weight)
    statistics = jax.tree.map(lambda new, old: jnp.where(finite, new, old), merged, statistics)
    normalized = device_normalize(statistics, flat, observation_clip)
    action, log_prob, value, key = behaviour_policy(params, normalized, key)
    low, high = box
    # ActionBounds.to_env in float32: [-1, 1] onto the box, kept within it.
    unit = jnp.clip(action, -1.0, 1.0)
    env_action = jnp.clip(low + 0.5 * (unit + 1.0) * (high - low), low, high)
    return normalized, action, log_prob, value, key, statistics, finite, env_action


@functools.partial(
    jax.jit, static_argnames=("discount", "running_std", "reward_scale", "reward_clip")
)
def device_rewards(
    returns: jax.Array,
    statistics: DeviceStatistics,
    reward: jax.Array,
    first: jax.Array,
    valid: jax.Array,
    batch_weight: jax.Array,
    scale_ready: jax.Array,
    *,
    discount: float,
    running_std: bool,
    reward_scale: float,
    reward_clip: float,
):
    """`PPO.observe`'s reward scaling on the device (`DiscountedReturnScale.scale`
    with 'running_std', the constant factor with 'fixed'), clipped to +-reward_clip.
    Returns (scaled rewards, discounted returns, return statistics)."""
    reward = jnp.where(valid, jnp.asarray(reward, jnp.float32), 0.0)
    if not running_std:
        return jnp.clip(reward_scale * reward, -reward_clip, reward_clip), returns, statistics
    updated = jnp.where(first, 0.0, returns) * discount + reward
    returns = jnp.where(valid, updated, returns)
    mask = valid.astype(returns.dtype)
    count = jnp.maximum(jnp.sum(mask), 1.0)
    batch_mean = jnp.sum(mask * returns) / count
    batch_variance = jnp.sum(mask * jnp.square(returns - batch_mean)) / count
    statistics = merge_statistics(statistics, batch_mean, batch_variance, batch_weight)
    scaled = jnp.where(scale_ready, reward / jnp.sqrt(statistics.variance + 1e-8), reward)
    return jnp.clip(scaled, -reward_clip, reward_clip), returns, statistics


_device_normalize = jax.jit(device_normalize, static_argnames="clip")


class DevicePPO:
    """PPO with its rollout on the device: `PPO`'s algorithm, hyperparameters and
    checkpoint layout, for a batched environment whose TimeSteps are JAX arrays (the
    Warp backend with `WarpOptions(array_module="jax", return_jax=True)`, or any other).

    Acting reads the JAX observations where they are: flattening, the running
    observation statistics, normalisation, the Gaussian sample and the map to the
    action box are one jitted function (`device_act`) whose actions go back to the
    environment as a JAX array. The reward scaling (`device_rewards`), the rollout
    buffer (JAX arrays, stacked on the device), GAE and the update (`update`, as
    `PPO`'s) stay there too. What the host keeps is what it already knows: the sample
    counts of the running statistics and which copies start or end an episode
    (`timestep.first()` / `last()`, NumPy bools from the batch). Nothing is read back
    per step; once per update the metrics are, and whether an observation was not
    finite. `PPO` raises at once on such an observation; here the statistics leave
    that batch out, the copy's action is NaN (which this project's batches refuse,
    naming the copy), and the end of the rollout raises.

    The statistics are float32 on the device (float64 on the host in `PPO`), so the
    two agents agree in distribution, not bit for bit; the same seed repeats a run
    exactly. Args as `PPO`'s.
    """

    metric_names = PPO.metric_names

    def __init__(self, config: Config, observation_spec, action_spec, num_envs: int, seed: int):
        _set_up(self, config, observation_spec, action_spec, num_envs, seed)
        self._box = device_action_box(self.bounds)
        size = self.layout.size
        self._observation_count = 0.0
        self._observations = DeviceStatistics(jnp.zeros((size,)), jnp.ones((size,)))
        self._return_count = 0.0
        self._return_statistics = DeviceStatistics(jnp.zeros(()), jnp.ones(()))
        self._returns = jnp.zeros((self.num_envs,))
        self._all_finite = jnp.asarray(True)
        self._rollout: list[Rollout] = []
        self._acted = None

    @property
    def num_updates(self) -> int:
        return self.learner.num_updates

    def act(self, observation) -> jax.Array:
        """Sampled actions (N, A) in the environment's units, as a JAX array."""
        self._observation_count += self.num_envs
        outputs = device_act(
            self.learner.params,
            self._observations,
            observation,
            jnp.float32(self.num_envs / self._observation_count),
            self._key,
            self._box,
            keys=self.layout.keys,
            num_envs=self.num_envs,
            observation_clip=self.config.observation_clip,
        )
        normalized, action, log_prob, value, self._key, self._observations, finite, env_action = (
            outputs
        )
        self._all_finite = self._all_finite & finite
        self._acted = (normalized, action, log_prob, value)
        return jnp.reshape(env_action, (self.num_envs, *self.bounds.shape))

    def observe(self, timestep, actions, next_timestep) -> dict[str, float]:
        """Stores the step on the device; after `rollout_steps` environment steps,
        updates (see `PPO.observe`)."""
        if self._acted is None:
            raise ValueError("observe() was called without a preceding act().")
        normalized, action, log_prob, value = self._acted
        self._acted = None
        valid = ~np.asarray(timestep.last())
        count = int(np.count_nonzero(valid))
        running_std = self.config.reward_normalization == "running_std"
        weight = 0.0
        if running_std and count:
            self._return_count += count
            weight = count / self._return_count
        reward, self._returns, self._return_statistics = device_rewards(
            self._returns,
            self._return_statistics,
            next_timestep.reward,
            jnp.asarray(np.asarray(timestep.first())),
            jnp.asarray(valid),
            jnp.float32(weight),
            jnp.asarray(self._return_count >= 2),
            discount=self.config.discount,
            running_std=running_std,
            reward_scale=self.config.reward_scale,
            reward_clip=self.config.reward_clip,
        )
        self._rollout.append(
            Rollout(
                observation=normalized,
                action=action,
                log_prob=log_prob,
                value=value,
                reward=reward,
                discount=jnp.asarray(next_timestep.discount, jnp.float32),
                next_is_last=jnp.asarray(np.asarray(next_timestep.last(), np.float32)),
                valid=jnp.asarray(valid),
            )
        )
        if len(self._rollout) < self._rollout_length:
            return {}
        rollout = Rollout(*(jnp.stack(field) for field in zip(*self._rollout)))
        self._rollout = []
        next_flat = flatten_on_device(next_timestep.observation, self.layout.keys, self.num_envs)
        bootstrap_value = _value(
            self.learner.params,
            _device_normalize(self._observations, next_flat, clip=self.config.observation_clip),
        )
        self._key, update_key = jax.random.split(self._key)
        metrics = jax.device_get(self.learner.step(rollout, bootstrap_value, update_key))
        all_finite, self._all_finite = bool(jax.device_get(self._all_finite)), jnp.asarray(True)
        if not all_finite:
            raise ValueError(
                "an observation of this rollout held NaN or infinite values; the running "
                "observation statistics left those batches out."
            )
        return {name: float(metrics[name]) for name in self.metric_names}

    def _host_observation_statistics(self) -> dict:
        mean, variance = jax.device_get(self._observations)
        return _host_statistics(self._observation_count, mean, variance)

    def policy(self) -> Callable[[object], np.ndarray]:
        """The deterministic (mean) policy of a snapshot of parameters and statistics
        (on the host, as `PPO.policy`: evaluation runs single environments)."""
        statistics = normalizer.RunningMeanStd((self.layout.size,))
        statistics.load_state_dict(self._host_observation_statistics())
        return evaluation_policy(
            self.boundary, self.learner.params, statistics, self.config.observation_clip
        )

    def load_observation_statistics(self, state: dict) -> None:
        """Sets the running observation statistics (a `RunningMeanStd.state_dict()`)."""
        self._observation_count, self._observations = _device_statistics(state)

    def state_dict(self) -> dict:
        """`PPO.state_dict()`'s layout and dtypes: either agent loads the other's."""
        learner = self.learner.state_dict()
        return_mean, return_variance = jax.device_get(self._return_statistics)
        rewards = normalizer.DiscountedReturnScale(self.num_envs, self.config.discount)
        rewards.returns = np.asarray(jax.device_get(self._returns), np.float64)
        return {
            "params": learner["params"],
            "optimizer": learner["optimizer"],
            "key": np.asarray(self._key),
            "observations": self._host_observation_statistics(),
            "rewards": {
                "returns": rewards.returns,
                "statistics": _host_statistics(self._return_count, return_mean, return_variance),
            },
            "rollout": [
                {name: np.asarray(value) for name, value in step._asdict().items()}
                for step in jax.device_get(self._rollout)
            ],
            "num_updates": learner["num_updates"],
        }

    def load_state_dict(self, state: dict) -> None:
        self.learner.load_state_dict(state)
        self._key = jnp.asarray(state["key"])
        self._observation_count, self._observations = _device_statistics(state["observations"])
        rewards = state["rewards"]
        self._returns = jnp.asarray(np.asarray(rewards["returns"]), jnp.float32)
        self._return_count, self._return_statistics = _device_statistics(rewards["statistics"])
        self._rollout = [
            Rollout(**{name: jnp.asarray(value) for name, value in step.items()})
            for step in state["rollout"]
        ]


def _host_statistics(count: float, mean, variance) -> dict:
    """A `RunningMeanStd.state_dict()` of device statistics (M2 = variance * count)."""
    mean = np.asarray(mean, np.float64)
    m2 = np.asarray(variance, np.float64) * count if count else np.zeros_like(mean)
    return {"count": float(count), "mean": mean, "m2": m2}


def _device_statistics(state: dict) -> tuple[float, DeviceStatistics]:
    """(count, statistics on the device) of a `RunningMeanStd.state_dict()`."""
    count = float(state["count"])
    mean = np.asarray(state["mean"], np.float64)
    variance = np.asarray(state["m2"], np.float64) / count if count else np.ones_like(mean)
    return count, DeviceStatistics(
        jnp.asarray(mean, jnp.float32), jnp.asarray(variance, jnp.float32)
    )


def check_sizes(config: Config, num_envs: int) -> None:
    """Raises unless K = num_envs copies fit the configuration's rollout and workers."""
    if num_envs % config.num_workers:
        raise ValueError(
            f"num_envs {num_envs} is not a multiple of num_workers {config.num_workers}; "
            "each DPPO worker owns an equal share of the environment copies."
        )
    if config.rollout_steps % num_envs:
        raise ValueError(
            f"rollout_steps {config.rollout_steps} is not a multiple of num_envs {num_envs}."
        )
    samples_per_worker = config.rollout_steps // config.num_workers
    if samples_per_worker % config.num_minibatches:
        raise ValueError(
            f"each worker's {samples_per_worker} samples per rollout do not split into "
            f"num_minibatches {config.num_minibatches} equal minibatches."
        )
