"""The viewer window: MuJoCo's passive viewer driven by a `Controller`.

`mujoco.viewer.launch_passive` opens the window on its own thread; this module runs
the environment on the calling thread. Each frame it
  1. hands the keys pressed since the last frame to the controller,
  2. lets the controller take the control steps due (under the viewer's lock),
  3. calls `sync`, which copies the state to the window and writes the mouse
     perturbation (Ctrl + drag on a double-clicked body) into `data.xfrc_applied`
     (`mjv_applyPerturbForce`) for the steps of the next frame,
  4. sets the overlay text.

MuJoCo's own panels are hidden at start (Tab and Shift+Tab show them). Its Reset
button resets `MjData` without the task's episode initialisation, and Backspace is
that button's shortcut, so a Backspace is synced first and the environment's
`reset()` runs after it.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Mapping
from typing import Any

import mujoco

from composer_tasks.viewer import controller as controller_lib

# Frames per second the loop aims at; the window's own rendering may be slower.
_TARGET_FRAME_RATE = 60.0
# Seconds `close` waits for MuJoCo's window thread to finish tearing the window down.
_CLOSE_TIMEOUT_S = 10.0
_CAMERA_FIELDS = ("type", "fixedcamid", "trackbodyid", "lookat", "distance", "azimuth", "elevation")


def require_display() -> None:
    """Raises `RuntimeError` where no window can open (GLFW cannot start: no display),
    as dm_control's viewer does; MuJoCo's viewer would instead end the process.

    Raises:
      RuntimeError: GLFW cannot initialise.
    """
    # Imported here, as mujoco.viewer is: a headless process may lack GLFW's library.
    import warnings

    try:
        import glfw
    except ImportError as error:
        raise RuntimeError(f"Failed to create window: GLFW is unavailable ({error})") from error
    with warnings.catch_warnings():
        # GLFW's own warning says why; the error below says it too.
        warnings.simplefilter("ignore", glfw.GLFWError)
        started = glfw.init()
    if not started:
        raise RuntimeError(
            "Failed to create window: GLFW cannot start (no display: set DISPLAY to an X "
            "server, or run under Xvfb)"
        )


class Window:
    """Shows a `Controller`'s environment in MuJoCo's viewer until the window closes.

    Args:
      controller: the `Controller`.
      camera: None for the free camera, or a fixed camera's index or name.
      show_ui: show MuJoCo's side panels at start.
    """

    def __init__(
        self,
        controller: controller_lib.Controller,
        camera: int | str | None = None,
        show_ui: bool = False,
    ) -> None:
        if camera is not None:
            _camera_index(controller.env.physics.model, camera)  # Fails before any window opens.
        self._controller = controller
        self._camera = camera
        self._show_ui = bool(show_ui)
        self._keys: queue.SimpleQueue[int] = queue.SimpleQueue()
        # The `mujoco.viewer.Handle` of the open window (None before `run`).
        self._handle: Any | None = None
        self._window_threads: tuple[threading.Thread, ...] = ()
        self._model = None
        self._data = None
        self._frames = 0

    @property
    def handle(self) -> Any | None:
        """The `mujoco.viewer.Handle` of the open window (None before `run`): its
        `cam`, `opt`, `perturb`, `viewport` and `user_scn` are MuJoCo's own."""
        return self._handle

    @property
    def frames(self) -> int:
        """Frames (sync calls) shown so far."""
        return self._frames

    def _open_handle(self) -> Any:
        """The handle of the open window; read it anew each time, since a
        recompilation reopens the window."""
        assert self._handle is not None, "the window is not open"
        return self._handle

    def _on_key(self, key: int) -> None:
        # Runs on the window's thread while it holds the viewer's lock: only queue.
        self._keys.put(key)

    def _open(self, camera_state: Mapping[str, Any] | None = None) -> None:
        require_display()
        # Imported here: mujoco.viewer needs GLFW, which a headless process may lack.
        import mujoco.viewer

        physics = self._controller.env.physics
        self._model, self._data = physics.model, physics.data
        before = set(threading.enumerate())
        self._handle = mujoco.viewer.launch_passive(
            self._model,
            self._data,
            key_callback=self._on_key,
            show_left_ui=self._show_ui,
            show_right_ui=self._show_ui,
        )
        self._window_threads = tuple(set(threading.enumerate()) - before)
        with self._handle.lock():
            camera = self._handle.cam
            if camera_state is not None:
                for name, value in camera_state.items():
                    setattr(camera, name, value)
            elif self._camera is not None:
                camera.type = mujoco.mjtCamera.mjCAMERA_FIXED
                camera.fixedcamid = _camera_index(self._model, self._camera)

    def _reopen_if_recompiled(self) -> None:
        """A variation may recompile the model at reset; the window must show the new one."""
        physics = self._controller.env.physics
        if physics.model is self._model and physics.data is self._data:
            return
        camera = self._open_handle().cam
        state = {name: _copy(getattr(camera, name)) for name in _CAMERA_FIELDS}
        self.close()
        self._open(state)

    def run(self) -> int:
        """Runs until the window is closed; returns the number of frames shown."""
        self._open()
        try:
            last = time.perf_counter()
            while self._open_handle().is_running():
                now = time.perf_counter()
                self._advance(now - last)
                last = now
                remaining = 1.0 / _TARGET_FRAME_RATE - (time.perf_counter() - now)
                if remaining > 0:
                    time.sleep(remaining)
        finally:
            self.close()
        return self._frames

    def close(self) -> None:
        """Closes the window and waits for MuJoCo's window thread to end: a process
        that exits while that (daemon) thread still tears the window down can crash
        in GLFW (a segmentation fault at exit)."""
        if self._handle is None:
            return
        self._handle.close()
        for thread in self._window_threads:
            thread.join(timeout=_CLOSE_TIMEOUT_S)

    def _advance(self, elapsed_wall_seconds: float) -> None:
        keys = []
        while not self._keys.empty():
            keys.append(self._keys.get())
        if controller_lib.KEY_BACKSPACE in keys:
            self._open_handle().sync()  # Applies MuJoCo's own reset before ours.
        with self._open_handle().lock():
            for key in keys:
                self._controller.handle_key(key)
            self._controller.tick(elapsed_wall_seconds)
        self._reopen_if_recompiled()
        self._open_handle().sync()
        self._frames += 1
        self._set_texts()

    def _set_texts(self) -> None:
        font = mujoco.mjtFontScale.mjFONTSCALE_100
        labels, values = self._controller.status_text()
        texts = [(font, mujoco.mjtGridPos.mjGRID_TOPLEFT, labels, values)]
        if self._controller.show_observation:
            names, values = self._controller.observation_text()
            texts.append((font, mujoco.mjtGridPos.mjGRID_BOTTOMLEFT, names, values))
        keys = "\n".join(key for key, _ in controller_lib.HELP_TEXT)
        actions = "\n".join(action for _, action in controller_lib.HELP_TEXT)
        texts.append((font, mujoco.mjtGridPos.mjGRID_TOPRIGHT, keys, actions))
        self._open_handle().set_texts(texts)


def _camera_index(model: mujoco.MjModel, camera: int | str) -> int:
    if isinstance(camera, str):
        index = mujoco.mj_name2id(model, mujoco.mjtObj.mjOBJ_CAMERA, camera)
        if index < 0:
            raise ValueError(f"no camera named {camera!r} in the model")
        return index
    if isinstance(camera, bool) or not isinstance(camera, int) or not 0 <= camera < model.ncam:
        raise ValueError(
            f"camera must be a camera name or an index in [0, {model.ncam}), got {camera!r}"
        )
    return camera


def _copy(value: Any) -> Any:
    return value.copy() if hasattr(value, "copy") else value
