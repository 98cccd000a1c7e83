"""Spec edits: the announced ones, counted, and a fingerprint that finds the others.

Attaching and detaching entities, `variation.MJCFVariator` and every edit made
through a `composer_tasks.mjcf` handle call `mark_spec_changed`; the Environment
compares the count before and after the `initialize_episode_mjcf` callbacks and
recompiles the model only if it moved.

Edits made on `mujoco.Mjs...` elements directly (`body.pos = ...`, or in place,
`body.pos[0] = ...`) announce nothing. `spec_fingerprint` reads every value the
compiler reads (each element's settable attributes, the option, visual,
statistic and compiler structs and the spec's sizes), so that comparing two
fingerprints finds such an edit and `describe_spec_difference` names it. Defaults
classes are left out: MjSpec applies them when an element is created, so editing
one later does not change the compiled model.
"""

import enum
from typing import Any, Callable, Dict, Iterator, List, Tuple

import mujoco
import numpy as np

_spec_edit_count = 0


def mark_spec_changed() -> None:
    """Tells the Environment that a spec was edited, so that the next reset recompiles.

    Attaching, detaching, `variation.MJCFVariator` and `composer_tasks.mjcf` handles
    call it; call it after editing `mujoco.Mjs...` spec elements directly in
    `initialize_episode_mjcf`. (An Environment also finds such edits itself in its
    first episodes, see its `check_spec_changes` argument, but announcing them is
    cheaper and covers every episode.)
    """
    global _spec_edit_count
    _spec_edit_count += 1


def spec_edit_count() -> int:
    """How many spec edits `mark_spec_changed` has recorded in this process."""
    return _spec_edit_count


# The spec's element lists, each element's settable attributes read.
_ELEMENT_LISTS = (
    "bodies",
    "frames",
    "geoms",
    "joints",
    "sites",
    "cameras",
    "lights",
    "actuators",
    "sensors",
    "tendons",
    "equalities",
    "excludes",
    "pairs",
    "keys",
    "numerics",
    "texts",
    "tuples",
    "meshes",
    "hfields",
    "skins",
    "textures",
    "materials",
    "flexes",
    "plugins",
)
# Settable attributes that do not reach the compiled model: the defaults class
# (applied at creation), and the element's own bookkeeping.
_IGNORED_ATTRIBUTES = frozenset({"classname", "compiler", "id", "signature", "info"})
# Whole-model settings, read field by field.
_SPEC_STRUCTS = (
    "option",
    "stat",
    "compiler",
    "visual.global_",
    "visual.headlight",
    "visual.map",
    "visual.quality",
    "visual.rgba",
    "visual.scale",
)
_SPEC_SIZES = (
    "memory",
    "nconmax",
    "njmax",
    "nstack",
    "nuserdata",
    "nuser_actuator",
    "nuser_body",
    "nuser_cam",
    "nuser_geom",
    "nuser_jnt",
    "nuser_sensor",
    "nuser_site",
    "nuser_tendon",
)

_element_attributes: Dict[type, Tuple[str, ...]] = {}
_struct_fields: Dict[type, Tuple[str, ...]] = {}


def _settable_attributes(cls: type) -> Tuple[str, ...]:
    names = _element_attributes.get(cls)
    if names is None:
        names = tuple(
            dict.fromkeys(
                name
                for klass in cls.__mro__
                for name, member in vars(klass).items()
                if isinstance(member, property)
                and member.fset is not None
                and not name.startswith("_")
                and name not in _IGNORED_ATTRIBUTES
            )
        )
        _element_attributes[cls] = names
    return names


def _fields(struct: Any) -> Tuple[str, ...]:
    cls = type(struct)
    names = _struct_fields.get(cls)
    if names is None:
        names = tuple(
            name
            for name in dir(struct)
            if not name.startswith("_") and not callable(getattr(struct, name))
        )
        _struct_fields[cls] = names
    return names


def _float(value: float) -> Any:
    return value if value == value else "nan"  # MuJoCo's "unset" is NaN, never equal to itself


def _same(value: Any) -> Any:
    return value


def _vector(value: Any) -> Any:
    return tuple(value) if len(value) else ()


def _orientation(value: Any) -> Any:
    return tuple(_value(getattr(value, name)) for name in _settable_attributes(type(value)))


def _plugin(value: Any) -> Any:
    return (value.plugin_name, value.name, value.active)  # `config` crashes the bindings


def _reference(value: Any) -> Any:
    return value.name  # another element, e.g. a body's frame


def _struct(value: Any) -> Any:
    return tuple(_value(getattr(value, name)) for name in _fields(value))


def _converter(cls: type) -> Callable[[Any], Any]:
    type_name = cls.__name__
    if issubclass(cls, np.ndarray):
        return np.ndarray.tobytes
    if issubclass(cls, float):
        return _float
    if cls is type(None) or issubclass(cls, (str, bytes, bool, int)):
        return _same
    if issubclass(cls, enum.Enum) or type_name.startswith("mjt"):
        return int
    if type_name.startswith("Mj") and type_name.endswith("Vec"):
        return _vector
    if type_name == "MjsOrientation":
        return _orientation
    if type_name == "MjsPlugin":
        return _plugin
    if hasattr(cls, "name"):
        return _reference
    if cls.__module__.startswith("mujoco"):
        return _struct
    raise TypeError(f"cannot fingerprint a value of type {type_name}")


_converters: Dict[type, Callable[[Any], Any]] = {}


def _value(value: Any) -> Any:
    """A comparable copy of an attribute's value (arrays are views into the spec)."""
    cls = type(value)
    converter = _converters.get(cls)
    if converter is None:
        converter = _converters[cls] = _converter(cls)
    return converter(value)


def _resolve(spec: mujoco.MjSpec, dotted: str) -> Any:
    value = spec
    for part in dotted.split("."):
        value = getattr(value, part)
    return value


def spec_structure(spec: mujoco.MjSpec) -> Tuple[int, ...]:
    """How many elements of each kind `spec` holds: it changes when an entity is
    attached or detached, or an element added or removed (a cheap check, for an
    announced edit whose spec is not known)."""
    return tuple(len(getattr(spec, name)) for name in _ELEMENT_LISTS)


def spec_fingerprint(spec: mujoco.MjSpec) -> List[Any]:
    """Every value of `spec` that the compiler reads, as a list that compares equal
    exactly when no such value changed (copies: later edits do not reach it)."""
    values: List[Any] = [_value(getattr(spec, name)) for name in _SPEC_SIZES]
    append = values.append
    for dotted in _SPEC_STRUCTS:
        struct = _resolve(spec, dotted)
        for name in _fields(struct):
            append(_value(getattr(struct, name)))
    for list_name in _ELEMENT_LISTS:
        elements = getattr(spec, list_name)
        append(len(elements))
        for element in elements:
            for name in _settable_attributes(type(element)):
                append(_value(getattr(element, name)))
    return values


def _labelled(spec: mujoco.MjSpec) -> Iterator[Tuple[str, Any]]:
    """(label, value) in `spec_fingerprint`'s order."""
    for name in _SPEC_SIZES:
        yield f"spec.{name}", _value(getattr(spec, name))
    for dotted in _SPEC_STRUCTS:
        struct = _resolve(spec, dotted)
        for name in _fields(struct):
            yield f"spec.{dotted}.{name}", _value(getattr(struct, name))
    for list_name in _ELEMENT_LISTS:
        elements = getattr(spec, list_name)
        yield f"the number of {list_name}", len(elements)
        for index, element in enumerate(elements):
            element_name = getattr(element, "name", "")
            label = f"{list_name}[{index}]" + (f" {element_name!r}" if element_name else "")
            for name in _settable_attributes(type(element)):
                yield f"{label}.{name}", _value(getattr(element, name))


def describe_spec_difference(spec: mujoco.MjSpec, fingerprint: List[Any], limit: int = 3) -> str:
    """Names what differs between `spec` now and an earlier `spec_fingerprint` of it
    (the first `limit` differences), or returns "" if nothing does."""
    differences = []
    for index, (label, value) in enumerate(_labelled(spec)):
        if index >= len(fingerprint):
            break
        if value != fingerprint[index]:
            differences.append(label)
            if label.startswith("the number of"):
                break  # the elements after it no longer line up
            if len(differences) == limit:
                break
    return ", ".join(differences)
