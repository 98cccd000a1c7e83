"""benchmarks/time_to_solve.py's bookkeeping, and the slow check that PPO's swing-up
preset learns cartpole swing-up."""

import importlib.util
import os

import pytest

from agents import environments, experiment, presets

_SCRIPT = os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks", "time_to_solve.py")
_spec = importlib.util.spec_from_file_location("time_to_solve", _SCRIPT)
time_to_solve = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(time_to_solve)


def test_first_crossing_is_the_first_row_at_or_above_the_threshold():
    rows = [
        {"step": "0", "wall_time_s": "0.0", "eval_return": "10"},
        {"step": "100", "wall_time_s": "5.0", "eval_return": ""},
        {"step": "200", "wall_time_s": "9.5", "eval_return": "800"},
        {"step": "300", "wall_time_s": "14.0", "eval_return": "900"},
    ]
    assert time_to_solve.first_crossing(rows, 800.0) == time_to_solve.Crossing(200, 9.5, 800.0)
    assert time_to_solve.first_crossing(rows, 950.0) is None


def _row(seed, solved, wall_s="", steps=""):
    return {
        "task": "cartpole:swingup",
        "agent": "ppo",
        "seed": str(seed),
        "threshold": "800.0",
        "threshold_source": "issue 19",
        "solved": str(solved),
        "wall_s_to_threshold": wall_s,
        "steps_to_threshold": steps,
        "best_return": "850.0",
        "budget_minutes": "10",
    }


def test_summary_takes_median_and_range_over_the_seeds_that_solved():
    results = [
        _row(0, True, "600", "500000"),
        _row(1, True, "120", "100000"),
        _row(2, True, "300", "200000"),
        _row(3, False),
    ]
    (summary,) = time_to_solve.summarize(results)
    assert summary["solved"] == "3/4"
    assert (summary["median_minutes"], summary["min_minutes"], summary["max_minutes"]) == (
        5.0,
        2.0,
        10.0,
    )
    assert (summary["median_steps"], summary["min_steps"], summary["max_steps"]) == (
        200000,
        100000,
        500000,
    )
    table = time_to_solve.markdown_table([summary])
    assert "| cartpole:swingup | ppo | 800 (issue 19) | 3/4 | 5.0 [2.0, 10.0] |" in table
    (unsolved,) = time_to_solve.summarize([_row(0, False)])
    assert "not reached" in time_to_solve.markdown_table([unsolved])


def test_results_append_and_read_back(tmp_path):
    path = str(tmp_path / "results.csv")
    row = {column: "" for column in time_to_solve.RESULT_COLUMNS}
    row.update(task="cartpole:swingup", agent="ppo", seed=0)
    time_to_solve.append_result(path, row)
    time_to_solve.append_result(path, {**row, "seed": 1})
    assert [r["seed"] for r in time_to_solve.read_results(path)] == ["0", "1"]


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--tasks", "cartpole:spin"], "unknown"),
        (["--agents", "sac"], "unknown"),
        (["--budget_minutes", "0"], "expected > 0"),
        (["--samples_per_insert", "-1"], "expected > 0"),
    ],
)
def test_bad_selections_are_refused(argv, message, tmp_path):
    with pytest.raises(ValueError, match=message):
        time_to_solve.main([*argv, "--out", str(tmp_path)])


def test_every_threshold_task_has_a_ppo_preset():
    assert sorted(time_to_solve.THRESHOLDS) == sorted(presets.EASY_TASKS)


# Budget: 32 PPO updates (983,040 environment steps, one published Brax update). On the 2-core development
# machine, shared at load average 12-15, the swing-up preset's seed-0 run first
# passed 800 after 552,960 steps and 486 s of training (benchmarks/RESULTS.md).
SWINGUP_BUDGET_STEPS = 32 * presets.PPO_ROLLOUT_STEPS
SWINGUP_PASS_RETURN = 600.0


@pytest.mark.slow
def test_ppo_swingup_preset_passes_600_on_cartpole_swingup(tmp_path):
    # Trained two evaluations at a time, resuming exactly, and stopped once passed.
    preset = presets.get("ppo", "cartpole_swingup")
    eval_every = 2 * presets.PPO_ROLLOUT_STEPS
    returns = []
    for steps in range(2 * eval_every, SWINGUP_BUDGET_STEPS + 1, 2 * eval_every):
        result = experiment.train(
            "ppo",
            environments.factory("cartpole:swingup"),
            steps,
            0,
            str(tmp_path),
            env_name="cartpole:swingup",
            num_envs=preset.num_envs,
            config_overrides=preset.overrides,
            eval_every=eval_every,
            eval_episodes=5,
            resume=bool(returns),
            progress=False,
            make_batch=environments.batch_factory("cartpole:swingup"),
        )
        returns = [
            float(row["eval_return"])
            for row in experiment.csv_log.read_rows(result.metrics_path)
            if row["eval_return"]
        ]
        if max(returns) >= SWINGUP_PASS_RETURN:
            break
    assert max(returns) >= SWINGUP_PASS_RETURN, returns


def test_a_cell_with_a_pickle_checkpoint_is_refused_not_started_over(tmp_path):
    # A run directory of an earlier version: its pickle is neither loaded nor
    # overwritten (issue 29).
    from agents import checkpoint, csv_log

    out_dir = time_to_solve.run_directory(str(tmp_path), "ppo", "cartpole:swingup", 0)
    os.makedirs(out_dir)
    legacy = os.path.join(out_dir, experiment.LEGACY_CHECKPOINT_FILE)
    with open(legacy, "wb") as file:
        file.write(b"\x80\x05not loaded")
    log = csv_log.CsvLog(os.path.join(out_dir, experiment.METRICS_FILE), experiment.BASE_COLUMNS)
    log.write({"step": 0, "wall_time_s": 1.0, "eval_return": 1.0})
    log.close()
    with pytest.raises(checkpoint.LegacyCheckpointError, match="agents.checkpoint convert"):
        time_to_solve.run_cell(str(tmp_path), "cartpole:swingup", "ppo", 0, 10.0, None)
    with open(legacy, "rb") as file:
        assert file.read() == b"\x80\x05not loaded"


class _Stop(Exception):
    pass


def test_a_warp_cell_trains_on_the_warp_batch_and_ppo_on_the_device(tmp_path, monkeypatch):
    made, trained = [], []
    monkeypatch.setattr(
        time_to_solve.environments,
        "batch_factory",
        lambda *args, **kwargs: made.append((args, kwargs)) or "batch",
    )

    def train(*args, **kwargs):
        trained.append(kwargs)
        raise _Stop

    monkeypatch.setattr(time_to_solve.experiment, "train", train)
    with pytest.raises(_Stop):
        time_to_solve.run_cell(
            str(tmp_path), "cartpole:swingup", "ppo", 0, 1.0, None, "warp", "cpu"
        )
    assert made == [(("cartpole:swingup", "warp", "cpu"), {"jax_timesteps": True})]
    assert trained[0]["make_batch"] == "batch" and trained[0]["on_device"] is True
    with pytest.raises(_Stop):
        time_to_solve.run_cell(str(tmp_path), "cartpole:swingup", "ppo", 1, 1.0, None)
    assert made[-1] == (("cartpole:swingup", "cpu", None), {"jax_timesteps": False})
    assert trained[-1]["on_device"] is False


def test_an_out_directory_keeps_one_backend(tmp_path):
    (tmp_path / "runs").mkdir()
    out = str(tmp_path / "runs")
    time_to_solve.check_backend(out, "warp", "cpu")  # the first run records it
    time_to_solve.check_backend(out, "warp", "cpu")
    with pytest.raises(ValueError, match="holds runs on backend 'warp'"):
        time_to_solve.check_backend(out, "cpu", None)
    with pytest.raises(ValueError, match="applies to --backend warp only"):
        time_to_solve.main(["--device", "cuda:0", "--out", str(tmp_path / "other")])
