"""The wheel: it builds from pyproject.toml, passes `twine check`, holds every file of
the four packages and the entry points, and (slow) installs into a clean virtual
environment where `python -m suites cartpole swingup` runs."""

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

import composer_tasks

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("composer_tasks", "mjcf_models", "suites", "agents")


def _tracked_files() -> list[str]:
    listing = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return [name for name in listing.stdout.splitlines() if (ROOT / name).is_file()]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    # Built from a copy of the files git knows, so that nothing left in the work
    # tree (build/, *.egg-info) reaches the wheel or is written into the checkout.
    source = tmp_path_factory.mktemp("source")
    for name in _tracked_files():
        target = source / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes((ROOT / name).read_bytes())
    out = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(out)],
        cwd=source,
        check=True,
        capture_output=True,
    )
    (built,) = out.glob("*.whl")
    return built


def test_wheel_is_named_by_the_version(wheel):
    assert wheel.name == f"composer_tasks-{composer_tasks.__version__}-py3-none-any.whl"


def test_wheel_passes_twine_check(wheel):
    completed = subprocess.run(
        [sys.executable, "-m", "twine", "check", "--strict", str(wheel)],
        capture_output=True,
        text=True,
    )
    assert completed.returncode == 0, completed.stdout + completed.stderr


def test_wheel_holds_every_package_file_and_model_asset(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    expected = {
        name
        for name in _tracked_files()
        if name.split("/")[0] in PACKAGES and "__pycache__" not in name
    }
    assert expected, "no package files found"
    assert not expected - names, f"missing from the wheel: {sorted(expected - names)}"


def test_wheel_declares_the_environment_entry_points(wheel):
    archive = zipfile.ZipFile(wheel)
    (entry_points,) = [name for name in archive.namelist() if name.endswith("entry_points.txt")]
    text = archive.read(entry_points).decode()
    assert "[composer_tasks.environments]" in text
    for line in (
        "suite = suites.suite:register_environments",
        "locomotion = suites.locomotion:register_environments",
        "soccer = suites.soccer:register_environments",
    ):
        assert line in text


@pytest.mark.slow
def test_wheel_installs_in_a_clean_venv_and_runs_the_main_job(wheel, tmp_path):
    # About 2.5 minutes on two cores, most of it pip fetching MuJoCo and SciPy.
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    subprocess.run(
        [str(python), "-m", "pip", "install", "-q", str(wheel)], check=True, capture_output=True
    )
    environment = {
        name: value
        for name, value in os.environ.items()
        if name not in ("MUJOCO_GL", "PYOPENGL_PLATFORM", "PYTHONPATH", "DISPLAY")
    }
    completed = subprocess.run(
        [str(python), "-m", "suites", "cartpole", "swingup"],
        cwd=tmp_path,  # away from the checkout, so the installed packages are imported
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert completed.returncode == 0, completed.stderr[-4000:]
    assert "cartpole swingup episode 0: return" in completed.stdout
