r"""Time to solve: wall-clock and environment steps until an agent's evaluation return
first reaches a threshold, on the easy set of the Control Suite.

  python benchmarks/time_to_solve.py [--tasks cartpole:swingup,walker:walk] \
      [--agents ppo,d4pg] [--seeds 0,1,2] [--budget_minutes 30] \
      [--samples_per_insert 256] [--out benchmarks/results/time_to_solve] \
      [--backend cpu|warp] [--device cuda:0]
  python benchmarks/time_to_solve.py --report_only      # table and figure only

`--backend warp` trains on the MuJoCo Warp batch (composer_tasks/batch_warp.py; extra
`gpu`), on `--device` (default: a GPU if Warp finds one): PPO with its rollout,
advantages and updates on the device (`ppo.DevicePPO`, as `agents.train --backend
warp`), D4PG acting on the Warp batch. Its runs go to their own `--out` (default
`benchmarks/results/time_to_solve_warp`), which records the backend and device and
refuses another. A time measured on Warp's CPU device is a correctness run, not a
performance figure.

One run per cell (task, agent, seed), in `<out>/runs/<agent>/<task>/seed<seed>`, trained
by agents.experiment with the agent's preset (agents/presets.py): PPO with the
per-task mujoco_playground preset, D4PG with the 'batched' preset. A run trains in
chunks of two evaluations, resuming from its checkpoint (exactly, see
agents/experiment.py), and stops once an evaluation reaches the task's threshold or
its training wall-clock passes the budget. Each finished cell appends a row to
`<out>/results.csv`; cells already there are skipped, and a cell interrupted midway
resumes from its checkpoint, so the script can be stopped and restarted at will.

The wall-clock of a run is its metrics.csv `wall_time_s`: the time spent in the
training loop (acting, learning, and the evaluations and checkpoints before that
point), summed over chunks; starting Python, compiling before the first step aside.
Each row records the machine's load average when the cell started and ended, since
the machine may be shared.

Writes `<out>/results.csv`, `<out>/time_to_solve.csv` (median and range per task and
agent over the seeds that solved), `<out>/time_to_solve.png` (evaluation return
against wall-clock minutes, one panel per task) and prints the table as Markdown.
"""

import argparse
import csv
import dataclasses
import datetime
import json
import os
import statistics
import sys
import time
from collections.abc import Sequence

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from agents import csv_log, environments, experiment, presets, tracking  # noqa: E402

# Thresholds on the undiscounted evaluation return (1000-step episodes, rewards in
# [0, 1] per step, so 1000 is the most any task pays).
#   "issue 19": the targets issue 19 of this project sets from the literature
#     (cartpole swingup 800, walker walk 900, cheetah run 500).
#   "ours": no published per-task threshold was found for this script; 900 for the
#     tasks whose solved policies score near 1000, lower where the reward cannot
#     reach 1000 from the initial state (pendulum swingup's sparse reward is 0 until
#     the pole is up; finger spin pays only while the body spins).
THRESHOLDS: dict[str, tuple[float, str]] = {
    "cartpole:balance": (900.0, "ours"),
    "cartpole:swingup": (800.0, "issue 19"),
    "pendulum:swingup": (700.0, "ours"),
    "point_mass:easy": (900.0, "ours"),
    "reacher:easy": (900.0, "ours"),
    "finger:spin": (800.0, "ours"),
    "walker:stand": (900.0, "ours"),
    "walker:walk": (900.0, "issue 19"),
    "cheetah:run": (500.0, "issue 19"),
}

AGENTS = ("ppo", "d4pg")
# Steps between evaluations: PPO evaluates every second update (2 x 30,720 steps of
# the preset), D4PG every 10,000 steps (agents.train's default).
EVAL_EVERY = {"ppo": 2 * presets.PPO_ROLLOUT_STEPS, "d4pg": 10_000}
EVAL_EPISODES = 5
EVALUATIONS_PER_CHUNK = 2
RESULT_COLUMNS = (
    "task",
    "agent",
    "seed",
    "threshold",
    "threshold_source",
    "solved",
    "steps_to_threshold",
    "wall_s_to_threshold",
    "return_at_threshold",
    "final_step",
    "final_wall_s",
    "best_return",
    "budget_minutes",
    "preset",
    "num_envs",
    "samples_per_insert",
    "load_start",
    "load_end",
    "cpus",
    "date",
)


@dataclasses.dataclass(frozen=True)
class Crossing:
    """Where a run's evaluation return first reached the threshold, if it did."""

    step: int
    wall_s: float
    eval_return: float


def first_crossing(rows: Sequence[dict], threshold: float) -> Crossing | None:
    """The first metrics.csv row whose eval_return is at least `threshold`."""
    for row in rows:
        if row["eval_return"] and float(row["eval_return"]) >= threshold:
            return Crossing(int(row["step"]), float(row["wall_time_s"]), float(row["eval_return"]))
    return None


def _parse_list(text: str, allowed: Sequence[str] | None, what: str) -> list[str]:
    items = [item.strip() for item in text.split(",") if item.strip()]
    if not items:
        raise ValueError(f"--{what} is empty.")
    if allowed is not None:
        unknown = [item for item in items if item not in allowed]
        if unknown:
            raise ValueError(f"--{what}: {unknown} unknown; expected some of {list(allowed)}.")
    return items


def run_directory(out: str, agent: str, task: str, seed: int) -> str:
    return os.path.join(out, "runs", agent, presets.preset_name(task), f"seed{seed}")


def _settings(agent: str, task: str, samples_per_insert: float | None):
    preset = presets.get(agent, "task" if agent == "ppo" else "batched", task)
    overrides = dict(preset.overrides)
    if agent == "d4pg" and samples_per_insert is not None:
        overrides["updates_per_transition"] = (
            samples_per_insert / experiment.make_config(agent, overrides).batch_size
        )
    config = experiment.make_config(agent, overrides)
    spi = config.samples_per_insert if agent == "d4pg" else None
    return preset, overrides, spi


def run_cell(
    out: str,
    task: str,
    agent: str,
    seed: int,
    budget_minutes: float,
    samples_per_insert: float | None,
    backend: str = "cpu",
    device: str | None = None,
) -> dict:
    """Trains one cell to its threshold or budget (resuming a run already there), its
    copies on `backend` ("cpu": MuJoCo's batch; "warp": MuJoCo Warp on `device`)."""
    threshold, source = THRESHOLDS[task]
    preset, overrides, spi = _settings(agent, task, samples_per_insert)
    on_device = backend == "warp" and agent == "ppo"
    if backend != "cpu" and preset.num_envs < 2:
        raise ValueError(
            f"--backend {backend}: the {agent} preset of {task} steps {preset.num_envs} copy; "
            "a backend chooses where a batch of copies steps"
        )
    out_dir = run_directory(out, agent, task, seed)
    metrics_path = os.path.join(out_dir, experiment.METRICS_FILE)
    load_start = os.getloadavg()[0]
    chunk = EVAL_EVERY[agent] * EVALUATIONS_PER_CHUNK
    while True:
        rows = csv_log.read_rows(metrics_path) if os.path.exists(metrics_path) else []
        crossing = first_crossing(rows, threshold)
        wall_s = float(rows[-1]["wall_time_s"]) if rows else 0.0
        if crossing is not None or wall_s >= 60.0 * budget_minutes:
            break
        steps = int(rows[-1]["step"]) if rows else 0
        # Without a checkpoint, whatever a crash left in out_dir is started over. A
        # pickle checkpoint of an earlier version is resumed too, which refuses it
        # with its conversion command rather than starting the run over.
        resume = any(
            os.path.exists(os.path.join(out_dir, name))
            for name in (experiment.CHECKPOINT_FILE, experiment.LEGACY_CHECKPOINT_FILE)
        )
        experiment.train(
            agent,
            environments.factory(task),
            steps + chunk,
            seed,
            out_dir,
            env_name=task,
            num_envs=preset.num_envs,
            config_overrides=overrides,
            eval_every=EVAL_EVERY[agent],
            eval_episodes=EVAL_EPISODES,
            resume=resume,
            overwrite=not resume,
            progress=False,
            make_batch=(
                environments.batch_factory(task, backend, device, jax_timesteps=on_device)
                if preset.num_envs > 1
                else None
            ),
            on_device=on_device,
            # TensorBoard event files beside metrics.csv when tensorboardX is installed.
            tracking_settings=tracking.Settings(),
        )
    returns = [float(row["eval_return"]) for row in rows if row["eval_return"]]
    return {
        "task": task,
        "agent": agent,
        "seed": seed,
        "threshold": threshold,
        "threshold_source": source,
        "solved": crossing is not None,
        "steps_to_threshold": crossing.step if crossing else "",
        "wall_s_to_threshold": round(crossing.wall_s, 1) if crossing else "",
        "return_at_threshold": round(crossing.eval_return, 1) if crossing else "",
        "final_step": int(rows[-1]["step"]),
        "final_wall_s": round(wall_s, 1),
        "best_return": round(max(returns), 1),
        "budget_minutes": budget_minutes,
        "preset": preset.name,
        "num_envs": preset.num_envs,
        "samples_per_insert": spi if spi is not None else "",
        "load_start": round(load_start, 2),
        "load_end": round(os.getloadavg()[0], 2),
        "cpus": os.cpu_count(),
        "date": datetime.date.today().isoformat(),
    }


BACKEND_FILE = "backend.json"


def check_backend(out: str, backend: str, device: str | None) -> None:
    """Records `out`'s backend and device at its first run, and refuses another: the
    rows of one results.csv are timed alike. A directory without the record (one of
    an earlier version) holds CPU runs."""
    path = os.path.join(out, BACKEND_FILE)
    wanted = {"backend": backend, "device": device}
    if os.path.exists(path):
        with open(path) as file:
            recorded = json.load(file)
    elif os.path.exists(os.path.join(out, "results.csv")):
        recorded = {"backend": "cpu", "device": None}
    else:
        with open(path, "w") as file:
            json.dump(wanted, file)
        return
    if recorded != wanted:
        raise ValueError(
            f"{out!r} holds runs on backend {recorded['backend']!r} (device "
            f"{recorded['device']!r}), not {backend!r} ({device!r}): give another --out."
        )


def read_results(path: str) -> list[dict]:
    if not os.path.exists(path):
        return []
    with open(path, newline="") as file:
        return list(csv.DictReader(file))


def append_result(path: str, row: dict) -> None:
    new = not os.path.exists(path)
    with open(path, "a", newline="") as file:
        writer = csv.DictWriter(file, fieldnames=RESULT_COLUMNS)
        if new:
            writer.writeheader()
        writer.writerow(row)


def summarize(results: Sequence[dict]) -> list[dict]:
    """Per (task, agent): seeds solved, and median and range of minutes and steps to solve."""
    cells = {}
    for row in results:
        cells.setdefault((row["task"], row["agent"]), []).append(row)
    summary = []
    for (task, agent), rows in sorted(cells.items()):
        solved = [row for row in rows if str(row["solved"]) == "True"]
        minutes = [float(row["wall_s_to_threshold"]) / 60.0 for row in solved]
        steps = [int(row["steps_to_threshold"]) for row in solved]
        summary.append(
            {
                "task": task,
                "agent": agent,
                "threshold": rows[0]["threshold"],
                "threshold_source": rows[0]["threshold_source"],
                "solved": f"{len(solved)}/{len(rows)}",
                "median_minutes": round(statistics.median(minutes), 1) if minutes else "",
                "min_minutes": round(min(minutes), 1) if minutes else "",
                "max_minutes": round(max(minutes), 1) if minutes else "",
                "median_steps": int(statistics.median(steps)) if steps else "",
                "min_steps": min(steps) if steps else "",
                "max_steps": max(steps) if steps else "",
                "best_return": max(float(row["best_return"]) for row in rows),
                "budget_minutes": max(float(row["budget_minutes"]) for row in rows),
            }
        )
    return summary


def markdown_table(summary: Sequence[dict]) -> str:
    lines = [
        "| task | agent | threshold (source) | solved | minutes: median [range] "
        "| env steps: median [range] | best return | budget (min) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for row in summary:
        if row["median_minutes"] == "":
            minutes = steps = "not reached"
        else:
            minutes = f"{row['median_minutes']} [{row['min_minutes']}, {row['max_minutes']}]"
            steps = f"{row['median_steps']:,} [{row['min_steps']:,}, {row['max_steps']:,}]"
        lines.append(
            f"| {row['task']} | {row['agent']} | {float(row['threshold']):.0f} "
            f"({row['threshold_source']}) | {row['solved']} | {minutes} | {steps} "
            f"| {row['best_return']:.1f} | {row['budget_minutes']:g} |"
        )
    return "\n".join(lines)


def plot(out: str, results: Sequence[dict], path: str) -> None:
    """Evaluation return against wall-clock minutes, a panel per task, a line per run."""
    import matplotlib  # pylint: disable=import-outside-toplevel

    matplotlib.use("Agg")
    from matplotlib import pyplot  # pylint: disable=import-outside-toplevel

    tasks = sorted({row["task"] for row in results})
    columns = min(3, len(tasks))
    rows_of_panels = -(-len(tasks) // columns)
    figure, axes = pyplot.subplots(
        rows_of_panels, columns, squeeze=False, figsize=(5 * columns, 3.6 * rows_of_panels)
    )
    colours = {"ppo": "tab:blue", "d4pg": "tab:orange"}
    styles = ("-", "--", ":", "-.")
    for axis, task in zip(axes.flat, tasks):
        for row in (row for row in results if row["task"] == task):
            path_metrics = os.path.join(
                run_directory(out, row["agent"], task, int(row["seed"])), experiment.METRICS_FILE
            )
            if not os.path.exists(path_metrics):
                continue
            metrics = [m for m in csv_log.read_rows(path_metrics) if m["eval_return"]]
            axis.plot(
                [float(m["wall_time_s"]) / 60.0 for m in metrics],
                [float(m["eval_return"]) for m in metrics],
                color=colours.get(row["agent"]),
                alpha=0.8,
                linestyle=styles[int(row["seed"]) % len(styles)],
                label=f"{row['agent']} seed {row['seed']}",
            )
        axis.axhline(THRESHOLDS[task][0], color="grey", linestyle="--", linewidth=1)
        axis.set_title(task)
        axis.set_xlabel("wall-clock (minutes)")
        axis.set_ylabel("evaluation return")
        axis.set_ylim(0, 1000)
        axis.legend(fontsize=7)
    for axis in list(axes.flat)[len(tasks) :]:
        axis.set_visible(False)
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    pyplot.close(figure)


def report(out: str) -> str:
    results = read_results(os.path.join(out, "results.csv"))
    if not results:
        raise ValueError(f"{out!r} holds no results yet.")
    summary = summarize(results)
    with open(os.path.join(out, "time_to_solve.csv"), "w", newline="") as file:
        writer = csv.DictWriter(file, fieldnames=list(summary[0]))
        writer.writeheader()
        writer.writerows(summary)
    plot(out, results, os.path.join(out, "time_to_solve.png"))
    return markdown_table(summary)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tasks", default=",".join(THRESHOLDS))
    parser.add_argument("--agents", default=",".join(AGENTS))
    parser.add_argument("--seeds", default="0,1,2")
    parser.add_argument(
        "--budget_minutes",
        type=float,
        default=30.0,
        help="training wall-clock per run before it gives up",
    )
    parser.add_argument(
        "--samples_per_insert",
        type=float,
        default=None,
        help="D4PG's samples per insert (default: the preset's, 256)",
    )
    parser.add_argument("--out", default=None)
    parser.add_argument("--report_only", action="store_true")
    parser.add_argument("--backend", choices=("cpu", "warp"), default="cpu")
    parser.add_argument("--device", default=None, help="the Warp device of --backend warp")
    args = parser.parse_args(argv)
    if args.device is not None and args.backend != "warp":
        raise ValueError(f"--device {args.device!r} applies to --backend warp only.")
    if args.out is None:
        name = "time_to_solve" if args.backend == "cpu" else f"time_to_solve_{args.backend}"
        args.out = os.path.join("benchmarks", "results", name)
    tasks = _parse_list(args.tasks, list(THRESHOLDS), "tasks")
    agents = _parse_list(args.agents, AGENTS, "agents")
    seeds = [int(seed) for seed in _parse_list(args.seeds, None, "seeds")]
    if not args.budget_minutes > 0:
        raise ValueError(f"--budget_minutes {args.budget_minutes}; expected > 0.")
    if args.samples_per_insert is not None and not args.samples_per_insert > 0:
        raise ValueError(f"--samples_per_insert {args.samples_per_insert}; expected > 0.")
    os.makedirs(args.out, exist_ok=True)
    check_backend(args.out, args.backend, args.device)
    results_path = os.path.join(args.out, "results.csv")
    if not args.report_only:
        done = {(row["task"], row["agent"], int(row["seed"])) for row in read_results(results_path)}
        for task in tasks:
            for agent in agents:
                for seed in seeds:
                    if (task, agent, seed) in done:
                        print(f"{task} {agent} seed {seed}: in {results_path}, skipped")
                        continue
                    started = time.monotonic()
                    row = run_cell(
                        args.out,
                        task,
                        agent,
                        seed,
                        args.budget_minutes,
                        args.samples_per_insert,
                        args.backend,
                        args.device,
                    )
                    append_result(results_path, row)
                    print(
                        f"{task} {agent} seed {seed}: solved={row['solved']} "
                        f"steps={row['steps_to_threshold']} wall_s={row['wall_s_to_threshold']} "
                        f"best={row['best_return']} ({time.monotonic() - started:.0f} s)",
                        flush=True,
                    )
    print(report(args.out))


if __name__ == "__main__":
    main()
