"""MJCF attributes: how an attribute name and value of the XML maps onto an MjSpec field.

Each MJCF tag that `composer_tasks.mjcf` can add has a table here from its XML
attribute names to an `Attribute`, which reads and writes the field of the
`mujoco.Mjs...` element that MuJoCo's own XML parser would fill. Values are
accepted as the XML takes them (`type="capsule"`, `size="0.1 0.2"`, `limited="true"`)
or as Python values (`size=[0.1, 0.2]`, `mass=2`, `limited=True`); a reference
attribute (`joint=`, `material=`, `site=`, ...) takes another element's handle or
its name (relative to the model that holds the referring element).

Units are MJCF's: lengths in metres, masses in kg, angles as the model's
`compiler.angle` says (MuJoCo's default is degrees).
"""

from __future__ import annotations

import functools
import numbers
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Protocol

import mujoco

from composer_tasks import physics as physics_module
import numpy as np

from composer_tasks.mjcf import assets as assets_module

if TYPE_CHECKING:
    from composer_tasks.mjcf.element import Element
    from composer_tasks.mjcf.root import RootElement


class Handle(Protocol):
    """What an attribute reads and writes through: an element's handle, the defaults
    of one tag in a default class, or one of the model's settings structs."""

    @property
    def _mjs(self) -> Any:
        """The MjSpec element or struct that holds the fields."""
        ...

    @property
    def _scope(self) -> RootElement:
        """The model the handle belongs to (names and references resolve in it)."""
        ...


class Attribute:
    """One XML attribute of a tag: `get(handle)` and `set(handle, value)`.

    `handle` is the `composer_tasks.mjcf` element whose MjSpec element (`handle._mjs`)
    holds the field. Subclasses convert between the XML's values and the field's.

    `set` converts the whole value before it writes anything, and returns how the
    value was written (see `WrittenForm`), which the handle records so that a read
    gives the attribute back as written, as PyMJCF does.
    """

    # Whether the attribute names another element (read as that element's handle).
    is_reference = False

    def __init__(self, field: str) -> None:
        self.field = field
        # The fields of the spec element that `set` writes (for `snapshot`).
        self.written_fields: tuple[str, ...] = (field,)

    def target(self, handle: Handle) -> Any:
        return handle._mjs

    def get(self, handle: Handle) -> Any:
        return getattr(self.target(handle), self.field)

    def set(self, handle: Handle, value: Any) -> WrittenForm:
        setattr(handle._mjs, self.field, self.convert(handle, value))
        return None

    def convert(self, handle: Handle, value: Any) -> Any:
        return value

    def snapshot(self, handle: Handle) -> Callable[[], None]:
        """A function that writes back the fields `set` would change, as they are now."""
        mjs = handle._mjs
        fields = self.written_fields
        if len(fields) == 1:  # the common case, without a list or `_copied`'s call
            field = fields[0]
            value = getattr(mjs, field)
            kind = type(value)
            if kind is np.ndarray:
                value = value.copy()
            elif kind not in _SCALARS:
                value = _copied(value)
            return lambda: setattr(mjs, field, value)
        saved = [(field, _copied(getattr(mjs, field))) for field in fields]

        def restore() -> None:
            for field, value in saved:
                setattr(mjs, field, value)

        return restore


class Exact:
    """The written form of numbers that MjSpec keeps in single precision (colours,
    lights, materials, visual settings: `rgba=[0.1, 0.2, 0.3, 1]`): the numbers as
    written, in double precision, which a read gives back while the field still holds
    them (PyMJCF keeps what was written: `geom.rgba` is `[0.1, 0.2, 0.3, 1.]`, not
    `[0.10000000149, ...]`, and `to_xml_string` writes 0.10000000000000001)."""

    __slots__ = ("count", "values")

    def __init__(self, values: Any, count: int | None) -> None:
        # `count` None: one number (a float); else a vector of `count` numbers.
        if count is None:
            self.values: Any = float(values)
        else:
            array = np.array(values, dtype=np.float64)
            array.flags.writeable = False
            self.values = array
        self.count = count

    def read(self, value: Any) -> Any:
        """The written numbers if the field's `value` (read from the spec) still holds
        them (to single precision); else `value`, which was changed some other way."""
        written = self.values
        if self.count is None:
            if value is not None and np.float32(written) == np.float32(value):
                return written
            return value
        head = value[: self.count]
        if head.shape == written.shape and np.array_equal(
            head.astype(np.float32), written.astype(np.float32)
        ):
            return written
        return head


def written_exactly(values: Any, count: int | None, stored: Any) -> "Exact | int | None":
    """The form to record for float numbers written into a spec field that now holds
    `stored`: `Exact` where the field rounded them (single precision), else the plain
    form (a vector's count, or None for one number)."""
    if count is None:
        return Exact(values, None) if type(stored) is float and stored != values else None
    if isinstance(stored, np.ndarray) and stored.dtype == np.float32:
        return Exact(np.asarray(values, dtype=np.float64)[:count], count)
    return count


# How an attribute's value was written, recorded per element: None (read the spec
# field as it is), an int (a vector of that many numbers: read that many), a str
# (a reference given by name: read back the name), an `Asset` (a file given by its
# contents: read back the Asset), or an `Exact` (numbers the spec keeps in single
# precision: read back as written).
WrittenForm = int | str | assets_module.Asset | Exact | None
# The key, in an element's record, of its MJCF tag where MjSpec cannot tell it: a
# <cylinder> is an actuator like a <general> one (never an attribute's name).
TAG_KEY = "<tag>"


def with_context(error: Exception, context: str) -> Exception:
    """`error` (raised while converting or writing a value) as a TypeError or ValueError
    that says where: a TypeError stays one; anything else (a ValueError, an overflow, an
    exception from a value's own `__float__`) becomes a ValueError. Raise it `from error`."""
    if isinstance(error, TypeError):
        return TypeError(f"{context}: {error}")
    if isinstance(error, ValueError):
        return ValueError(f"{context}: {error}")
    return ValueError(f"{context}: {error!r}")


# Field values that are their own copy.
_SCALARS = (float, int, bool, str)


def _copied(value: Any) -> Any:
    """A copy of a spec field's value: arrays and the bindings' vectors are views."""
    if isinstance(value, np.ndarray):
        return np.array(value)
    if isinstance(value, (str, bytes)) or not hasattr(value, "__len__"):
        return value
    return list(value)


# The written form of a class reference (`dclass`, `childclass`) given as a default
# class handle rather than a name: it reads back as the handle, as in PyMJCF.
CLASS_HANDLE_FORM = "\0default class handle"


def as_written(value: Any, form: WrittenForm) -> Any:
    """An attribute's value read from the spec, in the form it was written in."""
    if form is None:
        return value
    if isinstance(form, str):
        return form
    if isinstance(form, assets_module.Asset):
        return form
    if isinstance(form, Exact):
        return form.read(value)
    return value[:form]


class Number(Attribute):
    """A real number (`mass="2"`, `damping=0.1`)."""

    def __init__(self, field: str, integer: bool = False) -> None:
        super().__init__(field)
        self.integer = integer

    def set(self, handle: Handle, value: Any) -> WrittenForm:
        number = self.convert(handle, value)
        mjs = handle._mjs
        setattr(mjs, self.field, number)
        if self.integer:
            return None
        return written_exactly(number, None, getattr(mjs, self.field))

    def convert(self, handle: Handle, value: Any) -> float:
        if type(value) in (float, int) and not self.integer:
            try:
                return float(value)
            except OverflowError:
                raise ValueError(f"{value!r} is too large for a float") from None
        if isinstance(value, str):
            try:
                value = float(value)
            except ValueError:
                raise ValueError(f"expected a number, got {value!r}") from None
        array = np.asarray(value)
        if array.size != 1 or array.dtype.kind not in "biuf":
            raise ValueError(f"expected one number, got {value!r}")
        number = array.reshape(())[()]
        if not np.isfinite(number) and self.integer:
            raise ValueError(f"expected an integer, got {value!r}")
        if self.integer:
            if float(number) != int(number):
                raise ValueError(f"expected an integer, got {value!r}")
            if not -(2**31) <= int(number) < 2**31:
                raise ValueError(f"{value!r} does not fit MuJoCo's 32-bit integer")
            return int(number)
        return float(number)


class Vector(Attribute):
    """A vector of `size` numbers. With `partial`, fewer may be given (as MJCF allows
    for `size`, `friction`, `solimp`, `gainprm`, ...): they fill the leading entries
    and the rest keep the values the element has (from its default class)."""

    def __init__(self, field: str, size: int, partial: bool = False, integer: bool = False) -> None:
        super().__init__(field)
        self.size = size
        self.partial = partial
        self.integer = integer

    def get(self, handle: Handle) -> np.ndarray:
        value = np.array(getattr(self.target(handle), self.field))
        if value.dtype == np.float32:  # PyMJCF's numbers are doubles
            value = value.astype(np.float64)
        value.flags.writeable = False
        return value

    def set(self, handle: Handle, value: Any) -> WrittenForm:
        kind = type(value)
        if (kind is list or kind is tuple) and len(value) == self.size and not self.integer:
            # The common case (all the numbers, as a list), converted here: one call less.
            try:
                values = np.array(value, dtype=np.float64)
            except (TypeError, ValueError, OverflowError):
                raise ValueError(f"expected numbers, got {value!r}") from None
            if values.ndim == 1:
                setattr(handle._mjs, self.field, values)
                return written_exactly(values, self.size, getattr(handle._mjs, self.field))
        values = _numbers(value)
        count = values.size
        if count == 0 or count > self.size or (not self.partial and count != self.size):
            expected = f"1 to {self.size}" if self.partial else f"{self.size}"
            raise ValueError(f"expected {expected} numbers, got {value!r}")
        if self.integer and not np.all(values == np.round(values)):
            raise ValueError(f"expected integers, got {value!r}")
        if count == self.size:
            new = values.astype(int) if self.integer else values
        else:  # the leading entries; the rest keep the element's values
            new = np.array(getattr(self.target(handle), self.field), dtype=np.float64)
            new[:count] = values
        setattr(handle._mjs, self.field, new)
        if self.integer:
            return count
        return written_exactly(values, count, getattr(handle._mjs, self.field))


class FlatArray(Attribute):
    """A list of numbers of any length (mesh vertices, keyframe qpos, ...)."""

    def get(self, handle: Handle) -> np.ndarray:
        value = np.array(getattr(self.target(handle), self.field))
        value.flags.writeable = False
        return value

    def convert(self, handle: Handle, value: Any) -> list[float]:
        return _numbers(value).tolist()


class Text(Attribute):
    """A string (`file`, `eulerseq`, ...)."""

    def get(self, handle: Handle) -> str:
        return text(getattr(self.target(handle), self.field))

    def convert(self, handle: Handle, value: Any) -> str:
        if not isinstance(value, str):
            raise TypeError(f"expected a string, got {type(value).__name__}")
        return value


class File(Text):
    """An asset file (`file=`): a path, or an `mjcf.Asset` (the file's contents), whose
    bytes go in the model's assets under its virtual file system name."""

    def set(self, handle: Handle, value: Any) -> WrittenForm:
        if isinstance(value, assets_module.Asset):
            setattr(handle._mjs, self.field, assets_module.register(handle, value))
            return value
        return super().set(handle, value)


def text(value: Any) -> str:
    """A string field of MjSpec, which some give as a vector of characters."""
    if isinstance(value, str):
        return value
    # Indexing: iterating the bindings' character vector takes milliseconds.
    length = len(value)
    if length == 3:  # an Euler sequence, read at every attachment
        return value[0] + value[1] + value[2]
    return "".join([value[i] for i in range(length)])


class Boolean(Attribute):
    """`true`/`false` (or a Python bool); read back as the keyword `"true"`/`"false"`,
    as PyMJCF reads it."""

    def get(self, handle: Handle) -> str:
        return "true" if getattr(self.target(handle), self.field) else "false"

    def convert(self, handle: Handle, value: Any) -> bool:
        return _boolean(value)


class Keyword(Attribute):
    """A keyword of the XML (`type="capsule"`) stored as a MuJoCo enum.

    The keywords are the enum's member names after their `mj..._` prefix, in lower
    case (`mjGEOM_CAPSULE` is `"capsule"`), plus `aliases`; `spellings` gives the ones
    MJCF writes otherwise (`"RK4"`), which is how they read back (as PyMJCF's schema
    spells them), whatever the case they were given in.
    """

    def __init__(
        self,
        field: str,
        enum: Any,
        aliases: Mapping[str, Any] | None = None,
        spellings: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(field)
        self.enum = enum
        spelled: Mapping[str, str] = spellings or {}
        self.keywords: dict[str, Any] = {}
        for name, member in enum.__members__.items():
            if "_" in name:
                keyword = name.split("_", 1)[1].lower()
                self.keywords[spelled[keyword] if keyword in spelled else keyword] = member
        self.keywords.update(aliases or {})
        self._by_lower_case = {keyword.lower(): member for keyword, member in self.keywords.items()}

    def get(self, handle: Handle) -> Any:
        value = getattr(self.target(handle), self.field)
        for keyword, member in self.keywords.items():
            if member == value:
                return keyword
        return value

    def convert(self, handle: Handle, value: Any) -> Any:
        if isinstance(value, self.enum):
            return value
        if isinstance(value, str) and value.lower() in self._by_lower_case:
            return self._by_lower_case[value.lower()]
        raise ValueError(f"expected one of {sorted(self.keywords)}, got {value!r}")


class Limited(Keyword):
    """`limited`/`ctrllimited`/...: `true`, `false` or `auto` (MuJoCo's tri-state)."""

    def __init__(self, field: str) -> None:
        super().__init__(field, mujoco.mjtLimited)

    def convert(self, handle: Handle, value: Any) -> Any:
        if isinstance(value, (bool, np.bool_)):
            return mujoco.mjtLimited.mjLIMITED_TRUE if value else mujoco.mjtLimited.mjLIMITED_FALSE
        return super().convert(handle, value)


class Reference(Attribute):
    """The name of another element (`joint=`, `material=`, `body1=`, ...).

    Takes a handle (its full name is stored) or a name relative to the referring
    element's model. Reading gives the referred element's handle when it exists.
    `namespace` is the kind of element referred to, for `find`.
    """

    is_reference = True

    def __init__(self, field: str, namespace: str) -> None:
        super().__init__(field)
        self.namespace = namespace

    def get(self, handle: Handle) -> Element | str | None:
        name = getattr(self.target(handle), self.field)
        if not name:
            return None
        return handle._scope._wrap_by_full_name(self.namespace, name) or name

    def set(self, handle: Handle, value: Any) -> WrittenForm:
        setattr(handle._mjs, self.field, reference_name(handle, value, self.namespace))
        return value if type(value) is str else None  # a name reads back as given


@functools.cache
def _element_class() -> type[Element]:
    # Imported on first use: element.py builds its tables from this module's.
    from composer_tasks.mjcf.element import Element

    return Element


# The names given to unnamed elements that another element refers to (MjSpec refers
# by name): `//unnamed_<namespace>_<n>` in the element's model, the names dm_control
# writes for unnamed elements. A user's name cannot contain "/", so these clash with
# none; the element's `name` stays None.
UNNAMED_PREFIX = physics_module.UNNAMED_PREFIX


def _name_unnamed(element: Any, namespace: str) -> str:
    """Names the unnamed `element` `//unnamed_<namespace>_<n>`: n its place among its
    model's elements of that kind, as its `full_identifier` (PyMJCF's name), when no
    element has that name yet; else the first n free from there."""
    scope = element._scope
    siblings = [sibling._mjs for sibling in scope.find_all(namespace, exclude_attachments=True)]
    index = next((i for i, mjs in enumerate(siblings) if mjs == element._mjs), 0)
    while True:
        full_name = f"{scope._prefix_in_top}{UNNAMED_PREFIX}{namespace}_{index}"
        if scope._lookup(namespace, full_name) is None:
            break
        index += 1
    element._mjs.name = full_name
    scope._edited()
    return full_name


def class_of(mjs: Any) -> Any:
    """The default class (`MjsDefault`) spec element `mjs` was made in, or None for an
    element without one. (MjSpec gives a tendon's as `default()`, others' as
    `classname`.)"""
    if isinstance(mjs, mujoco.MjsTendon):
        return mjs.default()
    return getattr(mjs, "classname", None)


def reference_name(handle: Handle, value: Any, namespace: str) -> str:
    """The full name a reference attribute of `handle` stores for `value`."""
    if isinstance(value, str):
        return handle._scope._full_prefix() + value
    if isinstance(value, _element_class()):
        if value._scope._top() is not handle._scope._top():
            raise ValueError(
                f"{value!r} belongs to model {value._scope._top().model!r}, not to the "
                f"model of {handle!r}; attach its model first"
            )
        if value.spec_namespace != namespace:
            raise ValueError(f"expected a <{namespace}> element, got {value!r}")
        name = value._mjs.name
        if not name:
            name = _name_unnamed(value, namespace)
        return name
    raise TypeError(f"expected a <{namespace}> element or its name, got {type(value).__name__}")


class Orientation(Attribute):
    """An alternative orientation (`euler`, `axisangle`, `xyaxes`, `zaxis`), stored in
    the element's `alt` (MjsOrientation); MuJoCo turns it into `quat` at compile
    time, with the model's `compiler.angle` and `eulerseq`."""

    def __init__(self, field: str, kind: Any, size: int) -> None:
        super().__init__(field)
        self.kind = kind
        self.size = size

    def get(self, handle: Handle) -> np.ndarray | None:
        alt = handle._mjs.alt
        if alt.type != self.kind:
            return None
        value = np.array(getattr(alt, self.field))
        value.flags.writeable = False
        return value

    def set(self, handle: Handle, value: Any) -> WrittenForm:
        values = _numbers(value)
        if values.size != self.size:
            raise ValueError(f"expected {self.size} numbers, got {value!r}")
        alt = handle._mjs.alt
        setattr(alt, self.field, values)
        alt.type = self.kind
        return None

    def snapshot(self, handle: Handle) -> Callable[[], None]:
        alt = handle._mjs.alt
        kind, values = alt.type, np.array(getattr(alt, self.field))

        def restore() -> None:
            setattr(alt, self.field, values)
            alt.type = kind

        return restore


class Quaternion(Vector):
    """`quat`: setting it makes it the element's orientation again (over `euler`, ...)."""

    def __init__(self, field: str = "quat") -> None:
        super().__init__(field, 4)

    def set(self, handle: Handle, value: Any) -> WrittenForm:
        written = super().set(handle, value)
        alt = getattr(handle._mjs, "alt", None)
        if alt is not None:
            alt.type = mujoco.mjtOrientation.mjORIENTATION_QUAT
        return written

    def snapshot(self, handle: Handle) -> Callable[[], None]:
        restore_quat = super().snapshot(handle)
        alt = getattr(handle._mjs, "alt", None)
        kind = None if alt is None else alt.type

        def restore() -> None:
            restore_quat()
            if alt is not None:
                alt.type = kind

        return restore


class Custom(Attribute):
    """An attribute read and written by two functions of (handle[, value]); `fields`
    are the spec element's fields the setter writes. A setter may return how the value
    was written (a reference's name), else None."""

    def __init__(
        self,
        getter: Callable[[Any], Any],
        setter: Callable[[Any, Any], WrittenForm],
        fields: tuple[str, ...],
    ) -> None:
        # `Any` handles: each custom attribute serves one kind of handle (a body's
        # `childclass` needs an Element, ...), which its table entry guarantees.
        super().__init__("")
        self.getter = getter
        self.setter = setter
        self.written_fields = fields

    def get(self, handle: Handle) -> Any:
        return self.getter(handle)

    def set(self, handle: Handle, value: Any) -> WrittenForm:
        return self.setter(handle, value)


def _numbers(value: Any) -> np.ndarray:
    kind = type(value)
    if kind is list or kind is tuple:  # the common cases first
        try:
            array = np.array(value, dtype=np.float64)
        except (TypeError, ValueError, OverflowError):
            raise ValueError(f"expected numbers, got {value!r}") from None
        if array.ndim == 1:
            return array
        raise ValueError(f"expected a flat list of numbers, got {value!r}")
    elif kind is int or kind is float:  # `numbers.Real` below is a slower check
        try:
            return np.array([float(value)])
        except OverflowError:
            raise ValueError(f"{value!r} is too large for a float") from None
    if isinstance(value, str):
        try:
            return np.array([float(part) for part in value.split()])
        except ValueError:
            raise ValueError(f"expected numbers separated by spaces, got {value!r}") from None
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        try:
            return np.array([float(value)])
        except (TypeError, ValueError, OverflowError) as error:
            raise ValueError(f"expected a number, got {value!r} ({error})") from None
    try:
        array = np.asarray(value)
    except (TypeError, ValueError, OverflowError) as error:
        raise ValueError(f"expected numbers, got {value!r} ({error})") from None
    if array.dtype.kind not in "biuf":
        raise ValueError(f"expected numbers, got {value!r}")
    if array.ndim > 1:
        raise ValueError(f"expected a flat list of numbers, got {value!r}")
    return array.astype(np.float64).reshape(-1)


def _boolean(value: Any) -> bool:
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, str) and value.lower() in ("true", "false"):
        return value.lower() == "true"
    raise ValueError(f"expected true or false, got {value!r}")


# Attribute tables, by tag.


def _frame_attributes() -> dict[str, Attribute]:
    return {
        "pos": Vector("pos", 3),
        "quat": Quaternion(),
        "euler": Orientation("euler", mujoco.mjtOrientation.mjORIENTATION_EULER, 3),
        "axisangle": Orientation("axisangle", mujoco.mjtOrientation.mjORIENTATION_AXISANGLE, 4),
        "xyaxes": Orientation("xyaxes", mujoco.mjtOrientation.mjORIENTATION_XYAXES, 6),
        "zaxis": Orientation("zaxis", mujoco.mjtOrientation.mjORIENTATION_ZAXIS, 3),
    }


def _named(**table: Attribute | None) -> dict[str, Attribute | None]:
    table.setdefault("name", None)  # filled by element.py: names carry the model prefix
    return table


_GEOM = _named(
    **_frame_attributes(),
    type=Keyword("type", mujoco.mjtGeom),
    size=Vector("size", 3, partial=True),
    fromto=Vector("fromto", 6),
    rgba=Vector("rgba", 4),
    friction=Vector("friction", 3, partial=True),
    mass=Number("mass"),
    density=Number("density"),
    contype=Number("contype", integer=True),
    conaffinity=Number("conaffinity", integer=True),
    condim=Number("condim", integer=True),
    group=Number("group", integer=True),
    priority=Number("priority", integer=True),
    margin=Number("margin"),
    gap=Number("gap"),
    solmix=Number("solmix"),
    solref=Vector("solref", 2, partial=True),
    solimp=Vector("solimp", 5, partial=True),
    material=Reference("material", "material"),
    mesh=Reference("meshname", "mesh"),
    hfield=Reference("hfieldname", "hfield"),
    user=FlatArray("userdata"),
)

_SITE = _named(
    **_frame_attributes(),
    type=Keyword("type", mujoco.mjtGeom),
    size=Vector("size", 3, partial=True),
    fromto=Vector("fromto", 6),
    rgba=Vector("rgba", 4),
    group=Number("group", integer=True),
    material=Reference("material", "material"),
    user=FlatArray("userdata"),
)

_JOINT = _named(
    type=Keyword("type", mujoco.mjtJoint),
    pos=Vector("pos", 3),
    axis=Vector("axis", 3),
    range=Vector("range", 2),
    limited=Limited("limited"),
    # MuJoCo 4 keeps polynomial coefficients; MJCF's one number is the first.
    damping=Vector("damping", 3, partial=True),
    stiffness=Vector("stiffness", 3, partial=True),
    armature=Number("armature"),
    frictionloss=Number("frictionloss"),
    springref=Number("springref"),
    ref=Number("ref"),
    group=Number("group", integer=True),
    margin=Number("margin"),
    solreflimit=Vector("solref_limit", 2, partial=True),
    solimplimit=Vector("solimp_limit", 5, partial=True),
    solreffriction=Vector("solref_friction", 2, partial=True),
    solimpfriction=Vector("solimp_friction", 5, partial=True),
    actuatorfrcrange=Vector("actfrcrange", 2),
    actuatorfrclimited=Limited("actfrclimited"),
    user=FlatArray("userdata"),
)

_FREEJOINT = _named(group=Number("group", integer=True))

_BODY = _named(
    **_frame_attributes(),
    childclass=Custom(
        lambda h: h._childclass(), lambda h, v: h._set_childclass(v), ("childclass",)
    ),
    mocap=Boolean("mocap"),
    gravcomp=Number("gravcomp"),
    user=FlatArray("userdata"),
)

_INERTIAL = {
    "pos": Vector("ipos", 3),
    "quat": Quaternion("iquat"),
    "mass": Number("mass"),
    "diaginertia": Vector("inertia", 3),
    "fullinertia": Vector("fullinertia", 6),
}

_CAMERA = _named(
    **_frame_attributes(),
    mode=Keyword("mode", mujoco.mjtCamLight),
    target=Reference("targetbody", "body"),
    fovy=Number("fovy"),
    ipd=Number("ipd"),
    user=FlatArray("userdata"),
)


def _set_directional(handle: Handle, value: Any) -> None:
    directional = _boolean(value)
    handle._mjs.type = (
        mujoco.mjtLightType.mjLIGHT_DIRECTIONAL if directional else mujoco.mjtLightType.mjLIGHT_SPOT
    )


_LIGHT = _named(
    # MJCF's older spelling of `type="directional"`, which dm_control's schema has.
    directional=Custom(
        lambda h: "true" if h._mjs.type == mujoco.mjtLightType.mjLIGHT_DIRECTIONAL else "false",
        _set_directional,
        ("type",),
    ),
    pos=Vector("pos", 3),
    dir=Vector("dir", 3),
    mode=Keyword("mode", mujoco.mjtCamLight),
    target=Reference("targetbody", "body"),
    type=Keyword("type", mujoco.mjtLightType),
    castshadow=Boolean("castshadow"),
    active=Boolean("active"),
    diffuse=Vector("diffuse", 3),
    ambient=Vector("ambient", 3),
    specular=Vector("specular", 3),
    attenuation=Vector("attenuation", 3),
    cutoff=Number("cutoff"),
    exponent=Number("exponent"),
    intensity=Number("intensity"),
)


def _texture_of_material(handle: Handle) -> Element | str | None:
    name = handle._mjs.textures[mujoco.mjtTextureRole.mjTEXROLE_RGB]
    return handle._scope._wrap_by_full_name("texture", name) or name or None


def _set_texture_of_material(handle: Handle, value: Any) -> WrittenForm:
    textures = list(handle._mjs.textures)
    textures[mujoco.mjtTextureRole.mjTEXROLE_RGB] = reference_name(handle, value, "texture")
    handle._mjs.textures = textures
    return value if type(value) is str else None  # the name as given (read back as given)


_MATERIAL = _named(
    texture=Custom(_texture_of_material, _set_texture_of_material, ("textures",)),
    texrepeat=Vector("texrepeat", 2),
    texuniform=Boolean("texuniform"),
    emission=Number("emission"),
    specular=Number("specular"),
    shininess=Number("shininess"),
    reflectance=Number("reflectance"),
    rgba=Vector("rgba", 4),
)

_TEXTURE = _named(
    type=Keyword("type", mujoco.mjtTexture),
    builtin=Keyword("builtin", mujoco.mjtBuiltin),
    mark=Keyword("mark", mujoco.mjtMark),
    rgb1=Vector("rgb1", 3),
    rgb2=Vector("rgb2", 3),
    markrgb=Vector("markrgb", 3),
    random=Number("random"),
    width=Number("width", integer=True),
    height=Number("height", integer=True),
    file=File("file"),
    gridsize=Vector("gridsize", 2, integer=True),
    gridlayout=Text("gridlayout"),
    content_type=Text("content_type"),
)

_MESH = _named(
    file=File("file"),
    vertex=FlatArray("uservert"),
    face=Custom(
        lambda h: np.array(h._mjs.userface),
        lambda h, v: setattr(h._mjs, "userface", [int(x) for x in _numbers(v)]),
        ("userface",),
    ),
    scale=Vector("scale", 3),
    content_type=Text("content_type"),
)

_HFIELD = _named(
    size=Vector("size", 4),
    nrow=Number("nrow", integer=True),
    ncol=Number("ncol", integer=True),
    file=File("file"),
    elevation=FlatArray("userdata"),
)

# Transmission attributes of actuators: the XML names the target by its kind.
_TRANSMISSIONS = {
    "joint": (mujoco.mjtTrn.mjTRN_JOINT, "joint"),
    "jointinparent": (mujoco.mjtTrn.mjTRN_JOINTINPARENT, "joint"),
    "tendon": (mujoco.mjtTrn.mjTRN_TENDON, "tendon"),
    "site": (mujoco.mjtTrn.mjTRN_SITE, "site"),
    "body": (mujoco.mjtTrn.mjTRN_BODY, "body"),
}


def _transmission(kind: str) -> Custom:
    trntype, namespace = _TRANSMISSIONS[kind]

    def getter(handle: Handle) -> Element | str | None:
        if handle._mjs.trntype != trntype or not handle._mjs.target:
            return None
        return handle._scope._wrap_by_full_name(namespace, handle._mjs.target) or handle._mjs.target

    def setter(handle: Handle, value: Any) -> WrittenForm:
        handle._mjs.target = reference_name(handle, value, namespace)
        handle._mjs.trntype = trntype
        return value if type(value) is str else None  # the name as given

    reference = Custom(getter, setter, ("target", "trntype"))
    reference.is_reference = True
    return reference


def _gain(handle: Handle) -> float:
    return float(handle._mjs.gainprm[0])


# Converts the one-number shortcut attributes (`kp`, `kv`) of actuators.
_SCALAR = Number("scalar")


# The bindings give `gainprm` and `biasprm` as views of the element's arrays: the
# shortcuts write the entries they change in place.


def _set_position_kp(handle: Handle, value: Any) -> None:
    kp = _SCALAR.convert(handle, value)
    actuator = handle._mjs
    actuator.gainprm[0] = kp
    actuator.biasprm[1] = -kp


def _set_position_kv(handle: Handle, value: Any) -> None:
    handle._mjs.biasprm[2] = -_SCALAR.convert(handle, value)


def _set_velocity_kv(handle: Handle, value: Any) -> None:
    kv = _SCALAR.convert(handle, value)
    actuator = handle._mjs
    actuator.gainprm[0] = kv
    actuator.biasprm[2] = -kv


def _actuator(**extra: Attribute | None) -> dict[str, Attribute | None]:
    table = _named(
        **{kind: _transmission(kind) for kind in _TRANSMISSIONS},
        gear=Vector("gear", 6, partial=True),
        ctrlrange=Vector("ctrlrange", 2),
        ctrllimited=Limited("ctrllimited"),
        forcerange=Vector("forcerange", 2),
        forcelimited=Limited("forcelimited"),
        actrange=Vector("actrange", 2),
        actlimited=Limited("actlimited"),
        lengthrange=Vector("lengthrange", 2),
        group=Number("group", integer=True),
        refsite=Reference("refsite", "site"),
        user=FlatArray("userdata"),
    )
    table.update(extra)
    return table


def _set_actuator_plugin(handle: Handle, value: Any) -> None:
    if not isinstance(value, str):
        raise TypeError(f"expected a plugin's name, got {type(value).__name__}")
    handle._mjs.plugin.plugin_name = value
    handle._mjs.plugin.active = True


def _actuator_instance(handle: Handle) -> Any:
    name = handle._mjs.plugin.name
    return (handle._scope._wrap_by_full_name("plugin", name) or name) if name else None


def _set_actuator_instance(handle: Handle, value: Any) -> WrittenForm:
    handle._mjs.plugin.name = reference_name(handle, value, "plugin")
    handle._mjs.plugin.active = True
    return value if type(value) is str else None  # the name as given


_MOTOR = _actuator()
# An actuator computed by a plugin (<actuator><plugin plugin= instance=>): MjSpec's
# actuator with its `plugin` struct active.
_PLUGIN_ACTUATOR = _actuator(
    plugin=Custom(lambda h: h._mjs.plugin.plugin_name or None, _set_actuator_plugin, ()),
    instance=Custom(_actuator_instance, _set_actuator_instance, ()),
    actdim=Number("actdim", integer=True),
    dyntype=Keyword("dyntype", mujoco.mjtDyn),
    dynprm=Vector("dynprm", 10, partial=True),
)
# The <plugin> of a geom or mesh: the plugin by name, or a declared instance.
_ELEMENT_PLUGIN = {
    "plugin": Custom(lambda h: h._mjs.plugin.plugin_name or None, _set_actuator_plugin, ()),
    "instance": Custom(_actuator_instance, _set_actuator_instance, ()),
}
_POSITION = _actuator(
    kp=Custom(_gain, _set_position_kp, ("gainprm", "biasprm")),
    kv=Custom(lambda h: -float(h._mjs.biasprm[2]), _set_position_kv, ("biasprm",)),
)
_VELOCITY = _actuator(kv=Custom(_gain, _set_velocity_kv, ("gainprm", "biasprm")))


def _set_cylinder_entry(field: str, index: int) -> Callable[[Handle, Any], None]:
    def setter(handle: Handle, value: Any) -> None:
        getattr(handle._mjs, field)[index] = _SCALAR.convert(handle, value)

    return setter


def _set_cylinder_diameter(handle: Handle, value: Any) -> None:
    # MJCF's cylinder: the piston area (the gain) of a diameter is pi / 4 * d^2.
    diameter = _SCALAR.convert(handle, value)
    handle._mjs.gainprm[0] = np.pi / 4 * diameter**2


def _set_cylinder_bias(handle: Handle, value: Any) -> None:
    values = _numbers(value)
    if values.size != 3:
        raise ValueError(
            f"expected 3 numbers (the bias' constant, length and velocity terms), got {value!r}"
        )
    handle._mjs.biasprm[:3] = values


# MJCF's <cylinder> (a pneumatic or hydraulic cylinder, MuJoCo's XML reference): the
# control through a first-order filter of time constant `timeconst` (dynprm[0]), times
# the piston `area` (gainprm[0], or that of `diameter`), plus the affine `bias`
# (biasprm[0:3]); attributes in dm_control's schema order.
_CYLINDER = _actuator(
    timeconst=Custom(
        lambda h: float(h._mjs.dynprm[0]), _set_cylinder_entry("dynprm", 0), ("dynprm",)
    ),
    area=Custom(_gain, _set_cylinder_entry("gainprm", 0), ("gainprm",)),
    diameter=Custom(
        lambda h: float(np.sqrt(4 * h._mjs.gainprm[0] / np.pi)),
        _set_cylinder_diameter,
        ("gainprm",),
    ),
    bias=Custom(lambda h: np.array(h._mjs.biasprm[:3]), _set_cylinder_bias, ("biasprm",)),
)
_GENERAL = _actuator(
    gaintype=Keyword("gaintype", mujoco.mjtGain),
    biastype=Keyword("biastype", mujoco.mjtBias),
    dyntype=Keyword("dyntype", mujoco.mjtDyn),
    gainprm=Vector("gainprm", 10, partial=True),
    biasprm=Vector("biasprm", 10, partial=True),
    dynprm=Vector("dynprm", 10, partial=True),
)

# Sensors: tag -> (MuJoCo sensor type, the attribute naming the sensed object).
SENSORS = {
    "touch": (mujoco.mjtSensor.mjSENS_TOUCH, "site"),
    "accelerometer": (mujoco.mjtSensor.mjSENS_ACCELEROMETER, "site"),
    "velocimeter": (mujoco.mjtSensor.mjSENS_VELOCIMETER, "site"),
    "gyro": (mujoco.mjtSensor.mjSENS_GYRO, "site"),
    "force": (mujoco.mjtSensor.mjSENS_FORCE, "site"),
    "torque": (mujoco.mjtSensor.mjSENS_TORQUE, "site"),
    "magnetometer": (mujoco.mjtSensor.mjSENS_MAGNETOMETER, "site"),
    "rangefinder": (mujoco.mjtSensor.mjSENS_RANGEFINDER, "site"),
    # dm_control's <distance> (MuJoCo 3.17's name of MuJoCo 4's geomdist): the
    # distance between two geoms (or bodies' geoms), `cutoff` the farthest reported.
    "distance": (mujoco.mjtSensor.mjSENS_GEOMDIST, "geom pair"),
    "jointpos": (mujoco.mjtSensor.mjSENS_JOINTPOS, "joint"),
    "jointvel": (mujoco.mjtSensor.mjSENS_JOINTVEL, "joint"),
    "tendonpos": (mujoco.mjtSensor.mjSENS_TENDONPOS, "tendon"),
    "tendonvel": (mujoco.mjtSensor.mjSENS_TENDONVEL, "tendon"),
    "actuatorpos": (mujoco.mjtSensor.mjSENS_ACTUATORPOS, "actuator"),
    "actuatorvel": (mujoco.mjtSensor.mjSENS_ACTUATORVEL, "actuator"),
    "actuatorfrc": (mujoco.mjtSensor.mjSENS_ACTUATORFRC, "actuator"),
    "subtreecom": (mujoco.mjtSensor.mjSENS_SUBTREECOM, "body"),
    "subtreelinvel": (mujoco.mjtSensor.mjSENS_SUBTREELINVEL, "body"),
    "subtreeangmom": (mujoco.mjtSensor.mjSENS_SUBTREEANGMOM, "body"),
    "framepos": (mujoco.mjtSensor.mjSENS_FRAMEPOS, "objname"),
    "framequat": (mujoco.mjtSensor.mjSENS_FRAMEQUAT, "objname"),
    "framexaxis": (mujoco.mjtSensor.mjSENS_FRAMEXAXIS, "objname"),
    "frameyaxis": (mujoco.mjtSensor.mjSENS_FRAMEYAXIS, "objname"),
    "framezaxis": (mujoco.mjtSensor.mjSENS_FRAMEZAXIS, "objname"),
    "framelinvel": (mujoco.mjtSensor.mjSENS_FRAMELINVEL, "objname"),
    "frameangvel": (mujoco.mjtSensor.mjSENS_FRAMEANGVEL, "objname"),
    "framelinacc": (mujoco.mjtSensor.mjSENS_FRAMELINACC, "objname"),
    "frameangacc": (mujoco.mjtSensor.mjSENS_FRAMEANGACC, "objname"),
    # A sensor whose values the user's own callback writes (MJCF <user>).
    "user": (mujoco.mjtSensor.mjSENS_USER, "user"),
    # The sensors dm-control 1.0.50's schema has beside these (its MuJoCo 3.17's).
    "jointactuatorfrc": (mujoco.mjtSensor.mjSENS_JOINTACTFRC, "joint"),
    "tendonactuatorfrc": (mujoco.mjtSensor.mjSENS_TENDONACTFRC, "tendon"),
    "ballquat": (mujoco.mjtSensor.mjSENS_BALLQUAT, "joint"),
    "ballangvel": (mujoco.mjtSensor.mjSENS_BALLANGVEL, "joint"),
    "jointlimitpos": (mujoco.mjtSensor.mjSENS_JOINTLIMITPOS, "joint"),
    "jointlimitvel": (mujoco.mjtSensor.mjSENS_JOINTLIMITVEL, "joint"),
    "jointlimitfrc": (mujoco.mjtSensor.mjSENS_JOINTLIMITFRC, "joint"),
    "tendonlimitpos": (mujoco.mjtSensor.mjSENS_TENDONLIMITPOS, "tendon"),
    "tendonlimitvel": (mujoco.mjtSensor.mjSENS_TENDONLIMITVEL, "tendon"),
    "tendonlimitfrc": (mujoco.mjtSensor.mjSENS_TENDONLIMITFRC, "tendon"),
    "normal": (mujoco.mjtSensor.mjSENS_GEOMNORMAL, "geom pair"),
    "fromto": (mujoco.mjtSensor.mjSENS_GEOMFROMTO, "geom pair"),
    "clock": (mujoco.mjtSensor.mjSENS_CLOCK, None),
    "e_potential": (mujoco.mjtSensor.mjSENS_E_POTENTIAL, None),
    "e_kinetic": (mujoco.mjtSensor.mjSENS_E_KINETIC, None),
}

# MJCF object types of frame sensors (`objtype="body"`) and the namespaces of their names.
OBJECT_TYPES = {
    "body": (mujoco.mjtObj.mjOBJ_BODY, "body"),
    "xbody": (mujoco.mjtObj.mjOBJ_XBODY, "body"),
    "geom": (mujoco.mjtObj.mjOBJ_GEOM, "geom"),
    "site": (mujoco.mjtObj.mjOBJ_SITE, "site"),
    "camera": (mujoco.mjtObj.mjOBJ_CAMERA, "camera"),
}

_SENSOR_OBJECTS = {
    "site": mujoco.mjtObj.mjOBJ_SITE,
    "geom": mujoco.mjtObj.mjOBJ_GEOM,
    "joint": mujoco.mjtObj.mjOBJ_JOINT,
    "tendon": mujoco.mjtObj.mjOBJ_TENDON,
    "actuator": mujoco.mjtObj.mjOBJ_ACTUATOR,
    "body": mujoco.mjtObj.mjOBJ_BODY,
}


def _sensor_object(kind: str) -> Custom:
    objtype = _SENSOR_OBJECTS[kind]

    def getter(handle: Handle) -> Element | str | None:
        if handle._mjs.objtype != objtype or not handle._mjs.objname:
            return None
        return handle._scope._wrap_by_full_name(kind, handle._mjs.objname) or handle._mjs.objname

    def setter(handle: Handle, value: Any) -> WrittenForm:
        handle._mjs.objname = reference_name(handle, value, kind)
        handle._mjs.objtype = objtype
        return value if type(value) is str else None  # the name as given

    reference = Custom(getter, setter, ("objname", "objtype"))
    reference.is_reference = True
    return reference


def _typed_object(kind: str, name_field: str, type_field: str) -> Custom:
    """A sensor's object of one kind in a pair of name and type fields (a distance
    sensor's `geom1` is its `objname` while `objtype` is a geom)."""
    objtype = _SENSOR_OBJECTS[kind]

    def getter(handle: Handle) -> Element | str | None:
        name = getattr(handle._mjs, name_field)
        if getattr(handle._mjs, type_field) != objtype or not name:
            return None
        return handle._scope._wrap_by_full_name(kind, name) or name

    def setter(handle: Handle, value: Any) -> WrittenForm:
        setattr(handle._mjs, name_field, reference_name(handle, value, kind))
        setattr(handle._mjs, type_field, objtype)
        return value if type(value) is str else None  # the name as given

    return Custom(getter, setter, (name_field, type_field))


def _frame_object(name_field: str, type_field: str) -> Custom:
    def getter(handle: Handle) -> Element | str | None:
        name = getattr(handle._mjs, name_field)
        objtype = getattr(handle._mjs, type_field)
        for member, namespace in OBJECT_TYPES.values():
            if member == objtype and name:
                return handle._scope._wrap_by_full_name(namespace, name) or name
        return name or None

    def setter(handle: Handle, value: Any) -> WrittenForm:
        objtype = getattr(handle._mjs, type_field)
        namespaces = {member: namespace for member, namespace in OBJECT_TYPES.values()}
        if isinstance(value, _element_class()):
            namespace = value.spec_namespace
            if namespace not in ("body", "geom", "site", "camera"):
                raise ValueError(
                    f"a frame sensor senses a body, geom, site or camera, got {value!r}"
                )
        else:
            namespace = namespaces.get(objtype, "body")
        name = reference_name(handle, value, namespace)  # checked before anything is written
        if namespaces.get(objtype) != namespace:
            setattr(handle._mjs, type_field, OBJECT_TYPES[namespace][0])
        setattr(handle._mjs, name_field, name)
        return value if type(value) is str else None  # the name as given

    reference = Custom(getter, setter, (name_field, type_field))
    reference.is_reference = True
    return reference


def _frame_object_type(type_field: str) -> Custom:
    def getter(handle: Handle) -> str | None:
        value = getattr(handle._mjs, type_field)
        for keyword, (member, _) in OBJECT_TYPES.items():
            if member == value:
                return keyword
        return None

    def setter(handle: Handle, value: Any) -> None:
        if not isinstance(value, str) or value not in OBJECT_TYPES:
            raise ValueError(f"expected one of {sorted(OBJECT_TYPES)}, got {value!r}")
        setattr(handle._mjs, type_field, OBJECT_TYPES[value][0])

    return Custom(getter, setter, (type_field,))


def sensor_attributes(tag: str) -> dict[str, Attribute | None]:
    """The PyMJCF attributes of a sensor element `tag` (e.g. "touch", "framepos"),
    mapped to the MjsSensor fields that hold them."""
    _, object_attribute = SENSORS[tag]
    if object_attribute == "user":
        # dm_control's schema order of <user>'s attributes.
        return _named(
            objtype=_frame_object_type("objtype"),
            objname=_frame_object("objname", "objtype"),
            datatype=Keyword("datatype", mujoco.mjtDataType),
            needstage=Keyword("needstage", mujoco.mjtStage),
            dim=Number("dim", integer=True),
            cutoff=Number("cutoff"),
            noise=Number("noise"),
            user=FlatArray("userdata"),
        )
    table = _named(
        noise=Number("noise"),
        cutoff=Number("cutoff"),
        user=FlatArray("userdata"),
    )
    if object_attribute == "geom pair":
        # geom1/body1 name the sensed object, geom2/body2 the reference one.
        table["geom1"] = _typed_object("geom", "objname", "objtype")
        table["geom2"] = _typed_object("geom", "refname", "reftype")
        table["body1"] = _typed_object("body", "objname", "objtype")
        table["body2"] = _typed_object("body", "refname", "reftype")
    elif object_attribute is None:  # senses the whole model (time, energy)
        pass
    elif object_attribute == "objname":
        table["objtype"] = _frame_object_type("objtype")
        table["objname"] = _frame_object("objname", "objtype")
        table["reftype"] = _frame_object_type("reftype")
        table["refname"] = _frame_object("refname", "reftype")
    else:
        table[object_attribute] = _sensor_object(object_attribute)
    return table


_PAIR = _named(
    geom1=Reference("geomname1", "geom"),
    geom2=Reference("geomname2", "geom"),
    condim=Number("condim", integer=True),
    friction=Vector("friction", 5, partial=True),
    solref=Vector("solref", 2, partial=True),
    solimp=Vector("solimp", 5, partial=True),
    margin=Number("margin"),
    gap=Number("gap"),
)

_EXCLUDE = _named(
    body1=Reference("bodyname1", "body"),
    body2=Reference("bodyname2", "body"),
)


def _equality(
    first: str, second: str, namespace: str, data_name: str | None = None, data_size: int = 0
) -> dict[str, Attribute | None]:
    table = _named(
        **{first: Reference("name1", namespace), second: Reference("name2", namespace)},
        active=Boolean("active"),
        solref=Vector("solref", 2, partial=True),
        solimp=Vector("solimp", 5, partial=True),
    )
    if data_name:

        def getter(handle: Handle) -> np.ndarray:
            return np.array(handle._mjs.data[:data_size])

        def setter(handle: Handle, value: Any) -> None:
            values = _numbers(value)
            if values.size > data_size:
                raise ValueError(f"expected at most {data_size} numbers, got {value!r}")
            data = np.array(handle._mjs.data)
            data[: values.size] = values
            handle._mjs.data = data

        table[data_name] = Custom(getter, setter, ("data",))
    return table


def _equality_data(start: int, size: int) -> Custom:
    """`size` numbers of an equality's `data` from `start` (one number reads as a
    float). Fewer may be given, as MJCF reads them: they fill the leading entries."""

    def getter(handle: Handle) -> Any:
        values = np.array(handle._mjs.data[start : start + size])
        values.flags.writeable = False
        return float(values[0]) if size == 1 else values

    def setter(handle: Handle, value: Any) -> None:
        values = _numbers(value)
        if not 1 <= values.size <= size:
            raise ValueError(f"expected 1 to {size} numbers, got {value!r}")
        data = np.array(handle._mjs.data)
        data[start : start + values.size] = values
        handle._mjs.data = data

    return Custom(getter, setter, ("data",))


_KEY = _named(
    time=Number("time"),
    qpos=FlatArray("qpos"),
    qvel=FlatArray("qvel"),
    act=FlatArray("act"),
    ctrl=FlatArray("ctrl"),
    mpos=FlatArray("mpos"),
    mquat=FlatArray("mquat"),
)


class SpringLength(Vector):
    """A tendon's `springlength`: one number is both ends of the dead band (MuJoCo's XML
    reader writes it twice), two are the band."""

    def __init__(self, field: str) -> None:
        super().__init__(field, 2, partial=True)

    def set(self, handle: Handle, value: Any) -> WrittenForm:
        values = _numbers(value)
        if values.size == 1:
            return super().set(handle, [float(values[0])] * 2) and 1
        return super().set(handle, value)


# A spatial tendon's attributes in dm_control's schema order (get_attributes lists them
# so); a fixed tendon has all but the drawing ones (width, material, rgba).
_SPATIAL = _named(
    group=Number("group", integer=True),
    limited=Limited("limited"),
    actuatorfrclimited=Limited("actfrclimited"),
    range=Vector("range", 2),
    actuatorfrcrange=Vector("actfrcrange", 2),
    solreflimit=Vector("solref_limit", 2, partial=True),
    solimplimit=Vector("solimp_limit", 5, partial=True),
    solreffriction=Vector("solref_friction", 2, partial=True),
    solimpfriction=Vector("solimp_friction", 5, partial=True),
    frictionloss=Number("frictionloss"),
    springlength=SpringLength("springlength"),
    width=Number("width"),
    material=Reference("material", "material"),
    margin=Number("margin"),
    # MuJoCo 4 keeps polynomial coefficients; MJCF's one number is the first.
    stiffness=Vector("stiffness", 3, partial=True),
    damping=Vector("damping", 3, partial=True),
    armature=Number("armature"),
    rgba=Vector("rgba", 4),
    user=FlatArray("userdata"),
)
_FIXED = {
    name: attribute
    for name, attribute in _SPATIAL.items()
    if name not in ("width", "material", "rgba")
}


class WrapValue(Attribute):
    """An attribute of a tendon's path element (<site>, <geom>, <pulley>, <joint> in a
    tendon): MjSpec fixes it when the element is added (its wraps have no setters),
    so it is given to `add` and only read afterwards. A reference reads back as the
    referred element's handle, a number as a float."""

    def __init__(self, field: str, namespace: str | None = None) -> None:
        super().__init__(field)
        self.namespace = namespace
        self.is_reference = namespace is not None

    def get(self, handle: Handle) -> Any:
        value = getattr(handle._mjs, self.field)
        if self.namespace is None:
            return float(value)
        if value is None or value == "":
            return None
        if isinstance(value, str):
            return handle._scope._wrap_by_full_name(self.namespace, value) or value
        return handle._scope._wrap(value)  # MjSpec gives the target element itself

    def set(self, handle: Handle, value: Any) -> WrittenForm:
        raise ValueError(
            f"the {self.field!r} of a tendon's path element is fixed when it is added "
            "(MjSpec's tendon wraps cannot change); remove the tendon and add it again"
        )


# A tendon's path elements, by internal tag: the tendon's `add` passes these to MjSpec.
_TENDON_SITE = {"site": WrapValue("target", "site")}
_TENDON_GEOM = {"geom": WrapValue("target", "geom"), "sidesite": WrapValue("sidesite", "site")}
_PULLEY = {"divisor": WrapValue("divisor")}
_TENDON_JOINT = {"joint": WrapValue("target", "joint"), "coef": WrapValue("coef")}


class TupleEntry:
    """One <element> of a custom <tuple>: entry `index` of the `MjsTuple`'s lists
    (`objtype`, `objname`, `objprm`); MjSpec has no element of its own for it."""

    __slots__ = ("index", "tuple")

    def __init__(self, tuple_: Any, index: int) -> None:
        self.tuple = tuple_
        self.index = index

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, TupleEntry)
            and other.tuple == self.tuple
            and other.index == self.index
        )

    def __hash__(self) -> int:
        return hash((hash(self.tuple), self.index))

    def read(self, field: str) -> Any:
        return list(getattr(self.tuple, field))[self.index]

    def write(self, field: str, value: Any) -> None:
        values = list(getattr(self.tuple, field))
        values[self.index] = value
        setattr(self.tuple, field, values)


def _entry_objtype(handle: Handle) -> str:
    return mujoco.mju_type2Str(int(handle._mjs.read("objtype")))


def _set_entry_objtype(handle: Handle, value: Any) -> None:
    if not isinstance(value, str) or mujoco.mju_str2Type(value) == mujoco.mjtObj.mjOBJ_UNKNOWN:
        raise ValueError(f"expected a MuJoCo object type ('body', 'geom', ...), got {value!r}")
    handle._mjs.write("objtype", int(mujoco.mju_str2Type(value)))


def _entry_namespace(handle: Handle) -> str | None:
    """The `find` namespace of the object a tuple entry names (None: not one of them)."""
    from composer_tasks.mjcf import namescope

    kind = _entry_objtype(handle)
    kind = "body" if kind == "xbody" else kind
    return kind if kind in namescope.NAMESPACES and kind != "default" else None


def _entry_objname(handle: Handle) -> Any:
    name = handle._mjs.read("objname")
    namespace = _entry_namespace(handle)
    if not name:
        return None
    if namespace is None:
        return name
    return handle._scope._wrap_by_full_name(namespace, name) or name


def _set_entry_objname(handle: Handle, value: Any) -> WrittenForm:
    namespace = _entry_namespace(handle)
    if namespace is None:
        if not isinstance(value, str):
            raise TypeError(f"expected a name, got {type(value).__name__}")
        name = handle._scope._full_prefix() + value
    else:
        name = reference_name(handle, value, namespace)
    handle._mjs.write("objname", name)
    return value if type(value) is str else None  # the name as given


def _set_entry_prm(handle: Handle, value: Any) -> None:
    handle._mjs.write("objprm", Number("prm").convert(handle, value))


class IntArray(FlatArray):
    """A list of integers of any length (a skin's faces, a bone's vertex ids)."""

    def convert(self, handle: Handle, value: Any) -> list[int]:
        values = _numbers(value)
        if not np.all(values == np.round(values)):
            raise ValueError(f"expected integers, got {value!r}")
        return values.astype(int).tolist()


class BoneEntry:
    """One <bone> of a <skin>: entry `index` of the `MjsSkin`'s bone lists (`bodyname`,
    `bindpos` and `bindquat` (3 and 4 numbers an entry), `vertid`, `vertweight`)."""

    __slots__ = ("index", "skin")
    _WIDTHS = {"bindpos": 3, "bindquat": 4}

    def __init__(self, skin: Any, index: int) -> None:
        self.skin = skin
        self.index = index

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, BoneEntry) and other.skin == self.skin and other.index == self.index
        )

    def __hash__(self) -> int:
        return hash((hash(self.skin), self.index, "bone"))

    def read(self, field: str) -> Any:
        width = self._WIDTHS.get(field)
        values = list(getattr(self.skin, field))
        if width is None:
            return values[self.index]
        return np.array(values[width * self.index : width * (self.index + 1)])

    def write(self, field: str, value: Any) -> None:
        width = self._WIDTHS.get(field)
        values = list(getattr(self.skin, field))
        if width is None:
            values[self.index] = value
        else:
            values[width * self.index : width * (self.index + 1)] = list(value)
        setattr(self.skin, field, values)


def _bone_value(field: str, convert: Callable[[Any, Any], Any]) -> Custom:
    def getter(handle: Handle) -> Any:
        value = handle._mjs.read(field)
        return np.array(value) if isinstance(value, list) else value

    def setter(handle: Handle, value: Any) -> None:
        handle._mjs.write(field, convert(handle, value))

    return Custom(getter, setter, ())


def _bone_body(handle: Handle) -> Any:
    name = handle._mjs.read("bodyname")
    return (handle._scope._wrap_by_full_name("body", name) or name) if name else None


def _set_bone_body(handle: Handle, value: Any) -> WrittenForm:
    handle._mjs.write("bodyname", reference_name(handle, value, "body"))
    return value if type(value) is str else None  # the name as given


_SKIN = _named(
    file=File("file"),
    material=Reference("material", "material"),
    rgba=Vector("rgba", 4),
    inflate=Number("inflate"),
    vertex=FlatArray("vert"),
    texcoord=FlatArray("texcoord"),
    face=IntArray("face"),
    group=Number("group", integer=True),
)
_BONE = {
    "body": Custom(_bone_body, _set_bone_body, ()),
    "bindpos": _bone_value("bindpos", lambda h, v: _fixed(v, 3)),
    "bindquat": _bone_value("bindquat", lambda h, v: _fixed(v, 4)),
    "vertid": _bone_value("vertid", lambda h, v: IntArray("vertid").convert(h, v)),
    "vertweight": _bone_value("vertweight", lambda h, v: _numbers(v).tolist()),
}


def _fixed(value: Any, size: int) -> list[float]:
    values = _numbers(value)
    if values.size != size:
        raise ValueError(f"expected {size} numbers, got {value!r}")
    return values.tolist()


class PluginDeclaration:
    """A model's <extension><plugin plugin="..."/>: MjSpec activates the plugin by name
    (`MjSpec.activate_plugin`) and keeps no element for it."""

    __slots__ = ("name", "scope_id")

    def __init__(self, scope_id: int, name: str) -> None:
        self.scope_id = scope_id
        self.name = name

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, PluginDeclaration)
            and other.scope_id == self.scope_id
            and other.name == self.name
        )

    def __hash__(self) -> int:
        return hash((self.scope_id, self.name, "plugin"))


class ConfigEntry:
    """A <config key= value=> of a plugin <instance>: one entry of the `MjsPlugin`'s
    `config` dict."""

    __slots__ = ("key", "plugin")

    def __init__(self, plugin: Any, key: str) -> None:
        self.plugin = plugin
        self.key = key

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, ConfigEntry) and other.plugin == self.plugin and other.key == self.key
        )

    def __hash__(self) -> int:
        return hash((hash(self.plugin), self.key))


def _fixed_at_creation(what: str) -> Callable[[Any, Any], None]:
    def setter(handle: Any, value: Any) -> None:
        raise ValueError(
            f"the {what} is fixed when it is added (MjSpec keeps it as a name); add a new one"
        )

    return setter


def _set_config_value(handle: Handle, value: Any) -> None:
    if not isinstance(value, str):
        raise TypeError(f"expected a string, got {type(value).__name__}")
    entry = handle._mjs
    entry.plugin.config = {**entry.plugin.config, entry.key: value}


_EXTENSION_PLUGIN = {
    "plugin": Custom(lambda handle: handle._mjs.name, _fixed_at_creation("plugin's name"), ()),
}
_INSTANCE = _named()
_CONFIG = {
    "key": Custom(lambda handle: handle._mjs.key, _fixed_at_creation("config's key"), ()),
    "value": Custom(
        lambda handle: handle._mjs.plugin.config.get(handle._mjs.key), _set_config_value, ()
    ),
}


def _names_text(field: str) -> Custom:
    """A space-separated list of body names (a flex's `body`), kept as the list of
    their full names in `field`."""

    def getter(handle: Handle) -> str | None:
        prefix = handle._scope._full_prefix()
        names = [
            name[len(prefix) :] if name.startswith(prefix) else name
            for name in getattr(handle._mjs, field)
        ]
        return " ".join(names) if names else None

    def setter(handle: Handle, value: Any) -> None:
        if not isinstance(value, str):
            raise TypeError(f"expected body names separated by spaces, got {type(value).__name__}")
        prefix = handle._scope._full_prefix()
        setattr(handle._mjs, field, [prefix + name for name in value.split()])

    return Custom(getter, setter, (field,))


def _flex_material(handle: Handle) -> Any:
    names = list(handle._mjs.material)
    if not names or not names[0]:
        return None
    return handle._scope._wrap_by_full_name("material", names[0]) or names[0]


def _set_flex_material(handle: Handle, value: Any) -> WrittenForm:
    handle._mjs.material = [reference_name(handle, value, "material")]
    return value if type(value) is str else None  # the name as given


def _int_keyword(field: str, keywords: tuple[str, ...]) -> Custom:
    """A keyword MjSpec keeps as its index in `keywords` (a flex's `elastic2d`,
    `passive`)."""

    def getter(handle: Handle) -> str:
        return keywords[int(getattr(handle._mjs, field))]

    def setter(handle: Handle, value: Any) -> None:
        if isinstance(value, bool) and keywords == ("false", "true"):
            value = "true" if value else "false"
        if value not in keywords:
            raise ValueError(f"expected one of {list(keywords)}, got {value!r}")
        setattr(handle._mjs, field, keywords.index(value))

    return Custom(getter, setter, (field,))


def _not_built(name: str) -> Custom:
    def refuse(handle: Any, value: Any = None) -> None:
        raise NotImplementedError(
            f"a flex's {name!r} is not built through this API (MuJoCo 4 keeps nodes and "
            "degrees of freedom otherwise); set it on the MjSpec's flex"
        )

    return Custom(lambda handle: None, refuse, ())


# A <flex> of <deformable>, in dm_control's schema order; its <contact>, <edge> and
# <elasticity> children set fields of the same MjsFlex.
_FLEX = _named(
    group=Number("group", integer=True),
    dim=Number("dim", integer=True),
    radius=Number("radius"),
    material=Custom(_flex_material, _set_flex_material, ("material",)),
    rgba=Vector("rgba", 4),
    flatskin=Boolean("flatskin"),
    body=_names_text("vertbody"),
    vertex=FlatArray("vert"),
    element=IntArray("elem"),
    texcoord=FlatArray("texcoord"),
    elemtexcoord=IntArray("elemtexcoord"),
    node=_not_built("node"),
    nodecoord=_not_built("nodecoord"),
    cellcount=Vector("cellcount", 3, integer=True),
    dof=_not_built("dof"),
)
_FLEX_CONTACT = {
    "contype": Number("contype", integer=True),
    "conaffinity": Number("conaffinity", integer=True),
    "condim": Number("condim", integer=True),
    "priority": Number("priority", integer=True),
    "friction": Vector("friction", 3, partial=True),
    "solmix": Number("solmix"),
    "solref": Vector("solref", 2, partial=True),
    "solimp": Vector("solimp", 5, partial=True),
    "margin": Number("margin"),
    "gap": Number("gap"),
    "selfcollide": Keyword("selfcollide", mujoco.mjtFlexSelf),
    "activelayers": Number("activelayers", integer=True),
    "passive": _int_keyword("passive", ("false", "true")),
}
_FLEX_EDGE = {"stiffness": Number("edgestiffness"), "damping": Number("edgedamping")}
_FLEX_ELASTICITY = {
    "young": Number("young"),
    "poisson": Number("poisson"),
    "damping": Number("damping"),
    "thickness": Number("thickness"),
    "elastic2d": _int_keyword("elastic2d", ("none", "bend", "stretch", "both")),
    "section": Keyword("section", mujoco.mjtFlexSection),
    "sectionsize": Vector("sectionsize", 2),
}

_NUMERIC = _named(size=Number("size", integer=True), data=FlatArray("data"))
_TEXT = _named(data=Text("data"))
_TUPLE = _named()
_TUPLE_ELEMENT = {
    # (No fields to snapshot: an entry is no spec element; `set_attributes` on one is
    # not undone when a later attribute fails.)
    "objtype": Custom(_entry_objtype, _set_entry_objtype, ()),
    "objname": Custom(_entry_objname, _set_entry_objname, ()),
    "prm": Custom(lambda handle: float(handle._mjs.read("objprm")), _set_entry_prm, ()),
}

ELEMENT_ATTRIBUTES = {
    "numeric": _NUMERIC,
    "text": _TEXT,
    "tuple": _TUPLE,
    "tuple_element": _TUPLE_ELEMENT,
    "skin": _SKIN,
    "bone": _BONE,
    "flex": _FLEX,
    "flex_contact": _FLEX_CONTACT,
    "flex_edge": _FLEX_EDGE,
    "flex_elasticity": _FLEX_ELASTICITY,
    "plugin": _PLUGIN_ACTUATOR,
    "extension_plugin": _EXTENSION_PLUGIN,
    "instance": _INSTANCE,
    "config": _CONFIG,
    "spatial": _SPATIAL,
    "fixed": _FIXED,
    # A default class's <tendon>: what both kinds share, and the spatial ones' drawing.
    "tendon": _SPATIAL,
    "tendon_site": _TENDON_SITE,
    "tendon_geom": _TENDON_GEOM,
    "pulley": _PULLEY,
    "tendon_joint": _TENDON_JOINT,
    "body": _BODY,
    "geom": _GEOM,
    "site": _SITE,
    "joint": _JOINT,
    "freejoint": _FREEJOINT,
    "inertial": _INERTIAL,
    "camera": _CAMERA,
    "light": _LIGHT,
    "material": _MATERIAL,
    "texture": _TEXTURE,
    "mesh": _MESH,
    "hfield": _HFIELD,
    "motor": _MOTOR,
    "position": _POSITION,
    "velocity": _VELOCITY,
    "cylinder": _CYLINDER,
    "general": _GENERAL,
    "element_plugin": _ELEMENT_PLUGIN,
    "pair": _PAIR,
    "exclude": _EXCLUDE,
    "weld": {
        **_equality("body1", "body2", "body"),
        # MuJoCo's weld data (its XML reader): anchor, relpose (pos, quat), torquescale.
        "anchor": _equality_data(0, 3),
        "relpose": _equality_data(3, 7),
        "torquescale": _equality_data(10, 1),
    },
    "connect": _equality("body1", "body2", "body", "anchor", 3),
    "equality_joint": _equality("joint1", "joint2", "joint", "polycoef", 5),
    "equality_tendon": _equality("tendon1", "tendon2", "tendon", "polycoef", 5),
    "key": _KEY,
    **{tag: sensor_attributes(tag) for tag in SENSORS},
}


# Attributes of the model's global sections, as fields of MjSpec's structs.
def _angle(value: Any) -> bool:
    if value not in ("degree", "radian"):
        raise ValueError(f"expected 'degree' or 'radian', got {value!r}")
    return value == "degree"


_ANGLE = Custom(
    lambda h: "degree" if h._mjs.degree else "radian",
    lambda h, v: setattr(h._mjs, "degree", _angle(v)),
    ("degree",),
)


def _coordinate(handle: Handle, value: Any) -> None:
    if value != "local":
        raise ValueError(
            f"MuJoCo >= 2.2 supports only coordinate='local' (frames relative to the parent), "
            f"got {value!r}"
        )


COMPILER = {
    "angle": _ANGLE,
    "coordinate": Custom(lambda h: "local", _coordinate, ()),
    "eulerseq": Text("eulerseq"),
    "boundmass": Number("boundmass"),
    "boundinertia": Number("boundinertia"),
    "settotalmass": Number("settotalmass"),
    "balanceinertia": Boolean("balanceinertia"),
    "autolimits": Boolean("autolimits"),
    "discardvisual": Boolean("discardvisual"),
    "fusestatic": Boolean("fusestatic"),
    "alignfree": Boolean("alignfree"),
    "inertiafromgeom": Keyword(
        "inertiafromgeom",
        mujoco.mjtInertiaFromGeom,
        {
            "true": mujoco.mjtInertiaFromGeom.mjINERTIAFROMGEOM_TRUE,
            "false": mujoco.mjtInertiaFromGeom.mjINERTIAFROMGEOM_FALSE,
            "auto": mujoco.mjtInertiaFromGeom.mjINERTIAFROMGEOM_AUTO,
        },
    ),
    "meshdir": Text("meshdir"),
    "texturedir": Text("texturedir"),
}

OPTION = {
    "timestep": Number("timestep"),
    "gravity": Vector("gravity", 3),
    "wind": Vector("wind", 3),
    "magnetic": Vector("magnetic", 3),
    "density": Number("density"),
    "viscosity": Number("viscosity"),
    "impratio": Number("impratio"),
    # Spelled as dm_control/mjcf/schema.xml spells them.
    "integrator": Keyword(
        "integrator", mujoco.mjtIntegrator, spellings={"euler": "Euler", "rk4": "RK4"}
    ),
    "cone": Keyword("cone", mujoco.mjtCone),
    "jacobian": Keyword("jacobian", mujoco.mjtJacobian),
    "solver": Keyword(
        "solver", mujoco.mjtSolver, spellings={"pgs": "PGS", "cg": "CG", "newton": "Newton"}
    ),
    "iterations": Number("iterations", integer=True),
    "tolerance": Number("tolerance"),
    "ls_iterations": Number("ls_iterations", integer=True),
    "ls_tolerance": Number("ls_tolerance"),
    "noslip_iterations": Number("noslip_iterations", integer=True),
    "noslip_tolerance": Number("noslip_tolerance"),
    "ccd_iterations": Number("ccd_iterations", integer=True),
    "ccd_tolerance": Number("ccd_tolerance"),
    # Signed-distance-field collisions: gradient-descent iterations and starting points.
    "sdf_iterations": Number("sdf_iterations", integer=True),
    "sdf_initpoints": Number("sdf_initpoints", integer=True),
    "o_margin": Number("o_margin"),
    "o_solref": Vector("o_solref", 2),
    "o_solimp": Vector("o_solimp", 5),
    "o_friction": Vector("o_friction", 5),
}

# `<option><flag contact="disable"/>`: flag names are MuJoCo's disable/enable bits.
DISABLE_FLAGS = {
    name[len("mjDSBL_") :].lower(): member
    for name, member in mujoco.mjtDisableBit.__members__.items()
    if name != "mjNDISABLE"
}
ENABLE_FLAGS = {
    name[len("mjENBL_") :].lower(): member
    for name, member in mujoco.mjtEnableBit.__members__.items()
    if name != "mjNENABLE"
}
# The flags in MJCF's order (dm_control/mjcf/schema.xml), then any MuJoCo added since.
_SCHEMA_FLAGS = (
    "constraint equality frictionloss limit contact spring damper gravity clampctrl warmstart "
    "filterparent actuation refsafe sensor midphase eulerdamp autoreset nativeccd island "
    "multiccd override energy fwdinv invdiscrete sleep diagexact ipc"
).split()
FLAG_ORDER = tuple(
    name for name in _SCHEMA_FLAGS if name in DISABLE_FLAGS or name in ENABLE_FLAGS
) + tuple(sorted((set(DISABLE_FLAGS) | set(ENABLE_FLAGS)) - set(_SCHEMA_FLAGS)))

SIZE = {
    "njmax": Number("njmax", integer=True),
    "nconmax": Number("nconmax", integer=True),
    "nstack": Number("nstack", integer=True),
    "nuserdata": Number("nuserdata", integer=True),
    "nkey": Number("nkey", integer=True),
    "memory": Custom(lambda h: h._mjs.memory, lambda h, v: _set_memory(h, v), ("memory",)),
}


def _set_memory(handle: Handle, value: Any) -> WrittenForm:
    """Sets `memory` in bytes; it reads back as written (`"64M"`), as PyMJCF's string."""
    handle._mjs.memory = _memory(value)
    return value if isinstance(value, str) else None


_MEMORY_UNITS = {"": 1, "K": 2**10, "M": 2**20, "G": 2**30}


def _memory(value: Any) -> int:
    if isinstance(value, (int, np.integer)):
        return int(value)
    text = str(value).strip()
    unit = text[-1].upper() if text and text[-1].isalpha() else ""
    number = text[:-1] if unit else text
    if unit not in _MEMORY_UNITS or not number.isdigit():
        raise ValueError(f"expected a number of bytes such as '64M', got {value!r}")
    return int(number) * _MEMORY_UNITS[unit]


# PyMJCF's order of the attributes of the tags whose tables here are in another order
# (the order of dm_control/mjcf/schema.xml): `get_attributes` lists an element's
# attributes in it, after its name and class. A name not listed keeps the table's place.
_PYMJCF_ORDER_TEXT = {
    "plugin": "group ctrlrange user plugin instance ctrllimited forcelimited actlimited forcerange actrange lengthrange gear joint jointinparent site actdim dyntype dynprm tendon",
    "body": "childclass pos quat axisangle xyaxes zaxis euler mocap gravcomp user",
    "geom": "type contype conaffinity condim group priority size material friction mass density solmix solref solimp margin gap fromto pos quat axisangle xyaxes zaxis euler hfield mesh rgba user",
    "site": "type group pos quat axisangle xyaxes zaxis euler material size fromto rgba user",
    "joint": "type group pos axis limited actuatorfrclimited solreflimit solimplimit solreffriction solimpfriction stiffness range actuatorfrcrange margin ref springref armature damping frictionloss user",
    "camera": "fovy ipd pos quat axisangle xyaxes zaxis euler mode target user",
    "light": "directional type castshadow active pos dir intensity attenuation cutoff exponent ambient diffuse specular mode target",
    "texture": "type content_type file gridsize gridlayout builtin rgb1 rgb2 mark markrgb random width height",
    "mesh": "content_type file vertex face scale",
    "hfield": "file nrow ncol size elevation",
    "motor": "group ctrlrange user ctrllimited forcelimited forcerange lengthrange gear joint jointinparent tendon site refsite",
    "position": "group ctrlrange user ctrllimited forcelimited forcerange lengthrange gear joint jointinparent tendon site refsite kp kv",
    "velocity": "group ctrlrange user ctrllimited forcelimited forcerange lengthrange gear joint jointinparent tendon site refsite kv",
    "cylinder": "group ctrlrange user ctrllimited forcelimited forcerange lengthrange gear joint jointinparent tendon site refsite timeconst area diameter bias",
    "general": "group ctrlrange user ctrllimited forcelimited actlimited forcerange actrange lengthrange gear joint jointinparent tendon site refsite body dyntype gaintype biastype dynprm gainprm biasprm",
    "pair": "geom1 geom2 condim friction solref solimp gap margin",
    "weld": "active solref solimp body1 body2",
    "connect": "active solref solimp body1 body2 anchor",
    "key": "time qpos qvel act mpos mquat ctrl",
    "touch": "cutoff noise user site",
    "accelerometer": "cutoff noise user site",
    "velocimeter": "cutoff noise user site",
    "gyro": "cutoff noise user site",
    "force": "cutoff noise user site",
    "torque": "cutoff noise user site",
    "magnetometer": "cutoff noise user site",
    "rangefinder": "cutoff noise user site",
    "jointpos": "cutoff noise user joint",
    "jointvel": "cutoff noise user joint",
    "tendonpos": "cutoff noise user tendon",
    "tendonvel": "cutoff noise user tendon",
    "actuatorpos": "cutoff noise user actuator",
    "actuatorvel": "cutoff noise user actuator",
    "actuatorfrc": "cutoff noise user actuator",
    "subtreecom": "cutoff noise user body",
    "subtreelinvel": "cutoff noise user body",
    "subtreeangmom": "cutoff noise user body",
    "framepos": "cutoff noise user objtype objname reftype refname",
    "framequat": "cutoff noise user objtype objname reftype refname",
    "framexaxis": "cutoff noise user objtype objname reftype refname",
    "frameyaxis": "cutoff noise user objtype objname reftype refname",
    "framezaxis": "cutoff noise user objtype objname reftype refname",
    "framelinvel": "cutoff noise user objtype objname reftype refname",
    "frameangvel": "cutoff noise user objtype objname reftype refname",
    "framelinacc": "cutoff noise user objtype objname",
    "frameangacc": "cutoff noise user objtype objname",
    **{
        tag: "cutoff noise user " + sensed
        for tag, sensed in (
            ("jointactuatorfrc", "joint"),
            ("tendonactuatorfrc", "tendon"),
            ("ballquat", "joint"),
            ("ballangvel", "joint"),
            ("jointlimitpos", "joint"),
            ("jointlimitvel", "joint"),
            ("jointlimitfrc", "joint"),
            ("tendonlimitpos", "tendon"),
            ("tendonlimitvel", "tendon"),
            ("tendonlimitfrc", "tendon"),
            ("normal", "geom1 geom2 body1 body2"),
            ("fromto", "geom1 geom2 body1 body2"),
            ("clock", ""),
            ("e_potential", ""),
            ("e_kinetic", ""),
        )
    },
}
_PYMJCF_ORDER = {
    tag: {name: place for place, name in enumerate(text.split())}
    for tag, text in _PYMJCF_ORDER_TEXT.items()
}


def in_pymjcf_order(tag: str, names: list[str]) -> list[str]:
    """`names` (attributes of a `tag` element, in its table's order) in PyMJCF's order."""
    places = _PYMJCF_ORDER.get(tag)
    if places is None:
        return names
    last = len(places)
    return sorted(names, key=lambda name: places.get(name, last))
