"""DPPO on Ray: W workers, a chief that averages gradients once W - D are in, in one file.

Heess et al., "Emergence of Locomotion Behaviours in Rich Environments", 2017,
Appendix A: Algorithm 2 (chief) and Algorithm 3 (worker), with its normalisation
steps and its KL penalty and adaptation. What runs where:

  * `Worker` w of W: a Ray actor stepping its own batched environment of
    `envs_per_worker` copies, with its own seed stream. Per iteration it collects
    T / W environment steps with the current policy (`ppo.behaviour_policy`),
    normalising observations with the global statistics and updating them locally
    after every step; it computes advantages (GAE, Schulman et al. 2016, in place
    of the paper's K-step returns) and normalises them per batch. Then, per
    sub-iteration, it returns the gradient of the penalised surrogate on its batch

      J(theta) = mean_t r_t(theta) A_t - lambda KL[pi_old | pi_theta]
                 - xi max(0, KL[pi_old | pi_theta] - 2 KL_target)^2

    (M policy steps; it stops sending once its KL exceeds 4 KL_target, the early
    stopping of Algorithm 3) and then the gradient of the value regression (B
    steps), each with the chief's newest parameters.
  * The chief (this process) waits, at every sub-iteration, until W - D gradients
    are in (D = `straggler_tolerance`), averages them, and applies one Adam step;
    later gradients of that sub-iteration are dropped. After the policy steps, each
    worker's KL adapts the shared lambda: lambda *= alpha~ above beta_high KL_target,
    lambda /= alpha~ below beta_low KL_target, with alpha~ = 1 + (alpha - 1) / W (the
    paper's per-worker adaptation). The workers' local observation statistics are
    merged into the global ones after collection (the paper's sharing of
    normalisation statistics). Reward scaling (by the running std of the discounted
    return) is kept per worker.

Collection waits for every worker (a dead one is restarted by Ray and collects
again); straggler tolerance applies to the gradient steps, as in Algorithm 2.
Every environment step a worker makes counts once in `num_steps`.
"""

import dataclasses
import functools
import math
import os
import time
from collections.abc import Mapping

import jax
import jax.numpy as jnp
import numpy as np
import optax

from agents import (
    checkpoint,
    cluster,
    csv_log,
    environments,
    evaluation,
    experiment,
    normalizer,
    ppo,
    specs,
)

# Seed streams of the run's seed, after agents/distributed_d4pg.py's 4-6.
WORKER_STREAM, WORKER_KEY_STREAM = 7, 8
DPPO_COLUMNS = (
    "policy_loss",
    "value_loss",
    "kl",
    "kl_penalty",
    "gradients_used",
    "worker_steps_per_s",
    "restarts",
)


@dataclasses.dataclass(frozen=True)
class Config:
    """DPPO hyperparameters.

    Heess et al. (2017) give the algorithm, the penalty's form (threshold
    2 KL_target), the early stop at 4 KL_target and alpha~; the values of
    kl_target, alpha, beta_high and beta_low are those of the adaptive-KL PPO of
    Schulman et al. (2017, section 4: d_targ 0.01, factor 1.5 bands, as ratios
    2 and 1/2 here); xi, the learning rates and the iteration sizes are ours,
    chosen for cartpole-scale tasks on a 2-core CPU (the paper's 5e-5 and 1e-4
    are for batches of 64,000 steps).

    Attributes:
      policy_learning_rate, value_learning_rate: the chief's Adam step sizes for
        theta (policy mean and log std) and phi (value).
      rollout_steps: T, environment steps per iteration over all W workers. With
        many copies per worker, raise it so that each copy makes a few hundred steps
        per iteration (cartpole balance learns with 16 copies per worker and T = 8192;
        docs/distributed.md).
      policy_steps: M, policy gradient steps per iteration.
      value_steps: B, value gradient steps per iteration.
      discount: gamma per environment step, in [0, 1].
      gae_lambda: lambda of generalised advantage estimation, in [0, 1].
      kl_target: KL_target, the desired change of the policy per iteration (nats).
      kl_initial_penalty: lambda at the start.
      kl_alpha: alpha > 1, the adaptation factor of lambda (per worker alpha~).
      kl_beta_high, kl_beta_low: lambda grows above beta_high KL_target and
        shrinks below beta_low KL_target.
      kl_hinge: xi, weight of the squared hinge beyond 2 KL_target.
      max_grad_norm: global-norm clip of the averaged gradient.
      hidden_sizes: hidden widths of the policy and value MLPs (tanh).
      initial_log_std: the state-independent log std at the start (unit actions).
      observation_clip, reward_clip: clips after normalisation.
    """

    policy_learning_rate: float = 1e-3
    value_learning_rate: float = 1e-3
    rollout_steps: int = 2048
    policy_steps: int = 40
    value_steps: int = 40
    discount: float = 0.99
    gae_lambda: float = 0.95
    kl_target: float = 0.01
    kl_initial_penalty: float = 1.0
    kl_alpha: float = 1.5
    kl_beta_high: float = 2.0
    kl_beta_low: float = 0.5
    kl_hinge: float = 1000.0
    max_grad_norm: float = 0.5
    hidden_sizes: tuple[int, ...] = (64, 64)
    initial_log_std: float = 0.0
    observation_clip: float = 10.0
    reward_clip: float = 10.0

    def __post_init__(self):
        for name in ("rollout_steps", "policy_steps", "value_steps"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"Config.{name} = {value!r}; expected a positive int.")
        for name in ("discount", "gae_lambda"):
            if not 0.0 <= getattr(self, name) <= 1.0:
                raise ValueError(f"Config.{name} = {getattr(self, name)}; expected [0, 1].")
        for name in (
            "policy_learning_rate",
            "value_learning_rate",
            "kl_target",
            "kl_initial_penalty",
            "max_grad_norm",
            "observation_clip",
            "reward_clip",
        ):
            if not getattr(self, name) > 0:
                raise ValueError(f"Config.{name} = {getattr(self, name)}; expected > 0.")
        if not self.kl_alpha > 1:
            raise ValueError(f"Config.kl_alpha = {self.kl_alpha}; expected > 1.")
        if not 0 < self.kl_beta_low < 1 < self.kl_beta_high:
            raise ValueError(
                f"Config.kl_beta_low {self.kl_beta_low} and kl_beta_high {self.kl_beta_high} "
                "must satisfy 0 < beta_low < 1 < beta_high."
            )
        if self.kl_hinge < 0:
            raise ValueError(f"Config.kl_hinge = {self.kl_hinge}; expected >= 0.")
        if not self.hidden_sizes or any(not isinstance(s, int) or s < 1 for s in self.hidden_sizes):
            raise ValueError(
                f"Config.hidden_sizes = {self.hidden_sizes!r}; expected a tuple of positive ints."
            )

    def as_ppo(self) -> ppo.Config:
        """The PPO configuration with the same networks and normalisation (for evaluation)."""
        return ppo.Config(
            hidden_sizes=self.hidden_sizes,
            initial_log_std=self.initial_log_std,
            observation_clip=self.observation_clip,
            reward_clip=self.reward_clip,
            discount=self.discount,
            gae_lambda=self.gae_lambda,
        )


# --------------------------------------------------------------------------- the losses


def gaussian_kl(
    old_mean: jax.Array, old_log_std: jax.Array, mean: jax.Array, log_std: jax.Array
) -> jax.Array:
    """KL[N(old_mean, old_std^2) | N(mean, std^2)] per sample, summed over action dims."""
    variance_ratio = jnp.exp(2.0 * (old_log_std - log_std))
    mean_term = jnp.square(mean - old_mean) * jnp.exp(-2.0 * log_std)
    return jnp.sum(log_std - old_log_std + 0.5 * (variance_ratio + mean_term) - 0.5, axis=-1)


def _policy_params(params: dict) -> dict:
    return {"policy": params["policy"], "log_std": params["log_std"]}


def policy_objective(
    theta: dict, batch: dict, penalty: jax.Array, config: Config
) -> tuple[jax.Array, dict]:
    """Minus J(theta) of Algorithm 3 on one worker's batch, and its metrics (incl. KL)."""
    mask = batch["valid"]
    mean = ppo.policy_mean(theta, batch["observation"])
    log_prob = ppo.gaussian_log_prob(mean, theta["log_std"], batch["action"])
    ratio = jnp.exp(log_prob - batch["log_prob"])
    kl = ppo.masked_mean(
        gaussian_kl(batch["old_mean"], batch["old_log_std"], mean, theta["log_std"]), mask
    )
    surrogate = ppo.masked_mean(ratio * batch["advantage"], mask)
    objective = (
        surrogate
        - penalty * kl
        - config.kl_hinge * jnp.square(jnp.maximum(0.0, kl - 2.0 * config.kl_target))
    )
    return -objective, {"policy_loss": -surrogate, "kl": kl}


def value_loss(phi: dict, batch: dict) -> jax.Array:
    """Half the mean squared error of V(s) against the returns on one worker's batch."""
    error = ppo.value_apply(phi, batch["observation"]) - batch["return"]
    return 0.5 * ppo.masked_mean(jnp.square(error), batch["valid"])


@functools.partial(jax.jit, static_argnames="config")
def _policy_gradient(theta, batch, penalty, config):
    return jax.grad(policy_objective, has_aux=True)(theta, batch, penalty, config)


_value_gradient = jax.jit(jax.value_and_grad(value_loss))


# ---------------------------------------------------------------------------- the worker


class Worker:
    """Algorithm 3: collects with the current policy, sends gradients (a Ray actor).

    Args:
      env_name: an agents/environments.py name.
      envs_per_worker: E, copies in this worker's batched environment.
      config: DPPO settings.
    """

    def __init__(self, env_name: str, envs_per_worker: int, config: Config):
        self._env_name = env_name
        self._num_envs = int(envs_per_worker)
        self._config = config
        self._env = None
        self._batch = None

    def pid(self) -> int:
        return os.getpid()

    def collect(
        self, params: dict, statistics: dict, steps: int, env_seed: int, key_seed: int
    ) -> dict:
        """Runs the policy for at least `steps` environment steps; keeps the batch.

        Returns steps made, the local observation statistics of this collection
        (to merge), finished episode returns, busy_s and the process id (a new
        one after a restart).
        """
        started = time.perf_counter()
        config = self._config
        if steps == 0:
            # Nothing to collect this iteration: no stale batch may send gradients.
            self._batch = None
            return {
                "steps": 0,
                "statistics": None,
                "returns": [],
                "busy_s": 0.0,
                "process": os.getpid(),
            }
        if self._env is None:
            self._env = environments.load(self._env_name, env_seed, self._num_envs)
            self._boundary = specs.boundary(self._env.observation_spec(), self._env.action_spec())
            self._key = jax.random.PRNGKey(key_seed)
            self._rewards = normalizer.DiscountedReturnScale(self._num_envs, config.discount)
            self._timestep = self._env.reset()
            self._episode_returns = np.zeros(self._num_envs)
        params = jax.tree.map(jnp.asarray, params)
        shared = normalizer.RunningMeanStd((self._boundary.layout.size,))
        shared.load_state_dict(statistics)
        local = normalizer.RunningMeanStd((self._boundary.layout.size,))
        made, returns, rows = 0, [], []
        while made < steps:
            timestep = self._timestep
            flat = self._boundary.observations(timestep.observation, self._num_envs)
            shared.update(flat)
            local.update(flat)
            normalized = shared.normalize(flat, config.observation_clip)
            action, log_prob, value, self._key = ppo.behaviour_policy(params, normalized, self._key)
            next_timestep = self._env.step(self._boundary.actions(action))
            valid = ~np.asarray(timestep.last())
            reward = self._rewards.scale(next_timestep.reward, np.asarray(timestep.first()), valid)
            rows.append(
                (
                    ppo.Rollout(
                        observation=normalized,
                        action=np.asarray(action),
                        log_prob=np.asarray(log_prob),
                        value=np.asarray(value),
                        reward=np.clip(reward, -config.reward_clip, config.reward_clip),
                        discount=np.asarray(next_timestep.discount, np.float32),
                        next_is_last=np.asarray(next_timestep.last(), np.float32),
                        valid=valid,
                    ),
                    np.asarray(ppo.policy_mean(params, normalized)),
                )
            )
            ended = np.asarray(next_timestep.last()) & valid
            self._episode_returns += np.where(valid, np.asarray(next_timestep.reward), 0.0)
            returns.extend(float(r) for r in self._episode_returns[ended])
            self._episode_returns[ended] = 0.0
            made += int(valid.sum())
            self._timestep = next_timestep
        rollout = ppo.Rollout(*(np.stack(field) for field in zip(*(row for row, _ in rows))))
        next_flat = self._boundary.observations(self._timestep.observation, self._num_envs)
        bootstrap = ppo.value_apply(params, shared.normalize(next_flat, config.observation_clip))
        advantages, value_targets = ppo.gae(rollout, bootstrap, config.discount, config.gae_lambda)
        advantages, value_targets = np.asarray(advantages), np.asarray(value_targets)
        mask = rollout.valid.astype(np.float32)
        # The paper's per-batch normalisation of advantages (over valid steps).
        mean = np.sum(advantages * mask) / max(mask.sum(), 1.0)
        std = np.sqrt(np.sum(np.square(advantages - mean) * mask) / max(mask.sum(), 1.0))
        flat_size = rollout.reward.size
        self._batch = {
            "observation": rollout.observation.reshape(flat_size, -1),
            "action": rollout.action.reshape(flat_size, -1),
            "log_prob": rollout.log_prob.reshape(flat_size),
            "old_mean": np.stack([mean_row for _, mean_row in rows]).reshape(flat_size, -1),
            "old_log_std": np.asarray(params["log_std"]),
            "advantage": ((advantages - mean) / (std + 1e-8)).reshape(flat_size),
            "return": value_targets.reshape(flat_size),
            "valid": mask.reshape(flat_size),
        }
        self._stopped = False
        return {
            "steps": made,
            "statistics": local.state_dict(),
            "returns": returns,
            "busy_s": time.perf_counter() - started,
            "process": os.getpid(),
        }

    def policy_gradient(self, params: dict, penalty: float) -> dict | None:
        """The gradient of -J on this worker's batch, or None: no batch (restarted) or
        stopped early (KL above 4 KL_target, Algorithm 3) this iteration."""
        if self._batch is None or self._stopped:
            return None
        theta = jax.tree.map(jnp.asarray, _policy_params(params))
        grads, metrics = _policy_gradient(theta, self._batch, jnp.float32(penalty), self._config)
        if float(metrics["kl"]) > 4.0 * self._config.kl_target:
            self._stopped = True
            return None
        return {
            "grads": jax.device_get(grads),
            "policy_loss": float(metrics["policy_loss"]),
            "kl": float(metrics["kl"]),
        }

    def value_gradient(self, params: dict) -> dict | None:
        """The gradient of the value loss on this worker's batch (None without a batch)."""
        if self._batch is None:
            return None
        loss, grads = _value_gradient(
            {"value": jax.tree.map(jnp.asarray, params["value"])}, self._batch
        )
        return {"grads": jax.device_get(grads), "value_loss": float(loss)}

    def kl(self, params: dict) -> float | None:
        """KL[pi_old | pi_theta] on this worker's batch (None without a batch)."""
        if self._batch is None:
            return None
        theta = jax.tree.map(jnp.asarray, _policy_params(params))
        _, metrics = _policy_gradient(theta, self._batch, jnp.float32(0.0), self._config)
        return float(metrics["kl"])


# ----------------------------------------------------------------------------- the chief


def adapt_penalty(
    penalty: float, worker_kls: list[float], config: Config, num_workers: int
) -> float:
    """Algorithm 3's lambda update applied once per worker KL, with alpha~."""
    alpha = 1.0 + (config.kl_alpha - 1.0) / num_workers
    for kl in worker_kls:
        if kl > config.kl_beta_high * config.kl_target:
            penalty *= alpha
        elif kl < config.kl_beta_low * config.kl_target:
            penalty /= alpha
    return penalty


def average_gradients(gradients: list[dict]) -> dict:
    """Algorithm 2's average: the element-wise mean of the W - D workers' gradients."""
    if not gradients:
        raise ValueError("average_gradients needs at least one worker's gradient.")
    return jax.tree.map(lambda *leaves: np.mean(np.stack(leaves), axis=0), *gradients)


def make_config(overrides: Mapping[str, object] | None) -> Config:
    """The default Config with `overrides` (Python values or literal strings) applied."""
    return experiment.apply_overrides(Config(), overrides)


def _optimizer(learning_rate: float, config: Config) -> optax.GradientTransformation:
    return optax.chain(
        optax.clip_by_global_norm(config.max_grad_norm), optax.adam(learning_rate, eps=1e-5)
    )


def optimizer_states(config: Config, params: dict) -> tuple:
    """(policy optimiser state, value optimiser state), fresh for `params`: what the
    chief checkpoints, and the template a checkpoint's are rebuilt against."""
    return (
        _optimizer(config.policy_learning_rate, config).init(_policy_params(params)),
        _optimizer(config.value_learning_rate, config).init({"value": params["value"]}),
    )


@dataclasses.dataclass
class ChiefState:
    """Everything the chief checkpoints besides the parameters."""

    env_steps: int = 0
    iterations: int = 0
    penalty: float = 1.0
    restarts: int = 0
    elapsed_s: float = 0.0
    last_eval_step: int | None = None
    statistics: dict | None = None
    metric_sums: dict = dataclasses.field(default_factory=dict)
    metric_counts: dict = dataclasses.field(default_factory=dict)
    finished_returns: list = dataclasses.field(default_factory=list)
    worker_steps: int = 0
    worker_busy_s: float = 0.0


def train(
    env_name: str,
    num_steps: int,
    seed: int,
    out_dir: str,
    *,
    num_workers: int,
    straggler_tolerance: int = 0,
    envs_per_worker: int = 1,
    config_overrides: Mapping[str, object] | None = None,
    eval_every: int = 10_000,
    eval_episodes: int = 10,
    checkpoint_every: int | None = None,
    resume: bool = False,
    overwrite: bool = False,
    ray_address: str | None = None,
    progress: bool = True,
) -> experiment.RunResult:
    """Trains DPPO with `num_workers` Ray workers into the run directory `out_dir`.

    Args:
      env_name: an agents/environments.py name; each worker loads it batched.
      num_steps: environment steps over all workers and copies.
      seed: seeds the parameters and, through `experiment.derived_seed`, every
        worker's environment and sampling key (by worker, restart and resume).
      num_workers: W >= 1. straggler_tolerance: D in [0, W - 1].
      envs_per_worker: E >= 1 copies per worker.
      config_overrides: fields of `dppo.Config` to change.
      eval_every, eval_episodes, checkpoint_every, resume, overwrite, ray_address,
        progress: as in `agents.distributed_d4pg.train`.
    """
    for name, value, lowest in (
        ("num_steps", num_steps, 0),
        ("num_workers", num_workers, 1),
        ("straggler_tolerance", straggler_tolerance, 0),
        ("envs_per_worker", envs_per_worker, 1),
        ("eval_every", eval_every, 1),
        ("eval_episodes", eval_episodes, 1),
    ):
        if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < lowest:
            raise ValueError(f"{name} = {value!r}; expected an integer >= {lowest}.")
    if straggler_tolerance >= num_workers:
        raise ValueError(
            f"straggler_tolerance = {straggler_tolerance} must be below num_workers = "
            f"{num_workers}: the chief needs at least one gradient (W - D >= 1)."
        )
    checkpoint_every = eval_every if checkpoint_every is None else checkpoint_every
    if isinstance(checkpoint_every, bool) or int(checkpoint_every) < 1:
        raise ValueError(f"checkpoint_every = {checkpoint_every!r}; expected a positive integer.")
    if ray_address is not None:
        cluster.check_address(ray_address)
    make_env = environments.factory(env_name)
    experiment.refuse_existing_run(out_dir, resume, overwrite)
    config = make_config(config_overrides)
    checkpoint_path = os.path.join(out_dir, experiment.CHECKPOINT_FILE)
    identity = {
        "agent": "dppo",
        "env": env_name,
        "seed": int(seed),
        "num_envs": int(envs_per_worker),
        "workers": int(num_workers),
        "straggler_tolerance": int(straggler_tolerance),
    }
    payload = None
    if resume:
        payload, config = experiment.load_resumed_run(
            checkpoint_path, identity, config, config_overrides
        )
    os.makedirs(out_dir, exist_ok=True)

    probe = make_env(experiment.derived_seed(seed, experiment.TRAIN_STREAM))
    boundary = specs.boundary(probe.observation_spec(), probe.action_spec())
    probe.close()
    params = ppo.init_params(
        np.random.default_rng(seed), config.as_ppo(), boundary.layout.size, boundary.bounds.size
    )
    policy_optimizer = _optimizer(config.policy_learning_rate, config)
    value_optimizer = _optimizer(config.value_learning_rate, config)
    policy_state, value_state = optimizer_states(config, params)
    statistics = normalizer.RunningMeanStd((boundary.layout.size,))
    state, resumes = ChiefState(penalty=config.kl_initial_penalty), 0
    if payload is not None:
        learner = payload["learner_state"]
        params = jax.tree.map(jnp.asarray, learner["params"])
        # The optimiser states' NamedTuples are rebuilt against the fresh ones.
        policy_state, value_state = jax.tree.map(
            jnp.asarray, checkpoint.restore((policy_state, value_state), learner["optimizer"])
        )
        state = checkpoint.restore(ChiefState(), payload["progress"])
        statistics.load_state_dict(payload["observation_statistics"])
        resumes = payload["resumes"] + 1

    started_ray = cluster.connect(ray_address, num_cpus=max(os.cpu_count() or 1, num_workers))
    ray = cluster.ray_module()
    worker_class = ray.remote(num_cpus=1, max_restarts=-1, max_task_retries=0)(Worker)
    run_tag = f"{os.getpid()}-{time.monotonic_ns()}"
    workers = [
        worker_class.options(name=f"dppo-worker-{w}-{run_tag}", namespace="agents").remote(
            env_name, envs_per_worker, config
        )
        for w in range(num_workers)
    ]
    worker_restarts = [0] * num_workers
    # Each worker's process when it started: a result from another is a restart.
    worker_processes = ray.get([worker.pid.remote() for worker in workers])
    died = cluster.actor_died_errors()

    experiment.write_config_json(
        out_dir,
        {
            "agent": "dppo",
            "env": env_name,
            "seed": int(seed),
            "num_envs": int(envs_per_worker),
            "workers": int(num_workers),
            "straggler_tolerance": int(straggler_tolerance),
            "num_steps": int(num_steps),
            "eval_every": eval_every,
            "eval_episodes": eval_episodes,
            "config": dataclasses.asdict(config),
        },
    )
    metrics_path = os.path.join(out_dir, experiment.METRICS_FILE)
    log = csv_log.CsvLog(
        metrics_path,
        experiment.BASE_COLUMNS + DPPO_COLUMNS,
        keep_until_step=state.env_steps if payload is not None else None,
    )
    title = f"dppo ({num_workers} workers, D={straggler_tolerance}) on {env_name} (seed {seed})"
    last_return = [math.nan]
    clock_started = time.perf_counter()
    elapsed_before = state.elapsed_s

    def clock() -> float:
        return elapsed_before + time.perf_counter() - clock_started

    def add_metric(name: str, value: float) -> None:
        state.metric_sums[name] = state.metric_sums.get(name, 0.0) + value
        state.metric_counts[name] = state.metric_counts.get(name, 0) + 1

    def evaluate_and_log() -> None:
        seeds = [
            experiment.derived_seed(seed, experiment.EVAL_STREAM, state.env_steps, episode)
            for episode in range(eval_episodes)
        ]
        snapshot = normalizer.RunningMeanStd((boundary.layout.size,))
        snapshot.load_state_dict(statistics.state_dict())
        returns = evaluation.evaluate_on_fresh_envs(
            ppo.evaluation_policy(boundary, params, snapshot, config.observation_clip),
            make_env,
            seeds,
        )
        metrics = {
            name: state.metric_sums[name] / state.metric_counts[name] for name in state.metric_sums
        }
        log.write(
            {
                "step": state.env_steps,
                "wall_time_s": round(clock(), 3),
                "eval_return": float(np.mean(returns)),
                "eval_return_std": float(np.std(returns)),
                "train_return": (
                    float(np.mean(state.finished_returns)) if state.finished_returns else None
                ),
                "train_episodes": len(state.finished_returns),
                **metrics,
                "kl_penalty": state.penalty,
                "worker_steps_per_s": (
                    state.worker_steps / state.worker_busy_s if state.worker_busy_s > 0 else None
                ),
                "restarts": state.restarts,
            }
        )
        state.finished_returns, state.metric_sums, state.metric_counts = [], {}, {}
        state.worker_steps, state.worker_busy_s = 0, 0.0
        state.last_eval_step = state.env_steps
        last_return[0] = float(np.mean(returns))

    def save_checkpoint() -> None:
        state.elapsed_s = clock()
        checkpoint.save(
            checkpoint_path,
            {
                "agent_name": "dppo",
                "config": dataclasses.asdict(config),
                "env_name": env_name,
                "seed": int(seed),
                "num_envs": int(envs_per_worker),
                "run_identity": {
                    "workers": int(num_workers),
                    "straggler_tolerance": int(straggler_tolerance),
                },
                "observation_keys": boundary.layout.keys,
                "learner_state": {
                    "params": jax.device_get(params),
                    "optimizer": jax.device_get((policy_state, value_state)),
                    "num_updates": state.iterations,
                },
                "observation_statistics": statistics.state_dict(),
                "progress": state,
                "resumes": resumes,
            },
        )
        experiment.plot_run(out_dir, title)

    def gather(calls, needed: int) -> list:
        """Results of `calls` ({reference: worker}) once `needed` are in (or all are done),
        in worker order (so that with D = 0 their average does not depend on timing);
        a dead worker's call counts as done with no result (its restart is counted
        when its next collection reports a new process)."""
        results, pending = {}, dict(calls)
        while pending and len(results) < needed:
            ready, _ = ray.wait(list(pending), num_returns=1)
            for reference in ready:
                w = pending.pop(reference)
                try:
                    value = ray.get(reference)
                except died:
                    # Counted when a result comes from the new process (`collect`).
                    worker_restarts[w] += 1
                    continue
                if value is not None:
                    results[w] = value
                else:
                    # A worker with nothing to send lowers what can be waited for.
                    needed = min(needed, len(results) + len(pending))
        return [results[w] for w in sorted(results)]

    def collect(params_ref, statistics_state) -> None:
        # T / W steps each; the run's last iteration splits what is left evenly.
        left = min(
            num_steps - state.env_steps, num_workers * max(1, config.rollout_steps // num_workers)
        )
        remaining = {w: left // num_workers + (w < left % num_workers) for w in range(num_workers)}
        while remaining:
            calls = {}
            for w, steps in remaining.items():
                streams = (w, worker_restarts[w], resumes)
                calls[
                    workers[w].collect.remote(
                        params_ref,
                        statistics_state,
                        steps,
                        experiment.derived_seed(seed, WORKER_STREAM, *streams),
                        experiment.derived_seed(seed, WORKER_KEY_STREAM, *streams),
                    )
                ] = w
            remaining = {}
            for reference, w in calls.items():
                try:
                    result = ray.get(reference)
                except died:
                    # Restarted by Ray: it collects its share again on new episodes. Not
                    # counted here: the call running at the death and those made while
                    # Ray restarts the worker fail alike (ActorUnavailableError).
                    worker_restarts[w] += 1
                    remaining[w] = left // num_workers + (w < left % num_workers)
                    continue
                if result["process"] != worker_processes[w]:
                    # A result from a new process: one restart, however many calls
                    # failed meanwhile.
                    state.restarts += 1
                    worker_processes[w] = result["process"]
                state.env_steps += result["steps"]
                if result["statistics"] is not None:
                    local = normalizer.RunningMeanStd((boundary.layout.size,))
                    local.load_state_dict(result["statistics"])
                    merge_statistics(statistics, local)
                state.finished_returns.extend(result["returns"])
                state.worker_steps += result["steps"]
                state.worker_busy_s += result["busy_s"]

    driver = cluster.Driver(
        state,
        num_steps=num_steps,
        eval_every=eval_every,
        checkpoint_every=checkpoint_every,
        evaluate_and_log=evaluate_and_log,
        save_checkpoint=save_checkpoint,
        out_dir=out_dir,
        progress=progress,
    )
    needed = num_workers - straggler_tolerance

    def iteration() -> bool:
        """One iteration of Algorithm 2 (collection, M policy and B value steps, the
        penalty's adaptation); False once the budget is spent or Ctrl-C was pressed."""
        nonlocal params, policy_state, value_state
        if state.env_steps >= num_steps or driver.interrupted():
            return False
        previous = state.env_steps
        collect(ray.put(jax.device_get(params)), statistics.state_dict())
        for _ in range(config.policy_steps):
            params_ref = ray.put(jax.device_get(params))
            results = gather(
                {
                    workers[w].policy_gradient.remote(params_ref, state.penalty): w
                    for w in range(num_workers)
                },
                needed,
            )
            if not results:
                break
            grads = average_gradients([result["grads"] for result in results])
            updates, policy_state = policy_optimizer.update(
                grads, policy_state, _policy_params(params)
            )
            params = {**params, **optax.apply_updates(_policy_params(params), updates)}
            add_metric("policy_loss", float(np.mean([r["policy_loss"] for r in results])))
            add_metric("gradients_used", float(len(results)))
        for _ in range(config.value_steps):
            params_ref = ray.put(jax.device_get(params))
            results = gather(
                {workers[w].value_gradient.remote(params_ref): w for w in range(num_workers)},
                needed,
            )
            if not results:
                break
            grads = average_gradients([result["grads"] for result in results])
            updates, value_state = value_optimizer.update(
                grads, value_state, {"value": params["value"]}
            )
            params = {**params, **optax.apply_updates({"value": params["value"]}, updates)}
            add_metric("value_loss", float(np.mean([r["value_loss"] for r in results])))
        params_ref = ray.put(jax.device_get(params))
        kls = gather({workers[w].kl.remote(params_ref): w for w in range(num_workers)}, num_workers)
        for kl in kls:
            add_metric("kl", kl)
        state.penalty = adapt_penalty(state.penalty, kls, config, num_workers)
        state.iterations += 1
        driver.advanced(previous)
        return True

    try:
        driver.run(iteration)
    finally:
        driver.close(log, workers, started_ray)
    return experiment.RunResult(
        out_dir=out_dir,
        env_steps=state.env_steps,
        final_eval_return=last_return[0],
        metrics_path=metrics_path,
        checkpoint_path=checkpoint_path,
        plot_path=os.path.join(out_dir, experiment.PLOT_FILE),
        agent=params,
    )


def merge_statistics(total: normalizer.RunningMeanStd, part: normalizer.RunningMeanStd) -> None:
    """Adds the samples summarised by `part` to `total` (Chan et al.'s parallel update)."""
    if part.count == 0:
        return
    count = total.count + part.count
    delta = part.mean - total.mean
    total.mean = total.mean + delta * (part.count / count)
    total.m2 = total.m2 + part.m2 + np.square(delta) * (total.count * part.count / count)
    total.count = count
