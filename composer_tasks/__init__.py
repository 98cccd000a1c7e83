"""composer_tasks: author MuJoCo reinforcement-learning tasks by composing entities.

Importing the package chooses a headless OpenGL backend for MuJoCo on a machine
without a display (`composer_tasks.gl_backend`), as dm_control's renderer does, and
guards MuJoCo's lists of structs against keys that crash the interpreter
(`composer_tasks.mujoco_guards`).
"""

from composer_tasks import gl_backend

__version__ = "0.1.0"

gl_backend.select_backend()

from composer_tasks import mujoco_guards  # noqa: E402  (after the backend is chosen)

mujoco_guards.install()
