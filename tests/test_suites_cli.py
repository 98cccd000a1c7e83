"""python -m suites: the progress bar with an estimate, the step budget, and which
GL backend renders a video."""

import io
import os
import subprocess
import sys

from suites import cli, suite

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_progress_bar_total_is_the_episodes_steps():
    env = suite.load("cartpole", "balance", task_kwargs={"random": 0})
    bar = cli.progress_bar(env, 2, "cartpole balance", enabled=False)
    assert bar.total == 2 * env.step_limit == 2000
    assert cli.progress_bar(env, 2, "x", enabled=False, max_steps=7).total == 14


def test_counting_policy_advances_the_bar_once_per_call():
    env = suite.load("cartpole", "balance", task_kwargs={"random": 0})
    bar = cli.progress_bar(env, 1, "x", enabled=True)
    act = cli.counting(lambda timestep: 0.0, bar)
    act(None), act(None)
    assert bar.n == 2


def test_max_steps_ends_each_episode_early():
    out = io.StringIO()
    returns = cli.run("cartpole", "balance", "zero", 2, 0, out=out, max_steps=5)
    assert len(returns) == 2 and out.getvalue().count("over 5 steps") == 2


def _suites(*args, **environment):
    env = {
        name: value
        for name, value in os.environ.items()
        if name not in ("MUJOCO_GL", "PYOPENGL_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY")
    }
    env.update(PYTHONPATH=ROOT, **environment)
    return subprocess.run(
        [sys.executable, "-m", "suites", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_video_says_which_backend_and_shows_progress(tmp_path):
    path = tmp_path / "a.gif"
    completed = _suites("cartpole", "balance", f"--video={path}", COMPOSER_TASKS_STEP_BUDGET="3")
    assert completed.returncode == 0, completed.stderr[-3000:]
    assert "Rendering with MUJOCO_GL=egl: no display." in completed.stderr
    assert "3/3" in completed.stderr  # the bar: steps done of the total
    assert "over 3 steps" in completed.stdout and path.stat().st_size > 0


def test_a_bad_step_budget_is_refused():
    completed = _suites("cartpole", "balance", COMPOSER_TASKS_STEP_BUDGET="many")
    assert completed.returncode != 0
    assert "COMPOSER_TASKS_STEP_BUDGET='many'; expected a positive integer" in completed.stderr
