r"""The planar walker learned, as in Heess et al. 2017 ("Emergence of Locomotion Behaviours
in Rich Environments", shared/papers): the open plane of its Figure 1, then hurdles.

  python benchmarks/locomotion_learning.py --env walker_open_plane --steps 2000000 \
      --out runs/locolearn/open_plane [--preset walker_open_plane] [--seed 0]
  python benchmarks/locomotion_learning.py --env walker_parkour_hurdles --steps 1000000 \
      --out runs/locolearn/hurdles --init_from runs/locolearn/open_plane
  python benchmarks/locomotion_learning.py --plot DIR[,DIR...] --figure PATH
  python benchmarks/locomotion_learning.py --video DIR --video_path docs/walker_hurdle.gif

PPO (agents/ppo.py) with a preset of agents/presets.py trains on `--num_envs` copies
stepped on MuJoCo's batch. Every `--eval_every` environment steps the deterministic
(mean) policy plays `--eval_episodes` whole episodes on new environments whose seeds
(`EVAL_SEED_BASE` + i) no training copy uses (for the hurdles: courses it never
trained on), and one row goes to `<out>/curve.csv`: the environment steps, the
training wall-clock, the machine's load average, the mean and every episode's
return, distance travelled (the walker's root x at the episode's end minus at its
start, metres), episode length, and on parkour courses the hurdles passed (hurdles
whose far edge lies behind the root at the episode's end) and the hurdles laid out.

Resuming: `<out>/checkpoint.npz` (agents/checkpoint.py, data only) is written at every
evaluation; rerunning the same command continues from it on new training
environments (seeded by the resume count), dropping the partly collected rollout.
`--init_from` starts a run from another run's parameters and observation statistics
(the observations must be the same: the open plane has the parkour courses'
observations for this reason, suites/locomotion.py).
"""

import csv
import dataclasses
import datetime
import json
import os
import sys
import time
from collections.abc import Callable, Sequence

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np  # noqa: E402
from absl import app, flags  # noqa: E402

from agents import checkpoint, environments, loop, ppo, presets  # noqa: E402

CHECKPOINT_FILE = "checkpoint.npz"
CURVE_FILE = "curve.csv"
RUN_FILE = "run.json"
# Evaluation environments are seeded from here on, far from the training copies'
# seeds (derived from --seed by composer_tasks.batch.copy_seed).
EVAL_SEED_BASE = 1_000_000
_RESUME_SEED_STRIDE = 7919
CURVE_COLUMNS = (
    "step",
    "wall_s",
    "load_1min",
    "eval_return",
    "eval_distance_m",
    "eval_length",
    "eval_hurdles_passed",
    "eval_hurdles",
    "train_return",
    "returns",
    "distances_m",
)


@dataclasses.dataclass(frozen=True)
class Episode:
    """What one evaluation episode gave.

    Attributes:
      episode_return: undiscounted sum of rewards.
      distance_m: root x at the end minus at the start, metres (world frame).
      length: control steps taken.
      hurdles_passed: hurdles whose far edge (x_end) lies behind the root's final x.
      hurdles: hurdles laid out on the episode's course (0 off parkour courses).
    """

    episode_return: float
    distance_m: float
    length: int
    hurdles_passed: int
    hurdles: int


def _root_x(env) -> float:
    return float(env.physics.bind(env.task.walker.root_body).xpos[0])


def _hurdle_ends(env) -> list[float]:
    course = getattr(env.task.arena, "course", None)
    if course is None:
        return []
    return [obstacle.x_end for obstacle in course.of_kind("hurdle")]


def play_episode(policy: Callable, env, on_step: Callable[[object], None] | None = None) -> Episode:
    """Plays one whole episode of `env` (a composer Environment of suites/locomotion.py)
    with `policy` (batched observations to batched actions); `on_step(env)` after the
    reset and after every step (e.g. to render frames)."""
    timestep = env.reset()
    start_x = _root_x(env)
    hurdle_ends = _hurdle_ends(env)
    total, length = 0.0, 0
    if on_step is not None:
        on_step(env)
    while not timestep.last():
        batched = {
            key: np.asarray(value)[np.newaxis] for key, value in timestep.observation.items()
        }
        timestep = env.step(np.asarray(policy(batched))[0])
        total += float(timestep.reward)
        length += 1
        if on_step is not None:
            on_step(env)
    end_x = _root_x(env)
    return Episode(
        episode_return=total,
        distance_m=end_x - start_x,
        length=length,
        hurdles_passed=sum(1 for x_end in hurdle_ends if x_end < end_x),
        hurdles=len(hurdle_ends),
    )


def evaluate(policy: Callable, env_name: str, num_episodes: int) -> list[Episode]:
    """`num_episodes` episodes, episode i on a new environment seeded EVAL_SEED_BASE + i."""
    from suites import locomotion  # pylint: disable=import-outside-toplevel

    return [
        play_episode(policy, locomotion.load(env_name, seed=EVAL_SEED_BASE + index))
        for index in range(num_episodes)
    ]


def _read_curve(out_dir: str) -> list[dict]:
    path = os.path.join(out_dir, CURVE_FILE)
    if not os.path.exists(path):
        return []
    with open(path, newline="") as file:
        return list(csv.DictReader(file))


def _write_curve(out_dir: str, rows: Sequence[dict]) -> None:
    lines = [",".join(CURVE_COLUMNS)]
    for row in rows:
        lines.append(",".join(_csv_field(row[column]) for column in CURVE_COLUMNS))
    checkpoint.write_atomically(
        os.path.join(out_dir, CURVE_FILE), ("\n".join(lines) + "\n").encode()
    )


def _csv_field(value) -> str:
    text = str(value)
    return f'"{text}"' if "," in text else text


def _agent_for(env, preset: presets.Preset, num_envs: int, seed: int) -> ppo.PPO:
    config = preset.config()
    if not isinstance(config, ppo.Config):
        raise ValueError(f"preset {preset.name!r} is a {preset.agent} preset; expected a PPO one.")
    return ppo.PPO(config, env.observation_spec(), env.action_spec(), num_envs, seed)


def train(
    env_name: str,
    num_steps: int,
    out_dir: str,
    preset_name: str,
    seed: int = 0,
    num_envs: int = 16,
    eval_every: int = 61_440,
    eval_episodes: int = 4,
    init_from: str | None = None,
    max_minutes: float | None = None,
    progress: bool = False,
) -> list[dict]:
    """Trains PPO on `env_name` to `num_steps` environment steps (or `max_minutes` of
    wall-clock in this call), resuming from `out_dir`'s checkpoint if it has one;
    evaluates at step 0 (fresh runs), every `eval_every` steps and at the end.
    `init_from` (a run directory) gives a fresh run its parameters and observation
    statistics; a run that resumes from its own checkpoint ignores it.

    Returns:
      The rows of `<out_dir>/curve.csv`.

    Raises:
      ValueError: the preset is not a PPO preset, the checkpoint belongs to another
        environment or preset, or `init_from` has no checkpoint.
    """
    preset = presets.get("ppo", preset_name)
    os.makedirs(out_dir, exist_ok=True)
    checkpoint_path = os.path.join(out_dir, CHECKPOINT_FILE)
    run = {"env": env_name, "preset": preset_name, "seed": seed, "num_envs": num_envs}
    rows = _read_curve(out_dir)
    resumes = 0
    saved = None
    if os.path.exists(checkpoint_path):
        saved = checkpoint.load(checkpoint_path)
        if saved["run"] != run:
            raise ValueError(
                f"{out_dir!r} holds a run of {saved['run']}, not of {run}; pass another --out."
            )
        resumes = int(saved["resumes"]) + 1
        rows = [row for row in rows if int(row["step"]) <= int(saved["env_steps"])]
    # Each resume trains on new copies: seeds shifted by a prime per resume.
    env = environments.load(env_name, seed + _RESUME_SEED_STRIDE * resumes, num_envs=num_envs)
    agent = _agent_for(env, preset, num_envs, seed)
    state = loop.LoopState()
    if saved is not None:
        agent_state = checkpoint.restore(agent.state_dict(), saved["agent_state"])
        # The environments are new: a rollout collected on the old ones is dropped.
        agent_state["rollout"] = []
        agent.load_state_dict(agent_state)
        state.env_steps = int(saved["env_steps"])
        state.elapsed_s = float(saved["elapsed_s"])
        # A resumed run keeps the record of the run it started from.
        run_path = os.path.join(out_dir, RUN_FILE)
        if os.path.exists(run_path):
            with open(run_path) as file:
                started_from = json.load(file).get("init_from")
            if started_from is not None:
                run["init_from"] = started_from
    elif init_from is not None:
        source_path = os.path.join(init_from, CHECKPOINT_FILE)
        if not os.path.exists(source_path):
            raise ValueError(f"--init_from {init_from!r} has no {CHECKPOINT_FILE}.")
        source = checkpoint.load(source_path)
        template = agent.state_dict()
        source_state = checkpoint.restore(template, source["agent_state"])
        agent.learner.params = source_state["params"]
        agent.load_observation_statistics(source_state["observations"])
        run["init_from"] = {"path": init_from, "env_steps": int(source["env_steps"])}
    run["config"] = dataclasses.asdict(agent.config)
    run["command"] = " ".join(sys.argv)
    checkpoint.write_atomically(
        os.path.join(out_dir, RUN_FILE), json.dumps(run, indent=1, default=str).encode()
    )
    run_key = {key: run[key] for key in ("env", "preset", "seed", "num_envs")}

    def record(current: loop.LoopState) -> None:
        episodes = evaluate(agent.policy(), env_name, eval_episodes)
        train_returns, _ = current.drain()
        rows.append(
            {
                "step": current.env_steps,
                "wall_s": round(current.elapsed_s, 1),
                "load_1min": round(os.getloadavg()[0], 2),
                "eval_return": round(float(np.mean([e.episode_return for e in episodes])), 2),
                "eval_distance_m": round(float(np.mean([e.distance_m for e in episodes])), 3),
                "eval_length": round(float(np.mean([e.length for e in episodes])), 1),
                "eval_hurdles_passed": sum(e.hurdles_passed for e in episodes),
                "eval_hurdles": sum(e.hurdles for e in episodes),
                "train_return": round(float(np.mean(train_returns)), 2) if train_returns else "",
                "returns": " ".join(f"{e.episode_return:.1f}" for e in episodes),
                "distances_m": " ".join(f"{e.distance_m:.2f}" for e in episodes),
            }
        )
        _write_curve(out_dir, rows)
        checkpoint.save(
            checkpoint_path,
            {
                "run": run_key,
                "resumes": resumes,
                "env_steps": current.env_steps,
                "elapsed_s": current.elapsed_s,
                "agent_state": agent.state_dict(),
            },
        )
        print(
            f"{datetime.datetime.now():%H:%M:%S} step {current.env_steps:,} "
            f"wall {current.elapsed_s:.0f}s return {rows[-1]['eval_return']} distance "
            f"{rows[-1]['eval_distance_m']} m hurdles {rows[-1]['eval_hurdles_passed']}"
            f"/{rows[-1]['eval_hurdles']} train {rows[-1]['train_return']}",
            flush=True,
        )

    if not rows:
        record(state)
    deadline = None if max_minutes is None else time.monotonic() + 60.0 * max_minutes
    state = loop.run(
        agent,
        env,
        num_steps,
        state=state,
        periodic=[loop.Periodic(eval_every, record)],
        progress=progress,
        should_stop=None if deadline is None else lambda: time.monotonic() > deadline,
    )
    if int(rows[-1]["step"]) != state.env_steps:
        record(state)
    env.close()
    return rows


def plot(run_dirs: Sequence[str], labels: Sequence[str], figure_path: str, title: str) -> None:
    """Return (evaluation, and the mean of the training episodes finished in each
    period, dashed), distance travelled and hurdles passed per evaluation episode
    against environment steps, one line per run; a run that continues another (`init_from`) is
    drawn from where its source stopped."""
    import matplotlib  # pylint: disable=import-outside-toplevel

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # pylint: disable=import-outside-toplevel

    figure, axes = plt.subplots(1, 3, figsize=(13, 3.6))
    for run_dir, label in zip(run_dirs, labels):
        rows = _read_curve(run_dir)
        with open(os.path.join(run_dir, RUN_FILE)) as file:
            offset = int(json.load(file).get("init_from", {}).get("env_steps", 0))
        steps = np.array([int(row["step"]) + offset for row in rows]) / 1e6
        episodes = [len(row["returns"].split()) for row in rows]
        axes[0].plot(steps, [float(row["eval_return"]) for row in rows], marker=".", label=label)
        trained = [
            (step, float(row["train_return"]))
            for step, row in zip(steps, rows)
            if row["train_return"]
        ]
        if trained:
            axes[0].plot(
                *zip(*trained), linestyle="--", color=axes[0].lines[-1].get_color(), alpha=0.6
            )
        axes[1].plot(steps, [float(row["eval_distance_m"]) for row in rows], marker=".")
        if any(int(row["eval_hurdles"]) for row in rows):
            passed = [int(row["eval_hurdles_passed"]) / n for row, n in zip(rows, episodes)]
            axes[2].plot(steps, passed, marker=".", color=axes[0].lines[-1].get_color())
    axes[0].set_ylabel("return (dashed: training episodes)")
    axes[1].set_ylabel("distance travelled per episode (m)")
    axes[2].set_ylabel("hurdles passed per episode")
    for axis in axes:
        axis.set_xlabel("environment steps (millions)")
        axis.grid(alpha=0.3)
    axes[0].legend(fontsize=8)
    figure.suptitle(title, fontsize=10)
    figure.tight_layout()
    figure.savefig(figure_path, dpi=80)
    plt.close(figure)


def load_policy(run_dir: str, env) -> Callable:
    """The deterministic policy of `run_dir`'s latest checkpoint, for `env`'s specs."""
    with open(os.path.join(run_dir, RUN_FILE)) as file:
        run = json.load(file)
    agent = _agent_for(env, presets.get("ppo", run["preset"]), 1, 0)
    saved = checkpoint.load(os.path.join(run_dir, CHECKPOINT_FILE))
    agent_state = checkpoint.restore(agent.state_dict(), saved["agent_state"])
    agent.learner.params = agent_state["params"]
    agent.load_observation_statistics(agent_state["observations"])
    return agent.policy()


def first_seed_passing_a_hurdle(
    run_dir: str, env_name: str, seeds: Sequence[int]
) -> tuple[int | None, list[Episode]]:
    """Plays one episode per seed of `seeds` in order until the walker passes a
    hurdle; that seed (None if none did) and the episodes played."""
    from suites import locomotion  # pylint: disable=import-outside-toplevel

    episodes = []
    for seed in seeds:
        env = locomotion.load(env_name, seed=seed)
        episodes.append(play_episode(load_policy(run_dir, env), env))
        if episodes[-1].hurdles_passed:
            return seed, episodes
    return None, episodes


def record_video(
    run_dir: str,
    env_name: str,
    video_path: str,
    seed: int,
    width: int = 240,
    height: int = 160,
    every: int = 2,
    before_s: float = 3.0,
    after_s: float = 1.5,
) -> tuple[Episode, tuple[float, float] | None]:
    """Renders one evaluation episode of `run_dir`'s policy on `env_name` seeded `seed`
    (every `every`-th control step, the walker's side camera) into `video_path` (GIF or
    MP4). On a course where the walker passes a hurdle, only the clip from `before_s`
    seconds before its root passes the first hurdle's far edge to `after_s` after is
    written; otherwise the whole episode.

    Returns:
      The episode and the clip's (start, end) in seconds of the episode (None: whole).
    """
    import imageio  # pylint: disable=import-outside-toplevel

    from suites import locomotion  # pylint: disable=import-outside-toplevel

    env = locomotion.load(env_name, seed=seed)
    policy = load_policy(run_dir, env)
    frames, root_xs, hurdle_ends = [], [], []
    count = [0]

    def grab(current_env) -> None:
        if count[0] == 0:
            hurdle_ends.extend(_hurdle_ends(current_env))
        if count[0] % every == 0:
            frames.append(current_env.physics.render(height, width, camera_id=0))
            root_xs.append(_root_x(current_env))
        count[0] += 1

    episode = play_episode(policy, env, on_step=grab)
    frame_s = env.control_timestep() * every
    clip = None
    if hurdle_ends:
        first_end = min(hurdle_ends)
        passed = [index for index, x in enumerate(root_xs) if x > first_end]
        if passed:
            first = max(0, passed[0] - round(before_s / frame_s))
            last = min(len(frames), passed[0] + round(after_s / frame_s))
            frames = frames[first:last]
            clip = (round(first * frame_s, 2), round(last * frame_s, 2))
    fps = round(1.0 / frame_s)
    if video_path.endswith(".gif"):
        imageio.mimsave(video_path, frames, duration=1000.0 / fps, loop=0)
    else:
        imageio.mimsave(video_path, frames, fps=fps)
    return episode, clip


def _define_flags() -> None:
    """Defines the command line's flags (only when run as a script: importing this
    module, as its test does, must not claim flag names other modules define)."""
    global \
        _ENV, \
        _STEPS, \
        _OUT, \
        _PRESET, \
        _SEED, \
        _NUM_ENVS, \
        _EVAL_EVERY, \
        _EVAL_EPISODES, \
        _INIT_FROM, \
        _MAX_MINUTES, \
        _PLOT, \
        _LABELS, \
        _FIGURE, \
        _TITLE, \
        _VIDEO, \
        _VIDEO_PATH, \
        _VIDEO_SEED, \
        _VIDEO_SEARCH
    _ENV = flags.DEFINE_string("env", "walker_open_plane", "Locomotion environment to train on.")
    _STEPS = flags.DEFINE_integer("steps", 2_000_000, "Environment steps to train to.")
    _OUT = flags.DEFINE_string("out", None, "Run directory (curve.csv, checkpoint.npz, run.json).")
    _PRESET = flags.DEFINE_string("preset", "walker_open_plane", "PPO preset (agents/presets.py).")
    _SEED = flags.DEFINE_integer("seed", 0, "Seed of the agent and the training copies.")
    _NUM_ENVS = flags.DEFINE_integer("num_envs", 16, "Training copies stepped as one batch.")
    _EVAL_EVERY = flags.DEFINE_integer("eval_every", 61_440, "Steps between evaluations.")
    _EVAL_EPISODES = flags.DEFINE_integer("eval_episodes", 4, "Episodes per evaluation.")
    _INIT_FROM = flags.DEFINE_string("init_from", None, "Run directory to start from.")
    _MAX_MINUTES = flags.DEFINE_float("max_minutes", None, "Wall-clock budget of this call.")
    _PLOT = flags.DEFINE_list("plot", None, "Run directories to plot instead of training.")
    _LABELS = flags.DEFINE_list("labels", None, "Legend labels of --plot's runs.")
    _FIGURE = flags.DEFINE_string("figure", "locomotion_learning.png", "Where --plot writes.")
    _TITLE = flags.DEFINE_string("title", "", "Title of --plot's figure.")
    _VIDEO = flags.DEFINE_string("video", None, "Run directory whose policy --video_path shows.")
    _VIDEO_PATH = flags.DEFINE_string("video_path", "walker.gif", "Where --video writes.")
    _VIDEO_SEED = flags.DEFINE_integer("video_seed", EVAL_SEED_BASE, "Course seed of --video.")
    _VIDEO_SEARCH = flags.DEFINE_integer(
        "video_search",
        1,
        "With N > 1, --video tries seeds video_seed .. video_seed + N - 1 and shows the first "
        "on which the walker passes a hurdle.",
    )


def main(argv: Sequence[str]) -> None:
    del argv
    if _PLOT.value:
        plot(_PLOT.value, _LABELS.value or _PLOT.value, _FIGURE.value, _TITLE.value)
        return
    if _VIDEO.value:
        video_seed = _VIDEO_SEED.value
        if _VIDEO_SEARCH.value > 1:
            seed, episodes = first_seed_passing_a_hurdle(
                _VIDEO.value,
                _ENV.value,
                range(_VIDEO_SEED.value, _VIDEO_SEED.value + _VIDEO_SEARCH.value),
            )
            print(f"seeds tried: {len(episodes)}; first passing a hurdle: {seed}")
            for episode in episodes:
                print(episode)
            if seed is None:
                return
            video_seed = seed
        episode, clip = record_video(_VIDEO.value, _ENV.value, _VIDEO_PATH.value, video_seed)
        print(episode, "clip (s):", clip)
        return
    if _OUT.value is None:
        raise app.UsageError("--out is required to train.")
    train(
        _ENV.value,
        _STEPS.value,
        _OUT.value,
        _PRESET.value,
        seed=_SEED.value,
        num_envs=_NUM_ENVS.value,
        eval_every=_EVAL_EVERY.value,
        eval_episodes=_EVAL_EPISODES.value,
        init_from=_INIT_FROM.value,
        max_minutes=_MAX_MINUTES.value,
    )


if __name__ == "__main__":
    _define_flags()
    app.run(main)
