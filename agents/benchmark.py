r"""The rllab benchmark's table with one command: algorithms x tasks x seeds.

Duan et al., "Benchmarking Deep Reinforcement Learning for Continuous Control",
ICML 2016: each cell runs one algorithm on one task with one seed; a cell's
performance is the average undiscounted return of ALL trajectories of ALL its
iterations (section 5, "Performance Metrics"); the table shows its mean +- std
over seeds (Table 1).

    python -m agents.benchmark --suite rllab --algorithms all --tasks basic \
        --seeds 5 --iterations 500 --out runs/rllab_basic [--workers 2] [--ray_address auto]

`--suite suite` runs Control Suite tasks named 'domain:task' instead. Every cell
is a directory `OUT/cells/<task>/<algorithm>/seed_<k>/` with `progress.csv` (one
row per iteration) and, once finished, `done.json`; a rerun skips finished cells,
so an interrupted grid resumes where it stopped. Cells run in `--workers`
processes, or as Ray tasks when `--ray_address` is given. At the end
`OUT/table.csv`, `OUT/table.md` and a learning-curve figure per task,
`OUT/curves/<task>.png`, are written from every finished cell, and beside them
`OUT/table_last_iteration.csv` and `.md`: each cell's last iteration's average
return, mean +- std over seeds, which says where a run shorter than the paper's
500 iterations has got to (the paper's metric averages over the whole run).
"""

import csv
import dataclasses
import importlib
import json
import multiprocessing
import os
import shutil
from collections.abc import Callable, Sequence

import numpy as np
from absl import app, flags

from agents import tracking

# The paper's column order (Table 1).
ALGORITHMS = ("reinforce", "tnpg", "rwr", "reps", "trpo", "cem", "cmaes", "ddpg")
TITLES = {
    "reinforce": "REINFORCE",
    "tnpg": "TNPG",
    "rwr": "RWR",
    "reps": "REPS",
    "trpo": "TRPO",
    "cem": "CEM",
    "cmaes": "CMA-ES",
    "ddpg": "DDPG",
}
SUITES = ("rllab", "suite")
# Table 2: the horizon of Control Suite tasks run here (rllab's tasks carry their own).
DEFAULT_HORIZON = 500
_GROUPS = {
    "basic": "BASIC",
    "locomotion": "LOCOMOTION",
    "partially_observable": "PARTIALLY_OBSERVABLE",
    "hierarchical": "HIERARCHICAL",
    "all": "ALL",
}
_PROGRESS_FIELDS = ("iteration", "average_return", "num_trajectories", "env_steps", "wall_time_s")


@dataclasses.dataclass(frozen=True)
class Cell:
    """One run of the grid: `algorithm` on `task` of `suite` with `seed`."""

    suite: str
    task: str
    algorithm: str
    seed: int
    iterations: int
    steps_per_iteration: int
    horizon: int | None
    num_envs: int
    overrides: tuple[tuple[str, object], ...]
    out: str

    @property
    def directory(self) -> str:
        return os.path.join(
            self.out, "cells", self.task.replace(":", "-"), self.algorithm, f"seed_{self.seed}"
        )

    def settings(self) -> dict:
        """What a finished cell must match to be reused."""
        return {
            "suite": self.suite,
            "task": self.task,
            "algorithm": self.algorithm,
            "seed": self.seed,
            "iterations": self.iterations,
            "steps_per_iteration": self.steps_per_iteration,
            "horizon": self.horizon,
            "num_envs": self.num_envs,
            "overrides": [list(item) for item in self.overrides],
        }


# ------------------------------------------------------------------------- names


def resolve_algorithms(spec: str) -> tuple[str, ...]:
    """'all' or a comma-separated list of `ALGORITHMS`."""
    if spec == "all":
        return ALGORITHMS
    names = tuple(name.strip() for name in spec.split(",") if name.strip())
    unknown = [name for name in names if name not in ALGORITHMS]
    if unknown or not names:
        raise ValueError(
            f"unknown algorithms {unknown or spec!r}; expected 'all' or some of {ALGORITHMS}."
        )
    return names


def resolve_tasks(suite_name: str, spec: str) -> tuple[str, ...]:
    """Task names: an rllab group ('basic', ..., 'all') or a comma-separated list.

    For --suite suite the names are Control Suite 'domain:task' pairs.
    """
    if suite_name not in SUITES:
        raise ValueError(f"suite {suite_name!r} is not one of {SUITES}.")
    if suite_name == "rllab":
        from suites import rllab  # pylint: disable=import-outside-toplevel

        if spec in _GROUPS:
            return tuple(getattr(rllab, _GROUPS[spec]))
        names = tuple(name.strip() for name in spec.split(",") if name.strip())
        unknown = [name for name in names if name not in rllab.ALL]
        if unknown or not names:
            raise ValueError(
                f"unknown rllab tasks {unknown or spec!r}; expected a group "
                f"{tuple(_GROUPS)} or names from suites.rllab.ALL."
            )
        return names
    names = tuple(name.strip() for name in spec.split(",") if name.strip())
    bad = [name for name in names if name.count(":") != 1]
    if bad or not names:
        raise ValueError(f"Control Suite tasks {bad or spec!r} are not 'domain:task' names.")
    return names


def parse_overrides(items: Sequence[str]) -> dict[str, dict[str, object]]:
    """'algorithm.field=value' (value a Python literal) -> {algorithm: {field: value}}."""
    import ast  # pylint: disable=import-outside-toplevel

    result: dict[str, dict[str, object]] = {}
    for item in items:
        target, separator, value = item.partition("=")
        algorithm, dot, field = target.partition(".")
        if not separator or not dot or algorithm not in ALGORITHMS:
            raise ValueError(
                f"--set {item!r} is not 'algorithm.field=value' with an algorithm of {ALGORITHMS}."
            )
        module = importlib.import_module(f"agents.{algorithm}")
        known = {f.name for f in dataclasses.fields(module.Config)}
        if field not in known:
            raise ValueError(
                f"--set {item!r}: {algorithm}.Config has no field {field!r}; "
                f"fields: {sorted(known)}."
            )
        try:
            parsed = ast.literal_eval(value)
        except (ValueError, SyntaxError) as error:
            raise ValueError(f"--set {item!r}: {value!r} is not a Python literal.") from error
        result.setdefault(algorithm, {})[field] = parsed
    return result


def make_config(algorithm: str, task: str, overrides: dict[str, object]):
    """The algorithm's Config: defaults, then the paper's preset for the task, then overrides."""
    module = importlib.import_module(f"agents.{algorithm}")
    return module.Config(**{**module.PRESETS.get(task, {}), **overrides})


# ------------------------------------------------------------------------ one cell


def _load_batch(suite_name: str, task: str, num_envs: int, seed: int, horizon: int):
    if suite_name == "rllab":
        from suites import rllab  # pylint: disable=import-outside-toplevel

        # Episodes of exactly the sampling horizon: a copy then never runs past it
        # unrecorded (policy_search.run_episodes).
        return rllab.load_batch(task, num_envs, seed=seed, horizon=horizon)
    from suites import suite  # pylint: disable=import-outside-toplevel

    domain, task_name = task.split(":")
    # The same for a Control Suite task: its time limit set to `horizon` control
    # steps (half a step short, so that rounding cannot add one), read off one copy.
    control_timestep = suite.load(domain, task_name).control_timestep()
    return suite.load_batch(
        domain,
        task_name,
        num_envs,
        seed=seed,
        task_kwargs={"time_limit": (horizon - 0.5) * control_timestep},
    )


def _horizon(cell: Cell) -> int:
    if cell.horizon is not None:
        return cell.horizon
    if cell.suite == "rllab":
        from suites import rllab  # pylint: disable=import-outside-toplevel

        return int(rllab.HORIZON[cell.task])
    return DEFAULT_HORIZON


def is_done(cell: Cell) -> bool:
    """True if the cell finished with the same settings; raises if with others."""
    path = os.path.join(cell.directory, "done.json")
    if not os.path.exists(path):
        return False
    with open(path, encoding="utf-8") as file:
        stored = json.load(file)["settings"]
    if stored != cell.settings():
        raise ValueError(
            f"{cell.directory} finished with settings {stored}, not {cell.settings()}; "
            "use another --out or remove that directory."
        )
    return True


def run_cell(cell: Cell) -> str:
    """Runs one cell unless it is finished; returns its directory.

    An unfinished cell's directory is cleared and the run starts over: cells are
    the unit of resumption.
    """
    from agents import policy_search  # pylint: disable=import-outside-toplevel

    if is_done(cell):
        return cell.directory
    if os.path.exists(cell.directory):
        shutil.rmtree(cell.directory)
    os.makedirs(cell.directory)
    module = importlib.import_module(f"agents.{cell.algorithm}")
    config = make_config(cell.algorithm, cell.task, dict(cell.overrides))
    sampling = policy_search.Sampling(
        steps_per_iteration=cell.steps_per_iteration, horizon=_horizon(cell), num_envs=cell.num_envs
    )
    with open(os.path.join(cell.directory, "config.json"), "w", encoding="utf-8") as file:
        json.dump(
            {
                "settings": cell.settings(),
                "config": dataclasses.asdict(config),
                "sampling": dataclasses.asdict(sampling),
            },
            file,
            indent=2,
        )
    env = _load_batch(cell.suite, cell.task, cell.num_envs, cell.seed, sampling.horizon)
    progress_path = os.path.join(cell.directory, "progress.csv")
    # TensorBoard event files beside progress.csv when tensorboardX is installed, one
    # point per iteration (the paper's x axis).
    tracker = tracking.open_tracker(tracking.Settings(), cell.directory)
    with open(progress_path, "w", newline="", encoding="utf-8") as file:
        writer = csv.writer(file)
        writer.writerow(_PROGRESS_FIELDS)

        def on_iteration(log):
            writer.writerow([getattr(log, name) for name in _PROGRESS_FIELDS])
            file.flush()
            if tracker is not None:
                tracker.write(
                    {name: getattr(log, name) for name in _PROGRESS_FIELDS if name != "iteration"}
                    | {"step": log.iteration}
                )

        module.train(
            env,
            config,
            sampling=sampling,
            num_iterations=cell.iterations,
            seed=cell.seed,
            on_iteration=on_iteration,
        )
    if tracker is not None:
        tracker.close()
    with open(os.path.join(cell.directory, "done.json"), "w", encoding="utf-8") as file:
        json.dump({"settings": cell.settings()}, file, indent=2)
    return cell.directory


def run_cells(cells: Sequence[Cell], workers: int = 1, ray_address: str | None = None) -> None:
    """Runs the unfinished cells: in this process, in `workers` processes, or on Ray."""
    pending = [cell for cell in cells if not is_done(cell)]
    if not pending:
        return
    if ray_address is not None:
        try:
            import ray  # pylint: disable=import-outside-toplevel
        except ImportError as error:
            raise ImportError("--ray_address needs the 'ray' package (pip install ray).") from error
        ray.init(address=ray_address, ignore_reinit_error=True)
        remote = ray.remote(run_cell)
        ray.get([remote.remote(cell) for cell in pending])
        return
    if workers < 1:
        raise ValueError(f"workers is {workers}; expected >= 1.")
    if workers == 1:
        for cell in pending:
            run_cell(cell)
        return
    # 'spawn': JAX's threads do not survive a fork.
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        for _ in pool.imap_unordered(run_cell, pending):
            pass


# ------------------------------------------------------------------------- results


def read_progress(cell: Cell) -> dict[str, np.ndarray]:
    """The columns of a cell's progress.csv as float arrays, one value per iteration."""
    with open(os.path.join(cell.directory, "progress.csv"), encoding="utf-8") as file:
        rows = list(csv.DictReader(file))
    return {name: np.array([float(row[name]) for row in rows]) for name in _PROGRESS_FIELDS}


def performance(progress: dict[str, np.ndarray]) -> float:
    """sum_i sum_n R_in / sum_i N_i: the mean return of all trajectories of all iterations."""
    counts = progress["num_trajectories"]
    return float(np.sum(progress["average_return"] * counts) / np.sum(counts))


def last_iteration_return(progress: dict[str, np.ndarray]) -> float:
    """The mean trajectory return of the cell's last iteration."""
    return float(progress["average_return"][-1])


def summarize(
    cells: Sequence[Cell],
    metric: Callable[[dict[str, np.ndarray]], float] = performance,
) -> dict[tuple[str, str], list[float]]:
    """{(task, algorithm): per-seed values of `metric`} of the finished cells."""
    result: dict[tuple[str, str], list[float]] = {}
    for cell in cells:
        if is_done(cell):
            result.setdefault((cell.task, cell.algorithm), []).append(metric(read_progress(cell)))
    return result


def write_table(
    cells: Sequence[Cell],
    tasks: Sequence[str],
    algorithms: Sequence[str],
    out: str,
    name: str = "table",
    metric: Callable[[dict[str, np.ndarray]], float] = performance,
) -> dict[tuple[str, str], tuple[float, float, int]]:
    """Writes OUT/<name>.csv and OUT/<name>.md of `metric` (default the paper's
    performance); returns {(task, algorithm): (mean, std, seeds)}.

    std is the population standard deviation over seeds (numpy's default).
    """
    per_seed = summarize(cells, metric)
    table = {
        key: (float(np.mean(values)), float(np.std(values)), len(values))
        for key, values in per_seed.items()
    }
    with open(os.path.join(out, f"{name}.csv"), "w", newline="", encoding="utf-8") as file:
        writer = csv.writer(file)
        writer.writerow(["task", "algorithm", "mean", "std", "seeds"])
        for task in tasks:
            for algorithm in algorithms:
                if (task, algorithm) in table:
                    writer.writerow([task, algorithm, *table[(task, algorithm)]])
    lines = [
        "| Task | " + " | ".join(TITLES[a] for a in algorithms) + " |",
        "|---|" + "---|" * len(algorithms),
    ]
    for task in tasks:
        entries = []
        for algorithm in algorithms:
            if (task, algorithm) in table:
                mean, std, _ = table[(task, algorithm)]
                entries.append(f"{mean:.1f} ± {std:.1f}")
            else:
                entries.append("not run")
        lines.append(f"| {task} | " + " | ".join(entries) + " |")
    with open(os.path.join(out, f"{name}.md"), "w", encoding="utf-8") as file:
        file.write("\n".join(lines) + "\n")
    return table


def plot_curves(
    cells: Sequence[Cell], tasks: Sequence[str], algorithms: Sequence[str], out: str
) -> list[str]:
    """One figure per task: average return per iteration, mean over seeds +- std."""
    import matplotlib  # pylint: disable=import-outside-toplevel

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # pylint: disable=import-outside-toplevel

    os.makedirs(os.path.join(out, "curves"), exist_ok=True)
    paths = []
    for task in tasks:
        figure, axes = plt.subplots(figsize=(6, 4))
        for algorithm in algorithms:
            curves = [
                read_progress(cell)["average_return"]
                for cell in cells
                if cell.task == task and cell.algorithm == algorithm and is_done(cell)
            ]
            if not curves:
                continue
            length = min(len(curve) for curve in curves)
            stacked = np.stack([curve[:length] for curve in curves])
            mean, std = stacked.mean(axis=0), stacked.std(axis=0)
            iterations = np.arange(length)
            axes.plot(iterations, mean, label=TITLES[algorithm])
            axes.fill_between(iterations, mean - std, mean + std, alpha=0.2)
        axes.set_xlabel("iteration")
        axes.set_ylabel("average return")
        axes.set_title(task)
        axes.legend(fontsize="small")
        path = os.path.join(out, "curves", f"{task.replace(':', '-')}.png")
        figure.savefig(path, dpi=100, bbox_inches="tight")
        plt.close(figure)
        paths.append(path)
    return paths


def benchmark(
    suite_name: str,
    algorithms: str,
    tasks: str,
    seeds: int,
    iterations: int,
    out: str,
    steps_per_iteration: int = 50_000,
    horizon: int | None = None,
    num_envs: int = 10,
    workers: int = 1,
    ray_address: str | None = None,
    overrides: Sequence[str] = (),
) -> dict[tuple[str, str], tuple[float, float, int]]:
    """Runs the grid and writes the table and figures; returns the table."""
    algorithm_names = resolve_algorithms(algorithms)
    task_names = resolve_tasks(suite_name, tasks)
    if seeds < 1 or iterations < 1:
        raise ValueError(f"seeds {seeds} and iterations {iterations} must be >= 1.")
    if horizon is not None and horizon < 1:
        raise ValueError(f"horizon is {horizon}; expected >= 1 or None.")
    parsed = parse_overrides(overrides)
    cells = [
        Cell(
            suite=suite_name,
            task=task,
            algorithm=algorithm,
            seed=seed,
            iterations=iterations,
            steps_per_iteration=steps_per_iteration,
            horizon=horizon,
            num_envs=num_envs,
            overrides=tuple(sorted(parsed.get(algorithm, {}).items())),
            out=out,
        )
        # Seed by seed, so that a grid stopped part-way has whole tables of fewer seeds.
        for seed in range(seeds)
        for task in task_names
        for algorithm in algorithm_names
    ]
    for cell in cells:  # configurations fail here, before any cell runs
        make_config(cell.algorithm, cell.task, dict(cell.overrides))
    os.makedirs(out, exist_ok=True)
    run_cells(cells, workers=workers, ray_address=ray_address)
    table = write_table(cells, task_names, algorithm_names, out)
    write_table(
        cells, task_names, algorithm_names, out, "table_last_iteration", last_iteration_return
    )
    plot_curves(cells, task_names, algorithm_names, out)
    return table


FLAGS = flags.FLAGS


def _define_flags() -> None:
    """The command line's flags, defined only when run as a program, so that importing
    this module (tests, other programs with their own --out) defines none."""
    flags.DEFINE_enum(
        "suite", "rllab", SUITES, "Task suite: rllab's 31 tasks or the Control Suite."
    )
    flags.DEFINE_string(
        "algorithms", "all", "'all' or a comma-separated subset of " + ", ".join(ALGORITHMS)
    )
    flags.DEFINE_string(
        "tasks",
        "basic",
        "rllab: a group (basic, locomotion, partially_observable, "
        "hierarchical, all) or task names; suite: comma-separated domain:task names.",
    )
    flags.DEFINE_integer("seeds", 5, "Seeds 0..seeds-1 per (task, algorithm).")
    flags.DEFINE_integer(
        "iterations", 500, "Iterations per run (Table 2: 500, 300 partially observable)."
    )
    flags.DEFINE_integer("steps_per_iteration", 50_000, "Simulation steps per iteration (Table 2).")
    flags.DEFINE_integer(
        "horizon",
        None,
        "Trajectory horizon; default the task's (rllab.HORIZON) "
        f"or {DEFAULT_HORIZON} for the Control Suite.",
    )
    flags.DEFINE_integer("num_envs", 10, "Batched environment copies per run.")
    flags.DEFINE_integer("workers", 1, "Parallel processes running cells.")
    flags.DEFINE_string(
        "ray_address", None, "Run the cells as Ray tasks on this cluster ('auto', ...)."
    )
    flags.DEFINE_multi_string(
        "set", [], "algorithm.field=value (Python literal) overriding a Config."
    )
    flags.DEFINE_string("out", None, "Output directory.")
    flags.mark_flag_as_required("out")


def main(argv: Sequence[str]) -> None:
    """`python -m agents.benchmark`: runs the grid of the flags and writes its table."""
    if len(argv) > 1:
        raise app.UsageError(f"unexpected arguments {argv[1:]}")
    benchmark(
        FLAGS.suite,
        FLAGS.algorithms,
        FLAGS.tasks,
        FLAGS.seeds,
        FLAGS.iterations,
        FLAGS.out,
        steps_per_iteration=FLAGS.steps_per_iteration,
        horizon=FLAGS.horizon,
        num_envs=FLAGS.num_envs,
        workers=FLAGS.workers,
        ray_address=FLAGS.ray_address,
        overrides=FLAGS.set,
    )
    with open(os.path.join(FLAGS.out, "table.md"), encoding="utf-8") as file:
        print(file.read())


if __name__ == "__main__":
    _define_flags()
    app.run(main)
