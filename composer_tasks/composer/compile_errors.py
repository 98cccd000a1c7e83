"""Compile-error diagnostics: which entity and which line of Python made a failing element.

Every element an entity builds gets an `info` string naming the entity; MuJoCo
appends `info` to its compile errors, and `describe_compile_error` adds the
owning entity's class and the source line that names the element.
"""

from __future__ import annotations

import inspect
import re
from typing import TYPE_CHECKING

import mujoco

if TYPE_CHECKING:
    from composer_tasks.composer.entity import Entity

# Spec element collections whose members get an `info` string naming the entity
# that created them; MuJoCo appends `info` to every compile error about an element.
_ELEMENT_COLLECTIONS = (
    "bodies",
    "geoms",
    "joints",
    "sites",
    "cameras",
    "lights",
    "frames",
    "actuators",
    "sensors",
    "tendons",
    "equalities",
    "materials",
    "textures",
    "meshes",
    "hfields",
    "excludes",
    "pairs",
    "keys",
)


def stamp_element_info(spec: mujoco.MjSpec, entity: Entity) -> None:
    """Labels every unlabelled element of `spec` as created by `entity`."""
    label = (
        f"created by entity {entity.name!r} ({type(entity).__module__}.{type(entity).__qualname__})"
    )
    for collection in _ELEMENT_COLLECTIONS:
        for element in getattr(spec, collection, ()):
            if hasattr(element, "info") and not element.info:
                element.info = label


_ELEMENT_NAME = re.compile(r"Element name '([^']*)'")


def describe_compile_error(root_entity: Entity, error: BaseException) -> str:
    """MuJoCo's compile error plus the owning entity and the Python line naming the element."""
    message = str(error)
    match = _ELEMENT_NAME.search(message)
    if not match or not match.group(1):
        return f"the model of entity {root_entity.name!r} failed to compile: {message}"
    element_name = match.group(1)
    owner = root_entity
    for entity in root_entity.iter_entities():
        if element_name.startswith(entity.prefix) and len(entity.prefix) >= len(owner.prefix):
            owner = entity
    local_name = element_name[len(owner.prefix) :]
    location = _find_name_in_source(type(owner), local_name)
    where = f", named at {location}" if location else ""
    return (
        f"element {element_name!r} of entity {owner.name!r} "
        f"({type(owner).__module__}.{type(owner).__qualname__}{where}) failed to compile: {message}"
    )


def _find_name_in_source(cls: type, local_name: str) -> str | None:
    pattern = re.compile(r"""(['"])""" + re.escape(local_name) + r"""\1""")
    for klass in cls.__mro__:
        # The framework's own base classes name no elements of the user's model.
        if klass is object or klass.__module__.startswith("composer_tasks.composer."):
            continue
        try:
            lines, first_line = inspect.getsourcelines(klass)
            path = inspect.getsourcefile(klass)
        except (OSError, TypeError):
            continue
        for offset, line in enumerate(lines):
            if pattern.search(line):
                return f"{path}:{first_line + offset}"
    return None
