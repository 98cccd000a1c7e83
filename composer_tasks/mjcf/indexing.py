"""Where an element's quantity lives in MuJoCo's arrays: the basis of `bind` and `named`.

For a kind of element and an attribute name, `locate` finds the `MjData` or
`MjModel` array and the entries of it that belong to given elements, with the
shape PyMJCF gives them:

* per-element rows (`xpos` of bodies, `geom_size`, `ctrl`, `body_mass`): one
  element gives its row (`(3,)`, or `()` for a scalar row), a list of n elements
  `(n, *row)`;
* address-indexed quantities of varying width (`qpos`, `qvel` and other
  per-degree-of-freedom arrays of joints, `sensordata`, `act`): one element gives
  its slice (`(1,)` for a hinge's qpos, `(7,)` for a free joint's), a list gives the
  slices concatenated.
"""

from __future__ import annotations

import abc
import collections
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NamedTuple

import mujoco
import numpy as np
from numpy.typing import ArrayLike, DTypeLike

from composer_tasks.physics import dm_control_element_name


KINDS = {
    "body": (mujoco.mjtObj.mjOBJ_BODY, "nbody"),
    "joint": (mujoco.mjtObj.mjOBJ_JOINT, "njnt"),
    "geom": (mujoco.mjtObj.mjOBJ_GEOM, "ngeom"),
    "site": (mujoco.mjtObj.mjOBJ_SITE, "nsite"),
    "camera": (mujoco.mjtObj.mjOBJ_CAMERA, "ncam"),
    "light": (mujoco.mjtObj.mjOBJ_LIGHT, "nlight"),
    "actuator": (mujoco.mjtObj.mjOBJ_ACTUATOR, "nu"),
    "sensor": (mujoco.mjtObj.mjOBJ_SENSOR, "nsensor"),
    "tendon": (mujoco.mjtObj.mjOBJ_TENDON, "ntendon"),
    "mesh": (mujoco.mjtObj.mjOBJ_MESH, "nmesh"),
    "material": (mujoco.mjtObj.mjOBJ_MATERIAL, "nmat"),
    "texture": (mujoco.mjtObj.mjOBJ_TEXTURE, "ntex"),
    "hfield": (mujoco.mjtObj.mjOBJ_HFIELD, "nhfield"),
    "equality": (mujoco.mjtObj.mjOBJ_EQUALITY, "neq"),
    "pair": (mujoco.mjtObj.mjOBJ_PAIR, "npair"),
    "exclude": (mujoco.mjtObj.mjOBJ_EXCLUDE, "nexclude"),
    "key": (mujoco.mjtObj.mjOBJ_KEY, "nkey"),
}

# Name prefixes of per-element arrays, in MjModel and in MjData.
_MODEL_PREFIXES = {
    "body": "body_",
    "joint": "jnt_",
    "geom": "geom_",
    "site": "site_",
    "camera": "cam_",
    "light": "light_",
    "actuator": "actuator_",
    "sensor": "sensor_",
    "tendon": "tendon_",
    "mesh": "mesh_",
    "material": "mat_",
    "texture": "tex_",
    "hfield": "hfield_",
    "equality": "eq_",
    "pair": "pair_",
    "exclude": "exclude_",
    "key": "key_",
}
_DATA_PREFIXES = {
    "body": "",
    "geom": "geom_",
    "site": "site_",
    "camera": "cam_",
    "light": "light_",
    "actuator": "actuator_",
    "tendon": "ten_",
    "joint": "",
}
_JOINT_WIDTHS = {
    int(mujoco.mjtJoint.mjJNT_FREE): (7, 6),
    int(mujoco.mjtJoint.mjJNT_BALL): (4, 3),
    int(mujoco.mjtJoint.mjJNT_SLIDE): (1, 1),
    int(mujoco.mjtJoint.mjJNT_HINGE): (1, 1),
}

# Column names for `named` indexing with a second key (`named.data.xpos["torso", "z"]`).
_XYZ = ("x", "y", "z")
_QUATERNION = ("qw", "qx", "qy", "qz")
_MATRIX = ("xx", "xy", "xz", "yx", "yy", "yz", "zx", "zy", "zz")


class Location:
    """Entries of one MuJoCo array: the array, flat positions into it, output shape.

    `contiguous` tells that the positions are one run, so a view can be read.
    """

    __slots__ = ("array", "name", "positions", "shape", "struct")

    def __init__(
        self,
        array: np.ndarray,
        positions: np.ndarray,
        shape: tuple[int, ...],
        struct: str,
        name: str,
    ) -> None:
        self.array = array
        self.positions = positions
        self.shape = shape
        self.struct = struct
        self.name = name

    @property
    def contiguous(self) -> bool:
        positions = self.positions
        return (
            positions.size > 0 and bool(np.all(np.diff(positions) == 1))
            if positions.size > 1
            else positions.size == 1
        )

    def view(self) -> np.ndarray:
        """A view (writes reach the simulation); needs `contiguous`."""
        flat = self.array.reshape(-1)
        start = int(self.positions[0])
        return flat[start : start + self.positions.size].reshape(self.shape)

    def read(self) -> np.ndarray:
        """A new array with the values."""
        return self.array.reshape(-1)[self.positions].reshape(self.shape)

    def write(self, value: ArrayLike) -> None:
        flat = self.array.reshape(-1)
        flat[self.positions] = np.broadcast_to(np.asarray(value), self.shape).reshape(-1)


def _address(
    model: Any, kind: str, attribute: str | None, array_name: str, struct_name: str
) -> tuple[np.ndarray, np.ndarray]:
    """(address array, width array) when `attribute` is address-indexed for `kind`."""
    if kind == "joint":
        types = model.jnt_type
        if array_name in ("qpos", "qpos0", "qpos_spring"):
            widths = np.array([_JOINT_WIDTHS[int(t)][0] for t in types], dtype=int)
            return model.jnt_qposadr, widths
        widths = np.array([_JOINT_WIDTHS[int(t)][1] for t in types], dtype=int)
        return model.jnt_dofadr, widths
    if kind == "sensor" and array_name == "sensordata":
        return model.sensor_adr, model.sensor_dim
    if kind == "actuator" and array_name in ("act", "act_dot"):
        return model.actuator_actadr, np.where(model.actuator_actadr >= 0, model.actuator_actnum, 0)
    raise AssertionError(f"{array_name} of a {kind} is not indexed by address")


def _candidates(
    model: Any, data: Any, kind: str, attribute: str
) -> list[tuple[str, Any, str, str]]:
    """(struct name, struct, array name, how) candidates for an attribute, best first.

    `how` is "rows" or "address".
    """
    out = []
    if data is not None:
        if kind == "joint":
            if attribute == "qpos":
                out.append(("data", data, "qpos", "address"))
            elif attribute in ("xanchor", "xaxis"):
                out.append(("data", data, attribute, "rows"))
            elif isinstance(getattr(data, attribute, None), np.ndarray) and (
                getattr(data, attribute).shape[:1] == (model.nv,)
            ):
                out.append(("data", data, attribute, "address"))
        elif kind == "sensor" and attribute in ("sensordata", "data"):
            out.append(("data", data, "sensordata", "address"))
        elif kind == "actuator" and attribute in ("act", "act_dot"):
            # An activation and its time derivative, by the actuator's activation address.
            out.append(("data", data, attribute, "address"))
        elif kind == "actuator" and attribute == "ctrl":
            out.append(("data", data, "ctrl", "rows"))
        elif kind in _DATA_PREFIXES:
            prefix = _DATA_PREFIXES[kind]
            for name in dict.fromkeys((prefix + attribute, attribute)):
                out.append(("data", data, name, "rows"))
    if kind == "joint":
        if attribute in ("qpos0", "qpos_spring"):
            out.append(("model", model, attribute, "address"))
        out.append(("model", model, "jnt_" + attribute, "rows"))
        out.append(("model", model, "dof_" + attribute, "address"))
    elif kind in _MODEL_PREFIXES:
        out.append(("model", model, _MODEL_PREFIXES[kind] + attribute, "rows"))
    return out


def locate(
    model: Any, data: Any, kind: str, ids: ArrayLike, attribute: str, is_sequence: bool
) -> Location:
    """The entries of elements `ids` (of `kind`) for `attribute`.

    Raises:
      AttributeError: neither MjData nor MjModel has `attribute` for `kind`.
    """
    _, count_name = KINDS[kind]
    count = getattr(model, count_name)
    ids = np.asarray(ids, dtype=int).reshape(-1)
    if kind == "body" and attribute in ("mocap_pos", "mocap_quat") and data is not None:
        # A mocap body's rows of the mocap arrays (dm_control's `mocap_body` binding).
        mocap_ids = np.asarray(model.body_mocapid)[ids]
        if np.any(mocap_ids < 0):
            raise AttributeError(f"{attribute} is bound for mocap bodies only")
        array = getattr(data, attribute)
        width = array.shape[1]
        positions = (mocap_ids[:, None] * width + np.arange(width)[None, :]).reshape(-1)
        shape = ((len(ids),) if is_sequence else ()) + (width,)
        return Location(array, positions, shape, "data", attribute)
    for struct_name, struct, array_name, how in _candidates(model, data, kind, attribute):
        array = getattr(struct, array_name, None)
        if not isinstance(array, np.ndarray):
            continue
        if how == "address":
            address, widths = _address(model, kind, attribute, array_name, struct_name)
            pieces = [
                np.arange(int(address[i]), int(address[i] + widths[i])) * _row_size(array)
                for i in ids
            ]
            if _row_size(array) != 1:
                pieces = [
                    np.concatenate([np.arange(p, p + _row_size(array)) for p in piece])
                    if piece.size
                    else piece
                    for piece in pieces
                ]
            positions = np.concatenate(pieces) if pieces else np.zeros(0, dtype=int)
            # dm_control's activation axis reduces one actuator's single activation
            # to a scalar.
            scalar = kind == "actuator" and not is_sequence and positions.size == 1
            shape = () if scalar else (positions.size,)
            return Location(array, positions.astype(int), shape, struct_name, array_name)
        if array.ndim == 0 or array.shape[0] != count:
            continue
        row_shape = array.shape[1:]
        row_size = _row_size(array)
        positions = (ids[:, None] * row_size + np.arange(row_size)[None, :]).reshape(-1)
        shape = ((len(ids),) if is_sequence else ()) + row_shape
        return Location(array, positions.astype(int), shape, struct_name, array_name)
    raise AttributeError(f"neither MjData nor MjModel has an attribute {attribute!r} for a {kind}")


def _row_size(array: np.ndarray) -> int:
    return int(np.prod(array.shape[1:], dtype=int)) if array.ndim > 1 else 1


def element_ids(model: Any, kind: str, mjs_elements: Iterable[Any]) -> list[int]:
    """Ids in the compiled `model` of spec elements (all of one kind)."""
    ids = []
    for element in mjs_elements:
        ids.append(model.bind(element).id)
    return ids


def kind_of(mjs: Any) -> str:
    """The kind (`"body"`, `"joint"`, ...) of a spec element."""
    try:
        return _KIND_BY_TYPE[type(mjs)]
    except KeyError:
        raise TypeError(f"cannot bind a {type(mjs).__name__}") from None


_KIND_BY_TYPE = {
    mujoco.MjsBody: "body",
    mujoco.MjsJoint: "joint",
    mujoco.MjsGeom: "geom",
    mujoco.MjsSite: "site",
    mujoco.MjsCamera: "camera",
    mujoco.MjsLight: "light",
    mujoco.MjsActuator: "actuator",
    mujoco.MjsSensor: "sensor",
    mujoco.MjsTendon: "tendon",
    mujoco.MjsMesh: "mesh",
    mujoco.MjsMaterial: "material",
    mujoco.MjsTexture: "texture",
    mujoco.MjsHField: "hfield",
    mujoco.MjsEquality: "equality",
    mujoco.MjsPair: "pair",
    mujoco.MjsExclude: "exclude",
    mujoco.MjsKey: "key",
}


# Named indexing.


# Fields whose rows the generic rules below would miss or misname, as
# dm_control's size table names them: (kind, "rows" or "address"), or None for
# an array that is not per element (`actuator_moment` is sparse).
_DATA_FIELD_KINDS: dict[str, tuple[str, str] | None] = {
    "act_dot": ("actuator", "address"),
    "cdof": ("joint", "address"),
    "cdof_dot": ("joint", "address"),
    "dof_awake_ind": ("joint", "address"),
    "moment_rowadr": ("actuator", "rows"),
    "moment_rownnz": ("actuator", "rows"),
    "actuator_moment": None,
}
_MODEL_FIELD_KINDS: dict[str, tuple[str, str] | None] = {
    "B_rowadr": ("body", "rows"),
    "B_rownnz": ("body", "rows"),
    "D_rowadr": ("joint", "address"),
    "D_rownnz": ("joint", "address"),
    "D_diag": ("joint", "address"),
    "M_rowadr": ("joint", "address"),
    "M_rownnz": ("joint", "address"),
    "ten_J_rowadr": ("tendon", "rows"),
    "ten_J_rownnz": ("tendon", "rows"),
}
# `name_<x>adr`: the addresses of element names in `model.names`.
_NAME_ADDRESS_KINDS = {prefix[:-1]: kind for kind, prefix in _MODEL_PREFIXES.items()}


def _array_kind(
    model: Any, struct_name: str, name: str, array: np.ndarray
) -> tuple[str, str] | None:
    """(kind, how) of a named array, or None if its rows are not per element."""
    fields = _DATA_FIELD_KINDS if struct_name == "data" else _MODEL_FIELD_KINDS
    if name in fields:
        kind = fields[name]
        if kind is None:
            return None
        element_kind, how = kind
        if how == "address":
            rows = {"actuator": model.na, "sensor": model.nsensordata}.get(element_kind, model.nv)
        else:
            rows = getattr(model, KINDS[element_kind][1])
        return kind if array.shape[:1] == (rows,) else None
    if struct_name == "model" and name.startswith("name_") and name.endswith("adr"):
        element_kind = _NAME_ADDRESS_KINDS.get(name[len("name_") : -len("adr")])
        if element_kind is not None:
            return element_kind, "rows"
    if struct_name == "data":
        if name == "qpos":
            return "joint", "address"
        if name in ("xanchor", "xaxis"):
            return "joint", "rows"
        if name == "sensordata":
            return "sensor", "address"
        if name == "act":
            return "actuator", "address"
        if name == "ctrl":
            return "actuator", "rows"
        if name.startswith("mocap_"):
            return "mocap", "rows"
        for kind, prefix in (
            ("geom", "geom_"),
            ("site", "site_"),
            ("camera", "cam_"),
            ("light", "light_"),
            ("actuator", "actuator_"),
            ("tendon", "ten_"),
        ):
            if name.startswith(prefix) and array.shape[:1] == (getattr(model, KINDS[kind][1]),):
                return kind, "rows"
        if array.shape[:1] == (model.nv,) and name.startswith("q"):
            return "joint", "address"
        if array.shape[:1] == (model.nbody,):
            return "body", "rows"
        return None
    if name in ("qpos0", "qpos_spring"):
        return "joint", "address"
    if name.startswith("dof_"):
        return "joint", "address"
    for kind, prefix in _MODEL_PREFIXES.items():
        if name.startswith(prefix) and array.shape[:1] == (getattr(model, KINDS[kind][1]),):
            return kind, "rows"
    return None


# Column names of the fields whose rows are vectors, quaternions, rotation matrices
# or colours (dm_control's `mujoco.index` table).
_COLUMNS = {
    _XYZ: frozenset(
        (
            "body_pos",
            "body_ipos",
            "body_inertia",
            "jnt_pos",
            "jnt_axis",
            "geom_size",
            "geom_pos",
            "site_size",
            "site_pos",
            "cam_pos",
            "cam_poscom0",
            "cam_pos0",
            "light_pos",
            "light_dir",
            "light_poscom0",
            "light_pos0",
            "light_dir0",
            "mesh_vert",
            "mesh_normal",
            "mocap_pos",
            "xpos",
            "xipos",
            "xanchor",
            "xaxis",
            "geom_xpos",
            "site_xpos",
            "cam_xpos",
            "light_xpos",
            "light_xdir",
            "subtree_com",
            "wrap_xpos",
            "subtree_linvel",
            "subtree_angmom",
        )
    ),
    _QUATERNION: frozenset(
        ("body_quat", "body_iquat", "geom_quat", "site_quat", "cam_quat", "mocap_quat", "xquat")
    ),
    _MATRIX: frozenset(("cam_mat0", "xmat", "ximat", "geom_xmat", "site_xmat", "cam_xmat")),
    ("r", "g", "b", "a"): frozenset(
        ("geom_rgba", "site_rgba", "skin_rgba", "mat_rgba", "tendon_rgba")
    ),
}


def _validate_key_item(key_item: Any) -> None:
    if isinstance(key_item, (list, np.ndarray)):
        for item in key_item:
            _validate_key_item(item)
    elif key_item is Ellipsis:
        raise IndexError("Ellipsis indexing not supported.")
    elif key_item is None:
        raise IndexError("None indexing not supported.")
    elif isinstance(key_item, (str, bytes)) and not key_item:
        raise IndexError("Empty strings are not allowed.")


def _native(name: Any) -> str:
    """A key's name as a str, in dm_control's form (an attached model's unnamed element
    may be given by its compiled name too: `composer_tasks.physics.compiled_element_name`)."""
    return dm_control_element_name(name.decode() if isinstance(name, bytes) else name)


class Axis(abc.ABC):
    """One axis of a named field: turns a (possibly named) key item into a NumPy index."""

    @abc.abstractmethod
    def convert_key_item(self, key_item: Any) -> Any:
        """The NumPy index for `key_item` (a name, a list of names, or a NumPy index).

        Raises:
            IndexError: an Ellipsis, None or an empty string.
            KeyError: a name the axis does not have.
        """


class UnnamedAxis(Axis):
    """An axis whose entries have no names: keys pass through unchanged."""

    def convert_key_item(self, key_item: Any) -> Any:
        _validate_key_item(key_item)
        return key_item


class RegularNamedAxis(Axis):
    """An axis with one entry per named element (`xpos`'s bodies, `xyz` columns).

    Args:
      names: the entries' names, in order ("" for an unnamed element).
      kind: what the entries are ("body", "column"), for the message of an unknown name.
    """

    def __init__(self, names: Sequence[str], *, kind: str = "element") -> None:
        self._names = names
        self._kind = kind
        self._offsets = {name: offset for offset, name in enumerate(names) if name}

    def _offset(self, name: Any) -> int:
        try:
            return self._offsets[_native(name)]
        except KeyError:
            raise KeyError(f"no {self._kind} named {_native(name)!r}") from None

    @property
    def names(self) -> Sequence[str]:
        """The entries' names ("" for an unnamed element), as given."""
        return self._names

    def convert_key_item(self, key_item: Any) -> Any:
        """A NumPy index for a name, a list (or array) of names, or a NumPy index.

        Raises:
            KeyError: a name no entry has.
        """
        _validate_key_item(key_item)
        if isinstance(key_item, (str, bytes)):
            return self._offset(key_item)
        if isinstance(key_item, (list, np.ndarray)):
            items = np.asarray(key_item)
            if items.size and isinstance(items.flat[0], (str, np.str_, bytes)):
                offsets = np.array([self._offset(str(k)) for k in items.flat])
                return offsets.reshape(items.shape)
            return items
        return key_item


class RaggedNamedAxis(Axis):
    """An axis whose named elements span several entries (`qpos` of joints, a
    sensor's `sensordata`): a name gives its slice (with `singleton`, a one-entry
    element gives its index, as `act` does), a list of names the concatenated indices.

    Args:
      element_names: the elements' names, in order ("" for an unnamed element).
      element_sizes: how many entries each element spans.
      singleton: whether a one-entry element's name gives an index, not a slice.
      kind: what the elements are ("joint", "sensor"), for the message of an unknown name.
    """

    def __init__(
        self,
        element_names: Sequence[str],
        element_sizes: ArrayLike,
        singleton: bool = False,
        *,
        kind: str = "element",
    ) -> None:
        self._names = element_names
        self._kind = kind
        self._slices: dict[str, int | slice] = {}
        self._indices: dict[str, range] = {}
        offset = 0
        for name, size in zip(element_names, np.asarray(element_sizes).reshape(-1)):
            size = int(size)
            if name:
                self._slices[name] = (
                    offset if size == 1 and singleton else slice(offset, offset + size)
                )
                self._indices[name] = range(offset, offset + size)
            offset += size

    @property
    def names(self) -> Sequence[str]:
        """The elements' names ("" for an unnamed element), as given."""
        return self._names

    def convert_key_item(self, key_item: Any) -> Any:
        """A NumPy index for a name, a list of names, or a NumPy index.

        Raises:
            KeyError: a name no element has.
        """
        _validate_key_item(key_item)
        if isinstance(key_item, (str, bytes)):
            name = _native(key_item)
            if name not in self._slices:
                raise KeyError(f"no {self._kind} named {name!r}")
            return self._slices[name]
        if isinstance(key_item, (list, np.ndarray)) and len(key_item):
            if isinstance(key_item[0], (str, np.str_, bytes)):
                indices: list[int] = []
                for item in key_item:
                    name = _native(str(item))
                    if name not in self._indices:
                        raise KeyError(f"no {self._kind} named {name!r}")
                    indices.extend(self._indices[name])
                return indices
        return key_item


class Axes(NamedTuple):
    """The row and column axes of a named field (`named.data.xpos.axes.row.names`)."""

    row: Axis
    col: Axis | None = None


# Size names (dm_control's names of MuJoCo's array dimensions, `nbody`, `nq`, ...)
# whose elements span several entries: the model field of each element's first
# entry (dm_control's mujoco/index.py `_RAGGED_ADDRS`).
_RAGGED_ADDRESSES = {
    "nq": "jnt_qposadr",
    "nv": "jnt_dofadr",
    "na": "actuator_actadr",
    "nsensordata": "sensor_adr",
    "nnumericdata": "numeric_adr",
}
# Size names of the named columns.
_COLUMN_SIZE_NAMES = {
    _XYZ: "xyz",
    _QUATERNION: "quat",
    _MATRIX: "mat",
    ("r", "g", "b", "a"): "rgba",
}
# What the entries of a size name are, for the message of an unknown name.
_SIZE_LABELS = {
    "njnt": "joint",
    "nq": "joint",
    "nv": "joint",
    "na": "actuator",
    "nu": "actuator",
    "nout": "actuator",
    "ncam": "camera",
    "nmat": "material",
    "ntex": "texture",
    "neq": "equality",
    "nsensordata": "sensor",
    "nnumericdata": "numeric",
    "nmocap": "mocap body",
    **{size_name: "column" for size_name in _COLUMN_SIZE_NAMES.values()},
}


def _names_at(model: Any, addresses: np.ndarray) -> list[str]:
    """The names that start at `addresses` in `model.names` (dm_control's forms)."""
    names = model.names
    return [
        dm_control_element_name(names[a : names.find(b"\0", a)].decode())
        for a in np.asarray(addresses).reshape(-1)
    ]


def _size_element_names(model: Any, size_name: str) -> Sequence[str] | None:
    """The names along dimension `size_name`, or None where dm_control names none
    (a kind of element the model has none of, or a dimension that is not per element)."""
    for columns, column_size_name in _COLUMN_SIZE_NAMES.items():
        if size_name == column_size_name:
            return list(columns)
    if size_name == "nmocap":
        return _element_names(model, "mocap")
    if size_name in _RAGGED_ADDRESSES:
        size_name = "n" + _RAGGED_ADDRESSES[size_name].split("_")[0]
    elif size_name in ("nu", "nout"):
        size_name = "nactuator"
    addresses = getattr(model, f"name_{size_name[1:]}adr", None)
    if not isinstance(addresses, np.ndarray) or not addresses.size:
        return None
    return _names_at(model, addresses)


def _size_axis(model: Any, size_name: str) -> Axis | None:
    """dm_control's axis for dimension `size_name` of `model`, or None where it has none."""
    names = _size_element_names(model, size_name)
    if names is None:
        return None
    kind = _SIZE_LABELS.get(size_name, size_name[1:])
    if size_name not in _RAGGED_ADDRESSES:
        return RegularNamedAxis(names, kind=kind)
    addresses = np.asarray(getattr(model, _RAGGED_ADDRESSES[size_name])).reshape(-1)
    if size_name == "na":
        # dm_control counts one activation per stateful actuator here.
        sizes = np.where(addresses == -1, 0, 1)
    else:
        sizes = np.diff(np.r_[addresses, getattr(model, size_name)])
    return RaggedNamedAxis(names, sizes, singleton=size_name == "na", kind=kind)


def make_axis_indexers(model: Any) -> collections.defaultdict[Any, Axis]:
    """Size name (`"nbody"`, `"nq"`, `"xyz"`, ...) -> the `Axis` of that dimension of
    `model`'s and its data's arrays, as dm_control's `make_axis_indexers`: per-element
    dimensions by element name (`nq`, `nv`, `na`, `nsensordata`, `nnumericdata`
    ragged), `nu` and `nout` by actuator name, `nmocap` by mocap body name, and the
    named columns. Any other size name gives an `UnnamedAxis`."""
    size_names = [
        "n" + field[len("name_") : -len("adr")]
        for field in dir(model)
        if field.startswith("name_") and field.endswith("adr")
    ]
    size_names += [*_RAGGED_ADDRESSES, "nu", "nout", "nmocap", *_COLUMN_SIZE_NAMES.values()]
    indexers: collections.defaultdict[Any, Axis] = collections.defaultdict(UnnamedAxis)
    for size_name in size_names:
        axis = _size_axis(model, size_name)
        if axis is not None:
            indexers[size_name] = axis
    return indexers


def _element_names(model: Any, kind: str) -> list[str]:
    if kind == "mocap":
        names = [""] * model.nmocap
        for body, mocap in enumerate(model.body_mocapid):
            if mocap >= 0:
                names[int(mocap)] = dm_control_element_name(
                    mujoco.mj_id2name(model, mujoco.mjtObj.mjOBJ_BODY, body) or ""
                )
        return names
    obj, count_name = KINDS[kind]
    return [
        dm_control_element_name(mujoco.mj_id2name(model, obj, i) or "")
        for i in range(getattr(model, count_name))
    ]


def _row_size_name(model: Any, struct_name: str, name: str, array: np.ndarray) -> str | None:
    """dm_control's size name of the rows of `model`'s or its data's array `name`
    (`struct_name` "model" or "data"), or None where the rows are not per element."""
    if struct_name == "model":
        if name.startswith("name_") and name.endswith("adr"):
            return "n" + name[len("name_") : -len("adr")]
        if name == "numeric_data":
            return "nnumericdata"
        if name.startswith("numeric_") and array.shape[:1] == (model.nnumeric,):
            return "nnumeric"
    kind = _array_kind(model, struct_name, name, array)
    if kind is None:
        return None
    element_kind, how = kind
    if element_kind == "mocap":
        return "nmocap"
    if how == "rows":
        return KINDS[element_kind][1]
    if element_kind == "actuator":
        return "na"
    if element_kind == "sensor":
        return "nsensordata"
    return "nq" if name in ("qpos", "qpos0", "qpos_spring") else "nv"


def _column_size_name(name: str, array: np.ndarray) -> str | None:
    """The size name of the named columns of field `name`, or None."""
    if array.ndim < 2:
        return None
    for columns, fields in _COLUMNS.items():
        if name in fields:
            return _COLUMN_SIZE_NAMES[columns]
    return None


def column_axis(name: str, array: np.ndarray) -> Axis | None:
    """The column axis of MuJoCo field `name` (named for positions, quaternions,
    rotation matrices and colours), or None for a field of one column."""
    if array.ndim < 2:
        return None
    size_name = _column_size_name(name, array)
    if size_name is None:
        return UnnamedAxis()
    columns = next(c for c, n in _COLUMN_SIZE_NAMES.items() if n == size_name)
    return RegularNamedAxis(list(columns), kind="column")


class FieldIndexer:
    """One MuJoCo array indexed by element names, as dm_control's `FieldIndexer`:
    rows by element name (`["leg0/hip"]`, `[["a", "b"]]`) and columns by the names
    of `axes.col` (x/y/z, qw/qx/qy/qz, xx..zz, r/g/b/a) in a (row, column) tuple,
    besides NumPy's own indices; other attributes are the array's."""

    __slots__ = ("_axes", "_field", "_field_name")

    def __init__(self, parent_struct: Any, field_name: str, axis_indexers: Sequence[Axis]) -> None:
        """
        Args:
          parent_struct: the MuJoCo struct (`MjModel`, `MjData`) that has the array.
          field_name: the array's attribute name in `parent_struct`.
          axis_indexers: one `Axis` per dimension (row, then column).

        Raises:
          AttributeError: `parent_struct` has no array `field_name`.
        """
        array = getattr(parent_struct, field_name)
        if not isinstance(array, np.ndarray):
            raise AttributeError(  # noqa: TRY004  (a missing array, as getattr raises)
                f"{type(parent_struct).__name__}.{field_name} is not an array"
            )
        self._field_name = field_name
        self._field = array
        self._axes = Axes(*axis_indexers)

    @property
    def axes(self) -> Axes:
        """The row and column axes (`axes.row.names`: the rows' element names)."""
        return self._axes

    @property
    def array(self) -> np.ndarray:
        """The MuJoCo array itself."""
        return self._field

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self._field, name)

    def __dir__(self) -> list[str]:
        return sorted(set(dir(type(self))) | set(dir(self._field)))

    def _convert_key(self, key: Any) -> Any:
        """The NumPy index of a (possibly named) key.

        Raises:
            IndexError: more key items than dimensions, an Ellipsis, None or "".
            KeyError: a name the axis does not have.
        """
        is_tuple = isinstance(key, tuple)
        items = key if is_tuple else (key,)
        if len(items) > self._field.ndim:
            raise IndexError(
                f"Index tuple has {len(items)} elements, but array has only "
                f"{self._field.ndim} dimensions."
            )
        axes = (self._axes.row, self._axes.col or UnnamedAxis())
        converted = tuple(axis.convert_key_item(item) for axis, item in zip(axes, items))
        return converted if is_tuple else converted[0]

    def __getitem__(self, key: Any) -> Any:
        return self._field[self._convert_key(key)]

    def __setitem__(self, key: Any, value: Any) -> None:
        self._field[self._convert_key(key)] = value

    def __array__(self, dtype: DTypeLike | None = None, copy: bool | None = None) -> np.ndarray:
        return np.array(self._field, dtype=dtype)

    def __repr__(self) -> str:
        field = self._field
        row_names, row_width = _axis_labels(self._axes.row, field.shape[0])
        lines = [f"{type(self).__name__}({self._field_name}):"]
        if field.ndim > 1 and self._axes.col is not None:
            col_names, col_width = _axis_labels(self._axes.col, field.shape[1])
        else:
            col_names, col_width = [""], 0
        index_width = int(np.log10(max(field.shape[0], 1))) + 1
        if col_width:
            width = max(col_width, 9) + 1
            padding = " " * (index_width + row_width + 4)
            lines.append(padding + "".join(f"{name:<{width}}" for name in col_names))
        if not field.shape[0]:
            lines.append("(empty)")
        for index, row in enumerate(field):
            values = np.array2string(
                np.atleast_1d(row),
                suppress_small=True,
                formatter={"float_kind": "{: < 9.3g}".format},
            )
            lines.append(f"{index:{index_width}} {row_names[index]:>{row_width}} {values}")
        return "\n".join(lines)


def _axis_labels(axis: Axis, size: int) -> tuple[list[str], int]:
    """Each entry's label along an axis (an element's name on every entry of its
    slice) and the widest name."""
    names = getattr(axis, "names", None)
    labels = [""] * size
    if not names:
        return labels, 0
    for name in names:
        if name:
            index = axis.convert_key_item(name)
            positions = range(size)[index] if isinstance(index, slice) else [index]
            for position in positions:
                labels[position] = name
    return labels, max(len(name) for name in names)


class _NamedStruct:
    """`physics.named.model` or `.data`: a `FieldIndexer` per array field, made on
    first use and kept until the model is replaced."""

    def __init__(
        self, model: Any, struct: Any, struct_name: str, axes: dict[str, Axis | None]
    ) -> None:
        self._model = model
        self._struct = struct
        self._struct_name = struct_name
        self._axes = axes
        self._fields: dict[str, FieldIndexer] = {}

    def __getattr__(self, name: str) -> FieldIndexer:
        if name.startswith("_"):
            raise AttributeError(name)
        field = self._fields.get(name)
        if field is None:
            field = _field_indexer(self._model, self._struct, self._struct_name, name, self._axes)
            self._fields[name] = field
        return field

    def _asdict(self) -> dict[str, FieldIndexer]:
        return {name: getattr(self, name) for name in self.__dir__()}

    def __dir__(self) -> list[str]:
        return _array_field_names(self._struct)


def _array_field_names(struct: Any) -> list[str]:
    """The struct's fields that are plain arrays (not structured: `contact` is not)."""
    return [
        name
        for name in dir(struct)
        if not name.startswith("_")
        and isinstance(getattr(struct, name, None), np.ndarray)
        and not getattr(struct, name).dtype.fields
    ]


def _size_axis_cached(model: Any, size_name: str, axes: dict[str, Axis | None]) -> Axis:
    if size_name not in axes:
        axes[size_name] = _size_axis(model, size_name)
    return axes[size_name] or UnnamedAxis()


def _field_indexer(
    model: Any, struct: Any, struct_name: str, name: str, axes: dict[str, Axis | None]
) -> FieldIndexer:
    """The named field `name` of `struct`, its axes built on demand into `axes` (size
    name -> axis, or None where dm_control's `make_axis_indexers` has none)."""
    array = getattr(struct, name, None)
    if not isinstance(array, np.ndarray):
        raise AttributeError(  # noqa: TRY004  (a missing attribute, as getattr raises)
            f"{struct_name}.{name} is not an array of MuJoCo's {struct_name}"
        )
    row_size_name = _row_size_name(model, struct_name, name, array)
    axis_indexers: list[Axis] = [
        UnnamedAxis() if row_size_name is None else _size_axis_cached(model, row_size_name, axes)
    ]
    if array.ndim > 1:
        column_size_name = _column_size_name(name, array)
        axis_indexers.append(
            UnnamedAxis()
            if column_size_name is None
            else _size_axis_cached(model, column_size_name, axes)
        )
    return FieldIndexer(struct, name, axis_indexers)


class NamedIndexer:
    """`physics.named`: `.model.<array>` and `.data.<array>` indexed by element names."""

    def __init__(self, physics: Any) -> None:
        axes: dict[str, Axis | None] = {}
        self.model = _NamedStruct(physics.model, physics.model, "model", axes)
        self.data = _NamedStruct(physics.model, physics.data, "data", axes)


def named_field(model: Any, data: Any, struct_name: str, name: str) -> FieldIndexer:
    """Array `name` of `model` or `data` (`struct_name` "model" or "data") indexed by names."""
    return _field_indexer(model, model if struct_name == "model" else data, struct_name, name, {})


# dm_control's names of the structs `struct_indexer` indexes.
_STRUCT_NAMES = {"mjmodel": "model", "mjdata": "data"}


def struct_indexer(struct: Any, struct_name: str, size_to_axis_indexer: Mapping[Any, Axis]) -> Any:
    """An object with a `FieldIndexer` attribute for each array field of `struct`, as
    dm_control's `struct_indexer` (`physics.named.data` is one):

        axes = make_axis_indexers(physics.model)
        named_data = struct_indexer(physics.data, "mjdata", axes)
        named_data.xpos["torso", "z"]

    Args:
      struct: an `MjModel`, or an `MjData` (whose `model` names its elements).
      struct_name: "mjmodel" or "mjdata" (any case).
      size_to_axis_indexer: size name -> `Axis`, as `make_axis_indexers` returns
        (looked up for each named dimension; a field whose rows are not per element
        gets an `UnnamedAxis`).

    Raises:
      ValueError: another struct name.
    """
    key = struct_name.lower()
    if key not in _STRUCT_NAMES:
        raise ValueError(
            f"Unrecognized struct name {struct_name!r}: expected one of {sorted(_STRUCT_NAMES)}"
        )
    model = struct if key == "mjmodel" else struct.model
    field_indexers = {}
    for name in _array_field_names(struct):
        array = getattr(struct, name)
        row_size_name = _row_size_name(model, _STRUCT_NAMES[key], name, array)
        axis_indexers = [
            UnnamedAxis() if row_size_name is None else size_to_axis_indexer[row_size_name]
        ]
        if array.ndim > 1:
            column_size_name = _column_size_name(name, array)
            axis_indexers.append(
                UnnamedAxis()
                if column_size_name is None
                else size_to_axis_indexer[column_size_name]
            )
        field_indexers[name] = FieldIndexer(struct, name, axis_indexers)
    return make_struct_indexer(field_indexers)


def make_struct_indexer(field_indexers: Mapping[str, FieldIndexer]) -> Any:
    """A read-only object whose attributes are `field_indexers` (name -> `FieldIndexer`),
    with `_asdict()` returning a copy of them, as dm_control's `make_struct_indexer`."""
    fields = dict(field_indexers)

    class StructIndexer:
        __slots__ = ()

        def _asdict(self) -> dict[str, FieldIndexer]:
            return dict(fields)

    for name, indexer in fields.items():
        setattr(StructIndexer, name, indexer)
    return StructIndexer()
