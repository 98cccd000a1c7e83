"""A run directory loses nothing by mistake: refused resumes and overwrites, checksummed
checkpoints, Ctrl-C with a checkpoint, consistent file modes (issue 14)."""

import os
import re
import signal
import stat
import subprocess
import sys
import time

import pytest

from agents import checkpoint, csv_log, experiment

# The same tiny D4PG as the other smoke tests, so nothing new compiles.
TINY = dict(
    actor_hidden_sizes=(32, 32),
    critic_hidden_sizes=(32, 32),
    batch_size=32,
    min_replay_size=64,
    replay_capacity=5000,
    target_update_period=10,
)


@pytest.fixture
def finished_run(double_integrator, tmp_path):
    """A 100-step D4PG run on the double integrator named 'integrator:a', and its settings."""
    make_env = lambda seed: double_integrator(seed)
    settings = dict(seed=1, config_overrides=TINY, eval_every=100, eval_episodes=1, progress=False)
    out_dir = str(tmp_path / "run")
    experiment.train("d4pg", make_env, 100, out_dir=out_dir, env_name="integrator:a", **settings)
    return make_env, out_dir, settings


def test_resume_into_another_configuration_names_both(finished_run):
    make_env, out_dir, settings = finished_run
    with open(os.path.join(out_dir, experiment.CONFIG_FILE)) as file:
        config_json = file.read()
    with pytest.raises(ValueError) as error:
        experiment.train(
            "d4pg", make_env, 200, out_dir=out_dir, env_name="integrator:b", resume=True, **settings
        )
    message = str(error.value)
    assert "env='integrator:b'" in message and "env='integrator:a'" in message
    with pytest.raises(ValueError) as error:
        experiment.train(
            "ppo",
            make_env,
            200,
            out_dir=out_dir,
            env_name="integrator:a",
            resume=True,
            **{**settings, "config_overrides": None},
        )
    assert "agent='ppo'" in str(error.value) and "agent='d4pg'" in str(error.value)
    # Nothing of the run was touched by the refused resumes.
    with open(os.path.join(out_dir, experiment.CONFIG_FILE)) as file:
        assert file.read() == config_json
    assert [
        row["step"] for row in csv_log.read_rows(os.path.join(out_dir, experiment.METRICS_FILE))
    ] == ["0", "100"]


def test_training_into_an_existing_run_refuses_unless_overwrite(finished_run):
    make_env, out_dir, settings = finished_run
    before = checkpoint.load(os.path.join(out_dir, experiment.CHECKPOINT_FILE))
    with pytest.raises(FileExistsError, match="already holds a run.*--overwrite"):
        experiment.train("d4pg", make_env, 50, out_dir=out_dir, env_name="integrator:a", **settings)
    kept = checkpoint.load(os.path.join(out_dir, experiment.CHECKPOINT_FILE))
    assert kept["loop_state"].env_steps == before["loop_state"].env_steps == 100
    result = experiment.train(
        "d4pg", make_env, 50, out_dir=out_dir, env_name="integrator:a", overwrite=True, **settings
    )
    assert result.env_steps == 50
    assert [row["step"] for row in csv_log.read_rows(result.metrics_path)] == ["0", "50"]


def test_run_files_share_one_mode(finished_run):
    _, out_dir, _ = finished_run
    modes = {
        name: stat.S_IMODE(os.stat(os.path.join(out_dir, name)).st_mode)
        for name in (experiment.CHECKPOINT_FILE, experiment.METRICS_FILE, experiment.CONFIG_FILE)
    }
    assert set(modes.values()) == {checkpoint.new_file_mode()}, modes


def test_every_flipped_byte_of_a_checkpoint_is_detected(tmp_path):
    path = tmp_path / "checkpoint.pkl"
    checkpoint.save(path, {"step": 7, "weights": [1.0, 2.0, 3.0], "name": "run"})
    original = path.read_bytes()
    assert checkpoint.load(path)["step"] == 7
    for index in range(len(original)):
        damaged = bytearray(original)
        damaged[index] ^= 0x01
        path.write_bytes(bytes(damaged))
        with pytest.raises(ValueError, match="checkpoint") as error:
            checkpoint.load(path)
        assert str(path) in str(error.value), (index, error.value)
    path.write_bytes(original[:-1])
    with pytest.raises(ValueError, match="corrupted"):
        checkpoint.load(path)


def test_sigint_writes_a_checkpoint_and_exits_with_one_line(tmp_path):
    pytest.importorskip("suites.suite")
    out = str(tmp_path / "run")
    overrides = [f"--set={name}={value!r}" for name, value in TINY.items()]
    command = [
        sys.executable,
        "-m",
        "agents.train",
        "--agent",
        "d4pg",
        "--env",
        "cartpole:balance",
        "--steps",
        "1000000",
        "--seed",
        "0",
        "--out",
        out,
        "--eval-every",
        "200",
        "--eval-episodes",
        "1",
        "--noprogress",
        *overrides,
    ]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    metrics = os.path.join(out, experiment.METRICS_FILE)
    deadline = time.monotonic() + 300
    # Interrupt once training is under way (the step-0 evaluation is logged).
    while time.monotonic() < deadline and process.poll() is None:
        if os.path.exists(metrics) and csv_log.read_rows(metrics):
            break
        time.sleep(0.2)
    assert process.poll() is None, process.communicate()
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=300)
    assert process.returncode == 130, (stdout, stderr)
    assert "Traceback" not in stderr and "KeyboardInterrupt" not in stderr, stderr
    # Besides absl's start-up log lines (prefixed I or W and a date), one line.
    lines = [
        line for line in stderr.splitlines() if line.strip() and not re.match(r"[IWE]\d{4} ", line)
    ]
    assert len(lines) == 1 and lines[0].startswith("Interrupted: interrupted at step"), stderr
    saved = checkpoint.load(os.path.join(out, experiment.CHECKPOINT_FILE))
    steps = saved["loop_state"].env_steps
    assert f"step {steps};" in lines[0] and steps < 1_000_000
