"""Default classes and the model's global settings (compiler, option, size, visual, statistic).

`model.default.geom.type = "capsule"` writes MuJoCo's default class of the model
(`MjsDefault`); `model.default.add("default", dclass="leg")` makes a nested class.
MjSpec applies a class's defaults to an element once, when the element is added,
where MJCF text applies them when the model compiles: so a default is set before
the elements that use it are added. Setting one after elements of that class (or
classes derived from it) exist raises instead of leaving them unchanged.
"""

from __future__ import annotations

import collections
import functools

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, cast

import mujoco
import numpy as np

from composer_tasks.mjcf import attributes as attributes_module
from composer_tasks.mjcf import writer
from composer_tasks.mjcf.element_list import ElementList

if TYPE_CHECKING:
    from composer_tasks.mjcf.root import RootElement


# Default tags of a class, and the field of MjsDefault each writes.
_DEFAULT_TAGS = {
    "geom": "geom",
    "site": "site",
    "joint": "joint",
    "camera": "camera",
    "light": "light",
    "material": "material",
    "mesh": "mesh",
    "texture": "texture",
    "pair": "pair",
    "equality": "equality",
    "tendon": "tendon",
    "motor": "actuator",
    "position": "actuator",
    "velocity": "actuator",
    "general": "actuator",
}

# The MjsDefault field of each tag's values (the parser reads them).
DEFAULT_FIELDS = _DEFAULT_TAGS

# Spec collections whose elements a default tag's values reach.
_COLLECTIONS = {
    "geom": "geoms",
    "site": "sites",
    "joint": "joints",
    "camera": "cameras",
    "light": "lights",
    "material": "materials",
    "mesh": "meshes",
    "texture": "textures",
    "pair": "pairs",
    "equality": "equalities",
    "tendon": "tendons",
    "actuator": "actuators",
}


# The attributes a default tag can set: the tag's own, without the name.
DEFAULT_TABLES = {
    tag: {
        name: attribute
        for name, attribute in attributes_module.ELEMENT_ATTRIBUTES.get(tag, {}).items()
        if attribute is not None
    }
    for tag in _DEFAULT_TAGS
}
# <equality> in a class sets what every kind of equality has (MJCF's schema).
DEFAULT_TABLES["equality"] = {
    name: attributes_module.ELEMENT_ATTRIBUTES["weld"][name]
    for name in ("active", "solref", "solimp")
}


class DefaultClass(writer.PartWriting):
    """A default class: `cls.geom`, `cls.joint`, `cls.motor`, ... and nested classes."""

    __slots__ = ("_mjs", "_scope")
    _mjs: Any
    _scope: RootElement

    def __init__(self, mjs: Any, scope: RootElement) -> None:
        # The slots' own setters: `__setattr__` refuses every other name.
        _CLASS_MJS(self, mjs)
        _CLASS_SCOPE(self, scope)

    @property
    def tag(self) -> str:
        return "default"

    @property
    def spec_element(self) -> mujoco.MjsDefault:
        return self._mjs

    @property
    def dclass(self) -> str | None:
        """The class's name in its model (None for the model's top class)."""
        name = self._own_name()
        return None if name == "main" else name

    @property
    def full_identifier(self) -> str:
        return self._scope._full_prefix() + self._own_name()

    @property
    def root(self) -> RootElement:
        """The model the class belongs to."""
        return self._scope

    @property
    def namescope(self) -> Any:
        """The name scope of the model the class belongs to."""
        return self._scope.namescope

    @property
    def parent(self) -> DefaultClass | RootElement:
        """The class this one was made from; the model itself for its top class
        (`model.default.parent is model`), as PyMJCF's parent element."""
        if self._own_name() == "main":
            return self._scope
        self._scope._written  # noqa: B018  (the nested classes of a parsed text)
        full_name = self.full_identifier
        for parent_name, children in self._scope._default_children.items():
            if full_name in children:
                found = self._scope._top_spec().find_default(parent_name)
                if found is not None:
                    return DefaultClass(found, self._scope)
        return self._scope.default

    def get_attributes(self) -> collections.OrderedDict[str, Any]:
        """The class's own attribute: its `dclass` (none for the model's top class), an
        `OrderedDict` as PyMJCF's."""
        values: collections.OrderedDict[str, Any] = collections.OrderedDict()
        if self.dclass is not None:
            values["dclass"] = self.dclass
        return values

    def find_all(
        self,
        namespace: str,
        immediate_children_only: bool = False,
        exclude_attachments: bool = False,
    ) -> list[DefaultClass]:
        """The classes made from this one (`namespace="default"`), depth first in the
        order added; PyMJCF's `find_all` on a <default>. No other kind of element sits
        below a class: other valid namespaces give an empty list."""
        from composer_tasks.mjcf import namescope as namescope_module

        namescope_module.check_namespace(namespace)
        if namespace != "default":
            return []
        found = []
        for child in cast("list[DefaultClass]", self.default):
            if exclude_attachments and child._scope is not self._scope:
                continue
            found.append(child)
            if not immediate_children_only:
                found.extend(child.find_all(namespace, False, exclude_attachments))
        return found

    def _own_name(self) -> str:
        """The class's name in its model ("main" for the top class).

        A handle made before its model was attached holds the class of the model's
        own spec, named without the prefixes the model has now (attaching gives the
        root spec copies of the classes, under the prefix); its name then ends the
        model's full prefix somewhere.
        """
        name = self._mjs.name
        prefix = self._scope._full_prefix()
        if name.startswith(prefix):
            return name[len(prefix) :]
        # The longest tail of the full prefix that the name starts with (the prefix
        # the model had when the handle was made).
        parts = prefix.split("/")
        for start in range(1, len(parts)):
            tail = "/".join(parts[start:])
            if name.startswith(tail):
                return name[len(tail) :]
        return name

    def _current(self) -> Any:
        """The MjsDefault of this class in the root spec (see `_own_name`); a handle
        made before its model was attached takes it from then on, so that what is set
        through it reaches the model."""
        if self._mjs.name.startswith(self._scope._full_prefix()):
            return self._mjs
        found = self._scope._top_spec().find_default(self.full_identifier)
        if found is None:
            return self._mjs
        _CLASS_MJS(self, found)
        return found

    def add(self, tag: str, dclass: str | None = None, **attributes: Any) -> "DefaultClass":
        """Adds a nested default class (`add("default", dclass="leg")`)."""
        if tag != "default":
            raise AttributeError(
                f"<{tag}> is not a valid child of <default> (class {self._mjs.name!r} of model "
                f"{self._scope.model!r}); set defaults as attributes (`cls.{tag}.size = ...`) "
                "or add a nested class with add('default', dclass=...)"
            )
        if attributes:
            raise AttributeError(
                f"{sorted(attributes)} are not valid attributes for <default>; only dclass is"
            )
        if not isinstance(dclass, str) or not dclass:
            raise ValueError(f"a default class needs a name (dclass=...), got {dclass!r}")
        full_name = self._scope._full_prefix() + dclass
        spec = self._scope._top_spec()
        if spec.find_default(full_name) is not None:
            raise ValueError(f"model {self._scope.model!r} already has a default class {dclass!r}")
        self._scope._written  # noqa: B018  (a parsed text's classes come first)
        parent = self._current()
        child = spec.add_default(full_name, parent)
        self._scope._default_children.setdefault(parent.name, []).append(full_name)
        self._scope._edited()
        return DefaultClass(child, self._scope)

    def __getattr__(self, tag: str) -> DefaultTag | ElementList:
        if tag.startswith("_"):
            raise AttributeError(tag)
        if tag == "default":
            self._scope._written  # noqa: B018  (the nested classes of a parsed text)
            spec = self._scope._top_spec()
            nested = [
                DefaultClass(spec.find_default(name), self._scope)
                for name in self._scope._default_children.get(self.full_identifier, [])
            ]
            scoped = []
            if self._own_name() == "main":
                # As PyMJCF's top class: then the classes of the models attached to
                # this one (in the order attached), each of those with its own.
                scoped = [
                    (child._prefix[:-1], cast("ElementList", child.default.default))
                    for child in self._scope._child_scopes
                ]
            return ElementList("default", self, nested, scoped)
        if tag not in _DEFAULT_TAGS:
            raise AttributeError(
                f"<{tag}> is not a valid child of <default> (model {self._scope.model!r}); "
                f"valid: {sorted(_DEFAULT_TAGS)}"
            )
        return DefaultTag(self, tag)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(
            f"can't set {name!r} on <default>: defaults are set per tag (`cls.geom.{name} = ...`)"
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DefaultClass) and other._mjs == self._mjs

    def __hash__(self) -> int:
        return hash(self._mjs)

    def __str__(self) -> str:
        """PyMJCF's `str`: `<default class="big">...</default>`; the model's top class
        always holds something there (`<default>...</default>`)."""
        from composer_tasks.mjcf import element_api

        self._scope._written  # noqa: B018  (the nested classes of a parsed text)
        has_children = (
            self.dclass is None
            or bool(self._scope._default_children.get(self._mjs.name))
            or any(DefaultTag(self, tag).get_attributes() for tag in _DEFAULT_TAGS)
        )
        return element_api.self_only_text(
            "default", self.get_attributes(), self._scope, has_children
        )

    def __repr__(self) -> str:
        return "MJCF Element: " + str(self)

    def _xml_part(self, options: Any) -> Any:
        if self.dclass is None:  # the model's top class: PyMJCF's <default> of the model
            return writer.defaults_tree(self._scope, options)
        return writer.class_tree(self, options)

    def _classes_below(self) -> list[str]:
        """This class's full name and those of the classes made from it."""
        names, pending = [], [self._mjs.name]
        while pending:
            name = pending.pop()
            names.append(name)
            pending.extend(self._scope._default_children.get(name, []))
        return names


# The setters of DefaultClass's slots (member descriptors).
_CLASS_MJS: Callable[[DefaultClass, Any], None] = vars(DefaultClass)["_mjs"].__set__
_CLASS_SCOPE: Callable[[DefaultClass, RootElement], None] = vars(DefaultClass)["_scope"].__set__


def record_key(dclass: str, tag: str) -> tuple[str, str, str]:
    """The key of the record of a tag's attributes in a class (by the class's name in its
    model: attaching a model gives its classes new MjsDefaults, under its prefix)."""
    return ("default", dclass, tag)


class DefaultTag(writer.PartWriting):
    """The defaults of one tag in a class (`model.default.geom`)."""

    __slots__ = ("_cls", "_mjs", "_scope", "_tag")
    _cls: DefaultClass
    # The tag's struct of the class (`MjsDefault.geom`, `.actuator`, ...), read once:
    # it lives as long as the class does.
    _mjs: Any
    _scope: RootElement
    _tag: str

    def __init__(self, cls: DefaultClass, tag: str) -> None:
        _TAG_CLS(self, cls)
        _TAG_MJS(self, getattr(cls._current(), _DEFAULT_TAGS[tag]))
        _TAG_SCOPE(self, cls._scope)
        _TAG_TAG(self, tag)

    @property
    def tag(self) -> str:
        return self._tag

    def _path(self) -> str:
        return f"<{self._tag}> of default class {self._cls._mjs.name!r}"

    def _table(self) -> dict[str, attributes_module.Attribute]:
        return DEFAULT_TABLES[self._tag]

    def _attribute(self, name: str) -> attributes_module.Attribute:
        table = self._table()
        if name not in table:
            raise AttributeError(
                f"{name!r} is not a valid attribute for {self._path()}; valid attributes: "
                f"{sorted(table)}"
            )
        return table[name]

    def _record(self) -> dict[str, Any] | None:
        """The attributes set on this tag of the class, or None (read the spec's values)."""
        key = record_key(self._cls.dclass or "main", self._tag)
        scope = self._scope
        # `_written` without its property's call when no parsed text is pending.
        records = scope._records if scope._pending_text is None else scope._written
        record = records.get(key)
        if record is None and scope._records_complete:
            record = records[key] = {}
        return record

    def _shared_values(self, create: bool = False) -> dict[str, Any] | None:
        """The values written on this actuator tag of the class, by name, or None.

        MjSpec keeps one actuator default per class, which `motor`, `position`,
        `velocity` and `general` all write (`velocity.kv` overwrites the gain
        `position.kp` set); PyMJCF keeps one per tag, so each tag's values are also
        kept here, as written, and read back per tag."""
        if _DEFAULT_TAGS[self._tag] != "actuator":
            return None
        scope = self._scope
        records = scope._records if scope._pending_text is None else scope._written
        key = ("default values",) + record_key(self._cls.dclass or "main", self._tag)[1:]
        if create:
            return records.setdefault(key, {})
        return records.get(key)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        attribute = self._attribute(name)
        record = self._record()
        if record is None:
            return attribute.get(self)
        if name not in record:
            return None
        shared = self._shared_values()
        value = shared[name] if shared is not None and name in shared else attribute.get(self)
        return attributes_module.as_written(value, record[name])

    def get_attributes(self) -> collections.OrderedDict[str, Any]:
        """The attributes set on this tag of the class, by MJCF name (an `OrderedDict`,
        as PyMJCF's)."""
        values: collections.OrderedDict[str, Any] = collections.OrderedDict()
        record = self._record()
        for name in attributes_module.in_pymjcf_order(self._tag, list(self._table())):
            if record is None or name in record:
                value = getattr(self, name)
                if value is not None:
                    values[name] = value
        return values

    def __setattr__(self, name: str, value: Any) -> None:
        self._set(name, value, check=True)

    def _set(self, name: str, value: Any, check: bool) -> None:
        self._write(self._attribute(name), name, value, check)

    def _write(
        self,
        attribute: attributes_module.Attribute,
        name: str,
        value: Any,
        check: bool,
        record: dict[str, Any] | None = None,
    ) -> None:
        """Writes one attribute; `record` is the tag's record when the caller has it."""
        followers: list[Any] = []
        if check:
            followers = self._check_unused(name, attribute)
        if value is None:
            raise ValueError(
                f"{name!r} of {self._path()} cannot be cleared once set (MjSpec keeps no "
                "unset state for a class's values); set a value"
            )
        try:
            form = attribute.set(self, value)
        except Exception as error:
            raise attributes_module.with_context(
                error, f"during assignment to attribute {name!r} of {self._path()}"
            ) from error
        if self._tag in ("position", "velocity", "motor"):
            _set_actuator_shortcut(self._mjs, self._tag)
        for element in followers:
            # As dm_control resolves defaults at compile: an element of the class that
            # did not set the attribute itself takes the class's new value.
            setattr(element, attribute.field, getattr(self._mjs, attribute.field))
        if record is None:
            record = self._record()
        if record is not None:
            record[name] = form
            shared = self._shared_values(create=True)
            if shared is not None:
                written = attribute.get(self)
                shared[name] = np.array(written) if isinstance(written, np.ndarray) else written
        self._scope._edited()

    def set_attributes(self, **attributes: Any) -> None:
        """Sets several attributes: all or, when one of them fails, none."""
        checked = [(self._attribute(name), name, value) for name, value in attributes.items()]
        self._check_unused()
        restores = []
        record = self._record()
        saved_record = None if record is None else dict(record)
        shared = self._shared_values()
        saved_shared = None if shared is None else dict(shared)
        last = len(checked) - 1
        try:
            for index, (attribute, name, value) in enumerate(checked):
                if index < last:  # the last one fails without writing anything
                    restores.append(attribute.snapshot(self))
                self._write(attribute, name, value, check=False, record=record)
        except BaseException:
            for restore in reversed(restores):
                restore()
            if record is not None and saved_record is not None:
                record.clear()
                record.update(saved_record)
            shared = self._shared_values()
            if shared is not None:
                shared.clear()
                shared.update(saved_shared or {})
            raise

    def _check_unused(
        self, name: str | None = None, attribute: attributes_module.Attribute | None = None
    ) -> list[Any]:
        """The elements that must take a new value of attribute `name` of this class: its
        users that did not set it themselves (MjSpec copied the class's values into
        them when they were added). Raises where that cannot be known or done: no
        attribute named (several at once), a class made from this one, an element
        without a record of what it set, an actuator shortcut or an orientation."""
        cls = self._cls
        scope = self._scope
        if scope._default_children:
            classes = cls._classes_below()
            derived = classes[1:]
        else:  # no class of this model was made from another
            classes, derived = [cls._mjs.name], []
        kind = _DEFAULT_TAGS[self._tag]
        elements = getattr(scope._top_scope._spec, _COLLECTIONS[kind])
        users = [
            element
            for element in elements
            if (found := attributes_module.class_of(element)) is not None and found.name in classes
        ]
        if not users and not derived:
            return []
        if (
            name is not None
            and attribute is not None
            and self._tag not in ("position", "velocity", "motor")
            and not isinstance(attribute, attributes_module.Orientation)
        ):
            followers = self._followers(name, kind)
            if followers is not None:
                return followers
        what = (
            (f"{len(users)} <{kind}> element(s)" if users else "")
            + (" and " if users and derived else "")
            + (f"the classes {derived} made from it" if derived else "")
        )
        raise ValueError(
            f"{self._path()}: {what} already took this class's values (MjSpec applies "
            "defaults when an element or class is added); set defaults before adding them"
        )

    def _followers(self, name: str, kind: str) -> list[Any] | None:
        """The structs that inherit attribute `name` of this tag from this class without
        setting it themselves: elements of the class and of the classes made from it,
        and those classes' own structs (a class that sets it keeps its value, and so
        do the classes made from that one). None where a record of what was set is
        missing (a model built or parsed without them)."""
        scope = self._scope
        top_spec = scope._top_scope._spec
        records = scope._written
        prefix = scope._full_prefix()
        users_by_class: dict[str, list[Any]] = {}
        for element in getattr(top_spec, _COLLECTIONS[kind]):
            classname = attributes_module.class_of(element)
            if classname is not None:
                users_by_class.setdefault(classname.name, []).append(element)
        followers: list[Any] = []
        pending = [(self._cls._mjs.name, True)]
        while pending:
            full_name, is_this_class = pending.pop()
            if not is_this_class:
                local = full_name[len(prefix) :] if full_name.startswith(prefix) else full_name
                record = records.get(record_key(local, self._tag))
                if record is None:
                    if not scope._records_complete:
                        return None
                    record = {}
                if name in record:
                    continue
                followers.append(
                    getattr(top_spec.find_default(full_name), _DEFAULT_TAGS[self._tag])
                )
            for element in users_by_class.get(full_name, []):
                record = records.get(element)
                if record is None:
                    return None
                if name not in record:
                    followers.append(element)
            pending.extend((child, False) for child in scope._default_children.get(full_name, []))
        return followers

    def __str__(self) -> str:
        """PyMJCF's `str`: `<geom rgba="1 0 0 1"/>`."""
        from composer_tasks.mjcf import element_api

        return element_api.self_only_text(self._tag, self.get_attributes(), self._scope, False)

    def __repr__(self) -> str:
        return "MJCF Element: " + str(self)

    def _xml_part(self, options: Any) -> Any:
        return writer.default_tag_tree(self, options)


def _tag_defaults(tag: str) -> property:
    return property(lambda cls: DefaultTag(cls, tag), doc=f"The defaults of <{tag}> in this class.")


# `cls.geom`, `cls.joint`, ... as properties: reaching them through `__getattr__` would
# cost Python a raised and caught AttributeError first (`__getattr__` still names the
# tags a class does not have).
for _tag in _DEFAULT_TAGS:
    setattr(DefaultClass, _tag, _tag_defaults(_tag))


# The setters of DefaultTag's slots.
_TAG_CLS: Callable[[DefaultTag, DefaultClass], None] = vars(DefaultTag)["_cls"].__set__
_TAG_MJS: Callable[[DefaultTag, Any], None] = vars(DefaultTag)["_mjs"].__set__
_TAG_SCOPE: Callable[[DefaultTag, RootElement], None] = vars(DefaultTag)["_scope"].__set__
_TAG_TAG: Callable[[DefaultTag, str], None] = vars(DefaultTag)["_tag"].__set__


def _set_actuator_shortcut(actuator: Any, tag: str) -> None:
    if tag == "motor":
        actuator.gaintype = mujoco.mjtGain.mjGAIN_FIXED
        actuator.biastype = mujoco.mjtBias.mjBIAS_NONE
    else:
        actuator.gaintype = mujoco.mjtGain.mjGAIN_FIXED
        actuator.biastype = mujoco.mjtBias.mjBIAS_AFFINE


class Struct(writer.PartWriting):
    """One of the model's global settings (`model.compiler`, `model.size`, ...),
    with the attributes of a table."""

    _scope: RootElement
    _tag: str
    _get_struct: Callable[[], Any]
    _table: Mapping[str, attributes_module.Attribute]

    def __init__(
        self,
        scope: RootElement,
        tag: str,
        get_struct: Callable[[], Any],
        table: Mapping[str, attributes_module.Attribute],
    ) -> None:
        object.__setattr__(self, "_scope", scope)
        object.__setattr__(self, "_tag", tag)
        object.__setattr__(self, "_get_struct", get_struct)
        object.__setattr__(self, "_table", table)

    @property
    def _mjs(self) -> Any:
        return self._get_struct()

    @property
    def tag(self) -> str:
        return self._tag

    def _path(self) -> str:
        return f"<{self._tag}> of model {self._scope.model!r}"

    def _attribute(self, name: str) -> attributes_module.Attribute:
        if name not in self._table:
            raise AttributeError(
                f"{name!r} is not a valid attribute for {self._path()}; valid attributes: "
                f"{sorted(self._table)}"
            )
        return self._table[name]

    def _record(self) -> dict[str, Any] | None:
        """The attributes set on this struct, or None (read the spec's values)."""
        key = ("struct", self._tag)
        scope = self._scope
        records = scope._records if scope._pending_text is None else scope._written
        record = records.get(key)
        if record is None and scope._records_complete:
            record = records[key] = {}
        return record

    def _root_view(self) -> Struct | None:
        """The same setting of the root model when this model is attached (None
        otherwise): as in PyMJCF, an attached model's settings are the root's."""
        scope = self._scope
        if scope._parent_scope is None:
            return None
        top = scope._top()
        if self._tag in ("compiler", "option", "size", "statistic"):
            return getattr(top, self._tag)
        return getattr(top.visual, "global_" if self._tag == "global" else self._tag)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        attribute = self._attribute(name)
        if self._scope._detached:
            self._scope._check_attached_alive()
        root = self._root_view()
        if root is not None:
            return getattr(root, name)
        record = self._record()
        if record is None:
            return attribute.get(self)
        if name not in record:
            return None
        return attributes_module.as_written(attribute.get(self), record[name])

    def get_attributes(self) -> collections.OrderedDict[str, Any]:
        """The attributes set on this struct, by MJCF name (an `OrderedDict`, as PyMJCF's)."""
        root = self._root_view()
        if root is not None:
            return root.get_attributes()
        values: collections.OrderedDict[str, Any] = collections.OrderedDict()
        record = self._record()
        for name in self._table:
            if record is None or name in record:
                value = getattr(self, name)
                if value is not None:
                    values[name] = value
        return values

    def __setattr__(self, name: str, value: Any) -> None:
        attribute = self._attribute(name)
        self._scope._check_attached_alive()
        root = self._root_view()
        if root is not None:
            # PyMJCF: an attached model's settings are the root's.
            setattr(root, name, value)
            return
        if value is None:
            raise ValueError(f"{name!r} of {self._path()} cannot be cleared once set; set a value")
        try:
            form = attribute.set(self, value)
        except Exception as error:
            raise attributes_module.with_context(
                error, f"during assignment to attribute {name!r} of {self._path()}"
            ) from error
        record = self._record()
        if record is not None:
            record[name] = form
        self._scope._edited()

    def set_attributes(self, **attributes: Any) -> None:
        """Sets several attributes: all or, when one of them fails, none."""
        checked = [(self._attribute(name), name, value) for name, value in attributes.items()]
        restores = []
        record = self._record()
        saved_record = None if record is None else dict(record)
        last = len(checked) - 1
        try:
            for index, (attribute, name, value) in enumerate(checked):
                if index < last:  # the last one fails without writing anything
                    restores.append(attribute.snapshot(self))
                setattr(self, name, value)
        except BaseException:
            for restore in reversed(restores):
                restore()
            if record is not None and saved_record is not None:
                record.clear()
                record.update(saved_record)
            raise

    def _has_children(self) -> bool:
        return False

    def __str__(self) -> str:
        """PyMJCF's `str`: `<compiler angle="radian"/>`, `<option>...</option>` when a
        flag is set."""
        from composer_tasks.mjcf import element_api

        return element_api.self_only_text(
            self._tag, self.get_attributes(), self._scope, self._has_children()
        )

    def __repr__(self) -> str:
        return "MJCF Element: " + str(self)

    def _xml_part(self, options: Any) -> Any:
        return writer.settings_tree(self._tag, self, options)


class GenericStruct(Struct):
    """A settings struct whose MJCF attributes are the struct's own fields
    (`visual.headlight.ambient`, `statistic.extent`)."""

    def __init__(self, scope: RootElement, tag: str, get_struct: Callable[[], Any]) -> None:
        table = {}
        struct = get_struct()
        for name in dir(struct):
            if name.startswith("_"):
                continue
            value = getattr(struct, name)
            if isinstance(value, np.ndarray):
                table[name] = attributes_module.Vector(name, value.size)
            elif isinstance(value, (bool, np.bool_)):
                table[name] = attributes_module.Boolean(name)
            elif isinstance(value, int):
                table[name] = attributes_module.Number(name, integer=True)
            elif isinstance(value, float):
                table[name] = attributes_module.Number(name)
        super().__init__(scope, tag, get_struct, table)


# `model.visual` parts by MJCF name, and the MjSpec field of each.
_VISUAL_PARTS = {
    "global": "global_",
    "global_": "global_",
    "quality": "quality",
    "headlight": "headlight",
    "map": "map",
    "scale": "scale",
    "rgba": "rgba",
}


class VisualStruct(writer.PartWriting):
    """`model.visual`: `global_` (or `getattr(visual, "global")`), quality, headlight,
    map, scale, rgba."""

    def __init__(self, scope: RootElement) -> None:
        self._scope = scope

    @property
    def tag(self) -> str:
        return "visual"

    def __getattr__(self, name: str) -> GenericStruct:
        if name.startswith("_") and name != "global_":
            raise AttributeError(name)
        if name not in _VISUAL_PARTS:
            raise AttributeError(
                f"<{name}> is not a valid child of <visual> (model {self._scope.model!r}); "
                f"valid: {sorted(set(_VISUAL_PARTS) - {'global_'})}"
            )
        field = _VISUAL_PARTS[name]
        tag = "global" if name == "global_" else name
        return GenericStruct(self._scope, tag, lambda: getattr(self._scope._spec.visual, field))

    def __str__(self) -> str:
        """PyMJCF's `str`: `<visual/>`, or `<visual>...</visual>` once a part is set."""
        from composer_tasks.mjcf import element_api

        fields = set(_VISUAL_PARTS.values())  # "global" and "global_" are one part
        has_children = any(getattr(self, field).get_attributes() for field in fields)
        return element_api.self_only_text("visual", {}, self._scope, has_children)

    def __repr__(self) -> str:
        return "MJCF Element: " + str(self)

    def _xml_part(self, options: Any) -> Any:
        return writer.visual_tree(self, options)


class OptionStruct(Struct):
    """`model.option`, with `model.option.flag.<name> = "enable" | "disable"`."""

    def __init__(self, scope: RootElement) -> None:
        super().__init__(scope, "option", lambda: scope._spec.option, attributes_module.OPTION)

    def __getattr__(self, name: str) -> Any:
        if name == "flag":
            return _Flags(self._scope)
        return super().__getattr__(name)

    def _has_children(self) -> bool:
        return bool(_Flags(self._scope)._changed())

    def _xml_part(self, options: Any) -> Any:
        return writer.option_tree(self, options)


@functools.cache
def _default_flags() -> dict[str, int]:
    """MuJoCo's default `disableflags` and `enableflags` (of a fresh spec)."""
    option = mujoco.MjSpec().option
    return {"disableflags": int(option.disableflags), "enableflags": int(option.enableflags)}


class _Flags(writer.PartWriting):
    _scope: RootElement

    def __init__(self, scope: RootElement) -> None:
        object.__setattr__(self, "_scope", scope)

    def _bit(self, name: str) -> tuple[str, int, bool]:
        if name in attributes_module.DISABLE_FLAGS:
            return "disableflags", int(attributes_module.DISABLE_FLAGS[name]), True
        if name in attributes_module.ENABLE_FLAGS:
            return "enableflags", int(attributes_module.ENABLE_FLAGS[name]), False
        raise AttributeError(
            f"{name!r} is not a valid attribute for <flag> (model {self._scope.model!r}); valid: "
            f"{sorted(set(attributes_module.DISABLE_FLAGS) | set(attributes_module.ENABLE_FLAGS))}"
        )

    def _changed(self) -> dict[str, str]:
        """The flags whose setting is not MuJoCo's default, as MJCF names them."""
        default = _default_flags()
        names = sorted(set(attributes_module.DISABLE_FLAGS) | set(attributes_module.ENABLE_FLAGS))
        changed = {}
        for name in names:
            field, bit, _ = self._bit(name)
            if (getattr(self._scope._spec.option, field) ^ default[field]) & bit:
                changed[name] = getattr(self, name)
        return changed

    def _record(self) -> dict[str, Any] | None:
        """The flags set through this API or in a parsed text (None when the model
        was made with MjSpec directly)."""
        scope = self._scope
        records = scope._records if scope._pending_text is None else scope._written
        record = records.get(("struct", "flag"))
        if record is None and scope._records_complete:
            record = records[("struct", "flag")] = {}
        return record

    def _root_view(self) -> _Flags | None:
        """The root model's flags when this model is attached (its settings are the
        root's, as in PyMJCF), else None."""
        scope = self._scope
        return None if scope._parent_scope is None else _Flags(scope._top())

    def get_attributes(self) -> collections.OrderedDict[str, str]:
        """The flags set (and any set away from MuJoCo's defaults by other means), in
        MJCF's order, as PyMJCF lists the ones set."""
        root = self._root_view()
        if root is not None:
            return root.get_attributes()
        names = set(self._changed()) | set(self._record() or {})
        return collections.OrderedDict(
            (name, getattr(self, name)) for name in attributes_module.FLAG_ORDER if name in names
        )

    def set_attributes(self, **flags: str) -> None:
        """Sets several flags: all or, when one of them is not a flag or not "enable"
        or "disable", none."""
        for name, value in flags.items():
            self._bit(name)
            if value not in ("enable", "disable"):
                raise ValueError(f"flag {name!r} must be 'enable' or 'disable', got {value!r}")
        for name, value in flags.items():
            setattr(self, name, value)

    def __str__(self) -> str:
        """PyMJCF's `str`: `<flag gravity="disable"/>`."""
        from composer_tasks.mjcf import element_api

        return element_api.self_only_text("flag", self.get_attributes(), self._scope, False)

    def __repr__(self) -> str:
        return "MJCF Element: " + str(self)

    def _xml_part(self, options: Any) -> Any:
        return writer.settings_tree("flag", self, options)

    def __getattr__(self, name: str) -> str:
        if name.startswith("_"):
            raise AttributeError(name)
        root = self._root_view()
        if root is not None:
            return getattr(root, name)
        field, bit, is_disable = self._bit(name)
        on = bool(getattr(self._scope._spec.option, field) & bit)
        return "disable" if on == is_disable else "enable"

    def __setattr__(self, name: str, value: Any) -> None:
        field, bit, is_disable = self._bit(name)
        if value not in ("enable", "disable"):
            raise ValueError(f"flag {name!r} must be 'enable' or 'disable', got {value!r}")
        root = self._root_view()
        if root is not None:
            setattr(root, name, value)
            return
        option = self._scope._spec.option
        flags = getattr(option, field)
        set_bit = (value == "disable") == is_disable
        setattr(option, field, flags | bit if set_bit else flags & ~bit)
        record = self._record()
        if record is not None:
            record[name] = value
        self._scope._edited()
