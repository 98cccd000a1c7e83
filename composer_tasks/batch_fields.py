"""Which model fields differ between copies of one task.

A batch of copies steps on one shared model when the copies' models are equal but
for fields that the engine can hold per copy: `mujoco.batch.Batch.expand` on the
CPU, MuJoCo Warp's per-world model fields on a GPU. `ModelReference` records one
model (the shared one) and names, for any other model, every field in which it
differs: MjModel array fields by their MjModel names, MjOption fields as
`"opt.<name>"`, MjStatistic fields as `"stat.<name>"` and size counts (`nq`,
`nhfielddata`, ...) by name. Whether a named field can be held per copy is the
backend's question; `cpu_expandable` answers it for `mujoco.batch`.

Comparisons are exact (bytes), so a copy is never run on a model that differs from
its own in any bit.
"""

import ctypes
import operator
import struct as struct_module
from typing import Any, Callable, Tuple

import mujoco
import mujoco.batch
import numpy as np

from composer_tasks.physics import array_fields

_STRUCTS = ("opt", "stat")


def cpu_expandable(name: str) -> bool:
    """True if `mujoco.batch.Batch.expand` can give the model field `name` (as named
    by `ModelReference.differences`) a value per copy."""
    return name in mujoco.batch.MODEL_FIELDS


def _struct_field_names(struct: Any) -> Tuple[str, ...]:
    return tuple(
        name
        for name in dir(struct)
        if not name.startswith("_") and not callable(getattr(struct, name))
    )


def _exact(value: Any) -> Any:
    """A value of a model struct's field in a form equal only for equal bits: floats
    by their hex form (which tells -0.0 from 0.0), arrays by their bytes."""
    kind = type(value)
    if kind is float:
        return value.hex()
    if kind is int:
        return value
    return np.asarray(value).tobytes()


def _struct_bytes(struct: Any, names: Tuple[str, ...]) -> Tuple[Any, ...]:
    return tuple(_exact(getattr(struct, name)) for name in names)


class _StructSnapshot:
    """The exact value of a model struct (`opt`, `stat`) in one object, read with a
    few C calls: its float fields packed as native doubles (bit for bit: -0.0 and
    NaN payloads kept), its int fields as a tuple, its other fields (arrays) as
    bytes. Equal snapshots mean equal fields; where they differ, `_struct_bytes`
    names the fields. About 40% of the time of reading the fields one by one
    (measured on cart-pole's options), and a model is compared at every reset of
    every copy."""

    def __init__(self, struct: Any, names: Tuple[str, ...]) -> None:
        kinds = {name: type(getattr(struct, name)) for name in names}
        floats = tuple(name for name in names if kinds[name] is float)
        ints = tuple(name for name in names if kinds[name] is int)
        others = tuple(name for name in names if kinds[name] not in (float, int))
        self._floats = _getter(floats)
        self._pack = struct_module.Struct(f"{len(floats)}d").pack
        self._ints = _getter(ints)
        self._others = _getter(others)

    def __call__(self, struct: Any) -> Tuple[Any, ...]:
        return (
            self._pack(*self._floats(struct)),
            self._ints(struct),
            tuple(np.asarray(value).tobytes() for value in self._others(struct)),
        )


def _getter(names: Tuple[str, ...]) -> Callable[[Any], Tuple[Any, ...]]:
    """A function of an object returning the tuple of its attributes `names`."""
    if len(names) == 1:
        single = operator.attrgetter(names[0])
        return lambda value: (single(value),)
    if not names:
        return lambda value: ()
    return operator.attrgetter(*names)


class ModelReference:
    """One model's every field, against which other models are compared.

    The model's array fields live in one buffer whose layout depends only on the
    model's sizes; a model of the same sizes is compared by reading its buffer once
    (a single byte comparison when nothing differs, the common case), and only on a
    mismatch field by field.
    """

    def __init__(self, model: mujoco.MjModel) -> None:
        if not isinstance(model, mujoco.MjModel):
            raise TypeError(f"model must be a mujoco.MjModel, got {type(model).__name__}")
        self._size_names = tuple(model._size_fields)
        self._sizes = np.array(model._sizes)
        self._sizes_bytes = self._sizes.tobytes()
        arrays = [(name, value) for name, value in array_fields(model) if value.nbytes]
        start = min(value.ctypes.data for _, value in arrays)
        end = max(value.ctypes.data + value.nbytes for _, value in arrays)
        if end - start > model.nbuffer:
            raise ValueError(
                "the model's array fields are not in one buffer; ModelReference cannot compare it"
            )
        # (name, offset in the span, bytes), by offset; the span runs from the first
        # array's first byte to the last array's last byte.
        self._layout = tuple(
            sorted(
                ((name, value.ctypes.data - start, value.nbytes) for name, value in arrays),
                key=lambda entry: entry[1],
            )
        )
        self._first_field, self._last_field = self._layout[0][0], self._layout[-1][0]
        self._last_offset = self._layout[-1][1]
        self._span = end - start
        self._buffer = ctypes.string_at(start, self._span)
        self._struct_names = {name: _struct_field_names(getattr(model, name)) for name in _STRUCTS}
        self._structs = {
            name: _struct_bytes(getattr(model, name), self._struct_names[name]) for name in _STRUCTS
        }
        self._snapshots = {
            name: _StructSnapshot(getattr(model, name), self._struct_names[name])
            for name in _STRUCTS
        }
        self._struct_snapshots = {
            name: self._snapshots[name](getattr(model, name)) for name in _STRUCTS
        }

    def differences(self, model: mujoco.MjModel) -> Tuple[str, ...]:
        """The fields in which `model` differs from the reference model, in buffer
        order (array fields), then options and statistics; `()` if none."""
        sizes = model._sizes
        if sizes.tobytes() != self._sizes_bytes:
            return tuple(
                name
                for name, size, reference in zip(self._size_names, sizes, self._sizes)
                if size != reference
            )
        found = list(self._array_differences(model))
        for struct_name in _STRUCTS:
            struct = getattr(model, struct_name)
            if self._snapshots[struct_name](struct) == self._struct_snapshots[struct_name]:
                continue
            names = self._struct_names[struct_name]
            values = _struct_bytes(struct, names)
            found.extend(
                f"{struct_name}.{name}"
                for name, value, reference in zip(names, values, self._structs[struct_name])
                if value != reference
            )
        return tuple(found)

    def _array_differences(self, model: mujoco.MjModel) -> Tuple[str, ...]:
        start = getattr(model, self._first_field).ctypes.data
        if getattr(model, self._last_field).ctypes.data != start + self._last_offset:
            raise ValueError("the model's buffer layout differs from the reference's")
        buffer = ctypes.string_at(start, self._span)
        if buffer == self._buffer:
            return ()
        ours, reference = memoryview(buffer), memoryview(self._buffer)
        return tuple(
            name
            for name, offset, size in self._layout
            if ours[offset : offset + size] != reference[offset : offset + size]
        )


def set_model_field(model: mujoco.MjModel, name: str, value: Any) -> None:
    """Writes a model field named as `ModelReference.differences` names it (an array
    field, or `opt.<name>` / `stat.<name>`)."""
    struct_name, _, field = name.rpartition(".")
    if struct_name:
        setattr(getattr(model, struct_name), field, value)
    else:
        getattr(model, name)[...] = value


def model_field(model: mujoco.MjModel, name: str) -> Any:
    """A model field by its `mujoco.batch.MODEL_FIELDS` name (`opt.<name>` for options)."""
    struct_name, _, field = name.rpartition(".")
    if struct_name:
        return getattr(getattr(model, struct_name), field)
    return getattr(model, name)
