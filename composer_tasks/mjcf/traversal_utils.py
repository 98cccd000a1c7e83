"""dm_control's `mjcf.traversal_utils`: `commit_defaults`, and the attachment-frame
helpers (defined in `attachment`, where they belong here).

    geom = body.add("geom", dclass="leg")
    mjcf.commit_defaults(geom)          # geom.get_attributes() now holds the class's values
    mjcf.commit_defaults(geom, ["rgba"])  # only these attributes

MjSpec applies a class's defaults to an element when it is added, so the compiled
model is the same before and after `commit_defaults`; what changes is what the
element reports as set (`get_attributes`, attribute reads), and that the values
are its own from then on (an element's own values win over later default edits).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from composer_tasks.mjcf import defaults as defaults_module
from composer_tasks.mjcf.attachment import (
    get_attachment_frame,
    get_frame_freejoint,
    get_freejoint,
)
from composer_tasks.mjcf.element import Element

__all__ = ["commit_defaults", "get_attachment_frame", "get_frame_freejoint", "get_freejoint"]

# An actuator of any of these tags takes the defaults of all of them, as in
# dm_control's `commit_defaults` (its actuator defaults are one element per tag).
_ACTUATOR_TAGS = ("general", "motor", "position", "velocity", "cylinder", "muscle")


def commit_defaults(element: Element, attributes: Iterable[str] | None = None) -> None:
    """Sets on `element` every attribute it has not set itself that its default
    classes give, from its own class up to the model's top class (the nearer class
    wins), as dm_control's `commit_defaults`.

    The element's class is its `dclass`, else the `childclass` of its nearest
    enclosing body that has one, else the model's top class.

    Args:
      element: a PyMJCF element.
      attributes: the names of the attributes to commit; None: all of them.

    Raises:
      TypeError: `element` is not a PyMJCF element.
    """
    if not isinstance(element, Element):
        raise TypeError(f"commit_defaults needs a PyMJCF element, got {element!r}")
    wanted = None if attributes is None else set(attributes)
    tags = _ACTUATOR_TAGS if element.tag in _ACTUATOR_TAGS else (element.tag,)
    for default_class in _class_chain(element):
        for tag in tags:
            if tag not in defaults_module.DEFAULT_TABLES:
                continue  # a tag no class can set defaults for (cylinder, muscle here)
            for name, value in getattr(default_class, tag).get_attributes().items():
                if wanted is not None and name not in wanted:
                    continue
                if _has_attribute(element, name) and getattr(element, name) is None:
                    setattr(element, name, value)


def _has_attribute(element: Element, name: str) -> bool:
    try:
        element._attribute(name)
    except AttributeError:
        return False
    return True


def _class_chain(element: Element) -> Iterator[defaults_module.DefaultClass]:
    """The element's default class, then each class it derives from, to the top one."""
    root = element.root
    dclass: Any = element.dclass if element._has_class() else None
    parent: Any = element.parent
    while dclass is None and parent is not root and parent is not None:
        dclass = getattr(parent, "childclass", None)
        parent = getattr(parent, "parent", None)
    if dclass is None:
        current: defaults_module.DefaultClass | None = root.default
    elif isinstance(dclass, defaults_module.DefaultClass):
        current = dclass
    else:
        current = defaults_module.DefaultClass(root._find_default(dclass), root)
    parents = {
        child: parent_name
        for parent_name, children in root._default_children.items()
        for child in children
    }
    spec = root._top_spec()
    while current is not None:
        yield current
        parent_name = parents.get(current.full_identifier)
        current = (
            None
            if parent_name is None
            else defaults_module.DefaultClass(spec.find_default(parent_name), root)
        )
