"""`RootElement.include_copy`: copies one model's contents into another, as
PyMJCF's copier does (dm_control/mjcf/copier.py), through this package's own
element API: every element of the source is added to the destination with the
attributes that were set on it, so the copy is made of ordinary elements of the
destination model.

Settings (compiler, option, size, statistic, visual) and the top default class
are merged: an attribute set on both models with different values raises unless
`override_attributes`, in which case the source's value wins. Default classes,
bodies and section elements (assets, contacts, equalities, actuators, sensors,
keyframes) are added; with `override_attributes`, a named element the destination
already has in the same place takes the source's attributes instead.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from composer_tasks.mjcf.element import Element
    from composer_tasks.mjcf.root import RootElement

# The sections copied element by element, with their elements' children, in MJCF's
# order (an extension's plugins come first: instances are referred to by actuators).
_SECTIONS = (
    "extension",
    "asset",
    "deformable",
    "contact",
    "tendon",
    "equality",
    "actuator",
    "sensor",
    "custom",
    "keyframe",
)


def include_copy(destination: RootElement, source: RootElement, override_attributes: bool) -> None:
    """Copies `source`'s contents into `destination` (see the module docstring).

    Raises:
      NotImplementedError: `source` has models attached to it (as PyMJCF).
      ValueError: an attribute set on both models differs (without
        `override_attributes`), a name is taken, or `source` has a tendon whose path
        this API does not know (made by raw MjSpec calls: MjSpec does not list it).
    """
    from composer_tasks.mjcf import element_api
    from composer_tasks.mjcf.root import RootElement

    if not isinstance(source, RootElement):
        raise TypeError(f"include_copy takes a mjcf.RootElement, got {type(source).__name__}")
    if source._detached:
        source._check_attached_alive()
    if destination._detached:
        destination._check_attached_alive()
    if source._child_scopes:
        raise NotImplementedError("Cannot copy from elements with attachments")
    from composer_tasks.mjcf import element as element_module

    for tendon in source.find_all("tendon", exclude_attachments=True):
        if not element_module.path_is_known(tendon._mjs):
            raise ValueError(
                f"model {source.model!r} has tendon {tendon.full_identifier!r} whose path is "
                "not known (made outside this API: MjSpec does not list a tendon's path), so "
                "it cannot be copied"
            )
    # PyMJCF copies the <mujoco> attribute too: the text names the source model (the
    # destination keeps its name).
    destination._model_attribute = source.get_attributes()["model"]
    for tag in ("compiler", "option", "size", "statistic"):
        _sync(getattr(destination, tag), getattr(source, tag), override_attributes)
    _sync_flags(destination, source, override_attributes)
    for part in ("global_", "quality", "headlight", "map", "scale", "rgba"):
        _sync(getattr(destination.visual, part), getattr(source.visual, part), override_attributes)
    _copy_default(destination.default, source.default, override_attributes)
    created: list[tuple[Element, Element]] = []
    _copy_children(
        destination, destination.worldbody, source.worldbody, override_attributes, created
    )
    for tag in _SECTIONS:
        target = getattr(destination, tag)
        for child in getattr(source, tag)._own_children():
            if tag == "extension":
                _copy_plugin(destination, child, created)
                continue
            copy = _copy_element(destination, target, child, override_attributes, created)
            # A tendon's path, a tuple's entries, a skin's bones, a flex's children.
            for grandchild in child.all_children():
                if grandchild.tag in ("contact", "edge", "elasticity"):  # exist with a flex
                    getattr(copy, grandchild.tag).set_attributes(**_portable(grandchild))
                else:
                    created.append((copy.add(grandchild.tag, **_portable(grandchild)), grandchild))
    assets = source.get_assets()
    if assets:
        spec = destination._top_spec()
        spec.assets = {**spec.assets, **assets}
    # References of the copies named elements of the source: they read as the
    # destination's copies, as PyMJCF points them at the new elements (a reference the
    # source holds as a name, not yet resolved, stays a name).
    for handle, original in created:
        resolved = [
            name
            for name, value in original.get_attributes().items()
            if isinstance(value, element_module.Element)
        ]
        element_api._resolve_own_references(handle, resolved)
    destination._edited()


def _differs(mine: Any, theirs: Any) -> bool:
    try:
        return bool(np.any(np.asarray(mine) != np.asarray(theirs)))
    except (TypeError, ValueError):
        return True


# The settings PyMJCF lets two models set differently, and how it merges them when
# copying (dm_control/mjcf/schema.xml, conflict_allowed and conflict_behavior):
# "replace" takes the source's value, "min"/"max" the smaller/larger, "max_bytes" the
# larger memory size.
_MERGED = {
    "compiler": {"meshdir": "replace", "texturedir": "replace", "assetdir": "replace"},
    "option": {
        **dict.fromkeys(
            ("timestep", "tolerance", "ls_tolerance", "noslip_tolerance", "ccd_tolerance"), "min"
        ),
        **dict.fromkeys(
            (
                "iterations", "ls_iterations", "noslip_iterations", "ccd_iterations",
                "sdf_iterations", "sdf_initpoints",
            ),
            "max",
        ),
    },
    "size": {"memory": "max_bytes", "njmax": "max", "nconmax": "max"},
    "map": {"znear": "min", "zfar": "max"},
}  # fmt: skip

# The units of a memory size (`size.memory="16M"`), powers of 1024 in order.
_UNITS = "KMGTPE"


def _memory_bytes(value: str) -> int:
    text = str(value)
    if text.isdigit():
        return int(text)
    unit = text[-1:].upper()
    if unit not in _UNITS or not text[:-1].isdigit():
        raise ValueError(f"size.memory must be a number of bytes with a unit in {_UNITS}: {text!r}")
    return int(text[:-1]) * 2 ** (10 * (_UNITS.index(unit) + 1))


def _merged(behaviour: str, current: Any, value: Any) -> Any:
    if behaviour == "min":
        return min(current, value)
    if behaviour == "max":
        return max(current, value)
    if behaviour == "max_bytes":
        return str(max(_memory_bytes(current), _memory_bytes(value)))
    return value


def _sync(destination: Any, source: Any, override: bool) -> None:
    """Sets on `destination` the attributes set on `source` (a settings struct or the
    defaults of a tag), raising for one both set differently unless `override` or
    PyMJCF merges that setting."""
    merged = _MERGED.get(destination.tag, {})
    values = source.get_attributes()
    if not override:
        for name, value in values.items():
            current = getattr(destination, name)
            if name not in merged and current is not None and _differs(current, value):
                raise ValueError(
                    f"Conflicting values for attribute `{name}`: {current} vs {value} "
                    f"(<{destination.tag}>)"
                )
    for name, value in values.items():
        current = getattr(destination, name)
        if name in merged and current is not None:
            value = _merged(merged[name], current, value)
        setattr(destination, name, value)


def _sync_flags(destination: RootElement, source: RootElement, override: bool) -> None:
    """The `<option><flag>` settings: those `source` changes from MuJoCo's default."""
    from composer_tasks.mjcf import attributes as attributes_module

    names = sorted(set(attributes_module.DISABLE_FLAGS) | set(attributes_module.ENABLE_FLAGS))
    source_flags, destination_flags = source.option.flag, destination.option.flag
    for name in names:
        default = "disable" if name in attributes_module.ENABLE_FLAGS else "enable"
        value = getattr(source_flags, name)
        if value == default:
            continue
        current = getattr(destination_flags, name)
        if current != default and current != value and not override:
            raise ValueError(f"Conflicting values for attribute `{name}`: {current} vs {value}")
        setattr(destination_flags, name, value)


def nested_classes(cls: Any) -> list[Any]:
    """The default classes made directly from class `cls` (a `DefaultClass`), in order
    (not those of attached models, which a top class lists after its own)."""
    return [nested for nested in cls.default if nested._scope is cls._scope]


def _copy_default(destination: Any, source: Any, override: bool) -> None:
    from composer_tasks.mjcf import defaults as defaults_module

    for tag in defaults_module._DEFAULT_TAGS:
        _sync(getattr(destination, tag), getattr(source, tag), override)
    for child in nested_classes(source):
        target = None
        if override:
            found = destination._scope._top_spec().find_default(
                destination._scope._full_prefix() + child.dclass
            )
            if found is not None:
                target = defaults_module.DefaultClass(found, destination._scope)
        if target is None:
            target = destination.add("default", dclass=child.dclass)
        _copy_default(target, child, override)


def _portable(handle: Element) -> dict[str, Any]:
    """`handle`'s attributes, with references to elements as their names (so that
    they name the copies in the destination); class references likewise."""
    from composer_tasks.mjcf.defaults import DefaultClass
    from composer_tasks.mjcf.element import Element

    values = {}
    for name, value in handle.get_attributes().items():
        if isinstance(value, Element):
            value = value.name
        elif isinstance(value, DefaultClass):
            value = value.dclass
        values[name] = value
    return values


def _copy_element(
    root: RootElement,
    parent: Any,
    child: Element,
    override: bool,
    created: list[tuple[Element, Element]],
) -> Any:
    attributes = _portable(child)
    name = attributes.get("name")
    target: Any = None
    if override and name is not None:
        target = root.find(child.spec_namespace, name)
        if target is not None and not _same_place(target.parent, parent):
            raise ValueError(
                f"<{child.spec_namespace}> with identifier {name!r} is already a child of "
                "another element"
            )
    if target is None and child.tag == "inertial":
        target = parent.get_children("inertial")
    if target is None:
        target = parent.add(child.tag, **attributes)
        created.append((target, child))
    else:
        values = {key: value for key, value in attributes.items() if key != "dclass"}
        if values:
            target.set_attributes(**values)
    return target


def _copy_plugin(
    destination: RootElement, plugin: Element, created: list[tuple[Element, Element]]
) -> None:
    """Declares `plugin` (a source's <extension><plugin>) in `destination`, unless it is
    already, and copies its instances with their settings."""
    name = plugin.plugin
    declared = [p for p in destination.extension.all_children() if p.plugin == name]
    target = declared[0] if declared else destination.extension.add("plugin", plugin=name)
    for instance in plugin.all_children():
        copy = target.add("instance", **_portable(instance))
        created.append((copy, instance))
        for config in instance.all_children():
            copy.add("config", **_portable(config))


def _same_place(first: Any, second: Any) -> bool:
    """Whether two parents are the same element or the same section of one model."""
    from composer_tasks.mjcf.element import Section

    if isinstance(first, Section) and isinstance(second, Section):
        return first.tag == second.tag and first._scope is second._scope
    return first == second


def _copy_children(
    root: RootElement,
    destination: Element,
    source: Element,
    override: bool,
    created: list[tuple[Element, Element]],
) -> None:
    for child in source.all_children():
        copy = _copy_element(root, destination, child, override, created)
        if child.tag == "body":
            _copy_children(root, copy, child, override, created)
