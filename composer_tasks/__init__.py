"""composer_tasks: author MuJoCo reinforcement-learning tasks by composing entities.

Importing the package chooses a headless OpenGL backend for MuJoCo on a machine
without a display (`composer_tasks.gl_backend`), as dm_control's renderer does.
"""

from composer_tasks import gl_backend

__version__ = "0.1.0"

gl_backend.select_backend()
