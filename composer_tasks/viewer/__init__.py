"""Interactive viewer: watch an environment run in real time and poke at it.

    from composer_tasks import viewer
    viewer.launch(env, policy=my_policy)

or from the shell, for a Control Suite task:

    python -m composer_tasks.viewer humanoid stand --policy random

Keys: Space pauses and resumes, Right takes one control step (and pauses),
Backspace restarts the episode, `-` and `=` (or keypad - and +) halve and double
the playback speed (1/32x to 8x real time). Double-click a body to select it, then
Ctrl + right-drag pushes it (Ctrl + left-drag twists it). The overlay shows the
episode, its step, time, the last reward, the return so far and the current
observation. See docs/viewer.md.

The window needs a display (an X server, or Xvfb) and OpenGL through GLFW; it is
independent of MUJOCO_GL, which only chooses the backend of offscreen rendering.
"""

from composer_tasks.viewer.controller import Controller
from composer_tasks.viewer.controller import KEY_BINDINGS
from composer_tasks.viewer.controller import SPEEDS
from composer_tasks.viewer.window import Window


def launch(env, policy=None, *, camera=None, paused=False, speed=1.0, show_ui=False):
    """Opens a window showing `env` run by `policy`; returns when the window closes.

    Args:
      env: a `composer.Environment` (or a wrapper forwarding `physics` and `task`).
      policy: `policy(timestep) -> action`, called with the last `dm_env.TimeStep`;
        None applies the action nearest to zero inside the action bounds (zeros for
        the suite's [-1, 1] actions), so the model moves only under gravity, its
        own dynamics and your mouse.
      camera: None for the free camera (mouse-controlled), or a fixed camera's
        index or name.
      paused: open paused.
      speed: initial playback speed, one of `SPEEDS` (1.0 is real time).

    Returns:
      The number of frames shown.
    """
    controller = Controller(env, policy, paused=paused, speed=speed)
    return Window(controller, camera=camera, show_ui=show_ui).run()


__all__ = ["Controller", "KEY_BINDINGS", "SPEEDS", "Window", "launch"]
