"""Experiment tracking (agents/tracking.py) and agents.train's newcomer defaults:
TensorBoard events beside metrics.csv, W&B offline, evaluation videos, a dated run
directory without --out, and --preset task's step budget."""

import datetime
import os
import subprocess
import sys

import numpy as np
import pytest

from agents import csv_log, experiment, presets, tracking, train

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TINY = dict(
    actor_hidden_sizes=(16,),
    critic_hidden_sizes=(16,),
    batch_size=16,
    min_replay_size=32,
    replay_capacity=1000,
)


def make_short_cartpole_balance(seed):
    # Ten control steps an episode: a video's frames are rendered in software here.
    from suites import suite

    return suite.load("cartpole", "balance", task_kwargs={"random": seed, "time_limit": 0.1})


def _read_events(run_dir):
    # tensorboardX's own reader is not public; parse the records it wrote.
    from tensorboardX.proto import event_pb2

    values = {}
    for name in sorted(os.listdir(run_dir)):
        if not name.startswith("events.out.tfevents"):
            continue
        data = open(os.path.join(run_dir, name), "rb").read()
        offset = 0
        while offset < len(data):
            length = int.from_bytes(data[offset : offset + 8], "little")
            record = data[offset + 12 : offset + 12 + length]
            offset += 12 + length + 4
            event = event_pb2.Event()
            event.ParseFromString(record)
            for value in event.summary.value:
                values.setdefault(value.tag, []).append((event.step, value.simple_value))
    return values


def test_train_writes_tensorboard_events_beside_metrics(tmp_path, double_integrator):
    result = experiment.train(
        "d4pg",
        double_integrator,
        100,
        seed=0,
        out_dir=str(tmp_path),
        config_overrides=TINY,
        eval_every=50,
        eval_episodes=1,
        progress=False,
        tracking_settings=tracking.Settings(tensorboard=True),
    )
    rows = csv_log.read_rows(result.metrics_path)
    events = _read_events(tmp_path)
    assert [step for step, _ in events["eval_return"]] == [int(row["step"]) for row in rows]
    np.testing.assert_allclose(
        [value for _, value in events["eval_return"]],
        [float(row["eval_return"]) for row in rows],
        rtol=1e-6,
    )


def test_no_tracking_writes_no_events(tmp_path, double_integrator):
    experiment.train(
        "d4pg",
        double_integrator,
        50,
        seed=0,
        out_dir=str(tmp_path),
        config_overrides=TINY,
        eval_every=50,
        eval_episodes=1,
        progress=False,
        tracking_settings=tracking.Settings(tensorboard=False),
    )
    assert not [name for name in os.listdir(tmp_path) if name.startswith("events.")]


def test_wandb_offline_run_is_written_in_the_run_directory(
    tmp_path, monkeypatch, double_integrator
):
    pytest.importorskip("wandb")
    monkeypatch.setenv("WANDB_MODE", "offline")
    monkeypatch.setenv("WANDB_SILENT", "true")
    experiment.train(
        "d4pg",
        double_integrator,
        50,
        seed=0,
        out_dir=str(tmp_path),
        config_overrides=TINY,
        eval_every=50,
        eval_episodes=1,
        progress=False,
        tracking_settings=tracking.Settings(tensorboard=False, wandb_project="composer-tests"),
    )
    runs = [name for name in os.listdir(tmp_path / "wandb") if name.startswith("offline-run-")]
    assert len(runs) == 1
    (history,) = [
        name for name in os.listdir(tmp_path / "wandb" / runs[0]) if name.endswith(".wandb")
    ]
    assert os.path.getsize(tmp_path / "wandb" / runs[0] / history) > 0


def test_evaluation_videos_at_the_chosen_interval(tmp_path):
    pytest.importorskip("suites.suite")
    experiment.train(
        "d4pg",
        make_short_cartpole_balance,
        200,
        seed=0,
        out_dir=str(tmp_path),
        config_overrides=TINY,
        eval_every=50,
        eval_episodes=1,
        progress=False,
        tracking_settings=tracking.Settings(tensorboard=False, video_every=100),
    )
    videos = sorted(os.listdir(tmp_path / tracking.VIDEO_DIR))
    assert videos == ["step_0.mp4", "step_100.mp4", "step_200.mp4"]
    assert all(os.path.getsize(tmp_path / tracking.VIDEO_DIR / name) > 0 for name in videos)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(video_every=0), "video_every = 0"),
        (dict(video_every=1.5), "video_every = 1.5"),
        (dict(wandb_project=" "), "is empty"),
    ],
)
def test_bad_settings_are_refused(kwargs, message):
    with pytest.raises(ValueError, match=message):
        tracking.Settings(tensorboard=False, **kwargs)


def test_missing_packages_are_named(monkeypatch):
    monkeypatch.setattr(tracking, "tensorboard_available", lambda: False)
    with pytest.raises(ValueError, match="pip install tensorboardX"):
        tracking.Settings(tensorboard=True)
    real_find_spec = tracking.importlib.util.find_spec
    monkeypatch.setattr(
        tracking.importlib.util,
        "find_spec",
        lambda name: None if name == "wandb" else real_find_spec(name),
    )
    with pytest.raises(ValueError, match="pip install wandb"):
        tracking.Settings(tensorboard=False, wandb_project="p")


def test_single_env_policy_adds_and_removes_the_copy_axis():
    seen = []

    def batched(observation):
        seen.append(observation)
        return np.ones((1, 2))

    class Step:
        observation = {"x": np.zeros(3)}

    action = tracking.single_env_policy(batched)(Step())
    assert action.shape == (2,) and seen[0]["x"].shape == (1, 3)


def test_default_out_dir_is_fresh_and_dated(tmp_path):
    now = datetime.datetime(2026, 11, 27, 17, 5, 9)
    first = train.default_out_dir("ppo", "cartpole:swingup", now, root=str(tmp_path))
    assert first == str(tmp_path / "ppo_cartpole_swingup_20261127-170509")
    os.makedirs(first)
    second = train.default_out_dir("ppo", "cartpole:swingup", now, root=str(tmp_path))
    assert second == first + "-2"


def test_preset_task_trains_for_the_steps_its_threshold_needed():
    steps, line = train.preset_steps("ppo", "task", "cartpole:swingup", 100_000, False)
    assert steps == presets.PPO_TIME_TO_SOLVE["cartpole:swingup"][2] == 798_720
    assert "cartpole:swingup needed to reach 800" in line
    # --steps given wins; a preset without a budget keeps --steps.
    assert train.preset_steps("ppo", "task", "cartpole:swingup", 5_000, True) == (5_000, None)
    assert train.preset_steps("d4pg", "batched", "cartpole:swingup", 7, False) == (7, None)
    with pytest.raises(ValueError, match="no ppo preset"):
        train.preset_steps("ppo", "task", "humanoid:run", 7, False)


def test_every_task_preset_says_what_its_threshold_needs():
    for preset in presets.PRESETS["ppo"].values():
        assert preset.threshold is not None and preset.budget_steps > 0
        assert preset.task in preset.describe_budget()


def test_train_without_out_writes_a_dated_run_and_prints_it(tmp_path):
    environment = dict(os.environ, PYTHONPATH=ROOT)
    completed = subprocess.run(
        [
            sys.executable,
            "-m",
            "agents.train",
            "--agent",
            "d4pg",
            "--env",
            "cartpole:balance",
            "--steps",
            "20",
            "--eval-every",
            "20",
            "--eval-episodes",
            "1",
            "--noprogress",
            "--set",
            "min_replay_size=16",
            "--set",
            "batch_size=8",
        ],
        cwd=tmp_path,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert completed.returncode == 0, completed.stderr[-3000:]
    first_line = completed.stdout.splitlines()[0]
    assert first_line.startswith("Writing the run to runs/d4pg_cartpole_balance_")
    run_dir = tmp_path / first_line.removeprefix("Writing the run to ")
    assert (run_dir / "metrics.csv").exists()
    assert [name for name in os.listdir(run_dir) if name.startswith("events.out.tfevents")]


def test_resume_without_out_is_refused(tmp_path):
    completed = subprocess.run(
        [sys.executable, "-m", "agents.train", "--resume"],
        cwd=tmp_path,
        env=dict(os.environ, PYTHONPATH=ROOT),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert completed.returncode != 0 and "give --out" in completed.stderr


def test_rllab_grid_cell_writes_tensorboard_events(tmp_path):
    from agents import benchmark

    cell = benchmark.Cell(
        suite="suite",
        task="cartpole:balance",
        algorithm="cem",
        seed=0,
        iterations=2,
        steps_per_iteration=100,
        horizon=50,
        num_envs=2,
        overrides=(),
        out=str(tmp_path),
    )
    directory = benchmark.run_cell(cell)
    events = _read_events(directory)
    assert [step for step, _ in events["average_return"]] == [0, 1]
    rows = csv_log.read_rows(os.path.join(directory, "progress.csv"))
    np.testing.assert_allclose(
        [value for _, value in events["average_return"]],
        [float(row["average_return"]) for row in rows],
        rtol=1e-6,
    )
