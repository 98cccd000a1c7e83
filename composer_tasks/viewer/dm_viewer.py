"""dm_control.viewer's entry point, `launch`, over this project's viewer.

`from dm_control import viewer; viewer.launch(env)` comes across by its import
(composer_tasks.porting maps `dm_control.viewer` here): the environment, or the
callable that makes it, and the policy are shown in `composer_tasks.viewer`'s window
(MuJoCo's own viewer). dm_control.viewer's other modules (its GUI toolkit, runtime,
views) have no counterpart: this project's viewer is its own application.
"""

from collections.abc import Callable
from typing import Any

import dm_env

from composer_tasks.viewer import window

# dm_control.viewer.launch's window settings (its defaults).
_TITLE = "Explorer"
_WIDTH = 1024
_HEIGHT = 768


def launch(
    environment_loader: Any,
    policy: Callable[[dm_env.TimeStep], Any] | None = None,
    title: str = _TITLE,
    width: int = _WIDTH,
    height: int = _HEIGHT,
) -> None:
    """Shows an environment run by `policy` until the window is closed.

    Args:
      environment_loader: an environment, or a callable without arguments that
        returns one (called once here; dm_control calls it again at each restart).
      policy: `policy(timestep) -> action`, or None (actions nearest to zero, as
        `composer_tasks.viewer.launch` documents).
      title, width, height: dm_control's window title and size. MuJoCo's viewer
        window sets its own, so only dm_control's defaults are accepted.

    Raises:
      RuntimeError: no window can open (no display), checked first, as dm_control
        creates its window before it loads the environment.
      ValueError: another title or size; no environment.
    """
    window.require_display()
    if (title, width, height) != (_TITLE, _WIDTH, _HEIGHT):
        raise ValueError(
            f"title={title!r}, width={width!r}, height={height!r}: the viewer window "
            "(MuJoCo's) sets its own title and size; leave these at dm_control's defaults "
            f"({_TITLE!r}, {_WIDTH}, {_HEIGHT}) or use composer_tasks.viewer.launch"
        )
    if environment_loader is None:
        raise ValueError(
            "environment_loader is None: dm_control's viewer then opens empty; this "
            "viewer shows an environment, so pass one (or a callable returning one)"
        )
    environment = environment_loader
    if callable(environment_loader) and not isinstance(environment_loader, dm_env.Environment):
        environment = environment_loader()
    from composer_tasks import viewer

    viewer.launch(environment, policy)
