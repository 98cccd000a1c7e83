"""A compiled model's values, put back at the resets where dm_control compiles anew.

dm_control's Composer environment compiles a new model from the MJCF at every
reset (with `recompile_mjcf_every_episode`, its default), so whatever a callback
wrote into `physics.model` during an episode (a mass scaled, gravity changed, a
heightfield drawn) is gone at the next one. This project keeps the compiled model
when the spec did not change; `CompiledModel` restores its values instead, so that
an edit such as `physics.model.body_mass[1] *= 1.1` in `initialize_episode` scales
the compiled mass every episode, as there, rather than compounding.

MuJoCo keeps every array of an `mjModel` in one buffer; the copy is that buffer's
bytes (one memcpy), plus the option and statistic structs, which live outside it.
"""

from __future__ import annotations

import ctypes
import functools
import hashlib
from typing import Any

import mujoco
import numpy as np

# The structs outside the buffer whose values are restored: the physics options and
# the model statistics (the solver reads `stat.meaninertia`). The visual struct is
# left as edited: it changes no simulated value.
_STRUCTS = ("opt", "stat")


@functools.lru_cache(maxsize=1)
def _array_fields() -> tuple[str, ...]:
    """The names of `MjModel`'s array attributes (looked up once)."""
    probe = mujoco.MjModel.from_xml_string("<mujoco/>")
    names = []
    for name in dir(probe):
        if name.startswith("_"):
            continue
        try:
            value = getattr(probe, name)
        except Exception:  # noqa: BLE001 - some attributes need data the probe lacks
            continue
        if isinstance(value, np.ndarray):
            names.append(name)
    return tuple(names)


def _address(array: np.ndarray) -> int:
    return int(array.__array_interface__["data"][0])


# Not restored: texture pixels (most of a model's bytes: a suite model holds about
# 12 MB of procedural textures). Renderers upload them once, so an edit during an
# episode would not show anyway before a renderer is made again.
_SKIPPED = frozenset({"tex_data"})


def _buffer_spans(model: mujoco.MjModel) -> list[tuple[str, int, int]]:
    """The runs of the model's buffer that hold its arrays, less the skipped ones:
    (field at the run's start, the run's offset from it, bytes), with every field in
    between inside the run (padding and unlisted arrays included)."""
    fields = []
    for name in _array_fields():
        array = getattr(model, name)
        if array.size:
            fields.append((_address(array), array.nbytes, name))
    fields.sort()
    spans: list[tuple[str, int, int]] = []
    start = end = 0
    first = ""
    for address, nbytes, name in fields:
        if name in _SKIPPED:
            if first:
                spans.append((first, 0, end - start))
            first = ""
            continue
        if not first:
            first, start, end = name, address, address
        end = max(end, address + nbytes)
    if first:
        spans.append((first, 0, end - start))
    return spans


def _bytes_view(model: mujoco.MjModel, first: str, span: int) -> np.ndarray:
    """A writable uint8 view of `span` bytes of `model`'s buffer from field `first`
    (valid while `model` lives; callers hold the model)."""
    buffer = (ctypes.c_uint8 * span).from_address(_address(getattr(model, first)))
    return np.ctypeslib.as_array(buffer)


def _struct_values(struct: Any) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for name in dir(struct):
        if name.startswith("_"):
            continue
        value = getattr(struct, name)
        if callable(value):
            continue
        if isinstance(value, np.ndarray):
            values[name] = value.copy()
        elif isinstance(value, (int, float, bool, np.integer, np.floating)):
            values[name] = value
        elif type(value).__module__.startswith("mujoco"):
            values[name] = _struct_values(value)
    return values


def _restore_struct(struct: Any, values: dict[str, Any]) -> None:
    for name, value in values.items():
        if isinstance(value, dict):
            _restore_struct(getattr(struct, name), value)
        elif isinstance(value, np.ndarray):
            np.copyto(getattr(struct, name), value)
        elif getattr(struct, name) != value:
            setattr(struct, name, value)


class CompiledModel:
    """The values of `model` as they are now (take it right after compiling)."""

    def __init__(self, model: mujoco.MjModel) -> None:
        self._nbuffer = int(model.nbuffer)
        spans = _buffer_spans(model)
        self._spans: list[tuple[str, np.ndarray]] = []
        self._fields: dict[str, np.ndarray] = {}
        if sum(size for _, _, size in spans) <= self._nbuffer:
            self._spans = [
                (first, _bytes_view(model, first, size).copy()) for first, _, size in spans
            ]
        else:
            # Arrays outside one buffer (not MuJoCo's layout today): field by field.
            self._fields = {
                name: getattr(model, name).copy()
                for name in _array_fields()
                if name not in _SKIPPED and getattr(model, name).size
            }
        self._structs = {name: _struct_values(getattr(model, name)) for name in _STRUCTS}

    def __repr__(self) -> str:
        # By content (a batch compares the clones' Environments by their values).
        digest = hashlib.blake2b(digest_size=8)
        for first, values in self._spans:
            digest.update(first.encode())
            digest.update(values.tobytes())
        for name, values in self._fields.items():
            digest.update(name.encode())
            digest.update(values.tobytes())
        digest.update(repr(self._structs).encode())
        return f"CompiledModel(nbuffer={self._nbuffer}, digest={digest.hexdigest()})"

    def matches(self, model: mujoco.MjModel) -> bool:
        """Whether `model` has this model's layout (its buffer's size)."""
        return int(model.nbuffer) == self._nbuffer

    def restore(self, model: mujoco.MjModel) -> None:
        """Writes the values taken into `model`, a model of the same layout (this
        one, or a copy of it).

        Raises:
          ValueError: `model`'s buffer has another size.
        """
        if not self.matches(model):
            raise ValueError(
                f"cannot restore a compiled model of {self._nbuffer} buffer bytes into one "
                f"of {int(model.nbuffer)}"
            )
        for first, values in self._spans:
            np.copyto(_bytes_view(model, first, values.size), values)
        for name, values in self._fields.items():
            np.copyto(getattr(model, name), values)
        for name, values in self._structs.items():
            _restore_struct(getattr(model, name), values)
