"""Helpers for MJCF text edited as an lxml tree before it is parsed (dm_control's
`utils.xml_tools`).

Models here are built and edited as MjSpec through `composer_tasks.mjcf`; these
helpers serve code that, as dm_control's Control Suite domains once did, reads a
model's XML file, changes the tree and hands the text on:

    tree = xml_tools.parse(io.BytesIO(xml_bytes))
    link = xml_tools.find_element(tree, "body", "segment_0")
    xml_tools.nested_element(link, depth=3)
    text = etree.tostring(tree, pretty_print=True)

lxml is imported when a function needs it (it is a test dependency, not one of the
framework's).
"""

from __future__ import annotations

import copy
from typing import IO, Any


def find_element(root: Any, tag: str, name: str) -> Any:
    """The first element under `root` (searched at any depth) with tag `tag` and
    attribute `name="<name>"`.

    Args:
      root: an lxml element or element tree.
      tag: the sought element's tag ("body", "geom", ...).
      name: the sought element's `name` attribute.

    Raises:
      ValueError: no element has that tag and name.
    """
    found = root.find(f".//{tag}[@name={name!r}]")
    if found is None:
        raise ValueError(f"Element with tag {tag!r} and name {name!r} not found")
    return found


def nested_element(element: Any, depth: int) -> Any:
    """`element` with a deep copy of itself appended as its last child, `depth` levels
    deep (each copy holds the next one), e.g. a chain of links from one link; `depth`
    0 leaves `element` as it is. Returns `element`, changed in place."""
    if depth > 0:
        element.append(nested_element(copy.deepcopy(element), depth - 1))
    return element


def parse(file_obj: str | IO[Any]) -> Any:
    """The lxml element tree of the XML in `file_obj` (a path or a file object), with
    the whitespace between elements dropped, so that `etree.tostring(tree,
    pretty_print=True)` indents it anew after edits.

    Raises:
      lxml.etree.XMLSyntaxError: text that is not well-formed XML.
    """
    # Imported here: a test dependency (see the module docstring), with no type stubs.
    from lxml import etree  # noqa: PLC0415  # pyright: ignore[reportAttributeAccessIssue]

    return etree.parse(file_obj, etree.XMLParser(remove_blank_text=True))
