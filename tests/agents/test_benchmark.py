"""agents.benchmark: the grid, its resumption, the table and the figures."""

import csv
import os

import numpy as np
import pytest

from agents import benchmark, vector

from .conftest import DoubleIntegrator


@pytest.fixture
def integrator_tasks(monkeypatch):
    """Cells load DoubleIntegrator batches (no MuJoCo): 'suite' names pick the time limit."""

    def load_batch(suite_name, task, num_envs, seed, horizon):
        time_limit = int(task.split(":")[1])
        return vector.LoopedBatch(
            [lambda i=i: DoubleIntegrator(seed * 100 + i, time_limit) for i in range(num_envs)]
        )

    monkeypatch.setattr(benchmark, "_load_batch", load_batch)


def _grid(out, **kwargs):
    settings = {
        "suite_name": "suite",
        "algorithms": "reinforce,cem",
        "tasks": "integrator:8,integrator:12",
        "seeds": 2,
        "iterations": 1,
        "out": str(out),
        "steps_per_iteration": 20,
        "horizon": 10,
        "num_envs": 2,
    }
    settings.update(kwargs)
    return benchmark.benchmark(**settings)


def test_tiny_grid_end_to_end_and_resume(tmp_path, integrator_tasks):
    table = _grid(tmp_path)
    assert set(table) == {
        (task, algorithm)
        for task in ("integrator:8", "integrator:12")
        for algorithm in ("reinforce", "cem")
    }
    # The table is the mean over seeds of each cell's mean trajectory return.
    cell = tmp_path / "cells" / "integrator-8" / "reinforce"
    per_seed = []
    for seed in range(2):
        with open(cell / f"seed_{seed}" / "progress.csv", encoding="utf-8") as file:
            rows = list(csv.DictReader(file))
        assert len(rows) == 1 and int(rows[0]["env_steps"]) >= 20
        per_seed.append(float(rows[0]["average_return"]))
    mean, std, seeds = table[("integrator:8", "reinforce")]
    np.testing.assert_allclose([mean, std], [np.mean(per_seed), np.std(per_seed)], rtol=1e-6)
    assert seeds == 2
    markdown = (tmp_path / "table.md").read_text(encoding="utf-8")
    assert markdown.splitlines()[0] == "| Task | REINFORCE | CEM |"
    assert f"{mean:.1f} ± {std:.1f}" in markdown
    assert (tmp_path / "table.csv").exists()
    assert (tmp_path / "curves" / "integrator-12.png").stat().st_size > 0
    # A rerun skips the finished cells.
    progress = cell / "seed_0" / "progress.csv"
    stamp = os.stat(progress).st_mtime_ns
    assert _grid(tmp_path) == table
    assert os.stat(progress).st_mtime_ns == stamp
    # Other settings in the same directory are refused, not mixed in.
    with pytest.raises(ValueError, match="finished with settings"):
        _grid(tmp_path, iterations=2)


def test_last_iteration_table_reads_each_cells_final_row(tmp_path, integrator_tasks):
    table = _grid(tmp_path, algorithms="reinforce", tasks="integrator:8", iterations=3)
    last, paper = [], []
    for seed in range(2):
        progress = tmp_path / "cells" / "integrator-8" / "reinforce" / f"seed_{seed}"
        with open(progress / "progress.csv", encoding="utf-8") as file:
            rows = list(csv.DictReader(file))
        assert len(rows) == 3
        last.append(float(rows[-1]["average_return"]))
        counts = np.array([float(row["num_trajectories"]) for row in rows])
        returns = np.array([float(row["average_return"]) for row in rows])
        paper.append(np.sum(returns * counts) / np.sum(counts))
    np.testing.assert_allclose(
        table[("integrator:8", "reinforce")][:2], [np.mean(paper), np.std(paper)], rtol=1e-6
    )
    with open(tmp_path / "table_last_iteration.csv", encoding="utf-8") as file:
        (row,) = list(csv.DictReader(file))
    assert (row["task"], row["algorithm"], row["seeds"]) == ("integrator:8", "reinforce", "2")
    np.testing.assert_allclose(
        [float(row["mean"]), float(row["std"])], [np.mean(last), np.std(last)], rtol=1e-6
    )
    markdown = (tmp_path / "table_last_iteration.md").read_text(encoding="utf-8")
    assert f"{np.mean(last):.1f} ± {np.std(last):.1f}" in markdown


def test_unfinished_cell_is_rerun(tmp_path, integrator_tasks):
    _grid(tmp_path, algorithms="cem", tasks="integrator:8", seeds=1)
    done = tmp_path / "cells" / "integrator-8" / "cem" / "seed_0" / "done.json"
    done.unlink()
    table = _grid(tmp_path, algorithms="cem", tasks="integrator:8", seeds=1)
    assert done.exists() and ("integrator:8", "cem") in table


def test_names_and_overrides_are_checked():
    assert benchmark.resolve_algorithms("all") == benchmark.ALGORITHMS
    with pytest.raises(ValueError, match="unknown algorithms"):
        benchmark.resolve_algorithms("trpo,ppo")
    with pytest.raises(ValueError, match="domain:task"):
        benchmark.resolve_tasks("suite", "cartpole")
    with pytest.raises(ValueError, match="suite"):
        benchmark.resolve_tasks("gym", "basic")
    assert benchmark.parse_overrides(["trpo.step_size=0.01"]) == {"trpo": {"step_size": 0.01}}
    with pytest.raises(ValueError, match="no field"):
        benchmark.parse_overrides(["trpo.learning_rate=0.01"])
    with pytest.raises(ValueError, match="algorithm.field=value"):
        benchmark.parse_overrides(["step_size=0.01"])
    with pytest.raises(ValueError, match="literal"):
        benchmark.parse_overrides(["trpo.step_size=fast"])
    # Presets by task name, then overrides.
    assert benchmark.make_config("trpo", "double_pendulum_balancing", {}).step_size == 1e-3
    assert (
        benchmark.make_config("trpo", "double_pendulum_balancing", {"step_size": 0.2}).step_size
        == 0.2
    )


@pytest.mark.slow
def test_control_suite_grid_in_worker_processes(tmp_path):
    pytest.importorskip("suites.suite")
    table = benchmark.benchmark(
        "suite",
        "trpo,cmaes",
        "cartpole:balance",
        seeds=2,
        iterations=2,
        out=str(tmp_path),
        steps_per_iteration=200,
        horizon=50,
        num_envs=4,
        workers=2,
    )
    assert len(table) == 2 and all(seeds == 2 for _, _, seeds in table.values())


@pytest.mark.slow
def test_grid_on_ray(tmp_path):
    ray = pytest.importorskip("ray")
    pytest.importorskip("suites.suite")
    ray.init(num_cpus=2, include_dashboard=False)
    try:
        table = benchmark.benchmark(
            "suite",
            "cem",
            "cartpole:balance",
            seeds=2,
            iterations=1,
            out=str(tmp_path),
            steps_per_iteration=100,
            horizon=50,
            num_envs=2,
            ray_address="auto",
        )
    finally:
        ray.shutdown()
    assert table[("cartpole:balance", "cem")][2] == 2
