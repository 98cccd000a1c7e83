# MuJoCo's Python bindings are compiled (pybind11) and ship no type stubs, so a type
# checker cannot see their names. This stub says so: every attribute of `mujoco` is
# dynamically typed (`Any`), rather than each use being reported as unknown.
from typing import Any

def __getattr__(name: str) -> Any: ...
