"""The array namespace of a computation's inputs: NumPy, or JAX's NumPy.

Vectorised task code (a suite domain's physics quantities, observations and reward)
is written once and runs on a CPU batch's (N, ...) NumPy arrays and on a device
batch's JAX arrays alike. It asks `namespace(*arrays)` for the module to call
(`xp.where`, `xp.sqrt`, `xp.concatenate`, ...) and avoids what only NumPy can do:
in-place writes into arrays, `out=` arguments, ufunc methods (`np.add.reduce`) and
Python branches on array values (which `jax.jit` cannot trace).

JAX is imported only when a JAX array is met: a CPU install runs without it.
"""

import sys
from types import ModuleType
from typing import Any

import numpy as np

# NumPy arrays and scalars, and the Python scalars a computation may mix with arrays
# of either namespace.
_NUMPY_OPERANDS = (np.ndarray, np.generic, bool, int, float, complex)


# `jax.Array` once jax has been imported (until then no JAX array can exist).
_jax_array: Any = None


def is_jax(value: Any) -> bool:
    """True if `value` is a JAX array (a concrete array or a tracer under `jax.jit`)."""
    global _jax_array
    if _jax_array is None:
        jax = sys.modules.get("jax")
        if jax is None:
            return False
        _jax_array = jax.Array
    return isinstance(value, _jax_array)


def namespace(*arrays: Any) -> ModuleType:
    """The array module for computing on `arrays`: `numpy`, or `jax.numpy` if any is
    a JAX array (NumPy arrays and Python scalars mixed with JAX arrays become JAX
    constants). With no arguments, `numpy`.

    Raises:
      TypeError: if an argument is neither a NumPy array, NumPy scalar, Python
        scalar nor JAX array (naming its type and position).
    """
    result: ModuleType = np
    for value in arrays:
        # NumPy arrays first: the CPU batch's hot path ends here.
        if type(value) is np.ndarray or isinstance(value, _NUMPY_OPERANDS):
            continue
        if is_jax(value):
            import jax.numpy as jnp

            result = jnp
            continue
        kind = type(value)
        position = next(i for i, entry in enumerate(arrays) if entry is value)
        raise TypeError(
            f"namespace() takes NumPy arrays, NumPy or Python scalars, or JAX arrays; "
            f"argument {position} is a {kind.__module__}.{kind.__qualname__}"
        )
    return result


def is_numpy(xp: ModuleType) -> bool:
    """True if `xp` (a result of `namespace`) is NumPy."""
    return xp is np


def new_array(value: Any) -> Any:
    """`value` as an array that shares no memory with anything else: a NumPy copy
    (0-d for a scalar), or a JAX array itself (JAX arrays are immutable)."""
    if is_jax(value):
        return value
    return np.array(value)


def interleave_last_axis(*arrays: Any) -> Any:
    """(..., k) arrays `a, b, ...` interleaved along the last axis into (..., m * k):
    `a[..., 0], b[..., 0], ..., a[..., 1], b[..., 1], ...`, as a new array.

    Raises:
      ValueError: if no array is given or their shapes differ.
    """
    if not arrays:
        raise ValueError("interleave_last_axis needs at least one array")
    shapes = {tuple(array.shape) for array in arrays}
    if len(shapes) != 1:
        raise ValueError(f"interleave_last_axis needs arrays of one shape, got {sorted(shapes)}")
    xp = namespace(*arrays)
    if xp is np:
        # Written in place: on NumPy cheaper than stacking.
        count, first = len(arrays), arrays[0]
        result = np.empty(
            first.shape[:-1] + (count * first.shape[-1],), dtype=np.result_type(*arrays)
        )
        for index, array in enumerate(arrays):
            result[..., index::count] = array
        return result
    stacked = xp.stack(arrays, axis=-1)
    return stacked.reshape(stacked.shape[:-2] + (stacked.shape[-2] * stacked.shape[-1],))


def concatenate_last_axis(*arrays: Any) -> Any:
    """Arrays of the same leading shape joined along the last axis, as a new array;
    an entry of shape (...) (no last axis) counts as (..., 1).

    Raises:
      ValueError: if no array is given.
    """
    if not arrays:
        raise ValueError("concatenate_last_axis needs at least one array")
    xp = namespace(*arrays)
    leading = max((array.ndim for array in arrays), default=1) - 1
    parts = [array if array.ndim > leading else array[..., None] for array in arrays]
    return xp.concatenate(parts, axis=-1)
