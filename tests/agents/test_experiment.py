"""Runs in a directory: configuration overrides, resume edge cases, evaluation, the CLI."""

import logging
import os
import subprocess
import sys
import threading

import numpy as np
import pytest

from agents import checkpoint, csv_log, environments, experiment, ppo, train

# The same tiny D4PG as the D4PG smoke tests, so nothing new compiles.
TINY = dict(
    actor_hidden_sizes=(32, 32),
    critic_hidden_sizes=(32, 32),
    batch_size=32,
    min_replay_size=64,
    replay_capacity=5000,
    target_update_period=10,
)


def test_make_config_parses_command_line_values():
    config = experiment.make_config(
        "d4pg",
        {
            "critic_hidden_sizes": "(64, 64)",
            "prioritized_replay": "True",
            "v_max": "100",
            "target_update": "soft",
            "batch_size": 128,
        },
    )
    assert config.critic_hidden_sizes == (64, 64) and config.prioritized_replay is True
    assert config.v_max == 100.0 and config.target_update == "soft" and config.batch_size == 128
    assert isinstance(experiment.make_config("ppo"), ppo.Config)
    with pytest.raises(ValueError, match="no setting 'atoms'"):
        experiment.make_config("d4pg", {"atoms": "51"})
    with pytest.raises(TypeError, match="expected int"):
        experiment.make_config("d4pg", {"batch_size": "2.5"})
    with pytest.raises(TypeError, match="True or False"):
        experiment.make_config("d4pg", {"prioritized_replay": "1"})
    with pytest.raises(ValueError, match="unknown"):
        experiment.make_config("sac")


def test_cli_helpers_check_their_input():
    assert train.parse_overrides(["a=1", " b = (1, 2) "]) == {"a": "1", "b": "(1, 2)"}
    with pytest.raises(ValueError, match="name=value"):
        train.parse_overrides(["no_equals_sign"])
    assert environments.parse("cartpole:swingup") == ("cartpole", "swingup")
    assert environments.parse("walker_parkour_hurdles") == ("walker_parkour_hurdles", None)
    for bad in (":swingup", "a:b:c"):
        with pytest.raises(ValueError, match="domain:task"):
            environments.parse(bad)
    with pytest.raises(ValueError, match="empty"):
        environments.parse("")
    with pytest.raises(ValueError, match="cmu_humanoid_run_walls"):
        environments.load("cartpole", seed=0)  # Not a locomotion name: the valid ones are listed.


def test_locomotion_names_load_single_and_batched():
    single = environments.load("walker_parkour_hurdles", seed=0)
    batched = environments.load("walker_parkour_hurdles", seed=0, num_envs=2)
    assert batched.num_envs == 2
    assert batched.action_spec() == single.action_spec()
    assert batched.reset().step_type.shape == (2,)


def test_derived_seeds_are_stable_and_distinct():
    assert experiment.derived_seed(0, 1, 2) == experiment.derived_seed(0, 1, 2)
    seeds = {
        experiment.derived_seed(seed, stream, index)
        for seed in range(3)
        for stream in range(3)
        for index in range(3)
    }
    assert len(seeds) == 27


def test_checkpoint_evaluates_and_refuses_mismatched_resumes(double_integrator, tmp_path):
    make_env = lambda seed: double_integrator(seed)
    result = experiment.train(
        "d4pg",
        make_env,
        100,
        seed=1,
        out_dir=str(tmp_path),
        config_overrides=TINY,
        eval_every=100,
        eval_episodes=2,
        progress=False,
    )
    returns = experiment.evaluate_checkpoint(result.checkpoint_path, 3, make_env=make_env)
    assert returns.shape == (3,) and np.all(np.isfinite(returns))
    with pytest.raises(ValueError, match="records no environment name"):
        experiment.evaluate_checkpoint(result.checkpoint_path, 1)
    payload = checkpoint.load(result.checkpoint_path)
    assert payload["agent_name"] == "d4pg" and payload["observation_keys"] == (
        "position",
        "velocity",
    )
    with pytest.raises(ValueError, match="seed"):
        experiment.train(
            "d4pg", make_env, 200, seed=2, out_dir=str(tmp_path), resume=True, progress=False
        )
    with pytest.raises(ValueError, match="differs from the checkpoint"):
        experiment.train(
            "d4pg",
            make_env,
            200,
            seed=1,
            out_dir=str(tmp_path),
            resume=True,
            config_overrides={**TINY, "sigma": 0.1},
            progress=False,
        )


def test_resume_without_a_recordable_environment_starts_new_episodes(
    double_integrator, tmp_path, caplog
):
    # Checkpoints hold data, never pickled objects: an environment with no snapshot()
    # and an attribute that is not data (here a lock) cannot be recorded.
    class Unrecordable(double_integrator):
        def __init__(self, seed):
            super().__init__(seed)
            self._lock = threading.Lock()

    make_env = lambda seed: Unrecordable(seed)
    settings = dict(seed=0, config_overrides=TINY, eval_every=100, eval_episodes=1, progress=False)
    with caplog.at_level(logging.WARNING):
        experiment.train("d4pg", make_env, 100, out_dir=str(tmp_path), **settings)
    assert "Unrecordable._lock is a lock" in caplog.text
    saved = checkpoint.load(os.path.join(tmp_path, experiment.CHECKPOINT_FILE))
    assert saved["env_snapshot"] is None and "env" not in saved
    result = experiment.train("d4pg", make_env, 200, out_dir=str(tmp_path), resume=True, **settings)
    assert result.env_steps == 200
    assert "new environments" in caplog.text
    steps = [int(row["step"]) for row in csv_log.read_rows(result.metrics_path)]
    assert steps == [0, 100, 200]


def test_command_line_trains_and_evaluates(tmp_path):
    pytest.importorskip("suites.suite")
    out = str(tmp_path / "run")
    overrides = [f"--set={name}={value!r}" for name, value in TINY.items()]

    subprocess.run(
        [
            sys.executable,
            "-m",
            "agents.train",
            "--agent",
            "d4pg",
            "--env",
            "cartpole:balance",
            "--steps",
            "300",
            "--seed",
            "0",
            "--out",
            out,
            "--num-envs",
            "2",
            "--eval-every",
            "150",
            "--eval-episodes",
            "1",
            "--noprogress",
            *overrides,
        ],
        check=True,
        capture_output=True,
        text=True,
    )
    rows = csv_log.read_rows(os.path.join(out, experiment.METRICS_FILE))
    assert [int(row["step"]) for row in rows] == [0, 150, 300]
    assert {"step", "wall_time_s", "eval_return"} <= set(rows[0])
    assert os.path.getsize(os.path.join(out, experiment.PLOT_FILE)) > 0
    video_path = str(tmp_path / "episode.mp4")
    evaluated = subprocess.run(
        [
            sys.executable,
            "-m",
            "agents.evaluate",
            "--checkpoint",
            os.path.join(out, experiment.CHECKPOINT_FILE),
            "--episodes",
            "2",
            "--video",
            video_path,
        ],
        check=True,
        capture_output=True,
        text=True,
    )
    assert "over 2 episodes" in evaluated.stdout
    import imageio.v3 as iio

    frames = iio.imread(video_path)
    assert frames.shape == (1001, 240, 320, 3)  # The reset frame and one per step.


@pytest.mark.parametrize("batched_physics", [False, True])
def test_resume_on_suite_tasks_repeats_the_uninterrupted_run(
    assert_same_run, tmp_path, batched_physics
):
    # Suite environments hold MuJoCo specs, which do not pickle; checkpoints keep
    # their snapshots instead, and a resumed run continues exactly.
    make_env = environments.factory("cartpole:balance")
    make_batch = environments.batch_factory("cartpole:balance") if batched_physics else None
    settings = dict(
        seed=3,
        num_envs=2,
        config_overrides=TINY,
        eval_every=100,
        eval_episodes=1,
        checkpoint_every=200,
        progress=False,
        make_batch=make_batch,
    )
    whole = experiment.train("d4pg", make_env, 400, out_dir=str(tmp_path / "whole"), **settings)
    experiment.train("d4pg", make_env, 200, out_dir=str(tmp_path / "split"), **settings)
    saved = checkpoint.load(os.path.join(tmp_path / "split", experiment.CHECKPOINT_FILE))
    assert "env" not in saved and saved["env_snapshot"] is not None
    resumed = experiment.train(
        "d4pg", make_env, 400, out_dir=str(tmp_path / "split"), resume=True, **settings
    )
    assert_same_run(whole, resumed)


def test_a_wall_clock_budget_stops_at_the_first_evaluation_past_it(double_integrator, tmp_path):
    make_env = lambda seed: double_integrator(seed)
    settings = dict(seed=0, config_overrides=TINY, eval_every=100, eval_episodes=1, progress=False)
    result = experiment.train(
        "d4pg", make_env, 1000, out_dir=str(tmp_path), max_wall_s=1e-9, **settings
    )
    # Step 0's evaluation comes before any training time; step 100's is past the budget.
    assert result.env_steps == 100
    steps = [int(row["step"]) for row in csv_log.read_rows(result.metrics_path)]
    assert steps == [0, 100]
    saved = checkpoint.load(result.checkpoint_path)
    assert saved["loop_state"].env_steps == 100
    # Resumed, the budget (summed over resumptions) is still spent: one more period.
    resumed = experiment.train(
        "d4pg", make_env, 1000, out_dir=str(tmp_path), resume=True, max_wall_s=1e-9, **settings
    )
    assert resumed.env_steps == 200
    for bad in (0, -1.0, "60", True):
        with pytest.raises(ValueError, match="max_wall_s"):
            experiment.train(
                "d4pg", make_env, 100, out_dir=str(tmp_path / "bad"), max_wall_s=bad, **settings
            )
