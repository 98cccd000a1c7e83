"""D4PG: distributed distributional deterministic policy gradients, in one file.

Barth-Maron, Hoffman, Budden, Dabney, Horgan, TB, Muldal, Heess and Lillicrap,
"Distributed Distributional Deterministic Policy Gradients", ICLR 2018.

What this file implements, in reading order:

  1. `Config`: hyperparameters, the paper's where it gives them.
  2. Networks: a deterministic actor a = tanh(MLP(s)) acting in unit action space
     [-1, 1]^A, and a critic whose output is a categorical distribution over
     `num_atoms` fixed returns z_i evenly spaced on [v_min, v_max] (the C51
     parameterisation of Bellemare, Dabney and Munos 2017).
  3. `categorical_projection`: the projection Phi of Bellemare et al. (2017,
     Algorithm 1) of a distribution with moved atoms back onto the fixed support.
  4. The learner step: the critic minimises the cross-entropy between its
     distribution Z(s, a) and the projected N-step target
     Phi(R + gamma^N d Z'(s_N, pi'(s_N))), built with target networks; the actor
     ascends Q(s, pi(s)) = sum_i p_i(s, pi(s)) z_i. Target networks are copied every
     `target_update_period` updates (the paper's Algorithm 1), or Polyak-averaged
     with `target_update='soft'`.
  5. The roles, as Acme separates them: the pure `behaviour_policy` (Gaussian
     exploration noise, sigma = 0.3 in unit action space) and `evaluation_policy`
     (the deterministic actor), and the `Learner`, which owns the learner state and
     its update.
  6. `D4PG`: the single-process agent composing them: acting, writing N-step
     transitions (N = 5) into uniform or prioritised replay (priority = the
     per-sample cross-entropy, the distributional TD error), and updating
     `updates_per_transition` times per transition inserted (samples per insert =
     updates_per_transition x batch_size), `updates_per_call` updates at a time in
     one jitted `jax.lax.scan` (`update_many`), so that Python dispatches one call
     per K updates rather than one per update.

Here the "K parallel actors" are K copies of a batched environment (see
agents/vector.py) acting with the current parameters in the same process. The
paper's asynchronous actors, on slightly stale parameters, run on Ray in
agents/distributed.py, with these same policies and this same `Learner`.
"""

import dataclasses
import functools
from collections.abc import Callable
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
import optax

from agents import networks, replay, specs


@dataclasses.dataclass(frozen=True)
class Config:
    """D4PG hyperparameters.

    Paper values (Barth-Maron et al. 2018, section 4): learning_rate 1e-4 for actor
    and critic, batch_size M = 256, n_step N = 5, sigma = 0.3, num_atoms 51 (101 for
    the humanoid-scale tasks), replay_capacity 1e6, target networks copied every
    100 updates. v_min/v_max = -150/150, first-layer layer norm and gradient norm
    clipping at 40 follow DeepMind's Acme implementation. Network sizes are smaller
    than Acme's (256, 256, 256) actor and (512, 512, 256) critic so that learning
    fits a 2-core CPU; `updates_per_transition` = 1 is ours (Acme samples 32 items
    per insert, one update per 8 transitions), chosen for sample efficiency at
    100k-step budgets.

    Attributes:
      learning_rate: Adam step size of both actor and critic.
      batch_size: transitions per update (M).
      n_step: N of the N-step return R = sum_{k<N} gamma^k r_k written into replay.
      discount: gamma per environment step, in [0, 1].
      sigma: standard deviation of the Gaussian exploration noise, in unit action
        space [-1, 1] (so 0.3 is 15% of the action range).
      num_atoms: number of atoms z_i of the critic's categorical distribution.
      v_min, v_max: the first and last atom (returns, in reward units).
      actor_hidden_sizes, critic_hidden_sizes: hidden layer widths; the first
        hidden layer is layer-normalised and tanh-activated, the others ReLU.
      max_grad_norm: global-norm clip of each network's parameter gradient.
      target_update: 'periodic' (copy every target_update_period updates) or
        'soft' (Polyak averaging with target_update_rate every update).
      target_update_period: updates between target copies ('periodic').
      target_update_rate: Polyak rate in (0, 1] ('soft').
      replay_capacity: transitions kept; the oldest are overwritten first.
      min_replay_size: transitions in replay before the first update.
      updates_per_transition: updates per transition inserted (fractions accrue);
        the samples-per-insert ratio is this times batch_size (`samples_per_insert`).
      updates_per_call: K, updates made in one jitted call (`update_many`, a
        `lax.scan` over K sampled batches). Updates owed wait until K are owed, so
        they run at most K - 1 updates late. With prioritised replay the K batches
        are sampled before any of their priorities are written back.
      prioritized_replay: sample proportionally to priority^priority_exponent
        (priority = the per-sample cross-entropy) instead of uniformly.
      priority_exponent: alpha of prioritised sampling.
      importance_exponent: beta of the importance weights (N P(i))^-beta.
    """

    learning_rate: float = 1e-4
    batch_size: int = 256
    n_step: int = 5
    discount: float = 0.99
    sigma: float = 0.3
    num_atoms: int = 51
    v_min: float = -150.0
    v_max: float = 150.0
    actor_hidden_sizes: tuple[int, ...] = (256, 256)
    critic_hidden_sizes: tuple[int, ...] = (256, 256)
    max_grad_norm: float = 40.0
    target_update: str = "periodic"
    target_update_period: int = 100
    target_update_rate: float = 0.005
    replay_capacity: int = 1_000_000
    min_replay_size: int = 1000
    updates_per_transition: float = 1.0
    updates_per_call: int = 1
    prioritized_replay: bool = False
    # Ape-X's values (Horgan et al. 2018), on which D4PG's distributed replay builds.
    priority_exponent: float = 0.6
    importance_exponent: float = 0.4

    def __post_init__(self):
        positive_ints = (
            "batch_size",
            "n_step",
            "num_atoms",
            "target_update_period",
            "replay_capacity",
            "min_replay_size",
            "updates_per_call",
        )
        for name in positive_ints:
            value = getattr(self, name)
            if not isinstance(value, int) or value < 1:
                raise ValueError(f"Config.{name} = {value!r}; expected a positive int.")
        if self.num_atoms < 2:
            raise ValueError(f"Config.num_atoms = {self.num_atoms}; expected at least 2.")
        if not self.v_min < self.v_max:
            raise ValueError(f"Config.v_min {self.v_min} must be below v_max {self.v_max}.")
        if not 0.0 <= self.discount <= 1.0:
            raise ValueError(f"Config.discount = {self.discount}; expected a value in [0, 1].")
        if self.target_update not in ("periodic", "soft"):
            raise ValueError(
                f"Config.target_update = {self.target_update!r}; expected 'periodic' or 'soft'."
            )
        if not 0.0 < self.target_update_rate <= 1.0:
            raise ValueError(
                f"Config.target_update_rate = {self.target_update_rate}; expected (0, 1]."
            )
        for name in ("learning_rate", "max_grad_norm", "updates_per_transition"):
            if not getattr(self, name) > 0:
                raise ValueError(f"Config.{name} = {getattr(self, name)}; expected > 0.")
        if self.sigma < 0:
            raise ValueError(f"Config.sigma = {self.sigma}; expected >= 0.")
        for name in ("actor_hidden_sizes", "critic_hidden_sizes"):
            sizes = getattr(self, name)
            if not sizes or any(not isinstance(size, int) or size < 1 for size in sizes):
                raise ValueError(f"Config.{name} = {sizes!r}; expected a tuple of positive ints.")

    @property
    def samples_per_insert(self) -> float:
        """Transitions sampled for learning per transition inserted into replay."""
        return self.updates_per_transition * self.batch_size

    @property
    def support(self) -> np.ndarray:
        """The critic's atoms z_i: num_atoms returns evenly spaced on [v_min, v_max]."""
        return np.linspace(self.v_min, self.v_max, self.num_atoms, dtype=np.float32)


# ----------------------------------------------------------------------------- networks


def actor_apply(params: networks.Params, observation: jax.Array) -> jax.Array:
    """Deterministic action in [-1, 1]^A for flat observations (B, D)."""
    return jnp.tanh(networks.mlp_apply(params, observation))


def critic_apply(params: networks.Params, observation: jax.Array, action: jax.Array) -> jax.Array:
    """Logits (B, num_atoms) of the return distribution of taking `action` in `observation`."""
    return networks.mlp_apply(params, jnp.concatenate([observation, action], axis=-1))


class LearnerState(NamedTuple):
    """Online and target networks, their Adam states, and the update counter."""

    actor: networks.Params
    critic: networks.Params
    target_actor: networks.Params
    target_critic: networks.Params
    actor_optimizer: optax.OptState
    critic_optimizer: optax.OptState
    num_updates: jax.Array


# Settings the learner step never reads. `learner_config` resets them so that agents
# differing only there (e.g. uniform and prioritised replay) share one compiled `update`.
_ACTING_AND_REPLAY_SETTINGS = (
    "sigma",
    "n_step",
    "discount",
    "replay_capacity",
    "min_replay_size",
    "updates_per_transition",
    "updates_per_call",
    "prioritized_replay",
    "priority_exponent",
    "importance_exponent",
)


def learner_config(config: Config) -> Config:
    """The configuration `update` is compiled for: acting and replay settings reset."""
    defaults = Config()
    return dataclasses.replace(
        config, **{name: getattr(defaults, name) for name in _ACTING_AND_REPLAY_SETTINGS}
    )


def _optimizer(config: Config) -> optax.GradientTransformation:
    return optax.chain(
        optax.clip_by_global_norm(config.max_grad_norm), optax.adam(config.learning_rate)
    )


def init_learner(
    rng: np.random.Generator, config: Config, observation_size: int, action_size: int
) -> LearnerState:
    """Fresh actor and critic parameters, their target copies and optimiser states."""
    # The last layers start near zero (DDPG's U(-3e-3, 3e-3)): the first actions are
    # near the middle of the box and the first return distributions near uniform.
    actor = networks.mlp_init(
        rng,
        (observation_size, *config.actor_hidden_sizes, action_size),
        scheme="fan_in_uniform",
        final_scale=3e-3,
        first_layer_norm=True,
    )
    critic = networks.mlp_init(
        rng,
        (observation_size + action_size, *config.critic_hidden_sizes, config.num_atoms),
        scheme="fan_in_uniform",
        final_scale=3e-3,
        first_layer_norm=True,
    )
    return LearnerState(
        actor=actor,
        critic=critic,
        target_actor=actor,
        target_critic=critic,
        actor_optimizer=_init_optimizer(actor, learner_config(config)),
        critic_optimizer=_init_optimizer(critic, learner_config(config)),
        num_updates=jnp.zeros((), jnp.int32),
    )


@functools.partial(jax.jit, static_argnames="config")
def _init_optimizer(params: networks.Params, config: Config) -> optax.OptState:
    return _optimizer(config).init(params)


# ------------------------------------------------------------- the distributional target


def categorical_projection(
    atoms: jax.Array, probabilities: jax.Array, support: jax.Array
) -> jax.Array:
    """Projects distributions with arbitrary atom positions onto an evenly spaced support.

    Each source atom is clipped to [support[0], support[-1]] and its mass split
    between the two support atoms around it, in proportion to closeness: support
    atom z_i receives p_j * max(0, 1 - |clip(x_j) - z_i| / delta_z). This is the
    projection of Bellemare et al. (2017, Algorithm 1), written without indexing.

    Args:
      atoms: (B, M) positions x_j of the source atoms.
      probabilities: (B, M) their masses p_j.
      support: (Z,) evenly spaced target atoms z_i.

    Returns:
      (B, Z) masses on the support; each row keeps its source row's total mass.
    """
    delta = support[1] - support[0]
    clipped = jnp.clip(atoms, support[0], support[-1])
    closeness = jnp.clip(
        1.0 - jnp.abs(clipped[:, None, :] - support[None, :, None]) / delta, 0.0, 1.0
    )
    return jnp.sum(closeness * probabilities[:, None, :], axis=-1)


def critic_loss(
    critic_params,
    state: LearnerState,
    batch: replay.Transitions,
    weights: jax.Array,
    support: jax.Array,
) -> tuple[jax.Array, jax.Array]:
    """Importance-weighted mean cross-entropy to the projected N-step target.

    Returns the loss and the per-sample cross-entropies (the new priorities).
    """
    next_action = actor_apply(state.target_actor, batch.next_observation)
    next_probabilities = jax.nn.softmax(
        critic_apply(state.target_critic, batch.next_observation, next_action)
    )
    # batch.discount already holds gamma^n times the environment discounts.
    target_atoms = batch.reward[:, None] + batch.discount[:, None] * support[None, :]
    target = jax.lax.stop_gradient(
        categorical_projection(target_atoms, next_probabilities, support)
    )
    log_probabilities = jax.nn.log_softmax(
        critic_apply(critic_params, batch.observation, batch.action)
    )
    cross_entropy = -jnp.sum(target * log_probabilities, axis=-1)
    return jnp.mean(weights * cross_entropy), cross_entropy


def actor_loss(
    actor_params, critic_params, observation: jax.Array, support: jax.Array
) -> tuple[jax.Array, jax.Array]:
    """Minus the mean expected return of the actor's own actions; also returns Q.

    Its gradient is the deterministic policy gradient of the paper's Algorithm 1,
    -1/M sum_j grad_a Q(s_j, a)|_{a = pi(s_j)} grad_theta pi(s_j), with dQ/da used
    as the critic gives it. Acme's D4PG clips dQ/da (to norm 1 per sample, the
    `dqda_clipping` of its DPG loss); we do not, because (1) the paper's algorithm
    does not, (2) the step this gradient makes is already bounded by the global-norm
    clip at `max_grad_norm` applied to the actor's parameter gradient, and by tanh
    saturating the action, and (3) every learning result recorded for this agent
    (tests/agents/test_learning.py, benchmarks/learning) was obtained without it, and
    no run here has shown the instability that clip guards against.
    """
    action = actor_apply(actor_params, observation)
    probabilities = jax.nn.softmax(critic_apply(critic_params, observation, action))
    q_values = jnp.sum(probabilities * support, axis=-1)
    return -jnp.mean(q_values), q_values


def update_target(target, online, num_updates: jax.Array, config: Config):
    """Target parameters after the `num_updates`-th update of `online`.

    'periodic': a copy of online every target_update_period updates, else unchanged
    (the paper's Algorithm 1). 'soft': (1 - rate) target + rate online every update
    (Lillicrap et al. 2016), rate = target_update_rate.
    """
    if config.target_update == "periodic":
        copy = num_updates % config.target_update_period == 0
        return jax.tree.map(lambda old, new: jnp.where(copy, new, old), target, online)
    rate = config.target_update_rate
    return jax.tree.map(lambda old, new: (1.0 - rate) * old + rate * new, target, online)


@functools.partial(jax.jit, static_argnames="config")
def update(
    state: LearnerState, batch: replay.Transitions, weights: jax.Array, config: Config
) -> tuple[LearnerState, dict, jax.Array]:
    """One gradient step on actor and critic from the same batch and parameters.

    Returns the new state, scalar metrics, and per-sample priorities (B,).
    """
    support = jnp.asarray(config.support)
    optimizer = _optimizer(config)
    (loss_critic, cross_entropy), critic_grads = jax.value_and_grad(critic_loss, has_aux=True)(
        state.critic, state, batch, weights, support
    )
    (loss_actor, q_values), actor_grads = jax.value_and_grad(actor_loss, has_aux=True)(
        state.actor, state.critic, batch.observation, support
    )
    critic_updates, critic_optimizer = optimizer.update(critic_grads, state.critic_optimizer)
    actor_updates, actor_optimizer = optimizer.update(actor_grads, state.actor_optimizer)
    critic = optax.apply_updates(state.critic, critic_updates)
    actor = optax.apply_updates(state.actor, actor_updates)
    num_updates = state.num_updates + 1
    new_state = LearnerState(
        actor=actor,
        critic=critic,
        target_actor=update_target(state.target_actor, actor, num_updates, config),
        target_critic=update_target(state.target_critic, critic, num_updates, config),
        actor_optimizer=actor_optimizer,
        critic_optimizer=critic_optimizer,
        num_updates=num_updates,
    )
    metrics = {"critic_loss": loss_critic, "q_mean": -loss_actor}
    return new_state, metrics, cross_entropy


@functools.partial(jax.jit, static_argnames="config")
def update_many(
    state: LearnerState, batches: replay.Transitions, weights: jax.Array, config: Config
) -> tuple[LearnerState, dict, jax.Array]:
    """K updates in sequence in one call: `update` on batch k after update k - 1.

    Args:
      batches: K batches stacked, every field (K, B, ...).
      weights: their importance weights (K, B).

    Returns:
      The state after the K updates, each metric per update (K,), and the
      priorities of each batch (K, B), as K calls of `update` would.
    """

    def one_update(state, inputs):
        batch, batch_weights = inputs
        state, metrics, priorities = update(state, batch, batch_weights, config)
        return state, (metrics, priorities)

    state, (metrics, priorities) = jax.lax.scan(one_update, state, (batches, weights))
    return state, metrics, priorities


# ---------------------------------------------------------------------------- policies


@jax.jit
def _explore(actor_params, observation: jax.Array, key: jax.Array, sigma: float):
    key, noise_key = jax.random.split(key)
    action = actor_apply(actor_params, observation)
    noise = sigma * jax.random.normal(noise_key, action.shape, action.dtype)
    return jnp.clip(action + noise, -1.0, 1.0), key


_greedy = jax.jit(actor_apply)


def behaviour_policy(
    boundary: specs.Boundary,
    actor: networks.Params,
    observation,
    key: jax.Array,
    sigma: float,
    num_envs: int | None = None,
) -> tuple[np.ndarray, jax.Array]:
    """Exploratory actions: clip(pi(s) + N(0, sigma^2), -1, 1) in unit space.

    A pure function of its arguments: the same parameters, observation and key give
    the same actions. Returns the actions (N, *action_shape) in the environment's
    units and the key to use next.
    """
    action, key = _explore(actor, boundary.observations(observation, num_envs), key, sigma)
    return boundary.actions(action), key


def evaluation_policy(
    boundary: specs.Boundary, actor: networks.Params
) -> Callable[[object], np.ndarray]:
    """The deterministic policy pi(s) of these actor parameters, for evaluation."""

    def act_greedily(observation) -> np.ndarray:
        return boundary.actions(_greedy(actor, boundary.observations(observation)))

    return act_greedily


# ----------------------------------------------------------------------------- learner


class Learner:
    """Owns the learner state (networks, targets, optimisers) and performs updates.

    Acme's learner role: it sees batches of transitions, never environments, so the
    same object learns from a local replay (`D4PG`) or from a replay fed by remote
    actors (agents/distributed.py).

    Args:
      config: hyperparameters; only the learning ones matter (`learner_config`).
      observation_size, action_size: D and A of the flat vectors.
      rng: initialises the networks.
    """

    def __init__(
        self, config: Config, observation_size: int, action_size: int, rng: np.random.Generator
    ):
        self._config = learner_config(config)
        self.state = init_learner(rng, config, observation_size, action_size)

    @property
    def actor(self) -> networks.Params:
        """The current actor parameters (what actors act with)."""
        return self.state.actor

    @property
    def num_updates(self) -> int:
        return int(self.state.num_updates)

    def step(self, batch: replay.Transitions, weights: np.ndarray) -> tuple[dict, jax.Array]:
        """One update on `batch` with importance `weights` (B,).

        Returns the update's metrics (scalars) and the per-sample priorities (B,).
        """
        self.state, metrics, priorities = update(self.state, batch, weights, config=self._config)
        return metrics, priorities

    def step_many(self, batches: replay.Transitions, weights: np.ndarray) -> tuple[dict, jax.Array]:
        """K updates in one call on `batches` (fields (K, B, ...)) and `weights` (K, B).

        Returns each metric per update (K,) and the priorities of each batch (K, B).
        """
        self.state, metrics, priorities = update_many(
            self.state, batches, weights, config=self._config
        )
        return metrics, priorities

    def state_dict(self) -> LearnerState:
        return jax.device_get(self.state)

    def load_state_dict(self, state: LearnerState) -> None:
        loaded = jax.tree.map(jnp.asarray, state)
        if jax.tree.map(jnp.shape, loaded) != jax.tree.map(jnp.shape, self.state):
            raise ValueError(
                "checkpointed D4PG parameters do not match this configuration's network shapes."
            )
        self.state = loaded


def make_replay(
    config: Config, observation_size: int, action_size: int
) -> replay.ReplayBuffer | replay.PrioritizedReplay:
    """The replay `config` asks for: prioritised or uniform, of replay_capacity."""
    if config.prioritized_replay:
        return replay.PrioritizedReplay(
            config.replay_capacity,
            observation_size,
            action_size,
            priority_exponent=config.priority_exponent,
            importance_exponent=config.importance_exponent,
        )
    return replay.ReplayBuffer(config.replay_capacity, observation_size, action_size)


def write_transitions(
    writer: replay.NStepWriter,
    boundary: specs.Boundary,
    timestep,
    actions: np.ndarray,
    next_timestep,
    num_envs: int,
) -> replay.Transitions:
    """Feeds one batched step to the N-step writer; returns the transitions it completes.

    Copies whose `timestep` was LAST were automatically reset by this step and add
    nothing (agents/vector.py).
    """
    return writer.add(
        observation=boundary.observations(timestep.observation, num_envs),
        action=boundary.bounds.to_unit(actions),
        reward=np.asarray(next_timestep.reward),
        discount=np.asarray(next_timestep.discount),
        next_observation=boundary.observations(next_timestep.observation, num_envs),
        valid=~np.asarray(timestep.last()),
        episode_ended=np.asarray(next_timestep.last()),
    )


def mean_metrics(history: list[dict]) -> dict[str, float]:
    """The mean of each learner metric over a list of updates' metrics."""
    return {
        name: float(np.mean([float(metrics[name]) for metrics in history]))
        for name in D4PG.metric_names
    }


# ------------------------------------------------------------------------------- agent


class D4PG:
    """The acting and learning agent, run by agents.loop over a batched environment.

    It composes the roles: `behaviour_policy` acts, an `NStepWriter` turns steps into
    transitions for the replay, and a `Learner` updates from replay samples.

    Args:
      config: hyperparameters.
      observation_spec, action_spec: the environment's dm_env specs (of one copy).
      num_envs: K, the number of environment copies acting in parallel.
      seed: seeds the network initialisation, exploration noise and replay sampling.
    """

    # The actor loss is minus q_mean, the critic's mean value of the actor's actions.
    metric_names = ("critic_loss", "q_mean")

    def __init__(self, config: Config, observation_spec, action_spec, num_envs: int, seed: int):
        if not isinstance(config, Config):
            raise TypeError(f"config is {type(config).__name__}; expected agents.d4pg.Config.")
        self.config = config
        self.boundary = specs.boundary(observation_spec, action_spec)
        self.layout, self.bounds = self.boundary.layout, self.boundary.bounds
        self.num_envs = int(num_envs)
        # One numpy stream initialises the networks, then samples replay.
        self._rng = np.random.default_rng(seed)
        self.learner = Learner(config, self.layout.size, self.bounds.size, self._rng)
        self._key = jax.random.PRNGKey(seed)
        self._replay = make_replay(config, self.layout.size, self.bounds.size)
        self._writer = replay.NStepWriter(self.num_envs, config.n_step, config.discount)
        # Fractional updates owed, so that e.g. 0.5 updates per transition alternates.
        self._update_credit = 0.0

    @property
    def num_updates(self) -> int:
        return self.learner.num_updates

    def act(self, observation) -> np.ndarray:
        """Exploratory actions (N, *action_shape) in the environment's units."""
        actions, self._key = behaviour_policy(
            self.boundary,
            self.learner.actor,
            observation,
            self._key,
            self.config.sigma,
            self.num_envs,
        )
        return actions

    def observe(self, timestep, actions, next_timestep) -> dict[str, float]:
        """Records one batched step and performs the updates it pays for.

        Returns the mean metrics of the updates performed (empty if none).
        """
        transitions = write_transitions(
            self._writer, self.boundary, timestep, actions, next_timestep, self.num_envs
        )
        count = transitions.reward.shape[0]
        if count:
            self._replay.add(transitions)
        if len(self._replay) < self.config.min_replay_size:
            return {}
        self._update_credit += count * self.config.updates_per_transition
        per_call = self.config.updates_per_call
        history = []
        while self._update_credit >= per_call:
            self._update_credit -= per_call
            history.extend(self._learn(per_call))
        return mean_metrics(history) if history else {}

    def _learn(self, num_updates: int) -> list[dict]:
        """`num_updates` updates on batches sampled now; their metrics, one dict each."""
        samples = [
            self._replay.sample(self.config.batch_size, self._rng) for _ in range(num_updates)
        ]
        if num_updates == 1:
            batch, indices, weights = samples[0]
            metrics, priorities = self.learner.step(batch, weights)
            if self.config.prioritized_replay:
                self._replay.update_priorities(indices, np.asarray(priorities))
            return [metrics]
        batches = replay.Transitions(
            *(np.stack(field) for field in zip(*(batch for batch, _, _ in samples)))
        )
        weights = np.stack([batch_weights for _, _, batch_weights in samples])
        metrics, priorities = self.learner.step_many(batches, weights)
        if self.config.prioritized_replay:
            priorities = np.asarray(priorities)
            for (_, indices, _), batch_priorities in zip(samples, priorities):
                self._replay.update_priorities(indices, batch_priorities)
        metrics = jax.device_get(metrics)
        return [{name: values[k] for name, values in metrics.items()} for k in range(num_updates)]

    def policy(self) -> Callable[[object], np.ndarray]:
        """The deterministic policy of the current parameters (a snapshot), for evaluation."""
        return evaluation_policy(self.boundary, self.learner.actor)

    def state_dict(self) -> dict:
        """Everything needed to continue exactly: parameters, optimiser state, replay, keys."""
        return {
            "learner": self.learner.state_dict(),
            "key": np.asarray(self._key),
            "rng": self._rng.bit_generator.state,
            "replay": self._replay.state_dict(),
            "writer": self._writer.state_dict(),
            "update_credit": self._update_credit,
        }

    def load_state_dict(self, state: dict) -> None:
        self.learner.load_state_dict(state["learner"])
        self._key = jnp.asarray(state["key"])
        self._rng.bit_generator.state = state["rng"]
        self._replay.load_state_dict(state["replay"])
        self._writer.load_state_dict(state["writer"])
        self._update_credit = float(state["update_credit"])
