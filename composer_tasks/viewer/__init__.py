"""Interactive viewer: watch an environment run in real time and poke at it.

    from composer_tasks import viewer
    viewer.launch(env, policy=my_policy)

or from the shell, for a Control Suite task:

    python -m composer_tasks.viewer humanoid stand --policy random
    python -m composer_tasks.viewer humanoid stand --web     # in a browser
    python -m composer_tasks.viewer --checkpoint runs/NAME/checkpoint.npz [--web]

A trained agent: `viewer.launch(env, policy="runs/NAME/checkpoint.npz")`. One copy
of a batch: `viewer.launch(batch, copy=3)`.

Keys: Space pauses and resumes, Right takes one control step (and pauses),
Backspace restarts the episode, `-` and `=` (or keypad - and +) halve and double
the playback speed (1/32x to 8x real time). Double-click a body to select it, then
Ctrl + right-drag pushes it (Ctrl + left-drag twists it). The overlay shows the
episode, its step, time, the last reward, the return so far and the current
observation. See docs/viewer.md.

The window needs a display (an X server, or Xvfb) and OpenGL through GLFW; it is
independent of MUJOCO_GL, which only chooses the backend of offscreen rendering.
"""

import os
from typing import Any, Callable

from composer_tasks.viewer import sources
from composer_tasks.viewer.controller import Controller
from composer_tasks.viewer.controller import KEY_BINDINGS
from composer_tasks.viewer.controller import SPEEDS
from composer_tasks.viewer.window import Window


def launch(
    env: Any,
    policy: Callable | str | os.PathLike | None = None,
    *,
    copy: int | None = None,
    camera: int | str | None = None,
    paused: bool = False,
    speed: float = 1.0,
    show_ui: bool = False,
    web: bool = False,
    host: str = "127.0.0.1",
    port: int = 0,
    require_token: bool | None = None,
    open_browser: bool = False,
) -> int:
    """Shows `env` run by `policy` in a window, or with `web=True` in a browser.

    Args:
      env: a `composer.Environment` (or a wrapper forwarding `physics` and `task`),
        or a `BatchEnvironment` with `copy`.
      policy: `policy(timestep) -> action`, called with the last `dm_env.TimeStep`;
        or the path of a checkpoint written by `agents.train`, whose deterministic
        policy it runs (`agents` is imported only then); None applies the action
        nearest to zero inside the action bounds (zeros for the suite's [-1, 1]
        actions), so the model moves only under gravity, its own dynamics and your
        mouse.
      copy: for a `BatchEnvironment`, the copy to show: the viewer steps the whole
        batch, every other copy with `policy` on its own TimeStep, and shows this
        copy's model and state (see `composer_tasks.viewer.batch_copy`).
      camera: None for the free camera (mouse-controlled), or a fixed camera's
        index or name (window only; in the browser, Studio's camera menu).
      paused: open paused.
      speed: initial playback speed, one of `SPEEDS` (1.0 is real time); in the
        browser any multiple of real time up to 1.
      show_ui: show MuJoCo's side panels at start (window only).
      web: serve the viewer to browsers with MuJoCo Studio instead of opening a
        window (`composer_tasks.viewer.web`); returns on Ctrl+C.
      host, port, require_token, open_browser: where the web viewer listens and
        whether it requires a token (by default exactly when `host` is not
        loopback), and whether to open this machine's browser on it.

    Returns:
      The number of frames shown (window), or of control steps taken (web).
    """
    if web:
        if camera is not None or show_ui:
            raise ValueError(
                "camera and show_ui are options of the window; the web viewer "
                "chooses cameras and panels in the page"
            )
        from composer_tasks.viewer import web as web_lib

        return web_lib.launch(
            env,
            policy,
            copy=copy,
            host=host,
            port=port,
            paused=paused,
            speed=speed,
            require_token=require_token,
            open_browser=open_browser,
        )
    env, policy = sources.prepare(env, policy, copy)
    controller = Controller(env, policy, paused=paused, speed=speed)
    return Window(controller, camera=camera, show_ui=show_ui).run()


def show(env: Any, policy: Callable | str | os.PathLike | None = None, **kwargs: Any) -> Any:
    """In a notebook: serves `env` to the browser and shows the page inline; returns
    the running `web.WebViewer` (`close()` it when done). `policy` and `copy` are as
    in `launch`; other keyword arguments are `web.WebViewer`'s (host, port, paused,
    speed, require_token) and `height`."""
    from composer_tasks.viewer import web as web_lib

    return web_lib.show(env, policy, **kwargs)


__all__ = ["Controller", "KEY_BINDINGS", "SPEEDS", "Window", "launch", "show"]
