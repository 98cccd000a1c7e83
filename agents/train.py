r"""Trains a reference agent on a named environment.

  python -m agents.train --agent d4pg --env cartpole:swingup --steps 100000 \
      --seed 0 --out runs/d4pg_cartpole_swingup [--num-envs K] [--resume | --overwrite] \
      [--set critic_hidden_sizes=(64,64) --set prioritized_replay=True]

Published per-task settings (agents/presets.py, docs/agents.md): --preset NAME, or
--preset task for the preset made for --env; --set overrides still apply on top, and
a preset's number of copies is used unless --num-envs is given. A task's preset also
gives the steps its threshold needed, which --preset task trains for unless --steps
is given:

  python -m agents.train --agent ppo --env cartpole:swingup --preset task
  python -m agents.train --agent d4pg --env cartpole:swingup --preset batched \
      --samples_per_insert 128 --steps 100000 --out runs/d4pg_swingup

Distributed on Ray (docs/distributed.md), on a local Ray instance or the cluster at
--ray_address:

  python -m agents.train --agent d4pg --env cartpole:balance --steps 30000 --seed 0 \
      --out runs/d4pg_k2 --actors 2 [--envs_per_actor E] [--ray_address host:port] \
      [--lockstep]
  python -m agents.train --agent dppo --env cartpole:balance --steps 200000 --seed 0 \
      --out runs/dppo_w2 --workers 2 --straggler_tolerance 1 --envs_per_actor 16 \
      --set rollout_steps=8192

Writes metrics.csv, checkpoint.npz, learning_curve.png and config.json into --out, by
default a fresh dated directory runs/AGENT_DOMAIN_TASK_YYYYmmdd-HHMMSS whose path is
printed (agents/experiment.py); beside them TensorBoard event files (--tensorboard, on
when tensorboardX is installed), a Weights & Biases run with --wandb PROJECT, and
evaluation videos in videos/ with --video_every STEPS (agents/tracking.py). --resume continues the run in --out from its checkpoint;
without it, an --out that already holds a run is refused unless --overwrite. Ctrl-C
(SIGINT) stops after the current step with a checkpoint and a one-line message.
"""

import datetime
import os
import sys

from absl import app, flags

from agents import environments, experiment, presets, tracking

# The shell's convention for a process ended by SIGINT (128 + 2).
INTERRUPTED_EXIT_CODE = 130

_AGENT = flags.DEFINE_enum(
    "agent",
    "d4pg",
    sorted([*experiment.AGENTS, "dppo"]),
    "Which agent to train; dppo is distributed PPO on Ray.",
)
_ENV = flags.DEFINE_string("env", "cartpole:swingup", "Environment as 'domain:task'.")
_STEPS = flags.DEFINE_integer(
    "steps",
    100_000,
    "Environment steps, summed over copies (with --preset task and no --steps: the "
    "steps the task's threshold needed).",
    lower_bound=0,
)
_SEED = flags.DEFINE_integer("seed", 0, "Seed of the agent and the environments.")
_OUT = flags.DEFINE_string(
    "out", None, "Run directory (default: a fresh runs/AGENT_ENV_DATE-TIME, printed)."
)
_NUM_ENVS = flags.DEFINE_integer(
    "num-envs", 1, "Environment copies stepped as one batch.", lower_bound=1
)
_RESUME = flags.DEFINE_bool("resume", False, "Continue the run in --out from its checkpoint.")
_OVERWRITE = flags.DEFINE_bool(
    "overwrite", False, "Replace a run already in --out (without it, training refuses)."
)
_EVAL_EVERY = flags.DEFINE_integer(
    "eval-every", 10_000, "Steps between evaluations.", lower_bound=1
)
_EVAL_EPISODES = flags.DEFINE_integer(
    "eval-episodes", 10, "Episodes per evaluation.", lower_bound=1
)
_CHECKPOINT_EVERY = flags.DEFINE_integer(
    "checkpoint-every", None, "Steps between checkpoints (default: --eval-every).", lower_bound=1
)
_SET = flags.DEFINE_multi_string(
    "set", [], "Config override name=value (a Python literal), repeatable; see the agent's Config."
)
_PRESET = flags.DEFINE_string(
    "preset",
    None,
    "Named settings of the agent's Config (agents/presets.py), or 'task' for "
    "the preset of --env; --set overrides apply on top.",
)
_SAMPLES_PER_INSERT = flags.DEFINE_float(
    "samples_per_insert",
    None,
    "D4PG: transitions sampled for learning per transition "
    "inserted; sets updates_per_transition = samples_per_insert / batch_size.",
)
_PROGRESS = flags.DEFINE_bool("progress", True, "Show a progress bar.")
_TENSORBOARD = flags.DEFINE_bool(
    "tensorboard",
    tracking.tensorboard_available(),
    "Write TensorBoard event files beside metrics.csv (default: on when tensorboardX "
    "is installed).",
)
_WANDB = flags.DEFINE_string(
    "wandb", None, "Log to this Weights & Biases project (WANDB_MODE=offline works)."
)
_VIDEO_EVERY = flags.DEFINE_integer(
    "video_every",
    None,
    "Record an evaluation episode to videos/ at the first evaluation and then every "
    "this many steps (single-process runs).",
    lower_bound=1,
)
_BATCHED_PHYSICS = flags.DEFINE_bool(
    "batched-physics",
    True,
    "With --num-envs > 1, step the copies on MuJoCo's batch (suite.load_batch) rather than "
    "one after another (agents.vector.LoopedBatch).",
)
_BACKEND = flags.DEFINE_enum(
    "backend",
    "cpu",
    ["cpu", "warp"],
    "Where the --num-envs copies' physics steps: cpu (MuJoCo's batch on CPU threads) or "
    "warp (MuJoCo Warp, one model with a world per copy; docs/batch.md). With warp, PPO "
    "trains on the device (observations, rollout, advantages and updates stay in JAX; "
    "agents.ppo.DevicePPO); D4PG's replay takes the observations as host arrays.",
)
_DEVICE = flags.DEFINE_string(
    "device",
    None,
    "The Warp device of --backend warp: cuda:0, cpu, ... (default: a GPU if Warp finds one).",
)


_ACTORS = flags.DEFINE_integer(
    "actors",
    None,
    "D4PG on Ray with this many actors (docs/distributed.md); without it, one process.",
    lower_bound=1,
)
_WORKERS = flags.DEFINE_integer(
    "workers", None, "DPPO workers W on Ray (--agent dppo).", lower_bound=1
)
_STRAGGLER_TOLERANCE = flags.DEFINE_integer(
    "straggler_tolerance",
    0,
    "DPPO's D: the chief averages gradients once W - D are in.",
    lower_bound=0,
)
_ENVS_PER_ACTOR = flags.DEFINE_integer(
    "envs_per_actor", 1, "Environment copies in each Ray actor's or worker's batch.", lower_bound=1
)
_ACTOR_UPDATE_PERIOD = flags.DEFINE_integer(
    "actor_update_period",
    100,
    "D4PG's t_actors: learner updates between parameter broadcasts.",
    lower_bound=1,
)
_CHUNK_STEPS = flags.DEFINE_integer(
    "chunk_steps", 200, "Environment steps a D4PG actor makes per call to it.", lower_bound=1
)
_CHECKPOINT_REPLAY = flags.DEFINE_bool(
    "checkpoint_replay", False, "Distributed D4PG: put the replay table in the checkpoint too."
)
_LOCKSTEP = flags.DEFINE_bool(
    "lockstep",
    False,
    "Distributed D4PG: alternate collection and learning, so that one "
    "actor with a fixed seed repeats its run bit for bit (docs/distributed.md).",
)
_RAY_ADDRESS = flags.DEFINE_string(
    "ray_address",
    None,
    "A running Ray cluster ('host:port', 'ray://host:port' or 'auto'); "
    "without it, a local Ray instance is started for the run.",
)


def parse_overrides(items: list[str]) -> dict[str, str]:
    """--set items 'name=value' as a dict of name to value text.

    Raises:
      ValueError: an item without '=' or without a name.
    """
    overrides = {}
    for item in items:
        name, separator, value = item.partition("=")
        if not separator or not name.strip():
            raise ValueError(f"--set {item!r} is not of the form name=value.")
        overrides[name.strip()] = value.strip()
    return overrides


def single_process_settings(
    agent: str,
    env: str,
    preset: str | None,
    samples_per_insert: float | None,
    set_items: list[str],
    num_envs: int | None,
) -> tuple[dict, int]:
    """The Config overrides and number of copies of a single-process run.

    The preset's settings come first, then --set; --samples_per_insert becomes
    updates_per_transition for the batch size that results. `num_envs` None means
    --num-envs was not given: the preset's copies, else 1.

    Raises:
      ValueError: an unknown preset or one of another agent (agents/presets.get),
        --samples_per_insert for an agent other than d4pg or together with
        --set updates_per_transition, or a ratio that is not positive.
    """
    overrides = {}
    if preset is not None:
        chosen = presets.get(agent, preset, env)
        overrides.update(chosen.overrides)
        if num_envs is None:
            num_envs = chosen.num_envs
    overrides.update(parse_overrides(set_items))
    if samples_per_insert is not None:
        if agent != "d4pg":
            raise ValueError(f"--samples_per_insert is a D4PG setting; --agent is {agent!r}.")
        if "updates_per_transition" in parse_overrides(set_items):
            raise ValueError(
                "--samples_per_insert and --set updates_per_transition both set the "
                "update rate; give one."
            )
        if not samples_per_insert > 0:
            raise ValueError(f"--samples_per_insert {samples_per_insert}; expected > 0.")
        batch_size = experiment.make_config(agent, overrides).batch_size
        overrides["updates_per_transition"] = samples_per_insert / batch_size
    return overrides, 1 if num_envs is None else num_envs


def default_out_dir(agent: str, env: str, now: datetime.datetime, root: str = "runs") -> str:
    """A run directory that does not exist yet: root/AGENT_DOMAIN_TASK_YYYYmmdd-HHMMSS,
    with -2, -3, ... appended when two runs start in the same second."""
    base = os.path.join(root, f"{agent}_{env.replace(':', '_')}_{now:%Y%m%d-%H%M%S}")
    candidate, count = base, 1
    while os.path.exists(candidate):
        count += 1
        candidate = f"{base}-{count}"
    return candidate


def preset_steps(
    agent: str, preset: str | None, env: str, steps: int, steps_given: bool
) -> tuple[int, str | None]:
    """The run's steps: --steps when given, else the preset's budget (the steps its
    threshold needed) when it has one, else --steps' default. Returns the steps and,
    when the preset chose them, a line saying so."""
    if steps_given or preset is None:
        return steps, None
    chosen = presets.get(agent, preset, env)
    if chosen.budget_steps is None:
        return steps, None
    return chosen.budget_steps, f"--preset {preset}: training {chosen.describe_budget()}."


def tracking_settings() -> tracking.Settings:
    """--tensorboard, --wandb and --video_every as `tracking.Settings`.

    Raises:
      app.UsageError: tensorboardX or wandb asked for but not installed.
    """
    try:
        return tracking.Settings(
            tensorboard=_TENSORBOARD.value,
            wandb_project=_WANDB.value,
            video_every=_VIDEO_EVERY.value,
        )
    except ValueError as error:
        raise app.UsageError(str(error)) from error


# At most this many environment steps and one evaluation episode, when set:
# tests/test_readme.py runs the README's training command with a short budget this
# way (a user never needs it).
STEP_BUDGET_VARIABLE = "COMPOSER_TASKS_STEP_BUDGET"


def main(argv):
    """`python -m agents.train`: trains as the flags say; prints the run's files."""
    if len(argv) > 1:
        raise app.UsageError(f"unexpected arguments: {argv[1:]}")
    budget = os.environ.get(STEP_BUDGET_VARIABLE)
    if budget is not None:
        if not budget.isdigit():
            raise app.UsageError(f"{STEP_BUDGET_VARIABLE}={budget!r}; expected an integer.")
        flags.FLAGS["steps"].present = 1
        flags.FLAGS.steps = min(int(budget), _STEPS.value)
        flags.FLAGS["eval-episodes"].value = 1
    if _OUT.value is None:
        if _RESUME.value:
            raise app.UsageError("--resume continues the run in --out; give --out.")
        flags.FLAGS.out = default_out_dir(_AGENT.value, _ENV.value, datetime.datetime.now())
        print(f"Writing the run to {_OUT.value}")
    try:
        result = _train()
    except experiment.Interrupted as interrupted:
        # One line, no traceback: the checkpoint is written and the run can resume.
        print(f"Interrupted: {interrupted}", file=sys.stderr)
        sys.exit(INTERRUPTED_EXIT_CODE)
    print(
        f"{result.env_steps} steps; final evaluation return {result.final_eval_return:.1f}; "
        f"wrote {result.metrics_path}, {result.checkpoint_path}, {result.plot_path}"
    )


def _train() -> experiment.RunResult:
    if _LOCKSTEP.value and not (
        _AGENT.value == "d4pg" and (_ACTORS.value is not None or _RAY_ADDRESS.value is not None)
    ):
        raise app.UsageError(
            "--lockstep is for distributed D4PG (--agent d4pg --actors K); "
            "one process and DPPO's synchronous iterations need no lockstep."
        )
    if (_PRESET.value is not None or _SAMPLES_PER_INSERT.value is not None) and (
        _AGENT.value == "dppo" or _ACTORS.value is not None or _RAY_ADDRESS.value is not None
    ):
        raise app.UsageError(
            "--preset and --samples_per_insert apply to single-process runs "
            "(--agent ppo or d4pg without --actors/--ray_address)."
        )
    distributed = (
        _AGENT.value == "dppo" or _ACTORS.value is not None or _RAY_ADDRESS.value is not None
    )
    if distributed and (flags.FLAGS["backend"].present or _DEVICE.value is not None):
        raise app.UsageError(
            "--backend and --device apply to single-process runs (--agent ppo or d4pg "
            "without --actors/--ray_address); Ray actors and workers step on the CPU batch."
        )
    if _AGENT.value == "dppo":
        if _ACTORS.value is not None:
            raise app.UsageError("--actors is for --agent d4pg; DPPO takes --workers.")
        if _WORKERS.value is None:
            raise app.UsageError("--agent dppo needs --workers W (and --straggler_tolerance D).")
        from agents import dppo  # pylint: disable=import-outside-toplevel

        return dppo.train(
            _ENV.value,
            _STEPS.value,
            _SEED.value,
            _OUT.value,
            num_workers=_WORKERS.value,
            straggler_tolerance=_STRAGGLER_TOLERANCE.value,
            envs_per_worker=_ENVS_PER_ACTOR.value,
            config_overrides=parse_overrides(_SET.value),
            eval_every=_EVAL_EVERY.value,
            eval_episodes=_EVAL_EPISODES.value,
            checkpoint_every=_CHECKPOINT_EVERY.value,
            resume=_RESUME.value,
            overwrite=_OVERWRITE.value,
            ray_address=_RAY_ADDRESS.value,
            progress=_PROGRESS.value,
            tracking_settings=tracking_settings(),
        )
    if _WORKERS.value is not None:
        raise app.UsageError("--workers is for --agent dppo.")

    if _AGENT.value == "d4pg" and (_ACTORS.value is not None or _RAY_ADDRESS.value is not None):
        from agents import distributed_d4pg  # pylint: disable=import-outside-toplevel

        return distributed_d4pg.train(
            _ENV.value,
            _STEPS.value,
            _SEED.value,
            _OUT.value,
            num_actors=1 if _ACTORS.value is None else _ACTORS.value,
            envs_per_actor=_ENVS_PER_ACTOR.value,
            actor_update_period=_ACTOR_UPDATE_PERIOD.value,
            chunk_steps=_CHUNK_STEPS.value,
            config_overrides=parse_overrides(_SET.value),
            eval_every=_EVAL_EVERY.value,
            eval_episodes=_EVAL_EPISODES.value,
            checkpoint_every=_CHECKPOINT_EVERY.value,
            resume=_RESUME.value,
            overwrite=_OVERWRITE.value,
            checkpoint_replay=_CHECKPOINT_REPLAY.value,
            ray_address=_RAY_ADDRESS.value,
            progress=_PROGRESS.value,
            lockstep=_LOCKSTEP.value,
            tracking_settings=tracking_settings(),
        )
    if _RAY_ADDRESS.value is not None or _ACTORS.value is not None:
        raise app.UsageError(
            f"--agent {_AGENT.value} runs in one process; --actors and "
            "--ray_address are for d4pg (and --workers for dppo)."
        )
    try:
        overrides, num_envs = single_process_settings(
            _AGENT.value,
            _ENV.value,
            _PRESET.value,
            _SAMPLES_PER_INSERT.value,
            _SET.value,
            _NUM_ENVS.value if flags.FLAGS["num-envs"].present else None,
        )
        steps, budget_line = preset_steps(
            _AGENT.value, _PRESET.value, _ENV.value, _STEPS.value, flags.FLAGS["steps"].present
        )
    except ValueError as error:
        raise app.UsageError(str(error)) from error
    if budget_line is not None:
        print(budget_line)
    batched = _BATCHED_PHYSICS.value and num_envs > 1
    on_device = _BACKEND.value == "warp" and _AGENT.value == "ppo"
    if (_BACKEND.value != "cpu" or _DEVICE.value is not None) and not batched:
        raise app.UsageError(
            f"--backend {_BACKEND.value} --device {_DEVICE.value} choose where a batch of "
            f"copies steps: give --num-envs > 1 (got {num_envs}) with --batched-physics."
        )
    return experiment.train(
        _AGENT.value,
        environments.factory(_ENV.value),
        steps,
        _SEED.value,
        _OUT.value,
        env_name=_ENV.value,
        num_envs=num_envs,
        config_overrides=overrides,
        eval_every=_EVAL_EVERY.value,
        eval_episodes=_EVAL_EPISODES.value,
        checkpoint_every=_CHECKPOINT_EVERY.value,
        resume=_RESUME.value,
        progress=_PROGRESS.value,
        overwrite=_OVERWRITE.value,
        make_batch=(
            environments.batch_factory(
                _ENV.value, _BACKEND.value, _DEVICE.value, jax_timesteps=on_device
            )
            if batched
            else None
        ),
        tracking_settings=tracking_settings(),
        on_device=on_device and batched,
    )


if __name__ == "__main__":
    app.run(main)
