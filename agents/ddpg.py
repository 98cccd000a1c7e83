"""Deep Deterministic Policy Gradient (DDPG) as rllab benchmarks it, in one file.

Lillicrap, Hunt, Pritzel, Heess, Erez, Tassa, Silver and Wierstra, "Continuous
control with deep reinforcement learning", ICLR 2016; Duan et al., ICML 2016,
section 4.2, which uses Lillicrap et al.'s hyperparameters. The online
algorithm of the benchmark:

  * a deterministic actor mu(s) = tanh(MLP(s)) in unit action space and a critic
    Q(s, a), each with hidden layers of 400 and 300 ReLU units; the action enters
    the critic at its second layer (Lillicrap et al., section 7);
  * exploration with Ornstein-Uhlenbeck noise (theta 0.15, sigma 0.2), one
    process per environment copy, restarted with each episode;
  * every environment step stores the transition in a replay buffer
    (agents/replay.py) and takes one gradient step per stored transition on a
    minibatch: the critic minimises (y - Q(s, a))^2 with
    y = r + gamma d Q'(s', mu'(s')) from target networks (plus an L2 weight decay),
    the actor ascends Q(s, mu(s));
  * the target networks track the online ones by Polyak averaging with rate tau
    (`d4pg.update_target`, 'soft').

For the benchmark's table an "iteration" is `Sampling.steps_per_iteration`
environment steps, and its return is the mean undiscounted return of the
exploring episodes that ran in it, as for the batch algorithms.
"""

import dataclasses
import functools
import time
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
import optax

from agents import d4pg, networks, policy_search, replay, specs

_LAST = 2  # dm_env.StepType.LAST
PRESETS: dict[str, dict] = {}  # the paper uses Lillicrap et al.'s values on every task.


@dataclasses.dataclass(frozen=True)
class Config:
    """DDPG settings: Lillicrap et al. (2016), section 7, unless noted.

    actor_learning_rate, critic_learning_rate: Adam, 1e-4 and 1e-3.
    critic_weight_decay: L2 penalty 1e-2 on the critic's weights.
    discount: gamma 0.99. target_update_rate: tau 0.001.
    batch_size: 64. replay_capacity: 1e6.
    min_replay_size: transitions stored before learning starts (rllab's
      min_pool_size, 10000).
    hidden_sizes: (400, 300), ReLU.
    ou_theta, ou_sigma: the exploration noise, 0.15 and 0.2 (unit action space).
    target_update: 'soft', read by `d4pg.update_target`.
    """

    actor_learning_rate: float = 1e-4
    critic_learning_rate: float = 1e-3
    critic_weight_decay: float = 1e-2
    discount: float = 0.99
    target_update_rate: float = 1e-3
    batch_size: int = 64
    replay_capacity: int = 1_000_000
    min_replay_size: int = 10_000
    hidden_sizes: tuple[int, int] = (400, 300)
    ou_theta: float = 0.15
    ou_sigma: float = 0.2
    target_update: str = "soft"

    def __post_init__(self):
        for name in ("actor_learning_rate", "critic_learning_rate", "target_update_rate"):
            if not getattr(self, name) > 0:
                raise ValueError(f"{name} is {getattr(self, name)}; expected > 0.")
        if self.target_update != "soft":
            raise ValueError(f"target_update is {self.target_update!r}; DDPG uses 'soft'.")
        if len(self.hidden_sizes) != 2:
            raise ValueError(f"hidden_sizes is {self.hidden_sizes}; expected two layer sizes.")
        if self.batch_size < 1 or self.min_replay_size < 1 or self.replay_capacity < 1:
            raise ValueError("batch_size, min_replay_size and replay_capacity must be >= 1.")
        if not 0 < self.discount <= 1:
            raise ValueError(f"discount is {self.discount}; expected in (0, 1].")


class LearnerState(NamedTuple):
    actor: networks.Params
    critic: dict
    target_actor: networks.Params
    target_critic: dict
    actor_optimizer: optax.OptState
    critic_optimizer: optax.OptState


def init_learner(
    rng: np.random.Generator, config: Config, observation_size: int, action_size: int
) -> LearnerState:
    """Lillicrap et al.'s initialisation: hidden layers U(+-1/sqrt(fan_in)), last U(+-3e-3)."""
    first, second = config.hidden_sizes
    actor = networks.mlp_init(
        rng,
        (observation_size, first, second, action_size),
        scheme="fan_in_uniform",
        final_scale=3e-3,
    )
    critic = {
        # A one-layer network's only layer is its "last": give it the hidden-layer range.
        "state": networks.mlp_init(
            rng,
            (observation_size, first),
            scheme="fan_in_uniform",
            final_scale=1.0 / np.sqrt(observation_size),
        ),
        "joint": networks.mlp_init(
            rng, (first + action_size, second, 1), scheme="fan_in_uniform", final_scale=3e-3
        ),
    }
    return LearnerState(
        actor=actor,
        critic=critic,
        target_actor=actor,
        target_critic=critic,
        actor_optimizer=optax.adam(config.actor_learning_rate).init(actor),
        critic_optimizer=optax.adam(config.critic_learning_rate).init(critic),
    )


def critic_apply(params: dict, observation: jax.Array, action: jax.Array) -> jax.Array:
    """Q(s, a), shape (B,): the action joins the first hidden layer's output."""
    hidden = jax.nn.relu(networks.mlp_apply(params["state"], observation))
    return networks.mlp_apply(params["joint"], jnp.concatenate([hidden, action], axis=-1))[..., 0]


def critic_loss(
    critic: dict, state: LearnerState, batch: replay.Transitions, weight_decay: float
) -> jax.Array:
    """The critic's mean squared error against the target networks' one-step
    target, plus `weight_decay` times the sum of its squared weights."""
    next_q = critic_apply(
        state.target_critic,
        batch.next_observation,
        d4pg.actor_apply(state.target_actor, batch.next_observation),
    )
    target = jax.lax.stop_gradient(batch.reward + batch.discount * next_q)
    squared_error = jnp.mean((target - critic_apply(critic, batch.observation, batch.action)) ** 2)
    weights = [layer["w"] for part in critic.values() for layer in part]
    return squared_error + weight_decay * sum(jnp.sum(w**2) for w in weights)


def actor_loss(actor: networks.Params, critic: dict, observation: jax.Array) -> jax.Array:
    """Minus the mean Q value of the actor's actions (the deterministic policy gradient)."""
    return -jnp.mean(critic_apply(critic, observation, d4pg.actor_apply(actor, observation)))


def update(
    state: LearnerState, batch: replay.Transitions, config: Config
) -> tuple[LearnerState, dict]:
    """One step on critic and actor from the same minibatch, then the soft target update."""
    critic_value, critic_grads = jax.value_and_grad(critic_loss)(
        state.critic, state, batch, config.critic_weight_decay
    )
    actor_value, actor_grads = jax.value_and_grad(actor_loss)(
        state.actor, state.critic, batch.observation
    )
    critic_updates, critic_optimizer = optax.adam(config.critic_learning_rate).update(
        critic_grads, state.critic_optimizer
    )
    actor_updates, actor_optimizer = optax.adam(config.actor_learning_rate).update(
        actor_grads, state.actor_optimizer
    )
    critic = optax.apply_updates(state.critic, critic_updates)
    actor = optax.apply_updates(state.actor, actor_updates)
    no_updates = jnp.zeros((), jnp.int32)  # read only by d4pg's 'periodic' targets
    new_state = LearnerState(
        actor=actor,
        critic=critic,
        target_actor=d4pg.update_target(state.target_actor, actor, no_updates, config),
        target_critic=d4pg.update_target(state.target_critic, critic, no_updates, config),
        actor_optimizer=actor_optimizer,
        critic_optimizer=critic_optimizer,
    )
    return new_state, {"critic_loss": critic_value, "q_mean": -actor_value}


@functools.partial(jax.jit, static_argnames="config")
def _update_many(state: LearnerState, batches: replay.Transitions, config: Config):
    """`update` once per leading-axis slice of `batches`, in order."""

    def step(carry, batch):
        return update(carry, batch, config)

    state, metrics = jax.lax.scan(step, state, batches)
    return state, jax.tree.map(jnp.mean, metrics)


_actor = jax.jit(d4pg.actor_apply)


def train(
    env,
    config: Config | None = None,
    sampling: policy_search.Sampling | None = None,
    num_iterations: int = 500,
    seed: int = 0,
    on_iteration=None,
) -> tuple[LearnerState, list[policy_search.Iteration]]:
    """Runs DDPG on a batched environment; returns the learner state and iteration logs.

    Episodes run in rounds of `num_envs` copies reset together, each at most
    `sampling.horizon` steps; a time-limit end keeps the bootstrap (discount gamma),
    a termination (environment discount 0) does not.
    """
    config = Config() if config is None else config
    sampling = policy_search.Sampling() if sampling is None else sampling
    if num_iterations < 1:
        raise ValueError(f"num_iterations is {num_iterations}; expected at least 1.")
    observation_size, action_size = policy_search.check_env(env, sampling)
    layout = specs.observation_layout(env.observation_spec())
    bounds = specs.action_bounds(env.action_spec())
    rng = np.random.default_rng(seed)
    state = init_learner(rng, config, observation_size, action_size)
    buffer = replay.ReplayBuffer(config.replay_capacity, observation_size, action_size)
    n = env.num_envs
    logs, start = [], time.time()
    for iteration in range(num_iterations):
        episode_returns, steps, metric_sums, metric_count = [], 0, {}, 0
        while steps < sampling.steps_per_iteration:
            timestep = env.reset()
            observation = specs.flatten_observation(layout, timestep.observation, n)
            alive = np.ones(n, bool)
            noise = np.zeros((n, action_size), np.float32)
            totals = np.zeros(n)
            for _ in range(sampling.horizon):
                noise += (
                    -config.ou_theta * noise + config.ou_sigma * rng.standard_normal(noise.shape)
                ).astype(np.float32)
                action = np.clip(np.asarray(_actor(state.actor, observation)) + noise, -1.0, 1.0)
                timestep = env.step(bounds.to_env(action))
                next_observation = specs.flatten_observation(layout, timestep.observation, n)
                reward = np.asarray(timestep.reward, np.float32)
                buffer.add(
                    replay.Transitions(
                        observation=observation[alive],
                        action=action[alive],
                        reward=reward[alive],
                        discount=(config.discount * np.asarray(timestep.discount, np.float32))[
                            alive
                        ],
                        next_observation=next_observation[alive],
                    )
                )
                totals += np.where(alive, reward, 0.0)
                num_new = int(alive.sum())
                steps += num_new
                if len(buffer) >= config.min_replay_size:
                    indices = rng.integers(0, len(buffer), size=(num_new, config.batch_size))
                    batches = buffer.get(indices)
                    state, metrics = _update_many(state, batches, config)
                    for key, value in metrics.items():
                        metric_sums[key] = metric_sums.get(key, 0.0) + float(value) * num_new
                    metric_count += num_new
                alive &= np.asarray(timestep.step_type) != _LAST
                if not alive.any():
                    break
                observation = next_observation
            episode_returns.extend(totals.tolist())
        metrics = {key: value / metric_count for key, value in metric_sums.items()}
        logs.append(
            policy_search.Iteration(
                iteration=iteration,
                average_return=float(np.mean(episode_returns)),
                num_trajectories=len(episode_returns),
                env_steps=steps,
                wall_time_s=time.time() - start,
                metrics=metrics,
            )
        )
        if on_iteration is not None:
            on_iteration(logs[-1])
    return state, logs
