"""PyMJCF's generic element methods (`get_children`, `all_children`, `insert`,
`is_same_as`, `prefixed_identifier`, `get_attribute_xml_string`, ...), mixed into
`Element` and `RootElement`.

They read and write the MjSpec through the handles' own methods, as everything else
in this package does. Where MjSpec's model differs from PyMJCF's XML tree, the
difference is stated in the method's docstring (and in docs/porting_from_dm_control.md):
MjSpec keeps a body's children per kind (its geoms in order, its joints in order, ...)
but not the order between kinds, so `all_children` lists them kind by kind, and
`insert` can place an element only after the elements of its own kind.
"""

from __future__ import annotations

import collections

import xml.etree.ElementTree as ElementTree
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from composer_tasks.mjcf.element import Element
    from composer_tasks.mjcf.namescope import NameScope
    from composer_tasks.mjcf.root import RootElement

# dm_control's default number of significant digits in MJCF text
# (dm_control/mjcf/constants.py, XML_DEFAULT_PRECISION).
XML_DEFAULT_PRECISION = 17

# The order in which `all_children` lists a body's children: MjSpec keeps the order
# within each kind only. Joints first, then geoms, ..., then child bodies (which is the
# order most MJCF files write them in).
_BODY_CHILD_ORDER = ("inertial", "joint", "freejoint", "geom", "site", "camera", "light", "body")

# The children of <mujoco> in PyMJCF's schema order (dm_control/mjcf/schema.xml), and
# those this API has: the model's sections.
_ROOT_CHILDREN = (
    "compiler", "option", "size", "statistic", "visual", "default", "extension", "asset",
    "worldbody", "deformable", "contact", "tendon", "equality", "actuator", "sensor",
    "custom", "keyframe",
)  # fmt: skip
# (Every one of them is a section here.)
_ROOT_SECTIONS_HERE = _ROOT_CHILDREN


# The elements that name a file (written by its name in the virtual file system).
_FILE_TAGS = ("mesh", "texture", "hfield", "skin")


def _scope_prefix(scope: RootElement, prefix_root: NameScope | RootElement | None) -> str:
    """The prefix of `scope`'s names as seen from `prefix_root` (a model or its name
    scope): the names of the models between them, each followed by "/". None gives
    no prefix, as in PyMJCF; a `prefix_root` that is not above `scope` gives the
    prefix from the top model."""
    if prefix_root is None:
        return ""
    root_model = getattr(prefix_root, "mjcf_model", prefix_root)
    parts = []
    current = scope
    while current is not root_model and current._parent_scope is not None:
        parts.append(current.model)
        current = current._parent_scope
    return "".join(part + "/" for part in reversed(parts))


def _format_number(value: float, precision: int, zero_threshold: float) -> str:
    if abs(value) < zero_threshold:
        value = 0.0
    return f"%.{precision:d}g" % value


def _xml_text(
    value: Any, owner_scope: RootElement, prefix_root: Any, precision: int, zero_threshold: float
) -> str | None:
    """An attribute value as PyMJCF writes it in MJCF text (dm_control/mjcf/attribute.py:
    numbers with `precision` significant digits, arrays space-separated, references by
    their prefixed names)."""
    from composer_tasks.mjcf.element import Element

    from composer_tasks.mjcf.assets import Asset
    from composer_tasks.mjcf.defaults import DefaultClass

    if value is None:
        return None
    if isinstance(value, Element):
        return value.prefixed_identifier(prefix_root)
    if isinstance(value, DefaultClass):
        # A class reference (a parsed `class` / `childclass`): its prefixed name, the
        # model's top class written "/" as PyMJCF writes it.
        if value.dclass is None:
            return _scope_prefix(value._scope, prefix_root) or "/"
        return _scope_prefix(value._scope, prefix_root) + value.dclass
    if isinstance(value, Asset):
        return value.get_vfs_filename()
    if isinstance(value, (bool, np.bool_)):
        return str(value).lower()
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if isinstance(value, (float, np.floating)):
        return _format_number(float(value), precision, zero_threshold)
    if isinstance(value, np.ndarray):
        return " ".join(
            _format_number(float(item), precision, zero_threshold) for item in value.ravel()
        )
    return str(value)


class ElementMethods:
    """PyMJCF's generic methods of an element (mixed into `Element`)."""

    __slots__ = ()

    def get_children(self: Any, element_name: str) -> Any:
        """The children with tag `element_name`: a list for a repeated child (`geom`,
        `body`, ...), the element or None for a single one (`inertial`).

        Raises:
          AttributeError: this element cannot have children with that tag.
        """
        if self._scope._removed:
            self._check_alive()
        if element_name not in self._child_tags():
            raise AttributeError(f"<{element_name}> is not a valid child of <{self.tag}>")
        return self._children_with_tag(element_name)

    def all_children(self: Any) -> list[Element]:
        """Every child element in the order they were added, as PyMJCF lists them (an
        attachment frame right after its site; in a frame, its own joints, then the
        attached model's). Children made with MjSpec directly (no record of when) are
        listed kind by kind: the inertial, joints, geoms, sites, cameras, lights, then
        bodies.
        """
        if self._scope._removed:
            self._check_alive()
        if self._tag in ("spatial", "fixed"):  # a tendon's path, in the order added
            return self._path_elements()
        if self._tag == "tuple":
            return self._tuple_entries()
        if self._tag == "skin":
            return self._bones()
        if self._tag == "flex":  # its children that exist with it
            return [self._children_with_tag(tag) for tag in self._child_tags()]
        if self._tag in ("extension_plugin", "instance"):
            return self._children_with_tag(self._child_tags()[0])
        tags = self._child_tags()
        children: list[Element] = []
        for tag in _BODY_CHILD_ORDER:
            if tag not in tags:
                continue
            found = self._children_with_tag(tag)
            if isinstance(found, list):
                children.extend(found)
            elif found is not None:
                children.append(found)
        from composer_tasks.mjcf import namescope

        return namescope.in_written_order(self._scope._top(), children)

    def insert(self: Any, element_name: str, position: int | None, **kwargs: Any) -> Element:
        """Adds a child at `position` of `all_children()` (None: at the end).

        MjSpec appends an element after those of its kind (a geom after the body's
        geoms), so `position` must not come before a child of the same kind: the
        compiled model's order would not be the one asked for.

        Raises:
          ValueError: `position` would put the element before one of its kind.
          AttributeError, TypeError: as `add`.
        """
        children = _check_position(self, element_name, position)
        handle = self.add(element_name, **kwargs)
        if position is not None and -len(children) <= position < len(children):
            _write_before(handle, children[position])
        return handle

    def is_same_as(self: Any, other: Any) -> bool:
        """Whether `other` is an element with the same tag, attributes and children
        (children compared kind by kind, in order), as PyMJCF's `is_same_as`.
        References compare by full name."""
        from composer_tasks.mjcf.element import Element

        if not isinstance(other, Element) or other.tag != self.tag:
            return False
        if not _same_attributes(self.get_attributes(), other.get_attributes()):
            return False
        if self.tag in ("spatial", "fixed"):
            # A tendon's path: strict order of every element, as PyMJCF compares it.
            return _same_children(self.all_children(), other.all_children())
        for tag in self._child_tags():
            mine, theirs = self._children_with_tag(tag), other._children_with_tag(tag)
            if not _same_children(mine, theirs):
                return False
        return True

    def prefixed_identifier(self: Any, prefix_root: Any) -> str | None:
        """The element's name as seen from `prefix_root` (a model's name scope, or
        None for the name inside its own model); None for an element without a name
        attribute. The worldbody's is its model's prefix, or "world"."""
        if self._scope._removed:
            self._check_alive()
        prefix = _scope_prefix(self._scope, prefix_root)
        if self._tag == "worldbody":
            return prefix or "world"
        if self._tag == "body" and self._is_attachment_frame():
            # The frame's name is its model's prefix (ending in "/").
            child = next(c for c in self._scope._child_scopes if c._attachment_body == self._mjs)
            return prefix + child.model + "/"
        if "name" not in self._attribute_table():
            return None
        if self._is_frame_joint():
            # A joint of an attachment frame is named after the frame, as PyMJCF names
            # it (`"arm/slide/"`, or `"arm/"` unnamed).
            return prefix + self.full_identifier[len(self._scope._full_prefix()) :]
        name = self._own_name()
        if name is None:
            return self.full_identifier[len(self._scope._full_prefix()) :] or None
        return prefix + name

    def _is_frame_joint(self: Any) -> bool:
        """Whether this is a joint of an attachment frame (which PyMJCF names after the
        frame)."""
        return self._tag in ("joint", "freejoint") and any(
            child._attachment_body == self._mjs.parent for child in self._scope._child_scopes
        )

    def get_attribute_xml_string(
        self: Any,
        attribute_name: str,
        prefix_root: Any = None,
        *,
        precision: int = XML_DEFAULT_PRECISION,
        zero_threshold: float = 0,
    ) -> str | None:
        """An attribute's value as MJCF text (None when it is not set): numbers with
        `precision` significant digits (those below `zero_threshold` written as 0),
        references by their names as seen from `prefix_root`."""
        if attribute_name == "name" and self._is_frame_joint():
            return self.prefixed_identifier(prefix_root) if self._own_name() else None
        value = self._get(attribute_name)
        if value is None:
            if attribute_name in ("dclass", "class"):
                return _unset_class_text(self, prefix_root)
            return None
        if isinstance(value, str) and _is_name_or_reference(self, attribute_name):
            # A name, a class or a reference given by name: relative to its model.
            return _scope_prefix(self._scope, prefix_root) + value
        return _xml_text(value, self._scope, prefix_root, precision, zero_threshold)

    def _own_tree(
        self: Any,
        prefix_root: Any,
        debug_context: Any,
        precision: int,
        zero_threshold: float,
        filename_with_hash: bool,
    ) -> ElementTree.Element:
        """The element and what it holds as PyMJCF writes them (`to_xml`'s and
        `to_xml_string`'s tree)."""
        refuse_debug_context(debug_context)
        if self._scope._removed:
            self._check_alive()
        root = prefix_root if prefix_root is not None else self.namescope
        return _xml_tree(self, root, precision, zero_threshold, filename_with_hash)

    def to_xml(
        self: Any,
        prefix_root: Any = None,
        debug_context: Any = None,
        *,
        precision: int = XML_DEFAULT_PRECISION,
        zero_threshold: float = 0,
        filename_with_hash: bool = True,
    ) -> Any:
        """The element and what it holds as an XML tree in PyMJCF's form (an lxml
        element, as PyMJCF's): see `to_xml_string`."""
        from composer_tasks.mjcf import writer

        return writer.as_lxml(
            self._own_tree(
                prefix_root, debug_context, precision, zero_threshold, filename_with_hash
            )
        )

    def to_xml_string(
        self: Any,
        prefix_root: Any = None,
        self_only: bool = False,
        pretty_print: bool = True,
        debug_context: Any = None,
        *,
        precision: int = XML_DEFAULT_PRECISION,
        zero_threshold: float = 0,
        filename_with_hash: bool = True,
    ) -> str:
        """The element (and, unless `self_only`, what it holds) as MJCF text in
        PyMJCF's form: the attributes that were set, names relative to `prefix_root`
        (this element's model when None), numbers with `precision` significant digits.

        Written from the handles (there is no XML tree here); the attributes come in
        this package's order, not PyMJCF's schema order. `debug_context` (PyMJCF's
        debug mode) must be None.
        """
        from composer_tasks.mjcf import writer

        tree = self._own_tree(
            prefix_root, debug_context, precision, zero_threshold, filename_with_hash
        )
        if self_only:
            frame = self.tag == "body" and self._is_attachment_frame()
            # PyMJCF prints an attachment frame's joints with their names (an unnamed
            # one with the frame's, last).
            frame_joint = self._is_frame_joint()
            if (
                "name" in self._attribute_table()
                and not frame
                and not frame_joint
                and self._own_name() is None
            ):
                tree.attrib.pop("name", None)
        return writer.to_string(tree, self_only, pretty_print)

    def resolve_references(self: Any) -> None:
        """Makes the references of this element and those below it that were given by
        name, and name an element the model now has, read as that element (PyMJCF
        keeps a name given before its element existed until this is called)."""
        if self._scope._removed:
            self._check_alive()
        pending = [self]
        while pending:
            handle = pending.pop()
            _resolve_own_references(handle)
            pending.extend(handle.all_children())

    def enter_scope(self: Any, scope_identifier: str) -> RootElement | None:
        """The attached model at path `scope_identifier` (`"leg0"`, `"creature/leg0"`)
        below this element's model, or None."""
        from composer_tasks.mjcf import namescope as namescope_module

        if self._scope._removed:
            self._check_alive()
        return namescope_module.enter_scope(self._scope, scope_identifier)


def refuse_debug_context(debug_context: Any) -> None:
    """Raises for a `debug_context` (PyMJCF's debug mode), which this package has not."""
    if debug_context is not None:
        raise ValueError(
            "debug_context is PyMJCF's debug mode, which composer_tasks.mjcf does not "
            "have; compile errors name the element and the line that made it instead"
        )


def _unset_class_text(handle: Any, prefix_root: Any) -> str | None:
    """PyMJCF writes an element without a class in its model's top class ("/", or
    "child/" from the parent's scope), unless a body above it has a childclass
    (dm_control/mjcf/attribute.py, Reference._defaults_string)."""
    if not handle._has_class():
        return None
    body = handle.parent
    while getattr(body, "tag", None) == "body":
        if body._get("childclass") not in (None, "", "main"):
            return None
        body = body.parent
    return _scope_prefix(handle._scope, prefix_root) or "/"


def self_only_text(tag: str, attributes: Mapping[str, Any], scope: Any, has_children: bool) -> str:
    """PyMJCF's `str` of an element (`to_xml_string(self_only=True, pretty_print=False)`):
    the element alone with the attributes set on it, written as in MJCF text from its
    model's name scope, and "..." for what it holds (`<default class="big">...</default>`,
    `<quality shadowsize="1024"/>`). For the parts of a model that are not `Element`s
    here (default classes and their tags, sections, global settings, the model)."""
    tree = ElementTree.Element(tag)
    for name, value in attributes.items():
        text = _xml_text(value, scope, scope.namescope, XML_DEFAULT_PRECISION, 0)
        if text is not None:
            tree.set("class" if name == "dclass" else name, text)
    if has_children:
        tree.text = "..."
    return ElementTree.tostring(tree, encoding="unicode").replace(" />", "/>")


def _xml_tree(
    handle: Any,
    prefix_root: Any,
    precision: int,
    zero_threshold: float,
    with_hash: bool,
    files: dict[Any, str] | None = None,
) -> ElementTree.Element:
    """One element and those below it as PyMJCF writes them; `files` are the names
    of the model's asset files in MuJoCo's virtual file system (`parser.file_names`),
    found when first needed if not given."""
    from composer_tasks.mjcf import parser
    from composer_tasks.mjcf.assets import Asset

    tree = ElementTree.Element(handle.tag)
    names = list(handle.get_attributes())
    if handle._has_class() and "dclass" not in names:
        names.insert(1 if names[:1] == ["name"] else 0, "dclass")
    frame = handle.tag == "body" and handle._is_attachment_frame()
    if "name" in handle._attribute_table() and "name" not in names and not frame:
        # PyMJCF names an unnamed joint of an attachment frame last, after the frame.
        unnamed_frame_joint = handle._is_frame_joint() and not handle._own_name()
        names.insert(len(names) if unnamed_frame_joint else 0, "name")
    for name in names:
        value = handle._get(name)
        if isinstance(value, Asset):
            text: str | None = value.get_vfs_filename(with_hash)
        elif name == "file" and isinstance(value, str) and handle.tag in _FILE_TAGS:
            # A file is written by its name in MuJoCo's virtual file system, as PyMJCF
            # writes it (the text loads with `get_assets()`, from no folder).
            if files is None:
                files = parser.file_names(handle._scope._top(), with_hash)
            text = files.get(handle._mjs, value)
        else:
            text = handle.get_attribute_xml_string(
                name, prefix_root, precision=precision, zero_threshold=zero_threshold
            )
        if name == "name" and text is None:
            text = handle.full_identifier or None  # PyMJCF names an unnamed element
        if text is not None:
            tree.set("class" if name == "dclass" else name, text)
    if frame:  # named after the attached model, as PyMJCF writes it (last)
        tree.set("name", handle.prefixed_identifier(prefix_root))
    for child in handle.all_children():
        if handle.tag == "worldbody" and child._is_frame_joint():
            # An attached model's worldbody is its attachment frame, whose joints are
            # the parent model's (PyMJCF writes them in the frame, not here).
            continue
        if files is None and child.tag in _FILE_TAGS:
            files = parser.file_names(handle._scope._top(), with_hash)
        tree.append(_xml_tree(child, prefix_root, precision, zero_threshold, with_hash, files))
    return tree


def _is_name_or_reference(handle: Any, attribute_name: str) -> bool:
    """Whether a string attribute is a name: the element's own, its class, or a
    reference written by name (recorded as such) or read as one."""
    from composer_tasks.mjcf import attributes as attributes_module

    if attribute_name in ("name", "dclass", "class", "childclass"):
        return True
    record = handle._record()
    if record is not None and isinstance(record.get(attribute_name), str):
        return True
    attribute = handle._attribute_table().get(attribute_name)
    return isinstance(attribute, attributes_module.Reference)


def _resolve_own_references(handle: Any, names: Sequence[str] | None = None) -> None:
    """Drops the "read back the name" record of each reference of `handle` written by
    name whose element exists (of those in `names`, when given), so that it reads as
    the element."""
    from composer_tasks.mjcf.element import Element

    record = handle._record()
    if not record:
        return
    table = handle._attribute_table()
    for name, form in list(record.items()):
        if names is not None and name not in names:
            continue
        attribute = table.get(name)
        if isinstance(form, str) and attribute is not None:
            if isinstance(attribute.get(handle), Element):
                record[name] = None


def _same_value(mine: Any, theirs: Any) -> bool:
    from composer_tasks.mjcf.defaults import DefaultClass
    from composer_tasks.mjcf.element import Element

    references = (Element, DefaultClass)
    if isinstance(mine, references) or isinstance(theirs, references):
        name = mine.full_identifier if isinstance(mine, references) else mine
        other = theirs.full_identifier if isinstance(theirs, references) else theirs
        return name == other
    try:
        return bool(np.all(np.asarray(mine) == np.asarray(theirs)))
    except (TypeError, ValueError):
        return False


def _same_attributes(mine: dict, theirs: dict) -> bool:
    if set(mine) != set(theirs):
        return False
    return all(_same_value(value, theirs[name]) for name, value in mine.items())


def _same_children(mine: Any, theirs: Any) -> bool:
    if isinstance(mine, list) or isinstance(theirs, list):
        if not (isinstance(mine, list) and isinstance(theirs, list)):
            return False
        return len(mine) == len(theirs) and all(
            child.is_same_as(other) for child, other in zip(mine, theirs, strict=True)
        )
    if mine is None or theirs is None:
        return mine is None and theirs is None
    return mine.is_same_as(theirs)


def _check_position(parent: Any, element_name: str, position: int | None) -> list[Any]:
    """Refuses a `position` that MjSpec's append-only lists cannot give; returns the
    children `position` counts (none when it is None)."""
    if position is None:
        return []
    if not isinstance(position, (int, np.integer)) or isinstance(position, bool):
        raise TypeError(f"position must be an integer or None, got {type(position).__name__}")
    # A section's own elements: PyMJCF's positions count no attached model's.
    own = getattr(parent, "_own_children", None)
    children = own() if own is not None else parent.all_children()
    kind = _kind(element_name)
    if position < 0:
        position += len(children)
    later = [child for child in children[max(position, 0) :] if _kind(child.tag) == kind]
    if later:
        raise ValueError(
            f"cannot insert a <{element_name}> at position {position} of {parent!r}: "
            f"{later[0]!r} is of the same kind and comes after it, and MjSpec adds an "
            "element after those of its kind; insert at the end of them, or use add()"
        )
    return children


def _write_before(handle: Element, following: Element) -> None:
    """Moves the record of the just added `handle` before that of `following`, so the
    document order (`namescope.order`, which `all_children` and `find_all` follow) has
    it where `insert` put it; MjSpec's order is unchanged (it differs only between
    kinds, which the compiled model keeps apart)."""
    scope = handle._scope
    if following._scope is not scope:
        return
    records = scope._written
    key, anchor = handle._record_key(), following._record_key()
    if key not in records or anchor not in records:
        return
    moved = records.pop(key)
    items = list(records.items())
    place = {item: index for index, item in enumerate(records)}[anchor]
    records.clear()
    records.update(items[:place])
    records[key] = moved
    records.update(items[place:])
    scope._top()._order_cache = None


def _kind(tag: str) -> str:
    """The MjSpec list a tag's elements go in (joints and free joints share one)."""
    from composer_tasks.mjcf.element import NAMESPACES

    if tag == "freejoint":
        return "joint"
    if tag in ("pair", "exclude"):  # one namespace ("contact"), two MjSpec lists
        return tag
    return NAMESPACES.get(tag, tag)


class SectionMethods:
    """PyMJCF's generic element methods on a section of a model (`model.actuator`,
    `model.asset`, ...), mixed into `Section`."""

    __slots__ = ()

    def get_children(self: Any, element_name: str) -> list[Any]:
        """The section's elements with tag `element_name`, in order.

        Raises:
          AttributeError: the section cannot hold that tag.
        """
        return getattr(self, element_name)

    def find_all(
        self: Any,
        namespace: str,
        immediate_children_only: bool = False,
        exclude_attachments: bool = False,
    ) -> list[Element]:
        """The section's elements of kind `namespace` (none for a kind it does not
        hold), this model's then (unless excluded) the attached models', as
        `RootElement.find_all` lists them."""
        from composer_tasks.mjcf import element, namescope

        found = namescope.find_all(
            self._scope, namespace, immediate_children_only, exclude_attachments
        )
        return found if namespace in element._SECTION_NAMESPACES[self._section] else []

    def insert(self: Any, element_name: str, position: int | None, **kwargs: Any) -> Any:
        """Adds an element at `position` of `all_children()` (None: at the end); as
        `Element.insert`, not before an element of the same kind (MjSpec keeps
        actuators, sensors, ... each in one list)."""
        children = _check_position(self, element_name, position)
        handle = self.add(element_name, **kwargs)
        if position is not None and -len(children) <= position < len(children):
            _write_before(handle, children[position])
        return handle


class RootElementMethods:
    """PyMJCF's generic element methods on a model's root <mujoco> element (mixed
    into `RootElement`)."""

    __slots__ = ()

    @property
    def parent(self) -> None:
        """The root element has no parent element (also when attached: see
        `parent_model`)."""
        return None

    @property
    def is_removed(self: Any) -> bool:
        """False, as in PyMJCF, unless the model was detached: MuJoCo deletes a
        detached model's elements with its attachment, and its handles raise."""
        return self._detached

    def _check_root_child(self: Any, element_name: str) -> None:
        if element_name not in _ROOT_CHILDREN:
            raise AttributeError(f"<{element_name}> is not a valid child of <mujoco>")

    def add(self: Any, element_name: str, **kwargs: Any) -> Any:
        """Refuses, as PyMJCF does: every child of <mujoco> is a section that exists
        once (`model.worldbody`, `model.asset`, ...); add to the section instead.

        Raises:
          AttributeError: `element_name` is not a child of <mujoco>.
          ValueError: it is (the section already exists).
        """
        return self.insert(element_name, None, **kwargs)

    def insert(self: Any, element_name: str, position: int | None, **kwargs: Any) -> Any:
        """As `add`: the children of <mujoco> exist once, so nothing can be inserted."""
        self._check_root_child(element_name)
        raise ValueError(f"A <{element_name}> child already exists, please access it directly.")

    def get_children(self: Any, element_name: str) -> Any:
        """The section `element_name` of the model (`"worldbody"`, `"asset"`, ...).

        Raises:
          AttributeError: not a child of <mujoco>, or one of the sections this API
            does not have (extension).
        """
        self._check_root_child(element_name)
        if element_name not in _ROOT_SECTIONS_HERE:
            raise AttributeError(
                f"<{element_name}> is a section of <mujoco> that composer_tasks.mjcf does "
                "not have (its elements cannot be added through this API)"
            )
        return getattr(self, element_name)

    def all_children(self: Any) -> list[Any]:
        """The model's sections in MJCF's order."""
        if self._detached:
            self._check_attached_alive()
        return [getattr(self, tag) for tag in _ROOT_SECTIONS_HERE]

    def get_attributes(self: Any) -> collections.OrderedDict[str, Any]:
        """The attributes of <mujoco>: its `model` (an `OrderedDict`, as PyMJCF's): the
        model's name, or what `set_attributes(model=...)` or `include_copy` wrote."""
        return collections.OrderedDict(model=self._model_attribute or self.model)

    def set_attributes(self: Any, **kwargs: Any) -> None:
        """Sets attributes of <mujoco>; `model` is its only one. As in PyMJCF, this
        writes the XML attribute (`get_attributes`, the printed and written text) but
        does not rename the model (`model.model = ...` does)."""
        for name in kwargs:
            if name != "model":
                raise AttributeError(f"{name!r} is not a valid attribute for <mujoco>")
        if "model" in kwargs:
            value = kwargs["model"]
            if not isinstance(value, str):
                raise TypeError(f"model must be a string, got {type(value).__name__}")
            self._model_attribute = value

    def get_attribute_xml_string(
        self: Any,
        attribute_name: str,
        prefix_root: Any = None,
        *,
        precision: int = XML_DEFAULT_PRECISION,
        zero_threshold: float = 0,
    ) -> str | None:
        """An attribute of <mujoco> as MJCF text (`model`, its only one)."""
        if attribute_name != "model":
            raise AttributeError(f"{attribute_name!r} is not a valid attribute for <mujoco>")
        return self.get_attributes()["model"]

    def prefixed_identifier(self, prefix_root: Any) -> None:
        """None: <mujoco> has no name attribute (its `model` is its name scope's)."""
        return None

    def resolve_references(self: Any) -> None:
        """As `Element.resolve_references`, for every element of the model and of the
        models attached to it."""
        if self._detached:
            self._check_attached_alive()
        for scope in self._all_scopes():
            for tag in ("asset", "contact", "equality", "actuator", "sensor", "keyframe"):
                for element in getattr(scope, tag)._own_children():
                    _resolve_own_references(element)
        self.worldbody.resolve_references()

    def remove(self: Any, affect_attachments: bool = False) -> None:
        """Empties the model, as PyMJCF's `remove` of the root element: its bodies,
        section elements and nested default classes go, and its settings and top
        default class are unset (MuJoCo's defaults again); the model itself stays.

        Raises:
          ValueError: models are attached to this one and not `affect_attachments`.
            With it, they go with their attachment frames (detached: unusable after).
        """
        from composer_tasks.mjcf import removal

        removal.remove_model(self, affect_attachments)

    def __copy__(self: Any) -> Any:
        """A new, unattached model of the same name with a copy of this model's
        contents (`include_copy`), as PyMJCF's `copy.copy(model)`: the copy shares no
        element with this model, so it can be attached beside it (or to it)."""
        if self._detached:
            self._check_attached_alive()
        source = self._spec
        copied = type(self)(model=self.model)
        # Where its files are read from, and the files given with it, as the original's.
        for folder in ("modelfiledir", "meshdir", "texturedir"):
            setattr(copied._spec, folder, getattr(source, folder))
        copied._spec.assets = dict(source.assets)
        copied._allow_paths_outside_model_dir = self._top()._allow_paths_outside_model_dir
        copied.include_copy(self)
        return copied

    def __deepcopy__(self: Any, memo: Any) -> Any:
        """As `copy.copy` (PyMJCF's deep copy is its shallow one)."""
        return self.__copy__()

    def include_copy(self: Any, other: Any, override_attributes: bool = False) -> None:
        """Copies model `other`'s settings, default classes, bodies and section
        elements into this model (PyMJCF's `include_copy`); `other` is unchanged.

        Raises:
          ValueError: a setting both models set differs (unless
            `override_attributes`: then `other`'s wins, and its named elements
            replace the attributes of those of the same name here).
          NotImplementedError: `other` has models attached to it.
        """
        from composer_tasks.mjcf import copying

        copying.include_copy(self, other, override_attributes)

    def is_same_as(self: Any, other: Any) -> bool:
        """Whether `other` is a model with the same sections (settings, default
        classes, bodies and section elements), whatever the models' names."""
        from composer_tasks.mjcf.root import RootElement

        if not isinstance(other, RootElement):
            return False
        for tag in ("compiler", "option", "size", "statistic"):
            if not _same_attributes(
                getattr(self, tag).get_attributes(), getattr(other, tag).get_attributes()
            ):
                return False
        if not _same_defaults(self.default, other.default):
            return False
        if not self.worldbody.is_same_as(other.worldbody):
            return False
        for tag in ("asset", "contact", "equality", "actuator", "sensor", "keyframe"):
            mine = getattr(self, tag)._own_children()
            theirs = getattr(other, tag)._own_children()
            if not _same_sequence(mine, theirs):
                return False
        return True


def _same_sequence(mine: Sequence[Any], theirs: Sequence[Any]) -> bool:
    """PyMJCF compares a section's children kind by kind, in order."""
    tags = {child.tag for child in mine} | {child.tag for child in theirs}
    for tag in tags:
        first = [child for child in mine if child.tag == tag]
        second = [child for child in theirs if child.tag == tag]
        if not _same_children(first, second):
            return False
    return True


def _same_defaults(mine: Any, theirs: Any) -> bool:
    from composer_tasks.mjcf import defaults as defaults_module

    for tag in defaults_module._DEFAULT_TAGS:
        if not _same_attributes(
            getattr(mine, tag).get_attributes(), getattr(theirs, tag).get_attributes()
        ):
            return False
    from composer_tasks.mjcf.copying import nested_classes

    mine_children, their_children = nested_classes(mine), nested_classes(theirs)
    if len(mine_children) != len(their_children):
        return False
    return all(
        first.dclass == second.dclass and _same_defaults(first, second)
        for first, second in zip(mine_children, their_children, strict=True)
    )
