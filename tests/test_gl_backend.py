"""composer_tasks.gl_backend: EGL, then OSMesa, on a machine without a display;
nothing changed where the user chose or a display is there."""

import os
import subprocess
import sys

import pytest

from composer_tasks import gl_backend

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _libraries(*present):
    return lambda name: f"lib{name}.so" if name in present else None


@pytest.fixture
def no_mujoco_yet(monkeypatch):
    # select_backend refuses to act once mujoco is imported.
    monkeypatch.delitem(sys.modules, "mujoco", raising=False)
    monkeypatch.setattr(sys, "platform", "linux")


def test_without_a_display_egl_comes_first(no_mujoco_yet):
    environ = {}
    assert gl_backend.select_backend(environ, _libraries("EGL", "OSMesa")) == "egl"
    assert environ["MUJOCO_GL"] == "egl"
    assert gl_backend.describe() == "Rendering with MUJOCO_GL=egl: no display."


def test_without_egl_osmesa(no_mujoco_yet):
    environ = {}
    assert gl_backend.select_backend(environ, _libraries("OSMesa")) == "osmesa"
    assert environ == {"MUJOCO_GL": "osmesa"}


def test_without_either_nothing_is_set_and_the_packages_are_named(no_mujoco_yet):
    environ = {}
    assert gl_backend.select_backend(environ, _libraries()) is None
    assert environ == {}
    assert "libegl1" in gl_backend.describe() and "libosmesa6" in gl_backend.describe()


def test_a_display_keeps_mujocos_default(no_mujoco_yet):
    environ = {"DISPLAY": ":0"}
    assert gl_backend.select_backend(environ, _libraries("EGL")) is None
    assert environ == {"DISPLAY": ":0"}
    assert "a display is available" in gl_backend.describe()


def test_the_users_choice_is_kept(no_mujoco_yet):
    environ = {"MUJOCO_GL": "osmesa"}
    assert gl_backend.select_backend(environ, _libraries("EGL")) == "osmesa"
    assert environ == {"MUJOCO_GL": "osmesa"}


def test_after_mujoco_is_imported_nothing_is_set(monkeypatch):
    import mujoco

    monkeypatch.setattr(sys, "platform", "linux")
    environ = {}
    assert sys.modules["mujoco"] is mujoco
    assert gl_backend.select_backend(environ, _libraries("EGL")) is None
    assert environ == {} and "imported before composer_tasks" in gl_backend.describe()


def test_other_systems_have_a_display(monkeypatch):
    monkeypatch.setattr(sys, "platform", "darwin")
    assert gl_backend.has_display({})


def test_importing_composer_tasks_renders_headless_with_nothing_set(tmp_path):
    environment = {
        name: value
        for name, value in os.environ.items()
        if name not in ("MUJOCO_GL", "PYOPENGL_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY")
    }
    environment["PYTHONPATH"] = ROOT
    program = (
        "import composer_tasks, os\n"
        "from suites import suite\n"
        "pixels = suite.load('cartpole', 'balance').physics.render(48, 64)\n"
        "print(os.environ['MUJOCO_GL'], pixels.shape, int(pixels.max()) > 0)\n"
    )
    completed = subprocess.run(
        [sys.executable, "-c", program],
        cwd=tmp_path,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert completed.returncode == 0, completed.stderr[-3000:]
    assert completed.stdout.split() == ["egl", "(48,", "64,", "3)", "True"]
