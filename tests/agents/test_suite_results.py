"""benchmarks/suite_results.py (the learned-benchmark driver) at tiny budgets, and
benchmarks/published_references.py's table."""

import importlib.util
import json
import os
import sys

import pytest

from agents import experiment

_BENCHMARKS = os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks")


def _load(name):
    spec = importlib.util.spec_from_file_location(name, os.path.join(_BENCHMARKS, f"{name}.py"))
    assert spec is not None and spec.loader is not None, name
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


suite_results = _load("suite_results")
published_references = sys.modules["published_references"]

# A PPO small enough that a cell of a few hundred cartpole steps takes seconds.
TINY_PPO = suite_results.AgentSetup(
    preset="tiny",
    overrides={
        "rollout_steps": 128,
        "num_minibatches": 2,
        "update_epochs": 1,
        "hidden_sizes": (8,),
    },
    num_envs=2,
    eval_every=128,
)


def _settings(out, **changes):
    values = {
        "tasks": ("cartpole:balance",),
        "agents": ("ppo",),
        "seeds": (0,),
        "max_steps": 256,
        "max_minutes": 5.0,
        "out": str(out),
        "eval_episodes": 1,
        "setups": {"ppo": TINY_PPO},
    }
    values.update(changes)
    return suite_results.Settings(**values)


def test_the_references_cover_the_suites_28_benchmarking_tasks():
    from suites import suite

    expected = tuple(f"{domain}:{task}" for domain, task in suite.BENCHMARKING)
    assert published_references.BENCHMARKING_TASKS == expected
    assert len(expected) == 28
    for task in expected:
        sources = {(ref.source, ref.agent) for ref in published_references.for_task(task)}
        assert len(sources) == 5, task


def test_playground_registers_25_of_the_tasks_with_their_budgets():
    entries = [published_references.playground_ppo(task) for task in suite_results.TASKS]
    registered = [ref for ref in entries if ref.status != published_references.NOT_REGISTERED]
    assert len(registered) == 25
    assert published_references.playground_ppo("walker:run").budget_steps == 100_000_000
    assert published_references.playground_ppo("cheetah:run").budget_steps == 60_000_000


def test_a_reference_without_a_value_must_say_why():
    with pytest.raises(ValueError, match="status"):
        published_references.Reference(
            "cheetah:run", "x", "PPO", None, published_references.STATED, "-", None, "-"
        )
    with pytest.raises(ValueError, match="status"):
        published_references.Reference(
            "cheetah:run", "x", "PPO", 500.0, published_references.NOT_FOUND, "-", None, "-"
        )
    with pytest.raises(ValueError, match="not a benchmarking task"):
        published_references.for_task("cartpole:three_poles")


def test_every_task_has_a_ppo_setup_with_playground_settings():
    for task in suite_results.TASKS:
        setup = suite_results.agent_setup("ppo", task)
        assert setup.overrides["rollout_steps"] % setup.num_envs == 0
    assert suite_results.agent_setup("ppo", "ball_in_cup:catch").overrides["discount"] == 0.95
    assert suite_results.agent_setup("ppo", "humanoid:run").overrides["discount"] == 0.995
    assert suite_results.agent_setup("d4pg", "humanoid:run").num_envs == 8


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"tasks": ("cartpole:spin",)}, "unknown"),
        ({"agents": ("sac",)}, "unknown"),
        ({"seeds": ()}, "empty"),
        ({"max_steps": 0}, "max_steps"),
        ({"max_minutes": 0.0}, "max_minutes"),
    ],
)
def test_bad_selections_are_refused(changes, message, tmp_path):
    with pytest.raises(ValueError, match=message):
        _settings(tmp_path, **changes)


def test_dry_run_lists_the_cells_and_the_arithmetic_of_their_cost(tmp_path):
    settings = _settings(
        tmp_path, tasks=("cartpole:balance", "cheetah:run"), seeds=(0, 1, 2), max_minutes=10.0
    )
    text = suite_results.dry_run(settings)
    assert text.count(": new;") == 6
    assert "2 tasks x 1 agents x 3 seeds = 6; 0 finished, 6 to run" in text
    assert "6 x 10 min = 1.00 h" in text
    assert "K = 4: 0.33 h" in text
    finished = suite_results.cell_directory(str(tmp_path), "ppo", "cheetah:run", 1)
    os.makedirs(finished)
    with open(os.path.join(finished, suite_results.CELL_FILE), "w") as file:
        file.write("{}")
    text = suite_results.dry_run(settings)
    assert "1 finished, 5 to run" in text
    assert "5 x 10 min = 0.83 h" in text


def test_a_cell_runs_to_its_budget_writes_the_table_and_is_never_rerun(tmp_path, monkeypatch):
    settings = _settings(tmp_path)
    table = suite_results.run(settings)
    (cell,) = suite_results.read_cells(settings)
    assert cell["stopped_by"] == "max_steps"
    assert [point[0] for point in cell["curve"]] == [0, 128, 256]
    assert cell["final_step"] == 256 and cell["cpus"] == os.cpu_count()
    assert len(cell["load_start"]) == 3
    assert cell["best_return"] == max(point[2] for point in cell["curve"])
    levels = cell["reference_levels"]
    # cartpole balance has the project's time-to-solve threshold (900) and 500.
    assert levels["time-to-solve threshold (ours)"]["level"] == 900.0
    reached = levels["half of the maximum return"]
    first = next((p for p in cell["curve"] if p[2] >= 500.0), None)
    assert reached["steps"] == (first[0] if first else None)
    assert "| cartpole:balance | ppo | 1/1 | 256 |" in table
    assert "not found" in table  # playground PPO: no per-task number could be read
    for name in (suite_results.TABLE_MARKDOWN, suite_results.TABLE_JSON, suite_results.FIGURE):
        assert os.path.getsize(os.path.join(str(tmp_path), name)) > 0
    with open(os.path.join(str(tmp_path), suite_results.TABLE_JSON)) as file:
        written = json.load(file)
    assert written["rows"][0]["final_return_mean"] == pytest.approx(cell["final_return"], abs=0.05)

    def must_not_train(*args, **kwargs):
        raise AssertionError("a finished cell was trained again")

    monkeypatch.setattr(experiment, "train", must_not_train)
    assert suite_results.run(settings) == table
    assert suite_results.cell_status(settings, "ppo", "cartpole:balance", 0) == "finished"


def test_an_interrupted_cell_resumes_from_its_checkpoint(tmp_path, monkeypatch):
    settings = _settings(tmp_path)
    suite_results.run_cell(settings, "ppo", "cartpole:balance", 0)
    out_dir = suite_results.cell_directory(str(tmp_path), "ppo", "cartpole:balance", 0)
    before = experiment.csv_log.read_rows(os.path.join(out_dir, experiment.METRICS_FILE))
    # As if killed before the cell finished: the checkpoint is there, cell.json is not.
    os.remove(os.path.join(out_dir, suite_results.CELL_FILE))
    assert suite_results.cell_status(settings, "ppo", "cartpole:balance", 0) == (
        "resumable at step 256"
    )
    calls = []
    train = experiment.train

    def recording_train(*args, **kwargs):
        calls.append((args[2], kwargs["resume"]))
        return train(*args, **kwargs)

    monkeypatch.setattr(experiment, "train", recording_train)
    longer = _settings(tmp_path, max_steps=384)
    cell = suite_results.run_cell(longer, "ppo", "cartpole:balance", 0)
    assert calls == [(384, True)]
    assert [point[0] for point in cell["curve"]] == [0, 128, 256, 384]
    assert [round(float(row["eval_return"]), 2) for row in before] == [
        point[2] for point in cell["curve"][:3]
    ]


def test_a_cell_without_a_checkpoint_starts_over(tmp_path, monkeypatch):
    out_dir = suite_results.cell_directory(str(tmp_path), "ppo", "cartpole:balance", 0)
    os.makedirs(out_dir)
    with open(os.path.join(out_dir, experiment.METRICS_FILE), "w") as file:
        file.write("step,wall_time_s,eval_return\n0,0.0,1.0\n")
    settings = _settings(tmp_path)
    assert suite_results.cell_status(settings, "ppo", "cartpole:balance", 0) == "new"
    calls = []
    train = experiment.train

    def recording_train(*args, **kwargs):
        calls.append((kwargs["resume"], kwargs["overwrite"]))
        return train(*args, **kwargs)

    monkeypatch.setattr(experiment, "train", recording_train)
    suite_results.run_cell(_settings(tmp_path, max_steps=128), "ppo", "cartpole:balance", 0)
    assert calls == [(False, True)]


def test_the_command_line_dry_run_trains_nothing(tmp_path):
    import subprocess

    completed = subprocess.run(
        [
            sys.executable,
            os.path.join(_BENCHMARKS, "suite_results.py"),
            "--dry_run",
            "--tasks",
            "cartpole:balance,walker:run",
            "--agents",
            "ppo,d4pg",
            "--seeds",
            "0,1",
            "--max_minutes",
            "3",
            "--out",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    assert "2 tasks x 2 agents x 2 seeds = 8; 0 finished, 8 to run" in completed.stdout
    assert "8 x 3 min = 0.40 h" in completed.stdout
    assert not os.path.exists(os.path.join(str(tmp_path), "runs"))
