"""Distributed D4PG on Ray: K actors feeding one replay, one learner, in one file.

Barth-Maron et al. (2018), Algorithm 1, with the actors of Ape-X (Horgan et al.
2018), on Ray actors, its object store and its actor restarts (no transport or
supervisor of our own). What runs where:

  * `ReplayServer`: one Ray actor holding the replay table (uniform, or
    prioritised with a sum tree, as `d4pg.Config.prioritized_replay` says). One
    table rather than shards: at the rates one learner consumes (hundreds of
    batches a second) a single actor keeps up, sampling stays exactly
    proportional to the priorities over all data, and a checkpoint of the replay
    is one object (see docs/distributed.md for when to shard).
  * `Actor` k of K: a Ray actor stepping its own batched environment of
    `envs_per_actor` copies (the environment factories of agents/environments.py)
    with `d4pg.behaviour_policy` and its own noise scale
    sigma_k = sigma^(1 + noise_exponent k / (K - 1)) (Ape-X's schedule of
    per-actor exploration, Horgan et al. 2018, section 4.1, alpha = 7), its own
    seed stream, and its own N-step writer; it adds each chunk of transitions to
    the replay and reports how many environment steps it made.
  * The driver (this process) runs the `d4pg.Learner`: it samples batches from
    the replay, updates, writes back priorities, and puts the actor parameters
    into Ray's object store every `actor_update_period` (the paper's t_actors)
    updates; each actor picks up the newest parameters at the start of each
    chunk. It also evaluates, logs and checkpoints like agents/experiment.py.

Counting and pacing: `--steps` counts every environment step an actor makes
(transitions, not automatic-reset steps), once: the driver hands out step
budgets of at most `chunk_steps` and adds up what the actors report. The learner
performs `updates_per_transition` updates per step reported once the replay holds
`min_replay_size` transitions, as the single-process agent does; actors are given
new chunks only while the learner owes at most one chunk per actor of updates
(a rate limiter, like Reverb's), so fast actors cannot run away from the learner.

Faults: actors are Ray actors with unlimited restarts. When an actor's process
dies, its in-flight chunk is lost (its steps are neither counted nor in replay),
Ray restarts the actor, the driver counts the restart (metrics column
`restarts`), and the restarted actor continues on new episodes from a new seed
stream. Transitions already in the replay stay. The driver itself resumes from
its checkpoint (`resume=True`); with `checkpoint_replay` the replay is in it too.
"""

import dataclasses
import math
import os
import time
from collections.abc import Mapping

import jax
import jax.numpy as jnp
import numpy as np

from agents import (
    checkpoint,
    cluster,
    csv_log,
    d4pg,
    environments,
    evaluation,
    experiment,
    replay,
    specs,
)

# Seed streams of the run's seed, after agents/experiment.py's 0-3.
ACTOR_STREAM, NOISE_STREAM, REPLAY_STREAM = 4, 5, 6
# Ape-X's exponent of the per-actor exploration schedule (Horgan et al. 2018, 4.1).
NOISE_EXPONENT = 7.0
# Batches fetched from the replay per call: one round trip per this many updates.
BATCHES_PER_SAMPLE = 8
DISTRIBUTED_COLUMNS = ("actor_steps_per_s", "learner_updates_per_s", "replay_size", "restarts")


def noise_scales(sigma: float, num_actors: int, exponent: float = NOISE_EXPONENT) -> list[float]:
    """sigma_k = sigma^(1 + exponent k / (K - 1)) for k < K; [sigma] for one actor."""
    if num_actors == 1:
        return [float(sigma)]
    return [float(sigma ** (1.0 + exponent * k / (num_actors - 1))) for k in range(num_actors)]


class ReplayServer:
    """The replay table in its own Ray actor (wrapped by `ray.remote` when used).

    Args:
      config: D4PG settings (capacity, prioritisation and its exponents).
      observation_size, action_size: D and A.
      seed: seeds the sampling generator.
    """

    def __init__(self, config: d4pg.Config, observation_size: int, action_size: int, seed: int):
        self._replay = d4pg.make_replay(config, observation_size, action_size)
        self._rng = np.random.default_rng(seed)
        self._added = 0

    def add(self, transitions: replay.Transitions) -> int:
        """Inserts transitions; returns the table's size after."""
        if transitions.reward.shape[0]:
            self._replay.add(transitions)
            self._added += int(transitions.reward.shape[0])
        return len(self._replay)

    def sample(self, batch_size: int, count: int) -> list[tuple]:
        """`count` independent batches of (transitions, indices, importance weights)."""
        return [self._replay.sample(batch_size, self._rng) for _ in range(count)]

    def update_priorities(self, indices: list[np.ndarray], priorities: list[np.ndarray]) -> None:
        for index, priority in zip(indices, priorities):
            self._replay.update_priorities(index, priority)

    def counts(self) -> tuple[int, int]:
        """(current size, transitions ever added)."""
        return len(self._replay), self._added

    def state_dict(self) -> dict:
        return {
            "replay": self._replay.state_dict(),
            "rng": self._rng.bit_generator.state,
            "added": self._added,
        }

    def load_state_dict(self, state: dict) -> None:
        self._replay.load_state_dict(state["replay"])
        self._rng.bit_generator.state = state["rng"]
        self._added = int(state["added"])


class Actor:
    """Steps its own batched environment and feeds the replay (a Ray actor when used).

    Args:
      env_name: an agents/environments.py name.
      envs_per_actor: E, copies in this actor's batched environment.
      config: D4PG settings (N-step length, discount).
      sigma: this actor's exploration noise scale in unit action space.
      replay_server: the `ReplayServer` actor handle.
    """

    def __init__(
        self, env_name: str, envs_per_actor: int, config: d4pg.Config, sigma: float, replay_server
    ):
        self._env_name = env_name
        self._num_envs = int(envs_per_actor)
        self._config = config
        self._sigma = float(sigma)
        self._replay_server = replay_server
        self._env = None

    def pid(self) -> int:
        """The operating-system process id (tests kill it to check restarts)."""
        return os.getpid()

    def process(self) -> str:
        """Ray's id of this actor's worker process (`collect` reports it too)."""
        return _process_id()

    def _start(self, env_seed: int, noise_seed: int) -> None:
        self._env = environments.load(self._env_name, env_seed, self._num_envs)
        self._boundary = specs.boundary(self._env.observation_spec(), self._env.action_spec())
        self._writer = replay.NStepWriter(
            self._num_envs, self._config.n_step, self._config.discount
        )
        self._key = jax.random.PRNGKey(noise_seed)
        self._timestep = self._env.reset()
        self._episode_returns = np.zeros(self._num_envs)

    def collect(self, actor_params, budget: int, env_seed: int, noise_seed: int) -> dict:
        """Acts until at least `budget` environment steps are made; adds them to replay.

        The environment is built, with `env_seed` and `noise_seed`, on the first call
        after the actor (re)starts, and continues its episodes across calls.

        Returns steps (environment steps made), added (transitions inserted),
        returns (episodes finished), busy_s (seconds spent) and replay_size.
        """
        started = time.perf_counter()
        if self._env is None:
            self._start(env_seed, noise_seed)
        params = jax.tree.map(jnp.asarray, actor_params)
        steps, returns, chunks = 0, [], []
        while steps < budget:
            timestep = self._timestep
            actions, self._key = d4pg.behaviour_policy(
                self._boundary, params, timestep.observation, self._key, self._sigma, self._num_envs
            )
            next_timestep = self._env.step(actions)
            transitions = d4pg.write_transitions(
                self._writer, self._boundary, timestep, actions, next_timestep, self._num_envs
            )
            if transitions.reward.shape[0]:
                chunks.append(transitions)
            valid = ~np.asarray(timestep.last())
            ended = np.asarray(next_timestep.last()) & valid
            self._episode_returns += np.where(valid, np.asarray(next_timestep.reward), 0.0)
            returns.extend(float(value) for value in self._episode_returns[ended])
            self._episode_returns[ended] = 0.0
            steps += int(valid.sum())
            self._timestep = next_timestep
        added, size = 0, None
        if chunks:
            batch = replay.Transitions(*(np.concatenate(field) for field in zip(*chunks)))
            added = int(batch.reward.shape[0])
            size = cluster.ray_module().get(self._replay_server.add.remote(batch))
        return {
            "steps": steps,
            "added": added,
            "returns": returns,
            "replay_size": size,
            "busy_s": time.perf_counter() - started,
            "process": _process_id(),
        }


def _process_id() -> str:
    """Ray's id of this worker process: it changes when Ray restarts an actor."""
    return cluster.ray_module().get_runtime_context().get_worker_id()


@dataclasses.dataclass
class Progress:
    """The driver's counters, checkpointed so that a resumed run continues its log.

    env_steps: environment steps reported by the actors (the run's clock).
    update_credit: updates owed to the learner. restarts: actor restarts so far.
    finished_returns, metric_sums, metric_counts: since the last metrics row.
    actor_steps, actor_busy_s, updates_since, since_s: rates since the last row.
    """

    env_steps: int = 0
    update_credit: float = 0.0
    restarts: int = 0
    elapsed_s: float = 0.0
    replay_size: int = 0
    last_eval_step: int | None = None
    finished_returns: list = dataclasses.field(default_factory=list)
    metric_sums: dict = dataclasses.field(default_factory=dict)
    metric_counts: dict = dataclasses.field(default_factory=dict)
    actor_steps: dict = dataclasses.field(default_factory=dict)
    actor_busy_s: dict = dataclasses.field(default_factory=dict)
    updates_since: int = 0
    since_s: float = 0.0


def train(
    env_name: str,
    num_steps: int,
    seed: int,
    out_dir: str,
    *,
    num_actors: int,
    envs_per_actor: int = 1,
    actor_update_period: int = 100,
    chunk_steps: int = 200,
    config_overrides: Mapping[str, object] | None = None,
    eval_every: int = 10_000,
    eval_episodes: int = 10,
    checkpoint_every: int | None = None,
    resume: bool = False,
    overwrite: bool = False,
    checkpoint_replay: bool = False,
    ray_address: str | None = None,
    progress: bool = True,
    noise_exponent: float = NOISE_EXPONENT,
    lockstep: bool = False,
) -> experiment.RunResult:
    """Trains D4PG with `num_actors` Ray actors into the run directory `out_dir`.

    Args:
      env_name: an agents/environments.py name; each actor loads it batched.
      num_steps: environment steps over all actors and copies.
      seed: seeds the learner, and through `experiment.derived_seed` every actor's
        environment and noise (streams ACTOR_STREAM, NOISE_STREAM, indexed by actor,
        its restart count and the run's resume count) and the replay's sampling.
      out_dir: the run directory (metrics.csv, checkpoint.npz, learning_curve.png,
        config.json, as agents/experiment.py writes them).
      num_actors: K >= 1 Ray actors.
      envs_per_actor: E >= 1 environment copies in each actor's batch.
      actor_update_period: t_actors, learner updates between parameter broadcasts.
      chunk_steps: environment steps an actor makes per call (its parameters are
        refreshed between calls; a dead actor loses at most one chunk).
      config_overrides: fields of `d4pg.Config` to change.
      eval_every, eval_episodes, checkpoint_every, resume, overwrite, progress: as
        in `experiment.train`.
      checkpoint_replay: also checkpoint the replay table (large), so that a resumed
        run keeps its data; otherwise the resumed run refills the replay.
      ray_address: None starts a local Ray instance for the run; otherwise the
        address of a running cluster ('host:port', 'ray://host:port' or 'auto').
      noise_exponent: the exponent of the per-actor noise schedule (`noise_scales`).
      lockstep: alternate collection and learning instead of overlapping them: the
        actors' chunks are handed out only once the learner has made every update
        it owes, and the learner samples only while no chunk is out. With one
        actor a run then repeats itself bit for bit for a given seed (what each
        chunk is collected with, and what each batch is sampled from, no longer
        depends on timing); with more, the order in which their chunks reach the
        replay still does. Slower: the actors wait while the learner learns.
    """
    for name, value, lowest in (
        ("num_steps", num_steps, 0),
        ("num_actors", num_actors, 1),
        ("envs_per_actor", envs_per_actor, 1),
        ("actor_update_period", actor_update_period, 1),
        ("chunk_steps", chunk_steps, 1),
        ("eval_every", eval_every, 1),
        ("eval_episodes", eval_episodes, 1),
    ):
        if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < lowest:
            raise ValueError(f"{name} = {value!r}; expected an integer >= {lowest}.")
    checkpoint_every = eval_every if checkpoint_every is None else checkpoint_every
    if isinstance(checkpoint_every, bool) or int(checkpoint_every) < 1:
        raise ValueError(f"checkpoint_every = {checkpoint_every!r}; expected a positive integer.")
    if ray_address is not None:
        cluster.check_address(ray_address)
    make_env = environments.factory(env_name)
    experiment.refuse_existing_run(out_dir, resume, overwrite)
    config = experiment.make_config("d4pg", config_overrides)
    checkpoint_path = os.path.join(out_dir, experiment.CHECKPOINT_FILE)
    identity = {
        "agent": "d4pg",
        "env": env_name,
        "seed": int(seed),
        "num_envs": int(envs_per_actor),
        "actors": int(num_actors),
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
    learner = d4pg.Learner(
        config, boundary.layout.size, boundary.bounds.size, np.random.default_rng(seed)
    )
    state, resumes = Progress(), 0
    if payload is not None:
        if tuple(payload["observation_keys"] or ()) != tuple(boundary.layout.keys or ()):
            raise ValueError(
                f"resume: observation keys {boundary.layout.keys} differ from the "
                f"checkpoint's {payload['observation_keys']}."
            )
        learner.load_state_dict(checkpoint.restore(learner.state_dict(), payload["learner_state"]))
        state = checkpoint.restore(Progress(), payload["progress"])
        resumes = payload["resumes"] + 1

    started_ray = cluster.connect(ray_address, num_cpus=max(os.cpu_count() or 1, num_actors))
    ray = cluster.ray_module()
    replay_server = ray.remote(num_cpus=0, max_restarts=0)(ReplayServer).remote(
        config,
        boundary.layout.size,
        boundary.bounds.size,
        experiment.derived_seed(seed, REPLAY_STREAM, resumes),
    )
    if payload is not None and payload.get("replay") is not None:
        # Rebuilt against the fresh server's own state (its NamedTuples).
        template = ray.get(replay_server.state_dict.remote())
        ray.get(
            replay_server.load_state_dict.remote(checkpoint.restore(template, payload["replay"]))
        )
    else:
        # Updates owed on data that is gone are not owed any more.
        state.replay_size, state.update_credit = 0, 0.0
    # max_concurrency 2: `pid` answers while `collect` runs (the driver never sends an
    # actor a second `collect` before the first returned).
    actor_class = ray.remote(num_cpus=1, max_restarts=-1, max_task_retries=0, max_concurrency=2)(
        Actor
    )
    run_tag = f"{os.getpid()}-{time.monotonic_ns()}"
    actors = [
        actor_class.options(name=f"d4pg-actor-{k}-{run_tag}", namespace="agents").remote(
            env_name, envs_per_actor, config, sigma, replay_server
        )
        for k, sigma in enumerate(noise_scales(config.sigma, num_actors, noise_exponent))
    ]

    experiment.write_config_json(
        out_dir,
        {
            "agent": "d4pg",
            "env": env_name,
            "seed": int(seed),
            "num_envs": int(envs_per_actor),
            "actors": int(num_actors),
            "actor_update_period": actor_update_period,
            "chunk_steps": chunk_steps,
            "lockstep": bool(lockstep),
            "num_steps": int(num_steps),
            "eval_every": eval_every,
            "eval_episodes": eval_episodes,
            "config": dataclasses.asdict(config),
        },
    )
    metrics_path = os.path.join(out_dir, experiment.METRICS_FILE)
    log = csv_log.CsvLog(
        metrics_path,
        experiment.BASE_COLUMNS + d4pg.D4PG.metric_names + DISTRIBUTED_COLUMNS,
        keep_until_step=state.env_steps if payload is not None else None,
    )
    title = f"d4pg ({num_actors} actors) on {env_name} (seed {seed})"
    last_return = [math.nan]
    clock_started = time.perf_counter()
    elapsed_before = state.elapsed_s

    def clock() -> float:
        return elapsed_before + time.perf_counter() - clock_started

    def evaluate_and_log() -> None:
        seeds = [
            experiment.derived_seed(seed, experiment.EVAL_STREAM, state.env_steps, episode)
            for episode in range(eval_episodes)
        ]
        returns = evaluation.evaluate_on_fresh_envs(
            d4pg.evaluation_policy(boundary, learner.actor), make_env, seeds
        )
        now = clock()
        interval = max(now - state.since_s, 1e-9)
        actor_rates = [
            state.actor_steps[k] / state.actor_busy_s[k]
            for k in state.actor_steps
            if state.actor_busy_s[k] > 0
        ]
        metrics = {
            name: state.metric_sums[name] / state.metric_counts[name] for name in state.metric_sums
        }
        log.write(
            {
                "step": state.env_steps,
                "wall_time_s": round(now, 3),
                "eval_return": float(np.mean(returns)),
                "eval_return_std": float(np.std(returns)),
                "train_return": (
                    float(np.mean(state.finished_returns)) if state.finished_returns else None
                ),
                "train_episodes": len(state.finished_returns),
                **metrics,
                "actor_steps_per_s": float(np.mean(actor_rates)) if actor_rates else None,
                "learner_updates_per_s": state.updates_since / interval,
                "replay_size": state.replay_size,
                "restarts": state.restarts,
            }
        )
        state.finished_returns, state.metric_sums, state.metric_counts = [], {}, {}
        state.actor_steps, state.actor_busy_s = {}, {}
        state.updates_since, state.since_s = 0, now
        state.last_eval_step = state.env_steps
        last_return[0] = float(np.mean(returns))

    def save_checkpoint() -> None:
        state.elapsed_s = clock()
        checkpoint.save(
            checkpoint_path,
            {
                "agent_name": "d4pg",
                "config": dataclasses.asdict(config),
                "env_name": env_name,
                "seed": int(seed),
                "num_envs": int(envs_per_actor),
                "run_identity": {"actors": int(num_actors)},
                "observation_keys": boundary.layout.keys,
                "learner_state": learner.state_dict(),
                "progress": state,
                "resumes": resumes,
                "replay": ray.get(replay_server.state_dict.remote()) if checkpoint_replay else None,
            },
        )
        experiment.plot_run(out_dir, title)

    # The learner's first parameters, and a counter of broadcasts per actor's restarts.
    params_ref = ray.put(learner.state_dict().actor)
    last_broadcast = learner.num_updates
    actor_restarts = [0] * num_actors
    # Each actor's process when it started: a result from another is a restart.
    actor_processes = ray.get([actor.process.remote() for actor in actors])
    in_flight = {}
    idle = set(range(num_actors))
    assigned = state.env_steps
    lag_limit = chunk_steps * num_actors * config.updates_per_transition
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

    def submit(k: int) -> None:
        nonlocal assigned
        budget = min(chunk_steps, num_steps - assigned)
        if budget <= 0:
            return
        streams = (k, actor_restarts[k], resumes)
        reference = actors[k].collect.remote(
            params_ref,
            budget,
            experiment.derived_seed(seed, ACTOR_STREAM, *streams),
            experiment.derived_seed(seed, NOISE_STREAM, *streams),
        )
        in_flight[reference] = (k, budget)
        assigned += budget
        idle.discard(k)

    def iteration() -> bool:
        """Hands out chunks, learns what is owed, takes in finished chunks; False once
        nothing is out and nothing is owed (or Ctrl-C was pressed)."""
        nonlocal params_ref, last_broadcast, assigned
        owed = state.update_credit >= 1.0 and state.replay_size >= config.batch_size
        if lockstep:
            # Hand out chunks only once every owed update is made, and learn only
            # while no chunk is out: the learner's inputs are then fixed.
            learner_caught_up, learn = not owed, owed and not in_flight
        else:
            learner_caught_up = (
                state.update_credit <= lag_limit or state.replay_size < config.batch_size
            )
            learn = owed
        if not driver.interrupted() and learner_caught_up:
            for k in sorted(idle):
                submit(k)
        if not in_flight and (not learn or driver.interrupted()):
            return False
        if learn:
            count = min(int(state.update_credit), BATCHES_PER_SAMPLE)
            samples = ray.get(replay_server.sample.remote(config.batch_size, count))
            indices, priorities = [], []
            for batch, index, weights in samples:
                metrics, priority = learner.step(batch, weights)
                indices.append(index)
                priorities.append(np.asarray(priority))
                for name in d4pg.D4PG.metric_names:
                    state.metric_sums[name] = state.metric_sums.get(name, 0.0) + float(
                        metrics[name]
                    )
                    state.metric_counts[name] = state.metric_counts.get(name, 0) + 1
            if config.prioritized_replay:
                replay_server.update_priorities.remote(indices, priorities)
            state.update_credit -= count
            state.updates_since += count
            if learner.num_updates - last_broadcast >= actor_update_period:
                params_ref = ray.put(learner.state_dict().actor)
                last_broadcast = learner.num_updates
        if not in_flight:
            return True
        ready, _ = ray.wait(
            list(in_flight), num_returns=1, timeout=0 if learn and not lockstep else None
        )
        for reference in ready:
            k, budget = in_flight.pop(reference)
            idle.add(k)
            try:
                result = ray.get(reference)
            except cluster.actor_died_errors():
                # Ray restarts the actor; its chunk is lost and handed out again, on
                # new seeds. Not counted here: the call running when the process died
                # and the chunk handed out again while Ray restarts the actor fail
                # alike (ActorUnavailableError), so one death fails several calls.
                actor_restarts[k] += 1
                assigned -= budget
                continue
            if result["process"] != actor_processes[k]:
                # A result from a new process: one restart (or several deaths before
                # any result, counted once), however many calls failed meanwhile.
                state.restarts += 1
                actor_restarts[k] += 1
            actor_processes[k] = result["process"]
            previous = state.env_steps
            state.env_steps += result["steps"]
            assigned += result["steps"] - budget
            if result["replay_size"] is not None:
                # The table only grows (to its capacity), and two actors' results can
                # be taken in the other order than their insertions were made.
                state.replay_size = max(state.replay_size, result["replay_size"])
            if state.replay_size >= config.min_replay_size:
                state.update_credit += result["steps"] * config.updates_per_transition
            state.finished_returns.extend(result["returns"])
            state.actor_steps[k] = state.actor_steps.get(k, 0) + result["steps"]
            state.actor_busy_s[k] = state.actor_busy_s.get(k, 0.0) + result["busy_s"]
            driver.advanced(previous)
        return True

    try:
        driver.run(iteration)
    finally:
        driver.close(log, [*actors, replay_server], started_ray)
    return experiment.RunResult(
        out_dir=out_dir,
        env_steps=state.env_steps,
        final_eval_return=last_return[0],
        metrics_path=metrics_path,
        checkpoint_path=checkpoint_path,
        plot_path=os.path.join(out_dir, experiment.PLOT_FILE),
        agent=learner,
    )
