"""The README's shell commands run as printed.

The set-up block's install and test commands are what CI runs (`.ci/run` holds them
verbatim); its virtual-environment line runs here. Each line of the "Commands" block
runs here, headless with no MUJOCO_GL, in a scratch directory, with the step budget
of `COMPOSER_TASKS_STEP_BUDGET` (a variable the README does not need) so that the
videos and the training run take seconds instead of minutes. The README's Python
block runs in tests/test_docs.py.
"""

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()
STEP_BUDGET = "5"


def _sh_block(after_heading: str) -> list[str]:
    section = README.split(f"\n## {after_heading}\n", 1)[1]
    block = re.search(r"```sh\n(.*?)```", section, flags=re.S).group(1)
    return [line for line in block.splitlines() if line.strip()]


SETUP = _sh_block("Set-up on a fresh machine")
COMMANDS = _sh_block("Commands")


def _user_environment() -> dict[str, str]:
    environment = {
        name: value
        for name, value in os.environ.items()
        if name not in ("MUJOCO_GL", "PYOPENGL_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY")
    }
    environment["PYTHONPATH"] = os.pathsep.join(
        [str(ROOT), *filter(None, [environment.get("PYTHONPATH")])]
    )
    environment["COMPOSER_TASKS_STEP_BUDGET"] = STEP_BUDGET
    return environment


def test_setup_block_is_venv_install_and_tests():
    assert SETUP == [
        "python3 -m venv .venv && source .venv/bin/activate",
        'pip install -e ".[dev]" && python -m suites cartpole swingup',
        "python -m pytest -q -n 2",
    ]


def test_ci_runs_the_setup_commands_as_printed():
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    for command in SETUP[1:]:
        assert command in ci, f".ci/run does not run the README's {command!r}"


def test_venv_line_makes_and_enters_a_virtual_environment(tmp_path):
    completed = subprocess.run(
        ["bash", "-c", f"{SETUP[0]} && python -c 'import sys; print(sys.prefix)'"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.strip() == str(tmp_path / ".venv")


@pytest.mark.parametrize("command", COMMANDS)
def test_command_runs_as_printed(command, tmp_path):
    # The scratch directory sees the checkout's examples/ where a command names it.
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    argv = shlex.split(command)
    assert argv[0] == "python"
    completed = subprocess.run(
        [sys.executable, *argv[1:]],
        cwd=tmp_path,
        env=_user_environment(),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert completed.returncode == 0, completed.stdout[-2000:] + completed.stderr[-4000:]
    for written in re.findall(r"--video (\S+)", command):
        assert (tmp_path / written).stat().st_size > 0
    if "agents.train" in command:
        (line,) = [text for text in completed.stdout.splitlines() if "Writing the run" in text]
        run_dir = tmp_path / line.removeprefix("Writing the run to ")
        assert (run_dir / "metrics.csv").exists()


def test_inline_commands_are_run_or_say_where():
    # An inline `python ...` of the README is a line of a block run above, the usage
    # synopsis, or one of the commands CI runs elsewhere.
    run_elsewhere = {
        "python -m pytest -q -m slow",  # CI's slow job; minutes to hours
        "python -m sphinx -W -b html docs docs/_build/html",  # test_docs.py (slow) and CI
    }
    for span in re.findall(r"`(python [^`]*)`", README):
        command = " ".join(span.split())
        if command.startswith("python -m suites DOMAIN TASK"):
            continue
        assert command in COMMANDS or command in SETUP or command in run_elsewhere, command


def test_commands_block_is_checked():
    assert len(COMMANDS) >= 5 and all(command.startswith("python ") for command in COMMANDS)
