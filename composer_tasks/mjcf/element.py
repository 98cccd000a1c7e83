"""Element handles: PyMJCF's element API over the elements of a `mujoco.MjSpec`.

An `Element` holds a MuJoCo spec element (`mujoco.MjsBody`, `MjsGeom`, ...), the
tag it has in MJCF and the model (`RootElement`) it belongs to, and nothing else:
every attribute read or written goes to the spec element itself, so there is one
model, the MjSpec, and no copy to keep in sync.

Every edit made through a handle (`add`, setting an attribute, `remove`, `attach`)
calls `composer.mark_spec_changed()`, so that an edit inside an
`initialize_episode_mjcf` callback always recompiles the model, and counts as a
revision of the model: a `mjcf.Physics` compiled before the edit refuses to bind
or index by name until it is recompiled.

Attributes read back as they were written, as in PyMJCF: the model records, per
element, which attributes were set and how (`attributes.WrittenForm`), and a read
of one that was not set gives None, even where a default class gives the spec
element a value. An element made outside this API (MjSpec calls, or an MJCF file
whose attributes could not be matched) has no record and reads the spec's values.

A handle whose element was removed (`remove()`, or its model detached) raises
`RemovedElementError` on every use instead of touching freed memory.
"""

from __future__ import annotations

import collections

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Literal

import mujoco
import numpy as np

from composer_tasks.mjcf import attributes as attributes_module
from composer_tasks.mjcf import writer
from composer_tasks.mjcf import defaults as defaults_module
from composer_tasks.mjcf import element_list as element_list_module
from composer_tasks.mjcf.element_api import ElementMethods, SectionMethods
from composer_tasks.mjcf import namescope as namescope_module

if TYPE_CHECKING:
    from composer_tasks.mjcf.defaults import DefaultClass
    from composer_tasks.mjcf.root import RootElement

PREFIX_SEPARATOR = "/"


class RemovedElementError(ValueError):
    """A handle was used after its element was removed from the model (by `remove()`,
    or because its model was detached)."""


# Tags that may be added as children of a body (or of the worldbody, or of an
# attachment frame), and how each is created on the parent MjsBody: `(body, default)`,
# the default class (or None: the body's) passed positionally, which the bindings
# take in a third of the time a `default=` keyword costs them.
_BODY_CHILDREN: dict[str, Any] = {
    "body": mujoco.MjsBody.add_body,
    "geom": mujoco.MjsBody.add_geom,
    "site": mujoco.MjsBody.add_site,
    "joint": mujoco.MjsBody.add_joint,
    "freejoint": lambda body, default: body.add_freejoint(),
    "camera": mujoco.MjsBody.add_camera,
    "light": mujoco.MjsBody.add_light,
    "inertial": None,  # a view of the body's own inertial fields
}

_CHILD_TAGS = {
    "body": tuple(_BODY_CHILDREN),
    "worldbody": tuple(tag for tag in _BODY_CHILDREN if tag != "inertial"),
    # A tendon's path: MJCF's tag -> the internal tag of its table (attributes.py).
    "spatial": ("site", "geom", "pulley"),
    "fixed": ("joint",),
    "tuple": ("element",),
    "skin": ("bone",),
    "flex": ("contact", "edge", "elasticity"),
    "extension_plugin": ("instance",),
    "instance": ("config",),
    # A geom's or mesh's plugin (an SDF shape): MjSpec's element `plugin` struct.
    "geom": ("plugin",),
    "mesh": ("plugin",),
}

# The internal tags of a tendon's path elements, by MJCF tag, and the MJCF tag each
# internal tag shows (`Element.tag`).
_PATH_TAGS = {
    "site": "tendon_site",
    "geom": "tendon_geom",
    "pulley": "pulley",
    "joint": "tendon_joint",
}
_SHOWN_TAGS = {
    "equality_joint": "joint",
    "equality_tendon": "tendon",
    "tendon_site": "site",
    "tendon_geom": "geom",
    "tendon_joint": "joint",
    "tuple_element": "element",
    "extension_plugin": "plugin",
    "flex_contact": "contact",
    "flex_edge": "edge",
    "flex_elasticity": "elasticity",
    "element_plugin": "plugin",
}
# Children that exist once, with their parent (MJCF's non-repeated children): their
# handles share the parent's spec element, and their records are keyed apart. (An
# element's <plugin> may repeat in MJCF's schema, but MuJoCo gives a geom or mesh one.)
_SINGLETONS = ("inertial", "flex_contact", "flex_edge", "flex_elasticity", "element_plugin")
_TENDONS = ("spatial", "fixed")

# MjSpec neither tells a spatial tendon from a fixed one (that follows from its path)
# nor lists a tendon's path elements (`MjsWrap`s, which it cannot change or delete
# either): both are kept here, per spec element, for the tendons made or parsed
# through this API. Keyed by the spec elements, whose hashes are their addresses.
_TENDON_KINDS: dict[Any, str] = {}
_TENDON_PATHS: dict[Any, list[Any]] = {}
_PATH_TENDONS: dict[Any, Any] = {}
_WRAP_TAGS = {
    mujoco.mjtWrap.mjWRAP_SITE: "tendon_site",
    mujoco.mjtWrap.mjWRAP_SPHERE: "tendon_geom",
    mujoco.mjtWrap.mjWRAP_CYLINDER: "tendon_geom",
    mujoco.mjtWrap.mjWRAP_PULLEY: "pulley",
    mujoco.mjtWrap.mjWRAP_JOINT: "tendon_joint",
}


def remember_tendon(tendon: Any, kind: str, path_known: bool = True) -> None:
    """Records that spec tendon `tendon` is MJCF's `kind` ("spatial" or "fixed"), and,
    for one made through this API (`path_known`), that its path is what `add` adds."""
    _TENDON_KINDS[tendon] = kind
    if path_known:
        _TENDON_PATHS[tendon] = []


class ParsedWrap:
    """A path element of a tendon parsed from MJCF text, as the text wrote it: MjSpec
    does not list a tendon's wraps, so the parser keeps what they are (read-only, as
    every wrap is) in this stand-in, with the fields of an `MjsWrap`."""

    __slots__ = ("coef", "divisor", "sidesite", "target", "type")

    def __init__(self, xml_tag: str, attributes: dict[str, str]) -> None:
        self.type = {
            "site": mujoco.mjtWrap.mjWRAP_SITE,
            "geom": mujoco.mjtWrap.mjWRAP_SPHERE,  # (a sphere or a cylinder: a geom)
            "pulley": mujoco.mjtWrap.mjWRAP_PULLEY,
            "joint": mujoco.mjtWrap.mjWRAP_JOINT,
        }[xml_tag]
        self.target = attributes.get(xml_tag if xml_tag != "pulley" else "", "")
        self.sidesite = attributes.get("sidesite", "")
        # (MuJoCo's reader requires coef and divisor where they apply.)
        self.coef = float(attributes.get("coef", 0.0))
        self.divisor = float(attributes.get("divisor", 0.0))


def remember_parsed_path(tendon: Any, children: list[tuple[str, dict[str, str]]]) -> list[Any]:
    """Records the path of spec tendon `tendon` parsed from MJCF text: `children` are
    the (tag, attributes) of its path elements in order. Returns their stand-ins."""
    path = [ParsedWrap(tag, attributes) for tag, attributes in children]
    _TENDON_PATHS[tendon] = path
    for wrap in path:
        _PATH_TENDONS[wrap] = tendon
    return path


def path_is_known(tendon: Any) -> bool:
    """Whether this API lists spec tendon `tendon`'s path (it made the tendon)."""
    return tendon in _TENDON_PATHS


_ACTUATORS = ("motor", "position", "velocity", "cylinder", "general", "plugin")
_EQUALITIES = {
    "weld": mujoco.mjtEq.mjEQ_WELD,
    "connect": mujoco.mjtEq.mjEQ_CONNECT,
    "joint": mujoco.mjtEq.mjEQ_JOINT,
    "tendon": mujoco.mjtEq.mjEQ_TENDON,
}
# The internal tags of the equalities whose MJCF tag other sections use too.
_EQUALITY_TAGS = {"joint": "equality_joint", "tendon": "equality_tendon"}

# The sections of a model (`model.asset`, `model.actuator`, ...): the tags each may hold.
SECTIONS = {
    "asset": ("texture", "material", "mesh", "hfield"),
    "actuator": _ACTUATORS,
    "sensor": tuple(attributes_module.SENSORS),
    "contact": ("pair", "exclude"),
    "equality": tuple(_EQUALITIES),
    "keyframe": ("key",),
    "tendon": _TENDONS,
    "custom": ("numeric", "text", "tuple"),
    "deformable": ("skin", "flex"),
    "extension": ("plugin",),
}

# Namespace (the kind `find` looks for) of each tag.
NAMESPACES = {
    "body": "body",
    "geom": "geom",
    "site": "site",
    "joint": "joint",
    "freejoint": "joint",
    "camera": "camera",
    "light": "light",
    "texture": "texture",
    "material": "material",
    "mesh": "mesh",
    "hfield": "hfield",
    "pair": "contact",
    "exclude": "contact",
    "key": "key",
    "worldbody": "body",
    **{tag: "actuator" for tag in _ACTUATORS},
    **{tag: "sensor" for tag in attributes_module.SENSORS},
    **{tag: "equality" for tag in ("weld", "connect", "equality_joint", "equality_tendon")},
    "spatial": "tendon",
    "fixed": "tendon",
    "numeric": "numeric",
    "text": "text",
    "tuple": "tuple",
    # dm_control's namespace of the <deformable> section's elements.
    "skin": "deformable",
    "flex": "deformable",
    "instance": "plugin",
}


class Element(ElementMethods):
    """A handle on one element of an MJCF model (PyMJCF's `mjcf.Element`).

    Attributes are read and set by their MJCF names (`geom.size`, `joint.range =
    [-1, 1]`, `geom.dclass`); children are added with `add(tag, **attributes)`.
    Unknown tags and attributes raise `AttributeError` naming the element.

    Arrays read from a handle are read-only copies: assign the attribute to
    change it (`geom.pos = [0, 0, 1]`), since an in-place write
    (`geom.pos[2] = 1`) would not be seen as an edit.
    """

    __slots__ = ("_mjs", "_scope", "_tag")
    _mjs: Any
    _scope: RootElement
    _tag: str

    def __init__(self, mjs: Any, scope: RootElement, tag: str) -> None:
        # The slots' own setters: `__setattr__` routes public names to attributes.
        _SET_MJS(self, mjs)
        _SET_SCOPE(self, scope)
        _SET_TAG(self, tag)

    # Identity.

    @property
    def tag(self) -> str:
        """The MJCF tag (`"geom"`, `"motor"`, `"worldbody"`, ...)."""
        return _SHOWN_TAGS.get(self._tag, self._tag)

    @property
    def spec_element(self) -> Any:
        """The `mujoco.Mjs...` element this handle reads and writes."""
        if self._scope._removed:  # empty unless something was removed: no call
            self._check_alive()
        return self._mjs

    @property
    def is_removed(self) -> bool:
        """Whether the element was removed from its model (then every use raises)."""
        removed = self._scope._removed
        return bool(removed) and (self._mjs in removed or self._scope._detached)

    def _check_alive(self) -> None:
        removed = self._scope._removed
        if removed and (self._mjs in removed or self._scope._detached):
            what = (
                f"its model {self._scope.model!r} was detached"
                if self._scope._detached
                else "it was removed from the model"
            )
            raise RemovedElementError(
                f"this <{self.tag}> handle can no longer be used: {what} "
                f"(MuJoCo deleted the element)"
            )

    @property
    def spec_namespace(self) -> str:
        """The kind of element `find` looks for to find this one (`"actuator"` for a motor)."""
        return NAMESPACES.get(self._tag, self._tag)

    @property
    def root(self) -> "RootElement":
        """The model (`RootElement`) this element belongs to."""
        return self._scope

    @property
    def namescope(self) -> namescope_module.NameScope:
        return self._scope.namescope

    @property
    def parent(self) -> Element | Section | RootElement:
        """The enclosing element: a body, the worldbody or a section of the model."""
        if self._scope._removed:
            self._check_alive()
        if self._tag in _BODY_CHILDREN or self._tag == "inertial":
            body = self._mjs if self._tag == "inertial" else self._mjs.parent
            return self._scope._wrap_body(body)
        tendon = _PATH_TENDONS.get(self._mjs)
        if tendon is not None:
            return self._scope._wrap(tendon)
        if self._tag == "tuple_element":
            return self._scope._wrap(self._mjs.tuple)
        if self._tag == "bone":
            return self._scope._wrap(self._mjs.skin)
        if self._tag.startswith("flex_"):
            return self._scope._wrap(self._mjs)
        if self._tag == "instance":
            return self._scope._plugin_declaration(self._mjs.plugin_name)
        if self._tag == "config":
            return self._scope._wrap(self._mjs.plugin)
        for section, tags in SECTIONS.items():
            if self._tag in tags or (
                section == "equality" and self._tag in _EQUALITY_TAGS.values()
            ):
                return getattr(self._scope, section)
        return self._scope

    @property
    def name(self) -> str | None:
        """The element's name inside its own model (None when unnamed).

        An attachment frame has none (AttributeError, as in PyMJCF): its
        `full_identifier` is the attached model's prefix.
        """
        return self._own_name()

    def _own_name(self) -> str | None:
        # Not the property itself: an AttributeError raised in a property makes Python
        # try `__getattr__("name")`, which reads the name again.
        if self._scope._removed:
            self._check_alive()
        name = getattr(self._mjs, "name", "")
        if name.endswith(PREFIX_SEPARATOR) and self._tag == "body":
            raise AttributeError(
                f"an attachment frame has no name attribute; its full_identifier is {name!r}"
            )
        if name.endswith(PREFIX_SEPARATOR) and self._tag in ("joint", "freejoint"):
            # A joint of an attachment frame: "child/" or "child/name/" (see `add`).
            return name[len(self._mjs.parent.name) : -1] or None
        prefix = self._scope._full_prefix()
        own = name[len(prefix) :]
        # An element named only so that others can refer to it has no name of its own.
        return own if own and not own.startswith(attributes_module.UNNAMED_PREFIX) else None

    @property
    def full_identifier(self) -> str:
        """The element's name in the compiled model (`"creature/leg0/hip"`).

        An unnamed element has PyMJCF's name for it, `<model prefix or "/">/unnamed_
        <namespace>_<n>`, n its place among its model's elements of that kind in
        document order (`find_all`); the compiled model does not name it so.
        """
        if self._scope._removed:
            self._check_alive()
        name = getattr(self._mjs, "name", "")  # (a tendon's path element has none)
        if name and attributes_module.UNNAMED_PREFIX not in name:
            return name
        if (
            "name" not in self._attribute_table()
            or self._tag in ("worldbody", "body")
            and (self._mjs == self._scope._worldbody_spec())
        ):
            return name
        namespace = self.spec_namespace
        siblings = self._scope.find_all(namespace, exclude_attachments=True)
        index = next((i for i, sibling in enumerate(siblings) if sibling._mjs == self._mjs), 0)
        prefix = self._scope._full_prefix() or PREFIX_SEPARATOR
        return f"{prefix}{PREFIX_SEPARATOR}unnamed_{namespace}_{index}"

    def _path(self) -> str:
        """Where the element is, for error messages: model, tag and name."""
        name = getattr(self._mjs, "name", "")
        label = f"<{self.tag} name={name!r}>" if name else f"<{self.tag}> (unnamed)"
        return f"{label} of model {self._scope.model!r}"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Element) and other._mjs == self._mjs and other._tag == self._tag

    def __hash__(self) -> int:
        return hash(self._mjs)

    def __repr__(self) -> str:
        """PyMJCF's: "MJCF Element: " and the element's `str`."""
        if self.is_removed:
            return f"MJCF Element: <{self.tag}> (removed)"
        return "MJCF Element: " + str(self)

    def __str__(self) -> str:
        """The element alone as MJCF text, its children as "..." (PyMJCF's `str`:
        `<body>...</body>`, `<joint class="/" type="hinge"/>`)."""
        if self.is_removed:
            return repr(self)
        return self.to_xml_string(self_only=True, pretty_print=False)

    # Attributes.

    def _attribute(self, name: str) -> attributes_module.Attribute | Literal["dclass"] | None:
        table = self._attribute_table()
        if name == "class":
            name = "dclass"
        if name == "dclass" and self._has_class():
            return "dclass"
        if name in table:
            return table[name]
        raise AttributeError(
            f"{name!r} is not a valid attribute for <{self.tag}> ({self._path()}); "
            f"valid attributes: {sorted(self._attribute_names())}"
        )

    def _attribute_table(self) -> dict[str, attributes_module.Attribute | None]:
        return attributes_module.ELEMENT_ATTRIBUTES.get(self._tag, {})

    def _attribute_names(self) -> set[str]:
        names = set(self._attribute_table())
        if self._has_class():
            names.add("dclass")
        return names

    def _has_class(self) -> bool:
        # A body has `childclass` in MJCF, not `class` (MjSpec gives it a classname).
        return (
            hasattr(self._mjs, "classname") or self._tag in _TENDONS
        ) and self._tag not in _CLASSLESS

    def _record_key(self) -> Any:
        """The key of this element's record of written attributes in its model."""
        return (self._mjs, self._tag) if self._tag in _SINGLETONS else self._mjs

    def _record(self) -> dict[str, attributes_module.WrittenForm] | None:
        scope = self._scope
        # `_written` without its property's call when no parsed text is pending.
        records = scope._records if scope._pending_text is None else scope._written
        return records.get((self._mjs, self._tag) if self._tag in _SINGLETONS else self._mjs)

    def get_attributes(self) -> collections.OrderedDict[str, Any]:
        """The attributes set on this element (not those its default class gives), by
        MJCF name in PyMJCF's order (an `OrderedDict`, as PyMJCF's `get_attributes`)."""
        if self._scope._removed:
            self._check_alive()
        record = self._record()
        values: collections.OrderedDict[str, Any] = collections.OrderedDict()
        # PyMJCF's order starts with the name and the class.
        if "name" in self._attribute_table() and not self._mjs.name.endswith(PREFIX_SEPARATOR):
            name = self._own_name()  # (an attachment frame has no name attribute)
            if name is not None:
                values["name"] = name
        if self._has_class():
            dclass = self._get("dclass")
            if dclass is not None:
                values["dclass"] = dclass
        table = self._attribute_table()
        for name in attributes_module.in_pymjcf_order(self._tag, list(table)):
            if name != "name" and (record is None or name in record):
                value = self._get(name)
                if value is not None:
                    values[name] = value
        return values

    def set_attributes(self, **attributes: Any) -> None:
        """Sets several attributes: all or, when one of them fails, none."""
        if self._scope._removed:
            self._check_alive()
        for name in attributes:
            self._attribute(name)
        restores: list[Callable[[], None]] = []
        record = self._record()
        saved_record = None if record is None else dict(record)
        last = len(attributes) - 1
        try:
            for index, (name, value) in enumerate(attributes.items()):
                attribute = self._attribute(name)
                if index < last:  # the last one fails without writing anything
                    if isinstance(attribute, attributes_module.Attribute):
                        restores.append(attribute.snapshot(self))
                    elif attribute is None:
                        restores.append(_name_restorer(self._mjs))
                self._set(name, value)
        except BaseException:
            for restore in reversed(restores):
                restore()
            if record is not None and saved_record is not None:
                record.clear()
                record.update(saved_record)
            raise

    def _get(self, name: str) -> Any:
        if self._scope._removed:
            self._check_alive()
        attribute = self._attribute(name)
        if attribute == "dclass":
            record = self._record()
            if record is not None and "dclass" not in record:
                return None  # the class a body's childclass gives is not set on it
            if record is not None and record["dclass"] == attributes_module.CLASS_HANDLE_FORM:
                return defaults_module.DefaultClass(
                    attributes_module.class_of(self._mjs), self._scope
                )
            classname = attributes_module.class_of(self._mjs).name
            prefix = self._scope._full_prefix()
            if classname in ("main", prefix + "main"):
                return None
            return classname[len(prefix) :]
        if attribute is None:
            return self._own_name()
        record = self._record()
        if record is None:
            return attribute.get(self)
        if name not in record:
            return None
        if record[name] == attributes_module.CLASS_HANDLE_FORM:  # childclass=<class handle>
            return defaults_module.DefaultClass(
                self._scope._top_spec().find_default(self._mjs.childclass), self._scope
            )
        return attributes_module.as_written(attribute.get(self), record[name])

    def _set(self, name: str, value: Any) -> None:
        if self._scope._removed:
            self._check_alive()
        attribute = self._attribute(name)
        try:
            if attribute == "dclass":
                raise ValueError(
                    "the default class of an element is fixed when it is added: MjSpec "
                    "applies a class's defaults once, at creation; pass dclass= to add()"
                )
            if attribute is None:
                self._set_name(value)
                form: attributes_module.WrittenForm = None
            elif value is None:
                _clear(self, name, attribute)
            else:
                form = attribute.set(self, value)
        except Exception as error:
            raise attributes_module.with_context(
                error, f"during assignment to attribute {name!r} of {self._path()}"
            ) from error
        record = self._record()
        if record is not None:
            if value is None:
                record.pop(name, None)
            else:
                record[name] = form
        self._scope._edited()

    def _set_name(self, value: str | None, check_unique: bool = True) -> None:
        """Names the element; a name another element of its kind has raises at once when
        renaming, and when adding, at compile time (MuJoCo's "repeated name"), which
        spares a search of the model per added element."""
        if value is None:
            self._mjs.name = ""
            return
        if not isinstance(value, str):
            raise TypeError(f"a name must be a string, got {type(value).__name__}")
        if PREFIX_SEPARATOR in value:
            raise ValueError(f"a name cannot contain {PREFIX_SEPARATOR!r}, got {value!r}")
        if value == "world" and self._tag == "body":
            raise ValueError("a body cannot be named 'world': MuJoCo's name for the worldbody")
        full_name = self._scope._prefix_in_top + value
        if check_unique:
            existing = self._scope._lookup(self.spec_namespace, full_name)
            if existing is not None and existing != self._mjs:
                raise ValueError(
                    f"model {self._scope.model!r} already has a <{self.spec_namespace}> "
                    f"named {value!r}"
                )
        self._mjs.name = full_name

    def _childclass(self) -> str | None:
        name = self._mjs.childclass
        prefix = self._scope._full_prefix()
        return name[len(prefix) :] if name else None

    def _set_childclass(self, value: Any) -> attributes_module.WrittenForm:
        """Sets the class this body's children take: a class name or a class handle
        (which then reads back as given, as in PyMJCF)."""
        if value is None:
            self._mjs.childclass = ""
            return None
        # Raises for a class the model does not have (or a handle of another model's).
        found = self._scope._find_default(value)
        self._mjs.childclass = found.name
        if isinstance(value, defaults_module.DefaultClass):
            return attributes_module.CLASS_HANDLE_FORM
        return None

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        if self._scope._removed:
            self._check_alive()
        if name in self._child_tags():
            children = self._children_with_tag(name)
            if isinstance(children, list):
                return element_list_module.ElementList(name, self, children)
            return children
        return self._get(name)

    def __setattr__(self, name: str, value: Any) -> None:
        if name.startswith("_"):
            object.__setattr__(self, name, value)
            return
        self._set(name, value)

    def __dir__(self) -> list[str]:
        return sorted(set(super().__dir__()) | self._attribute_names() | set(self._child_tags()))

    # Children.

    def _child_tags(self) -> tuple[str, ...]:
        return _CHILD_TAGS.get(self._tag, ())

    def _children_with_tag(self, tag: str) -> Element | list[Element] | None:
        if self._tag in _TENDONS:
            internal = _PATH_TAGS[tag]
            return [child for child in self._path_elements() if child._tag == internal]
        if self._tag == "tuple":
            return self._tuple_entries()
        if self._tag == "skin":
            return self._bones()
        if self._tag == "extension_plugin":
            return self._instances()
        if self._tag == "instance":
            return self._configs()
        if self._tag == "flex":
            return new_handle(self._mjs, self._scope, "flex_" + tag)
        if self._tag in ("geom", "mesh"):  # its <plugin>: none or one
            active = self._mjs.plugin.active
            return [new_handle(self._mjs, self._scope, "element_plugin")] if active else []
        body = self._mjs
        if tag == "inertial":
            return Element(body, self._scope, "inertial") if body.explicitinertial else None
        kind = {
            "body": "bodies",
            "geom": "geoms",
            "site": "sites",
            "joint": "joints",
            "freejoint": "joints",
            "camera": "cameras",
            "light": "lights",
        }[tag]
        children = []
        for child in getattr(body, kind):
            handle = self._scope._wrap(child)
            if handle.tag == tag:
                children.append(handle)
        if tag == "freejoint":  # one at most, read as the element (or None), as PyMJCF's
            return children[0] if children else None
        return children

    def add(self, tag: str, **attributes: Any) -> "Element":
        """Adds a child element with MJCF attributes (`body.add("geom", type="capsule",
        size=[0.05], fromto=[0, 0, 0, 0.2, 0, 0], dclass="leg")`).

        Raises:
          AttributeError: `tag` is not a child this element can have, or an attribute
            is not one of the tag's.
          ValueError, TypeError: an attribute's value, or `dclass`, is invalid.
          RemovedElementError: this element was removed from its model.

        A failed `add` leaves the model as it was.
        """
        if self._scope._removed:
            self._check_alive()
        if tag not in _CHILD_TAGS.get(self._tag, ()):
            raise AttributeError(
                f"<{tag}> is not a valid child of <{self.tag}> ({self._path()}); "
                f"valid children: {sorted(self._child_tags())}"
            )
        if self._tag in _TENDONS:
            return self._add_to_path(_PATH_TAGS[tag], attributes)
        if self._tag == "tuple":
            return self._add_tuple_entry(attributes)
        if self._tag == "skin":
            return self._add_bone(attributes)
        if self._tag == "flex":
            raise ValueError(
                f"A <{tag}> child already exists in {self._path()}, please access it directly."
            )
        if self._tag == "extension_plugin":
            return self._scope._create(
                "instance",
                attributes,
                _plugin_instance_adder(self._mjs.name),
                self._scope._top_scope._spec,
                self,
            )
        if self._tag == "instance":
            return self._add_config(attributes)
        if tag == "freejoint":
            if self._is_attachment_frame() and self._mjs.parent.name != "world":
                # PyMJCF: only a frame at the worldbody may move freely.
                raise AttributeError(
                    f"<freejoint> is not a valid child of {self._path()}: an attachment "
                    "frame can have a free joint only when attached at the worldbody"
                )
            if self._children_with_tag("freejoint") is not None:
                raise ValueError(
                    f"A <freejoint> child already exists in {self._path()}, please access "
                    "it directly."
                )
        if tag == "inertial":
            if self._mjs.explicitinertial:
                raise ValueError(f"{self._path()} already has an <inertial>; access it directly")
            handle = Element(self._mjs, self._scope, "inertial")
            for name in attributes:
                handle._attribute(name)
            self._mjs.explicitinertial = True
            self._scope._written[handle._record_key()] = {}
            try:
                handle.set_attributes(**attributes)
            except BaseException:
                self._mjs.explicitinertial = False
                del self._scope._written[handle._record_key()]
                raise
            return handle
        if self._tag in ("geom", "mesh"):
            return self._add_element_plugin(attributes)
        handle = self._scope._create(tag, attributes, _BODY_CHILDREN[tag], self._mjs, self)
        if tag in ("joint", "freejoint") and self._is_attachment_frame():
            # PyMJCF names a joint of an attachment frame after the frame ("child/"),
            # a named one "child/name/" (dm_control/mjcf/element.py,
            # _AttachmentFrameChild).
            given = attributes.get("name")
            name = self._mjs.name + (given + PREFIX_SEPARATOR if given else "")
            if self._scope._lookup("joint", name) is not None:  # a second unnamed joint
                delete(self._scope._top_spec(), handle._mjs, fresh=True)
                raise ValueError(
                    f"the attachment frame {self._mjs.name!r} already has a joint named "
                    f"{name!r}; name the joint"
                )
            handle._mjs.name = name
        return handle

    def _add_to_path(self, tag: str, attributes: dict[str, Any]) -> "Element":
        """Adds a path element (MjSpec's wrap) of internal tag `tag` to this tendon.

        MjSpec takes a wrap's target and parameter when it makes it and never changes
        them, so they are given here: `site` (a <site>); `geom`, and optionally
        `sidesite`; `divisor` (a <pulley>); `joint` and `coef` (a fixed tendon's).
        """
        table = attributes_module.ELEMENT_ATTRIBUTES[tag]
        for name in attributes:
            if name not in table:
                raise AttributeError(
                    f"{name!r} is not a valid attribute for <{_SHOWN_TAGS.get(tag, tag)}> "
                    f"(adding to {self._path()}); valid attributes: {sorted(table)}"
                )
        # What MuJoCo's MJCF reader requires (dm_control's model then fails to compile
        # without it; here the add fails, since MjSpec fixes a wrap when it makes it).
        required = {
            "tendon_site": ("site",),
            "tendon_geom": ("geom",),
            "pulley": ("divisor",),
            "tendon_joint": ("joint", "coef"),
        }[tag]
        missing = [name for name in required if attributes.get(name) is None]
        if missing:
            raise ValueError(
                f"a <{_SHOWN_TAGS.get(tag, tag)}> of a tendon needs {', '.join(missing)} when "
                f"it is added (adding to {self._path()}): MuJoCo requires it, and MjSpec fixes "
                "a tendon's path elements at creation"
            )
        written: dict[str, Any] = {}
        values: dict[str, Any] = {"sidesite": ""}
        try:
            for name, value in attributes.items():
                attribute = table[name]
                assert isinstance(attribute, attributes_module.WrapValue)
                if value is None:
                    continue
                if attribute.namespace is None:
                    values[name] = attributes_module.Number(name).convert(self, value)
                    written[name] = None
                else:
                    values[name] = attributes_module.reference_name(
                        self, value, attribute.namespace
                    )
                    written[name] = value if type(value) is str else None
        except Exception as error:
            raise attributes_module.with_context(
                error, f"during initialization of <{_SHOWN_TAGS.get(tag, tag)}> of {self._path()}"
            ) from error
        tendon = self._mjs
        if tag == "tendon_site":
            wrap = tendon.wrap_site(values["site"])
        elif tag == "tendon_geom":
            wrap = tendon.wrap_geom(values["geom"], values["sidesite"])
        elif tag == "pulley":
            wrap = tendon.wrap_pulley(values["divisor"])
        else:
            wrap = tendon.wrap_joint(values["joint"], values["coef"])
        _TENDON_PATHS.setdefault(tendon, []).append(wrap)  # (known: made by `add` from now)
        _PATH_TENDONS[wrap] = tendon
        scope = self._scope
        (scope._records if scope._pending_text is None else scope._written)[wrap] = written
        scope._edited()
        return new_handle(wrap, scope, tag)

    def _add_tuple_entry(self, attributes: dict[str, Any]) -> "Element":
        """Adds an <element> to this custom tuple: one more entry of its lists."""
        table = attributes_module.ELEMENT_ATTRIBUTES["tuple_element"]
        for name in attributes:
            if name not in table:
                raise AttributeError(
                    f"{name!r} is not a valid attribute for <element> (adding to "
                    f"{self._path()}); valid attributes: {sorted(table)}"
                )
        tuple_ = self._mjs
        index = len(list(tuple_.objtype))
        tuple_.objtype = [*tuple_.objtype, int(mujoco.mjtObj.mjOBJ_UNKNOWN)]
        tuple_.objname = [*tuple_.objname, ""]
        tuple_.objprm = [*tuple_.objprm, 0.0]
        handle = new_handle(
            attributes_module.TupleEntry(tuple_, index), self._scope, "tuple_element"
        )
        scope = self._scope
        records = scope._records if scope._pending_text is None else scope._written
        records[handle._mjs] = {}
        try:
            # The type first: it says where the name is looked up.
            for name in sorted(attributes, key=lambda name: name != "objtype"):
                if attributes[name] is not None:
                    handle._set(name, attributes[name])
        except BaseException:
            tuple_.objtype = list(tuple_.objtype)[:index]
            tuple_.objname = list(tuple_.objname)[:index]
            tuple_.objprm = list(tuple_.objprm)[:index]
            del records[handle._mjs]
            raise
        return handle

    def _add_bone(self, attributes: dict[str, Any]) -> "Element":
        """Adds a <bone> to this skin: one more entry of its bone lists."""
        table = attributes_module.ELEMENT_ATTRIBUTES["bone"]
        for name in attributes:
            if name not in table:
                raise AttributeError(
                    f"{name!r} is not a valid attribute for <bone> (adding to "
                    f"{self._path()}); valid attributes: {sorted(table)}"
                )
        skin = self._mjs
        saved = {field: list(getattr(skin, field)) for field in _BONE_FIELDS}
        index = len(saved["bodyname"])
        # MuJoCo's defaults for what is not given: no offset, no turn, no vertices.
        skin.bodyname = [*saved["bodyname"], ""]
        skin.bindpos = [*saved["bindpos"], 0.0, 0.0, 0.0]
        skin.bindquat = [*saved["bindquat"], 1.0, 0.0, 0.0, 0.0]
        skin.vertid = [*saved["vertid"], []]
        skin.vertweight = [*saved["vertweight"], []]
        handle = new_handle(attributes_module.BoneEntry(skin, index), self._scope, "bone")
        scope = self._scope
        records = scope._records if scope._pending_text is None else scope._written
        records[handle._mjs] = {}
        try:
            for name, value in attributes.items():
                if value is not None:
                    handle._set(name, value)
        except BaseException:
            for field, values in saved.items():
                setattr(skin, field, values)
            del records[handle._mjs]
            raise
        return handle

    def _add_element_plugin(self, attributes: dict[str, Any]) -> "Element":
        """Adds the <plugin> of this geom or mesh: the plugin (`plugin=`) or declared
        instance (`instance=`) that computes its shape."""
        if self._mjs.plugin.active:
            raise ValueError(
                f"{self._path()} already has a <plugin>: a MuJoCo {self.tag} takes one"
            )
        handle = new_handle(self._mjs, self._scope, "element_plugin")
        for name in attributes:
            handle._attribute(name)
        saved = (self._mjs.plugin.plugin_name, self._mjs.plugin.name)
        self._scope._written[handle._record_key()] = {}
        try:
            handle.set_attributes(**attributes)
            self._mjs.plugin.active = True
        except BaseException:
            self._mjs.plugin.plugin_name, self._mjs.plugin.name = saved
            del self._scope._written[handle._record_key()]
            raise
        self._scope._edited()
        return handle

    def _add_config(self, attributes: dict[str, Any]) -> "Element":
        """Adds a <config key= value=> entry to this plugin instance."""
        table = attributes_module.ELEMENT_ATTRIBUTES["config"]
        for name in attributes:
            if name not in table:
                raise AttributeError(
                    f"{name!r} is not a valid attribute for <config> (adding to "
                    f"{self._path()}); valid attributes: {sorted(table)}"
                )
        key, value = attributes.get("key"), attributes.get("value", "")
        if not isinstance(key, str) or not key:
            raise ValueError(f"a <config> needs key= (a string) when it is added to {self._path()}")
        if not isinstance(value, str):
            raise TypeError(f"a <config>'s value must be a string, got {type(value).__name__}")
        if key in self._mjs.config:
            raise ValueError(f"{self._path()} already has a <config> with key {key!r}")
        self._mjs.config = {**self._mjs.config, key: value}
        _CONFIG_ORDER.setdefault(self._mjs, []).append(key)
        entry = attributes_module.ConfigEntry(self._mjs, key)
        scope = self._scope
        records = scope._records if scope._pending_text is None else scope._written
        records[entry] = {name: None for name in attributes}
        scope._edited()
        return new_handle(entry, scope, "config")

    def _configs(self) -> list[Element]:
        """This plugin instance's <config>s, in the order added (else by key)."""
        keys = list(self._mjs.config)
        order = [key for key in _CONFIG_ORDER.get(self._mjs, ()) if key in keys]
        order += [key for key in keys if key not in order]
        return [
            new_handle(attributes_module.ConfigEntry(self._mjs, key), self._scope, "config")
            for key in order
        ]

    def _instances(self) -> list[Element]:
        """This declared plugin's instances in its model."""
        found = self._scope.find_all("plugin", exclude_attachments=True)
        return [handle for handle in found if handle._mjs.plugin_name == self._mjs.name]

    def _bones(self) -> list[Element]:
        """This skin's <bone>s, in order."""
        return [
            new_handle(attributes_module.BoneEntry(self._mjs, index), self._scope, "bone")
            for index in range(len(list(self._mjs.bodyname)))
        ]

    def _tuple_entries(self) -> list[Element]:
        """This custom tuple's <element>s, in order."""
        count = len(list(self._mjs.objtype))
        return [
            new_handle(attributes_module.TupleEntry(self._mjs, index), self._scope, "tuple_element")
            for index in range(count)
        ]

    def _path_elements(self) -> list[Element]:
        """This tendon's path elements, in the order they were added."""
        if self._mjs not in _TENDON_PATHS:
            raise NotImplementedError(
                f"the path of {self._path()} is not known: MjSpec does not list a tendon's "
                "path elements, and this tendon was made outside this API (or parsed from "
                "text this API could not match element by element)"
            )
        return [
            new_handle(wrap, self._scope, _WRAP_TAGS[wrap.type])
            for wrap in _TENDON_PATHS.get(self._mjs, ())
        ]

    def _is_attachment_frame(self) -> bool:
        return (
            self._tag == "body"
            and self._mjs.name.endswith(PREFIX_SEPARATOR)
            and any(child._attachment_body == self._mjs for child in self._scope._child_scopes)
        )

    def find(self, namespace: str, identifier: str) -> Element | DefaultClass | None:
        """The element of kind `namespace` named `identifier` below this element, or None.

        `identifier` is relative to this element's model; names of attached models
        go through their prefix (`"leg0/hip"`).
        """
        if self._scope._removed:
            self._check_alive()
        return namescope_module.find(self, namespace, identifier)

    def find_all(
        self,
        namespace: str,
        immediate_children_only: bool = False,
        exclude_attachments: bool = False,
    ) -> list[Element]:
        """Every element of kind `namespace` below this element, in model order."""
        if self._scope._removed:
            self._check_alive()
        return namescope_module.find_all(
            self, namespace, immediate_children_only, exclude_attachments
        )

    def remove(self, affect_attachments: bool = False) -> None:
        """Deletes this element (and its children) from the model; handles to any of
        them raise `RemovedElementError` after.

        As in PyMJCF, an element with models attached below it (an attachment frame,
        or a body holding one) is removed only with `affect_attachments=True`, and
        then the attached models go too (detached, with their actuators, sensors,
        ...); without it, ValueError."""
        if self._scope._removed:
            self._check_alive()
        if self._tag in ("worldbody", "inertial"):
            raise ValueError(f"{self._path()} cannot be removed")
        if self._tag in _SINGLETONS:
            raise ValueError(f"{self._path()} cannot be removed (it exists with its parent)")
        if self._tag == "config":
            self._mjs.plugin.config = {
                key: value for key, value in self._mjs.plugin.config.items() if key != self._mjs.key
            }
            self._scope._edited()
            return
        if self._tag == "extension_plugin":
            raise ValueError(
                f"{self._path()} cannot be removed: MjSpec cannot deactivate a plugin; "
                "remove its instances instead"
            )
        if self._tag == "bone":
            raise ValueError(
                f"{self._path()} cannot be removed from its skin (its bones would "
                "renumber); remove the skin and add it again"
            )
        if self._tag == "tuple_element":
            raise ValueError(
                f"{self._path()} cannot be removed from its tuple (its entries would "
                "renumber); remove the tuple and add it again"
            )
        if self._mjs in _PATH_TENDONS:
            raise ValueError(
                f"{self._path()} cannot be removed from its tendon: MjSpec cannot delete a "
                "tendon's path element; remove the tendon and add it again"
            )
        from composer_tasks.mjcf import attachment

        scope = self._scope
        top = scope._top()
        for model in top._all_scopes():
            model._written  # noqa: B018  (records from a pending parsed text, before the edit)
        if isinstance(self._mjs, mujoco.MjsBody):
            inside = {id(body) for body in self._mjs.find_all(mujoco.mjtObj.mjOBJ_BODY)}
            inside.add(id(self._mjs))
            attached = [
                child
                for child in top._all_scopes()
                if child._parent_scope is not None
                and not child._detached
                and id(child._attachment_body) in inside
            ]
            if attached and not affect_attachments:
                # PyMJCF's message (dm_control/mjcf/element.py).
                raise ValueError(
                    "please use remove(affect_attachments=True) as this will affect some "
                    "attributes and/or children belonging to an attached model"
                )
            for child in attached:
                attachment.detach(child)
            if self.is_removed:  # an attachment frame: detaching its model deleted it
                return
        gone = delete(top._spec, self._mjs)
        mark_removed(top, gone)
        scope._edited()

    def attach(self, child_model: RootElement) -> "Element":
        """Attaches `child_model` (a `RootElement`) at this site or the worldbody.

        Returns the attachment frame: a body named `child_model.model + "/"` at the
        site's pose that holds the child's bodies; add a joint to it
        (`frame.add("freejoint")`) to let the child move.
        """
        from composer_tasks.mjcf import attachment

        if self._scope._removed:
            self._check_alive()
        if self._tag not in ("site", "worldbody", "body"):
            raise AttributeError(f"{self._path()} cannot attach models: attach at a site")
        return attachment.attach(self, child_model)


# Tags without a `class` attribute.
_CLASSLESS = ("freejoint", "body", "worldbody", "inertial")

# The collections of an MjSpec, all its elements together (for `remove`).
_SPEC_COLLECTIONS = tuple(
    name
    for name in (
        "bodies", "geoms", "sites", "joints", "cameras", "lights", "frames", "actuators",
        "sensors", "equalities", "excludes", "pairs", "tendons", "keys", "materials",
        "textures", "meshes", "hfields", "skins", "texts", "numerics", "tuples", "flexes",
    )
    if hasattr(mujoco.MjSpec, name)
)  # fmt: skip


# The names elements are given just before they are deleted (see `delete`).
_DELETED_PREFIX = "composer_tasks.mjcf:deleted:"

# The fields of a keyframe, which MuJoCo checks against the model's sizes when it
# deletes an element.
_KEY_FIELDS = ("qpos", "qvel", "act", "ctrl", "mpos", "mquat")


def delete(spec: Any, mjs: Any, keep_referrers: bool = True, fresh: bool = False) -> list[Any]:
    """Deletes `mjs` (and what it holds) from `spec`; returns every element that went
    (to mark their handles removed). `mjs` may be a list of elements, none inside
    another, deleted together (the model's elements are listed once, not per element).

    MuJoCo also deletes every element that refers to a deleted one by name (an
    actuator of a deleted joint; with an unnamed element, whatever refers to no name).
    With `keep_referrers` (removing an element, undoing a failed add) that silent loss
    is avoided: the deleted elements are first given names nothing refers to, and
    references to their old names fail when compiling, naming them, as in PyMJCF.
    Without (detaching a model), the attached model's actuators, sensors, ... go with
    its bodies, which is how MuJoCo removes them. A `fresh` element (one just added,
    with nothing in it) is deleted without listing the model's elements, which MuJoCo
    may refuse (below, and for names it finds twice through attached models). Keyframes are set aside meanwhile and put back as they were: MuJoCo
    refuses to list or delete elements while a keyframe has the wrong sizes (which a
    model being built may well have), and PyMJCF keeps keyframes as written.
    """
    saved = [(key, [np.array(getattr(key, field)) for field in _KEY_FIELDS]) for key in spec.keys]
    for key, _ in saved:
        for field in _KEY_FIELDS:
            setattr(key, field, [])
    try:
        if fresh:
            if hasattr(mjs, "name"):  # unnamed too: MuJoCo matches references to no name
                mjs.name = f"{_DELETED_PREFIX}{id(mjs)}"
            spec.delete(mjs)
            return [mjs]
        targets = mjs if isinstance(mjs, list) else [mjs]
        doomed = list(targets)
        for target in targets:
            if isinstance(target, mujoco.MjsBody):
                from composer_tasks.mjcf import namescope

                for collection in ("bodies", "geoms", "sites", "joints", "cameras", "lights"):
                    doomed.extend(namescope.below(target, collection))
        before = _all_elements(spec)
        for number, element in enumerate(doomed if keep_referrers else ()):
            if hasattr(element, "name"):
                element.name = f"{_DELETED_PREFIX}{id(targets[0])}_{number}"
        for target in targets:
            spec.delete(target)
        remaining = {id(element) for element in _all_elements(spec)}
    finally:
        for key, values in saved:
            if key is not mjs:
                for field, value in zip(_KEY_FIELDS, values, strict=True):
                    setattr(key, field, value.tolist())
    return [element for element in before if id(element) not in remaining]


# Tags whose elements `remove_together` deletes in one pass: leaves of the tree and
# assets, which hold no attached model and need none of `remove`'s special cases.
_BULK_REMOVABLE = frozenset(
    ("geom", "site", "camera", "light", "material", "texture", "mesh", "hfield")
)


def remove_together(handles: Sequence["Element"]) -> None:
    """`handle.remove()` of every one of `handles`, with the model's elements listed
    once for all instead of twice per element (what removing hundreds of geoms in a
    maze's `regenerate` costs). Elements of other kinds, or of several models
    trees, are removed one by one."""
    handles = [handle for handle in handles if not handle.is_removed]
    tops = {id(handle._scope._top()) for handle in handles}
    if len(tops) != 1 or any(handle._tag not in _BULK_REMOVABLE for handle in handles):
        for handle in handles:
            handle.remove()
        return
    top = handles[0]._scope._top()
    for model in top._all_scopes():
        model._written  # noqa: B018  (records from a pending parsed text, before the edit)
    gone = delete(top._spec, [handle._mjs for handle in handles])
    mark_removed(top, gone)
    for scope in {id(handle._scope): handle._scope for handle in handles}.values():
        scope._edited()


def mark_removed(top: RootElement, gone: list[Any]) -> None:
    """Marks the spec elements `gone` removed in every model of the tree under `top`
    (a handle checks the model it belongs to), and drops their records."""
    for model in top._all_scopes():
        model._removed.update(gone)
        records = model._written
        for mjs in gone:
            records.pop(mjs, None)
            records.pop((mjs, "inertial"), None)


def _all_elements(spec: Any) -> list[Any]:
    elements = []
    for collection in _SPEC_COLLECTIONS:
        elements.extend(getattr(spec, collection))
    return elements


def _name_restorer(mjs: Any) -> Callable[[], None]:
    name = mjs.name

    def restore() -> None:
        mjs.name = name

    return restore


def _clear(handle: Element, name: str, attribute: attributes_module.Attribute | str) -> None:
    """Clears an attribute (`element.attr = None`, as in PyMJCF): the element takes its
    default class's value again (MuJoCo's default where it has no class)."""
    if not isinstance(attribute, attributes_module.Attribute) or isinstance(
        attribute, attributes_module.Custom
    ):
        raise ValueError(f"{name!r} cannot be cleared; set a value")
    if isinstance(attribute, attributes_module.Orientation):
        if handle._mjs.alt.type == attribute.kind:
            handle._mjs.alt.type = mujoco.mjtOrientation.mjORIENTATION_QUAT
        return
    source = _pristine(handle)
    for field in attribute.written_fields:
        setattr(handle._mjs, field, attributes_module._copied(getattr(source, field)))


def _pristine(handle: Element) -> Any:
    """What an element of `handle`'s tag has before any attribute is set: its class's
    values for the tag, or a fresh element's."""
    mjs = handle._mjs
    default_field = _DEFAULT_FIELDS.get(handle._tag)
    if default_field is not None and handle._has_class():
        return getattr(attributes_module.class_of(mjs), default_field)
    tag = handle._tag
    if tag not in _TEMPLATES:
        spec = mujoco.MjSpec()
        if tag in _BODY_CHILDREN and tag != "inertial":
            _TEMPLATES[tag] = _BODY_CHILDREN[tag](spec.worldbody, None)
        elif tag == "inertial":
            _TEMPLATES[tag] = spec.worldbody.add_body()
        else:
            _TEMPLATES[tag] = _SECTION_ADDERS[tag](spec, spec.default)
        _TEMPLATE_SPECS.append(spec)
    return _TEMPLATES[tag]


# The field of `MjsDefault` that holds each tag's class values.
_DEFAULT_FIELDS = {
    "geom": "geom",
    "site": "site",
    "joint": "joint",
    "camera": "camera",
    "light": "light",
    "material": "material",
    "mesh": "mesh",
    "texture": "texture",
    "pair": "pair",
    "motor": "actuator",
    "position": "actuator",
    "velocity": "actuator",
    "cylinder": "actuator",
    "general": "actuator",
    "plugin": "actuator",
    "weld": "equality",
    "connect": "equality",
    "equality_joint": "equality",
    "equality_tendon": "equality",
    "spatial": "tendon",
    "fixed": "tendon",
}
# A fresh element of each tag (and the specs that hold them), made on first use.
_TEMPLATES: dict[str, Any] = {}
_TEMPLATE_SPECS: list[Any] = []


# The setters of Element's slots (member descriptors).
_SET_MJS: Callable[[Element, Any], None] = vars(Element)["_mjs"].__set__
_SET_SCOPE: Callable[[Element, RootElement], None] = vars(Element)["_scope"].__set__
_SET_TAG: Callable[[Element, str], None] = vars(Element)["_tag"].__set__
_new_object = object.__new__


def new_handle(mjs: Any, scope: RootElement, tag: str) -> Element:
    """`Element(mjs, scope, tag)` without the call of `__init__`: adding an element,
    wrapping a found one and attaching make one handle each."""
    handle = _new_object(Element)
    _SET_MJS(handle, mjs)
    _SET_SCOPE(handle, scope)
    _SET_TAG(handle, tag)
    return handle


# The `find` namespaces of each section's elements ("equality" holds weld, connect and
# joint equalities, one namespace).
_SECTION_NAMESPACES = {
    "asset": ("texture", "material", "mesh", "hfield"),
    "actuator": ("actuator",),
    "sensor": ("sensor",),
    "contact": ("contact",),
    "equality": ("equality",),
    "keyframe": ("key",),
    "tendon": ("tendon",),
    "custom": ("numeric", "text", "tuple"),
    "deformable": ("deformable",),
}

# The order <config>s were added to each plugin instance (MjSpec's dict is sorted).
_CONFIG_ORDER: dict[Any, list[str]] = {}


def _plugin_instance_adder(plugin_name: str) -> Callable[[Any, Any], Any]:
    def add(spec: Any, default: Any) -> Any:
        instance = spec.add_plugin()
        instance.plugin_name = plugin_name
        instance.active = True
        return instance

    return add


# A skin's bone lists (`BoneEntry`).
_BONE_FIELDS = ("bodyname", "bindpos", "bindquat", "vertid", "vertweight")


class Section(SectionMethods, writer.PartWriting):
    """A section of a model (`model.actuator`, `model.asset`, `model.sensor`, ...)."""

    __slots__ = ("_scope", "_section")
    _scope: RootElement
    _section: str

    def __init__(self, scope: RootElement, section: str) -> None:
        self._scope = scope
        self._section = section

    @property
    def tag(self) -> str:
        return self._section

    def add(self, tag: str, **attributes: Any) -> Element:
        """Adds an element of one of the section's tags (`model.actuator.add("motor", joint=hip)`)."""
        tags = SECTIONS[self._section]
        if tag not in tags:
            raise AttributeError(
                f"<{tag}> is not a valid child of <{self._section}> (model "
                f"{self._scope.model!r}); valid children: {sorted(tags)}"
            )
        if self._section == "equality":
            tag = _EQUALITY_TAGS.get(tag, tag)
        scope = self._scope
        if scope._detached:
            scope._check_attached_alive()
        if self._section == "extension":
            return scope._declare_plugin(attributes)
        handle = scope._create(tag, attributes, _SECTION_ADDERS[tag], scope._top_scope._spec, None)
        if tag == "flex":  # its children exist with it, with nothing set on them
            records = scope._records if scope._pending_text is None else scope._written
            for child in _CHILD_TAGS["flex"]:
                records[(handle._mjs, "flex_" + child)] = {}
        top = scope._top_scope
        if top._child_scopes:
            collection = namescope_module.collection_of(handle._mjs)
            if collection is not None:
                namescope_module.warn_if_out_of_order(top, [scope], (collection,), True)
        return handle

    def all_children(self) -> list:
        """The section's elements: this model's, then each attached model's (in the
        order attached, depth first), each in the order added (kind by kind for
        elements made with MjSpec directly), as PyMJCF lists them."""
        if self._section == "extension":
            return self._own_children()
        found = []
        for namespace in _SECTION_NAMESPACES[self._section]:
            found.extend(self._scope.find_all(namespace))
        return namescope_module.in_written_order(self._scope._top(), found)

    def _own_children(self) -> list:
        """The section's elements of this model (not of attached models), in the order
        they were added (kind by kind for elements made with MjSpec directly)."""
        if self._section == "extension":
            return [self._scope._plugin_declaration(name) for name in self._scope._plugins]
        found = []
        for namespace in _SECTION_NAMESPACES[self._section]:
            found.extend(self._scope.find_all(namespace, exclude_attachments=True))
        return namescope_module.in_written_order(self._scope._top(), found)

    def __getattr__(self, tag: str) -> list[Element]:
        if tag.startswith("_"):
            raise AttributeError(tag)
        if tag not in SECTIONS[self._section]:
            raise AttributeError(
                f"<{tag}> is not a valid child of <{self._section}> (model {self._scope.model!r})"
            )
        # As PyMJCF: this model's, then each attached model's (element_list.py).
        return element_list_module.ElementList(
            tag,
            self,
            [child for child in self._own_children() if child.tag == tag],
            [
                (child._prefix[:-1], getattr(getattr(child, self._section), tag))
                for child in self._scope._child_scopes
            ],
        )

    def __str__(self) -> str:
        """PyMJCF's `str` of a section: `<actuator/>`, `<asset>...</asset>`."""
        from composer_tasks.mjcf import element_api

        # Its own elements first (cheaper); attached models' count too, as there.
        has_children = bool(self._own_children()) or (
            bool(self._scope._child_scopes) and bool(self.all_children())
        )
        return element_api.self_only_text(self._section, {}, self._scope, has_children)

    def __repr__(self) -> str:
        return "MJCF Element: " + str(self)

    def _xml_part(self, options: Any) -> Any:
        return writer.section_tree(self, options)


def _asset_adder(tag: str, takes_class: bool) -> Callable[[Any, Any], Any]:
    adder = getattr(mujoco.MjSpec, "add_" + tag)
    if takes_class:
        return lambda spec, default: adder(spec, default) if default else adder(spec)
    return lambda spec, default: adder(spec)


def _add_motor(spec: Any, default: Any) -> Any:
    actuator = spec.add_actuator(default)
    actuator.gaintype = mujoco.mjtGain.mjGAIN_FIXED
    actuator.biastype = mujoco.mjtBias.mjBIAS_NONE
    return actuator


def _add_position(spec: Any, default: Any) -> Any:
    # MJCF's shortcut: gain kp, bias -kp * length - kv * velocity; kp and kv start
    # from the class's actuator default.
    actuator = spec.add_actuator(default)
    kp, kv = float(actuator.gainprm[0]), -float(actuator.biasprm[2])
    actuator.gaintype = mujoco.mjtGain.mjGAIN_FIXED
    actuator.biastype = mujoco.mjtBias.mjBIAS_AFFINE
    bias = np.zeros(10)
    bias[1], bias[2] = -kp, -kv
    actuator.biasprm = bias
    return actuator


def _add_velocity(spec: Any, default: Any) -> Any:
    actuator = spec.add_actuator(default)
    kv = float(actuator.gainprm[0])
    actuator.gaintype = mujoco.mjtGain.mjGAIN_FIXED
    actuator.biastype = mujoco.mjtBias.mjBIAS_AFFINE
    bias = np.zeros(10)
    bias[2] = -kv
    actuator.biasprm = bias
    return actuator


# Spec actuators made as a shortcut whose fields alone do not tell it from a
# <general> one (a cylinder is a general actuator with a filter and an affine bias).
_ACTUATOR_SHORTCUTS: dict[Any, str] = {}


def _add_cylinder(spec: Any, default: Any) -> Any:
    # MJCF's cylinder shortcut with MuJoCo's defaults: a filter of time constant 1 s,
    # a piston area of 1, no bias.
    actuator = spec.add_actuator(default)
    _ACTUATOR_SHORTCUTS[actuator] = "cylinder"
    actuator.dyntype = mujoco.mjtDyn.mjDYN_FILTER
    actuator.gaintype = mujoco.mjtGain.mjGAIN_FIXED
    actuator.biastype = mujoco.mjtBias.mjBIAS_AFFINE
    actuator.dynprm = np.eye(10)[0]
    actuator.gainprm = np.eye(10)[0]
    actuator.biasprm = np.zeros(10)
    return actuator


def _sensor_adder(sensor_type: Any) -> Callable[[Any, Any], Any]:
    def add(spec: Any, default: Any) -> Any:
        sensor = spec.add_sensor()
        sensor.type = sensor_type
        return sensor

    return add


def _equality_adder(equality_type: Any, between_bodies: bool) -> Callable[[Any, Any], Any]:
    def add(spec: Any, default: Any) -> Any:
        equality = spec.add_equality(default) if default else spec.add_equality()
        equality.type = equality_type
        if between_bodies:
            equality.objtype = mujoco.mjtObj.mjOBJ_BODY
        if equality_type == mujoco.mjtEq.mjEQ_WELD:
            # MjSpec's default data starts with a joint coupling's polycoef (0 1 0 ...);
            # MuJoCo's XML reader (so PyMJCF) gives a weld no anchor offset.
            data = np.array(equality.data)
            data[:3] = 0.0
            equality.data = data
        elif equality_type == mujoco.mjtEq.mjEQ_CONNECT:
            # A connect between bodies needs its anchor (MuJoCo's schema, so PyMJCF's
            # compile, refuses one without); unset, it is NaN, which the compile refuses
            # (`physics.check_equality_anchors`) rather than MjSpec's default (0 1 0).
            data = np.array(equality.data)
            data[:3] = np.nan
            equality.data = data
        return equality

    return add


def _tendon_adder(kind: str) -> Callable[[Any, Any], Any]:
    def add(spec: Any, default: Any) -> Any:
        tendon = spec.add_tendon(default) if default else spec.add_tendon()
        remember_tendon(tendon, kind)
        return tendon

    return add


# How each tag of a section is created in the (top) spec: `(spec, default)`, where
# `default` is the class the element takes (the model's own when no `dclass`). The
# class goes positionally (see `_BODY_CHILDREN`).
_SECTION_ADDERS: dict[str, Callable[[Any, Any], Any]] = {
    "texture": _asset_adder("texture", True),
    "material": _asset_adder("material", True),
    "mesh": _asset_adder("mesh", True),
    "hfield": _asset_adder("hfield", False),
    "motor": _add_motor,
    "position": _add_position,
    "velocity": _add_velocity,
    "cylinder": _add_cylinder,
    "general": lambda spec, default: spec.add_actuator(default),
    "plugin": lambda spec, default: spec.add_actuator(default),
    **{
        tag: _sensor_adder(sensor_type)
        for tag, (sensor_type, _) in attributes_module.SENSORS.items()
    },
    "pair": _asset_adder("pair", True),
    "exclude": _asset_adder("exclude", False),
    "weld": _equality_adder(_EQUALITIES["weld"], True),
    "connect": _equality_adder(_EQUALITIES["connect"], True),
    "equality_joint": _equality_adder(_EQUALITIES["joint"], False),
    "equality_tendon": _equality_adder(_EQUALITIES["tendon"], False),
    "key": lambda spec, default: spec.add_key(),
    "spatial": _tendon_adder("spatial"),
    "fixed": _tendon_adder("fixed"),
    "numeric": lambda spec, default: spec.add_numeric(),
    "text": lambda spec, default: spec.add_text(),
    "tuple": lambda spec, default: spec.add_tuple(),
    "skin": lambda spec, default: spec.add_skin(),
    "flex": lambda spec, default: spec.add_flex(),
}


def tag_of(mjs: Any) -> str:
    """The MJCF tag of a spec element, as PyMJCF would name it."""
    kind = type(mjs)
    if kind is mujoco.MjsJoint:
        return "freejoint" if mjs.type == mujoco.mjtJoint.mjJNT_FREE else "joint"
    if kind is mujoco.MjsActuator:
        if mjs.plugin.active:
            return "plugin"
        shortcut = _ACTUATOR_SHORTCUTS.get(mjs)
        if shortcut is not None:
            return shortcut
        if mjs.gaintype == mujoco.mjtGain.mjGAIN_FIXED and mjs.dyntype == mujoco.mjtDyn.mjDYN_NONE:
            if mjs.biastype == mujoco.mjtBias.mjBIAS_NONE:
                return "motor"
            bias = np.asarray(mjs.biasprm)
            if mjs.biastype == mujoco.mjtBias.mjBIAS_AFFINE and bias[0] == 0:
                if bias[1] == -mjs.gainprm[0] and bias[1] != 0:
                    return "position"
                if bias[1] == 0 and bias[2] == -mjs.gainprm[0]:
                    return "velocity"
        return "general"
    if kind is mujoco.MjsSensor:
        for tag, (sensor_type, _) in attributes_module.SENSORS.items():
            if mjs.type == sensor_type:
                return tag
        raise ValueError(
            f"sensor {mjs.name!r} has a type composer_tasks.mjcf does not cover: {mjs.type}"
        )
    if kind is mujoco.MjsEquality:
        for tag, equality_type in _EQUALITIES.items():
            if mjs.type == equality_type:
                return _EQUALITY_TAGS.get(tag, tag)
        raise ValueError(f"equality {mjs.name!r} has a type composer_tasks.mjcf does not cover")
    if kind is mujoco.MjsBody:
        return "body"
    if kind is mujoco.MjsTendon:
        # A tendon made outside this API (a raw MjSpec) reads as spatial: MjSpec does
        # not tell the kinds apart.
        return _TENDON_KINDS.get(mjs, "spatial")
    if kind is mujoco.MjsWrap:
        return _WRAP_TAGS[mjs.type]
    return _TAGS_BY_TYPE[kind]


_TAGS_BY_TYPE = {
    mujoco.MjsGeom: "geom",
    mujoco.MjsSite: "site",
    mujoco.MjsCamera: "camera",
    mujoco.MjsLight: "light",
    mujoco.MjsTexture: "texture",
    mujoco.MjsMaterial: "material",
    mujoco.MjsMesh: "mesh",
    mujoco.MjsHField: "hfield",
    mujoco.MjsPair: "pair",
    mujoco.MjsExclude: "exclude",
    mujoco.MjsKey: "key",
    mujoco.MjsNumeric: "numeric",
    mujoco.MjsText: "text",
    mujoco.MjsTuple: "tuple",
    mujoco.MjsSkin: "skin",
    mujoco.MjsFlex: "flex",
    mujoco.MjsPlugin: "instance",
}


def __getattr__(name: str) -> Any:
    # dm_control's `mjcf.element` module defines `RootElement` (`mjcf.element.RootElement`
    # in its code and tests); here it lives in `root`, which imports this module.
    if name == "RootElement":
        from composer_tasks.mjcf.root import RootElement

        return RootElement
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
