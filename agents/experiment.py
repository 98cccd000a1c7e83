"""A training run in a directory: metrics CSV, checkpoint, learning-curve plot, resume.

A run directory holds:

  metrics.csv          one row per evaluation: step, wall_time_s, eval_return,
                       eval_return_std, train_return, train_episodes, and the
                       agent's learning metrics (means since the previous row).
  checkpoint.npz       the latest checkpoint (agents/checkpoint.py): data only, no
                       pickle; a run directory of an earlier version holds
                       checkpoint.pkl, refused until converted.
  learning_curve.png   eval_return against step.
  config.json          the agent, its configuration and the run settings, for people.

Seeds: environment copy i of a run with seed s is seeded with
`derived_seed(s, TRAIN_STREAM, 0, i)` (a batch from `make_batch` gets the seed
`derived_seed(s, TRAIN_STREAM, 0)`); evaluation at env step n plays episode j on a
new environment seeded `derived_seed(s, EVAL_STREAM, n, j)`, so evaluations depend
on nothing but the parameters and the step.

Resuming is exact (bit-identical parameters to the uninterrupted run) when the
environment's state can be recorded as data, since it goes into the checkpoint:
the batch's `snapshot()` (this project's environments and batches have one; a
`LoopedBatch` takes each copy's `snapshot()`, or the copy's attributes where they
are all data, see agents/vector.py), returned with `restore()` on environments
built alike. If it cannot, the run continues on new environments, seeded from a
resume counter, and says so in a warning.
"""

import ast
import dataclasses
import json
import logging
import math
import os
import signal
import threading
import time
from collections.abc import Callable, Mapping

import dm_env
import numpy as np

from agents import (
    checkpoint,
    csv_log,
    d4pg,
    environments,
    evaluation,
    loop,
    plotting,
    ppo,
    specs,
    tracking,
    vector,
)
from composer_tasks import seeding

AGENTS = {"d4pg": (d4pg.Config, d4pg.D4PG), "ppo": (ppo.Config, ppo.PPO)}
METRICS_FILE = "metrics.csv"
CHECKPOINT_FILE = "checkpoint.npz"
# The pickle checkpoint of runs written before checkpoints became data.
LEGACY_CHECKPOINT_FILE = "checkpoint.pkl"
PLOT_FILE = "learning_curve.png"
CONFIG_FILE = "config.json"
PLOT_INTERVAL_S = 60.0
TRAIN_STREAM, EVAL_STREAM, RESUME_STREAM, CLI_EVAL_STREAM = 0, 1, 2, 3
BASE_COLUMNS = (
    "step",
    "wall_time_s",
    "eval_return",
    "eval_return_std",
    "train_return",
    "train_episodes",
)

_log = logging.getLogger(__name__)


def derived_seed(seed: int, *path: int) -> int:
    """A 32-bit seed derived from `seed` and a path of integers.

    `composer_tasks.seeding.derive_seed`, the project's one seed derivation (numpy's
    SeedSequence; that module imports only numpy, so agents may use it).
    """
    return seeding.derive_seed(seed, *path)


def _agent_entry(agent_name: str):
    if agent_name not in AGENTS:
        raise ValueError(f"agent {agent_name!r} is unknown; expected one of {sorted(AGENTS)}.")
    return AGENTS[agent_name]


def make_config(agent_name: str, overrides: Mapping[str, object] | None = None):
    """The agent's default Config with `overrides` applied (see `apply_overrides`)."""
    config_class, _ = _agent_entry(agent_name)
    return apply_overrides(config_class(), overrides)


def apply_overrides(defaults, overrides: Mapping[str, object] | None):
    """The frozen dataclass `defaults` with `overrides` applied, types checked.

    Values may be Python values or strings holding Python literals (as from the
    command line, e.g. 'critic_hidden_sizes=(64, 64)'); strings that are not
    literals stay strings (e.g. target_update=soft).
    """
    config_class = type(defaults)
    fields = {field.name: field for field in dataclasses.fields(config_class)}
    changes = {}
    for name, value in (overrides or {}).items():
        if name not in fields:
            raise ValueError(
                f"{config_class.__module__}.{config_class.__name__} has no setting {name!r}; "
                f"expected one of {sorted(fields)}."
            )
        if isinstance(value, str):
            try:
                value = ast.literal_eval(value)
            except (ValueError, SyntaxError):
                pass
        default = getattr(defaults, name)
        if isinstance(default, bool):
            if not isinstance(value, bool):
                raise TypeError(f"{name} = {value!r}; expected True or False.")
        elif isinstance(default, float) and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        elif isinstance(default, tuple) and isinstance(value, list | tuple):
            value = tuple(value)
        if type(value) is not type(default):
            raise TypeError(
                f"{name} = {value!r} is {type(value).__name__}; expected {type(default).__name__}."
            )
        changes[name] = value
    return dataclasses.replace(defaults, **changes)


@dataclasses.dataclass(frozen=True)
class RunResult:
    """What `train` leaves behind. `agent` is the trained agent object."""

    out_dir: str
    env_steps: int
    final_eval_return: float
    metrics_path: str
    checkpoint_path: str
    plot_path: str
    agent: object


class Interrupted(Exception):
    """Training stopped on SIGINT after writing a checkpoint at `env_steps`."""

    def __init__(self, out_dir: str, env_steps: int):
        super().__init__(
            f"interrupted at step {env_steps}; the checkpoint in {out_dir!r} "
            "holds that step, continue with --resume."
        )
        self.out_dir = out_dir
        self.env_steps = env_steps


class StopOnInterrupt:
    """Within `with`, SIGINT only asks to stop; calling the object says whether it did.

    A KeyboardInterrupt raised at an arbitrary line could tear a checkpoint being
    written or lose the steps since the last one; instead the training loop checks
    this flag between steps, and the run stops at a step boundary with a checkpoint.
    Outside the main thread (where Python delivers no signals) it does nothing.
    """

    def __init__(self):
        self._requested = False
        self._previous = None

    def __call__(self) -> bool:
        return self._requested

    def _request(self, signum, frame) -> None:  # pylint: disable=unused-argument
        self._requested = True

    def __enter__(self) -> "StopOnInterrupt":
        if threading.current_thread() is threading.main_thread():
            self._previous = signal.signal(signal.SIGINT, self._request)
        return self

    def __exit__(self, *exc_info) -> None:
        if self._previous is not None:
            signal.signal(signal.SIGINT, self._previous)
            self._previous = None


def refuse_existing_run(out_dir: str, resume: bool, overwrite: bool) -> None:
    """Raises FileExistsError if `out_dir` holds a run and neither resume nor overwrite."""
    if resume or overwrite:
        return
    existing = [
        name
        for name in (CHECKPOINT_FILE, LEGACY_CHECKPOINT_FILE, METRICS_FILE)
        if os.path.exists(os.path.join(out_dir, name))
    ]
    if existing:
        raise FileExistsError(
            f"{out_dir!r} already holds a run ({', '.join(existing)}); continue it with "
            "resume=True (--resume), replace it with overwrite=True (--overwrite), or "
            "choose another directory."
        )


def write_config_json(out_dir: str, settings: dict) -> None:
    """Writes config.json (for people) atomically, with the run's file mode."""
    checkpoint.write_atomically(
        os.path.join(out_dir, CONFIG_FILE), json.dumps(settings, indent=2).encode()
    )


def check_same_run(payload: dict, run: dict) -> None:
    """Raises ValueError naming both configurations unless `run` is the checkpoint's run.

    `run` has the keys agent, env, seed and num_envs (and any other identity keys the
    checkpoint records under the same names); an env of None on either side (a
    `make_env` with no name) is not compared.
    """
    saved = {
        "agent": payload["agent_name"],
        "env": payload["env_name"],
        "seed": payload["seed"],
        "num_envs": payload["num_envs"],
        **payload.get("run_identity", {}),
    }
    if run.get("env") is None or saved.get("env") is None:
        run = {key: value for key, value in run.items() if key != "env"}
    different = [key for key in run if saved.get(key) != run[key]]
    if different:

        def describe(settings):
            return ", ".join(f"{key}={settings.get(key)!r}" for key in run)

        raise ValueError(
            f"resume: this run ({describe(run)}) is not the checkpoint's run "
            f"({describe(saved)}): {', '.join(different)} differ. Resume with the checkpoint's "
            "settings, or start a new run in another directory (or overwrite this one)."
        )


def load_resumed_run(checkpoint_path: str, run: dict, config, config_overrides):
    """Loads the checkpoint a run resumes from: checks it is of the same run (`run`,
    see `check_same_run`) and returns (payload, config), the config the checkpoint's,
    which overrides given again must equal.

    Raises:
      ValueError: another run's checkpoint, or overrides that change its config;
        a run directory of an earlier version (a pickle checkpoint, never
        unpickled here), with the command that converts it.
    """
    legacy = os.path.join(os.path.dirname(checkpoint_path), LEGACY_CHECKPOINT_FILE)
    if not os.path.exists(checkpoint_path) and os.path.exists(legacy):
        raise checkpoint.LegacyCheckpointError(
            f"resume: {os.path.dirname(checkpoint_path)!r} holds a pickle checkpoint of an "
            f"earlier version ({LEGACY_CHECKPOINT_FILE}), which is not loaded: unpickling can "
            "run any code the file holds. If you trust it, convert it once: python -m "
            f"agents.checkpoint convert {legacy} {checkpoint_path} --trust"
        )
    payload = checkpoint.load(checkpoint_path)
    check_same_run(payload, run)
    saved_config = type(config)(**payload["config"])
    if config_overrides and saved_config != config:
        raise ValueError(
            f"resume: config {config} differs from the checkpoint's {saved_config}; "
            "resume without overrides to keep the checkpoint's."
        )
    return payload, saved_config


def _build_env(make_env, make_batch, seed: int, stream: int, num_envs: int, extra: int = 0):
    if make_batch is not None:
        return make_batch(derived_seed(seed, stream, extra), num_envs)
    return vector.LoopedBatch(
        [
            lambda index=index: make_env(derived_seed(seed, stream, extra, index))
            for index in range(num_envs)
        ]
    )


def _env_record(env) -> dict | None:
    """The environment's `snapshot()` as checkpoint data, or None (logged) where it
    has none or its snapshot is not data.

    A freshly built environment `restore`d from it continues exactly. Environments
    are never pickled whole: a checkpoint holds data, never objects (code).
    """
    if not callable(getattr(env, "snapshot", None)):
        error: Exception = TypeError(f"{type(env).__name__} has no snapshot()")
    else:
        try:
            snapshot = env.snapshot()
            # Encoded once here, so that a snapshot that is not data is found now,
            # not when every later checkpoint is written.
            checkpoint.check_data(snapshot)
            return snapshot
        except (ValueError, TypeError, AttributeError) as snapshot_error:
            error = snapshot_error
    _log.warning(
        "The environment's state cannot be recorded as data (%s); a resumed run will "
        "start new episodes and not repeat the uninterrupted run exactly.",
        error,
    )
    return None


def _checkpointed_loop_state(state: loop.LoopState) -> loop.LoopState:
    """`state` with its timestep as a `dm_env.TimeStep`.

    A batch may return its own TimeStep type (composer_tasks' `BatchTimeStep`: the
    same fields, and `first()`/`mid()`/`last()` that compare the step types the
    same way), which a checkpoint cannot name: only dm_env's types are rebuilt
    from a file without a template.
    """
    timestep = state.timestep
    if timestep is None or type(timestep) is dm_env.TimeStep:
        return state
    return dataclasses.replace(state, timestep=dm_env.TimeStep(*timestep))


def plot_run(out_dir: str, title: str = "") -> str:
    """Redraws learning_curve.png from metrics.csv and returns its path."""
    rows = [
        row for row in csv_log.read_rows(os.path.join(out_dir, METRICS_FILE)) if row["eval_return"]
    ]
    steps = [int(row["step"]) for row in rows]
    means = [float(row["eval_return"]) for row in rows]
    spreads = [float(row["eval_return_std"] or 0.0) for row in rows]
    path = os.path.join(out_dir, PLOT_FILE)
    plotting.plot_learning_curves({title: {"evaluation": (steps, means, spreads)}}, path)
    return path


def train(
    agent_name: str,
    make_env: Callable[[int], dm_env.Environment],
    num_steps: int,
    seed: int,
    out_dir: str,
    *,
    env_name: str | None = None,
    num_envs: int = 1,
    config_overrides: Mapping[str, object] | None = None,
    eval_every: int = 10_000,
    eval_episodes: int = 10,
    checkpoint_every: int | None = None,
    resume: bool = False,
    progress: bool = True,
    make_batch: Callable[[int, int], object] | None = None,
    overwrite: bool = False,
    tracking_settings: tracking.Settings | None = None,
    on_device: bool = False,
    max_wall_s: float | None = None,
) -> RunResult:
    """Trains an agent, evaluating, logging and checkpointing into `out_dir`.

    Args:
      agent_name: 'd4pg' or 'ppo'.
      make_env: `make_env(seed)` returns a new, seeded dm_env environment.
      num_steps: total environment steps (summed over copies) to train for.
      seed: seeds the agent and, through `derived_seed`, every environment.
      out_dir: the run directory.
      env_name: recorded in the checkpoint so `agents.evaluate` can rebuild the
        environment (agents/environments.py); None when make_env has no name.
      num_envs: K environment copies stepped as one batch.
      config_overrides: settings of the agent's Config to change (`make_config`).
      eval_every, eval_episodes: evaluate the deterministic policy on
        `eval_episodes` episodes every `eval_every` steps, at step 0 and at the end.
      checkpoint_every: checkpoint period in steps (default: eval_every); a
        checkpoint is also written at the end.
      resume: continue the run in `out_dir` from its checkpoint instead of starting.
      progress: show a progress bar.
      make_batch: optional `make_batch(seed, num_envs)` returning a batched
        environment (agents/vector.py) to train on, e.g. on MuJoCo's batch; by
        default the K copies are `make_env` environments in a `LoopedBatch`.
        Evaluation always uses `make_env`.
      overwrite: without `resume`, replace a run already in `out_dir` (otherwise
        that refuses, so that no checkpoint or metrics are lost by mistake).
      tracking_settings: TensorBoard, W&B and evaluation videos besides
        metrics.csv (agents/tracking.py); None tracks nothing more.
      on_device: PPO only: train with `ppo.DevicePPO`, whose rollout, advantages and
        updates stay on the JAX device, for a `make_batch` whose TimeSteps are JAX
        arrays (the Warp backend's `return_jax`); its checkpoints are `PPO`'s.
      max_wall_s: a wall-clock budget in seconds of training (`LoopState.elapsed_s`,
        summed over resumptions): the run stops at the first evaluation at or past
        it, with that evaluation and a checkpoint as its last, even if `num_steps`
        is not reached (`RunResult.env_steps` says where). None: no such budget.

    Raises:
      FileExistsError: `out_dir` holds a run and neither `resume` nor `overwrite`.
      ValueError: `resume` into a run of another configuration (agent, environment,
        seed, copies or Config); the message names both.
      Interrupted: SIGINT arrived; the run stopped after the current step (or the
        checkpoint being written) and wrote a checkpoint to resume from.
    """
    _, agent_class = _agent_entry(agent_name)
    if on_device:
        if agent_name != "ppo":
            raise ValueError(
                f"on_device trains PPO on the device; agent {agent_name!r} has no such path."
            )
        agent_class = ppo.DevicePPO
    for name, value in (
        ("num_steps", num_steps),
        ("num_envs", num_envs),
        ("eval_every", eval_every),
        ("eval_episodes", eval_episodes),
    ):
        lowest = 0 if name == "num_steps" else 1
        if not isinstance(value, int | np.integer) or value < lowest:
            raise ValueError(f"{name} = {value!r}; expected an integer >= {lowest}.")
    if max_wall_s is not None and not (
        isinstance(max_wall_s, int | float | np.integer | np.floating)
        and not isinstance(max_wall_s, bool)
        and max_wall_s > 0
    ):
        raise ValueError(f"max_wall_s = {max_wall_s!r}; expected a positive number of seconds.")
    checkpoint_every = eval_every if checkpoint_every is None else checkpoint_every
    if int(checkpoint_every) < 1:
        raise ValueError(f"checkpoint_every = {checkpoint_every!r}; expected a positive integer.")
    checkpoint_path = os.path.join(out_dir, CHECKPOINT_FILE)
    metrics_path = os.path.join(out_dir, METRICS_FILE)
    refuse_existing_run(out_dir, resume, overwrite)
    os.makedirs(out_dir, exist_ok=True)
    config = make_config(agent_name, config_overrides)

    if resume:
        payload, config = load_resumed_run(
            checkpoint_path,
            {"agent": agent_name, "env": env_name, "seed": int(seed), "num_envs": int(num_envs)},
            config,
            config_overrides,
        )
        env_name = payload["env_name"] if env_name is None else env_name
        state = payload["loop_state"]
        resumes = payload["resumes"]
        state = checkpoint.restore(loop.LoopState(), state)
        if payload.get("env_snapshot") is not None:
            # Built as the interrupted run built it, then returned to where it was.
            env = _build_env(make_env, make_batch, seed, TRAIN_STREAM, num_envs)
            env.restore(checkpoint.restore(env.snapshot(), payload["env_snapshot"]))
        else:
            resumes += 1
            _log.warning(
                "The checkpoint holds no environment state; resuming on new "
                "environments (resume %d).",
                resumes,
            )
            env = _build_env(make_env, make_batch, seed, RESUME_STREAM, num_envs, extra=resumes)
            state.timestep = None
        last_eval_step = payload["last_eval_step"]
    else:
        env = _build_env(make_env, make_batch, seed, TRAIN_STREAM, num_envs)
        state = loop.LoopState()
        resumes = 0
        last_eval_step = None

    agent = agent_class(config, env.observation_spec(), env.action_spec(), num_envs, seed)
    layout_keys = specs.observation_layout(env.observation_spec()).keys
    if resume:
        if tuple(payload["observation_keys"] or ()) != tuple(layout_keys or ()):
            raise ValueError(
                f"resume: observation keys {layout_keys} differ from the checkpoint's "
                f"{payload['observation_keys']}."
            )
        agent.load_state_dict(checkpoint.restore(agent.state_dict(), payload["agent_state"]))
    write_config_json(
        out_dir,
        {
            "agent": agent_name,
            "env": env_name,
            "seed": int(seed),
            "num_envs": num_envs,
            "num_steps": int(num_steps),
            "eval_every": eval_every,
            "eval_episodes": eval_episodes,
            "config": dataclasses.asdict(config),
        },
    )
    log = csv_log.CsvLog(
        metrics_path,
        BASE_COLUMNS + tuple(agent.metric_names),
        keep_until_step=state.env_steps if resume else None,
        tracker=tracking.open_tracker(
            tracking_settings, out_dir, state.env_steps if resume else None
        ),
    )
    title = f"{agent_name} on {env_name or 'environment'} (seed {seed})"
    last_eval = {"step": last_eval_step, "return": math.nan}
    out_of_time = [False]

    def evaluate_and_log(state: loop.LoopState) -> None:
        seeds = [
            derived_seed(seed, EVAL_STREAM, state.env_steps, episode)
            for episode in range(eval_episodes)
        ]
        returns = evaluation.evaluate_on_fresh_envs(agent.policy(), make_env, seeds)
        train_returns, metrics = state.drain()
        log.write(
            {
                "step": state.env_steps,
                "wall_time_s": round(state.elapsed_s, 3),
                "eval_return": float(np.mean(returns)),
                "eval_return_std": float(np.std(returns)),
                "train_return": float(np.mean(train_returns)) if train_returns else None,
                "train_episodes": len(train_returns),
                **metrics,
            }
        )
        last_eval["step"], last_eval["return"] = state.env_steps, float(np.mean(returns))
        out_of_time[0] = max_wall_s is not None and state.elapsed_s >= max_wall_s
        if log.tracker is not None and log.tracker.video_due(state.env_steps):
            log.tracker.record_video(state.env_steps, agent.policy(), make_env, seeds[0])

    env_is_recordable = [True]
    last_checkpoint_step = [None]
    last_plot_time = [-math.inf]

    def save_checkpoint(state: loop.LoopState, final: bool = False) -> None:
        last_checkpoint_step[0] = state.env_steps
        # An environment that failed to be recorded once will fail again; try only once.
        env_snapshot = _env_record(env) if env_is_recordable[0] else None
        env_is_recordable[0] = env_snapshot is not None
        checkpoint.save(
            checkpoint_path,
            {
                "agent_name": agent_name,
                "config": dataclasses.asdict(config),
                "env_name": env_name,
                "seed": int(seed),
                "num_envs": int(num_envs),
                "observation_keys": layout_keys,
                "agent_state": agent.state_dict(),
                "loop_state": _checkpointed_loop_state(state),
                "env_snapshot": env_snapshot,
                "resumes": resumes,
                "last_eval_step": last_eval["step"],
            },
        )
        # Drawing takes a noticeable fraction of a second; at most once a minute
        # during training, and always at the end.
        if final or time.monotonic() - last_plot_time[0] > PLOT_INTERVAL_S:
            plot_run(out_dir, title)
            last_plot_time[0] = time.monotonic()

    interrupt = StopOnInterrupt()
    try:
        with interrupt:
            if last_eval["step"] is None:
                evaluate_and_log(state)
            state = loop.run(
                agent,
                env,
                num_steps,
                state=state,
                progress=progress,
                periodic=(
                    loop.Periodic(eval_every, evaluate_and_log),
                    loop.Periodic(checkpoint_every, save_checkpoint),
                ),
                should_stop=lambda: interrupt() or out_of_time[0],
            )
            if interrupt() and state.env_steps < num_steps:
                save_checkpoint(state, final=True)
                raise Interrupted(out_dir, state.env_steps)
        final_evaluation = last_eval["step"] != state.env_steps
        if final_evaluation:
            evaluate_and_log(state)
        if final_evaluation or last_checkpoint_step[0] != state.env_steps:
            save_checkpoint(state, final=True)
        else:
            plot_run(out_dir, title)
    finally:
        log.close()
    final_return = last_eval["return"]
    if math.isnan(final_return):
        rows = csv_log.read_rows(metrics_path)
        final_return = float(rows[-1]["eval_return"])
    return RunResult(
        out_dir=out_dir,
        env_steps=state.env_steps,
        final_eval_return=final_return,
        metrics_path=metrics_path,
        checkpoint_path=checkpoint_path,
        plot_path=os.path.join(out_dir, PLOT_FILE),
        agent=agent,
    )


def load_agent(checkpoint_path: str, observation_spec, action_spec):
    """Rebuilds the agent of a checkpoint for the given specs. Returns (agent, payload)."""
    payload = checkpoint.load(checkpoint_path)
    learner_template = None
    if payload["agent_name"] == "dppo":
        from agents import dppo  # pylint: disable=import-outside-toplevel

        agent_class = ppo.PPO
        dppo_config = dppo.Config(**payload["config"])
        config = dppo_config.as_ppo()

        def learner_template(state: dict) -> dict:
            # The chief's two optimisers, not PPO's one (evaluation reads the params).
            return {**state, "optimizer": dppo.optimizer_states(dppo_config, state["params"])}

    else:
        config_class, agent_class = _agent_entry(payload["agent_name"])
        config = config_class(**payload["config"])
    layout_keys = specs.observation_layout(observation_spec).keys
    if tuple(payload["observation_keys"] or ()) != tuple(layout_keys or ()):
        raise ValueError(
            f"observation keys {layout_keys} differ from the checkpoint's "
            f"{payload['observation_keys']}."
        )
    # A single-process checkpoint restores the whole agent, whose buffers are sized for
    # the run's copies; a distributed one restores only the learner.
    num_envs = payload["num_envs"] if "agent_state" in payload else 1
    agent = agent_class(config, observation_spec, action_spec, num_envs, payload["seed"])
    if "agent_state" in payload:
        agent.load_state_dict(checkpoint.restore(agent.state_dict(), payload["agent_state"]))
    else:
        # A distributed run checkpoints its learner alone (agents/distributed_d4pg.py,
        # agents/dppo.py); evaluation needs nothing else.
        template = agent.learner.state_dict()
        if learner_template is not None:
            template = learner_template(template)
        agent.learner.load_state_dict(checkpoint.restore(template, payload["learner_state"]))
        if "observation_statistics" in payload:
            agent.load_observation_statistics(payload["observation_statistics"])
    return agent, payload


def evaluate_checkpoint(
    checkpoint_path: str,
    num_episodes: int,
    seed: int = 0,
    make_env: Callable[[int], dm_env.Environment] | None = None,
) -> np.ndarray:
    """Returns of the checkpoint's deterministic policy on `num_episodes` new episodes.

    Args:
      make_env: `make_env(seed)`; by default the checkpoint's environment name is
        loaded through agents/environments.py.
    """
    if make_env is None:
        payload = checkpoint.load(checkpoint_path)
        if payload["env_name"] is None:
            raise ValueError(f"{checkpoint_path!r} records no environment name; pass make_env.")
        make_env = environments.factory(payload["env_name"])
    seeds = [derived_seed(seed, CLI_EVAL_STREAM, episode) for episode in range(num_episodes)]
    probe = make_env(seeds[0])
    agent, _ = load_agent(checkpoint_path, probe.observation_spec(), probe.action_spec())
    probe.close()
    return evaluation.evaluate_on_fresh_envs(agent.policy(), make_env, seeds)


def record_checkpoint_video(
    checkpoint_path: str, video_path: str, seed: int = 0, camera_id: int = 0
) -> None:
    """Records one episode of the checkpoint's deterministic policy to `video_path`
    (.mp4 or .gif), from camera `camera_id` of the checkpoint's environment."""
    # Rendering belongs to the framework, not to the agents: imported only here.
    from composer_tasks import video

    payload = checkpoint.load(checkpoint_path)
    if payload["env_name"] is None:
        raise ValueError(f"{checkpoint_path!r} records no environment name to film")
    env = environments.factory(payload["env_name"])(seed)
    agent, _ = load_agent(checkpoint_path, env.observation_spec(), env.action_spec())
    batched_policy = agent.policy()

    def policy(timestep):
        observation = {
            name: np.asarray(value)[np.newaxis] for name, value in timestep.observation.items()
        }
        return np.asarray(batched_policy(observation))[0]

    try:
        video.record_episode(env, video_path, policy=policy, camera_id=camera_id)
    finally:
        env.close()
