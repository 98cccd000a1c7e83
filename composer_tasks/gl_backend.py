"""MuJoCo's OpenGL backend for offscreen rendering, chosen for a machine without a display.

MuJoCo reads the `MUJOCO_GL` environment variable once, when `mujoco` is first
imported; left unset it takes GLFW, which needs a display (an X server or Wayland),
so on a headless machine every camera image, video and pixel observation fails.
dm_control's renderer tries GLFW, then EGL, then OSMesa, and keeps the first that
loads; this module gives the same result before MuJoCo is imported: with no display
and `MUJOCO_GL` unset it sets `MUJOCO_GL=egl` when the EGL library is installed, else
`MUJOCO_GL=osmesa` when OSMesa is. A `MUJOCO_GL` set by the user is never changed.

Importing `composer_tasks` calls `select_backend()`, so the command-line tools
(`python -m suites`, the viewer, `agents.train`'s videos) and a user's program that
imports `composer_tasks` before `mujoco` render headless with nothing set by hand;
the tools print `describe()` when they render. Only `os`, `sys` and `ctypes.util`
are imported here: nothing that would load MuJoCo.
"""

import ctypes.util
import os
import sys
from collections.abc import Callable, Mapping, MutableMapping

# The backends tried on a machine without a display, in order, with the shared
# library each needs (as ctypes.util.find_library names it) and its Debian packages.
HEADLESS_BACKENDS = (
    ("egl", "EGL", "libegl1 libegl-mesa0 libgl1-mesa-dri libgbm1"),
    ("osmesa", "OSMesa", "libosmesa6"),
)
_DISPLAY_VARIABLES = ("DISPLAY", "WAYLAND_DISPLAY")

# What the last select_backend() did, for describe().
_choice: dict[str, str | None] = {"backend": None, "reason": "not chosen yet"}


def has_display(environ: Mapping[str, str] = os.environ) -> bool:
    """Whether a window can open: always on macOS and Windows, on Linux with an X
    server or Wayland compositor named in the environment."""
    if not sys.platform.startswith("linux"):
        return True
    return any(environ.get(name) for name in _DISPLAY_VARIABLES)


def headless_backend(
    find_library: Callable[[str], str | None] = ctypes.util.find_library,
) -> str | None:
    """The first of EGL and OSMesa whose shared library is installed, or None."""
    for backend, library, _ in HEADLESS_BACKENDS:
        if find_library(library):
            return backend
    return None


def select_backend(
    environ: MutableMapping[str, str] = os.environ,
    find_library: Callable[[str], str | None] = ctypes.util.find_library,
) -> str | None:
    """Sets `MUJOCO_GL` for a machine without a display; returns the backend in force.

    Returns the backend MuJoCo will use (`environ['MUJOCO_GL']`), or None where that
    is MuJoCo's own default (GLFW: a display is there, or no headless library is
    installed). Changes nothing when `MUJOCO_GL` is set, when a display is there, or
    when `mujoco` was already imported (its choice is made; setting the variable
    then would only mislead).
    """
    chosen = environ.get("MUJOCO_GL")
    if chosen:
        _choice.update(backend=chosen, reason="MUJOCO_GL was set")
        return chosen
    if has_display(environ):
        _choice.update(backend=None, reason="a display is available (GLFW)")
        return None
    if "mujoco" in sys.modules:
        _choice.update(
            backend=None,
            reason="no display, but mujoco was imported before composer_tasks; "
            "set MUJOCO_GL=egl or osmesa before importing it",
        )
        return None
    backend = headless_backend(find_library)
    if backend is None:
        packages = "; ".join(f"{name}: {debian}" for name, _, debian in HEADLESS_BACKENDS)
        _choice.update(
            backend=None,
            reason=f"no display and neither EGL nor OSMesa is installed (Debian {packages})",
        )
        return None
    environ["MUJOCO_GL"] = backend
    _choice.update(backend=backend, reason="no display")
    return backend


def describe() -> str:
    """One line saying which backend offscreen rendering uses and why."""
    backend = _choice["backend"]
    if backend is None:
        return f"Rendering with MuJoCo's default OpenGL backend: {_choice['reason']}."
    return f"Rendering with MUJOCO_GL={backend}: {_choice['reason']}."
