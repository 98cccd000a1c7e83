r"""Learned results on the Control Suite's 28 benchmarking tasks, beside the published ones.

  python benchmarks/suite_results.py [--tasks cartpole:swingup,humanoid:run] \
      [--agents ppo,d4pg] [--seeds 0,1] [--max_steps 5000000] [--max_minutes 10] \
      [--out benchmarks/results/suite_results] [--figure PATH] [--eval_episodes 5]
  python benchmarks/suite_results.py --dry_run      # the cells and their cost, no training
  python benchmarks/suite_results.py --report_only  # table and figure from what is there

A cell is (agent, task, seed). Each trains in `<out>/runs/<agent>/<task>/seed<seed>`
through agents.experiment.train: PPO with the task's mujoco_playground settings
(agents/presets.py: the easy set's presets, `playground_ppo_overrides` for the other
tasks, 64 copies), D4PG with the 'batched' preset (8 copies). A cell stops at
whichever budget it reaches first: `max_steps` environment steps or `max_minutes` of
training wall-clock (metrics.csv `wall_time_s`: acting, learning and the evaluations
inside the loop; starting Python and compiling aside). The wall-clock budget is
checked at each evaluation (experiment.train's `max_wall_s`), so a cell may overrun
it by one evaluation period (PPO: 61,440 steps; D4PG: 10,000 steps); a cell trains in
one process, compiling once.

Resuming, cell by cell:
  * a finished cell has `cell.json` in its directory and is never rerun;
  * an interrupted cell (killed, or stopped with Ctrl-C) resumes from its latest
    checkpoint, written at every evaluation; agents.experiment resumes exactly (the
    parameters are bit-identical to those of an uninterrupted run);
  * a cell that died before its first checkpoint is started over cleanly.
So the whole table is one command that can be stopped and rerun at will.

Per cell, `cell.json` records the final and best evaluation returns, the curve
(step, wall-clock, return of every evaluation), the environment steps and wall-clock
to each reference level (`reference_levels`), why it stopped, and the machine's load
(os.getloadavg at start and end, os.cpu_count). The report writes `<out>/suite_results.md`
and `<out>/suite_results.json` (one row per task and agent, with the published
references of benchmarks/published_references.py) and the figure (return against
environment steps, one panel per task, the published values that are stated as
horizontal lines). docs/benchmark_results.md explains how to read them.
"""

import dataclasses
import datetime
import json
import math
import os
import statistics
import sys
import time
from collections.abc import Mapping, Sequence

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from absl import app, flags  # noqa: E402

import published_references  # noqa: E402
from agents import checkpoint, csv_log, environments, experiment, presets  # noqa: E402

AGENTS = ("ppo", "d4pg")
TASKS = published_references.BENCHMARKING_TASKS
CELL_FILE = "cell.json"
TABLE_MARKDOWN = "suite_results.md"
TABLE_JSON = "suite_results.json"
FIGURE = "suite_results.png"
# Steps between evaluations: PPO every second update of its preset (2 x 30,720
# steps, as benchmarks/time_to_solve.py), D4PG every 10,000 (agents.train's default).
EVAL_EVERY = {"ppo": 2 * presets.PPO_ROLLOUT_STEPS, "d4pg": 10_000}
# Half the most a 1000-step episode of rewards in [0, 1] can return: a level every
# task has, whatever the literature states.
HALF_OF_MAXIMUM = 500.0


@dataclasses.dataclass(frozen=True)
class AgentSetup:
    """How one agent trains on one task.

    Attributes:
      preset: the preset's name, for the table.
      overrides: the agent's Config fields that differ from its defaults.
      num_envs: environment copies stepped as one batch.
      eval_every: environment steps between evaluations (and checkpoints).
    """

    preset: str
    overrides: Mapping[str, object]
    num_envs: int
    eval_every: int


def agent_setup(agent: str, task: str) -> AgentSetup:
    """The preset settings of `agent` on `task` (see the module docstring)."""
    if agent == "ppo":
        return AgentSetup(
            preset=presets.preset_name(task)
            if task in presets.EASY_TASKS
            else f"playground({presets.preset_name(task)})",
            overrides=presets.playground_ppo_overrides(task),
            num_envs=presets.PPO_NUM_ENVS,
            eval_every=EVAL_EVERY["ppo"],
        )
    if agent == "d4pg":
        preset = presets.get("d4pg", "batched")
        return AgentSetup(
            preset=preset.name,
            overrides=preset.overrides,
            num_envs=preset.num_envs,
            eval_every=EVAL_EVERY["d4pg"],
        )
    raise ValueError(f"agent {agent!r} is unknown; expected one of {list(AGENTS)}.")


@dataclasses.dataclass(frozen=True)
class Settings:
    """One invocation: which cells, their budgets, where the results go.

    Attributes:
      tasks, agents, seeds: the cells are their product.
      max_steps: environment steps per cell (summed over copies).
      max_minutes: training wall-clock per cell.
      out: the results directory.
      figure: the figure's path (default `<out>/suite_results.png`).
      eval_episodes: episodes per evaluation.
      setups: per agent, settings replacing `agent_setup`'s (the tests' tiny runs).
    """

    tasks: tuple[str, ...]
    agents: tuple[str, ...]
    seeds: tuple[int, ...]
    max_steps: int
    max_minutes: float
    out: str
    figure: str | None = None
    eval_episodes: int = 5
    setups: Mapping[str, AgentSetup] = dataclasses.field(default_factory=dict)

    def __post_init__(self):
        for what, items, allowed in (
            ("tasks", self.tasks, TASKS),
            ("agents", self.agents, AGENTS),
        ):
            if not items:
                raise ValueError(f"--{what} is empty.")
            unknown = [item for item in items if item not in allowed]
            if unknown:
                raise ValueError(f"--{what}: {unknown} unknown; expected some of {list(allowed)}.")
        if not self.seeds:
            raise ValueError("--seeds is empty.")
        if not isinstance(self.max_steps, int) or self.max_steps < 1:
            raise ValueError(f"--max_steps {self.max_steps!r}; expected an integer >= 1.")
        if not self.max_minutes > 0:
            raise ValueError(f"--max_minutes {self.max_minutes!r}; expected > 0.")
        if self.eval_episodes < 1:
            raise ValueError(f"--eval_episodes {self.eval_episodes!r}; expected >= 1.")

    def setup(self, agent: str, task: str) -> AgentSetup:
        return self.setups.get(agent) or agent_setup(agent, task)

    def cells(self) -> list[tuple[str, str, int]]:
        """(agent, task, seed) in the order they run: task by task."""
        return [
            (agent, task, seed)
            for task in self.tasks
            for agent in self.agents
            for seed in self.seeds
        ]

    def figure_path(self) -> str:
        return self.figure or os.path.join(self.out, FIGURE)


def cell_directory(out: str, agent: str, task: str, seed: int) -> str:
    return os.path.join(out, "runs", agent, presets.preset_name(task), f"seed{seed}")


def reference_levels(task: str) -> list[tuple[str, float]]:
    """(name, return) levels whose first crossing a cell records.

    Every stated published value, half of the published PPO value where stated (the
    issue's bar), the project's time-to-solve threshold where the task has one
    (agents/presets.py PPO_TIME_TO_SOLVE), and half of the maximum return.
    """
    levels = [
        (f"{reference.agent} ({reference.source})", float(reference.value))
        for reference in published_references.stated(task)
        if reference.value is not None
    ]
    playground = published_references.playground_ppo(task)
    if playground.value is not None:
        levels.append(("half of published PPO", playground.value / 2.0))
    if task in presets.PPO_TIME_TO_SOLVE:
        threshold, source, _, _ = presets.PPO_TIME_TO_SOLVE[task]
        levels.append((f"time-to-solve threshold ({source})", threshold))
    levels.append(("half of the maximum return", HALF_OF_MAXIMUM))
    return levels


def _evaluations(metrics_path: str) -> list[dict]:
    if not os.path.exists(metrics_path):
        return []
    return [row for row in csv_log.read_rows(metrics_path) if row["eval_return"]]


def _has_checkpoint(out_dir: str) -> bool:
    # A pickle checkpoint of an earlier version counts: resuming it refuses with its
    # conversion command rather than silently starting the cell over.
    return any(
        os.path.exists(os.path.join(out_dir, name))
        for name in (experiment.CHECKPOINT_FILE, experiment.LEGACY_CHECKPOINT_FILE)
    )


def cell_status(settings: Settings, agent: str, task: str, seed: int) -> str:
    """'finished', 'resumable at step N' or 'new'."""
    out_dir = cell_directory(settings.out, agent, task, seed)
    if os.path.exists(os.path.join(out_dir, CELL_FILE)):
        return "finished"
    rows = _evaluations(os.path.join(out_dir, experiment.METRICS_FILE))
    if rows and _has_checkpoint(out_dir):
        return f"resumable at step {int(rows[-1]['step']):,}"
    return "new"


def run_cell(settings: Settings, agent: str, task: str, seed: int) -> dict:
    """Trains one cell to its budget (resuming what is there) and writes its cell.json."""
    setup = settings.setup(agent, task)
    out_dir = cell_directory(settings.out, agent, task, seed)
    metrics_path = os.path.join(out_dir, experiment.METRICS_FILE)
    load_start = os.getloadavg()
    started = time.monotonic()
    while True:
        rows = _evaluations(metrics_path) if _has_checkpoint(out_dir) else []
        steps = int(rows[-1]["step"]) if rows else 0
        wall_s = float(rows[-1]["wall_time_s"]) if rows else 0.0
        if steps >= settings.max_steps:
            stopped_by = "max_steps"
            break
        if wall_s >= 60.0 * settings.max_minutes:
            stopped_by = "max_minutes"
            break
        resume = bool(rows)
        experiment.train(
            agent,
            environments.factory(task),
            settings.max_steps,
            seed,
            out_dir,
            env_name=task,
            num_envs=setup.num_envs,
            config_overrides=setup.overrides,
            eval_every=setup.eval_every,
            eval_episodes=settings.eval_episodes,
            resume=resume,
            overwrite=not resume,
            progress=False,
            make_batch=environments.batch_factory(task) if setup.num_envs > 1 else None,
            max_wall_s=60.0 * settings.max_minutes,
        )
    curve = [
        (int(row["step"]), float(row["wall_time_s"]), float(row["eval_return"])) for row in rows
    ]
    best = max(curve, key=lambda point: point[2])
    crossings = {}
    for name, level in reference_levels(task):
        first = next((point for point in curve if point[2] >= level), None)
        crossings[name] = {
            "level": level,
            "steps": first[0] if first else None,
            "wall_s": round(first[1], 1) if first else None,
        }
    cell = {
        "agent": agent,
        "task": task,
        "seed": seed,
        "preset": setup.preset,
        "num_envs": setup.num_envs,
        "max_steps": settings.max_steps,
        "max_minutes": settings.max_minutes,
        "eval_episodes": settings.eval_episodes,
        "stopped_by": stopped_by,
        "final_step": curve[-1][0],
        "final_wall_s": round(curve[-1][1], 1),
        "final_return": round(curve[-1][2], 2),
        "best_return": round(best[2], 2),
        "best_step": best[0],
        "curve": [[step, round(wall, 1), round(value, 2)] for step, wall, value in curve],
        "reference_levels": crossings,
        "load_start": [round(value, 2) for value in load_start],
        "load_end": [round(value, 2) for value in os.getloadavg()],
        "cpus": os.cpu_count(),
        "session_s": round(time.monotonic() - started, 1),
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
    }
    checkpoint.write_atomically(
        os.path.join(out_dir, CELL_FILE), json.dumps(cell, indent=1).encode()
    )
    return cell


def read_cells(settings: Settings) -> list[dict]:
    """The cell.json of every finished cell of `settings`, in cell order."""
    cells = []
    for agent, task, seed in settings.cells():
        path = os.path.join(cell_directory(settings.out, agent, task, seed), CELL_FILE)
        if os.path.exists(path):
            with open(path) as file:
                cells.append(json.load(file))
    return cells


def summarize(settings: Settings, cells: Sequence[dict]) -> list[dict]:
    """One row per (task, agent) of `settings`, finished cells or not."""
    rows = []
    for task in settings.tasks:
        for agent in settings.agents:
            mine = [cell for cell in cells if cell["task"] == task and cell["agent"] == agent]
            row: dict = {
                "task": task,
                "agent": agent,
                "seeds_finished": f"{len(mine)}/{len(settings.seeds)}",
                "references": [
                    dataclasses.asdict(reference)
                    for reference in published_references.for_task(task)
                ],
            }
            if mine:
                finals = [cell["final_return"] for cell in mine]
                half = [
                    cell["reference_levels"]["half of the maximum return"]["steps"] for cell in mine
                ]
                reached = [steps for steps in half if steps is not None]
                row.update(
                    final_return_mean=round(statistics.fmean(finals), 1),
                    final_return_min=min(finals),
                    final_return_max=max(finals),
                    best_return=max(cell["best_return"] for cell in mine),
                    median_steps=int(statistics.median(cell["final_step"] for cell in mine)),
                    median_minutes=round(
                        statistics.median(cell["final_wall_s"] for cell in mine) / 60.0, 1
                    ),
                    reached_500=f"{len(reached)}/{len(mine)}",
                    median_steps_to_500=int(statistics.median(reached)) if reached else None,
                    stopped_by=sorted({cell["stopped_by"] for cell in mine}),
                    load_1min=[cell["load_start"][0] for cell in mine]
                    + [cell["load_end"][0] for cell in mine],
                    cpus=mine[0]["cpus"],
                )
            rows.append(row)
    return rows


def _reference_text(references: Sequence[dict], source: str, agent: str | None = None) -> str:
    chosen = [
        ref
        for ref in references
        if ref["source"] == source and (agent is None or ref["agent"] == agent)
    ]
    if not chosen:
        return "-"
    reference = chosen[0]
    if reference["value"] is not None:
        return f"{reference['value']:.0f}"
    return {
        published_references.NOT_LEGIBLE: "plotted, no value",
        published_references.NOT_IN_SHARED_PAPERS: "not read",
        published_references.NOT_FOUND: "not found",
        published_references.NOT_REGISTERED: "no such task",
        published_references.NOT_PLOTTED: "no panel",
    }[reference["status"]]


def markdown_table(summary: Sequence[dict]) -> str:
    lines = [
        "| task | agent | seeds | env steps (median) | minutes (median) "
        "| final return: mean [min, max] | best | reached 500 (median steps) "
        "| playground PPO | D4PG paper Fig. 2 | 2018 report D4PG | load (1 min) |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for row in summary:
        references = row["references"]
        published = (
            f"| {_reference_text(references, published_references.PLAYGROUND)} "
            f"| {_reference_text(references, published_references.D4PG_PAPER)} "
            f"| {_reference_text(references, published_references.CONTROL_SUITE_REPORT, 'D4PG')} "
        )
        if "final_return_mean" not in row:
            lines.append(
                f"| {row['task']} | {row['agent']} | {row['seeds_finished']} | not run | | | | "
                f"{published}| |"
            )
            continue
        to_500 = row["reached_500"]
        if row["median_steps_to_500"] is not None:
            to_500 += f" ({row['median_steps_to_500']:,})"
        loads = row["load_1min"]
        lines.append(
            f"| {row['task']} | {row['agent']} | {row['seeds_finished']} "
            f"| {row['median_steps']:,} | {row['median_minutes']} "
            f"| {row['final_return_mean']:.1f} [{row['final_return_min']:.1f}, "
            f"{row['final_return_max']:.1f}] | {row['best_return']:.1f} | {to_500} "
            f"{published}| {min(loads):.1f}-{max(loads):.1f} on {row['cpus']} CPUs |"
        )
    return "\n".join(lines)


def plot(settings: Settings, cells: Sequence[dict], path: str) -> None:
    """Evaluation return against environment steps: a panel per task, a line per cell,
    a dashed horizontal line per stated published value."""
    import matplotlib  # pylint: disable=import-outside-toplevel

    matplotlib.use("Agg")
    from matplotlib import pyplot, ticker  # pylint: disable=import-outside-toplevel

    tasks = list(settings.tasks)
    columns = min(4, len(tasks))
    panel_rows = -(-len(tasks) // columns)
    figure, axes = pyplot.subplots(
        panel_rows, columns, squeeze=False, figsize=(4 * columns, 3 * panel_rows)
    )
    colours = {"ppo": "tab:blue", "d4pg": "tab:orange"}
    styles = ("-", "--", ":", "-.")
    for axis, task in zip(axes.flat, tasks, strict=False):
        for cell in (cell for cell in cells if cell["task"] == task):
            axis.plot(
                [point[0] for point in cell["curve"]],
                [point[2] for point in cell["curve"]],
                color=colours.get(cell["agent"]),
                linestyle=styles[cell["seed"] % len(styles)],
                label=f"{cell['agent']} seed {cell['seed']}",
            )
        stated = published_references.stated(task)
        for reference in stated:
            axis.axhline(
                reference.value, color="grey", linestyle="--", linewidth=1, label=reference.agent
            )
        if not stated:
            axis.text(
                0.02,
                0.95,
                "no published value stated",
                transform=axis.transAxes,
                fontsize=7,
                verticalalignment="top",
                color="grey",
            )
        axis.set_title(task, fontsize=9)
        axis.set_ylim(0, 1000)
        axis.set_xlabel("environment steps", fontsize=8)
        axis.set_ylabel("evaluation return", fontsize=8)
        axis.tick_params(labelsize=7)
        axis.ticklabel_format(axis="x", style="sci", scilimits=(0, 0))
        axis.xaxis.set_major_locator(ticker.MaxNLocator(4))
        if axis.get_legend_handles_labels()[0]:
            axis.legend(fontsize=6)
    for axis in list(axes.flat)[len(tasks) :]:
        axis.set_visible(False)
    figure.tight_layout()
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    figure.savefig(path, dpi=90)
    pyplot.close(figure)


def report(settings: Settings) -> str:
    """Writes the table (markdown, JSON) and the figure; returns the markdown table."""
    cells = read_cells(settings)
    summary = summarize(settings, cells)
    table = markdown_table(summary)
    os.makedirs(settings.out, exist_ok=True)
    header = (
        f"Budget per cell: {settings.max_steps:,} environment steps or "
        f"{settings.max_minutes:g} minutes of training, whichever first; "
        f"{settings.eval_episodes} evaluation episodes. Written "
        f"{datetime.datetime.now(datetime.timezone.utc).isoformat(timespec='minutes')} by "
        "benchmarks/suite_results.py; see docs/benchmark_results.md.\n\n"
    )
    with open(os.path.join(settings.out, TABLE_MARKDOWN), "w") as file:
        file.write(header + table + "\n")
    checkpoint.write_atomically(
        os.path.join(settings.out, TABLE_JSON),
        json.dumps(
            {
                "settings": {
                    key: value
                    for key, value in dataclasses.asdict(settings).items()
                    if key != "setups"
                },
                "rows": summary,
                "cells": cells,
            },
            indent=1,
        ).encode(),
    )
    plot(settings, cells, settings.figure_path())
    return table


def dry_run(settings: Settings) -> str:
    """The cells, what each would do, and the arithmetic of the total cost."""
    lines = []
    to_run = 0
    for agent, task, seed in settings.cells():
        status = cell_status(settings, agent, task, seed)
        to_run += status != "finished"
        setup = settings.setup(agent, task)
        lines.append(
            f"{agent:5s} {task:24s} seed {seed}: {status}; preset {setup.preset}, "
            f"{setup.num_envs} copies, evaluation every {setup.eval_every:,} steps"
        )
    total = len(settings.cells())
    hours = to_run * settings.max_minutes / 60.0
    lines += [
        "",
        f"cells: {len(settings.tasks)} tasks x {len(settings.agents)} agents x "
        f"{len(settings.seeds)} seeds = {total}; {total - to_run} finished, {to_run} to run",
        f"budget per cell: {settings.max_steps:,} steps or {settings.max_minutes:g} min, "
        "whichever first",
        f"at most: {to_run} x {settings.max_minutes:g} min = {hours:.2f} h of training on this "
        f"machine ({os.cpu_count()} CPUs, cells one after another, each using all cores)",
        f"with K workers of this machine's size: ceil({to_run} / K) x "
        f"{settings.max_minutes:g} min (K = 4: "
        f"{math.ceil(to_run / 4) * settings.max_minutes / 60.0:.2f} h; K = 14: "
        f"{math.ceil(to_run / 14) * settings.max_minutes / 60.0:.2f} h)",
        "plus per cell: start-up and JIT compilation once (not counted in the budget), "
        "and at most one evaluation period past the wall-clock budget",
    ]
    return "\n".join(lines)


def run(settings: Settings) -> str:
    """Trains every cell not yet finished, then writes the report. Returns the table."""
    for agent, task, seed in settings.cells():
        status = cell_status(settings, agent, task, seed)
        if status == "finished":
            print(f"{agent} {task} seed {seed}: finished, skipped", flush=True)
            continue
        started = time.monotonic()
        cell = run_cell(settings, agent, task, seed)
        print(
            f"{agent} {task} seed {seed} ({status}): final {cell['final_return']} best "
            f"{cell['best_return']} at {cell['final_step']:,} steps, {cell['final_wall_s']} s "
            f"training, stopped by {cell['stopped_by']} ({time.monotonic() - started:.0f} s)",
            flush=True,
        )
    return report(settings)


def define_flags() -> None:
    """Defines the command line's flags (only when run as a script: test modules that
    import this one alongside agents.train would define --out twice)."""
    flags.DEFINE_list("tasks", list(TASKS), "Benchmarking tasks, as domain:task.")
    flags.DEFINE_list("agents", ["ppo"], f"Agents, some of {list(AGENTS)}.")
    flags.DEFINE_list("seeds", ["0", "1"], "Seeds.")
    flags.DEFINE_integer("max_steps", 5_000_000, "Environment steps per cell.")
    flags.DEFINE_float("max_minutes", 10.0, "Training wall-clock minutes per cell.")
    flags.DEFINE_string(
        "out", os.path.join("benchmarks", "results", "suite_results"), "Results directory."
    )
    flags.DEFINE_string("figure", None, "Figure path (default <out>/suite_results.png).")
    flags.DEFINE_integer("eval_episodes", 5, "Episodes per evaluation.")
    flags.DEFINE_bool("dry_run", False, "List the cells and the cost; train nothing.")
    flags.DEFINE_bool("report_only", False, "Write the table and figure only.")


def settings_from_flags() -> Settings:
    values = flags.FLAGS
    try:
        seeds = tuple(int(seed) for seed in values.seeds)
    except ValueError as error:
        raise ValueError(f"--seeds {values.seeds}: expected integers.") from error
    return Settings(
        tasks=tuple(values.tasks),
        agents=tuple(values.agents),
        seeds=seeds,
        max_steps=values.max_steps,
        max_minutes=values.max_minutes,
        out=values.out,
        figure=values.figure,
        eval_episodes=values.eval_episodes,
    )


def main(argv: Sequence[str]) -> None:
    if len(argv) > 1:
        raise app.UsageError(f"unexpected arguments {list(argv[1:])}")
    settings = settings_from_flags()
    if flags.FLAGS.dry_run:
        print(dry_run(settings))
    elif flags.FLAGS.report_only:
        print(report(settings))
    else:
        print(run(settings))


if __name__ == "__main__":
    define_flags()
    app.run(main)
