import os
import sys

# Rendering tests run headless: MuJoCo reads MUJOCO_GL when it is first imported,
# which must not pick GLFW (it needs a display). EGL works with Mesa on a CPU.
os.environ.setdefault("MUJOCO_GL", "egl")

# The core tests share small fixture models; make them importable as a module.
sys.path.insert(0, os.path.dirname(__file__))
