"""agents.train --backend/--device: the copies' physics on MuJoCo Warp, and the refusals."""

import os
import subprocess
import sys

import numpy as np
import pytest

from agents import environments

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _train(*arguments, timeout=300):
    return subprocess.run(
        [sys.executable, "-m", "agents.train", "--noprogress", *arguments],
        cwd=ROOT,
        env=dict(os.environ, PYTHONPATH=ROOT),
        capture_output=True,
        text=True,
        timeout=timeout,
    )


@pytest.mark.parametrize(
    "arguments, message",
    [
        (["--agent", "ppo", "--backend", "warp"], "give --num-envs > 1"),
        (
            ["--agent", "ppo", "--device", "cpu", "--num-envs", "4", "--nobatched-physics"],
            "--batched-physics",
        ),
        (["--agent", "dppo", "--workers", "2", "--backend", "warp"], "single-process runs"),
        (["--agent", "d4pg", "--actors", "2", "--backend", "warp"], "single-process runs"),
        (["--agent", "ppo", "--backend", "gpu"], "<cpu|warp>"),
    ],
)
def test_backend_flags_that_would_be_ignored_are_refused(arguments, message, tmp_path):
    completed = _train(*arguments, "--out", str(tmp_path / "run"), timeout=120)
    assert completed.returncode != 0
    assert message in completed.stderr, completed.stderr[-2000:]


def test_a_single_environment_refuses_a_backend():
    with pytest.raises(ValueError, match="always steps on the CPU"):
        environments.load("cartpole:balance", 0, backend="warp")


def test_batch_factory_builds_the_warp_batch():
    pytest.importorskip("mujoco_warp")
    batch = environments.batch_factory("cartpole:balance", "warp", "cpu")(0, 2)
    try:
        assert batch.warp is not None
        timestep = batch.reset()
        assert timestep.observation["position"].shape == (2, 3)
        timestep = batch.step(np.zeros((2, 1)))
        assert np.all(np.isfinite(timestep.reward))
    finally:
        batch.close()
    cpu = environments.batch_factory("cartpole:balance")(0, 2)
    try:
        assert cpu.warp is None
    finally:
        cpu.close()


@pytest.mark.slow
def test_ppo_on_the_warp_backend_learns_cartpole_balance(tmp_path):
    pytest.importorskip("mujoco_warp")
    completed = _train(
        "--agent",
        "ppo",
        "--env",
        "cartpole:balance",
        "--preset",
        "task",
        "--backend",
        "warp",
        "--device",
        "cpu",
        "--seed",
        "0",
        "--out",
        str(tmp_path / "run"),
        timeout=3600,
    )
    assert completed.returncode == 0, completed.stderr[-3000:]
    import csv

    with open(tmp_path / "run" / "metrics.csv") as handle:
        returns = [
            float(row["eval_return"]) for row in csv.DictReader(handle) if row["eval_return"]
        ]
    assert returns[-1] > returns[0] + 200, returns
