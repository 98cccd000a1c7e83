r"""Trains a reference agent on a named environment.

  python -m agents.train --agent d4pg --env cartpole:swingup --steps 100000 \
      --seed 0 --out runs/d4pg_cartpole_swingup [--num-envs K] [--resume] \
      [--set critic_hidden_sizes=(64,64) --set prioritized_replay=True]

Writes metrics.csv, checkpoint.pkl, learning_curve.png and config.json into --out
(agents/experiment.py). --resume continues the run in --out from its checkpoint.
"""

from absl import app, flags

from agents import environments, experiment

_AGENT = flags.DEFINE_enum("agent", "d4pg", sorted(experiment.AGENTS), "Which agent to train.")
_ENV = flags.DEFINE_string("env", "cartpole:swingup", "Environment as 'domain:task'.")
_STEPS = flags.DEFINE_integer("steps", 100_000, "Environment steps, summed over copies.", lower_bound=0)
_SEED = flags.DEFINE_integer("seed", 0, "Seed of the agent and the environments.")
_OUT = flags.DEFINE_string("out", None, "Run directory.", required=True)
_NUM_ENVS = flags.DEFINE_integer("num-envs", 1, "Environment copies stepped as one batch.",
                                 lower_bound=1)
_RESUME = flags.DEFINE_bool("resume", False, "Continue the run in --out from its checkpoint.")
_EVAL_EVERY = flags.DEFINE_integer("eval-every", 10_000, "Steps between evaluations.",
                                   lower_bound=1)
_EVAL_EPISODES = flags.DEFINE_integer("eval-episodes", 10, "Episodes per evaluation.",
                                      lower_bound=1)
_CHECKPOINT_EVERY = flags.DEFINE_integer(
    "checkpoint-every", None, "Steps between checkpoints (default: --eval-every).", lower_bound=1)
_SET = flags.DEFINE_multi_string(
    "set", [], "Config override name=value (a Python literal), repeatable; see the agent's Config.")
_PROGRESS = flags.DEFINE_bool("progress", True, "Show a progress bar.")
_BATCHED_PHYSICS = flags.DEFINE_bool(
    "batched-physics", True,
    "With --num-envs > 1, step the copies on MuJoCo's batch (suite.load_batch) rather than "
    "one after another (agents.vector.LoopedBatch).")


def parse_overrides(items: list[str]) -> dict[str, str]:
    overrides = {}
    for item in items:
        name, separator, value = item.partition("=")
        if not separator or not name.strip():
            raise ValueError(f"--set {item!r} is not of the form name=value.")
        overrides[name.strip()] = value.strip()
    return overrides


def main(argv):
    if len(argv) > 1:
        raise app.UsageError(f"unexpected arguments: {argv[1:]}")
    result = experiment.train(
        _AGENT.value, environments.factory(_ENV.value), _STEPS.value, _SEED.value, _OUT.value,
        env_name=_ENV.value, num_envs=_NUM_ENVS.value,
        config_overrides=parse_overrides(_SET.value), eval_every=_EVAL_EVERY.value,
        eval_episodes=_EVAL_EPISODES.value, checkpoint_every=_CHECKPOINT_EVERY.value,
        resume=_RESUME.value, progress=_PROGRESS.value,
        make_batch=(environments.batch_factory(_ENV.value)
                    if _BATCHED_PHYSICS.value and _NUM_ENVS.value > 1 else None))
    print(f"{result.env_steps} steps; final evaluation return {result.final_eval_return:.1f}; "
          f"wrote {result.metrics_path}, {result.checkpoint_path}, {result.plot_path}")


if __name__ == "__main__":
    app.run(main)
